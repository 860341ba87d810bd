//! `--status-interval=T`: a full report of the results so far every T, like fio's. Each worker
//! answers a snapshot request at its next bw/iops sample (every `bwavgtime`, 500 ms by default),
//! so no lock or copy sits on the I/O path. With JSON output every report, the final one
//! included, is one line: the stream is newline-delimited JSON.

use iomark_engine::result::{JobResult, RunResult};
use iomark_engine::runner::{RunCtl, WorkerProgress};
use iomark_engine::RunPlan;
use iomark_fio::output::{self, OutputFormat};
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Where the reports go.
#[derive(Clone)]
pub enum Sink {
    Stdout,
    /// Appended to this file.
    File(PathBuf),
}

impl Sink {
    pub fn write(&self, text: &str) -> std::io::Result<()> {
        match self {
            Sink::Stdout => {
                let mut so = std::io::stdout().lock();
                so.write_all(text.as_bytes())?;
                so.flush()
            }
            Sink::File(p) => std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)?
                .write_all(text.as_bytes()),
        }
    }
}

pub struct Reporter {
    pub plan: RunPlan,
    pub formats: Vec<OutputFormat>,
    pub terse_version: u32,
    /// `--status-interval`; None: reports only when asked (SIGUSR1).
    pub every: Option<Duration>,
    /// Reports are one JSON line each (`--status-interval`) rather than pretty documents.
    pub ndjson: bool,
    pub sink: Sink,
    /// Blocks up to the given time (woken early by a request or the end of the run); true asks
    /// for a report now (SIGUSR1).
    pub wait: fn(Duration) -> bool,
}

/// Render `result` in every format; JSON documents on one line each.
pub fn render_all(
    result: &RunResult,
    formats: &[OutputFormat],
    terse_version: u32,
    ndjson: bool,
) -> String {
    let mut text = String::new();
    for f in formats {
        let r = output::render(result, *f, terse_version);
        if ndjson && matches!(f, OutputFormat::Json | OutputFormat::JsonPlus) {
            text.push_str(&one_line(&r));
            text.push('\n');
        } else {
            text.push_str(&r);
        }
    }
    text
}

/// JSON text without the whitespace between tokens (strings untouched).
pub fn one_line(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    let mut in_str = false;
    let mut escaped = false;
    for c in json.chars() {
        if in_str {
            out.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_str = false;
            }
        } else if c == '"' {
            in_str = true;
            out.push(c);
        } else if !c.is_whitespace() {
            out.push(c);
        }
    }
    out
}

/// Collect the workers' snapshots (asking the running ones first).
fn snapshot(ctl: &RunCtl) -> Vec<JobResult> {
    let workers = ctl.workers.lock().map(|w| w.clone()).unwrap_or_default();
    let running = |w: &WorkerProgress| !w.state().finished();
    for w in &workers {
        if running(w) {
            w.snapshot_req.store(true, Ordering::Release);
        }
    }
    let deadline = Instant::now() + Duration::from_millis(1500);
    while Instant::now() < deadline
        && workers
            .iter()
            .any(|w| w.snapshot_req.load(Ordering::Acquire) && running(w))
    {
        std::thread::sleep(Duration::from_millis(10));
    }
    let mut jobs: Vec<JobResult> = workers
        .iter()
        .filter_map(|w| w.snapshot.lock().ok().and_then(|s| s.clone()))
        .collect();
    jobs.sort_by_key(|j| (j.job_index, j.clone));
    jobs
}

/// Print a report every `every` (if set) and whenever `asked` says so, until `done`.
pub fn spawn(r: Reporter, ctl: Arc<RunCtl>, done: Arc<AtomicBool>) -> std::thread::JoinHandle<()> {
    // Finished workers keep a copy of their results for later reports; with reports only on
    // request, from the first request on (a job that ended before it is left out).
    if r.every.is_some() {
        ctl.keep_snapshots.store(true, Ordering::Relaxed);
    }
    std::thread::spawn(move || {
        let start_unix_ms = iomark_engine::sys::unix_ms();
        let host = iomark_engine::sys::host_info();
        let far = Duration::from_secs(365 * 24 * 3600);
        let mut next = Instant::now() + r.every.unwrap_or(far);
        loop {
            // Sleep until the next report is due, a request comes or the run ends (the
            // waker is called after `done` is set): no polling while the workers run.
            let mut asked = false;
            loop {
                if done.load(Ordering::Relaxed) {
                    return;
                }
                let now = Instant::now();
                if asked || now >= next {
                    break;
                }
                asked = (r.wait)(next - now);
            }
            if asked {
                ctl.keep_snapshots.store(true, Ordering::Relaxed);
            } else {
                next += r.every.unwrap_or(far);
            }
            let jobs = snapshot(&ctl);
            if jobs.is_empty() || done.load(Ordering::Relaxed) {
                continue;
            }
            let result = RunResult {
                command_line: ctl.command_line.clone(),
                ..RunResult::assemble(&r.plan, start_unix_ms, host.clone(), jobs)
            };
            let text = render_all(&result, &r.formats, r.terse_version, r.ndjson);
            if let Err(e) = r.sink.write(&text) {
                eprintln!("iomark: cannot write a periodic report: {e}");
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_line_keeps_strings() {
        assert_eq!(
            one_line("{\n  \"a b\" : [1, 2],\n  \"c\\\" d\" : \"x  y\"\n}\n"),
            "{\"a b\":[1,2],\"c\\\" d\":\"x  y\"}"
        );
    }
}
