//! What both Ceph engines keep beside their [`Aio`]: each slot's request (its length, and
//! whether it reads: librbd and librados answer a completed write, discard or zeroing with 0,
//! reported as the request's length), the requests refused at submission (reported by the next
//! reap, as completions with -errno), and the count submitted since the last commit. Nothing
//! here allocates per request.

use crate::aio::Aio;
use crate::error::CephError;

/// An [`Aio`] and its slots' bookkeeping.
pub struct AioSlots {
    aio: Aio,
    lens: Box<[i64]>,
    reads: Box<[bool]>,
    /// (slot, -errno) of requests refused at submission.
    failed: Vec<(u32, i64)>,
    /// The completions of one reap, before they are mapped.
    reaped: Vec<(u32, i64)>,
    submitted: usize,
}

impl AioSlots {
    /// `aio` with `depth` slots.
    pub fn new(aio: Aio, depth: u32) -> AioSlots {
        let depth = depth.max(1) as usize;
        AioSlots {
            aio,
            lens: vec![0; depth].into(),
            reads: vec![false; depth].into(),
            failed: Vec::with_capacity(depth),
            reaped: Vec::with_capacity(depth),
            submitted: 0,
        }
    }

    /// Submits slot `slot`'s request through `submit`: `len` bytes (0 for a flush), `read`
    /// whether it reads into the slot's buffer. A refusal is kept for the next reap.
    #[inline]
    pub fn submit(
        &mut self,
        slot: u32,
        len: usize,
        read: bool,
        submit: impl FnOnce(&Aio) -> Result<(), CephError>,
    ) {
        let s = slot as usize;
        self.lens[s] = len as i64;
        self.reads[s] = read;
        match submit(&self.aio) {
            Ok(()) => self.submitted += 1,
            Err(e) => self.failed.push((slot, -(e.errno().max(1) as i64))),
        }
    }

    /// The requests submitted since the last call.
    pub fn commit(&mut self) -> usize {
        std::mem::take(&mut self.submitted)
    }

    /// Moves the refused submissions, then completed requests, into `out` as `make(slot,
    /// result)` (the result: bytes done, or -errno): at least `min` (waiting for them, as far as
    /// requests are in flight) and at most `max`. Returns how many.
    #[inline]
    pub fn reap<T>(
        &mut self,
        min: usize,
        max: usize,
        out: &mut Vec<T>,
        make: impl Fn(u32, i64) -> T,
    ) -> usize {
        let mut n = self.failed.len().min(max);
        out.extend(self.failed.drain(..n).map(|(slot, r)| make(slot, r)));
        if n < max {
            self.reaped.clear();
            let want = min.saturating_sub(n).min(self.aio.in_flight());
            n += self.aio.reap(want, max - n, &mut self.reaped);
            let (lens, reads) = (&self.lens, &self.reads);
            out.extend(self.reaped.iter().map(|&(slot, r)| {
                let s = slot as usize;
                make(slot, if r < 0 || reads[s] { r } else { lens[s] })
            }));
        }
        n
    }

    /// Waits for every request in flight, dropping their completions.
    pub fn drain(&mut self) {
        while self.aio.in_flight() > 0 {
            self.reaped.clear();
            self.aio.reap(1, usize::MAX, &mut self.reaped);
        }
        self.reaped.clear();
        self.failed.clear();
    }
}
