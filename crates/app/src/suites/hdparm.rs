//! `iomark hdparm -t -T [--direct] [--offset GiB] PATH...`: hdparm's timings on iomark's engine,
//! hdparm's lines on stdout.

use super::{failure, open_failure, run_plan};
use crate::session::{exit, Session};
use iomark_engine::RunResult;
use iomark_suites::common::probe::Probe;
use iomark_suites::hdparm::{self, Kind};
use std::io::Write;

pub fn main(args: &[String]) -> i32 {
    let a = match hdparm::parse(args) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("iomark hdparm: {e}\nTry 'iomark hdparm --help' for more information.");
            return 2;
        }
    };
    if a.help {
        // A reader that stops early (`| head -1`) ends it quietly, status 0.
        return crate::session::pipe::print_text(hdparm::USAGE);
    }
    let mut session = Session::quiet("hdparm");
    if let Err(code) = session.result_file(a.result_file.as_deref(), &a.paths) {
        return code;
    }
    let mut code = 0;
    let mut all: Option<RunResult> = None;
    let mut table = hdparm::table::table();
    for path in &a.paths {
        let (kind, size) = match Probe::of(path) {
            Probe::Block { size } => (Kind::Block, size),
            Probe::File { size } => (Kind::File, size),
            Probe::Missing => {
                eprintln!("{}: No such file or directory", path.display());
                code = 2;
                continue;
            }
            _ => {
                eprintln!(
                    "iomark hdparm: {}: not a block device or regular file",
                    path.display()
                );
                code = 2;
                continue;
            }
        };
        let p = match hdparm::plan(&a, path, kind, size) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("iomark hdparm: {e}");
                code = 1;
                continue;
            }
        };
        let r = match run_phases(&p, &session) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("{e}");
                code = 1;
                continue;
            }
        };
        let failed = failure(&r);
        let read_any = r.jobs.iter().any(|j| j.dirs.read.total_ios > 0);
        if let (Some(msg), false) = (&failed, read_any) {
            // Nothing was read (the target could not be opened, say): no timing lines with
            // zeros in them, only the reason, as hdparm prints it (`PATH: words`).
            match open_failure(&r) {
                Some((p, words)) => eprintln!("{}: {words}", p.display()),
                None => eprintln!("iomark hdparm: {msg}"),
            }
            code = 1;
            continue;
        }
        // hdparm's lines on stdout, iomark's after them on stderr.
        print!("{}", hdparm::output::render(path, &p, &r));
        hdparm::table::add_rows(&mut table, path, &p, &r);
        let _ = std::io::stdout().flush();
        eprint!("{}", hdparm::output::notes(path, &p, &r));
        if let Some(msg) = failed {
            eprintln!("iomark hdparm: {msg}");
            code = 1;
        }
        let interrupted = r.interrupted;
        match &mut all {
            None => all = Some(r),
            Some(x) => x.jobs.extend(r.jobs),
        }
        if interrupted {
            code = exit::INTERRUPTED;
            break;
        }
    }
    if let Some(r) = &mut all {
        r.tables.push(table);
        if !session.keep(r) {
            code = code.max(exit::FAILED);
        }
    }
    code
}

/// The plan's runs in order, each after its pause (a sync first, as hdparm does), as one
/// result. Ctrl-C during a pause ends it and skips what follows.
fn run_phases(p: &hdparm::HdparmPlan, session: &Session) -> anyhow::Result<RunResult> {
    let mut all: Option<RunResult> = None;
    for (pause, plan) in p.phases() {
        if !pause.is_zero() {
            // SAFETY: sync(2) takes no arguments and cannot fail.
            unsafe { libc::sync() };
            let until = std::time::Instant::now() + pause;
            while std::time::Instant::now() < until && !crate::session::signals::interrupted() {
                std::thread::sleep(std::time::Duration::from_millis(100));
            }
        }
        if crate::session::signals::interrupted() {
            break;
        }
        let r = run_plan(session, &plan, None)?;
        match &mut all {
            None => all = Some(r),
            Some(x) => {
                x.interrupted |= r.interrupted;
                x.jobs.extend(r.jobs);
            }
        }
    }
    if let Some(r) = &mut all {
        r.interrupted |= crate::session::signals::interrupted();
    }
    all.ok_or_else(|| anyhow::anyhow!("iomark hdparm: interrupted before the first timing"))
}
