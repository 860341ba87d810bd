//! `iomark quick [PATH]`: the binary's side of the quick preset (iomark-scenarios builds the
//! plan and formats the results): messages on stderr, signals, the status line, and the run.

mod live;
mod words;

use crate::progress::source::{Observer, Sample};
use crate::session::{exit, signals, Session};
use iomark_engine::note;
use iomark_engine::result::JobResult;
use iomark_engine::runner::{self, RunError};
use iomark_scenarios::quick::{self, Parsed, PrepareError};
use std::sync::atomic::Ordering;

/// How quick words what stops it or a test. Every message that reports an engine refusal or a
/// failed job lives here.
mod wording {
    use super::*;

    /// The preset could not choose its target (exit code beside it).
    pub fn prepare_error(e: &PrepareError) -> (String, i32) {
        let code = match e {
            PrepareError::Missing(_) => 2,
            _ => 1,
        };
        (format!("iomark quick: {e}"), code)
    }

    /// The engine refused the run (bad target, no space, ...).
    pub fn run_refused(e: &RunError) -> String {
        format!("iomark quick: {}", crate::quick::words::run_error(e))
    }

    /// The write tests were refused after the read tests ran.
    pub fn write_refused(e: &RunError) -> String {
        format!(
            "iomark quick: the write tests were not run: {}",
            crate::quick::words::run_error(e)
        )
    }

    /// One test failed.
    pub fn job_failed(j: &JobResult) -> String {
        format!(
            "iomark quick: {} failed: {}",
            j.name,
            j.failure
                .as_ref()
                .map(|f| f.to_string())
                .unwrap_or_default()
        )
    }
}

/// `iomark quick ARGS...`: parse, run, print; returns the exit code.
pub fn main(args: &[String]) -> i32 {
    let (args, report) = match crate::report_cmd::take_report_arg(args) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("iomark quick: {e}");
            return 2;
        }
    };
    match quick::parse(&args) {
        Ok(Parsed::Run(o)) => run(o, report),
        Ok(Parsed::Help) => crate::session::pipe::print_text(quick::USAGE),
        Err(e) => {
            // Every message names the program, as `iomark quick: ...`.
            let e = e.to_string();
            match e.strip_prefix("quick: ") {
                Some(rest) => eprintln!("iomark quick: {rest}"),
                None if e.starts_with("iomark") => eprintln!("{e}"),
                None => eprintln!("iomark quick: {e}"),
            }
            2
        }
    }
}

fn run(o: quick::QuickOpts, report: Option<std::path::PathBuf>) -> i32 {
    // The report and the result file are checked before any I/O; the target given is never
    // replaced by them.
    let target: Vec<std::path::PathBuf> = o.path.iter().cloned().collect();
    for r in report.iter().chain(o.result_file.iter()) {
        if let Err(e) = iomark_output::outfile::check_output(r, &target) {
            eprintln!("iomark quick: {e}");
            return 2;
        }
    }
    let (mut p, write_refused) = match prepare(&o) {
        Ok(x) => x,
        Err(code) => return code,
    };
    for n in &p.notices {
        eprintln!("iomark quick: {n}");
    }
    let tty = crate::progress::status::stderr_is_tty();
    // On a terminal an event first clears the live line it would otherwise run into.
    let session = if tty {
        Session::start("quick", |e| {
            eprintln!("\r\x1b[K{}", iomark_fio::explain::event(e))
        })
    } else {
        Session::start("quick", |e| eprintln!("{}", iomark_fio::explain::event(e)))
    };
    let mut session = session;
    let targets = [p.path.clone()];
    if let Err(e) = session.result_file(o.result_file.as_deref(), &targets) {
        eprintln!("{e}");
        return 2;
    }
    let ctl = session.ctl.clone();
    if p.temp {
        signals::register_temp(&p.path);
    }
    if !o.json {
        announce(&o, &p);
    }
    // quick's live view is its own line.
    let progress = session.watch(vec![view(&o, &p, tty)], true);
    if report.is_some() {
        p.plan.series_ms = Some(crate::report_cmd::REPORT_SERIES_MS);
    }
    let res = runner::run(&p.plan, &ctl);
    progress.stop();
    if signals::interrupted() {
        ctl.interrupted.store(true, Ordering::Relaxed);
    }
    if p.temp {
        remove_temp(&p.path);
    }
    let mut res = match res {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{}", wording::run_refused(&e));
            return 1;
        }
    };
    // A Ctrl-C stops the run: the results say so, and the test it cut short is partial.
    if signals::interrupted() {
        res.interrupted = true;
    }
    finish(&o, &p, &res, report.as_deref(), write_refused, &session)
}

/// The plan of the run, and why the write tests are refused when only the reads run: a device
/// that may not be written (it holds data, it is mounted) still runs the read tests and prints
/// their figures; the write half is refused after them. The exit status when nothing can run.
fn prepare(o: &quick::QuickOpts) -> Result<(quick::Prepared, Option<RunError>), i32> {
    let fail = |e: &PrepareError| {
        let (msg, code) = wording::prepare_error(e);
        eprintln!("{msg}");
        code
    };
    let p = quick::prepare(o).map_err(|e| fail(&e))?;
    if !o.allow_write || p.temp {
        return Ok((p, None));
    }
    let Err(
        e @ (RunError::DeviceHoldsData { .. }
        | RunError::DeviceMounted { .. }
        | RunError::DeviceUnreadable { .. }),
    ) = runner::check(&p.plan)
    else {
        return Ok((p, None));
    };
    let read_only = quick::QuickOpts {
        allow_write: false,
        ..o.clone()
    };
    let mut ro = quick::prepare(&read_only).map_err(|e| fail(&e))?;
    ro.notices
        .retain(|n| !matches!(n, quick::Notice::ReadOnly(_)));
    eprintln!("iomark quick: running the read tests only; the write tests are refused (see below)");
    Ok((ro, Some(e)))
}

/// What runs where, on stderr before the run.
fn announce(o: &quick::QuickOpts, p: &quick::Prepared) {
    eprintln!(
        "iomark quick: {} on {} ({} MiB, {}, {} s per test after {} s warm-up)",
        p.engine.name(),
        p.path.display(),
        p.size >> 20,
        if p.direct {
            "direct I/O"
        } else {
            "buffered I/O"
        },
        o.runtime.as_secs_f64(),
        o.ramp.as_secs_f64()
    );
}

/// The live view on a terminal, else a line per finished test.
fn view(o: &quick::QuickOpts, p: &quick::Prepared, tty: bool) -> Box<dyn Observer> {
    if !tty {
        return Box::new(FinishedLines {
            told: 0,
            total: p.plan.jobs.len(),
        });
    }
    Box::new(live::LiveView::new(live::Plan {
        tests: p
            .labels
            .iter()
            .map(|l| format!("{} {}", l.label, if l.write { "write" } else { "read" }))
            .collect(),
        per_test: o.runtime + o.ramp,
        layout_bytes: if p.temp { p.size } else { 0 },
    }))
}

/// Removes the temporary test file and says so.
fn remove_temp(path: &std::path::Path) {
    match std::fs::remove_file(path) {
        Ok(()) => eprintln!(
            "iomark quick: removed the temporary file {}",
            path.display()
        ),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => eprintln!(
            "iomark quick: could not remove the temporary file {}: {e}",
            path.display()
        ),
    }
    signals::clear_temp();
}

/// The table (or JSON) and notes, the report, then the exit status: 130 when interrupted, 1
/// when the write tests were refused or a test failed.
fn finish(
    o: &quick::QuickOpts,
    p: &quick::Prepared,
    res: &iomark_engine::RunResult,
    report: Option<&std::path::Path>,
    write_refused: Option<RunError>,
    session: &Session,
) -> i32 {
    let rows = quick::rows(res, &p.labels);
    if o.json {
        let notes = note::worded(&res.notes, crate::quick::words::note);
        println!("{}", quick::to_json(&rows, res, &notes, p));
    } else {
        print!("{}", quick::table(&rows));
        for n in note::worded(&res.notes, crate::quick::words::note) {
            eprintln!("note: {n}");
        }
    }
    let mut failed = res.jobs.iter().any(|j| j.error != 0);
    if let Some(path) = report {
        failed |= !crate::report_cmd::report_run(res, path, "iomark quick");
    }
    failed |= !session.keep(res);
    if res.interrupted || signals::interrupted() {
        exit::INTERRUPTED
    } else if let Some(e) = write_refused {
        eprintln!("{}", wording::write_refused(&e));
        1
    } else if failed {
        for j in res.jobs.iter().filter(|j| j.error != 0) {
            eprintln!("{}", wording::job_failed(j));
        }
        1
    } else {
        0
    }
}

/// Without a terminal, one line on stderr per finished test, so a log shows progress rather
/// than a long silence.
struct FinishedLines {
    /// How many finished tests were told.
    told: usize,
    total: usize,
}

impl FinishedLines {
    /// Tells the tests that finished since the last call, in order.
    fn tell(&mut self, s: &Sample) {
        for w in s.workers.iter().skip(self.told) {
            if !w.state().finished() {
                break;
            }
            self.told += 1;
            let ms = w.elapsed_ms.load(Ordering::Relaxed).max(1);
            let bytes: u64 = w.bytes.iter().map(|b| b.load(Ordering::Relaxed)).sum();
            let ios: u64 = w.ios.iter().map(|b| b.load(Ordering::Relaxed)).sum();
            eprintln!(
                "iomark quick: test {} of {} done: {} ({:.1} MB/s, {:.0} IOPS)",
                self.told,
                self.total,
                w.name,
                bytes as f64 / ms as f64 / 1000.0,
                ios as f64 * 1000.0 / ms as f64
            );
        }
    }
}

impl Observer for FinishedLines {
    fn every(&self) -> std::time::Duration {
        std::time::Duration::from_millis(200)
    }
    fn sample(&mut self, s: &Sample) {
        self.tell(s);
    }
    fn end(&mut self, last: &Sample) {
        self.tell(last);
    }
}
