//! `iomark merge`: result files written by `iomark run --result` on several hosts (started by
//! pdsh, clush, ssh loops, a scheduler) merged as one run of many ranks: the file's position is
//! its rank, its host the one it was written on. A file that is itself a merge brings its ranks.

use crate::cluster::out::{finish_cluster, ClusterOutputs};
use anyhow::{anyhow, bail, Result};
use iomark_engine::cluster::RankResult;
use iomark_engine::RunResult;
use iomark_output::{outfile, result_option};
use std::path::PathBuf;

pub const USAGE: &str =
    "Usage: iomark merge [--output-format=normal|json|json+|terse] [--output FILE]
                    [--result FILE] [--report FILE.html|DIR] RESULT...

Merges iomark result files (iomark run --result FILE) written by the same jobs on several hosts
into one run of many clients: rank = the file's position, host = the host it was written on.
Percentiles of all clients come from the merged latency histograms (exact, never averaged); rates
add up. Prints fio's client output: each client's report, then \"All clients\", then the cluster
figures: stonewall (while every rank ran, up to the first one done), all done (every byte over
the slowest rank's time), the sum of the ranks' own rates, the slowest ranks and each host's
share.

  --output-format=FMT[,FMT]  normal (default), json, json+ (with histogram bins), terse
  --terse-version=N          terse version 2 to 5 (default 3)
  --output FILE              write the output to FILE instead of stdout
  --result FILE              iomark's result file of the merge (every rank kept)
  --result-file FILE         the same option as --result
  --report FILE.html|DIR     HTML report with per-host charts (DIR: report.html and PNG images)
  --force                    merge jobs whose options differ between the files (refused
                             otherwise, naming the options)
";

const FLAGS: &[&str] = &[
    "--output-format",
    "--terse-version",
    "--output",
    "--result",
    "--result-file",
    "--report",
    "--force",
    "--help",
];

struct Args {
    out: ClusterOutputs,
    files: Vec<PathBuf>,
    help: bool,
    force: bool,
}

fn parse(args: &[String]) -> Result<Args> {
    let mut a = Args {
        out: ClusterOutputs::default(),
        files: Vec::new(),
        help: false,
        force: false,
    };
    let mut i = 0;
    while i < args.len() {
        let arg = &args[i];
        i += 1;
        if arg == "-h" || arg == "--help" {
            a.help = true;
            continue;
        }
        if arg == "--force" {
            a.force = true;
            continue;
        }
        if !arg.starts_with('-') || arg == "-" {
            a.files.push(PathBuf::from(arg));
            continue;
        }
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) => (f, Some(v.to_string())),
            None => (arg.as_str(), None),
        };
        if !FLAGS.contains(&flag) {
            bail!(
                "unknown option {}{}",
                iomark_output::echo::quote(flag),
                iomark_fio::options::did_you_mean(flag, FLAGS)
            );
        }
        let value = match inline {
            Some(v) => v,
            None => {
                let v = args
                    .get(i)
                    .cloned()
                    .ok_or_else(|| anyhow!("{flag} needs a value"))?;
                i += 1;
                v
            }
        };
        match flag {
            "--output-format" => {
                a.out.formats = iomark_fio::switches::parse_output_formats(&value)
                    .map_err(|e| anyhow!("--output-format={value}: {e}"))?
            }
            "--terse-version" => {
                a.out.terse_version = value
                    .parse()
                    .ok()
                    .filter(|v| (2..=5).contains(v))
                    .ok_or_else(|| anyhow!("--terse-version={value}: expected 2, 3, 4 or 5"))?
            }
            "--output" => a.out.output = Some(value.into()),
            f if f.strip_prefix("--").is_some_and(result_option::names) => {
                a.out.result = Some(value.into())
            }
            _ => a.out.report = Some(value.into()),
        }
    }
    Ok(a)
}

/// The ranks of the files, in order: a plain result is one rank; a merged one its ranks.
fn read_ranks(files: &[PathBuf]) -> Result<Vec<RankResult>> {
    let mut ranks = Vec::new();
    for f in files {
        let bytes = outfile::read_input(f, outfile::MAX_RESULT_BYTES, "a result file")
            .map_err(|e| anyhow!("cannot read {}: {e}", f.display()))?;
        let r = RunResult::from_json(&bytes).map_err(|e| anyhow!("{}: {e}", f.display()))?;
        if r.ranks.is_empty() {
            ranks.push(RankResult {
                rank: ranks.len(),
                host: r.host.hostname.clone(),
                result: r,
            });
        } else {
            for mut sub in r.ranks {
                sub.rank = ranks.len();
                ranks.push(sub);
            }
        }
    }
    Ok(ranks)
}

/// Options that may differ between the hosts of one run: where the files are, the seed.
/// `options` is the text the user gave (the typed fields carry what it means).
const PER_HOST: &[&str] = &[
    "filenames",
    "directories",
    "file_names",
    "description",
    "randseed",
    "options",
];

/// The first job whose options differ between two ranks: "rank R job J: opt (a vs b), ...".
fn differing_options(ranks: &[RankResult]) -> Option<String> {
    let first = ranks.first()?;
    let job_values = |r: &RankResult| -> Vec<(String, serde_json::Value)> {
        r.result
            .plan
            .jobs
            .iter()
            .map(|j| (j.name.clone(), serde_json::to_value(j).unwrap_or_default()))
            .collect()
    };
    let base = job_values(first);
    for r in &ranks[1..] {
        let other = job_values(r);
        if other.len() != base.len() {
            return Some(format!(
                "rank {} has {} jobs, rank 0 {}",
                r.rank,
                other.len(),
                base.len()
            ));
        }
        for ((n0, v0), (n1, v1)) in base.iter().zip(&other) {
            let mut diffs = Vec::new();
            if n0 != n1 {
                diffs.push("name".to_string());
            }
            if let (Some(a), Some(b)) = (v0.as_object(), v1.as_object()) {
                for (k, va) in a {
                    if PER_HOST.contains(&k.as_str()) || k == "name" {
                        continue;
                    }
                    let vb = b.get(k).cloned().unwrap_or_default();
                    if *va != vb {
                        diffs.push(k.clone());
                    }
                }
            }
            if !diffs.is_empty() {
                return Some(format!(
                    "job {n0} of rank 0 and job {n1} of rank {} differ in {}",
                    r.rank,
                    diffs.join(", ")
                ));
            }
        }
    }
    None
}

/// `iomark merge`.
pub fn main(args: &[String]) -> i32 {
    let a = match parse(args) {
        Ok(a) if a.help => return crate::session::pipe::print_text(USAGE),
        Ok(a) if a.files.is_empty() => {
            eprintln!("iomark merge: no result files given\n\n{USAGE}");
            return 2;
        }
        Ok(a) => a,
        Err(e) => {
            eprintln!("iomark merge: {e}\n\n{USAGE}");
            return 2;
        }
    };
    if let Err(e) = a.out.check_before(&a.files) {
        eprintln!("iomark merge: {e}");
        return 2;
    }
    match read_ranks(&a.files) {
        Ok(ranks) => {
            if let Some(d) = differing_options(&ranks) {
                if !a.force {
                    eprintln!("iomark merge: refusing to merge different workloads: {d} (--force merges them anyway)");
                    return 2;
                }
                eprintln!("iomark merge: merging different workloads (--force): {d}");
            }
            finish_cluster(ranks, &a.out)
        }
        Err(e) => {
            eprintln!("iomark merge: {e}");
            2
        }
    }
}
