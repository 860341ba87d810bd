//! The end of a run of many ranks, however their results were gathered (by MPI on rank 0, or
//! from result files by `iomark merge`): the exact merge, the fio-compatible client output, the
//! result file with every rank, the HTML report with per-host charts.

use crate::session::{exit, ResultFile};
use anyhow::{anyhow, Result};
use iomark_engine::cluster::{self, RankResult};
use iomark_engine::RunPlan;
use iomark_fio::output::OutputFormat;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Where and how a run of many ranks is shown.
#[derive(Clone, Debug)]
pub struct ClusterOutputs {
    /// Output formats, in order (`--output-format`).
    pub formats: Vec<OutputFormat>,
    /// Terse version (2 to 5).
    pub terse_version: u32,
    /// The output goes to this file instead of stdout (`--output`).
    pub output: Option<PathBuf>,
    /// iomark's result file with every rank (`--result`).
    pub result: Option<PathBuf>,
    /// The HTML report: a `.html` file, or a directory that gets `report.html` and every chart
    /// as a PNG image (`--report`).
    pub report: Option<PathBuf>,
}

impl Default for ClusterOutputs {
    fn default() -> Self {
        ClusterOutputs {
            formats: vec![OutputFormat::Normal],
            terse_version: 3,
            output: None,
            result: None,
            report: None,
        }
    }
}

impl ClusterOutputs {
    /// Every output checked before `inputs` are read: none of them, no device, a directory
    /// that exists and takes files (`--report DIR` may be made).
    pub fn check_before(&self, inputs: &[PathBuf]) -> Result<()> {
        let (page, dir) = match self.report.as_deref() {
            Some(p) if is_page(p) => (Some(p), None),
            Some(p) => (None, Some(p)),
            None => (None, None),
        };
        let files: Vec<&Path> = [self.output.as_deref(), self.result.as_deref(), page]
            .into_iter()
            .flatten()
            .collect();
        crate::session::outputs::check_tool(inputs, &files, dir.as_slice())
    }

    /// The outputs a run's own switches ask for (`--output-format`, `--output`, `--result`), as
    /// rank 0 of a launch shows them.
    #[cfg_attr(not(feature = "mpi"), allow(dead_code))]
    pub fn from_switches(o: &iomark_fio::switches::OutputOpts) -> ClusterOutputs {
        ClusterOutputs {
            formats: o.formats.clone(),
            terse_version: o.terse_version,
            output: o.file.clone(),
            result: o.result_file.clone(),
            report: None,
        }
    }
}

/// The ranks' results merged into one run (per job, every rank together), for what shows a
/// run as one (a preset's summary); the error names the rank whose result does not fit.
#[cfg_attr(not(feature = "mpi"), allow(dead_code))]
pub fn merge(ranks: Vec<RankResult>) -> Result<iomark_engine::result::RunResult> {
    cluster::merge(ranks)
        .map(|c| c.to_run_result())
        .map_err(|e| anyhow!("cannot merge the ranks' results: {e}"))
}

/// Merge the ranks' results and write everything `out` asks for. Returns the exit status:
/// 0 when every rank's jobs ran without error, 1 when one failed or an output could not be
/// written, 2 when the results do not merge (they name the rank), 130 when a rank was
/// interrupted.
pub fn finish_cluster(ranks: Vec<RankResult>, out: &ClusterOutputs) -> i32 {
    let plans: Vec<RunPlan> = ranks.iter().map(|r| r.result.plan.clone()).collect();
    // Nothing is written over a rank's target (as named on the host that merges).
    let targets: Vec<PathBuf> = plans
        .iter()
        .flat_map(iomark_output::outfile::plan_targets)
        .collect();
    let kept = match ResultFile::take("", out.result.as_deref(), &targets) {
        Ok(k) => k,
        Err(code) => return code,
    };
    let page = out.report.as_deref().filter(|p| is_page(p));
    for p in [out.output.as_deref(), page].into_iter().flatten() {
        if let Err(e) = iomark_output::outfile::check_output(p, &targets) {
            eprintln!("iomark: {e}");
            return exit::BAD_INPUT;
        }
    }
    if let Some(d) = out.report.as_deref().filter(|p| !is_page(p)) {
        if let Err(e) = iomark_output::outfile::check_output_dir(d) {
            eprintln!("iomark: {e}");
            return exit::BAD_INPUT;
        }
    }
    let c = match cluster::merge(ranks) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("iomark: cannot merge the ranks' results: {e}");
            return exit::BAD_INPUT;
        }
    };
    let result = c.to_run_result();
    let mut failed = false;
    for r in &c.ranks {
        for j in r.result.jobs.iter().filter(|j| j.error != 0) {
            eprintln!(
                "iomark: rank {} on {}: job {} failed: {}",
                r.rank,
                r.host,
                j.name,
                j.failure.as_ref().map_or_else(
                    || format!("error {}", j.error),
                    iomark_fio::explain::failure
                )
            );
            failed = true;
        }
    }
    // The result file with every rank, and the record of the merged run.
    if !kept.keep(&result) {
        failed = true;
    }
    if let Some(p) = &out.report {
        if !write_report(&result, p) {
            failed = true;
        }
    }
    // The files first, standard output last: when mpirun is interrupted it stops forwarding
    // the ranks' output (the pipe closes midway), and what is in files must not be lost with it.
    let text =
        crate::progress::periodic::render_all(&result, &out.formats, out.terse_version, false);
    match &out.output {
        Some(p) => {
            if let Err(e) = crate::session::outputs::write(p, text.as_bytes()) {
                eprintln!("iomark: {e}");
                failed = true;
            }
        }
        None => {
            let mut so = std::io::stdout().lock();
            if so
                .write_all(text.as_bytes())
                .and_then(|_| so.flush())
                .is_err()
            {
                failed = true;
            }
        }
    }
    if result.interrupted {
        eprintln!("iomark: a rank was interrupted; its figures cover the time before");
    }
    exit::of(result.interrupted, failed)
}

/// Whether `--report` names the page itself (`.html`), else a directory.
fn is_page(p: &Path) -> bool {
    p.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("html") || e.eq_ignore_ascii_case("htm"))
}

/// The page `--report` writes: the path itself, or `report.html` in the directory.
fn report_page(p: &Path) -> PathBuf {
    if is_page(p) {
        p.to_path_buf()
    } else {
        p.join("report.html")
    }
}

/// A `.html` path is the page; anything else a directory with `report.html` and PNG images.
fn write_report(result: &iomark_engine::RunResult, p: &Path) -> bool {
    if is_page(p) {
        return crate::report_cmd::report_run_to(result, p, "iomark merge", None);
    }
    if let Err(e) = std::fs::create_dir_all(p) {
        eprintln!("iomark: cannot create {}: {e}", p.display());
        return false;
    }
    crate::report_cmd::report_run_to(result, &report_page(p), "iomark merge", Some(p))
}
