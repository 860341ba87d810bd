//! `iomark preset list | show NAME [TARGET] | run NAME [TARGET] [options]`.

use super::limits::{self, LimitError, Wanted};
use super::Preset;
use super::{disks, registry};
use crate::repeat::Agg;
use iomark_output::result_option;
use std::path::PathBuf;
use std::time::Duration;

pub const USAGE: &str = "Usage: iomark preset list
       iomark preset disks
       iomark preset show NAME [--size=SIZE] [--runtime=TIME] [--warmup=TIME]
       iomark preset run NAME [TARGET] [options]

list   every preset, one line each
disks  the cloud disk types --disk knows, with their published limits and sources
show   the preset as an fio job file (edit it, then run it with iomark run FILE or fio FILE)
run    run the preset's jobs, print their output and then the preset's summary

TARGET   a directory (default: the current one) in which a temporary file is created and
         removed afterwards; or an existing file or block device, or a Ceph RBD image as
         rbd:POOL/IMAGE (through librbd), written only with --allow-write
--size=SIZE          size of the test file (default: the preset's; shrunk to fit the free space)
--runtime=TIME       measured time of each timed job (default: the preset's)
--warmup=TIME        warm-up time (cloud-disk's warm-up jobs, else each job's ramp_time)
--repeat=N           run the jobs N times; the summary shows mean, sd, min, max, 95 % CI, CV
--repeat-pause=TIME  pause between repetitions
--repeat-agg=RULE    headline of repeated runs: mean, median or best (default: the preset's)
--expect KEY=N       one figure's limit, met or missed (cloud-disk: read.iops, write.iops,
                     combined.iops, read.mbps, write.mbps, combined.mbps); repeatable
--expect-iops=N      one limit for every IOPS figure (cloud-disk)
--expect-mbps=N      one limit in MB/s for every throughput figure (cloud-disk)
--disk=TYPE          check every figure against a cloud disk type's published limits
                     (iomark preset disks lists them); repeatable, each checked on its own
--allow-write        allow writing to an existing file or device given as TARGET
--result=FILE        write every run's complete result and the summary (JSON) to FILE
--result-file=FILE   the same option as --result
--json               print the summary as JSON instead of the jobs' output and table";

/// Options shared by `show` and `run`.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct RunOpts {
    pub target: Option<PathBuf>,
    pub size: Option<u64>,
    pub runtime: Option<Duration>,
    pub warmup: Option<Duration>,
    pub repeat: Option<u32>,
    pub repeat_pause: Duration,
    pub agg: Option<Agg>,
    /// The limits to check the figures against (`--expect*`, `--disk`).
    pub limits: Wanted,
    pub allow_write: bool,
    pub result: Option<PathBuf>,
    pub json: bool,
}

/// What `iomark preset` was asked to do.
#[derive(Debug, PartialEq)]
pub enum Command {
    Help,
    List,
    Disks,
    Show(&'static Preset, RunOpts),
    Run(&'static Preset, RunOpts),
}

impl PartialEq for Preset {
    fn eq(&self, o: &Preset) -> bool {
        self.name == o.name
    }
}

/// A `preset` argument that cannot be used.
#[derive(Debug, PartialEq, thiserror::Error)]
pub enum PresetArgError {
    #[error("preset: say what to do: list, show NAME or run NAME\n\n{USAGE}")]
    NoCommand,
    #[error("preset: unknown command '{0}' (list, show or run)")]
    UnknownCommand(String),
    #[error("preset: {0} needs a preset name; the presets are: {names}", names = registry::names().join(", "))]
    NoName(&'static str),
    #[error("preset: unknown preset '{0}'; the presets are: {names}", names = registry::names().join(", "))]
    UnknownPreset(String),
    #[error("preset: {0} needs a value")]
    NeedsValue(String),
    #[error("preset: {option}={value}: {reason}")]
    BadValue {
        option: String,
        value: String,
        reason: iomark_fio::options::Reason,
    },
    #[error("preset: unknown option '{0}'\n\n{USAGE}")]
    UnknownOption(String),
    #[error("preset: only one TARGET may be given")]
    TwoTargets,
    #[error("preset: --disk {0}: unknown disk type; the types are: {names}", names = disks::names().join(", "))]
    UnknownDisk(String),
    #[error("{0}")]
    Limit(#[from] LimitError),
}

fn bad(
    option: &str,
    value: &str,
    reason: impl Into<iomark_fio::options::Reason>,
) -> PresetArgError {
    PresetArgError::BadValue {
        option: option.to_string(),
        value: value.to_string(),
        reason: reason.into(),
    }
}

fn time(k: &str, v: &str) -> Result<Duration, PresetArgError> {
    iomark_fio::values::parse_time(v, iomark_fio::values::TimeUnit::S).map_err(|r| bad(k, v, r))
}

fn positive(k: &str, v: &str) -> Result<f64, PresetArgError> {
    match v.parse::<f64>() {
        Ok(x) if x > 0.0 && x.is_finite() => Ok(x),
        _ => Err(bad(k, v, "expected a positive number")),
    }
}

/// Parse the arguments after `preset`.
pub fn parse(args: &[String]) -> Result<Command, PresetArgError> {
    let Some(cmd) = args.first() else {
        return Err(PresetArgError::NoCommand);
    };
    let cmd: &'static str = match cmd.as_str() {
        "-h" | "--help" | "help" => return Ok(Command::Help),
        "list" => return Ok(Command::List),
        "disks" => return Ok(Command::Disks),
        "show" => "show",
        "run" => "run",
        other => return Err(PresetArgError::UnknownCommand(other.to_string())),
    };
    let mut rest = args[1..].iter();
    let mut preset = None;
    let mut o = RunOpts::default();
    while let Some(a) = rest.next() {
        let (k, v) = match a.split_once('=') {
            Some((k, v)) if k.starts_with("--") => (k.to_string(), Some(v.to_string())),
            _ => (a.clone(), None),
        };
        let mut val = || -> Result<String, PresetArgError> {
            v.clone()
                .or_else(|| rest.next().cloned())
                .ok_or_else(|| PresetArgError::NeedsValue(k.clone()))
        };
        match k.as_str() {
            "-h" | "--help" => return Ok(Command::Help),
            "--json" => o.json = true,
            "--allow-write" => o.allow_write = true,
            "--size" => {
                let s = val()?;
                let b = iomark_fio::values::parse_size(&s, 1024).map_err(|r| bad(&k, &s, r))?;
                if b < (1 << 20) {
                    return Err(bad(&k, &s, "at least 1 MiB"));
                }
                o.size = Some(b);
            }
            "--runtime" => o.runtime = Some(time(&k, &val()?)?),
            "--warmup" => o.warmup = Some(time(&k, &val()?)?),
            "--repeat-pause" => o.repeat_pause = time(&k, &val()?)?,
            "--repeat" => {
                let s = val()?;
                match s.parse::<u32>() {
                    Ok(n) if (1..=1000).contains(&n) => o.repeat = Some(n),
                    _ => return Err(bad(&k, &s, "expected a count from 1 to 1000")),
                }
            }
            "--repeat-agg" => {
                let s = val()?;
                o.agg = Some(Agg::parse(&s).ok_or_else(|| bad(&k, &s, "mean, median or best"))?);
            }
            "--expect-iops" => o.limits.iops = Some(positive(&k, &val()?)?),
            "--expect-mbps" => o.limits.mbps = Some(positive(&k, &val()?)?),
            "--expect" => {
                let s = val()?;
                let Some((key, n)) = s.split_once('=') else {
                    return Err(bad(&k, &s, "expected KEY=N, as read.iops=5000"));
                };
                o.limits
                    .per_figure
                    .push((key.to_string(), positive(&k, n)?));
            }
            "--disk" => {
                let s = val()?;
                let d = disks::find(&s).ok_or(PresetArgError::UnknownDisk(s))?;
                o.limits.disks.push(d);
            }
            s if s.strip_prefix("--").is_some_and(result_option::names) => {
                o.result = Some(PathBuf::from(val()?))
            }
            s if s.starts_with('-') => return Err(PresetArgError::UnknownOption(s.to_string())),
            _ if preset.is_none() => {
                preset = Some(
                    registry::find(a).ok_or_else(|| PresetArgError::UnknownPreset(a.clone()))?,
                )
            }
            _ => {
                if o.target.is_some() {
                    return Err(PresetArgError::TwoTargets);
                }
                o.target = Some(PathBuf::from(a));
            }
        }
    }
    let p = preset.ok_or(PresetArgError::NoName(cmd))?;
    // Limits the preset has no figure for are refused before anything runs.
    limits::targets(p, &o.limits)?;
    Ok(if cmd == "show" {
        Command::Show(p, o)
    } else {
        Command::Run(p, o)
    })
}

/// `preset list`: one line per preset.
pub fn list() -> String {
    let mut out = String::new();
    for p in registry::PRESETS {
        out.push_str(&format!("{:<16} {}\n", p.name, p.title));
    }
    out.push_str(
        "\n`quick` is cdm-standard run once. iomark preset show NAME prints a preset's jobs.\n",
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(a: &[&str]) -> Vec<String> {
        a.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn run_options() {
        let Ok(Command::Run(p, o)) = parse(&args(&[
            "run",
            "cloud-disk",
            "/mnt",
            "--size=64m",
            "--runtime",
            "2s",
            "--repeat=3",
            "--repeat-agg=median",
            "--expect-iops=5000",
            "--expect-mbps",
            "200",
            "--expect",
            "read.iops=7500",
            "--disk=azure-p30",
            "--disk",
            "aws-gp3",
        ])) else {
            panic!()
        };
        assert_eq!(p.name, "cloud-disk");
        assert_eq!(o.target, Some(PathBuf::from("/mnt")));
        assert_eq!(o.size, Some(64 << 20));
        assert_eq!(o.runtime, Some(Duration::from_secs(2)));
        assert_eq!((o.repeat, o.agg), (Some(3), Some(Agg::Median)));
        assert_eq!((o.limits.iops, o.limits.mbps), (Some(5000.0), Some(200.0)));
        assert_eq!(o.limits.per_figure, [("read.iops".to_string(), 7500.0)]);
        let names: Vec<&str> = o.limits.disks.iter().map(|d| d.name).collect();
        assert_eq!(names, ["azure-p30", "aws-gp3"]);
        assert_eq!(parse(&args(&["list"])), Ok(Command::List));
        assert_eq!(parse(&args(&["disks"])), Ok(Command::Disks));
    }

    #[test]
    fn bad_input_is_named() {
        let e = |a: &[&str]| parse(&args(a)).unwrap_err().to_string();
        let msg = e(&["run", "nope"]);
        assert!(msg.starts_with("preset: unknown preset 'nope'; the presets are: backup-repo, cloud-disk, rbd-matrix"), "{msg}");
        assert!(msg.contains("file-server"));
        assert!(e(&["show"]).starts_with("preset: show needs a preset name; the presets are: "));
        assert_eq!(
            e(&["run", "oltp", "--repeat=0"]),
            "preset: --repeat=0: expected a count from 1 to 1000"
        );
        assert_eq!(
            e(&["run", "oltp", "--repeat-agg=max"]),
            "preset: --repeat-agg=max: mean, median or best"
        );
        assert!(e(&["run", "oltp", "--bogus"]).starts_with("preset: unknown option '--bogus'"));
        assert_eq!(
            e(&["frob"]),
            "preset: unknown command 'frob' (list, show or run)"
        );
        assert_eq!(
            e(&["run", "oltp", "a", "b"]),
            "preset: only one TARGET may be given"
        );
        assert!(e(&["run", "cloud-disk", "--disk=azure-p31"])
            .starts_with("preset: --disk azure-p31: unknown disk type; the types are: azure-p10,"));
        assert_eq!(
            e(&["run", "cloud-disk", "--expect", "read.iops"]),
            "preset: --expect=read.iops: expected KEY=N, as read.iops=5000"
        );
        assert!(
            e(&["run", "cloud-disk", "--expect", "read.ops=5"]).starts_with(
                "preset: --expect read.ops: cloud-disk has no such figure; its figures are "
            )
        );
        assert!(e(&["run", "backup-repo", "--disk", "azure-p30"])
            .starts_with("preset: backup-repo has no figure to check against a limit"));
    }
}
