//! Where `iomark run` writes its report, result file and logs: every path checked before any
//! I/O (never a device, a directory, a job's target, a new file under `/dev`), every file
//! written whole through a temporary name and a rename (`iomark_output::outfile`).

use anyhow::{anyhow, Result};
use iomark_engine::RunPlan;
use iomark_fio::output::logs;
use iomark_fio::switches::OutputOpts;
use iomark_output::outfile;
use std::path::{Path, PathBuf};

/// Refuses output paths that would destroy something, before the run.
pub fn check(plan: &RunPlan, out: &OutputOpts, report: Option<&Path>) -> Result<()> {
    let targets = outfile::plan_targets(plan);
    let mut paths: Vec<PathBuf> = out
        .file
        .iter()
        .chain(out.result_file.iter())
        .cloned()
        .chain(report.map(Path::to_path_buf))
        .collect();
    paths.extend(logs::log_paths(plan, Path::new(".")));
    // The I/O traces the jobs record (write_iolog).
    for j in &plan.jobs {
        if let Some(r) = &j.record {
            if !paths.contains(&r.path) {
                paths.push(r.path.clone());
            }
        }
    }
    for p in &paths {
        outfile::check_output(p, &targets)?;
    }
    Ok(())
}

/// Writes a result file after runs: refused over the runs' targets or a device, else whole.
pub fn write_after<'a>(
    path: &Path,
    bytes: &[u8],
    plans: impl IntoIterator<Item = &'a RunPlan>,
) -> Result<()> {
    let targets: Vec<PathBuf> = plans.into_iter().flat_map(outfile::plan_targets).collect();
    outfile::check_output(path, &targets)?;
    write(path, bytes)
}

/// Writes `bytes` to `path` whole; the error names the file.
pub fn write(path: &Path, bytes: &[u8]) -> Result<()> {
    outfile::write_atomic(path, bytes).map_err(|e| anyhow!("cannot write {}: {e}", path.display()))
}

/// The outputs of a command that reads files (report, compare, export, merge), checked before
/// it reads anything: the inputs are remembered, so no output replaces one of them (also
/// through a link); `files` are output files, `dirs` directories outputs go into.
pub fn check_tool(inputs: &[PathBuf], files: &[&Path], dirs: &[&Path]) -> Result<()> {
    for i in inputs {
        outfile::note_input(i);
    }
    for f in files {
        outfile::check_output(f, &[])?;
    }
    for d in dirs {
        outfile::check_output_dir(d)?;
    }
    Ok(())
}
