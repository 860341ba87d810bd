//! I/O traces: a job can record the I/O it issues into a text file, and can replay a list of
//! recorded I/Os in order instead of generating its own.
//!
//! A recorded trace is one line per event after a header line the front end chooses:
//! `<µs since the job started> <path> <action>` for the file events (`add`, `open`, `close`)
//! and `<µs> <path> <action> <offset> <length>` for the I/O (`read`, `write`, `trim`, `sync`,
//! `datasync`). Reading a trace back (its versions, redirection, scaling) is the front end's
//! business; the job model carries the result as a [`Replay`].

use serde::{Deserialize, Serialize};
use std::path::PathBuf;

use super::Dir;

/// What one replayed entry does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TraceAct {
    Read,
    Write,
    Trim,
    Sync,
    Datasync,
    /// Issue nothing before `delay_us` after the job started (an absolute pause).
    Wait,
}

impl TraceAct {
    /// The word a recorded trace uses for the action.
    pub fn word(self) -> &'static str {
        match self {
            TraceAct::Read => "read",
            TraceAct::Write => "write",
            TraceAct::Trim => "trim",
            TraceAct::Sync => "sync",
            TraceAct::Datasync => "datasync",
            TraceAct::Wait => "wait",
        }
    }

    /// The action of an I/O in a data direction.
    pub fn of_dir(d: Dir) -> TraceAct {
        match d {
            Dir::Read => TraceAct::Read,
            Dir::Write => TraceAct::Write,
            Dir::Trim => TraceAct::Trim,
        }
    }

    /// The data direction of a read, write or trim.
    pub fn dir(self) -> Option<Dir> {
        match self {
            TraceAct::Read => Some(Dir::Read),
            TraceAct::Write => Some(Dir::Write),
            TraceAct::Trim => Some(Dir::Trim),
            _ => None,
        }
    }
}

/// One replayed entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TraceEntry {
    /// Wait this long after the previous entry was issued (µs; 0 = at once). For
    /// [`TraceAct::Wait`]: the time since the job started before which nothing is issued.
    pub delay_us: u64,
    /// Index into the job's files (`JobSpec::filenames`).
    pub file: u32,
    pub act: TraceAct,
    pub offset: u64,
    pub len: u64,
}

/// The I/O a job replays, in order, instead of generating its own; the job ends after the
/// last entry (or at its runtime).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Replay {
    pub entries: Vec<TraceEntry>,
    /// Honour the delays (false: issue as fast as the queue allows, in order).
    pub stall: bool,
}

impl Replay {
    /// The largest length of an entry in direction `d` (0 when there is none).
    pub fn max_len(&self, d: Dir) -> u64 {
        self.entries
            .iter()
            .filter(|e| e.act.dir() == Some(d))
            .map(|e| e.len)
            .max()
            .unwrap_or(0)
    }

    /// Whether some entry is in direction `d`.
    pub fn has(&self, d: Dir) -> bool {
        self.entries.iter().any(|e| e.act.dir() == Some(d))
    }

    /// The end of the furthest I/O (offset + length) over all files.
    pub fn extent(&self) -> u64 {
        self.entries
            .iter()
            .filter(|e| e.act.dir().is_some())
            .map(|e| e.offset + e.len)
            .max()
            .unwrap_or(0)
    }
}

/// Record the job's I/O into `path` (appended to, as several jobs may share it), after a first
/// line `header`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TraceRecord {
    pub path: PathBuf,
    pub header: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(act: TraceAct, offset: u64, len: u64) -> TraceEntry {
        TraceEntry {
            delay_us: 0,
            file: 0,
            act,
            offset,
            len,
        }
    }

    #[test]
    fn sizes_and_directions() {
        let r = Replay {
            entries: vec![
                e(TraceAct::Write, 0, 4096),
                e(TraceAct::Sync, 0, 0),
                e(TraceAct::Read, 1 << 20, 65536),
                e(TraceAct::Wait, 5_000_000, 0),
            ],
            stall: true,
        };
        assert_eq!(r.max_len(Dir::Read), 65536);
        assert_eq!(r.max_len(Dir::Write), 4096);
        assert_eq!(r.max_len(Dir::Trim), 0);
        assert!(r.has(Dir::Read) && r.has(Dir::Write) && !r.has(Dir::Trim));
        assert_eq!(r.extent(), (1 << 20) + 65536);
        assert_eq!(TraceAct::Datasync.word(), "datasync");
    }
}
