//! Timed passes: one thread moves a file's records once, in a given [`Order`] and through given
//! system [`Calls`], and the pass is timed the way file-system benchmarks of the iozone family
//! time it. The open (and, for a new file, the create), an fsync of what earlier passes left
//! dirty and, for reads, one priming read are done before the clock starts (less when the
//! pass's [`Prelude`] says so, as that family's random passes and throughput children do); the clock stops
//! after the last record, or after the fsync (`fsync_timed`) and the close (`close_timed`) when
//! those are asked to be inside. What the job model's workers cannot express (backwards and
//! strided walks, a hot record, stdio-style streams, vectored calls, that timing) is here.
//!
//! [`group`] runs several passes released together from a barrier, with stonewalling.
//!
//! Every pass also measures the CPU time (user + system) its thread spent in the timed part,
//! and a reader can verify each record against the data the writers of this module store.

mod calls;
pub mod group;
mod mapped;
mod order;

pub use calls::{CallCounts, Calls};
pub use mapped::{MapAdvice, MapSync};
pub use order::{records, Order};

use crate::result::{CpuUsage, LatRecord};
use crate::sys::{self, AlignedBuf};
use serde::{Deserialize, Serialize};
use std::ffi::CString;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};

/// Reads or writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PassOp {
    Read,
    Write,
}

/// Flags the file is opened with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpenFlags {
    /// O_DIRECT.
    pub direct: bool,
    /// O_SYNC.
    pub sync: bool,
    /// O_DSYNC.
    pub dsync: bool,
    /// O_RSYNC (with O_SYNC).
    pub rsync: bool,
}

/// What is done between the open and the clock's start.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Prelude {
    /// An fsync of what is dirty and, for reads, one priming read of the first record.
    #[default]
    SyncAndPrime,
    /// The fsync only.
    Sync,
    /// Nothing: the clock starts right after the open.
    Nothing,
}

/// One pass over one file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PassSpec {
    pub path: PathBuf,
    pub op: PassOp,
    pub order: Order,
    pub calls: Calls,
    /// Bytes per record (per operation).
    pub record: u64,
    /// Records in the file.
    pub file_records: u64,
    /// Operations of the pass (usually `file_records`).
    pub ops: u64,
    pub open: OpenFlags,
    /// Remove the file and create it empty before the pass (outside the timing).
    pub create: bool,
    /// fsync (after flushing a stream) inside the timing.
    pub fsync_timed: bool,
    /// close inside the timing.
    pub close_timed: bool,
    /// Record every operation's latency.
    pub latency: bool,
    /// Seeds the data written.
    pub seed: u64,
    /// Verify (inside the timing): a writer stamps each piece of a record with its file offset,
    /// a reader compares every record with what such a writer of the same seed stored and
    /// fails at the first difference, so stale or misplaced data is caught too.
    #[serde(default)]
    pub verify: bool,
    /// What precedes the clock after the open.
    #[serde(default)]
    pub prelude: Prelude,
}

/// What a pass did.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PassResult {
    pub bytes: u64,
    pub ops: u64,
    /// Nanoseconds from the start of the timed part to its end.
    pub timed_ns: u64,
    /// When the timed part started (CLOCK_MONOTONIC ns) and in Unix µs.
    pub start_ns: u64,
    pub start_unix_us: u64,
    /// Latency of each operation (ns), when asked.
    pub lat: LatRecord,
    pub calls: CallCounts,
    /// Stopped before its last operation (interrupted, or cut by a stonewall).
    pub cut: bool,
    /// CPU time of the pass's thread from the start of the timed part to its end: in total
    /// (ns, the scheduler's exact count) and split as getrusage gives it (user, system, page
    /// faults), and that wall time (ns): for a stonewalled writer this includes the uncounted
    /// rest of its file.
    #[serde(default)]
    pub cpu_ns: u64,
    #[serde(default)]
    pub cpu: CpuUsage,
    #[serde(default)]
    pub cpu_wall_ns: u64,
    /// The CPU the pass's thread ran on at its end (sched_getcpu), -1 when unknown.
    #[serde(default)]
    pub last_cpu: i32,
    /// In a group, when the child was ready (its file prepared) and began waiting for the
    /// group's release (CLOCK_MONOTONIC ns); 0 for a pass run alone.
    #[serde(default)]
    pub ready_ns: u64,
}

/// What stops a pass early: the run's stop flag and, in a group, the stonewall (after which
/// a writer completes its file without counting, as iozone's children do). `at_end` is called
/// once the last record moved, before the fsync and close (timed or not): a group raises its
/// stonewall there, where iozone's children raise theirs.
#[derive(Clone, Copy)]
pub(crate) struct PassStops<'a> {
    pub(crate) stop: &'a AtomicBool,
    pub(crate) wall: Option<&'a AtomicBool>,
    pub(crate) at_end: Option<&'a (dyn Fn() + Sync)>,
}

/// A pass with its file open and its buffer ready: what is left is the timed part.
pub(crate) struct Prepared {
    spec: PassSpec,
    h: calls::Handle,
    buf: AlignedBuf,
    order: Vec<u64>,
    /// What each record read must hold (verifying readers).
    expected: Option<Vec<u8>>,
}

fn ctx(e: io::Error, what: &str, spec: &PassSpec) -> io::Error {
    sys::with_context(e, format!("{what} {}", spec.path.display()))
}

/// The bytes a writer stores in every record of `spec`, and a verifying reader expects: a
/// pseudo-random block of one piece (a vectored record is several pieces) seeded by
/// `spec.seed`, repeated, so passes of any call kind over the same file agree.
fn pattern(spec: &PassSpec, buf: &mut [u8]) {
    let unit = piece(spec, buf.len());
    let (first, rest) = buf.split_at_mut(unit.min(buf.len()));
    crate::rng::Rng::new(spec.seed).fill(first);
    for chunk in rest.chunks_mut(unit) {
        let n = chunk.len();
        chunk.copy_from_slice(&first[..n]);
    }
}

/// The bytes of one piece of a record of `len` bytes.
fn piece(spec: &PassSpec, len: usize) -> usize {
    let pieces = match spec.calls {
        Calls::Vectored { pieces } => pieces.max(1) as usize,
        _ => 1,
    };
    (len / pieces).max(1)
}

/// Write each piece's file offset into its first 8 bytes (verifying passes).
fn stamp(buf: &mut [u8], off: u64, unit: usize) {
    for (j, chunk) in buf.chunks_mut(unit).enumerate() {
        let at = (off + (j * unit) as u64).to_le_bytes();
        let n = chunk.len().min(8);
        chunk[..n].copy_from_slice(&at[..n]);
    }
}

/// Open the file (creating it first when asked), fsync it and, for reads, read one record and
/// go back to the start; map it for a mapped pass: everything before the clock starts.
pub(crate) fn prepare(spec: &PassSpec) -> io::Result<Prepared> {
    let cpath = CString::new(spec.path.as_os_str().as_bytes())
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "path has a NUL byte"))?;
    if spec.create {
        crate::targets::remove_for_replace(&spec.path).map_err(|e| ctx(e, "remove", spec))?;
    }
    let mut flags = libc::O_CLOEXEC
        | match spec.op {
            PassOp::Read => libc::O_RDONLY,
            PassOp::Write => libc::O_RDWR,
        };
    if spec.create {
        flags |= libc::O_CREAT | libc::O_EXCL;
    }
    if spec.open.direct {
        flags |= libc::O_DIRECT;
    }
    if spec.open.sync || spec.open.rsync {
        flags |= libc::O_SYNC;
    }
    if spec.open.dsync {
        flags |= libc::O_DSYNC;
    }
    if spec.open.rsync {
        flags |= libc::O_RSYNC;
    }
    // SAFETY: cpath is a valid C string.
    let fd = unsafe { libc::open(cpath.as_ptr(), flags, 0o640 as libc::c_uint) };
    if fd < 0 {
        return Err(ctx(io::Error::last_os_error(), "open", spec));
    }
    let mut h = calls::Handle::new(fd, spec.calls);
    if spec.prelude != Prelude::Nothing {
        h.sync().map_err(|e| ctx(e, "fsync", spec))?;
    }
    let mut buf = AlignedBuf::new(spec.record.max(1) as usize, sys::page_size().max(4096));
    let mut expected = None;
    match spec.op {
        PassOp::Write => pattern(spec, buf.as_mut_slice()),
        PassOp::Read => {
            if spec.verify {
                let mut e = vec![0u8; buf.len()];
                pattern(spec, &mut e);
                expected = Some(e);
            }
            if spec.prelude == Prelude::SyncAndPrime {
                // Prime the caches and the TLB with one read (outside the timing); pread
                // leaves the offset at the start.
                // SAFETY: buf is valid for its length; fd is open.
                let n = unsafe { libc::pread(fd, buf.as_mut_ptr().cast(), buf.len(), 0) };
                if n < 0 {
                    return Err(ctx(io::Error::last_os_error(), "read", spec));
                }
            }
        }
    }
    h.map(
        spec.record * spec.file_records,
        spec.record,
        spec.op == PassOp::Write,
    )
    .map_err(|e| ctx(e, "map", spec))?;
    h.counts = CallCounts::default();
    let order = records(spec.order, spec.ops, spec.file_records);
    Ok(Prepared {
        spec: spec.clone(),
        h,
        buf,
        order,
        expected,
    })
}

impl Prepared {
    /// The timed part: the records, then (when asked) fsync and close; after the clock stops,
    /// whatever is left (flush, fsync of writes, close) is done untimed.
    pub(crate) fn run(mut self, stops: PassStops<'_>) -> io::Result<PassResult> {
        let rec = self.spec.record;
        let mut res = PassResult {
            start_unix_us: unix_us(),
            ..Default::default()
        };
        let lat = self.spec.latency;
        let unit = piece(&self.spec, rec as usize);
        if lat {
            // The histogram's counters allocated and their pages touched now, outside the
            // timing: allocated at the first record (a brk and page faults), they cost
            // microseconds inside a pass that reads a small cached file in a few.
            std::hint::black_box(res.lat.hist.slots_mut()).fill(0);
        }
        let cpu0 = sys::rusage_thread();
        let cpu0_ns = sys::thread_cpu_ns();
        let start = sys::now_ns();
        res.start_ns = start;
        let mut last = start;
        // What was done when a stonewall fell: (bytes, ops, ns). Writers go on to complete the
        // file (later passes read it) without counting; readers stop there.
        let mut frozen: Option<(u64, u64, u64)> = None;
        // Taken out of `self` so each record can be moved through `&mut self`.
        let order = std::mem::take(&mut self.order);
        for &r in &order {
            if stops.stop.load(Ordering::Relaxed) {
                res.cut = true;
                break;
            }
            if frozen.is_none() && stops.wall.is_some_and(|w| w.load(Ordering::Relaxed)) {
                frozen = Some((res.bytes, res.ops, sys::now_ns() - start));
                res.cut = true;
                if self.spec.op == PassOp::Read {
                    break;
                }
            }
            self.transfer(r, unit)?;
            if frozen.is_some() {
                continue;
            }
            res.bytes += rec;
            res.ops += 1;
            if lat {
                let now = sys::now_ns();
                res.lat.add(now - last);
                last = now;
            }
        }
        if let Some(f) = stops.at_end {
            f();
        }
        self.timed_close()?;
        let end = sys::now_ns();
        if res.lat.stat.n == 0 {
            // Nothing recorded: the histogram stays empty, as one never written to.
            res.lat.hist = Default::default();
        }
        res.cpu_ns = sys::thread_cpu_ns() - cpu0_ns;
        res.cpu = sys::cpu_delta(&sys::rusage_thread(), &cpu0);
        res.cpu_wall_ns = end - start;
        // SAFETY: sched_getcpu has no preconditions.
        res.last_cpu = unsafe { libc::sched_getcpu() };
        res.timed_ns = match frozen {
            Some((bytes, ops, ns)) => {
                res.bytes = bytes;
                res.ops = ops;
                ns
            }
            None => end - start,
        };
        self.untimed_close(&mut res)?;
        Ok(res)
    }

    /// Move record `r` (stamping a verifying writer's pieces first) and check it: a short
    /// transfer, or a verifying reader's record that differs from what was written, fails.
    #[inline]
    fn transfer(&mut self, r: u64, unit: usize) -> io::Result<()> {
        let rec = self.spec.record;
        let off = r * rec;
        if self.spec.verify && self.spec.op == PassOp::Write {
            stamp(self.buf.as_mut_slice(), off, unit);
        }
        let n = match self.spec.op {
            PassOp::Read => self.h.read_at(off, self.buf.as_mut_slice()),
            PassOp::Write => self.h.write_at(off, self.buf.as_slice()),
        }
        .map_err(|e| ctx(e, "I/O on", &self.spec))?;
        if n as u64 != rec {
            return Err(ctx(
                io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    format!("short transfer: {n} of {rec} bytes at offset {off}"),
                ),
                "I/O on",
                &self.spec,
            ));
        }
        if let Some(e) = &mut self.expected {
            stamp(e, off, unit);
            if self.buf.as_slice() != &e[..] {
                return Err(ctx(
                    io::Error::new(
                        io::ErrorKind::InvalidData,
                        format!("verify: the record at offset {off} differs from what was written"),
                    ),
                    "read",
                    &self.spec,
                ));
            }
        }
        Ok(())
    }

    /// Inside the timing, when asked: fsync (after flushing a stream) and close.
    fn timed_close(&mut self) -> io::Result<()> {
        if self.spec.fsync_timed {
            self.h.flush().map_err(|e| ctx(e, "flush", &self.spec))?;
            self.h.sync().map_err(|e| ctx(e, "fsync", &self.spec))?;
        }
        if self.spec.close_timed {
            self.h.flush().map_err(|e| ctx(e, "flush", &self.spec))?;
            self.h.close().map_err(|e| ctx(e, "close", &self.spec))?;
        }
        Ok(())
    }

    /// After the clock stopped: flush, fsync writes not synced in the timing, count the calls
    /// into `res` and close.
    fn untimed_close(&mut self, res: &mut PassResult) -> io::Result<()> {
        // Untimed: what is left of the writes reaches the device before the next pass starts.
        self.h.flush().map_err(|e| ctx(e, "flush", &self.spec))?;
        if self.spec.op == PassOp::Write && !self.spec.close_timed && !self.spec.fsync_timed {
            self.h.sync().map_err(|e| ctx(e, "fsync", &self.spec))?;
        }
        res.calls = self.h.counts;
        self.h.close().map_err(|e| ctx(e, "close", &self.spec))?;
        Ok(())
    }
}

fn unix_us() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_micros() as u64)
        .unwrap_or(0)
}

/// Prepare and run one pass in the calling thread. A single-threaded tool's passes (iozone's
/// table) run one after another inside one [`in_pass_thread`], as in that tool's one process.
pub fn run_pass(spec: &PassSpec, stop: &AtomicBool) -> io::Result<PassResult> {
    prepare(spec)?.run(PassStops {
        stop,
        wall: None,
        at_end: None,
    })
}

/// Run `f` (a series of passes) in one new thread with its own table of open files, and
/// return what it returns: the passes pay for their calls what a single-threaded process pays
/// (see [`crate::alone`]), and, one thread for the whole series, they keep its CPU and caches
/// from one pass to the next as that process does (a thread per pass starts each pass on a
/// freshly placed thread, after a thread's exit and start).
pub fn in_pass_thread<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    crate::alone::in_own_thread(f)
}

#[cfg(test)]
mod tests;
