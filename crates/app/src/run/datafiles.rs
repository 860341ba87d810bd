//! Where the data files of jobs without a `--filename` went: fio names them `JOB.N.M` in the
//! current directory (or `--directory`) and keeps them, which a newcomer does not expect; iomark
//! keeps fio's naming and says where each file is and whether it was kept.

use iomark_engine::result::RunResult;
use std::path::Path;

/// One line per data file iomark named itself (jobs without a filename).
pub fn notes(result: &RunResult) -> Vec<String> {
    let cwd = std::env::current_dir().ok();
    let mut out = Vec::new();
    for (ji, job) in result.plan.jobs.iter().enumerate() {
        if !job.filenames.is_empty() {
            continue;
        }
        let targets = result
            .jobs
            .iter()
            .filter(|j| j.job_index == ji)
            .flat_map(|j| &j.targets);
        for t in targets.filter(|t| t.kind == "file") {
            let path = Path::new(&t.path);
            let shown = match (&cwd, path.is_absolute()) {
                (Some(c), false) => c.join(path.strip_prefix(".").unwrap_or(path)),
                _ => path.to_path_buf(),
            };
            let fate = if path.exists() {
                "kept (remove it when done; --filename= chooses the file, --unlink=1 removes it)"
            } else {
                "removed"
            };
            out.push(format!(
                "iomark: {}: data file {} (named JOB.N.M as fio does): {fate}",
                job.name,
                shown.display()
            ));
        }
    }
    out
}
