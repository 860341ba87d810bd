//! The binary's side of the classic tools (`iomark dd`, `iomark hdparm`): parse with the tool's
//! front end in iomark-suites, run the plan on the engine with signals handled, print the tool's
//! own output, and write iomark's result file when asked.

pub mod blogbench;
pub mod bonnie;
pub mod dd;
pub mod hdparm;
pub mod iozone;

use crate::progress::source::Observer;
use crate::session::{signals, Session};
use anyhow::{anyhow, Result};
use iomark_engine::runner;
use iomark_engine::{RunPlan, RunResult};

/// Run `plan` in `session`; `progress` (if any) observes it while it runs. Errors are the
/// engine's refusal, worded for the session's tool.
pub fn run_plan(
    session: &Session,
    plan: &RunPlan,
    progress: Option<Box<dyn Observer>>,
) -> Result<RunResult> {
    let tool = session.tool();
    iomark_engine::budget::check(plan).map_err(|e| anyhow!("iomark {tool}: {e}"))?;
    let own_line = progress.is_some();
    let _level = crate::progress::steps::by_jobs("job", plan.jobs.len());
    let source = session.watch(progress.into_iter().collect(), own_line);
    let res = runner::run(plan, &session.ctl);
    source.stop();
    let mut r = res.map_err(|e| anyhow!("iomark {tool}: {e}"))?;
    if signals::interrupted() {
        r.interrupted = true;
    }
    Ok(r)
}

/// The first failed job's message, if any.
pub fn failure(r: &RunResult) -> Option<String> {
    r.jobs.iter().find(|j| j.error != 0).map(|j| {
        j.failure
            .as_ref()
            .map_or_else(|| format!("error {}", j.error), |f| f.to_string())
    })
}

/// When the first failed job could not open its target: the path and the system's words for
/// the errno without the "(os error N)" tail (each tool words the line itself).
pub fn open_failure(r: &RunResult) -> Option<(std::path::PathBuf, String)> {
    r.jobs
        .iter()
        .find(|j| j.error != 0)
        .and_then(|j| match &j.failure {
            Some(iomark_engine::failure::JobFailure::Open { path, errno, .. }) => {
                Some((path.clone(), os_words(*errno)))
            }
            _ => None,
        })
}

/// The system's words for an errno without the "(os error N)" tail.
fn os_words(errno: i32) -> String {
    let words = std::io::Error::from_raw_os_error(errno).to_string();
    match words.find(" (os error") {
        Some(i) => words[..i].to_string(),
        None => words,
    }
}

/// When the first failed job met an I/O error: its direction, the file and the system's words
/// for the errno without the "(os error N)" tail.
pub fn io_failure(r: &RunResult) -> Option<(iomark_engine::Dir, std::path::PathBuf, String)> {
    r.jobs
        .iter()
        .find(|j| j.error != 0)
        .and_then(|j| match &j.failure {
            Some(iomark_engine::failure::JobFailure::Io {
                dir, path, errno, ..
            }) => Some((*dir, path.clone(), os_words(*errno))),
            _ => None,
        })
}
