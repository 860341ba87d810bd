//! Picking the next I/O: direction (rwmixread, trimwrite), file (file_service_type), block size,
//! offset (sequential, random, `rw=randread:N` runs, percentage_random), the amount and loop
//! limits and the rate schedule.

use super::amount::AfterPass;
use super::buffers::{fill_buffer, scramble};
use super::Worker;
use crate::engines::Capabilities;
use crate::engines::Op;
use crate::job::{Dir, RateProcess, RwMode, TraceAct};
use std::time::Duration;

/// What the issue loop does next.
/// What the worker does with its queue drained.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Pause {
    /// An fsync/fdatasync is due.
    Sync,
    /// Think time is due.
    Think,
    /// An inline verification (verify_backlog) is due.
    Verify,
    /// Flow control holds the job back (it sleeps when it has a sleep time).
    Flow,
    /// Files that finished their pass are to be closed (`openfiles`).
    CloseFiles,
    /// The pass ended: what it wrote is read back and checked before the next one.
    PassVerify,
}

pub(super) enum Next {
    Io(u32),
    /// Nothing may be issued before this time (rate limiting).
    Wait(u64),
    /// Something to do once nothing is queued or in flight.
    Drained(Pause),
    /// No more I/O to issue.
    Done,
}

impl Worker {
    /// Pick the next I/O: direction, file, size, offset.
    pub(super) fn prepare_next(&mut self, now: u64) -> Next {
        if self.replay.is_some() {
            return self.next_replayed(now);
        }
        if self.closes_pending() {
            return Next::Drained(Pause::CloseFiles);
        }
        if let Some(next) = self.amount_reached() {
            return next;
        }
        if let Some(pause) = self.pause_due() {
            return Next::Drained(pause);
        }
        if self.access.is_some() {
            return self.prepare_mixed(now);
        }
        let mut dir = self.pick_dir();
        // Rate limiting: wait until this direction's next issue time; a mixed job ahead of its
        // rate in one direction issues in the other if that one is behind, else waits for
        // whichever is due first (as fio does).
        if self.next_issue_ns[dir.idx()] > now {
            match self.rate_switch(dir, now) {
                Ok(d) => dir = d,
                Err(until) => return Next::Wait(until),
            }
        }
        if dir == Dir::Write {
            if let Some((file, offset, len)) = self.pair_write {
                // trimwrite: the write of the block just trimmed (a slot is free: the loop
                // only asks for an I/O when one is).
                let Some(slot) = self.free.pop() else {
                    return Next::Wait(now);
                };
                self.pair_write = None;
                return self.load_slot(slot, dir, file, offset, len, now);
            }
        }
        if let Some(z) = &self.zbd {
            dir = z.direction(dir);
        }
        let bs = self.pick_bs(dir);
        let Some((file, offset)) = self.pick_offset(dir, bs) else {
            return self.pass_ended(dir, bs, now);
        };
        if self.zbd.is_some() {
            return self.fill_zoned(dir, file, offset, bs, now);
        }
        self.fill_slot(dir, file, offset, bs, now)
    }

    /// Load an I/O drawn at `offset` where the emulated zones place it; the job ends when
    /// they place it nowhere (no zone to write, or no data to read), as fio's does.
    #[cold]
    fn fill_zoned(&mut self, dir: Dir, file: u32, offset: u64, bs: u64, now: u64) -> Next {
        let Some(z) = self.zbd.as_mut() else {
            return Next::Done;
        };
        let granted = self.gens[file as usize].granted();
        let len = bs.min(granted).max(1);
        match z.place(file, dir, offset, len) {
            crate::zbd::Placed::End => Next::Done,
            crate::zbd::Placed::Io { offset, len } => {
                let Some(slot) = self.free.pop() else {
                    return Next::Wait(now);
                };
                let len = (len as usize).min(self.bufs.len());
                // The sequential stream goes on from where the I/O landed.
                self.gens[file as usize].continue_at(dir, offset + len as u64);
                self.load_slot(slot, dir, file, offset, len, now)
            }
        }
    }

    /// The amount limits (see [`Amount`]): `Done` once the job issued its bytes or
    /// `number_ios`; at a pass's bytes, the next pass starts (`openfiles` first closes the
    /// files) or the job ends.
    #[inline]
    fn amount_reached(&mut self) -> Option<Next> {
        if self.spec.time_based {
            return self.amount.ios_done(self.issued_ios).then_some(Next::Done);
        }
        if self.amount.job_done(self.issued_total, self.issued_ios) {
            return Some(Next::Done);
        }
        if self.issued_bytes >= self.amount.pass_cap {
            return self.end_pass();
        }
        None
    }

    /// A pass ended: its verify phase first when passes are verified one by one (fio verifies
    /// after each pass), then the next pass (None: pick the next I/O in it), or the job's end.
    fn end_pass(&mut self) -> Option<Next> {
        if !self.pass_verified && self.verifies_each_pass() {
            return Some(Next::Drained(Pause::PassVerify));
        }
        self.loops_done += 1;
        let after = self.amount.after_pass(
            self.loops_done,
            self.issued_bytes,
            self.issued_total,
            self.issued_total + self.pass_verify_bytes,
            self.issued_ios,
        );
        if after == AfterPass::Done {
            return Some(Next::Done);
        }
        self.pass_verified = false;
        self.issued_bytes = 0;
        self.reset_passes(false);
        if self.closes_pending() {
            // `openfiles`: the files are closed between passes, before the next I/O.
            return Some(Next::Drained(Pause::CloseFiles));
        }
        None
    }

    /// What is left of the pass's and the job's bytes.
    #[inline]
    pub(super) fn bytes_left(&self) -> u64 {
        let pass = self.amount.pass_cap.saturating_sub(self.issued_bytes);
        let job = self.amount.issue_limit().saturating_sub(self.issued_total);
        pass.min(job)
    }

    /// What must happen with the queue drained before the next I/O: a sync, think time, an
    /// inline verification, or flow control holding the job back.
    #[inline]
    fn pause_due(&self) -> Option<Pause> {
        if self.sync_due() {
            return Some(Pause::Sync);
        }
        if self.spec.thinktime > Duration::ZERO
            && self.blocks_since_think >= self.spec.thinktime_blocks.max(1)
        {
            return Some(Pause::Think);
        }
        if self.verify_due {
            return Some(Pause::Verify);
        }
        // Flow control: held back while ahead of the job's share of its flow.
        if self.flow.as_ref().is_some_and(|f| f.held_back()) {
            return Some(Pause::Flow);
        }
        None
    }

    /// The next block size in `dir`, cut to what is left of the loop's amount.
    #[inline(always)]
    fn pick_bs(&mut self, dir: Dir) -> u64 {
        let mut bs = self.bs[dir].pick(&mut self.rng);
        if !self.spec.time_based {
            let left = self.bytes_left();
            if left < bs {
                bs = left.max(self.spec.min_bs().min(left).max(1));
            }
        }
        bs
    }

    /// No offset for a block of `bs` in `dir`: every file finished its pass (or, with
    /// `openfiles`, the files open did). Close files, go round again (time based) or start the
    /// next loop, and pick the I/O there; `Done` when nothing is left.
    #[inline]
    fn pass_ended(&mut self, dir: Dir, bs: u64, now: u64) -> Next {
        if self.closes_pending() {
            // `openfiles`: the files left open once finished ones are closed.
            return Next::Drained(Pause::CloseFiles);
        }
        // Every file finished its pass.
        if self.spec.time_based {
            self.reset_passes(true);
            match self.pick_offset(dir, bs) {
                Some(x) => return self.fill_slot(dir, x.0, x.1, bs, now),
                None if self.closes_pending() => return Next::Drained(Pause::CloseFiles),
                None => return Next::Done,
            }
        }
        if let Some(next) = self.end_pass() {
            return next;
        }
        // The new loop's first I/O is drawn in the new loop (direction and size: the ones
        // drawn for the last loop's remainder, less than a block, are dropped as fio ends
        // the loop there).
        let dir = self.pick_dir();
        let bs = self.bs[dir].pick(&mut self.rng);
        match self.pick_offset(dir, bs) {
            Some(x) => self.fill_slot(dir, x.0, x.1, bs, now),
            None if self.closes_pending() => Next::Drained(Pause::CloseFiles),
            None => Next::Done,
        }
    }

    pub(super) fn fill_slot(
        &mut self,
        dir: Dir,
        file: u32,
        offset: u64,
        bs: u64,
        now: u64,
    ) -> Next {
        let Some(slot) = self.free.pop() else {
            return Next::Wait(now);
        };
        // Clamp to the region end (variable block sizes at the tail) and to what the random
        // map grants (blocks already done this pass).
        let f = &self.files[file as usize];
        let end = f.region_start + f.region_len;
        let granted = self.gens[file as usize].granted();
        let len = bs.min(end.saturating_sub(offset)).min(granted).max(1) as usize;
        let len = len.min(self.bufs.len());
        if dir == Dir::Trim && self.spec.rw.is_trimwrite() {
            self.pair_write = Some((file, offset, len));
        }
        self.load_slot(slot, dir, file, offset, len, now)
    }

    /// Load the free `slot` with an I/O of `len` bytes at `offset` of `file`: its write data,
    /// the counters, the trace record and the rate schedule.
    pub(super) fn load_slot(
        &mut self,
        slot: u32,
        dir: Dir,
        file: u32,
        offset: u64,
        len: usize,
        now: u64,
    ) -> Next {
        // The slot is free: no I/O is in flight on its buffer.
        if dir == Dir::Write && self.verifier.is_some() {
            let buf = self.bufs.slot_mut(slot, len);
            if let Some(v) = &mut self.verifier {
                v.on_write_issue(file, offset, buf);
            }
        } else if dir == Dir::Write
            && (self.spec.buffers.refill_buffers || self.spec.buffers.scramble_buffers)
        {
            let buf = self.bufs.slot_mut(slot, len);
            if let Some(d) = &mut self.dedupe {
                d.fill(&self.spec, buf);
            } else if self.spec.buffers.refill_buffers {
                fill_buffer(&self.spec, buf, &mut self.data_rng);
            } else if !self.spec.buffers.zero_buffers && self.spec.buffers.pattern.is_none() {
                scramble(buf, offset, self.issued_ios);
            }
        }
        let op = if self.spec.ioengine.is_metadata() {
            dir_op(Dir::Read)
        } else {
            dir_op(dir)
        };
        let s = &mut self.slots[slot as usize];
        s.dir = dir;
        s.op = op;
        s.file = file;
        s.offset = offset;
        s.len = len;
        s.start_ns = 0;
        s.issue_ns = 0;
        s.measured = self.measuring;
        // trimwrite: a trim and its write count once in the job's amount (as the write).
        if !(dir == Dir::Trim && self.spec.rw.is_trimwrite()) {
            self.issued_bytes += len as u64;
            self.issued_total += len as u64;
            self.issued_ios += 1;
        }
        self.res.issued[dir] += 1;
        self.mix.count(dir);
        if let Some(f) = &mut self.flow {
            f.passed();
        }
        if dir == Dir::Write {
            self.writes_issued += 1;
        }
        self.blocks_since_think += 1;
        if let Some(r) = &mut self.recorder {
            r.io(now, file, TraceAct::of_dir(dir).word(), offset, len as u64);
        }
        // Rate schedule.
        let r = &self.spec.rate;
        let d = dir.idx();
        let by_bytes = (len as u128 * 1_000_000_000)
            .checked_div(r.bps[dir] as u128)
            .unwrap_or(0) as u64;
        let by_ios = 1_000_000_000u64.checked_div(r.iops[dir]).unwrap_or(0);
        let gap = by_bytes.max(by_ios);
        if gap > 0 {
            let gap = match r.process {
                RateProcess::Linear => gap,
                RateProcess::Poisson => (self.rng.exp(gap as f64)) as u64,
            };
            let base = if self.next_issue_ns[d] == 0 {
                now
            } else {
                self.next_issue_ns[d]
            };
            self.next_issue_ns[d] = base + gap;
        }
        Next::Io(slot)
    }

    /// `dir` is ahead of its rate: the direction to issue now, or the time to wait until.
    #[cold]
    fn rate_switch(&mut self, dir: Dir, now: u64) -> Result<Dir, u64> {
        if !self.spec.rw.is_mixed() || dir == Dir::Trim {
            return Err(self.next_issue_ns[dir.idx()]);
        }
        let other = if dir == Dir::Read {
            Dir::Write
        } else {
            Dir::Read
        };
        if self.mix.share(other) == 0 {
            self.mix.switch_to(dir, true);
            return Err(self.next_issue_ns[dir.idx()]);
        }
        let (due, other_due) = (
            self.next_issue_ns[dir.idx()],
            self.next_issue_ns[other.idx()],
        );
        if other_due <= now {
            self.mix.switch_to(other, false);
            return Ok(other);
        }
        let (first, until) = if due <= other_due {
            (dir, due)
        } else {
            (other, other_due)
        };
        self.mix.switch_to(first, true);
        Err(until)
    }

    fn pick_dir(&mut self) -> Dir {
        match self.spec.rw {
            RwMode::Read | RwMode::RandRead => Dir::Read,
            RwMode::Write | RwMode::RandWrite => Dir::Write,
            RwMode::Trim | RwMode::RandTrim => Dir::Trim,
            RwMode::ReadWrite | RwMode::RandRw => self.mix.choose(),
            // A trim, then the write of the same block.
            RwMode::TrimWrite | RwMode::RandTrimWrite => {
                if self.pair_write.is_some() {
                    Dir::Write
                } else {
                    Dir::Trim
                }
            }
        }
    }

    /// The next I/O's file and offset; None once every file finished its pass.
    #[inline]
    fn pick_offset(&mut self, dir: Dir, bs: u64) -> Option<(u32, u64)> {
        let gens = &mut self.gens;
        let next = self
            .file_chooser
            .next(&mut self.rng, |fi, rng| gens[fi].next(dir, bs, rng));
        next.filter(|_| self.open_picked())
    }

    /// fsync=N / fdatasync=N, by fio's rule: a sync is due whenever the writes issued so far
    /// are a multiple of N (and not zero) and the last I/O to complete was not a sync. So
    /// the reads of a mixed job that follow the Nth write each get a sync too, until the next
    /// write, as in fio (randrw with fsync=4 issues about twice the syncs of randwrite).
    /// With both set, either count makes a sync due (an fsync when fsync=N's is).
    #[inline]
    fn sync_due(&self) -> bool {
        let w = self.writes_issued;
        let due = |every: u64| every > 0 && w % every == 0;
        !self.last_was_sync
            && w > 0
            && (due(self.spec.fsync) || due(self.spec.fdatasync))
            && self.spec.rw.has_write()
    }

    /// Start a new pass over every file: a new loop, or (`time_wrap`) a time-based run going
    /// round again. As fio does with invalidate=1, each file's cached pages are dropped at the
    /// start of every pass, not only when it is opened, so a buffered run keeps measuring the
    /// device rather than the page cache: at every loop (fio reopens the files), and at every
    /// wrap of a buffered time-based run.
    /// With `randrepeat` (and no `randseed`: fio then seeds nothing again), a new loop
    /// draws the first loop's offsets, sizes and files again, as fio seeds its streams again.
    pub(super) fn reset_passes(&mut self, time_wrap: bool) {
        match self.loop_start.as_deref().filter(|_| !time_wrap) {
            Some((gens, rng)) => {
                self.gens.clone_from(gens);
                self.rng = rng.clone();
                self.file_chooser.restart();
            }
            None => self.gens.iter_mut().for_each(|g| g.reset()),
        }
        if !time_wrap {
            self.mix.new_loop(self.spec.randrepeat);
            self.last_was_sync = false;
        }
        self.file_chooser.reset(!time_wrap);
        if let Some(z) = &mut self.zbd {
            z.new_pass(self.writes);
        }
        if self.spec.invalidate && !(time_wrap && self.spec.direct) {
            for (f, ef) in self.files.iter().zip(&self.efiles) {
                if ef.fd >= 0 && !f.is_char {
                    // Best effort, as at open: a cache that stays only makes I/O faster.
                    let _ = crate::targets::invalidate_cache(ef.fd, ef.is_block);
                }
            }
        }
    }
}

fn dir_op(d: Dir) -> Op {
    match d {
        Dir::Read => Op::Read,
        Dir::Write => Op::Write,
        Dir::Trim => Op::Trim,
    }
}
