//! What every command runs in: the signal handlers and the stop flag, output into pipes that may
//! close early, the gate every output file passes (checked before the run, written whole), and
//! the result store every run is recorded in (the session's result file and record:
//! `results.rs`).

pub mod ctl;
pub mod exit;
pub mod outputs;
pub mod pipe;
pub mod record;
mod results;
pub mod signals;

pub use ctl::Session;
pub use results::ResultFile;

static COMMAND_LINE: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();

/// Keep the command line this process was started with (once, at start): results record it.
pub fn set_command_line(args: Vec<String>) {
    let _ = COMMAND_LINE.set(args);
}

/// The command line given to [`set_command_line`] (empty when none was).
pub fn command_line() -> Vec<String> {
    COMMAND_LINE.get().cloned().unwrap_or_default()
}

/// A run controller for this process's run: events go to `on_event`, and the result records the
/// command line.
pub fn run_ctl(
    on_event: impl Fn(&iomark_engine::runner::Event) + Send + Sync + 'static,
) -> iomark_engine::runner::RunCtl {
    iomark_engine::runner::RunCtl::new(on_event).with_command_line(command_line())
}

/// A private temporary directory (mode 0700, a fresh name) for a command's intermediate files,
/// removed with them when dropped: no name in the shared temporary directory that others could
/// plant. The error is worded for `tool`.
pub fn private_temp_dir(tool: &str, prefix: &str) -> Result<tempfile::TempDir, String> {
    tempfile::Builder::new()
        .prefix(prefix)
        .tempdir()
        .map_err(|e| format!("{tool}: cannot make a temporary directory: {e}"))
}
