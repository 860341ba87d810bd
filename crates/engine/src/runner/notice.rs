//! What the runner tells the user along the way: the page-cache notes of a plan, and progress
//! events as typed values. The engine words events in its own neutral terms (`Display`); front
//! ends word them for their users.

use crate::job::{JobSpec, SyncMode};
use crate::note::Note;
use std::path::PathBuf;

/// The page-cache notes of a buffered job touching `working_set` bytes of files on a machine
/// with `available` bytes of memory for the cache.
pub(crate) fn cache_notes(job: &JobSpec, working_set: u64, available: u64) -> Vec<Note> {
    let mut notes = Vec::new();
    if job.direct || working_set == 0 || available == 0 || working_set > available {
        return notes;
    }
    if job.rw.has_read() {
        notes.push(Note::CachedWorkingSet {
            job: job.name.clone(),
            working_set,
            available,
            invalidate: job.invalidate,
        });
    }
    // Writes reach the device before they complete with O_SYNC/O_DSYNC, and are counted with
    // their flushes when fsync/fdatasync run during the job.
    let synced = job.sync != SyncMode::None || job.fsync > 0 || job.fdatasync > 0;
    if job.rw.has_write() && !synced {
        notes.push(Note::BufferedWrites {
            job: job.name.clone(),
            working_set,
            available,
        });
    }
    notes
}

/// A step of a run a front end may show as it happens.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// A job's files are being created or extended before the run: one event per job, before
    /// its first file (`path`), with the number of files and their total size.
    LayingOut {
        job: String,
        path: PathBuf,
        files: u64,
        bytes: u64,
    },
}

impl std::fmt::Display for Event {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Event::LayingOut {
                job,
                path,
                files: 1,
                bytes,
            } => write!(f, "{job}: laying out {} ({bytes} bytes)", path.display()),
            Event::LayingOut {
                job,
                path,
                files,
                bytes,
            } => write!(
                f,
                "{job}: laying out {files} files from {} ({bytes} bytes in total)",
                path.display()
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::job::RwMode;

    const MIB: u64 = 1 << 20;

    fn job(rw: RwMode) -> JobSpec {
        JobSpec {
            name: "j".into(),
            rw,
            ..JobSpec::default()
        }
    }

    fn kinds(n: &[Note]) -> Vec<&'static str> {
        n.iter()
            .map(|n| match n {
                Note::CachedWorkingSet { .. } => "reads",
                Note::BufferedWrites { .. } => "writes",
                _ => "other",
            })
            .collect()
    }

    #[test]
    fn buffered_reads_and_writes_that_fit_get_notes() {
        let n = |rw| kinds(&cache_notes(&job(rw), 64 * MIB, 1024 * MIB));
        assert_eq!(n(RwMode::RandRead), ["reads"]);
        assert_eq!(n(RwMode::Write), ["writes"]);
        assert_eq!(n(RwMode::RandRw), ["reads", "writes"]);
        let w = cache_notes(&job(RwMode::Write), 64 * MIB, 1024 * MIB)[0].to_string();
        assert!(w.contains("complete once copied into memory"), "{w}");
    }

    #[test]
    fn no_note_when_direct_synced_or_too_big() {
        let mut d = job(RwMode::RandRw);
        d.direct = true;
        assert!(cache_notes(&d, 64 * MIB, 1024 * MIB).is_empty());
        assert!(cache_notes(&job(RwMode::Read), 2048 * MIB, 1024 * MIB).is_empty());
        let mut s = job(RwMode::Write);
        s.fsync = 1;
        assert!(cache_notes(&s, 64 * MIB, 1024 * MIB).is_empty());
        let mut o = job(RwMode::Write);
        o.sync = SyncMode::Sync;
        assert!(cache_notes(&o, 64 * MIB, 1024 * MIB).is_empty());
    }
}
