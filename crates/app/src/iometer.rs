//! `iomark iometer`: an Iometer access specification run as one iomark job (workers ×
//! outstanding I/Os on one target), its plan built from typed values (iomark-scenarios) and run
//! as `iomark run` runs its jobs, so the output is the usual one; cycled outstanding I/Os or
//! workers run as a sweep's points.

use crate::session::signals;
use iomark_engine::job::EngineKind;
use iomark_engine::result::RunResult;
use iomark_fio::values::{parse_time, TimeUnit};
use iomark_output::result_option;
use iomark_scenarios::iometer::plan::{self, Count, Given, Setup, Steps};
use iomark_scenarios::iometer::{csv, mix, spec, spec_file};
use iomark_scenarios::preset::target;
use std::path::PathBuf;
use std::time::Duration;

pub const USAGE: &str = "\
Usage: iomark iometer [TARGET] (--spec SPEC | --spec-file F.toml) [--outstanding N] [--workers N] [--size SIZE]
                      [--runtime TIME] [--ramp TIME] [--ioengine NAME] [--allow-write]
                      [--result FILE] [--csv FILE] [--write-iolog FILE]
       iomark iometer --list

SPEC is a named spec (see --list) or access-specification lines separated by ';' or spaces:
  SIZE,READ%,RANDOM%[,ALIGN[,DELAY_MS[,BURST]]][@WEIGHT]   e.g. --spec 4k,70,100@100
Each burst of I/Os (BURST, default 1) picks a line by weight, after waiting the line's
DELAY_MS (I/Os in flight complete meanwhile); each I/O of it reads or writes by the line's
% read and goes to a random offset or sequentially after the previous I/O by its % random,
at offsets that are multiples of ALIGN (default: the spec's smallest size).
--spec-file F.toml reads a spec from a TOML file: a name, then one [[line]] table
per line with size, read, random and optionally weight, align, delay_ms, burst.
--outstanding is the I/Os in flight per worker (default 1), --workers the workers (default 1);
either may cycle: a list (1,4,16) or a range (1..64x2 exponential, 1..64+8 linear) runs one
point per value (a sweep, with its matrix table);
--ramp is excluded from the figures (default 0). --ioengine issues the I/O (default libaio;
also io_uring, psync, sync, pvsync, pvsync2, vsync, posixaio, mmap, or null: no device). TARGET is a directory for a temporary file
(default: the current one) or a file or device, written only with --allow-write.
--csv FILE writes Iometer's main result columns (IOps, MBps, response times in ms, errors,
bytes and I/Os per direction, % CPU) and its latency buckets (I/Os per response-time range,
0 to 50 uS ... >= 10 s) for all workers: one row, or one per step of a cycle.
--write-iolog FILE records every I/O issued (fio's iolog version 3) to check the pattern.
--result-file FILE is the same option as --result FILE (iomark's result file).
";

struct Opts {
    target: Option<PathBuf>,
    spec: String,
    spec_file: Option<String>,
    outstanding: Count,
    workers: Count,
    size: Option<String>,
    runtime: Given<Duration>,
    ramp: Given<Duration>,
    ioengine: Given<EngineKind>,
    allow_write: bool,
    result: Option<String>,
    csv: Option<String>,
    iolog: Option<String>,
}

/// A time as written (`10s`, `500ms`; seconds without a unit).
fn time(v: &str) -> Option<Given<Duration>> {
    parse_time(v, TimeUnit::S).ok().map(|value| Given {
        value,
        written: v.to_string(),
    })
}

fn parse(a: &[String]) -> anyhow::Result<Option<Opts>> {
    let mut o = Opts {
        target: None,
        spec: String::new(),
        spec_file: None,
        outstanding: Count::one(1),
        workers: Count::one(1),
        size: None,
        runtime: time("10s").expect("a time"),
        ramp: time("0").expect("a time"),
        ioengine: Given {
            value: EngineKind::Libaio,
            written: "libaio".into(),
        },
        allow_write: false,
        result: None,
        csv: None,
        iolog: None,
    };
    let mut it = a.iter();
    while let Some(arg) = it.next() {
        if !arg.starts_with("--") {
            if o.target.is_some() {
                anyhow::bail!("iometer: a second target '{arg}'");
            }
            o.target = Some(PathBuf::from(arg));
            continue;
        }
        let (k, inline) = match arg.split_once('=') {
            Some((k, v)) => (k, Some(v.to_string())),
            None => (arg.as_str(), None),
        };
        match k {
            "--help" => return Ok(None),
            "--list" => {
                let mut s = String::new();
                for (n, lines, from) in spec::NAMED {
                    s.push_str(&format!("{n:<16} {lines}\n{:<16} from {from}\n", ""));
                }
                crate::session::pipe::print_text(&s);
                return Ok(None);
            }
            "--allow-write" => {
                o.allow_write = true;
                continue;
            }
            _ => {}
        }
        let v = match inline.or_else(|| it.next().cloned()) {
            Some(v) => v,
            None => anyhow::bail!("iometer: {k} needs a value"),
        };
        let count = |v: &str| {
            Count::parse(k.trim_start_matches('-'), v).map_err(|e| anyhow::anyhow!("iometer: {e}"))
        };
        let time = |v: &str| {
            time(v).ok_or_else(|| {
                let e = parse_time(v, TimeUnit::S).err().map(|e| e.to_string());
                anyhow::anyhow!("iometer: {k}={v}: {}", e.unwrap_or_default())
            })
        };
        match k {
            "--spec" => o.spec = v,
            "--spec-file" => o.spec_file = Some(v),
            "--outstanding" => o.outstanding = count(&v)?,
            "--workers" => o.workers = count(&v)?,
            "--size" => o.size = Some(v),
            "--runtime" => o.runtime = time(&v)?,
            "--ramp" => o.ramp = time(&v)?,
            "--ioengine" => o.ioengine = engine(&v)?,
            k if k.strip_prefix("--").is_some_and(result_option::names) => o.result = Some(v),
            "--csv" => o.csv = Some(v),
            "--write-iolog" => o.iolog = Some(v),
            _ => {
                anyhow::bail!(
                    "iometer: unknown option {k} (known: --spec --spec-file --outstanding --workers --size --runtime --ramp --ioengine --allow-write --result (or --result-file) --csv --write-iolog --list)"
                )
            }
        }
    }
    match (o.spec.is_empty(), &o.spec_file) {
        (true, None) => {
            anyhow::bail!(
                "iometer: give an access specification with --spec (see --list) or --spec-file"
            )
        }
        (false, Some(_)) => anyhow::bail!("iometer: give --spec or --spec-file, not both"),
        _ => {}
    }
    Ok(Some(o))
}

/// The engines an Iometer disk worker can be: those that read and write a file or device, and
/// the null engine (no device, to try a spec or a cycle).
const ENGINES: [&str; 10] = [
    "libaio", "io_uring", "psync", "sync", "pvsync", "pvsync2", "vsync", "posixaio", "mmap", "null",
];

/// `--ioengine NAME`: one of [`ENGINES`].
fn engine(v: &str) -> anyhow::Result<Given<EngineKind>> {
    let name = v.trim().to_ascii_lowercase();
    match EngineKind::from_name(&name).filter(|_| ENGINES.contains(&name.as_str())) {
        Some(value) => Ok(Given {
            value,
            written: v.to_string(),
        }),
        None => anyhow::bail!(
            "iometer: --ioengine={v}: expected an engine that reads and writes the target: {}",
            ENGINES.join(", ")
        ),
    }
}

/// `iomark iometer ARGS`; returns the exit code. Cycled outstanding I/Os or workers run as a
/// sweep over iodepth and numjobs, one point per value. A spec that the job's own fields cannot
/// express runs as an access mix of every job of the plan.
pub fn main(a: &[String]) -> i32 {
    let o = match options(a) {
        Ok(o) => o,
        Err(code) => return code,
    };
    let steps = match plan::steps(&o.outstanding, &o.workers) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("iomark iometer: {e}");
            return 2;
        }
    };
    let spec = match read_spec(&o) {
        Ok(s) => s,
        Err(code) => return code,
    };
    // Every output checked before any I/O: never the target, a device, a missing directory.
    // The result file is the run's (or the sweep's), written and recorded by its session;
    // it is checked here too, before the temporary target is made.
    let target: Vec<PathBuf> = o.target.iter().cloned().collect();
    let result = o.result.as_deref().map(std::path::Path::new);
    if let Err(code) = crate::session::ResultFile::take("iometer", result, &target) {
        return code;
    }
    for p in [&o.csv, &o.iolog].into_iter().flatten() {
        if let Err(e) = iomark_output::outfile::check_output(std::path::Path::new(p), &target) {
            eprintln!("iomark iometer: {e}");
            return 2;
        }
    }
    let t = match choose_target(&o) {
        Ok(t) => t,
        Err(code) => return code,
    };
    if t.direct {
        let lbs = iomark_engine::targets::probe(&t.path).map_or(512, |p| p.logical_block_size);
        if let Err(e) = spec::check_direct(&spec.lines, lbs) {
            eprintln!("iomark iometer: {e}");
            return 2;
        }
    }
    let tmp_dir = match crate::session::private_temp_dir("iomark iometer", "iomark-iometer.") {
        Ok(d) => d,
        Err(e) => {
            eprintln!("{e}");
            return 1;
        }
    };
    let tmp = tmp_dir.path().join("result.json");
    let result = result_path(&o, &tmp);
    let setup = Setup {
        name: spec.name.clone(),
        path: t.path.clone(),
        size: t.size,
        direct: t.direct,
        ioengine: o.ioengine.clone(),
        outstanding: o.outstanding.clone(),
        workers: o.workers.clone(),
        runtime: o.runtime.clone(),
        ramp: o.ramp.clone(),
        iolog: o.iolog.as_ref().map(PathBuf::from),
    };
    let mut code = run(&setup, &spec.tr, steps.as_ref(), &t, result.clone());
    if let (Some(c), Some(r)) = (&o.csv, &result) {
        if !write_csv(c, r, &spec.name) {
            code = code.max(1);
        }
    }
    drop(tmp_dir);
    code
}

/// The options of the command line; the exit status once help or the list is printed, or
/// when they are refused.
fn options(a: &[String]) -> Result<Opts, i32> {
    match parse(a) {
        Ok(Some(o)) => Ok(o),
        Ok(None) => {
            if a.iter().any(|x| x == "--list") {
                return Err(0);
            }
            Err(crate::session::pipe::print_text(USAGE))
        }
        Err(e) => {
            eprintln!("iomark {e}");
            Err(2)
        }
    }
}

/// The access specification to run: its name (the job's and the CSV's) and its translation.
struct Spec {
    name: String,
    lines: Vec<spec::Line>,
    tr: mix::Translation,
}

/// Reads the spec of `--spec` or `--spec-file` and translates it; exit status 2 when invalid.
fn read_spec(o: &Opts) -> Result<Spec, i32> {
    let from_file = match &o.spec_file {
        Some(f) => match spec_file::read(f) {
            Ok(x) => Some(x),
            Err(e) => {
                eprintln!("iomark iometer: {e}");
                return Err(2);
            }
        },
        None => None,
    };
    let lines = match &from_file {
        Some(f) => Ok(f.lines.clone()),
        None => spec::parse(&o.spec),
    };
    let lines = match lines {
        Ok(x) => x,
        Err(e) => {
            eprintln!("iomark iometer: {e}");
            return Err(2);
        }
    };
    Ok(Spec {
        name: spec_name(o, from_file.as_ref()),
        tr: mix::translate(&lines),
        lines,
    })
}

/// The spec's name: the spec file's own (else the file's name without its extension), the
/// named spec's, or "iometer" for lines given on the command line.
fn spec_name(o: &Opts, from_file: Option<&spec_file::FileSpec>) -> String {
    match &o.spec_file {
        Some(f) => from_file.and_then(|s| s.name.clone()).unwrap_or_else(|| {
            std::path::Path::new(f)
                .file_stem()
                .map_or("iometer".into(), |s| s.to_string_lossy().into_owned())
        }),
        None => spec::NAMED
            .iter()
            .find(|n| n.0 == o.spec)
            .map_or("iometer", |n| n.0)
            .to_string(),
    }
}

/// The target of `--size` (default 256 MiB), its notices said; exit status 2 when refused.
fn choose_target(o: &Opts) -> Result<target::Target, i32> {
    let size = match &o.size {
        Some(v) => match iomark_fio::values::parse_size(v, 1024) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("iomark iometer: --size={v}: {e}");
                return Err(2);
            }
        },
        None => 256 << 20,
    };
    let t = match target::choose(
        "iometer",
        o.target.as_deref(),
        o.allow_write,
        size,
        o.size.is_some(),
    ) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("iomark iometer: {e}");
            return Err(2);
        }
    };
    for n in &t.notices {
        eprintln!("iomark iometer: {n}");
    }
    Ok(t)
}

/// Where the run writes its result: `--result`, else `tmp` (the temporary result the CSV is
/// made from) when `--csv` needs one.
fn result_path(o: &Opts, tmp: &std::path::Path) -> Option<PathBuf> {
    match (&o.result, &o.csv) {
        (Some(r), _) => Some(PathBuf::from(r)),
        (None, Some(_)) => Some(tmp.to_path_buf()),
        _ => None,
    }
}

/// Runs the plan of `setup` (a sweep's points when the outstanding I/Os or the workers cycle),
/// with a temporary target file removed after, even on SIGINT; the exit status.
fn run(
    setup: &Setup,
    tr: &mix::Translation,
    steps: Option<&Steps>,
    t: &target::Target,
    result: Option<PathBuf>,
) -> i32 {
    let plan = plan::plan(setup, tr, steps);
    if t.temp {
        signals::register_temp(&t.path);
    }
    let code = match steps {
        Some(st) => {
            let table = crate::sweep::Table {
                axes: &st.axes,
                points: &st.points,
                rows: None,
                cols: None,
                show: Default::default(),
            };
            crate::sweep::run_typed("iometer", &plan, &table, result.as_deref())
        }
        None => crate::run::run_plan("iometer", plan, result),
    };
    if t.temp {
        let _ = std::fs::remove_file(&t.path);
        signals::clear_temp();
    }
    code
}

/// `--csv FILE`: Iometer's columns made from the result at `r`; false once the failure is said.
fn write_csv(c: &str, r: &std::path::Path, name: &str) -> bool {
    let read = std::fs::read(r)
        .map_err(|e| e.to_string())
        .and_then(|b| RunResult::from_json(&b).map_err(|e| e.to_string()));
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    let written = read.and_then(|res| {
        crate::session::outputs::write_after(
            std::path::Path::new(c),
            csv::csv(&res, name, cpus).as_bytes(),
            [&res.plan],
        )
        .map_err(|e| e.to_string())
    });
    if let Err(e) = written {
        eprintln!("iomark iometer: --csv {c}: {e}");
        return false;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(a: &[&str]) -> String {
        let a: Vec<String> = a.iter().map(|x| x.to_string()).collect();
        match parse(&a) {
            Err(e) => e.to_string(),
            Ok(_) => panic!("{a:?} accepted"),
        }
    }

    /// Times, engines and counts are typed when read: a bad one is refused before any I/O.
    #[test]
    fn values_are_typed_when_read() {
        let a: Vec<String> = ["--spec", "database", "--runtime", "500ms", "--ramp=1s"]
            .iter()
            .chain(&["--ioengine", "io_uring", "--outstanding=1..8x2"])
            .map(|x| x.to_string())
            .collect();
        let o = parse(&a).unwrap().unwrap();
        assert_eq!(o.runtime.value, Duration::from_millis(500));
        assert_eq!(o.ramp.value, Duration::from_secs(1));
        assert_eq!(o.ioengine.value, EngineKind::IoUring);
        assert_eq!(o.outstanding.values, [1, 2, 4, 8]);
        assert_eq!(o.workers.values, [1]);
        let e = err(&["--spec=database", "--ioengine=filecreate"]);
        assert!(
            e.starts_with("iometer: --ioengine=filecreate: expected an engine"),
            "{e}"
        );
        let e = err(&["--spec=database", "--runtime=1x"]);
        assert!(
            e.starts_with("iometer: --runtime=1x: unknown time suffix"),
            "{e}"
        );
        let e = err(&["--spec=database", "--workers=0"]);
        assert!(
            e.starts_with("iometer: --workers=0: expected a count"),
            "{e}"
        );
    }
}
