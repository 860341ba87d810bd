//! The outputs of a run made by many ranks at once, on rank 0: every rank's result merged
//! exactly (counts add, latency histograms add bucket by bucket) and shown through the outputs
//! of a local run; the result file holds the merged result.

use crate::periodic;
use iomark_engine::cluster::RankResult;
use iomark_engine::result::RunResult;
use iomark_fio::switches::OutputOpts;

/// The ranks' results merged into one: job `i` of every rank into job `i` of rank 0's.
pub fn merge(ranks: &[RankResult]) -> RunResult {
    let mut it = ranks.iter();
    let Some(first) = it.next() else {
        return RunResult::default();
    };
    let mut all = first.result.clone();
    for r in it {
        for (a, b) in all.jobs.iter_mut().zip(&r.result.jobs) {
            a.merge(b);
        }
        all.interrupted |= r.result.interrupted;
        for n in &r.result.notes {
            if !all.notes.contains(n) {
                all.notes.push(n.clone());
            }
        }
    }
    all
}

/// Prints the merged result in the formats asked for (to `--output` or stdout) and writes the
/// result file; returns the exit code.
pub fn finish_cluster(ranks: Vec<RankResult>, out: &OutputOpts) -> i32 {
    let all = merge(&ranks);
    let text = periodic::render_all(&all, &out.formats, out.terse_version, false);
    let mut code = 0;
    match &out.file {
        Some(p) => {
            if let Err(e) = crate::outputs::write(p, text.as_bytes()) {
                eprintln!("iomark: {e}");
                code = 1;
            }
        }
        None => print!("{text}"),
    }
    if let Some(rf) = &out.result_file {
        let written = serde_json::to_vec_pretty(&all)
            .map_err(|e| format!("cannot encode the result: {e}"))
            .and_then(|b| crate::outputs::write(rf, &b));
        if let Err(e) = written {
            eprintln!("iomark: {e}");
            code = 1;
        }
    }
    if all.jobs.iter().any(|j| j.error != 0) {
        code = 1;
    }
    code
}
