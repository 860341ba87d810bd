//! The issue/complete loop: fills the queue (batched by iodepth_batch_submit), submits, reaps
//! (iodepth_batch_complete_min/max, iodepth_low), and drains at the end; sync engines run one
//! I/O per system call.

use super::pick::Next;
use super::Worker;
use crate::engines::{Completion, IoUnit, Queued};
use crate::failure::{FlushPoint, JobFailure};
use crate::result::DepthStats;
use crate::sys;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// The issue/complete loop's state between its steps.
struct LoopState {
    /// I/Os queued before they are submitted together (iodepth_batch_submit; 0: the queue).
    batch_submit: usize,
    /// The queue's size.
    slots: usize,
    /// The queue filled up: reap down to iodepth_low before issuing again.
    draining_to_low: bool,
    /// The clock as last read.
    now: u64,
}

impl Worker {
    /// The issue/complete loop: issue while the queue allows, reap, until the job is done,
    /// then drain, verify and end_fsync.
    pub(super) fn run(&mut self) {
        let mut st = self.start_loop();
        // I/Os queued and not yet submitted; apart from `st`, as `commit` takes its address.
        let mut queued_uncommitted = 0usize;
        loop {
            if self.stop.load(Ordering::Relaxed) {
                self.done_issuing = true;
            }
            // The queue's size, or the depth a latency-target search runs at now.
            let depth = self.depth_now;
            let low = (self.spec.iodepth_low as usize).min(depth);
            self.fill_queue(&mut st, &mut queued_uncommitted);
            if queued_uncommitted > 0 {
                self.commit(&mut queued_uncommitted);
            }
            if self.inflight == 0 {
                if self.done_issuing || self.error {
                    break;
                }
                st.draining_to_low = false;
                if self.depth_now == 0 {
                    // The depth search drained the queue to change depth.
                    st.now = sys::now_ns();
                    self.search_drained(st.now);
                }
                continue;
            }
            if !self.reap(&mut st, depth, low) {
                break;
            }
        }
        self.end_loop();
    }

    /// Mark the worker running and start the ramp (or the measured phase); the loop's state.
    #[inline]
    fn start_loop(&mut self) -> LoopState {
        let now = sys::now_ns();
        self.progress.set_state(super::WorkerState::Running);
        if self.spec.ramp_time > Duration::ZERO {
            self.ramp_end_ns = now + self.spec.ramp_time.as_nanos() as u64;
        } else {
            self.begin_measuring(now);
        }
        let batch_submit = match self.spec.iodepth_batch_submit {
            0 => self.slots.len(),
            n => n as usize,
        };
        LoopState {
            batch_submit,
            slots: self.slots.len(),
            draining_to_low: false,
            now,
        }
    }

    /// Issue as many I/Os as the queue allows (a sync engine performs each at once).
    #[inline]
    fn fill_queue(&mut self, st: &mut LoopState, queued_uncommitted: &mut usize) {
        let mut batch_start = 0u64;
        // The stop flag is checked per I/O too: with a sync engine nothing stays in flight
        // and this loop runs until the job's end (a plain load; Relaxed costs nothing).
        while !self.done_issuing
            && self.inflight < self.depth_now
            && !st.draining_to_low
            && !self.error
            && !self.stop.load(Ordering::Relaxed)
        {
            if batch_start == 0 {
                batch_start = sys::now_ns();
                st.now = batch_start;
                if !self.check_time(st.now) {
                    break;
                }
            }
            match self.prepare_next(st.now) {
                Next::Io(slot) if self.verify_only_write(slot) => {
                    self.skip_write(slot);
                }
                Next::Io(slot) if self.read_back_ends(slot) => {
                    self.free.push(slot);
                    self.done_issuing = true;
                }
                Next::Io(slot) if self.sync_engine => {
                    st.now = self.issue_sync(slot);
                    batch_start = st.now;
                    if !self.check_time(st.now) {
                        break;
                    }
                }
                Next::Io(slot) => self.queue_io(slot, &mut batch_start, queued_uncommitted, st),
                Next::Wait(until) => {
                    if self.inflight == 0 && *queued_uncommitted == 0 {
                        self.wait_until(until);
                        batch_start = 0;
                        continue;
                    }
                    break;
                }
                Next::Drained(pause) => {
                    if self.inflight > 0 || *queued_uncommitted > 0 {
                        break;
                    }
                    self.pause(pause);
                    batch_start = 0;
                }
                Next::Done => {
                    self.done_issuing = true;
                }
            }
        }
    }

    /// Queue the I/O prepared in `slot` on an async engine (after what it overlaps, when the
    /// job serializes overlaps), submitting the batch once it is full.
    #[inline]
    fn queue_io(
        &mut self,
        slot: u32,
        batch_start: &mut u64,
        queued_uncommitted: &mut usize,
        st: &mut LoopState,
    ) {
        self.slots[slot as usize].start_ns = *batch_start;
        self.draw_prio(slot);
        let s = &self.slots[slot as usize];
        let io = IoUnit {
            slot,
            file: s.file,
            op: s.op,
            offset: s.offset,
            len: s.len,
            buf: self.bufs.ptr(slot),
            prio: s.prio,
        };
        if self.serialize && self.overlaps_in_flight(slot) {
            if *queued_uncommitted > 0 {
                self.commit(queued_uncommitted);
            }
            self.wait_overlap(slot);
        }
        match self.engine.queue(&io) {
            Queued::Pending => {
                if self.serialize {
                    self.in_flight[slot as usize] = true;
                }
                self.inflight += 1;
                *queued_uncommitted += 1;
                self.uncommitted.push(slot);
                let lvl = DepthStats::level_bucket(self.inflight as u64);
                self.res.depth.level[lvl] += 1;
                if *queued_uncommitted >= st.batch_submit {
                    st.now = self.commit(queued_uncommitted);
                    *batch_start = st.now;
                }
            }
            Queued::Done(r) => {
                let t = sys::now_ns();
                self.slots[slot as usize].issue_ns = *batch_start;
                self.complete(slot, r, t);
                self.free.push(slot);
            }
        }
    }

    /// Reap one batch of completions (at least one when the queue is full, the job done
    /// issuing or draining to iodepth_low; iodepth_batch_complete_min/max); false when reaping
    /// failed and the loop must end.
    #[inline]
    fn reap(&mut self, st: &mut LoopState, depth: usize, low: usize) -> bool {
        let full = self.inflight >= depth;
        if full && low < depth {
            st.draining_to_low = true;
        }
        let min = if full || self.done_issuing || st.draining_to_low {
            (self.spec.iodepth_batch_complete_min as usize).clamp(1, self.inflight)
        } else {
            (self.spec.iodepth_batch_complete_min as usize).min(self.inflight)
        };
        let max = match self.spec.iodepth_batch_complete_max as usize {
            0 => st.slots,
            m => m.max(min),
        };
        self.comps.clear();
        let mut comps = std::mem::take(&mut self.comps);
        let got = match self.engine.getevents(min, max, &mut comps) {
            Ok(n) => n,
            Err(e) => {
                let errno = e.raw_os_error().unwrap_or(libc::EIO);
                self.fatal(errno, JobFailure::Reap { errno });
                comps.clear();
                self.comps = comps;
                return false;
            }
        };
        if got > 0 {
            let t = sys::now_ns();
            self.res.depth.complete[DepthStats::batch_bucket(got as u64)] += 1;
            self.complete_reaped(&comps, t);
            st.now = t;
            self.check_time(st.now);
        } else if min == 0 {
            std::hint::spin_loop();
        }
        self.comps = comps;
        if st.draining_to_low && self.inflight <= low {
            st.draining_to_low = false;
        }
        true
    }

    /// After the loop: drain anything left in flight (stop or error), end a ramp that never
    /// ended, verify, and end_fsync.
    #[inline]
    fn end_loop(&mut self) {
        // Drain anything left (stop or error).
        while self.inflight > 0 {
            self.comps.clear();
            let mut comps = std::mem::take(&mut self.comps);
            match self.engine.getevents(1, self.slots.len(), &mut comps) {
                Ok(_) => self.complete_reaped(&comps, sys::now_ns()),
                Err(_) => break,
            }
            self.comps = comps;
        }
        if !self.measuring {
            // The job ended inside its ramp: as fio, it keeps the I/O it did, over the time
            // since it started (no latencies were recorded).
            let (bytes, ios) = (self.bytes, self.ios);
            let ramp_ns = self.spec.ramp_time.as_nanos() as u64;
            self.begin_measuring(self.ramp_end_ns.saturating_sub(ramp_ns));
            self.bytes = bytes;
            self.ios = ios;
        }
        self.verify_at_end();
        if self.spec.end_fsync && !self.error {
            self.fsync_files(FlushPoint::End);
        }
    }

    /// Account completions reaped at `t` (offloaded: at the times their submit thread stamped)
    /// and free their slots.
    #[inline]
    fn complete_reaped(&mut self, comps: &[Completion], t: u64) {
        for c in comps {
            self.inflight -= 1;
            let mut done = t;
            if let Some(times) = &self.offload_times {
                let (issue, at) = times.get(c.slot);
                self.slots[c.slot as usize].issue_ns = issue;
                done = at;
            }
            if self.serialize {
                self.in_flight[c.slot as usize] = false;
            }
            self.complete(c.slot, c.result, done);
            self.free.push(c.slot);
        }
    }

    /// Whether the I/O prepared in `slot` overlaps one in flight (by offset and length, as
    /// fio compares them: whatever the file).
    fn overlaps_in_flight(&self, slot: u32) -> bool {
        let s = &self.slots[slot as usize];
        let (start, end) = (s.offset, s.offset + s.len as u64);
        self.in_flight.iter().enumerate().any(|(i, &busy)| {
            let o = &self.slots[i];
            busy && i != slot as usize && start < o.offset + o.len as u64 && o.offset < end
        })
    }

    /// Reap until nothing in flight overlaps the I/O prepared in `slot`.
    #[cold]
    fn wait_overlap(&mut self, slot: u32) {
        while self.inflight > 0 && self.overlaps_in_flight(slot) {
            self.comps.clear();
            let mut comps = std::mem::take(&mut self.comps);
            match self.engine.getevents(1, self.slots.len(), &mut comps) {
                Ok(_) => self.complete_reaped(&comps, sys::now_ns()),
                Err(e) => {
                    let errno = e.raw_os_error().unwrap_or(libc::EIO);
                    self.fatal(errno, JobFailure::Reap { errno });
                    comps.clear();
                    self.comps = comps;
                    return;
                }
            }
            self.comps = comps;
        }
    }

    /// Submit what was queued; returns the clock after submission (the issue time).
    fn commit(&mut self, queued: &mut usize) -> u64 {
        let n = *queued;
        *queued = 0;
        match self.engine.commit() {
            Ok(_) => {}
            Err(e) => {
                let errno = e.raw_os_error().unwrap_or(libc::EIO);
                self.fatal(errno, JobFailure::Submit { errno });
            }
        }
        let t = sys::now_ns();
        self.res.depth.submit[DepthStats::batch_bucket(n as u64)] += 1;
        // One clock read stamps the issue time of the whole batch.
        for &slot in &self.uncommitted {
            self.slots[slot as usize].issue_ns = t;
        }
        self.uncommitted.clear();
        t
    }

    /// Perform one I/O on a sync engine; returns the clock at its completion.
    fn issue_sync(&mut self, slot: u32) -> u64 {
        self.draw_prio(slot);
        let s = &self.slots[slot as usize];
        let io = IoUnit {
            slot,
            file: s.file,
            op: s.op,
            offset: s.offset,
            len: s.len,
            buf: self.bufs.ptr(slot),
            prio: s.prio,
        };
        self.res.depth.level[0] += 1;
        let t0 = sys::now_ns();
        let r = match self.engine.queue(&io) {
            Queued::Done(r) => r,
            // A sync engine never leaves I/O pending; reap it at once.
            Queued::Pending => self.reap_one(),
        };
        let t1 = sys::now_ns();
        if r == crate::engines::END_OF_STREAM {
            // The peer ended the stream: the job is done, this I/O did not happen.
            self.free.push(slot);
            self.done_issuing = true;
            return t1;
        }
        self.res.depth.submit[1] += 1;
        self.res.depth.complete[1] += 1;
        {
            let s = &mut self.slots[slot as usize];
            s.start_ns = t0;
            s.issue_ns = t0;
        }
        self.complete(slot, r, t1);
        self.free.push(slot);
        t1
    }

    /// Submit and reap the one I/O just queued; its result, or the submission or reaping error
    /// as a negative errno.
    pub(super) fn reap_one(&mut self) -> i64 {
        if let Err(e) = self.engine.commit() {
            return -(e.raw_os_error().unwrap_or(libc::EIO) as i64);
        }
        self.comps.clear();
        match self.engine.getevents(1, 1, &mut self.comps) {
            Ok(_) => self.comps.first().map_or(-(libc::EIO as i64), |c| c.result),
            Err(e) => -(e.raw_os_error().unwrap_or(libc::EIO) as i64),
        }
    }
}
