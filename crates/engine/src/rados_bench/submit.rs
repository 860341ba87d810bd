//! The submission loop of a rados bench phase: `threads` requests in flight on numbered objects
//! until the seconds are up, a seq read has read every object, or the run is stopped; each
//! completion is timed into the phase's latency record and published to the worker's live
//! counters, and the completions of each whole second are counted.

use super::objects::{content_ok, fill_content, object_name};
use super::Mode;
use crate::job::Dir;
use crate::result::LatRecord;
use crate::rng::Rng;
use crate::sys;
use crate::worker::{WorkerProgress, WorkerState};
use iomark_ceph::{Aio, AioTarget, Pool};
use std::ffi::CString;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

const NS: u64 = 1_000_000_000;

/// What a phase did.
#[derive(Debug, Default)]
pub(super) struct Done {
    pub(super) elapsed_ns: u64,
    pub(super) ops: u64,
    pub(super) lat: LatRecord,
    /// Operations finished in each whole second.
    pub(super) per_sec: Vec<u64>,
    /// Objects read whose content was not what the write run wrote.
    pub(super) bad: u64,
    /// The first failure, in words (the phase stopped there).
    pub(super) error: Option<String>,
}

/// The submission loop.
pub(super) struct Loop<'a> {
    mode: Mode,
    seconds: u64,
    aio: Aio,
    prefix: &'a str,
    objects: u64,
    size: u64,
    submitted_at: Vec<u64>,
    /// The object each slot's request is on.
    object_of: Vec<u64>,
    free: Vec<u32>,
    started: u64,
    lat_sum_ns: u64,
    rng: Rng,
    progress: &'a WorkerProgress,
    done: Done,
}

impl<'a> Loop<'a> {
    /// A loop on `pool` with `depth` requests in flight on objects of `size` bytes named under
    /// `prefix` (`objects` of them for a read run), publishing to `progress`.
    pub(super) fn new(
        mode: Mode,
        seconds: u64,
        pool: &Arc<Pool>,
        (depth, size, objects): (u32, u64, u64),
        prefix: &'a str,
        progress: &'a WorkerProgress,
    ) -> Loop<'a> {
        Loop {
            mode,
            seconds,
            aio: Aio::new(AioTarget::Pool(pool.clone()), depth, false),
            prefix,
            objects,
            size,
            submitted_at: vec![0; depth as usize],
            object_of: vec![0; depth as usize],
            free: (0..depth).rev().collect(),
            started: 0,
            lat_sum_ns: 0,
            rng: Rng::new(std::process::id() as u64 ^ 0x5eed),
            progress,
            done: Done::default(),
        }
    }

    fn dir(&self) -> Dir {
        if self.mode == Mode::Write {
            Dir::Write
        } else {
            Dir::Read
        }
    }

    /// The next object, or None when a read run has read them all (seq).
    fn next_object(&mut self) -> Option<u64> {
        match self.mode {
            Mode::Write => Some(self.started),
            Mode::Seq => (self.started < self.objects).then_some(self.started),
            Mode::Rand => (self.objects > 0).then(|| self.rng.next_u64() % self.objects),
        }
    }

    fn submit(&mut self, slot: u32, n: u64, buf: &mut [u8]) -> Result<(), String> {
        let oid = CString::new(object_name(self.prefix, n)).map_err(|e| e.to_string())?;
        if self.mode == Mode::Write {
            fill_content(buf, n);
        }
        self.object_of[slot as usize] = n;
        self.submitted_at[slot as usize] = sys::now_ns();
        // SAFETY: buf (the slot's) is not touched until the slot's completion is reaped.
        let r = unsafe {
            match self.mode {
                Mode::Write => self
                    .aio
                    .object_write(slot, &oid, 0, buf.as_ptr(), buf.len(), true),
                _ => self
                    .aio
                    .object_read(slot, &oid, 0, buf.as_mut_ptr(), buf.len()),
            }
        };
        r.map_err(|e| e.to_string())?;
        self.started += 1;
        Ok(())
    }

    /// Runs the phase until its end or `stop`; what it did.
    pub(super) fn go(mut self, stop: &AtomicBool) -> Done {
        let mut bufs: Vec<Vec<u8>> = (0..self.free.len())
            .map(|_| vec![b'z'; self.size as usize])
            .collect();
        let t0 = sys::now_ns();
        self.progress.flight.start(t0);
        self.progress.set_state(WorkerState::Running);
        if let Err(e) = self.cycle(&mut bufs, t0, stop) {
            self.done.error = Some(e);
        }
        self.done.elapsed_ns = sys::now_ns().saturating_sub(t0);
        self.progress.set_state(if self.done.error.is_some() {
            WorkerState::Failed
        } else {
            WorkerState::Done
        });
        self.done
    }

    fn cycle(&mut self, bufs: &mut [Vec<u8>], t0: u64, stop: &AtomicBool) -> Result<(), String> {
        let limit = self.seconds.saturating_mul(NS);
        let mut next_sec = 1u64;
        let mut last_finished = 0;
        let mut reaped = Vec::new();
        loop {
            let now = sys::now_ns().saturating_sub(t0);
            while now >= next_sec.saturating_mul(NS) {
                self.done.per_sec.push(self.done.ops - last_finished);
                last_finished = self.done.ops;
                next_sec += 1;
            }
            let ending = now >= limit || stop.load(Ordering::Relaxed);
            while !ending && !self.free.is_empty() {
                let Some(n) = self.next_object() else { break };
                let slot = self.free.pop().expect("a free slot");
                self.submit(slot, n, &mut bufs[slot as usize])?;
            }
            self.progress.flight.started(self.started);
            if self.aio.in_flight() == 0 {
                return Ok(());
            }
            reaped.clear();
            self.aio.reap(1, usize::MAX, &mut reaped);
            for &(slot, r) in &reaped {
                self.complete(slot, r, &bufs[slot as usize])?;
            }
        }
    }

    /// One completion: timed, checked (a read's content), published.
    fn complete(&mut self, slot: u32, r: i64, buf: &[u8]) -> Result<(), String> {
        if r < 0 {
            return Err(format!(
                "a benchmark {} failed: {}",
                if self.mode == Mode::Write {
                    "write"
                } else {
                    "read"
                },
                std::io::Error::from_raw_os_error((-r) as i32)
            ));
        }
        let now = sys::now_ns();
        let lat = now.saturating_sub(self.submitted_at[slot as usize]);
        if self.mode != Mode::Write
            && !content_ok(&buf[..r as usize], self.object_of[slot as usize])
        {
            self.done.bad += 1;
        }
        self.done.lat.add(lat);
        self.lat_sum_ns += lat;
        self.done.ops += 1;
        self.free.push(slot);
        let d = self.dir() as usize;
        let p = self.progress;
        p.ios[d].store(self.done.ops, Ordering::Relaxed);
        p.bytes[d].store(self.done.ops * self.size, Ordering::Relaxed);
        p.flight.finished(self.done.ops, self.lat_sum_ns, lat);
        p.published_ns.store(now, Ordering::Release);
        Ok(())
    }
}
