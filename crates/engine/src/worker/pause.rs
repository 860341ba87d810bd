//! Pauses in the I/O stream: fsync/fdatasync every N writes, fsync of every file at the end
//! (end_fsync, fsync_on_close, before verifying), think time, and sleeping until a deadline
//! (rate limiting).

use super::Worker;
use crate::engines::{IoUnit, Op, Queued};
use crate::sys;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

impl Worker {
    /// fsync (fsync=N) or fdatasync (fdatasync=N) every file, with nothing in flight.
    pub(super) fn do_sync(&mut self) {
        self.writes_since_sync = 0;
        let datasync = self.spec.fsync == 0;
        let op = if datasync { Op::Fdatasync } else { Op::Fsync };
        let measured = self.measuring;
        for fi in 0..self.efiles.len() {
            let Some(slot) = self.free.pop() else { return };
            let io = IoUnit {
                slot,
                file: fi as u32,
                op,
                offset: 0,
                len: 0,
                buf: self.bufs.ptr(slot),
            };
            let t0 = sys::now_ns();
            let r = match self.engine.queue(&io) {
                Queued::Done(r) => r,
                Queued::Pending => {
                    let _ = self.engine.commit();
                    self.comps.clear();
                    let _ = self.engine.getevents(1, 1, &mut self.comps);
                    self.comps.first().map_or(-(libc::EIO as i64), |c| c.result)
                }
            };
            let t1 = sys::now_ns();
            self.free.push(slot);
            if r < 0 {
                self.fatal(
                    (-r) as i32,
                    &format!(
                        "{}: fsync failed: {}",
                        self.spec.name,
                        std::io::Error::from_raw_os_error((-r) as i32)
                    ),
                );
                return;
            }
            if measured {
                self.res.sync.add(t1 - t0);
                self.res.sync_ios += 1;
            }
        }
    }

    /// thinktime: spin for thinktime_spin, then sleep for the rest.
    pub(super) fn think(&mut self) {
        self.blocks_since_think = 0;
        let spin = self.spec.thinktime_spin;
        let total = self.spec.thinktime;
        let t0 = sys::now_ns();
        let spin_ns = spin.as_nanos() as u64;
        while sys::now_ns() - t0 < spin_ns {
            std::hint::spin_loop();
        }
        let rest = total.saturating_sub(spin);
        if rest > Duration::ZERO {
            sleep_until(t0 + total.as_nanos() as u64, &self.stop);
        }
    }

    /// fsync every open file; a failure is a job error, reported like a failed fsync=N.
    /// Returns false when one failed.
    pub(super) fn fsync_files(&mut self, what: &str) -> bool {
        for i in 0..self.efiles.len() {
            let fd = self.efiles[i].fd;
            if fd < 0 {
                continue;
            }
            if let Err(e) = fsync_fd(fd) {
                let msg = format!(
                    "{}: {what}: fsync of {} failed: {e}",
                    self.spec.name,
                    self.efiles[i].path.display()
                );
                self.fatal(e.raw_os_error().unwrap_or(libc::EIO), &msg);
                return false;
            }
        }
        true
    }
}

/// fsync(2) on a descriptor the worker owns.
fn fsync_fd(fd: i32) -> std::io::Result<()> {
    // SAFETY: fsync takes no memory; `fd` is one of the worker's open descriptors.
    if unsafe { libc::fsync(fd) } == 0 {
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
