//! `iomark run --repeat N [--repeat-pause TIME] [--repeat-agg mean|median|best]`: the same jobs
//! N times, each run's output as usual, then a table of every figure's statistics over the runs.
//! `--result FILE` keeps every run (and the statistics) in one file, and the result store
//! records that document as one run (its figures once per repetition, so a trend draws their
//! spread and `compare @last~1 @last` compares two series of repetitions as two such files).
//! Sweeps and the dd, hdparm and bonnie suites repeat the same way (`--result-file` is the same
//! option as `--result` everywhere).

use crate::session::{exit, ResultFile};
use anyhow::{anyhow, bail, Result};
use iomark_engine::result::RunResult;
use iomark_output::result_option;
use iomark_scenarios::repeat::{figures, Agg};
use std::path::PathBuf;
use std::time::Duration;

struct Repeat {
    n: u32,
    pause: Duration,
    agg: Agg,
    result: Option<PathBuf>,
    rest: Vec<String>,
}

/// Take the repetition switches (and the result-file option, in either spelling) out of
/// `args`; None when `--repeat` is absent.
fn extract(args: &[String]) -> Result<Option<Repeat>> {
    let mut r = Repeat {
        n: 0,
        pause: Duration::ZERO,
        agg: Agg::Mean,
        result: None,
        rest: Vec::new(),
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let (k, v) = match a.split_once('=') {
            Some((k, v)) => (k, Some(v.to_string())),
            None => (a.as_str(), None),
        };
        let key = k.trim_start_matches('-');
        let known = matches!(key, "repeat" | "repeat-pause" | "repeat-agg");
        if !(known || result_option::names(key)) || !k.starts_with('-') {
            r.rest.push(a.clone());
            continue;
        }
        let v = match v.or_else(|| it.next().cloned()) {
            Some(v) => v,
            None => bail!("--{key} needs a value"),
        };
        match key {
            "repeat" => match v.parse::<u32>() {
                Ok(n) if (1..=1000).contains(&n) => r.n = n,
                _ => bail!("--repeat={v}: expected a count from 1 to 1000"),
            },
            "repeat-pause" => {
                r.pause = iomark_fio::values::parse_time(&v, iomark_fio::values::TimeUnit::S)
                    .map_err(|e| anyhow!("--repeat-pause={v}: {e}"))?
            }
            "repeat-agg" => {
                r.agg = Agg::parse(&v)
                    .ok_or_else(|| anyhow!("--repeat-agg={v}: mean, median or best"))?
            }
            _ => r.result = Some(PathBuf::from(v)),
        }
    }
    if r.n == 0 {
        return Ok(None);
    }
    Ok(Some(r))
}

/// Which process of a launch repeats a run.
#[cfg_attr(not(feature = "mpi"), allow(dead_code))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Member {
    /// A run of one process.
    Alone,
    /// Rank 0 of many: its runs write the merged result; it shows the statistics.
    Lead,
    /// Another rank: it runs every repetition with the others and shows nothing.
    Other,
}

/// A command repeated when `--repeat` is given: `run` is one run, which writes its result to
/// the file named by `--result=FILE`.
pub fn maybe_repeated(args: &[String], run: fn(&[String]) -> i32) -> i32 {
    repeat_as(args, run, Member::Alone)
}

/// [`maybe_repeated`] as one process of a launch of many: every rank runs every repetition
/// (a failed one does not end the series, so that no rank waits for the others in vain; an
/// interruption ends it on every rank), and rank 0 takes the statistics over the merged
/// results its runs write.
pub fn repeat_as(args: &[String], mut run: impl FnMut(&[String]) -> i32, member: Member) -> i32 {
    let r = match extract(args) {
        Ok(Some(r)) => r,
        Ok(None) => return run(args),
        Err(e) => {
            if member != Member::Other {
                eprintln!("iomark: {e}");
            }
            return 2;
        }
    };
    let shows = member != Member::Other;
    // The result file is checked before the first run (the runs' targets again when written).
    let kept = match ResultFile::take("", r.result.as_deref().filter(|_| shows), &[]) {
        Ok(k) => k,
        Err(code) => return code,
    };
    // Each repetition's result goes through a private directory of its own.
    let tmp_dir = match crate::session::private_temp_dir("iomark", "iomark-repeat.") {
        Ok(d) => d,
        Err(e) => {
            eprintln!("{e}");
            return 1;
        }
    };
    let tmp = tmp_dir.path().join("run.json");
    let mut results: Vec<RunResult> = Vec::new();
    // The repetitions are recorded together, below.
    crate::session::record::hold(true);
    let code = repeat_runs(&r, &mut run, member, &tmp, &mut results);
    crate::session::record::hold(false);
    let (mut code, interrupted) = code;
    if !shows {
        return code;
    }
    if results.is_empty() {
        return code.max(1);
    }
    let figs: Vec<_> = results.iter().map(figures::of_run).collect();
    let rows = figures::rows(&figs, r.agg);
    print!("{}", figures::table(&rows, r.agg));
    #[derive(serde::Serialize)]
    struct Doc<'a> {
        format: &'static str,
        interrupted: bool,
        repetitions: serde_json::Value,
        runs: &'a [RunResult],
    }
    let doc = Doc {
        format: "iomark-repeat/1",
        interrupted: interrupted || results.iter().any(|r| r.interrupted),
        repetitions: figures::to_json(&rows, r.agg),
        runs: &results,
    };
    let bytes = serde_json::to_vec_pretty(&doc).unwrap_or_default();
    // The stored figures are every repetition's (the document's), else the first run's.
    let src = iomark_report::read::parse(std::path::Path::new("repeat.json"), &bytes)
        .unwrap_or_else(|_| iomark_report::read::from_result(&results[0]));
    if !kept.keep_document(&bytes, &results, &src) {
        code = code.max(1);
    }
    code
}

/// Runs the repetitions of `r`, each result read back into `results`; the exit status, and
/// whether a pause was interrupted.
fn repeat_runs(
    r: &Repeat,
    run: &mut impl FnMut(&[String]) -> i32,
    member: Member,
    tmp: &std::path::Path,
    results: &mut Vec<RunResult>,
) -> (i32, bool) {
    let many = member != Member::Alone;
    let shows = member != Member::Other;
    let mut interrupted = false;
    let mut code = exit::OK;
    let level = crate::progress::steps::enter("repetition", r.n as usize);
    for i in 0..r.n {
        level.at(i as usize + 1, "");
        if i > 0 && !r.pause.is_zero() && !crate::session::signals::pause(r.pause) {
            // Interrupted while pausing: what was measured is kept, marked interrupted.
            if shows {
                eprintln!(
                    "iomark: interrupted during the pause; {} of {} runs done",
                    i, r.n
                );
            }
            interrupted = true;
            code = exit::INTERRUPTED;
            break;
        }
        if shows {
            eprintln!("iomark: run {} of {}", i + 1, r.n);
        }
        let mut a = r.rest.clone();
        a.push(format!("--{}={}", result_option::NAME, tmp.display()));
        let c = run(&a);
        if many {
            code = code.max(c);
            if crate::session::signals::interrupted() {
                break;
            }
            if !shows {
                continue;
            }
        } else {
            code = c;
        }
        let read = std::fs::read(tmp)
            .map_err(|e| e.to_string())
            .and_then(|b| RunResult::from_json(&b).map_err(|e| e.to_string()));
        let _ = std::fs::remove_file(tmp);
        match read {
            Ok(res) => results.push(res),
            Err(_) if many => continue,
            Err(_) => {
                if code == 0 {
                    eprintln!("iomark: --repeat: the run left no result to take statistics over (a sweep's --latency-target search cannot be repeated)");
                    code = exit::BAD_INPUT;
                }
                break;
            }
        }
        if code != 0 {
            break;
        }
    }
    (code, interrupted)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(a: &[&str]) -> Vec<String> {
        a.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn switches_are_taken_out() {
        let args = s(&[
            "--name=a",
            "--repeat",
            "3",
            "--repeat-agg=best",
            "--result=x",
            "--rw=read",
        ]);
        let r = extract(&args).unwrap().unwrap();
        assert_eq!(r.n, 3);
        assert_eq!(r.agg, Agg::Best);
        assert_eq!(r.result, Some(PathBuf::from("x")));
        assert_eq!(r.rest, s(&["--name=a", "--rw=read"]));
        assert!(extract(&s(&["--name=a", "--result=x"])).unwrap().is_none());
        assert_eq!(
            extract(&s(&["--repeat=0"])).err().unwrap().to_string(),
            "--repeat=0: expected a count from 1 to 1000"
        );
        for words in result_option::spellings("f") {
            let mut a = s(&["if=x", "--repeat=2"]);
            a.extend(words);
            let r = extract(&a).unwrap().unwrap();
            assert_eq!((r.n, r.result), (2, Some(PathBuf::from("f"))));
            assert_eq!(r.rest, s(&["if=x"]));
        }
    }
}
