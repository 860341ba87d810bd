//! quick's options: defaults, usage text and parsing.

use iomark_engine::engines::Capabilities;
use iomark_engine::job::EngineKind;
use iomark_fio::values::ValueError;
use iomark_output::result_option;
use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

/// What `iomark quick` was asked to do.
#[derive(Clone, Debug, PartialEq)]
pub struct QuickOpts {
    pub path: Option<PathBuf>,
    pub json: bool,
    pub allow_write: bool,
    pub size: u64,
    pub runtime: Duration,
    pub ramp: Duration,
    pub engine: Option<EngineKind>,
    /// `--result=PATH` (or `--result-file`): the run's whole result, for `report`, `compare` and `export`.
    pub result_file: Option<PathBuf>,
}

impl Default for QuickOpts {
    fn default() -> Self {
        QuickOpts {
            path: None,
            json: false,
            allow_write: false,
            size: 1 << 30,
            runtime: Duration::from_secs(5),
            ramp: Duration::from_secs(1),
            engine: None,
            result_file: None,
        }
    }
}

pub const USAGE: &str = "Usage: iomark quick [PATH] [--json] [--allow-write] [--size=SIZE] [--runtime=TIME] [--ramp=TIME] [--ioengine=NAME]
                   [--result=PATH]

Runs SEQ1M Q8T1, SEQ1M Q1T1, RND4K Q32T1 and RND4K Q1T1, each read then write, and prints
one table (MB/s, MiB/s, IOPS, mean and 99th percentile latency).

PATH      a directory (default: the current one) in which a temporary file is created and
          removed afterwards; or an existing file or block device, which is only read unless
          --allow-write is given
--json            print the results as JSON on stdout
--allow-write     allow writing to an existing file or device given as PATH (destroys its data)
--size=SIZE       size of the test file (default 1g, shrunk to fit the free space)
--runtime=TIME    measured time per test (default 5s)
--ramp=TIME       warm-up time per test before measuring (default 1s)
--ioengine=NAME   engine for the tests (default io_uring, falling back to libaio)
--result=PATH, --result-file=PATH
                  write the whole result (every test's latency histograms, the system it
                  ran on) to PATH, for iomark report, compare and export (the two spellings
                  are the same option)";

/// The outcome of parsing quick's arguments.
#[derive(Clone, Debug, PartialEq)]
pub enum Parsed {
    /// `-h`/`--help`: print [`USAGE`].
    Help,
    Run(QuickOpts),
}

/// A quick argument that cannot be used.
#[derive(Clone, Debug, PartialEq)]
pub enum QuickArgError {
    /// An option that needs a value was last.
    NeedsValue(&'static str),
    /// `--size` did not parse.
    Size {
        value: String,
        reason: ValueError,
    },
    /// `--runtime` or `--ramp` did not parse.
    Time {
        value: String,
        reason: ValueError,
    },
    /// `--ioengine` names no engine, or a metadata engine.
    Engine(String),
    UnknownOption(String),
    /// More than one PATH.
    TwoPaths,
    /// `--runtime` of zero: no test would measure anything.
    ZeroRuntime,
    /// `--result` without its file.
    NoResultFile(result_option::NoFile),
}

impl fmt::Display for QuickArgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            QuickArgError::NeedsValue(k) => write!(f, "quick: {k} needs a value"),
            QuickArgError::Size { value, reason } => write!(f, "quick: --size={value}: {reason}"),
            QuickArgError::Time { value, reason } => write!(f, "quick: {value}: {reason}"),
            QuickArgError::Engine(s) => write!(
                f,
                "quick: unknown or unsuitable ioengine {q_s}",
                q_s = iomark_output::echo::quote(s)
            ),
            QuickArgError::UnknownOption(s) => write!(
                f,
                "quick: unknown option {q_s}\n\n{USAGE}",
                q_s = iomark_output::echo::quote(s)
            ),
            QuickArgError::TwoPaths => write!(f, "quick: only one PATH may be given\n\n{USAGE}"),
            QuickArgError::NoResultFile(e) => write!(f, "quick: {e}"),
            QuickArgError::ZeroRuntime => write!(
                f,
                "quick: --runtime must be more than 0: each test measures for that long"
            ),
        }
    }
}

impl std::error::Error for QuickArgError {}

/// Parse quick's arguments (those after `quick`).
pub fn parse(args: &[String]) -> Result<Parsed, QuickArgError> {
    let mut o = QuickOpts::default();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if let Some(f) = result_option::take(a, || it.next().cloned()) {
            o.result_file = Some(f.map_err(QuickArgError::NoResultFile)?);
            continue;
        }
        let (k, v) = match a.split_once('=') {
            Some((k, v)) => (k.to_string(), Some(v.to_string())),
            None => (a.clone(), None),
        };
        let mut val = |k: &'static str| -> Result<String, QuickArgError> {
            v.clone()
                .or_else(|| it.next().cloned())
                .ok_or(QuickArgError::NeedsValue(k))
        };
        match k.as_str() {
            "-h" | "--help" => return Ok(Parsed::Help),
            "--json" => o.json = true,
            "--allow-write" => o.allow_write = true,
            "--size" => {
                let s = val("--size")?;
                o.size = iomark_fio::values::parse_size(&s, 1024).map_err(|reason| {
                    QuickArgError::Size {
                        value: s.clone(),
                        reason,
                    }
                })?;
            }
            "--runtime" => {
                o.runtime = parse_time(&val("--runtime")?)?;
                if o.runtime.is_zero() {
                    return Err(QuickArgError::ZeroRuntime);
                }
            }
            "--ramp" => o.ramp = parse_time(&val("--ramp")?)?,
            "--ioengine" => {
                let s = val("--ioengine")?;
                o.engine = Some(
                    EngineKind::from_name(&s)
                        .filter(|e| !e.is_metadata())
                        .ok_or(QuickArgError::Engine(s))?,
                );
            }
            s if s.starts_with('-') => return Err(QuickArgError::UnknownOption(s.to_string())),
            _ => {
                if o.path.is_some() {
                    return Err(QuickArgError::TwoPaths);
                }
                o.path = Some(PathBuf::from(a));
            }
        }
    }
    Ok(Parsed::Run(o))
}

fn parse_time(s: &str) -> Result<Duration, QuickArgError> {
    iomark_fio::values::parse_time(s, iomark_fio::values::TimeUnit::S).map_err(|reason| {
        QuickArgError::Time {
            value: s.to_string(),
            reason,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(a: &[&str]) -> Vec<String> {
        a.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn defaults_and_values() {
        assert_eq!(parse(&[]), Ok(Parsed::Run(QuickOpts::default())));
        let Ok(Parsed::Run(o)) = parse(&args(&[
            "/tmp",
            "--json",
            "--size",
            "16m",
            "--runtime=200ms",
            "--ramp=0",
            "--ioengine=libaio",
            "--result-file=q.json",
        ])) else {
            panic!("parse failed")
        };
        assert_eq!(o.path, Some(PathBuf::from("/tmp")));
        assert!(o.json && !o.allow_write);
        assert_eq!(o.size, 16 << 20);
        assert_eq!(o.runtime, Duration::from_millis(200));
        assert_eq!(o.ramp, Duration::ZERO);
        assert_eq!(o.engine, Some(EngineKind::Libaio));
        assert_eq!(o.result_file, Some(PathBuf::from("q.json")));
        assert_eq!(parse(&args(&["-h"])), Ok(Parsed::Help));
    }

    #[test]
    fn errors_are_worded_as_before() {
        let e = |a: &[&str]| parse(&args(a)).unwrap_err().to_string();
        assert_eq!(e(&["--size"]), "quick: --size needs a value");
        assert_eq!(
            e(&["--ioengine=nope"]),
            "quick: unknown or unsuitable ioengine 'nope'"
        );
        assert!(
            e(&["--bogus"]).starts_with("quick: unknown option '--bogus'\n\nUsage: iomark quick")
        );
        assert!(e(&["a", "b"]).starts_with("quick: only one PATH may be given\n\n"));
        assert!(e(&["--runtime=xyz"]).starts_with("quick: xyz: "));
        assert_eq!(
            e(&["--runtime=0"]),
            "quick: --runtime must be more than 0: each test measures for that long"
        );
        assert!(e(&["--size=xyz"]).starts_with("quick: --size=xyz: "));
        assert_eq!(
            e(&["--result-file"]),
            "quick: --result-file needs a file name (--result-file=FILE or --result-file FILE)"
        );
    }

    #[test]
    fn the_result_file_in_either_spelling() {
        for words in result_option::spellings("q.json") {
            let mut a = words.clone();
            a.push("/tmp".into());
            let Ok(Parsed::Run(o)) = parse(&a) else {
                panic!("{words:?}")
            };
            assert_eq!(o.result_file, Some(PathBuf::from("q.json")), "{words:?}");
            assert_eq!(o.path, Some(PathBuf::from("/tmp")));
        }
    }
}
