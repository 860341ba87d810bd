//! The worker's side of data verification: verify_only (writes accounted, not done), inline
//! checks every verify_backlog writes, the read-back after the write phase, and turning bad
//! blocks into job errors.

use super::open_files::close_for_verify;
use super::Worker;
use crate::engines::Capabilities;
use crate::failure::{BadBlock, FlushPoint, JobFailure};
use crate::job::{Dir, ErrorClass};
use crate::note::Note;
use crate::targets;
use crate::verifier::ReadBack;
use std::sync::atomic::Ordering;

impl Worker {
    /// The slot holds a write that verify_only skips.
    pub(super) fn verify_only_write(&self, slot: u32) -> bool {
        self.slots[slot as usize].dir == Dir::Write
            && self.verifier.as_ref().is_some_and(|v| v.only)
    }

    /// verify_only: account the write as if it happened, without doing it.
    pub(super) fn skip_write(&mut self, slot: u32) {
        let s = &self.slots[slot as usize];
        let (file, offset, len) = (s.file, s.offset, s.len as u64);
        if let Some(v) = &mut self.verifier {
            // The write was stamped when it was prepared; it completes at once.
            v.on_write_complete(file, offset, len, true);
        }
        self.verify_due = false;
        self.free.push(slot);
    }

    /// The slot holds a read that a record of an earlier job's writes puts past their end:
    /// the read-back stops there.
    pub(super) fn read_back_ends(&self, slot: u32) -> bool {
        let s = &self.slots[slot as usize];
        s.dir == Dir::Read
            && self
                .verifier
                .as_ref()
                .is_some_and(|v| v.read_side && v.read_back_ends(s.file, s.offset))
    }

    /// verify_backlog: check the blocks written since the last check (nothing in flight).
    pub(super) fn verify_backlog(&mut self) {
        self.verify_due = false;
        let Some(mut v) = self.verifier.take() else {
            return;
        };
        let Some((fds, extra)) = self.fds_for_verify() else {
            self.verifier = Some(v);
            return;
        };
        // Called with no I/O in flight: slot 0's buffer is free to read into.
        let len = self.bufs.len();
        let before = self.verify_reads_before();
        let buf = self.bufs.slot_mut(0, len);
        let mut rb = if self.spec.ioengine.is_remote() {
            ReadBack::Engine(&mut *self.engine)
        } else {
            ReadBack::Fds(&fds)
        };
        let go_on = v.check_pending(&mut rb, &self.files, buf, &mut self.res.dirs.read);
        close_for_verify(&extra);
        self.count_verify_reads(before);
        self.verifier = Some(v);
        if !go_on {
            self.verify_failed();
        }
    }

    /// Whether each pass's writes are read back and checked when the pass ends, before the
    /// next (fio's verify phase after each pass): a job that writes and verifies and may make
    /// several passes (`loops`, an `io_size` past its size).
    pub(super) fn verifies_each_pass(&self) -> bool {
        self.amount.passes_may_repeat()
            && !self.spec.time_based
            && self.spec.writes()
            && self
                .spec
                .verify
                .as_ref()
                .is_some_and(|s| s.do_verify && !s.only)
    }

    /// The verify phase of a pass that another may follow (nothing in flight): every block
    /// written so far is read back and checked, and then counts as checked; bad blocks end the
    /// job as at the end.
    pub(super) fn verify_pass(&mut self) {
        let before = self.res.dirs.read.io_bytes;
        self.read_back_written();
        self.pass_verified = true;
        self.pass_verify_bytes += self.res.dirs.read.io_bytes.saturating_sub(before);
        if let Some(v) = &mut self.verifier {
            v.all_checked();
            if v.result.bad_blocks > 0 {
                self.verify_failed();
            }
        }
    }

    /// do_verify: read back and check everything written, after the write phase (unless the
    /// last pass's own verify phase did).
    pub(super) fn verify_at_end(&mut self) {
        if !self.pass_verified {
            self.read_back_written();
        }
        self.verify_failed();
    }

    /// Read back and check every block written and not checked yet (nothing in flight).
    fn read_back_written(&mut self) {
        let Some(mut v) = self.verifier.take() else {
            return;
        };
        let do_verify = self
            .spec
            .verify
            .as_ref()
            .is_some_and(|s| s.do_verify || s.only);
        let fds = if do_verify && !self.error && !self.stop.load(Ordering::Relaxed) {
            self.fds_for_verify()
        } else {
            None
        };
        if let Some((fds, extra)) = fds {
            if !v.only && !self.spec.direct {
                // Read back from the device where the OS allows it, not from the page cache.
                if self.fsync_fds(&fds, FlushPoint::BeforeVerify) {
                    for (&fd, f) in fds.iter().zip(&self.efiles) {
                        if fd >= 0 {
                            // Best effort: what stays cached is read from the cache.
                            let _ = targets::invalidate_cache(fd, f.is_block);
                        }
                    }
                }
            }
            // No I/O in flight any more: slot 0's buffer is free to read into.
            let len = self.bufs.len();
            let before = self.verify_reads_before();
            let buf = self.bufs.slot_mut(0, len);
            let mut rb = if self.spec.ioengine.is_remote() {
                ReadBack::Engine(&mut *self.engine)
            } else {
                ReadBack::Fds(&fds)
            };
            v.check_all(
                &mut rb,
                &self.files,
                buf,
                &mut self.res.dirs.read,
                &self.stop,
            );
            close_for_verify(&extra);
            self.count_verify_reads(before);
        }
        self.verifier = Some(v);
    }

    /// Read-side verification (a job that only reads, with verify=): check the blocks of a
    /// completed read against the headers stored with them.
    pub(super) fn verify_read(&mut self, slot: u32, len: usize) {
        let Some(mut v) = self.verifier.take() else {
            return;
        };
        let s = &self.slots[slot as usize];
        let (file, offset) = (s.file, s.offset);
        let data = self.bufs.slot_mut(slot, len);
        let go_on = v.on_read_complete(&self.files, file, offset, data);
        self.verifier = Some(v);
        if !go_on {
            self.verify_failed();
        }
    }

    fn verify_reads_before(&self) -> (u64, u64) {
        let r = &self.res.dirs.read;
        (r.io_bytes, r.total_ios)
    }

    /// Verification reads count as reads, as in fio: the verifier adds them to the read
    /// record; the worker's byte and I/O counters (which the totals come from) follow.
    fn count_verify_reads(&mut self, (bytes, ios): (u64, u64)) {
        let r = &self.res.dirs.read;
        let d = Dir::Read.idx();
        self.bytes[d] += r.io_bytes.saturating_sub(bytes);
        self.ios[d] += r.total_ios.saturating_sub(ios);
    }

    /// Turn bad blocks into a job error (or a tolerated error count) and record the findings.
    fn verify_failed(&mut self) {
        let Some(v) = &self.verifier else {
            return;
        };
        let mut r = v.result.clone();
        r.progress = v.progress();
        if r.bad_blocks > 0 && self.res.verify.is_none() {
            let tolerate = self.spec.errors.tolerates(ErrorClass::Check, libc::EILSEQ);
            let failure = JobFailure::Verify {
                job: self.spec.name.clone(),
                bad_blocks: r.bad_blocks,
                checked: r.blocks_checked,
                first: r.failures.first().map(|f| BadBlock {
                    file: f.file.clone(),
                    offset: f.offset,
                    reason: f.message.clone(),
                }),
            };
            if tolerate {
                self.res.total_err += r.bad_blocks;
                if self.res.first_error == 0 {
                    self.res.first_error = libc::EILSEQ;
                }
                self.res.notes.push(Note::Tolerated { failure });
            } else {
                self.fatal(libc::EILSEQ, failure);
            }
        }
        self.res.verify = Some(r);
    }
}
