//! File operations with syscall shapes that fio's I/O model does not express, for the classic
//! tools' tests: one-byte reads and writes ([`bytewise`]), read-modify-write in place
//! ([`bytewise::rewrite`]), sets of small files created, stat-ed (and read), and deleted in name
//! or directory order ([`fileset`]), and trees of files written atomically (temporary name, then
//! rename) by concurrent threads ([`blogtree`]), and bonnie++'s random seeks: seeker threads
//! sharing random chunk tickets, every tenth written back ([`seeks`]).
//!
//! Every operation is timed into a latency record of its operation type ([`OpStats`]); a phase
//! ([`Phase`]) also carries its wall time, the process's CPU time and the first error, and
//! becomes a result-model job ([`Phase::job`]) so reports and comparisons read it like any other.

mod at;
mod blogdraw;
pub mod blogtree;
pub mod bytewise;
pub mod fileset;
pub mod seeks;
pub mod steps;

use crate::failure::JobFailure;
use crate::job::Dir;
use crate::result::{CpuUsage, JobResult, LatRecord};
use crate::sys;
use std::io;
use std::sync::atomic::{AtomicBool, Ordering};

/// The counts of one operation type.
#[derive(Clone, Debug, Default)]
pub struct OpStat {
    pub ops: u64,
    pub bytes: u64,
    pub lat: LatRecord,
}

/// Counts and latencies per operation type, in the order the types first occurred.
#[derive(Clone, Debug, Default)]
pub struct OpStats {
    pub by_op: Vec<(&'static str, OpStat)>,
}

impl OpStats {
    fn slot(&mut self, op: &'static str) -> &mut OpStat {
        let i = match self.by_op.iter().position(|(n, _)| *n == op) {
            Some(i) => i,
            None => {
                self.by_op.push((op, OpStat::default()));
                self.by_op.len() - 1
            }
        };
        &mut self.by_op[i].1
    }

    /// One operation of type `op` that took `ns` and moved `bytes`.
    pub fn record(&mut self, op: &'static str, ns: u64, bytes: u64) {
        let s = self.slot(op);
        s.ops += 1;
        s.bytes += bytes;
        s.lat.add(ns);
    }

    /// The counts of `op`, if it occurred.
    pub fn get(&self, op: &str) -> Option<&OpStat> {
        self.by_op.iter().find(|(n, _)| *n == op).map(|(_, s)| s)
    }

    /// Operations of type `op` (0 when none).
    #[cfg(test)]
    pub(crate) fn ops(&self, op: &str) -> u64 {
        self.get(op).map_or(0, |s| s.ops)
    }

    /// Add `o`'s counts and latencies to these.
    pub(crate) fn merge(&mut self, o: &OpStats) {
        for (n, s) in &o.by_op {
            let d = self.slot(n);
            d.ops += s.ops;
            d.bytes += s.bytes;
            d.lat.merge(&s.lat);
        }
    }
}

/// Run `f` as one operation of type `op` into `stats`; a success returns the bytes it moved
/// and is recorded, a failure is not.
pub(crate) fn timed(
    stats: &mut OpStats,
    op: &'static str,
    f: impl FnOnce() -> io::Result<u64>,
) -> io::Result<u64> {
    let t0 = sys::now_ns();
    let r = f()?;
    stats.record(op, sys::now_ns().saturating_sub(t0), r);
    Ok(r)
}

/// A phase's outcome: its operations, wall time, CPU time of the process, first error.
#[derive(Debug, Default)]
pub struct Phase {
    pub stats: OpStats,
    pub elapsed_ns: u64,
    pub cpu: CpuUsage,
    pub error: Option<String>,
    /// Stopped early by the stop flag.
    pub stopped: bool,
}

/// Times a phase: wall clock and process CPU from `start` to [`Clock::finish`].
pub(crate) struct Clock {
    t0: u64,
    cpu0: CpuUsage,
}

impl Clock {
    pub(crate) fn start() -> Clock {
        Clock {
            t0: sys::now_ns(),
            cpu0: sys::rusage_self(),
        }
    }

    /// The phase with `stats` and the outcome `r` (an error is kept as the phase's error).
    pub(crate) fn finish(self, stats: OpStats, r: io::Result<()>, stop: &AtomicBool) -> Phase {
        Phase {
            stats,
            elapsed_ns: sys::now_ns().saturating_sub(self.t0),
            cpu: sys::cpu_delta(&sys::rusage_self(), &self.cpu0),
            error: r.err().map(|e| e.to_string()),
            stopped: stop.load(Ordering::Relaxed),
        }
    }
}

impl Phase {
    /// The phase as a result-model job called `name`: the operations of type `op` counted in
    /// direction `dir` (I/Os, bytes, latency), the phase's wall time as runtime, its CPU time.
    pub fn job(&self, name: &str, op: &str, dir: Dir) -> JobResult {
        let mut j = JobResult {
            name: name.to_string(),
            runtime_us: self.elapsed_ns / 1000,
            runtime_ms: self.elapsed_ns / 1_000_000,
            elapsed_ms: self.elapsed_ns / 1_000_000,
            start_unix_ms: sys::unix_ms().saturating_sub(self.elapsed_ns / 1_000_000),
            cpu: self.cpu.clone(),
            ran: true,
            ..Default::default()
        };
        if let Some(s) = self.stats.get(op) {
            j.set_measured(dir, s.bytes, s.ops, &s.lat);
        }
        if let Some(e) = &self.error {
            j.error = libc::EIO;
            j.failure = Some(JobFailure::Phase {
                job: name.to_string(),
                reason: e.clone(),
            });
        }
        j
    }
}

/// An I/O error with the path it concerns.
pub(crate) fn path_err(e: io::Error, what: &str, path: &std::path::Path) -> io::Error {
    io::Error::new(e.kind(), format!("{what} {}: {e}", path.display()))
}

/// A `len`-byte buffer aligned to 4096 (usable with O_DIRECT).
pub(crate) struct AlignedBuf {
    ptr: *mut u8,
    layout: std::alloc::Layout,
}

impl AlignedBuf {
    pub(crate) fn new(len: usize) -> AlignedBuf {
        let layout = std::alloc::Layout::from_size_align(len.max(1), 4096).expect("buffer size");
        // SAFETY: the layout has a non-zero size.
        let ptr = unsafe { std::alloc::alloc_zeroed(layout) };
        if ptr.is_null() {
            std::alloc::handle_alloc_error(layout);
        }
        AlignedBuf { ptr, layout }
    }

    pub(crate) fn as_mut_slice(&mut self) -> &mut [u8] {
        // SAFETY: ptr is valid for layout.size() bytes, owned by self.
        unsafe { std::slice::from_raw_parts_mut(self.ptr, self.layout.size()) }
    }
}

impl Drop for AlignedBuf {
    fn drop(&mut self) {
        // SAFETY: allocated in `new` with this layout.
        unsafe { std::alloc::dealloc(self.ptr, self.layout) }
    }
}

// SAFETY: the buffer is plain memory owned by this value.
unsafe impl Send for AlignedBuf {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stats_record_and_merge_by_type() {
        let mut a = OpStats::default();
        a.record("create", 1000, 0);
        a.record("write", 2000, 8192);
        a.record("create", 3000, 0);
        let mut b = OpStats::default();
        b.record("write", 500, 100);
        a.merge(&b);
        assert_eq!(a.ops("create"), 2);
        assert_eq!(a.ops("write"), 2);
        assert_eq!(a.get("write").unwrap().bytes, 8292);
        assert_eq!(a.get("create").unwrap().lat.stat.max_or_zero(), 3000);
        assert_eq!(a.ops("rename"), 0);
        let names: Vec<_> = a.by_op.iter().map(|(n, _)| *n).collect();
        assert_eq!(names, ["create", "write"]);
    }

    #[test]
    fn phase_becomes_a_job() {
        let stop = AtomicBool::new(false);
        let c = Clock::start();
        let mut s = OpStats::default();
        timed(&mut s, "read", || Ok(4096)).unwrap();
        assert!(timed(&mut s, "read", || Err(io::Error::other("x"))).is_err());
        let p = c.finish(s, Err(io::Error::other("boom")), &stop);
        let j = p.job("t", "read", Dir::Read);
        assert_eq!(j.dirs.read.total_ios, 1);
        assert_eq!(j.dirs.read.io_bytes, 4096);
        assert_eq!(j.dirs.read.lat.hist.count(), 1);
        assert!(j.ran && j.error != 0);
        assert!(j.failure.unwrap().to_string().ends_with("boom"));
        let mut b = AlignedBuf::new(8192);
        assert_eq!(b.as_mut_slice().len(), 8192);
        assert_eq!(b.as_mut_slice().as_ptr() as usize % 4096, 0);
    }
}
