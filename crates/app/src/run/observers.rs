//! The threads that watch a run of `iomark run`: fio's status line on a terminal, the interim
//! reports (SIGUSR1 at any time, `--status-interval`) and the aggregate bandwidth log
//! (`--bandwidth-log`); the status line and the log observe the run's one progress source. They start before the run and are stopped, in order, after it.

use crate::progress::agg_bw::{AggBwLog, Samples};
use crate::progress::periodic::{self, Sink};
use crate::progress::source::{Observer, Progress};
use crate::progress::status::{self, StatusLine};
use crate::session::{signals, Session};
use iomark_fio::cmdline::{CliRun, Eta};
use iomark_fio::output::agg_bw::AggBw;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;

pub struct Observers {
    done: Arc<AtomicBool>,
    progress: Progress,
    reporter: JoinHandle<()>,
    agg_bw: Option<Samples>,
}

impl Observers {
    /// Starts the observers `cli` asks for; interim reports go to `sink` when they are a
    /// stream (`--status-interval`), else to stdout.
    pub fn start(cli: &CliRun, session: &Session, sink: &Sink) -> Observers {
        let ctl = &session.ctl;
        let out = &cli.output;
        let done = Arc::new(AtomicBool::new(false));
        let show_status = match out.eta {
            Eta::Always => true,
            Eta::Never => false,
            Eta::Auto => status::stderr_is_tty(),
        };
        let mut observers: Vec<Box<dyn Observer>> = Vec::new();
        if show_status {
            observers.push(Box::<StatusLine>::default());
        }
        let agg_bw = out.bandwidth_log.then(|| {
            let (log, samples) = AggBwLog::new(&cli.plan);
            observers.push(Box::new(log));
            samples
        });
        // fio's status line (`--eta`) is this command's line: no step line besides it.
        let progress = session.watch(observers, true);
        let ndjson = out.status_interval.is_some();
        // Always running: SIGUSR1 asks for an interim report at any time, as with fio.
        let reporter = periodic::spawn(
            periodic::Reporter {
                plan: cli.plan.clone(),
                formats: out.formats.clone(),
                terse_version: out.terse_version,
                every: out.status_interval,
                ndjson,
                // Without a stream of reports, an interim one goes to stdout (the file named
                // by --output is written once, at the end).
                sink: if ndjson { sink.clone() } else { Sink::Stdout },
                wait: signals::wait_report_request,
            },
            ctl.clone(),
            done.clone(),
        );
        Observers {
            done,
            progress,
            reporter,
            agg_bw,
        }
    }

    /// Ends every observer (the run is over); the aggregate bandwidth samples, when asked for.
    pub fn stop(self) -> Option<AggBw> {
        self.done.store(true, Ordering::Relaxed);
        self.progress.stop();
        signals::wake_reporter();
        let _ = self.reporter.join();
        self.agg_bw
            .and_then(|s| s.lock().ok().map(|mut a| std::mem::take(&mut *a)))
    }
}
