//! `openfiles`: at most N of the job's files open at once. The file chooser says which file
//! to open (picked while closed, with room under the limit) and which to close (finished its
//! pass); the worker opens a file before its first I/O and closes one once nothing is queued
//! or in flight, since the next open may reuse its descriptor number.

use super::queue_setup::open_job_file;
use super::Worker;
use crate::failure::{FlushPoint, JobFailure};
use std::os::fd::RawFd;

impl Worker {
    /// Open the files the chooser picked while closed. False when one could not be opened:
    /// the job has failed.
    #[inline]
    pub(super) fn open_picked(&mut self) -> bool {
        match self.file_chooser.open_files() {
            Some(l) if !l.to_open.is_empty() => self.open_now(),
            _ => true,
        }
    }

    #[cold]
    fn open_now(&mut self) -> bool {
        let Some(l) = self.file_chooser.open_files() else {
            return true;
        };
        let to_open = std::mem::take(&mut l.to_open);
        for fi in to_open {
            let i = fi as usize;
            if self.efiles[i].fd >= 0 {
                continue; // Still open: its close was pending.
            }
            let opened = open_job_file(&self.spec, &self.files[i], self.writes)
                .and_then(|fd| self.hand_to_engine(fi, fd).map(|()| fd));
            match opened {
                Ok(fd) => {
                    self.efiles[i].fd = fd;
                    if let Some(r) = &mut self.recorder {
                        r.file_event(crate::sys::now_ns(), fi, "open");
                    }
                }
                Err((errno, failure)) => {
                    self.fatal(errno, failure);
                    return false;
                }
            }
        }
        true
    }

    fn hand_to_engine(&mut self, fi: u32, fd: RawFd) -> Result<(), (i32, JobFailure)> {
        self.engine.set_file(fi, fd).map_err(|e| {
            close_fd(fd);
            let errno = crate::sys::errno_of(&e);
            let failure = JobFailure::Open {
                job: self.spec.name.clone(),
                path: self.files[fi as usize].path.clone(),
                errno,
                reason: e.to_string(),
            };
            (errno, failure)
        })
    }

    /// Whether finished files wait to be closed (the loop drains, then `close_finished`).
    #[inline]
    pub(super) fn closes_pending(&mut self) -> bool {
        self.file_chooser
            .open_files()
            .is_some_and(|l| !l.to_close.is_empty())
    }

    /// Close the files that finished their pass, with nothing queued or in flight. With
    /// `end_fsync` or `fsync_on_close` each is synced first: it will not be open at the end.
    #[cold]
    pub(super) fn close_finished(&mut self) {
        let Some(l) = self.file_chooser.open_files() else {
            return;
        };
        let to_close = std::mem::take(&mut l.to_close);
        for fi in to_close {
            let i = fi as usize;
            let fd = self.efiles[i].fd;
            self.file_chooser.closed();
            // Picked again since (a new pass): it stays open.
            if fd < 0 || self.file_chooser.is_open(i) {
                continue;
            }
            if (self.spec.end_fsync || self.spec.fsync_on_close) && self.writes {
                let when = if self.spec.fsync_on_close {
                    FlushPoint::Close
                } else {
                    FlushPoint::End
                };
                if !self.fsync_file(i, when) {
                    return;
                }
            }
            let _ = self.engine.set_file(fi, -1);
            close_fd(fd);
            self.efiles[i].fd = -1;
            if let Some(r) = &mut self.recorder {
                r.file_event(crate::sys::now_ns(), fi, "close");
            }
        }
    }

    /// Descriptors of every file for a verification pass: those open, and the closed ones
    /// opened for it (the second list; `close_for_verify` closes them). None when one could not
    /// be opened (the job has failed).
    pub(super) fn fds_for_verify(&mut self) -> Option<(Vec<RawFd>, Vec<RawFd>)> {
        let mut fds = Vec::with_capacity(self.efiles.len());
        let mut extra = Vec::new();
        for i in 0..self.efiles.len() {
            let fd = self.efiles[i].fd;
            if fd >= 0 || self.file_chooser.open_files().is_none() {
                fds.push(fd);
                continue;
            }
            match open_job_file(&self.spec, &self.files[i], self.writes) {
                Ok(fd) => {
                    fds.push(fd);
                    extra.push(fd);
                }
                Err((errno, failure)) => {
                    close_for_verify(&extra);
                    self.fatal(errno, failure);
                    return None;
                }
            }
        }
        Some((fds, extra))
    }
}

/// Close what `fds_for_verify` opened.
pub(super) fn close_for_verify(extra: &[RawFd]) {
    extra.iter().for_each(|&fd| close_fd(fd));
}

fn close_fd(fd: RawFd) {
    // SAFETY: `fd` was opened by the worker and is closed once, here.
    unsafe { libc::close(fd) };
}
