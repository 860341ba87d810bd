//! `iomark blogbench`: blogbench's command line on iomark's engine; its table and scores on
//! stdout, as blogbench prints them; the mode that ran and iomark's latency per operation type
//! on stderr.

use crate::session::{exit, signals, Session};
use iomark_engine::fileops::blogtree::Counts;
use iomark_engine::fileops::steps::{TreeDone, TreeRun};
use iomark_engine::runner::steps::{self, StepRun};
use iomark_engine::runner::RunError;
use iomark_suites::blogbench::{self, output, DirState};
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

fn dir_state(d: &Path) -> DirState {
    match std::fs::read_dir(d) {
        Ok(rd) => {
            if let Err(e) = iomark_engine::targets::dir_writable(d) {
                return DirState::NotWritable(e.raw_os_error().unwrap_or(libc::EACCES));
            }
            match rd.count() as u64 {
                0 => DirState::Empty,
                n => DirState::NonEmpty(n),
            }
        }
        Err(_) if d.exists() => DirState::NotADirectory,
        Err(_) => DirState::Missing,
    }
}

pub fn main(args: &[String]) -> i32 {
    let a = match blogbench::parse(args) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("iomark blogbench: {e}\n\n{}", blogbench::USAGE);
            return 2;
        }
    };
    if a.help {
        return crate::session::pipe::print_text(blogbench::USAGE);
    }
    let dir = a.dir.clone().unwrap_or_default();
    let p = match blogbench::plan(&a, dir_state(&dir), std::process::id()) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("iomark blogbench: {e}");
            return 2;
        }
    };
    if let Some(w) = p.work_dir.as_ref().filter(|w| **w != p.dir) {
        eprintln!(
            "iomark blogbench: note: -d {} holds files: the blogs go in a new directory {}",
            p.dir.display(),
            w.display()
        );
    }
    let mut session = Session::quiet("blogbench");
    if let Err(code) = session.result_file(a.result_file.as_deref(), &[]) {
        return code;
    }
    let out = Arc::new(Mutex::new(std::io::stdout()));
    write_out(&out, &output::header(&p, &a));
    let written = Arc::new(AtomicU64::new(0));
    let level = Arc::new(crate::progress::steps::enter(
        "interval",
        p.iterations as usize,
    ));
    level.at(1, "");
    let done_intervals = Arc::new(AtomicU64::new(0));
    let mut tree = TreeRun {
        spec: p.tree.clone(),
        intervals: p.iterations,
        every: p.sleep,
        prefix: "blogbench".into(),
        on_interval: {
            let (out, written) = (out.clone(), written.clone());
            let (level, done) = (level.clone(), done_intervals.clone());
            Box::new(move |c: &Counts| {
                let n = done.fetch_add(1, Ordering::Relaxed) as usize + 1;
                level.at(n + 1, "");
                let w = written.fetch_add(c.blogs_written, Ordering::Relaxed) + c.blogs_written;
                write_out(&out, &output::line(w, c));
            })
        },
        done: None,
    };
    let setup = StepRun {
        work_dir: p.work_dir.clone(),
        keep: true,
        ..Default::default()
    };
    let watch = session.watch(Vec::new(), false);
    let ran = steps::run_steps(&setup, &mut [&mut tree], &session.ctl);
    watch.stop();
    drop(level);
    let ran = match ran {
        Ok(o) => o,
        Err(RunError::WorkDir { path, source }) => {
            eprintln!(
                "iomark blogbench: -d {}: cannot create the directory {}: {source}",
                p.dir.display(),
                path.display()
            );
            return 1;
        }
        Err(e) => {
            eprintln!("iomark blogbench: -d {}: {e}", p.dir.display());
            return 1;
        }
    };
    finish(
        &p,
        tree.done.unwrap_or_default(),
        ran.result,
        &out,
        &session,
    )
}

/// The end of a run: the scores on stdout; the mode, the latencies and what went wrong on
/// stderr, then the result (with blogbench's tables) kept; the exit status.
fn finish(
    p: &blogbench::BlogPlan,
    d: TreeDone,
    mut r: iomark_engine::RunResult,
    out: &Mutex<std::io::Stdout>,
    session: &Session,
) -> i32 {
    let written: u64 = d.intervals.iter().map(|(_, c)| c.blogs_written).sum();
    let read: u64 = d.intervals.iter().map(|(_, c)| c.blogs_read).sum();
    write_out(out, &output::scores(written, read));
    crate::progress::steps::before_output();
    eprint!(
        "{}\n{}",
        p.mode.describe(),
        output::latencies(&d.phase.stats)
    );
    let (races, first) = &d.races;
    if *races > 0 {
        eprintln!(
            "iomark blogbench: {races} rounds failed and backed off a second, as blogbench's do (files that raced between threads{}){}",
            if p.tree.upstream { "; in upstream mode any error, as blogbench 1.2 goes on after it" } else { "" },
            first.as_ref().map(|f| format!("; the first: {f}")).unwrap_or_default()
        );
    }
    if let Some(e) = &d.phase.error {
        eprintln!("iomark blogbench: the run ended on an error: {e}");
    }
    let mut code = session.exit(d.phase.error.is_some());
    r.interrupted |= signals::interrupted();
    crate::session::record::place_targets(&mut r, std::slice::from_ref(&p.dir));
    r.tables = vec![
        blogbench::table::intervals(&d.intervals),
        blogbench::table::scores(written, read, p.mode.name()),
    ];
    if !session.keep(&r) {
        code = code.max(exit::FAILED);
    }
    code
}

/// Write `s` to the shared stdout now (a closed pipe is ignored: the run goes on).
fn write_out(out: &Mutex<std::io::Stdout>, s: &str) {
    let mut o = out.lock().unwrap_or_else(|p| p.into_inner());
    crate::progress::steps::before_output();
    let _ = o.write_all(s.as_bytes());
    let _ = o.flush();
}
