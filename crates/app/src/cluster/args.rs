//! The switches of a run launched as many ranks (mpirun, srun), taken from anywhere on the
//! command line before the command sees it: `--no-mpi` runs locally even under a launcher,
//! `--mpi-timeout=TIME` bounds how long a rank may stay silent (or run past a time-bounded
//! group's expected end), `--mpi-verbose` tells the phases and the gather's cost on stderr. A
//! binary built without the `mpi` feature takes them too and always runs locally.

use anyhow::{anyhow, bail, Context, Result};
use iomark_fio::values::{parse_time, TimeUnit};
use std::time::Duration;

/// How long a rank may stay silent unless `--mpi-timeout` says otherwise.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

#[derive(Clone, Debug, PartialEq)]
pub struct ClusterOpts {
    pub no_mpi: bool,
    pub timeout: Duration,
    pub verbose: bool,
}

impl Default for ClusterOpts {
    fn default() -> Self {
        ClusterOpts {
            no_mpi: false,
            timeout: DEFAULT_TIMEOUT,
            verbose: false,
        }
    }
}

/// The switches with their help line, for the usage and the completions.
pub const SWITCHES: [(&str, &str); 3] = [
    (
        "--no-mpi",
        "run locally even when launched by mpirun or srun",
    ),
    (
        "--mpi-timeout",
        "=TIME: how long a rank may stay silent before the run is abandoned (default 60s)",
    ),
    (
        "--mpi-verbose",
        "tell each phase of a run of many ranks and the gather's cost on stderr",
    ),
];

/// Takes the switches out of `args`.
pub fn take(args: Vec<String>) -> Result<(Vec<String>, ClusterOpts)> {
    let mut o = ClusterOpts::default();
    let mut rest = Vec::with_capacity(args.len());
    let mut it = args.into_iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--no-mpi" => o.no_mpi = true,
            "--mpi-verbose" => o.verbose = true,
            "--mpi-timeout" => {
                let v = it
                    .next()
                    .context("--mpi-timeout needs a time, such as 60s or 2m")?;
                o.timeout = timeout(&v)?;
            }
            _ => match a.strip_prefix("--mpi-timeout=") {
                Some(v) => o.timeout = timeout(v)?,
                None => rest.push(a),
            },
        }
    }
    Ok((rest, o))
}

fn timeout(v: &str) -> Result<Duration> {
    let t = parse_time(v, TimeUnit::S).map_err(|e| anyhow!("--mpi-timeout: {e}"))?;
    if t.is_zero() {
        bail!("--mpi-timeout: the timeout must be longer than 0");
    }
    Ok(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &[&str]) -> Vec<String> {
        s.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn the_usage_names_every_switch() {
        for (s, _) in SWITCHES {
            assert!(
                crate::commands::usage().contains(s),
                "{s} is missing from the usage"
            );
        }
    }

    #[test]
    fn switches_are_taken_from_anywhere() {
        let (rest, o) = take(v(&[
            "run",
            "--no-mpi",
            "--name=a",
            "--mpi-timeout=5",
            "--mpi-verbose",
        ]))
        .unwrap();
        assert_eq!(rest, v(&["run", "--name=a"]));
        assert_eq!(
            o,
            ClusterOpts {
                no_mpi: true,
                timeout: Duration::from_secs(5),
                verbose: true
            }
        );
        let (_, o) = take(v(&["run", "--mpi-timeout", "2m"])).unwrap();
        assert_eq!(o.timeout, Duration::from_secs(120));
        assert_eq!(take(v(&["run"])).unwrap().1, ClusterOpts::default());
        assert!(take(v(&["run", "--mpi-timeout=0"])).is_err());
        assert!(take(v(&["run", "--mpi-timeout=soon"])).is_err());
        assert!(take(v(&["run", "--mpi-timeout"])).is_err());
    }
}
