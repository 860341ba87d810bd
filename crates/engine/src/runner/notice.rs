//! What the runner tells the user along the way, as typed values: notes about a run that do not
//! stop it, and progress events. The engine words them in its own neutral terms (`Display`);
//! front ends word them for their users.

use std::path::PathBuf;

/// Something the user should know about a run that does not stop it.
#[derive(Debug, Clone, PartialEq)]
pub enum Note {
    /// Buffered reads over a working set that fits in the page cache: read figures may come
    /// from memory rather than the device.
    CachedWorkingSet {
        job: String,
        working_set: u64,
        available: u64,
        /// Whether cached pages are dropped before the job starts.
        invalidate: bool,
    },
    /// A stop came while files were being laid out: no job ran.
    StoppedDuringLayout,
}

impl std::fmt::Display for Note {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Note::CachedWorkingSet {
                job,
                working_set,
                available,
                invalidate,
            } => write!(
                f,
                "{job}: buffered I/O over a working set of {} MiB that fits in the page cache ({} MiB available): read figures may come from memory rather than the device{}",
                working_set >> 20,
                available >> 20,
                if *invalidate { "" } else { " (cached data is kept)" }
            ),
            Note::StoppedDuringLayout => f.write_str("stopped while laying out files, before any I/O was measured (a file being laid out was removed or put back as it was)"),
        }
    }
}

/// A step of a run a front end may show as it happens.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// A file is being created or extended before the run.
    LayingOut {
        job: String,
        path: PathBuf,
        bytes: u64,
    },
}

impl std::fmt::Display for Event {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Event::LayingOut { job, path, bytes } => {
                write!(f, "{job}: laying out {} ({bytes} bytes)", path.display())
            }
        }
    }
}
