//! The run controller every command runs its I/O through: made once per command with the
//! command line recorded, the signal handlers watching it (the first Ctrl-C stops new I/O and
//! marks the result interrupted, the second ends the process), and the one progress source
//! that its observers and the step line follow.

use super::signals;
use crate::progress::source::{Observer, Progress};
use crate::progress::steps;
use iomark_engine::runner::{Event, RunCtl};
use std::sync::Arc;

/// What a command's runs share.
pub struct Session {
    pub(super) tool: String,
    pub ctl: Arc<RunCtl>,
    /// iomark's result file, checked before the runs, written after them
    /// ([`Session::keep`]).
    pub(super) result_file: super::results::ResultFile,
}

impl Session {
    /// A session for `tool` (`"preset"`, `"bonnie"`); the engine's events go to `on_event`.
    pub fn start(tool: &str, on_event: impl Fn(&Event) + Send + Sync + 'static) -> Self {
        let ctl = Arc::new(super::run_ctl(on_event));
        signals::install(ctl.stop.clone());
        Session {
            tool: tool.to_string(),
            ctl,
            result_file: Default::default(),
        }
    }

    /// A session over a controller the command made itself (`run` words its events by its
    /// output options, and its stop flag watches the parsing of a job file too).
    pub fn adopt(tool: &str, ctl: RunCtl) -> Self {
        let ctl = Arc::new(ctl);
        signals::install(ctl.stop.clone());
        Session {
            tool: tool.to_string(),
            ctl,
            result_file: Default::default(),
        }
    }

    /// A session whose engine events are said on stderr, one a line.
    pub fn said(tool: &str) -> Self {
        Session::start(tool, |m| eprintln!("{m}"))
    }

    /// A session whose engine events are dropped (the tool words its own output).
    pub fn quiet(tool: &str) -> Self {
        Session::start(tool, |_| {})
    }

    /// Follow the run with `observers` and, when the command draws no line of its own and the
    /// step line is wanted, the step line. Call it before the run starts; stop it when the run
    /// is over.
    pub fn watch(&self, mut observers: Vec<Box<dyn Observer>>, own_line: bool) -> Progress {
        // The workers of an earlier run of this session are done: the new run's are counted.
        if let Ok(mut w) = self.ctl.workers.lock() {
            w.clear();
        }
        if !own_line && steps::shown() {
            observers.push(Box::new(steps::StepLine::new(&self.tool)));
        }
        Progress::start(self.ctl.clone(), observers)
    }

    /// The tool the session's messages are worded for (`"dd"`, `"bonnie"`).
    pub fn tool(&self) -> &str {
        &self.tool
    }

    /// Whether a stopping signal arrived.
    pub fn interrupted(&self) -> bool {
        signals::interrupted()
    }

    /// Mark `r` interrupted when a stopping signal came during its run (the engine drains
    /// and reports; the result says it was cut short).
    pub fn mark(&self, r: &mut iomark_engine::RunResult) {
        r.interrupted |= self.interrupted();
    }

    /// The exit status after the run (see [`super::exit`]).
    pub fn exit(&self, failed: bool) -> i32 {
        super::exit::of_run(failed)
    }
}

impl Session {
    /// Takes `path` as the result file of this session's runs ([`super::ResultFile::take`]): the
    /// refusal is said and its exit status (2) returned.
    pub fn result_file(
        &mut self,
        path: Option<&std::path::Path>,
        targets: &[std::path::PathBuf],
    ) -> Result<(), i32> {
        self.result_file = super::results::ResultFile::take(&self.tool, path, targets)?;
        Ok(())
    }

    /// After the run: `r` written to the result file and recorded ([`super::ResultFile::keep`]).
    pub fn keep(&self, r: &iomark_engine::RunResult) -> bool {
        self.result_file.keep(r)
    }

    /// After runs kept in one document ([`super::ResultFile::keep_document`]).
    pub fn keep_document(
        &self,
        doc: &[u8],
        runs: &[iomark_engine::RunResult],
        src: &iomark_report::Source,
    ) -> bool {
        self.result_file.keep_document(doc, runs, src)
    }

    /// Records `r` in the result store, for a command that writes its outputs in shapes of
    /// its own (`run`'s formats): a store that cannot take it only warns.
    pub fn record(&self, r: &iomark_engine::RunResult) {
        super::record::record(r);
    }
}
