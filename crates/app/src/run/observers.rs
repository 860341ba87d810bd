//! The threads that watch a run of `iomark run`: fio's status line on a terminal, the interim
//! reports (SIGUSR1 at any time, `--status-interval`) and the aggregate bandwidth log
//! (`--bandwidth-log`). They start before the run and are stopped, in order, after it.

use crate::progress::periodic::{self, Sink};
use crate::progress::{agg_bw, status};
use crate::session::signals;
use iomark_engine::runner::RunCtl;
use iomark_fio::cmdline::{CliRun, Eta};
use iomark_fio::output::agg_bw::AggBw;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;

pub struct Observers {
    done: Arc<AtomicBool>,
    status: Option<JoinHandle<()>>,
    reporter: JoinHandle<()>,
    agg_bw: Option<JoinHandle<AggBw>>,
}

impl Observers {
    /// Starts the observers `cli` asks for; interim reports go to `sink` when they are a
    /// stream (`--status-interval`), else to stdout.
    pub fn start(cli: &CliRun, ctl: &Arc<RunCtl>, sink: &Sink) -> Observers {
        let out = &cli.output;
        let done = Arc::new(AtomicBool::new(false));
        let show_status = match out.eta {
            Eta::Always => true,
            Eta::Never => false,
            Eta::Auto => status::stderr_is_tty(),
        };
        let status = show_status.then(|| status::spawn(ctl.clone(), done.clone()));
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
        let agg_bw = out
            .bandwidth_log
            .then(|| agg_bw::spawn(&cli.plan, ctl.clone(), done.clone()));
        Observers {
            done,
            status,
            reporter,
            agg_bw,
        }
    }

    /// Ends every observer (the run is over); the aggregate bandwidth samples, when asked for.
    pub fn stop(self) -> Option<AggBw> {
        self.done.store(true, Ordering::Relaxed);
        let agg_bw = self.agg_bw.and_then(|h| {
            h.thread().unpark();
            h.join().ok()
        });
        signals::wake_reporter();
        if let Some(h) = self.status {
            let _ = h.join();
        }
        let _ = self.reporter.join();
        agg_bw
    }
}
