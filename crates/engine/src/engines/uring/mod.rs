//! The io_uring engine (io-uring crate, one ring per worker).
//!
//! `queue` writes an SQE (user_data = slot) into the submission ring without entering the kernel;
//! `commit` submits the batch with one `io_uring_enter`; `getevents` drains the completion ring in
//! user space and only enters the kernel when it must wait (or must run deferred task work).
//!
//! Setup flags are tried from the most to the least efficient, dropping each the kernel rejects
//! with EINVAL: COOP_TASKRUN + SINGLE_ISSUER + DEFER_TASKRUN, then COOP_TASKRUN, then none. A
//! SINGLE_ISSUER ring is created disabled and enabled on first use, so the thread that drives the
//! engine becomes its issuer even if another thread created it. With DEFER_TASKRUN (or IOPOLL
//! without SQPOLL) completions only appear after an enter with GETEVENTS, so a non-blocking reap
//! that finds the completion ring empty makes one such call with min_complete = 0.
//!
//! Fsync, fdatasync and trim are performed synchronously inside `queue` (the worker drains all
//! pending I/O before a sync op), exactly as on the libaio engine.

use super::sysio::{do_sync_op, sync_files, SyncFile};
use super::{
    Completion, Engine, EngineDecl, EngineError, EngineFlags, EngineKind, EngineOption,
    EngineSetup, IoUnit, Op, Queued,
};
use crate::note::Note;
use io_uring::{opcode, squeue, types, EnterFlags, IoUring};
use std::io;
use std::os::fd::RawFd;

mod setup;

use setup::{choose_rw_mode, first_ring, is_errno, register_files, LEVEL_DEFER};

/// io_uring.
pub(crate) const DECL: EngineDecl = EngineDecl {
    kind: EngineKind::IoUring,
    flags: EngineFlags {
        sync: false,
        ..EngineFlags::FILE_IO
    },
    options: &[
        EngineOption::Hipri,
        EngineOption::Fixedbufs,
        EngineOption::Registerfiles,
        EngineOption::SqthreadPoll,
        EngineOption::SqthreadPollCpu,
        EngineOption::Nonvectored,
        EngineOption::PrioPercent,
        EngineOption::PrioClass,
        EngineOption::PrioLevel,
        EngineOption::PrioBySize,
    ],
    create: |_, setup| Ok(Box::new(UringEngine::new(setup)?)),
};

/// How reads and writes are encoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RwMode {
    /// READ_FIXED / WRITE_FIXED on registered buffers (buf_index = slot).
    Fixed,
    /// IORING_OP_READ / WRITE.
    Plain,
    /// IORING_OP_READV / WRITEV with one iovec per slot.
    Vectored,
}

pub(crate) struct UringEngine {
    ring: IoUring,
    fds: Vec<RawFd>,
    files: Vec<SyncFile>,
    fixed_files: bool,
    mode: RwMode,
    iovecs: Box<[libc::iovec]>,
    /// False while a SINGLE_ISSUER ring waits to be enabled by the thread that uses it.
    enabled: bool,
    sqpoll: bool,
    /// Completions only show up after an enter with GETEVENTS (DEFER_TASKRUN, or IOPOLL).
    needs_enter: bool,
    #[cfg(test)]
    defer_taskrun: bool,
    /// SQEs queued since the last commit.
    since_commit: usize,
    notes: Vec<Note>,
}

// SAFETY: the iovec pointers refer to worker-owned buffers that the engine only hands to the
// kernel; the ring is owned by the engine and used by one thread at a time.
unsafe impl Send for UringEngine {}

#[inline]
fn yield_now() {
    // SAFETY: plain system call.
    unsafe {
        libc::sched_yield();
    }
}

/// Builds the read/write SQE for `$io` on target `$t` (a `types::Fd` or `types::Fixed`).
macro_rules! rw_entry {
    ($self:ident, $io:ident, $t:expr) => {{
        let len = $io.len as u32;
        let slot = $io.slot as usize;
        // The request's own priority; 0 leaves it to the thread's.
        let prio = $io.prio.unwrap_or(0);
        match ($self.mode, $io.op) {
            (RwMode::Fixed, Op::Read) => opcode::ReadFixed::new($t, $io.buf, len, $io.slot as u16)
                .offset($io.offset)
                .ioprio(prio)
                .build(),
            (RwMode::Fixed, _) => opcode::WriteFixed::new($t, $io.buf, len, $io.slot as u16)
                .offset($io.offset)
                .ioprio(prio)
                .build(),
            (RwMode::Plain, Op::Read) => opcode::Read::new($t, $io.buf, len)
                .offset($io.offset)
                .ioprio(prio)
                .build(),
            (RwMode::Plain, _) => opcode::Write::new($t, $io.buf, len)
                .offset($io.offset)
                .ioprio(prio)
                .build(),
            (RwMode::Vectored, op) => {
                $self.iovecs[slot] = libc::iovec {
                    iov_base: $io.buf.cast(),
                    iov_len: $io.len,
                };
                let iov: *const libc::iovec = &$self.iovecs[slot];
                if op == Op::Read {
                    opcode::Readv::new($t, iov, 1)
                        .offset($io.offset)
                        .ioprio(prio)
                        .build()
                } else {
                    opcode::Writev::new($t, iov, 1)
                        .offset($io.offset)
                        .ioprio(prio)
                        .build()
                }
            }
        }
    }};
}

impl UringEngine {
    pub(crate) fn new(setup: &EngineSetup) -> Result<Self, EngineError> {
        let depth = setup.depth.max(1);
        let (ring, level) = first_ring(depth, setup)?;
        let mut notes = Vec::new();

        let fds: Vec<RawFd> = setup.files.iter().map(|f| f.fd).collect();
        let fixed_files = register_files(&ring, &fds, setup, &mut notes);
        let mode = choose_rw_mode(&ring, setup, depth, &mut notes);

        let params = ring.params();
        let sqpoll = params.is_setup_sqpoll();
        let defer_taskrun = level == LEVEL_DEFER;
        let needs_enter = defer_taskrun || (params.is_setup_iopoll() && !sqpoll);
        Ok(UringEngine {
            fds,
            files: sync_files(setup),
            fixed_files,
            mode,
            iovecs: vec![
                libc::iovec {
                    iov_base: std::ptr::null_mut(),
                    iov_len: 0
                };
                depth as usize
            ]
            .into_boxed_slice(),
            enabled: !defer_taskrun,
            sqpoll,
            needs_enter,
            #[cfg(test)]
            defer_taskrun,
            since_commit: 0,
            notes,
            ring,
        })
    }

    /// Whether reads and writes use registered buffers.
    #[cfg(test)]
    pub(crate) fn fixed_buffers_active(&self) -> bool {
        self.mode == RwMode::Fixed
    }

    /// Whether SQEs refer to registered files.
    #[cfg(test)]
    pub(crate) fn fixed_files_active(&self) -> bool {
        self.fixed_files
    }

    /// Whether the ring runs with SINGLE_ISSUER + DEFER_TASKRUN.
    #[cfg(test)]
    pub(crate) fn defer_taskrun(&self) -> bool {
        self.defer_taskrun
    }

    #[inline]
    fn ensure_enabled(&mut self) -> io::Result<()> {
        if !self.enabled {
            self.ring.submitter().register_enable_rings()?;
            self.enabled = true;
        }
        Ok(())
    }

    /// Submits everything in the SQ, retrying transient failures.
    fn submit_all(&mut self) -> io::Result<()> {
        self.ensure_enabled()?;
        let mut tries = 0u32;
        loop {
            match self.ring.submit() {
                Ok(_) => {
                    if self.sqpoll || self.ring.submission().is_empty() {
                        return Ok(());
                    }
                }
                Err(e) if is_errno(&e, &[libc::EINTR]) => continue,
                Err(e) if is_errno(&e, &[libc::EAGAIN, libc::EBUSY]) => {
                    if tries > 100_000 {
                        return Err(e);
                    }
                }
                Err(e) => return Err(e),
            }
            tries += 1;
            yield_now();
        }
    }

    /// Moves up to `n` completions from the CQ to `out`.
    #[inline]
    fn drain(&mut self, n: usize, out: &mut Vec<Completion>) -> usize {
        let mut cq = self.ring.completion();
        let mut k = 0;
        while k < n {
            let Some(cqe) = cq.next() else { break };
            out.push(Completion {
                slot: cqe.user_data() as u32,
                result: cqe.result() as i64,
            });
            k += 1;
        }
        k
    }

    /// Enters the kernel to run completions and wait for `want` of them (0 = do not wait).
    fn enter_for_events(&mut self, want: usize) -> io::Result<()> {
        if want > 0 {
            return self.ring.submitter().submit_and_wait(want).map(|_| ());
        }
        let to_submit = if self.sqpoll {
            0
        } else {
            self.ring.submission().len() as u32
        };
        // SAFETY: no argument structure is passed.
        unsafe {
            self.ring.submitter().enter::<libc::sigset_t>(
                to_submit,
                0,
                EnterFlags::GETEVENTS.bits(),
                None,
            )
        }
        .map(|_| ())
    }
}

impl Engine for UringEngine {
    #[cfg(test)]
    fn name(&self) -> &'static str {
        "io_uring"
    }
    fn set_file(&mut self, file: u32, fd: RawFd) -> io::Result<()> {
        if self.fixed_files {
            self.ring.submitter().register_files_update(file, &[fd])?;
        }
        self.fds[file as usize] = fd;
        self.files[file as usize].fd = fd;
        Ok(())
    }
    fn is_sync(&self) -> bool {
        false
    }
    #[inline]
    fn queue(&mut self, io: &IoUnit) -> Queued {
        let entry: squeue::Entry = match io.op {
            Op::Read | Op::Write => {
                if self.fixed_files {
                    rw_entry!(self, io, types::Fixed(io.file))
                } else {
                    rw_entry!(self, io, types::Fd(self.fds[io.file as usize]))
                }
            }
            Op::Fsync | Op::Fdatasync | Op::Trim => {
                let f = self.files[io.file as usize];
                return Queued::Done(do_sync_op(f, io.op, io.offset, io.len));
            }
        };
        let entry = entry.user_data(io.slot as u64);
        // SAFETY: the SQE refers to the worker's buffer (and, vectored, to this slot's iovec),
        // both of which stay valid until the completion is reaped.
        while unsafe { self.ring.submission().push(&entry) }.is_err() {
            if let Err(e) = self.submit_all() {
                return Queued::Done(-(e.raw_os_error().unwrap_or(libc::EIO) as i64));
            }
        }
        self.since_commit += 1;
        Queued::Pending
    }

    fn commit(&mut self) -> io::Result<usize> {
        let n = self.since_commit;
        self.since_commit = 0;
        if n > 0 || !self.ring.submission().is_empty() {
            self.submit_all()?;
        }
        Ok(n)
    }

    fn getevents(
        &mut self,
        min: usize,
        max: usize,
        out: &mut Vec<Completion>,
    ) -> io::Result<usize> {
        let max = max.max(min).max(1);
        let mut got = self.drain(max, out);
        if got >= min && !(got == 0 && self.needs_enter) {
            return Ok(got);
        }
        self.ensure_enabled()?;
        loop {
            match self.enter_for_events(min.saturating_sub(got)) {
                Ok(()) => {}
                Err(e) if is_errno(&e, &[libc::EINTR]) => {}
                Err(e) if is_errno(&e, &[libc::EAGAIN, libc::EBUSY]) => yield_now(),
                Err(e) => return Err(e),
            }
            got += self.drain(max - got, out);
            if got >= min {
                return Ok(got);
            }
        }
    }

    fn notes(&self) -> Vec<Note> {
        self.notes.clone()
    }
}
#[cfg(test)]
mod tests;
