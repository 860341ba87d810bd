//! What every command runs in: the signal handlers and the stop flag, output into pipes that may
//! close early, the gate every output file passes (checked before the run, written whole), and
//! the result store every run is recorded in.

pub mod outputs;
pub mod pipe;
pub mod record;
pub mod signals;

/// A private temporary directory (mode 0700, a fresh name) for a command's intermediate files,
/// removed with them when dropped: no name in the shared temporary directory that others could
/// plant. The error is worded for `tool`.
pub fn private_temp_dir(tool: &str, prefix: &str) -> Result<tempfile::TempDir, String> {
    tempfile::Builder::new()
        .prefix(prefix)
        .tempdir()
        .map_err(|e| format!("{tool}: cannot make a temporary directory: {e}"))
}
