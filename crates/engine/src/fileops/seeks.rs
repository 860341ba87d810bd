//! Random seeks as bonnie++ counts them: `count` tickets, each a random chunk number, shared by
//! `seekers` threads. A ticket is one seek: `lseek` to the chunk and `read` it whole; a ticket
//! divisible by ten also changes a byte of the chunk, seeks back and `write`s it (then fsyncs
//! with `sync`). Every seeker opens the file itself, and fsyncs and closes it when the tickets
//! run out; the phase's time runs from the first seeker's start to the last seeker's end, and
//! its rate is tickets per second (the writes are part of their ticket, not counted apart). A
//! seeker's time starts when its first ticket has come, as bonnie++'s does.
//!
//! When the phase removes the file, it does so as bonnie++ 2.00a's seekers do: each one, once
//! it has closed the file and taken its end time, removes it, so the first to end unlinks it
//! and the last one's close, which frees the file's pages and blocks, falls inside that
//! seeker's time (about 0.15 s for a 2 GiB file on a tmpfs). bonnie++'s seek rates include it;
//! so do these, and they agree with bonnie++'s at any file size and seek count.
//!
//! As in bonnie++, the tickets reach the seekers through one pipe: the phase writes them all
//! (4 bytes each, one blocking `write(2)` that the seekers' reads drain) and closes it; every
//! seeker reads one ticket (a 4-byte `read(2)`) before each seek and ends at the end of the
//! pipe. A seeker ended early (a stop, an error) leaves the rest to the others; the last one to
//! end drains what is left, so the writer never waits on a pipe nobody reads.

use super::{path_err, AlignedBuf, Clock, OpStats, Phase};
use crate::rng::Rng;
use crate::sys;
use std::fs::{File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::os::fd::{FromRawFd, OwnedFd};
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Barrier;

/// Operation type of one seek (the read, and the write-back of every tenth).
pub const SEEK: &str = "seek";

/// One ticket in this many (the ticket divisible by it) writes its chunk back.
pub(crate) const UPDATE_EVERY: u32 = 10;

/// How the seeks run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeekOpts {
    pub chunk: usize,
    /// Tickets (seeks) in all.
    pub count: u64,
    pub seekers: u32,
    /// O_DIRECT (the chunk must then be a multiple of the logical block size).
    pub direct: bool,
    /// fsync after every write-back.
    pub sync: bool,
    pub seed: u64,
}

/// The tickets as bonnie++ draws them: non-negative 31-bit random numbers.
pub(crate) fn tickets(count: u64, seed: u64) -> Vec<u32> {
    let mut rng = Rng::new(seed);
    (0..count).map(|_| rng.next_u32() >> 1).collect()
}

/// What one seeker did: its operations, its start and end, its first error.
struct Seeker {
    stats: OpStats,
    start: u64,
    end: u64,
    error: Option<io::Error>,
}

/// Run the seeks on the existing file `path` (its whole chunks are the targets); with `remove`,
/// the seekers remove it as they end (see the module's notes) and it is gone afterwards.
pub fn seeks(path: &Path, o: SeekOpts, remove: bool, stop: &AtomicBool) -> Phase {
    let removed = AtomicBool::new(!remove);
    let ph = seeks_on(path, o, &removed, stop);
    if !removed.swap(true, Ordering::AcqRel) {
        // No seeker got as far (none could open it): the phase still leaves no file.
        let _ = std::fs::remove_file(path);
    }
    ph
}

fn seeks_on(path: &Path, o: SeekOpts, removed: &AtomicBool, stop: &AtomicBool) -> Phase {
    let clock = Clock::start();
    let chunks = match std::fs::metadata(path) {
        Ok(m) => m.len() / o.chunk.max(1) as u64,
        Err(e) => {
            return clock.finish(
                OpStats::default(),
                Err(path_err(e, "cannot open", path)),
                stop,
            )
        }
    };
    if chunks == 0 {
        let e = io::Error::other(format!("{}: shorter than one chunk", path.display()));
        return clock.finish(OpStats::default(), Err(e), stop);
    }
    let (rd, wr) = match ticket_pipe() {
        Ok(p) => p,
        Err(e) => return clock.finish(OpStats::default(), Err(e), stop),
    };
    let bytes: Vec<u8> = tickets(o.count, o.seed)
        .iter()
        .flat_map(|t| t.to_ne_bytes())
        .collect();
    let seekers = o.seekers.max(1) as usize;
    let ready = Barrier::new(seekers);
    let alive = AtomicUsize::new(seekers);
    let pipe = Pipe {
        rd,
        alive: &alive,
        removed,
    };
    let done: Vec<Seeker> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..seekers)
            .map(|_| s.spawn(|| seeker(path, o, chunks, &pipe, &ready, stop)))
            .collect();
        // Every ticket, then the end of the pipe. The seekers (or the last of them, draining)
        // read it all, so the write cannot fail on a pipe without readers.
        let mut wr = wr;
        let _ = wr.write_all(&bytes);
        drop(wr);
        handles
            .into_iter()
            .map(|h| h.join().expect("seeker thread"))
            .collect()
    });
    let mut stats = OpStats::default();
    let mut error = None;
    for d in &done {
        stats.merge(&d.stats);
    }
    for d in done.iter().filter(|d| d.error.is_some()) {
        let e = d.error.as_ref().expect("filtered");
        error.get_or_insert_with(|| io::Error::new(e.kind(), e.to_string()));
    }
    let first = done.iter().map(|d| d.start).min().unwrap_or(0);
    let last = done.iter().map(|d| d.end).max().unwrap_or(0);
    let mut ph = clock.finish(stats, error.map_or(Ok(()), Err), stop);
    ph.elapsed_ns = last.saturating_sub(first);
    ph
}

/// The pipe the tickets come through: (read end, write end).
fn ticket_pipe() -> io::Result<(File, File)> {
    let mut fds = [0; 2];
    // SAFETY: pipe2 fills the two descriptors on success; each is owned once below.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: fresh descriptors from pipe2, owned by nothing else.
    let (rd, wr) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
    Ok((File::from(rd), File::from(wr)))
}

/// The read end of the ticket pipe, shared by the seekers, how many have not ended, and whether
/// the file is removed (or is to be kept: set from the start).
struct Pipe<'a> {
    rd: File,
    alive: &'a AtomicUsize,
    removed: &'a AtomicBool,
}

impl Pipe<'_> {
    /// The next ticket; None at the end of the pipe.
    fn ticket(&self) -> io::Result<Option<u32>> {
        let mut t = [0u8; 4];
        match (&self.rd).read(&mut t)? {
            0 => Ok(None),
            4 => Ok(Some(u32::from_ne_bytes(t))),
            n => Err(io::Error::other(format!("ticket pipe: {n}-byte read"))),
        }
    }

    /// A seeker ends: the last one reads whatever is left, up to the end of the pipe.
    fn leave(&self) {
        if self.alive.fetch_sub(1, Ordering::AcqRel) == 1 {
            let mut sink = vec![0u8; 64 << 10];
            while matches!((&self.rd).read(&mut sink), Ok(n) if n > 0) {}
        }
    }
}

fn seeker(
    path: &Path,
    o: SeekOpts,
    chunks: u64,
    pipe: &Pipe,
    ready: &Barrier,
    stop: &AtomicBool,
) -> Seeker {
    let me = seeker_run(path, o, chunks, pipe, ready, stop);
    pipe.leave();
    me
}

fn seeker_run(
    path: &Path,
    o: SeekOpts,
    chunks: u64,
    pipe: &Pipe,
    ready: &Barrier,
    stop: &AtomicBool,
) -> Seeker {
    let mut me = Seeker {
        stats: OpStats::default(),
        start: 0,
        end: 0,
        error: None,
    };
    let mut opts = OpenOptions::new();
    opts.read(true).write(true);
    if o.direct {
        opts.custom_flags(libc::O_DIRECT);
    }
    let f = opts
        .open(path)
        .map_err(|e| path_err(e, "cannot open", path));
    // Every seeker has its file open before the first starts.
    ready.wait();
    let mut f = match f {
        Ok(f) => f,
        Err(e) => {
            me.error = Some(e);
            return me;
        }
    };
    let mut buf = AlignedBuf::new(o.chunk);
    let buf = &mut buf.as_mut_slice()[..o.chunk];
    // As bonnie++'s seekers: the clock starts when the first ticket has come.
    let first = pipe.ticket();
    me.start = sys::now_ns();
    let r = (|| {
        let mut next = first.map_err(|e| path_err(e, "seek", path))?;
        while let Some(ticket) = next {
            if stop.load(Ordering::Relaxed) {
                break;
            }
            let t0 = sys::now_ns();
            one_seek(&mut f, buf, ticket, chunks, o.sync).map_err(|e| path_err(e, "seek", path))?;
            me.stats
                .record(SEEK, sys::now_ns().saturating_sub(t0), o.chunk as u64);
            next = pipe.ticket().map_err(|e| path_err(e, "seek", path))?;
        }
        // bonnie++'s seekers fsync the file as they close it, inside their time.
        f.sync_all().map_err(|e| path_err(e, "fsync", path))
    })();
    drop(f);
    me.end = sys::now_ns();
    me.error = r.err();
    // bonnie++'s seekers each unlink the file after their end time: the first to end removes
    // it, and the last close frees it within that seeker's time.
    if !pipe.removed.swap(true, Ordering::AcqRel) {
        let _ = std::fs::remove_file(path);
    }
    me
}

/// One ticket: seek to its chunk and read it; every tenth ticket writes it back changed.
fn one_seek(f: &mut File, buf: &mut [u8], ticket: u32, chunks: u64, sync: bool) -> io::Result<()> {
    let chunk = buf.len() as u64;
    let at = (u64::from(ticket) % chunks) * chunk;
    f.seek(SeekFrom::Start(at))?;
    f.read_exact(buf)?;
    if ticket % UPDATE_EVERY == 0 {
        let i = (u64::from(ticket) % chunk) as usize;
        buf[i] = buf[i].wrapping_sub(1);
        f.seek(SeekFrom::Start(at))?;
        f.write_all(buf)?;
        if sync {
            f.sync_all()?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::TempDir;

    #[test]
    fn tickets_are_shared_and_every_tenth_writes_back() {
        let d = TempDir::new("seeks");
        let p = d.join("f");
        std::fs::write(&p, vec![7u8; 4096 * 64]).unwrap();
        let stop = AtomicBool::new(false);
        let o = SeekOpts {
            chunk: 4096,
            count: 500,
            seekers: 1,
            direct: false,
            sync: true,
            seed: 11,
        };
        let ph = seeks(&p, o, false, &stop);
        assert!(ph.error.is_none(), "{:?}", ph.error);
        assert_eq!(ph.stats.ops(SEEK), 500);
        assert!(ph.elapsed_ns > 0);
        // The changed bytes are exactly the write-backs: one decrement per updating ticket
        // (one seeker: two seekers may race on one chunk, as bonnie++'s do).
        let t = tickets(500, 11);
        let mut want = vec![7u8; 4096 * 64];
        for &x in t.iter().filter(|x| *x % UPDATE_EVERY == 0) {
            let at = (x as usize % 64) * 4096 + x as usize % 4096;
            want[at] = want[at].wrapping_sub(1);
        }
        let updates = t.iter().filter(|x| *x % UPDATE_EVERY == 0).count();
        assert!((20..=80).contains(&updates), "{updates}");
        assert!(std::fs::read(&p).unwrap() == want);
        // Every ticket once, whichever seeker took it.
        let ph = seeks(&p, SeekOpts { seekers: 3, ..o }, false, &stop);
        assert!(ph.error.is_none(), "{:?}", ph.error);
        assert_eq!(ph.stats.ops(SEEK), 500);
        // A stop: the seekers end at once, and the tickets past the pipe's capacity (400 KB
        // here) are drained by the last of them, so the phase ends.
        let stopped = AtomicBool::new(true);
        let many = SeekOpts {
            seekers: 2,
            count: 100_000,
            ..o
        };
        assert_eq!(seeks(&p, many, false, &stopped).stats.ops(SEEK), 0);
        // The same seed draws the same tickets.
        assert_eq!(tickets(500, 11), t);
        assert!(t.iter().all(|x| *x < 1 << 31));
        let e = seeks(&d.join("nope"), o, false, &stop);
        assert!(e.error.unwrap().contains("cannot open"));
        std::fs::write(d.join("tiny"), b"x").unwrap();
        assert!(seeks(&d.join("tiny"), o, false, &stop).error.is_some());
    }

    /// With `remove`, the seekers remove the file as they end (as bonnie++'s do), every ticket
    /// still runs, and nothing is left; a phase whose seekers never start leaves nothing either.
    #[test]
    fn the_seekers_remove_the_file_as_they_end() {
        let d = TempDir::new("seeks-rm");
        let p = d.join("f");
        std::fs::write(&p, vec![7u8; 4096 * 64]).unwrap();
        let stop = AtomicBool::new(false);
        let o = SeekOpts {
            chunk: 4096,
            count: 300,
            seekers: 3,
            direct: false,
            sync: false,
            seed: 5,
        };
        let ph = seeks(&p, o, true, &stop);
        assert!(ph.error.is_none(), "{:?}", ph.error);
        assert_eq!(ph.stats.ops(SEEK), 300);
        assert!(!p.exists());
        std::fs::write(&p, b"x").unwrap();
        assert!(seeks(&p, o, true, &stop).error.is_some());
        assert!(!p.exists());
        // Kept without `remove`.
        std::fs::write(&p, vec![7u8; 4096 * 8]).unwrap();
        assert!(seeks(&p, o, false, &stop).error.is_none());
        assert!(p.exists());
    }
}
