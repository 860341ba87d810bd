//! `iomark sweep [--OPTION=a,b,c | --OPTION=A..BxF ...] [job options] [--rows=OPTION]
//! [--cols=OPTION] [--show=FIGURE] [--latency-target=pNN=TIME] [--result=FILE]`.

use super::axes::{self, Axis, AxisError};
use super::matrix::Show;
use iomark_output::result_option;
use std::path::PathBuf;

pub const USAGE: &str =
    "Usage: iomark sweep [--OPTION=V1,V2,... | --OPTION=A..BxF | --OPTION=A..B+S ...] [job options]
                    [--rows=OPTION] [--cols=OPTION] [--show=iops|bw|mean|p99] [--result=FILE]
       iomark sweep --latency-target=p99=2ms [--iodepth=1..256x2] [job options]

Every job option given several values (a comma list or a range) is swept; the others apply to
every point. The points run one after another, first option slowest, last fastest, as one
run; the table shows one figure with one option along the rows and one along the columns.
Without --filename or --directory the points use a temporary file in the current directory
(--size, default 256m); without --runtime each point runs 5 s.

--rows=OPTION     option along the rows (default: the first swept one; the others join it)
--cols=OPTION     option along the columns (default: the last swept one)
--show=FIGURE     iops, bw (MB/s), mean or p99 (latency in µs) (default iops)
--latency-target=pNN=TIME
                  search the highest iodepth (or rate_iops, numjobs: the one swept option)
                  keeping that latency percentile (or mean) under TIME, by bisection over
                  measured points; prints the curve and the answer
--null-service-time=TIME
                  with --ioengine=null: model a device serving one I/O at a time in TIME
                  each (latency = queue depth x TIME, rate = 1/TIME), to try a search or a
                  table without a device; the figures are the model's, not a device's
--result=FILE     write the whole result (every point) as JSON
--result-file=FILE
                  the same option as --result
--repeat=N        run the sweep N times: statistics of every point's figures (also
                  --repeat-pause=TIME, --repeat-agg=mean|median|best), every run in --result
--allow-write     allow writing to an existing file or device given with --filename";

/// What `iomark sweep` was asked to do.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct SweepOpts {
    pub axes: Vec<Axis>,
    /// Options every point shares, as written.
    pub fixed: Vec<(String, String)>,
    pub rows: Option<String>,
    pub cols: Option<String>,
    pub show: Show,
    pub latency_target: Option<String>,
    /// The null engine's modelled service time per I/O (`--null-service-time`).
    pub null_service: Option<std::time::Duration>,
    pub result: Option<PathBuf>,
    pub allow_write: bool,
    pub help: bool,
}

/// A sweep argument that cannot be used.
#[derive(Debug, PartialEq, thiserror::Error)]
pub enum SweepArgError {
    #[error(transparent)]
    Axis(#[from] AxisError),
    #[error("sweep: --{0} needs a value")]
    NeedsValue(String),
    #[error("sweep: --show={0}: one of iops, bw, mean, p99")]
    Show(String),
    #[error("sweep: --{0}={1} is not a swept option")]
    NotAxis(&'static str, String),
    #[error("sweep: '{0}' is not an option (options are written --NAME=VALUE)\n\n{USAGE}")]
    Positional(String),
    #[error("sweep: --null-service-time={0}: {1}")]
    NullModel(String, iomark_fio::options::Reason),
}

/// Whether an option's value lists several values: a comma list, or a range `A..B...` whose
/// start is a number (`../x` and `a..b` are paths and names, not ranges).
fn swept(v: &str) -> bool {
    v.contains(',')
        || v.split_once("..")
            .is_some_and(|(a, _)| a.starts_with(|c: char| c.is_ascii_digit()) && !a.contains('/'))
}

/// Parse the arguments after `sweep`. Checks the cross product's size.
pub fn parse(args: &[String]) -> Result<SweepOpts, SweepArgError> {
    let mut o = SweepOpts::default();
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        i += 1;
        let Some(body) = a.strip_prefix("--").or_else(|| a.strip_prefix('-')) else {
            return Err(SweepArgError::Positional(a.clone()));
        };
        let (k, v) = match body.split_once('=') {
            Some((k, v)) => (k.to_string(), Some(v.to_string())),
            None => {
                // `--name value`, or a flag when the next argument is another option.
                let next = args.get(i).filter(|n| !n.starts_with('-'));
                if next.is_some() {
                    i += 1;
                }
                (body.to_string(), next.cloned())
            }
        };
        let need = |v: Option<String>| v.ok_or_else(|| SweepArgError::NeedsValue(k.clone()));
        match k.as_str() {
            "h" | "help" => o.help = true,
            "rows" => o.rows = Some(need(v)?),
            "cols" => o.cols = Some(need(v)?),
            "show" => {
                let s = need(v)?;
                o.show = Show::parse(&s).ok_or(SweepArgError::Show(s))?;
            }
            "latency-target" => o.latency_target = Some(need(v)?),
            "null-service-time" => {
                let t = need(v)?;
                let d = iomark_fio::values::parse_time(&t, iomark_fio::values::TimeUnit::Us)
                    .map_err(|e| SweepArgError::NullModel(t.clone(), e.into()))?;
                if d.is_zero() {
                    return Err(SweepArgError::NullModel(t, "must be above zero".into()));
                }
                o.null_service = Some(d);
            }
            k if result_option::names(k) => o.result = Some(PathBuf::from(need(v)?)),
            "allow-write" => o.allow_write = true,
            _ => match v {
                Some(v) if swept(&v) => o.axes.push(axes::parse_axis(&k, &v)?),
                Some(v) => o.fixed.push((k, v)),
                None => o.fixed.push((k, "1".to_string())),
            },
        }
    }
    if o.help {
        return Ok(o);
    }
    if let Some(d) = o.null_service {
        if !o.fixed.iter().any(|(k, v)| k == "ioengine" && v == "null") {
            return Err(SweepArgError::NullModel(
                format!("{d:?}"),
                "models the null engine: give --ioengine=null too".into(),
            ));
        }
    }
    for (what, name) in [("rows", &o.rows), ("cols", &o.cols)] {
        if let Some(n) = name {
            if !o.axes.iter().any(|a| &a.option == n) {
                return Err(SweepArgError::NotAxis(what, n.clone()));
            }
        }
    }
    if o.latency_target.is_none() {
        axes::points(&o.axes)?;
    }
    Ok(o)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(a: &[&str]) -> Vec<String> {
        a.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn axes_and_fixed_options() {
        let o = parse(&s(&[
            "--bs",
            "4k,64k",
            "--iodepth=1..16x4",
            "--rw=randread",
            "--direct=1",
            "--time_based",
            "--show=p99",
            "--cols=bs",
        ]))
        .unwrap();
        assert_eq!(o.axes.len(), 2);
        assert_eq!(o.axes[1].values, ["1", "4", "16"]);
        assert_eq!(
            o.fixed,
            [
                ("rw".to_string(), "randread".to_string()),
                ("direct".to_string(), "1".to_string()),
                ("time_based".to_string(), "1".to_string())
            ]
        );
        assert_eq!(o.show, Show::P99);
        assert_eq!(o.cols.as_deref(), Some("bs"));
    }

    #[test]
    fn paths_with_two_dots_are_not_ranges() {
        let o = parse(&s(&["--filename=../x", "--name=a..b", "--bs=4k,8k"])).unwrap();
        assert_eq!(o.axes.len(), 1);
        assert!(o
            .fixed
            .contains(&("filename".to_string(), "../x".to_string())));
        assert!(o.fixed.contains(&("name".to_string(), "a..b".to_string())));
    }

    #[test]
    fn refusals() {
        let e = |a: &[&str]| parse(&s(a)).unwrap_err().to_string();
        assert_eq!(e(&["--rw=read"]), "sweep: nothing to sweep (give at least one option with several values, e.g. --iodepth=1,4,16)");
        assert_eq!(
            e(&["--iodepth=1,4", "--rows=bs"]),
            "sweep: --rows=bs is not a swept option"
        );
        assert!(e(&["--iodepth=1..10000+1", "--bs=4k,8k"])
            .starts_with("sweep: 20000 points (10000 iodepth x 2 bs)"));
        assert_eq!(
            e(&["--show=foo", "--iodepth=1,2"]),
            "sweep: --show=foo: one of iops, bw, mean, p99"
        );
        assert!(
            e(&["--iodepth=1,2", "--null-service-time=1ms"]).contains("give --ioengine=null too")
        );
        assert!(
            e(&["--iodepth=1,2", "--ioengine=null", "--null-service-time=0"])
                .contains("must be above zero")
        );
        let o = parse(&s(&[
            "--iodepth=1,2",
            "--ioengine=null",
            "--null-service-time=2ms",
        ]));
        assert_eq!(
            o.unwrap().null_service,
            Some(std::time::Duration::from_millis(2))
        );
    }
}
