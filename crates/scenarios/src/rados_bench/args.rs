//! rados bench's command line.

use iomark_engine::rados_bench::Mode;
use std::path::PathBuf;

pub const USAGE: &str = "Usage: iomark rados-bench -p POOL SECONDS write|seq|rand [-b SIZE] [-t N] [--no-cleanup]
                          [--run-name NAME] [--id ID | -n NAME] [-c CONF] [--cluster NAME] [-k KEYRING]
       iomark rados-bench -p POOL cleanup [--run-name NAME]

Ceph's rados bench on a pool through librados: write fills new objects for SECONDS with -t
writes in flight (default 16) of -b bytes (default 4M); seq and rand read back what the last
write --no-cleanup left (iomark's or rados bench's: the same object names); cleanup removes it.
Prints rados bench's table and summary on stdout, latency percentiles on stderr.";

/// What to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    Bench(Mode),
    Cleanup,
}

/// rados bench's options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RadosOpts {
    pub pool: String,
    pub seconds: u64,
    pub action: Action,
    pub op_size: u64,
    pub threads: u32,
    pub no_cleanup: bool,
    pub run_name: Option<String>,
    pub client: Option<String>,
    pub conf: Option<PathBuf>,
    pub cluster: Option<String>,
    pub keyring: Option<PathBuf>,
}

/// Parses the arguments after `rados-bench` (`--help` gives None).
pub fn parse(a: &[String]) -> Result<Option<RadosOpts>, String> {
    let mut pool = None;
    let mut words = Vec::new();
    let mut o = RadosOpts {
        pool: String::new(),
        seconds: 0,
        action: Action::Cleanup,
        op_size: 4 << 20,
        threads: 16,
        no_cleanup: false,
        run_name: None,
        client: None,
        conf: None,
        cluster: None,
        keyring: None,
    };
    let mut it = a.iter();
    while let Some(w) = it.next() {
        let (k, inline) = match w.split_once('=') {
            Some((k, v)) if k.starts_with("--") => (k, Some(v.to_string())),
            _ => (w.as_str(), None),
        };
        let mut val = || {
            inline
                .clone()
                .or_else(|| it.next().cloned())
                .ok_or_else(|| format!("rados-bench: {k} needs a value"))
        };
        match k {
            "-h" | "--help" => return Ok(None),
            "--no-cleanup" => o.no_cleanup = true,
            "-p" | "--pool" => pool = Some(val()?),
            "-b" | "--block-size" => {
                let v = val()?;
                o.op_size = match iomark_fio::values::parse_size(&v, 1024) {
                    Ok(b) if b > 0 => b,
                    _ => {
                        return Err(format!(
                            "rados-bench: -b {v}: expected a size such as 4K or 4M"
                        ))
                    }
                }
            }
            "-t" | "--concurrent-ios" => {
                let v = val()?;
                o.threads = match v.parse::<u32>() {
                    Ok(n) if (1..=4096).contains(&n) => n,
                    _ => return Err(format!("rados-bench: -t {v}: a count from 1 to 4096")),
                }
            }
            "--run-name" => o.run_name = Some(val()?),
            "--id" | "--user" | "-n" | "--name" => o.client = Some(val()?),
            "-c" | "--conf" => o.conf = Some(val()?.into()),
            "--cluster" => o.cluster = Some(val()?),
            "-k" | "--keyring" => o.keyring = Some(val()?.into()),
            _ if k.starts_with('-') => {
                return Err(format!("rados-bench: unknown option '{w}'\n\n{USAGE}"))
            }
            _ => words.push(w.clone()),
        }
    }
    o.pool = pool.ok_or_else(|| format!("rados-bench: -p POOL is required\n\n{USAGE}"))?;
    match words.as_slice() {
        [c] if c == "cleanup" => o.action = Action::Cleanup,
        [secs, mode] => {
            o.seconds = secs
                .parse()
                .map_err(|_| format!("rados-bench: {secs}: SECONDS must be a whole number"))?;
            o.action = Action::Bench(match mode.as_str() {
                "write" => Mode::Write,
                "seq" => Mode::Seq,
                "rand" => Mode::Rand,
                _ => return Err(format!("rados-bench: {mode}: write, seq or rand")),
            });
        }
        _ => {
            return Err(format!(
                "rados-bench: expected SECONDS and write|seq|rand, or cleanup\n\n{USAGE}"
            ))
        }
    }
    Ok(Some(o))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Result<Option<RadosOpts>, String> {
        parse(&s.split_whitespace().map(String::from).collect::<Vec<_>>())
    }

    #[test]
    fn lines() {
        let o = p("-p rbd 10 write -b 4K -t 8 --no-cleanup --run-name r")
            .unwrap()
            .unwrap();
        assert_eq!(o.action, Action::Bench(Mode::Write));
        assert_eq!(
            (o.seconds, o.op_size, o.threads, o.no_cleanup),
            (10, 4096, 8, true)
        );
        assert_eq!(o.run_name.as_deref(), Some("r"));
        assert_eq!(
            p("-p rbd cleanup").unwrap().unwrap().action,
            Action::Cleanup
        );
        assert!(p("10 write").unwrap_err().contains("-p POOL"));
        assert!(p("-p x 10 zap").is_err());
        assert!(p("--help").unwrap().is_none());
    }
}
