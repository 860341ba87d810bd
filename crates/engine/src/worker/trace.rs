//! The worker's side of I/O traces: recording every issued I/O into the trace file, and taking
//! the next I/O from a replayed trace (in order, honouring its delays unless told not to).

use super::pick::{Next, Pause};
use super::Worker;
use crate::job::{Dir, TraceAct, TraceEntry, TraceRecord};
use std::fs::File;
use std::io::{self, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::PathBuf;

/// Bytes collected before one write to the trace file. Writes end at a line's end, so the lines
/// of several jobs appending to one file never mix within a line.
const FLUSH_AT: usize = 8192;

/// An open trace file being recorded.
pub(super) struct Recorder {
    file: File,
    path: PathBuf,
    buf: Vec<u8>,
    start_ns: u64,
    names: Vec<String>,
    /// Which files have an `open` without a `close` yet.
    open: Vec<bool>,
    /// The first write error (later lines are dropped).
    error: Option<io::Error>,
}

impl Recorder {
    /// Open (append to) the trace file and write its header and the file events (`add`, then
    /// `open` for each file; with `lazy_open`, files opened during the run under `openfiles`,
    /// their `open` and `close` when they happen).
    pub(super) fn open(
        rec: &TraceRecord,
        files: &[PathBuf],
        start_ns: u64,
        now: u64,
        lazy_open: bool,
    ) -> io::Result<Recorder> {
        let file = std::fs::OpenOptions::new()
            .append(true)
            .create(true)
            .mode(0o644)
            .open(&rec.path)?;
        let mut r = Recorder {
            file,
            path: rec.path.clone(),
            buf: Vec::with_capacity(FLUSH_AT * 2),
            start_ns,
            names: files.iter().map(|p| p.display().to_string()).collect(),
            open: vec![false; files.len()],
            error: None,
        };
        r.buf.extend_from_slice(rec.header.as_bytes());
        r.buf.push(b'\n');
        let words: &[&str] = if lazy_open {
            &["add"]
        } else {
            &["add", "open"]
        };
        for word in words {
            for i in 0..r.names.len() {
                r.file_event(start_ns.max(now), i as u32, word);
            }
        }
        r.flush();
        Ok(r)
    }

    fn us(&self, now: u64) -> u64 {
        now.saturating_sub(self.start_ns) / 1000
    }

    /// A file event (`add`, `open`, `close`).
    pub(super) fn file_event(&mut self, now: u64, file: u32, word: &str) {
        match word {
            "open" => self.open[file as usize] = true,
            "close" => self.open[file as usize] = false,
            _ => {}
        }
        let us = self.us(now);
        let name = &self.names[file as usize];
        let _ = writeln!(self.buf, "{us} {name} {word}");
    }

    /// One I/O (or sync: offset and length 0).
    #[inline]
    pub(super) fn io(&mut self, now: u64, file: u32, word: &str, offset: u64, len: u64) {
        let us = self.us(now);
        let name = &self.names[file as usize];
        let _ = writeln!(self.buf, "{us} {name} {word} {offset} {len}");
        if self.buf.len() >= FLUSH_AT {
            self.flush();
        }
    }

    fn flush(&mut self) {
        if self.error.is_none() && !self.buf.is_empty() {
            if let Err(e) = self.file.write_all(&self.buf) {
                self.error = Some(e);
            }
        }
        self.buf.clear();
    }

    /// Write the `close` events of the files still open and what is left; the error is the
    /// first write that failed (its errno).
    pub(super) fn close(&mut self, now: u64) -> Result<(), (PathBuf, i32)> {
        for i in 0..self.names.len() {
            if self.open[i] {
                self.file_event(now, i as u32, "close");
            }
        }
        self.flush();
        match self.error.take() {
            Some(e) => Err((self.path.clone(), e.raw_os_error().unwrap_or(libc::EIO))),
            None => Ok(()),
        }
    }
}

/// Where a replay stands.
pub(super) struct ReplayCursor {
    entries: Vec<TraceEntry>,
    next: usize,
    stall: bool,
    /// When the previous entry was issued (0 = none yet).
    last_issue_ns: u64,
    /// A sync of (file, datasync) taken from the trace, done once the queue is drained.
    pub(super) pending_sync: Option<(u32, bool)>,
}

impl ReplayCursor {
    pub(super) fn new(entries: Vec<TraceEntry>, stall: bool) -> ReplayCursor {
        ReplayCursor {
            entries,
            next: 0,
            stall,
            last_issue_ns: 0,
            pending_sync: None,
        }
    }

    /// Bytes the replay moves.
    pub(super) fn total_bytes(&self) -> u64 {
        self.entries
            .iter()
            .filter(|e| e.act.dir().is_some())
            .map(|e| e.len)
            .sum()
    }
}

impl Worker {
    /// The next I/O of the replayed trace.
    pub(super) fn next_replayed(&mut self, now: u64) -> Next {
        let start = self.job_start_ns;
        let max_len = self.bufs.len() as u64;
        let Some(c) = self.replay.as_deref_mut() else {
            return Next::Done;
        };
        if c.pending_sync.is_some() {
            return Next::Drained(Pause::Sync);
        }
        loop {
            let Some(e) = c.entries.get(c.next).copied() else {
                return Next::Done;
            };
            if c.stall {
                let due = if e.act == TraceAct::Wait {
                    start + e.delay_us * 1000
                } else if c.last_issue_ns == 0 {
                    now
                } else {
                    c.last_issue_ns + e.delay_us * 1000
                };
                if due > now {
                    return Next::Wait(due);
                }
            }
            match e.act {
                TraceAct::Wait => {
                    c.next += 1;
                }
                TraceAct::Sync | TraceAct::Datasync => {
                    c.next += 1;
                    c.last_issue_ns = now;
                    c.pending_sync = Some((e.file, e.act == TraceAct::Datasync));
                    return Next::Drained(Pause::Sync);
                }
                TraceAct::Read | TraceAct::Write | TraceAct::Trim => {
                    let Some(slot) = self.free.pop() else {
                        return Next::Wait(now);
                    };
                    c.next += 1;
                    c.last_issue_ns = now;
                    let dir = e.act.dir().unwrap_or(Dir::Read);
                    let len = e.len.clamp(1, max_len) as usize;
                    return self.load_slot(slot, dir, e.file, e.offset, len, now);
                }
            }
        }
    }
}
