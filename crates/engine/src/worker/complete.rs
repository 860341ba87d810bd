//! Accounting one completion (bytes, latency histograms, log windows, verify bookkeeping) and
//! turning I/O errors into job errors or tolerated error counts (the job's error policy).

use super::Worker;
use crate::engines::Capabilities;
use crate::failure::JobFailure;
use crate::job::{Dir, ErrorClass};
use crate::note::Note;

/// Tolerated errors reported one by one per job at most (a dying device can fail millions).
const MAX_REPORTED: usize = 100_000;

impl Worker {
    /// Account one completion.
    #[inline]
    pub(super) fn complete(&mut self, slot: u32, result: i64, now: u64) {
        let s = &mut self.slots[slot as usize];
        let dir = s.dir;
        let d = dir.idx();
        let len = s.len as i64;
        let measured = self.measuring && s.measured;
        let issue = s.issue_ns;
        let start = s.start_ns;
        let prio_rec = s.prio_rec as usize;
        let prio = s.prio.unwrap_or(self.job_prio);
        s.start_ns = 0;
        s.issue_ns = 0;
        self.last_was_sync = false;
        if dir == Dir::Write {
            if let Some(v) = &mut self.verifier {
                v.on_write_complete(s.file, s.offset, s.len as u64, result >= 0);
                self.verify_due |= v.backlog_due();
            }
        }
        if result < 0 {
            let (file, offset, len) = (s.file, s.offset, s.len as u64);
            self.io_error(dir, file, offset, len, (-result) as i32);
            return;
        }
        // Latency limit and target: one compare (u64::MAX when neither is set).
        let lat = now.saturating_sub(start);
        if lat > self.lat_bound_ns[d] {
            self.latency_over(slot, lat);
        }
        if dir == Dir::Read && self.verifier.as_ref().is_some_and(|v| v.read_side) {
            self.verify_read(slot, result as usize);
        }
        let r = &mut self.res.dirs[dir];
        // An engine that moves nothing completes its I/Os with no bytes: not short.
        if result < len && !self.spec.ioengine.is_noio() {
            r.short_ios += 1;
        }
        if !measured {
            if !self.measuring {
                // In the ramp: counted, so a job that ends inside it keeps its I/O (as fio);
                // the measured phase starts these from zero.
                self.bytes[d] += result as u64;
                self.ios[d] += 1;
            }
            return;
        }
        self.bytes[d] += result as u64;
        self.ios[d] += 1;
        let st = &self.spec.stats;
        let clat = now.saturating_sub(issue);
        let slat = issue.saturating_sub(start);
        if self.one_stage {
            // No submission stage: lat equals clat, so one record serves both (copied in
            // `finish`).
            if !st.disable_clat {
                r.clat.add(clat);
            } else if !st.disable_lat {
                r.lat.add(lat);
            }
        } else {
            if !st.disable_clat {
                r.clat.add(clat);
            }
            if !st.disable_lat {
                r.lat.add(lat);
            }
            if !st.disable_slat {
                r.slat.add(slat);
            }
        }
        if let Some(p) = &self.prio {
            if let Some(rec) = r.prios.get_mut(prio_rec) {
                rec.lat.add(if p.total_latency { lat } else { clat });
            }
        }
        if let Some(w) = &mut self.log_window {
            w.add(d, result as u64, [slat, clat, lat]);
            if w.is_due(now, self.spec.logs.avg_msec) {
                self.flush_log_window(now, false);
            }
        } else if self.spec.logs.any() {
            let offset = self.slots[slot as usize].offset;
            self.log_per_io(dir, result as u64, [slat, clat, lat], now, offset, prio);
        }
        if let Some(h) = &self.hist_log {
            if now.saturating_sub(h.last_ns) >= h.period_ns {
                self.flush_hist_log(now);
            }
        }
    }

    #[cold]
    fn io_error(&mut self, dir: Dir, file: u32, offset: u64, len: u64, errno: i32) {
        if errno == libc::ENOSPC && dir == Dir::Write && self.spec.fill_device {
            // The device is full: what fill_device asked for. In-flight writes drain.
            if !self.done_issuing {
                self.res.notes.push(Note::DeviceFull {
                    job: self.spec.name.clone(),
                    path: self.files[file as usize].path.clone(),
                    written: self.bytes[dir.idx()],
                });
            }
            self.done_issuing = true;
            return;
        }
        let class = ErrorClass::of(dir, errno);
        let tolerate = self.spec.errors.tolerates(class, errno);
        if tolerate && self.spec.errors.report_each && self.res.notes.len() < MAX_REPORTED {
            self.res.notes.push(Note::IoError {
                job: self.spec.name.clone(),
                dir,
                path: self.files[file as usize].path.clone(),
                offset,
                len,
                errno,
            });
        }
        self.res.dirs[dir].errors += 1;
        // Errors are counted in a class that goes on after errors, the one that stops it too.
        if self.spec.errors.go_on[class as usize] {
            self.res.total_err += 1;
            if self.res.first_error == 0 {
                self.res.first_error = errno;
            }
        }
        let failure = JobFailure::Io {
            job: self.spec.name.clone(),
            dir,
            path: self.files[file as usize].path.clone(),
            offset,
            done: self.bytes[dir.idx()],
            errno,
        };
        if tolerate {
            if self.res.total_err == 1 {
                self.res.notes.push(Note::Tolerated { failure });
            }
        } else {
            self.fatal(errno, failure);
        }
    }

    pub(super) fn fatal(&mut self, errno: i32, failure: JobFailure) {
        if self.res.error == 0 {
            self.res.error = errno;
            self.res.failure = Some(failure);
        }
        self.error = true;
        self.done_issuing = true;
    }
}
