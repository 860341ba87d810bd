//! The posixaio engine: POSIX asynchronous I/O from the C library (`aio_read`, `aio_write`,
//! `aio_error`, `aio_return`, `aio_suspend`).
//!
//! One `aiocb` is kept per slot at a fixed address (the C library reads it while the request is
//! in flight). `queue` hands a read or write to the library at once, so `commit` only reports
//! how many were handed over since the last call. `getevents` polls the in-flight requests with
//! `aio_error`, takes the finished ones with `aio_return`, and when it has fewer than `min` waits
//! in `aio_suspend` on the unfinished ones. Fsync, fdatasync and trim are done synchronously in
//! `queue` (the worker drains all pending I/O before a sync op); a request the library refuses
//! with EAGAIN is retried after the oldest one finishes.

use super::sysio::{do_sync_op, sync_files, take_failed, SyncFile};
use super::{
    Completion, Engine, EngineDecl, EngineError, EngineFlags, EngineKind, EngineSetup, IoUnit, Op,
    Queued,
};
use std::io;
use std::os::fd::RawFd;

/// POSIX AIO from the C library.
pub(crate) const DECL: EngineDecl = EngineDecl {
    kind: EngineKind::PosixAio,
    flags: EngineFlags {
        sync: false,
        ..EngineFlags::FILE_IO
    },
    options: &[],
    create: |_, setup| Ok(Box::new(PosixAioEngine::new(setup)?)),
};

pub(crate) struct PosixAioEngine {
    /// One control block per slot; boxed so its address stays fixed while the request runs.
    cbs: Box<[libc::aiocb]>,
    /// The slot's request is with the C library.
    inflight: Box<[bool]>,
    /// Slots in flight, for the scan (order of submission).
    active: Vec<u32>,
    /// Requests handed over since the last commit.
    submitted: usize,
    /// Control blocks of unfinished requests for `aio_suspend`.
    waitlist: Vec<*const libc::aiocb>,
    /// Requests refused at submission, reported by the next getevents.
    failed: Vec<Completion>,
    files: Vec<SyncFile>,
}

// SAFETY: the control blocks are owned by this engine and only touched from the thread that owns
// it; the buffers they point at belong to the worker, which keeps them alive until completion.
unsafe impl Send for PosixAioEngine {}

impl PosixAioEngine {
    pub(crate) fn new(setup: &EngineSetup) -> Result<Self, EngineError> {
        let d = setup.depth.max(1) as usize;
        // SAFETY: aiocb is a plain C structure for which all-zero is a valid (idle) value.
        let zero: libc::aiocb = unsafe { std::mem::zeroed() };
        Ok(PosixAioEngine {
            cbs: vec![zero; d].into_boxed_slice(),
            inflight: vec![false; d].into_boxed_slice(),
            active: Vec::with_capacity(d),
            submitted: 0,
            waitlist: Vec::with_capacity(d),
            failed: Vec::with_capacity(d),
            files: sync_files(setup),
        })
    }

    /// Hands slot's prepared request to the library; the error number on refusal.
    fn submit(&mut self, slot: u32, write: bool) -> Result<(), i32> {
        let cb = &mut self.cbs[slot as usize] as *mut libc::aiocb;
        loop {
            // SAFETY: `cb` is this slot's control block, filled in by `queue`; it stays at this
            // address and untouched until its completion is taken.
            let r = unsafe {
                if write {
                    libc::aio_write(cb)
                } else {
                    libc::aio_read(cb)
                }
            };
            if r == 0 {
                return Ok(());
            }
            let e = io::Error::last_os_error()
                .raw_os_error()
                .unwrap_or(libc::EIO);
            if e != libc::EAGAIN || self.active.is_empty() {
                return Err(e);
            }
            // Out of library resources: wait for the oldest request, then try again.
            let oldest = &self.cbs[self.active[0] as usize] as *const libc::aiocb;
            // SAFETY: one live control block; a null timeout waits until it finishes.
            unsafe {
                libc::aio_suspend(&oldest, 1, std::ptr::null());
            }
        }
    }

    /// Moves finished requests (at most `max`) to `out`; fills the wait list with the others.
    fn scan(&mut self, max: usize, out: &mut Vec<Completion>) -> usize {
        self.waitlist.clear();
        let mut got = 0;
        let mut i = 0;
        while i < self.active.len() {
            let slot = self.active[i];
            let cb = &mut self.cbs[slot as usize];
            // SAFETY: a control block of a request in flight.
            let err = unsafe { libc::aio_error(cb) };
            if err == libc::EINPROGRESS || got >= max {
                self.waitlist.push(cb as *const libc::aiocb);
                i += 1;
                continue;
            }
            let result = if err == 0 {
                // SAFETY: the request finished; aio_return is called once for it.
                unsafe { libc::aio_return(cb) as i64 }
            } else {
                // SAFETY: as above; this releases the library's record of the request.
                unsafe {
                    libc::aio_return(cb);
                }
                -(err as i64)
            };
            self.inflight[slot as usize] = false;
            self.active.remove(i);
            out.push(Completion { slot, result });
            got += 1;
        }
        got
    }
}

impl Drop for PosixAioEngine {
    fn drop(&mut self) {
        // The library may still write into buffers and control blocks: wait for every request.
        while !self.active.is_empty() {
            let mut out = Vec::new();
            self.scan(usize::MAX, &mut out);
            if !self.waitlist.is_empty() {
                // SAFETY: the wait list holds live control blocks of this engine.
                unsafe {
                    libc::aio_suspend(
                        self.waitlist.as_ptr(),
                        self.waitlist.len() as libc::c_int,
                        std::ptr::null(),
                    );
                }
            }
        }
    }
}

impl Engine for PosixAioEngine {
    #[cfg(test)]
    fn name(&self) -> &'static str {
        "posixaio"
    }
    fn set_file(&mut self, file: u32, fd: RawFd) -> io::Result<()> {
        self.files[file as usize].fd = fd;
        Ok(())
    }
    fn is_sync(&self) -> bool {
        false
    }
    fn queue(&mut self, io: &IoUnit) -> Queued {
        let file = self.files[io.file as usize];
        let write = match io.op {
            Op::Read => false,
            Op::Write => true,
            Op::Fsync | Op::Fdatasync | Op::Trim => {
                return Queued::Done(do_sync_op(file, io.op, io.offset, io.len))
            }
        };
        let s = io.slot as usize;
        debug_assert!(!self.inflight[s]);
        // SAFETY: all-zero is a valid idle control block.
        let mut cb: libc::aiocb = unsafe { std::mem::zeroed() };
        cb.aio_fildes = file.fd;
        cb.aio_buf = io.buf as *mut libc::c_void;
        cb.aio_nbytes = io.len;
        cb.aio_offset = io.offset as libc::off_t;
        cb.aio_sigevent.sigev_notify = libc::SIGEV_NONE;
        self.cbs[s] = cb;
        match self.submit(io.slot, write) {
            Ok(()) => {
                self.inflight[s] = true;
                self.active.push(io.slot);
                self.submitted += 1;
            }
            Err(e) => self.failed.push(Completion {
                slot: io.slot,
                result: -(e as i64),
            }),
        }
        Queued::Pending
    }

    fn commit(&mut self) -> io::Result<usize> {
        Ok(std::mem::take(&mut self.submitted))
    }

    fn getevents(
        &mut self,
        min: usize,
        max: usize,
        out: &mut Vec<Completion>,
    ) -> io::Result<usize> {
        let max = max.max(min).max(1);
        let mut got = take_failed(&mut self.failed, max, out);
        loop {
            if got < max {
                got += self.scan(max - got, out);
            }
            if got >= min || got >= max || self.active.is_empty() {
                return Ok(got);
            }
            // SAFETY: the wait list holds the live control blocks of the unfinished requests.
            let r = unsafe {
                libc::aio_suspend(
                    self.waitlist.as_ptr(),
                    self.waitlist.len() as libc::c_int,
                    std::ptr::null(),
                )
            };
            if r != 0 {
                let e = io::Error::last_os_error();
                if e.raw_os_error() != Some(libc::EINTR) {
                    return Err(e);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::*;
    use super::super::{Engine, EngineOptions};
    use super::PosixAioEngine;

    #[test]
    fn write_read_verify_at_depths() {
        for base in bases() {
            let dir = TempDir::new_in(&base, "paio");
            let (_f, ef, direct) = open_file(dir.path(), "data", 256 * BS as u64);
            let files = [ef];
            let bufs = Buffers::new(16, BS);
            let opts = EngineOptions::default();
            let mut eng = PosixAioEngine::new(&setup(&files, &bufs.bufs, &opts, direct)).unwrap();
            assert!(!eng.is_sync());
            write_then_verify(&mut eng, &bufs, 256, 4, 16, 21, false);
            write_then_verify(&mut eng, &bufs, 256, 16, 16, 22, true);
        }
    }
}
