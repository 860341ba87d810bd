//! `iomark dd OPERAND...`: GNU dd's command line on iomark's engine, GNU dd's lines on stderr.

use super::{failure, io_failure, open_failure, run_plan};
use crate::progress::source::{Observer, Sample};
use crate::session::{exit, Session};
use iomark_suites::dd::{self, args::Status, human, Probe};
use std::io::Write;
use std::sync::atomic::Ordering;
use std::time::Duration;

pub fn main(args: &[String]) -> i32 {
    let a = match dd::parse(args) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("iomark dd: {e}\nTry 'iomark dd --help' for more information.");
            return 2;
        }
    };
    if a.help {
        // A reader that stops early (`| head -1`) ends it quietly, status 0.
        return crate::session::pipe::print_text(dd::USAGE);
    }
    let p = match dd::plan(&a, &Probe::of) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("iomark dd: {e}");
            return 1;
        }
    };
    let targets = iomark_output::outfile::plan_targets(&p.run);
    let mut session = Session::quiet("dd");
    if let Err(code) = session.result_file(a.result_file.as_deref(), &targets) {
        return code;
    }
    for n in &p.notes {
        eprintln!("iomark dd: {n}");
    }
    let show_progress = a.status == Status::Progress;
    let progress =
        show_progress.then(|| Box::new(Progress { dir: p.dir.idx() }) as Box<dyn Observer>);
    let mut r = match run_plan(&session, &p.run, progress) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{e}");
            return 1;
        }
    };
    if show_progress {
        eprintln!();
    }
    let mut code = 0;
    if let Some(msg) = failure(&r) {
        if let (Some((path, words)), false) = (open_failure(&r), r.jobs.iter().any(ran_io)) {
            // As GNU dd: a target that cannot be opened ends it before any records line.
            eprintln!("iomark dd: failed to open '{}': {words}", path.display());
            return 1;
        }
        match io_failure(&r) {
            // As GNU dd: "error writing 'PATH': No space left on device", then the records.
            Some((dir, path, words)) => eprintln!(
                "iomark dd: error {} '{}': {words}",
                if dir == iomark_engine::Dir::Read {
                    "reading"
                } else {
                    "writing"
                },
                path.display()
            ),
            None => eprintln!("iomark dd: {msg}"),
        }
        code = 1;
    }
    if let Some(m) = &p.short_write {
        // As GNU dd: the error, then the records of what was written; status 1.
        eprintln!("iomark dd: {m}");
        code = 1;
    }
    eprint!("{}", dd::output::render(&p, &r, a.status));
    r.tables.push(dd::table::table(&p, &r));
    if !session.keep(&r) {
        code = exit::FAILED;
    }
    if r.interrupted {
        return exit::INTERRUPTED;
    }
    code
}

/// Whether a job moved any data.
fn ran_io(j: &iomark_engine::result::JobResult) -> bool {
    j.dirs.read.total_ios + j.dirs.write.total_ios > 0
}

/// `status=progress`: the bytes copied so far and the rate, redrawn once a second on stderr.
struct Progress {
    /// The direction that moves the data (read or write).
    dir: usize,
}

impl Observer for Progress {
    fn every(&self) -> Duration {
        Duration::from_secs(1)
    }

    fn sample(&mut self, s: &Sample) {
        let bytes: u64 = s
            .workers
            .iter()
            .map(|w| w.bytes[self.dir].load(Ordering::Relaxed))
            .sum();
        let ms: u64 = s
            .workers
            .iter()
            .map(|w| w.elapsed_ms.load(Ordering::Relaxed))
            .sum();
        eprint!("\r{}", human::summary(bytes, ms as f64 / 1000.0));
        let _ = std::io::stderr().flush();
    }
}
