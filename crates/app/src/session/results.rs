//! The session's end of a run: iomark's result file, refused before any I/O when it would
//! destroy something, written whole after the run, and then the run recorded in the result
//! store. A command names its result file to the session and hands it the result; it does
//! neither itself.

use super::Session;
use anyhow::{anyhow, Result};
use iomark_engine::RunResult;
use std::path::{Path, PathBuf};

impl Session {
    /// Takes `path` as the result file of this session's runs, refused (worded for the tool)
    /// before any I/O when it is a device, a directory, one of `targets`, a new name under
    /// /dev or a file the command reads.
    pub fn result_file(&mut self, path: Option<&Path>, targets: &[PathBuf]) -> Result<()> {
        if let Some(p) = path {
            iomark_output::outfile::check_output(p, targets)
                .map_err(|e| anyhow!("iomark {}: {e}", self.tool))?;
        }
        self.result_file = path.map(Path::to_path_buf);
        Ok(())
    }

    /// After the runs: `r` written to the result file when one was taken (refused over the
    /// run's targets, written whole through a temporary name), then recorded in the result
    /// store (a store that cannot take it only warns). False, said on stderr, when the file
    /// could not be written.
    pub fn keep(&self, r: &RunResult) -> bool {
        let mut kept = true;
        if let Some(path) = &self.result_file {
            let written = serde_json::to_vec_pretty(r)
                .map_err(|e| anyhow!("encoding: {e}"))
                .and_then(|bytes| super::outputs::write_after(path, &bytes, [&r.plan]));
            if let Err(e) = written {
                eprintln!("iomark {}: {e}", self.tool);
                kept = false;
            }
        }
        self.record(r);
        kept
    }

    /// Records `r` in the result store, for a command that writes its outputs in shapes of
    /// its own (`run`'s formats): a store that cannot take it only warns.
    pub fn record(&self, r: &RunResult) {
        super::record::record(r);
    }
}
