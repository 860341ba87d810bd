//! The session's end of a run: iomark's result file, refused before any I/O when it would
//! destroy something (exit status 2, the one wording of every command), written whole after
//! the run, and then the run recorded in the result store, once. A command names its result
//! file to the session and hands it the result (or the document of its runs); it does neither
//! itself.

use super::exit;
use iomark_engine::RunResult;
use iomark_output::outfile::OutputError;
use iomark_report::Source;
use std::path::{Path, PathBuf};

/// A command's result file (when it names one) and the store record of its runs, worded for
/// the command. A [`Session`] holds one; the end of a launch of many ranks, which merges what
/// the ranks ran, takes its own.
#[derive(Clone, Debug, Default)]
pub struct ResultFile {
    tool: String,
    path: Option<PathBuf>,
}

impl ResultFile {
    /// Takes `path` as the result file of `tool`'s runs, refused before any I/O when it is a
    /// device, a directory, one of `targets`, a new name under /dev or a file the command
    /// reads: the refusal is said on stderr and the exit status returned is
    /// [`exit::BAD_INPUT`].
    pub fn take(tool: &str, path: Option<&Path>, targets: &[PathBuf]) -> Result<Self, i32> {
        Self::check(tool, path, targets).map_err(|e| {
            ResultFile::named(tool, None).say(&e);
            exit::BAD_INPUT
        })
    }

    /// [`ResultFile::take`] with the refusal returned unsaid, for a launch of many ranks
    /// whose rank 0 says the refusals of all.
    pub fn check(
        tool: &str,
        path: Option<&Path>,
        targets: &[PathBuf],
    ) -> Result<Self, OutputError> {
        if let Some(p) = path {
            iomark_output::outfile::check_output(p, targets)?;
        }
        Ok(ResultFile::named(tool, path))
    }

    fn named(tool: &str, path: Option<&Path>) -> Self {
        ResultFile {
            tool: tool.to_string(),
            path: path.map(Path::to_path_buf),
        }
    }

    /// After the run: `r` written to the result file when one was taken (refused over the
    /// run's targets, written whole through a temporary name), then recorded in the result
    /// store (a store that cannot take it only warns). False, said on stderr, when the file
    /// could not be written.
    pub fn keep(&self, r: &RunResult) -> bool {
        let kept = match (&self.path, serde_json::to_vec_pretty(r)) {
            (None, _) => true,
            (Some(_), Ok(bytes)) => self.write(&bytes, std::slice::from_ref(r)),
            (Some(_), Err(e)) => self.fails(&format!("encoding: {e}")),
        };
        super::record::record(r);
        kept
    }

    /// After runs kept together in one document (a preset's runs and summary, the
    /// repetitions of `--repeat`, iozone's matrix beside its run): `doc` written to the
    /// result file (refused over any of `runs`' targets), then recorded once, with the first
    /// run's facts and `src`'s figures. False, said on stderr, when the file could not be
    /// written.
    pub fn keep_document(&self, doc: &[u8], runs: &[RunResult], src: &Source) -> bool {
        let kept = self.write(doc, runs);
        if let Some(first) = runs.first() {
            super::record::record_document(doc, first, src);
        }
        kept
    }

    /// `bytes` to the result file, when one was taken; false once the failure is said.
    fn write(&self, bytes: &[u8], runs: &[RunResult]) -> bool {
        let Some(path) = &self.path else { return true };
        match super::outputs::write_after(path, bytes, runs.iter().map(|r| &r.plan)) {
            Ok(()) => true,
            Err(e) => self.fails(&e),
        }
    }

    /// Says `e` for the tool; false.
    fn fails(&self, e: &dyn std::fmt::Display) -> bool {
        self.say(e);
        false
    }

    fn say(&self, e: &dyn std::fmt::Display) {
        if self.tool.is_empty() {
            eprintln!("iomark: {e}");
        } else {
            eprintln!("iomark {}: {e}", self.tool);
        }
    }
}
