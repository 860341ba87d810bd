//! Pauses in the I/O stream: fsync/fdatasync every N writes, fsync of every file at the end
//! (end_fsync, fsync_on_close, before verifying), think time, and sleeping until a deadline
//! (rate limiting).

use super::pick::Pause;
use super::Worker;
use crate::engines::{IoUnit, Op, Queued};
use crate::failure::{FlushPoint, JobFailure};
use crate::job::TraceAct;
use crate::sys;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

impl Worker {
    /// Do what waited for the queue to drain.
    pub(super) fn pause(&mut self, pause: Pause) {
        match pause {
            Pause::Sync => self.do_sync(),
            Pause::Think => self.think(),
            Pause::Verify => self.verify_backlog(),
            Pause::Flow => self.flow_pause(),
            Pause::CloseFiles => self.close_finished(),
            Pause::PassVerify => self.verify_pass(),
        }
    }

    /// fsync (fsync=N) or fdatasync (fdatasync=N) of one file, with nothing in flight.
    pub(super) fn do_sync(&mut self) {
        // As in fio, the sync counts as completed even when no file could take it, so the
        // job goes on to the I/O that ends the pass.
        self.last_was_sync = true;
        // A replayed sync names its file; fsync=N / fdatasync=N sync the file whose turn it
        // is (fio gives the sync a turn of file_service_type, as an I/O), fsync when both are
        // due.
        let (files, datasync) = match self.replay.as_mut().and_then(|c| c.pending_sync.take()) {
            Some((f, datasync)) => (f as usize..f as usize + 1, datasync),
            None => {
                let fsync = self.spec.fsync > 0 && self.writes_issued % self.spec.fsync == 0;
                match self.sync_file() {
                    Some(f) => (f..f + 1, !fsync),
                    None => return,
                }
            }
        };
        let op = if datasync { Op::Fdatasync } else { Op::Fsync };
        let measured = self.measuring;
        for fi in files {
            if self.efiles[fi].fd < 0 && self.file_chooser.open_files().is_some() {
                continue; // Closed under `openfiles`: synced, if asked, when it was closed.
            }
            if let Some(r) = &mut self.recorder {
                let word = if datasync {
                    TraceAct::Datasync
                } else {
                    TraceAct::Sync
                };
                r.io(sys::now_ns(), fi as u32, word.word(), 0, 0);
            }
            let Some(slot) = self.free.pop() else { return };
            let io = IoUnit {
                slot,
                file: fi as u32,
                op,
                offset: 0,
                len: 0,
                buf: self.bufs.ptr(slot),
                prio: None,
            };
            let t0 = sys::now_ns();
            let r = match self.engine.queue(&io) {
                Queued::Done(r) => r,
                Queued::Pending => self.reap_one(),
            };
            let t1 = sys::now_ns();
            self.free.push(slot);
            if r < 0 {
                let errno = (-r) as i32;
                let job = self.spec.name.clone();
                self.fatal(errno, JobFailure::Fsync { job, errno });
                return;
            }
            if measured {
                self.res.sync.add(t1 - t0);
                self.res.sync_ios += u64::from(!datasync);
            }
        }
    }

    /// The file of an fsync=N / fdatasync=N sync: the next turn of the file chooser (opened
    /// first under an `openfiles` limit); None when no file is left in this pass.
    fn sync_file(&mut self) -> Option<usize> {
        let next = self.file_chooser.next(&mut self.rng, |_, _| Some(0));
        next.filter(|_| self.open_picked()).map(|(f, _)| f as usize)
    }

    /// thinktime: spin for thinktime_spin, then sleep for the rest.
    pub(super) fn think(&mut self) {
        self.blocks_since_think = 0;
        let spin = self.spec.thinktime_spin;
        let total = self.engine.think_time().unwrap_or(self.spec.thinktime);
        let t0 = sys::now_ns();
        let spin_ns = spin.as_nanos() as u64;
        let spin_end = (t0 + spin_ns).min(self.next_deadline());
        while sys::now_ns() < spin_end && !self.stop.load(Ordering::Relaxed) {
            std::hint::spin_loop();
        }
        let rest = total.saturating_sub(spin);
        if rest > Duration::ZERO {
            self.wait_until(t0 + total.as_nanos() as u64);
        }
    }

    /// The next moment the worker must be awake: the end of the ramp while ramping, the end
    /// of the runtime while measuring (u64::MAX when there is none).
    fn next_deadline(&self) -> u64 {
        if self.measuring {
            self.end_ns
        } else {
            self.ramp_end_ns
        }
    }

    /// Sleep until `until`, but never past the next deadline (ramp end or runtime end) and never
    /// after the stop flag is set: a wait for a rate token or a think time that lies beyond the
    /// end of the run ends with the run.
    pub(super) fn wait_until(&mut self, until: u64) {
        sleep_until(until.min(self.next_deadline()), &self.stop);
    }

    /// Flow control held the job back (nothing in flight): sleep the flow's sleep time, or
    /// with none only let the other threads run before the next try.
    #[cold]
    pub(super) fn flow_pause(&mut self) {
        let sleep = self.spec.flow.sleep;
        if sleep.is_zero() {
            std::hint::spin_loop();
        } else {
            self.wait_until(sys::now_ns() + sleep.as_nanos() as u64);
        }
    }

    /// fsync every open file; a failure is a job error, reported like a failed fsync=N.
    /// Returns false when one failed.
    pub(super) fn fsync_files(&mut self, when: FlushPoint) -> bool {
        let fds: Vec<i32> = self.efiles.iter().map(|f| f.fd).collect();
        self.fsync_fds(&fds, when)
    }

    /// fsync file `i` (open); false when it failed (the job has failed).
    pub(super) fn fsync_file(&mut self, i: usize, when: FlushPoint) -> bool {
        let mut fds = vec![-1; self.efiles.len()];
        fds[i] = self.efiles[i].fd;
        self.fsync_fds(&fds, when)
    }

    /// fsync the descriptors of `fds` (one per file, -1 for a file not open).
    pub(super) fn fsync_fds(&mut self, fds: &[i32], when: FlushPoint) -> bool {
        for (i, &fd) in fds.iter().enumerate() {
            if fd < 0 {
                continue;
            }
            if let Err(e) = fsync_fd(fd, self.spec.end_sync_data_only) {
                let errno = e.raw_os_error().unwrap_or(libc::EIO);
                let failure = JobFailure::FlushFile {
                    job: self.spec.name.clone(),
                    when,
                    path: self.efiles[i].path.clone(),
                    errno,
                };
                self.fatal(errno, failure);
                return false;
            }
        }
        true
    }
}

/// fsync(2) (or fdatasync(2), `data_only`) on a descriptor the worker owns.
fn fsync_fd(fd: i32, data_only: bool) -> std::io::Result<()> {
    // SAFETY: fsync and fdatasync take no memory; `fd` is one of the worker's descriptors.
    let r = unsafe {
        if data_only {
            libc::fdatasync(fd)
        } else {
            libc::fsync(fd)
        }
    };
    if r == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

/// Sleep until the monotonic clock reads `until` (ns), or until `stop` is set: in slices of at
/// most 50 ms while far away, halving the rest when close, spinning the last 50 us.
pub(super) fn sleep_until(until: u64, stop: &AtomicBool) {
    loop {
        let now = sys::now_ns();
        if now >= until || stop.load(Ordering::Relaxed) {
            return;
        }
        let left = until - now;
        if left > 2_000_000 {
            std::thread::sleep(Duration::from_nanos((left - 1_000_000).min(50_000_000)));
        } else if left > 50_000 {
            std::thread::sleep(Duration::from_nanos(left / 2));
        } else {
            std::hint::spin_loop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sleep_until_reaches_the_deadline() {
        let stop = AtomicBool::new(false);
        for wait_ns in [0u64, 30_000, 1_500_000, 5_000_000] {
            let t0 = sys::now_ns();
            let until = t0 + wait_ns;
            sleep_until(until, &stop);
            let t1 = sys::now_ns();
            assert!(t1 >= until, "woke {} ns early", until - t1);
            // Not much later than asked (generous: the machine may be busy).
            assert!(t1 - until < 50_000_000, "{} ns late", t1 - until);
        }
        // A deadline in the past returns at once.
        let t0 = sys::now_ns();
        sleep_until(t0.saturating_sub(1_000_000), &stop);
        assert!(sys::now_ns() - t0 < 10_000_000);
    }

    #[test]
    fn sleep_until_ends_on_stop() {
        let stop = AtomicBool::new(true);
        let t0 = sys::now_ns();
        sleep_until(t0 + 10_000_000_000, &stop);
        assert!(sys::now_ns() - t0 < 100_000_000);
        // Set while sleeping: noticed within one sleep slice (at most 50 ms).
        let stop = std::sync::Arc::new(AtomicBool::new(false));
        let s2 = stop.clone();
        let t = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(20));
            s2.store(true, Ordering::Relaxed);
        });
        let t0 = sys::now_ns();
        sleep_until(t0 + 10_000_000_000, &stop);
        t.join().unwrap();
        let took = sys::now_ns() - t0;
        assert!((20_000_000..1_000_000_000).contains(&took), "{took}");
    }

    #[test]
    fn fsync_fd_reports_errors() {
        assert!(fsync_fd(-1, false).is_err());
        assert!(fsync_fd(-1, true).is_err());
        let f = tempfile_in_tmp();
        assert!(fsync_fd(std::os::fd::AsRawFd::as_raw_fd(&f), false).is_ok());
        assert!(fsync_fd(std::os::fd::AsRawFd::as_raw_fd(&f), true).is_ok());
    }

    /// An anonymous file in the temporary directory (unlinked at once: nothing is left behind).
    fn tempfile_in_tmp() -> std::fs::File {
        let path = std::env::temp_dir().join(format!("iomark-pause-test-{}", std::process::id()));
        let f = std::fs::File::create(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        f
    }
}
