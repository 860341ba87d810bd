//! The libaio engine: Linux native AIO through the raw `io_setup`/`io_submit`/`io_getevents`
//! system calls (no C library needed).
//!
//! One iocb is preallocated per slot (`aio_data` = slot); `queue` fills it and appends its pointer to
//! a batch that `commit` hands to `io_submit`. Completions are taken first straight from the
//! kernel's completion ring mapped at the context address (as fio's `userspace_reap` does, but for
//! every reap); `io_getevents` is entered only to wait for more. Fsync, fdatasync and trim are done synchronously inside `queue` (the worker
//! drains all pending I/O before a sync op). An iocb the kernel refuses at submit time (bad fd,
//! bad alignment, ...) completes with its -errno at the next `getevents`.
//!
//! Kernel AIO is only truly asynchronous with O_DIRECT; buffered requests complete inside
//! `io_submit`.

use super::sysio::{do_sync_op, sync_files, take_failed, SyncFile};
use super::{
    Completion, Engine, EngineDecl, EngineError, EngineFlags, EngineKind, EngineOption,
    EngineSetup, IoUnit, Op, Queued,
};
use std::io;
use std::os::fd::RawFd;
use std::sync::atomic::{AtomicU32, Ordering};

const IOCB_CMD_PREAD: u16 = 0;
const IOCB_CMD_PWRITE: u16 = 1;
/// `aio_flags`: `aio_reqprio` holds the request's priority.
const IOCB_FLAG_IOPRIO: u32 = 1 << 1;

/// `struct iocb` from `linux/aio_abi.h`.
#[repr(C)]
#[derive(Clone, Copy, Default)]
struct Iocb {
    aio_data: u64,
    #[cfg(target_endian = "little")]
    aio_key: u32,
    #[cfg(target_endian = "little")]
    aio_rw_flags: i32,
    #[cfg(target_endian = "big")]
    aio_rw_flags: i32,
    #[cfg(target_endian = "big")]
    aio_key: u32,
    aio_lio_opcode: u16,
    aio_reqprio: i16,
    aio_fildes: u32,
    aio_buf: u64,
    aio_nbytes: u64,
    aio_offset: i64,
    aio_reserved2: u64,
    aio_flags: u32,
    aio_resfd: u32,
}

/// `struct io_event` from `linux/aio_abi.h`.
#[repr(C)]
#[derive(Clone, Copy, Default)]
struct IoEvent {
    data: u64,
    obj: u64,
    res: i64,
    res2: i64,
}

/// The header of the completion ring the kernel maps at the context address.
#[repr(C)]
struct AioRing {
    id: u32,
    nr: u32,
    head: u32,
    tail: u32,
    magic: u32,
    compat_features: u32,
    incompat_features: u32,
    header_length: u32,
}

const AIO_RING_MAGIC: u32 = 0xa10a_10a1;

const _: () = assert!(std::mem::size_of::<Iocb>() == 64);
const _: () = assert!(std::mem::size_of::<IoEvent>() == 32);
const _: () = assert!(std::mem::size_of::<AioRing>() == 32);

type AioContext = libc::c_ulong;

fn io_setup(nr: u32, ctx: &mut AioContext) -> io::Result<()> {
    // SAFETY: ctx points to a zeroed aio_context_t as the system call requires.
    let r = unsafe { libc::syscall(libc::SYS_io_setup, nr as libc::c_long, ctx as *mut _) };
    if r < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(())
    }
}

fn io_destroy(ctx: AioContext) {
    // SAFETY: ctx came from a successful io_setup and is destroyed once.
    unsafe {
        libc::syscall(libc::SYS_io_destroy, ctx);
    }
}

/// Linux native AIO.
pub(crate) const DECL: EngineDecl = EngineDecl {
    kind: EngineKind::Libaio,
    flags: EngineFlags {
        sync: false,
        ..EngineFlags::FILE_IO
    },
    options: &[
        EngineOption::UserspaceReap,
        EngineOption::PrioPercent,
        EngineOption::PrioClass,
        EngineOption::PrioLevel,
        EngineOption::PrioBySize,
    ],
    create: |_, setup| Ok(Box::new(LibaioEngine::new(setup)?)),
};

pub(crate) struct LibaioEngine {
    ctx: AioContext,
    /// One iocb per slot; the kernel reads it during io_submit.
    iocbs: Box<[Iocb]>,
    /// Pointers to the iocbs queued since the last commit.
    batch: Box<[*mut Iocb]>,
    nbatch: usize,
    events: Box<[IoEvent]>,
    /// Requests the kernel refused at submit time, reported by the next getevents.
    failed: Vec<Completion>,
    files: Vec<SyncFile>,
    /// The kernel's completion ring, when user-space reaping was requested and the ring is usable.
    ring: Option<*mut AioRing>,
    /// userspace_reap=1 was asked for (the ring is read first either way when it is usable).
    #[cfg(test)]
    userspace_reap: bool,
}

// SAFETY: the raw pointers point into memory owned by this engine (the iocb array) or into the
// AIO context mapping that lives until Drop; nothing is shared with other threads.
unsafe impl Send for LibaioEngine {}

/// The system-wide AIO event limit and its use, read from procfs, for an io_setup refused with
/// EAGAIN.
fn aio_limit_words(depth: u32) -> String {
    let read = |p: &str| {
        std::fs::read_to_string(p)
            .ok()
            .and_then(|s| s.trim().parse::<u64>().ok())
            .map_or_else(|| "?".to_string(), |v| v.to_string())
    };
    let max = read("/proc/sys/fs/aio-max-nr");
    let used = read("/proc/sys/fs/aio-nr");
    // The kernel counts the events asked for against the system-wide limit.
    format!(
        "a queue depth of {depth} needs {depth} AIO events, but /proc/sys/fs/aio-max-nr \
         allows {max} in all and /proc/sys/fs/aio-nr says {used} are in use; lower the queue depth \
         or raise /proc/sys/fs/aio-max-nr"
    )
}

impl LibaioEngine {
    pub(crate) fn new(setup: &EngineSetup) -> Result<Self, EngineError> {
        let depth = setup.depth.max(1);
        let mut ctx: AioContext = 0;
        if let Err(e) = io_setup(depth, &mut ctx) {
            return Err(match e.raw_os_error() {
                Some(libc::ENOSYS) | Some(libc::EPERM) => EngineError::Unavailable(format!(
                    "libaio is not available: io_setup failed: {e}; use psync or io_uring instead"
                )),
                Some(libc::EAGAIN) => EngineError::Io(io::Error::new(
                    e.kind(),
                    format!("io_setup({depth}) failed: {e}; {}", aio_limit_words(depth)),
                )),
                _ => EngineError::Io(io::Error::new(
                    e.kind(),
                    format!("io_setup({depth}) failed: {e}"),
                )),
            });
        }
        let d = depth as usize;
        let mut ring = None;
        if ctx != 0 {
            let r = ctx as usize as *mut AioRing;
            // SAFETY: a successful io_setup returns the address of the mapped ring header.
            let ok = unsafe {
                (*r).magic == AIO_RING_MAGIC
                    && (*r).incompat_features == 0
                    && (*r).header_length as usize == std::mem::size_of::<AioRing>()
                    && (*r).nr > 0
            };
            if ok {
                ring = Some(r);
            }
        }
        Ok(LibaioEngine {
            ctx,
            iocbs: vec![Iocb::default(); d].into_boxed_slice(),
            batch: vec![std::ptr::null_mut(); d].into_boxed_slice(),
            nbatch: 0,
            events: vec![IoEvent::default(); d].into_boxed_slice(),
            failed: Vec::with_capacity(d),
            files: sync_files(setup),
            ring,
            #[cfg(test)]
            userspace_reap: setup.options.userspace_reap,
        })
    }

    /// Whether non-blocking reaps read the kernel's completion ring directly.
    #[cfg(test)]
    pub(crate) fn userspace_reap_active(&self) -> bool {
        self.userspace_reap && self.ring.is_some()
    }

    /// Reaps up to `max` events from the user-space ring without a system call.
    #[inline]
    fn reap_ring(&mut self, ring: *mut AioRing, max: usize, out: &mut Vec<Completion>) -> usize {
        // SAFETY: `ring` is the live AIO ring of this context (checked in `new`); head and tail
        // are shared with the kernel, so they are accessed atomically; entries between head and
        // tail are complete once tail has been loaded with acquire ordering.
        unsafe {
            let nr = (*ring).nr;
            let head_p = &*(std::ptr::addr_of_mut!((*ring).head) as *const AtomicU32);
            let tail_p = &*(std::ptr::addr_of_mut!((*ring).tail) as *const AtomicU32);
            let events = (ring as *const u8).add(std::mem::size_of::<AioRing>()) as *const IoEvent;
            let mut head = head_p.load(Ordering::Relaxed);
            let tail = tail_p.load(Ordering::Acquire);
            let mut n = 0;
            while head != tail && n < max {
                let ev = std::ptr::read_volatile(events.add(head as usize));
                out.push(Completion {
                    slot: ev.data as u32,
                    result: ev.res,
                });
                head += 1;
                if head >= nr {
                    head = 0;
                }
                n += 1;
            }
            if n > 0 {
                head_p.store(head, Ordering::Release);
            }
            n
        }
    }

    /// Reaps through io_getevents: at least `min` (0 = do not wait), at most `max`.
    fn reap_syscall(
        &mut self,
        min: usize,
        max: usize,
        out: &mut Vec<Completion>,
    ) -> io::Result<usize> {
        let max = max.min(self.events.len());
        let zero = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        let timeout: *const libc::timespec = if min == 0 { &zero } else { std::ptr::null() };
        let mut got = 0usize;
        loop {
            let want_min = min.saturating_sub(got).min(max - got);
            // SAFETY: the events array holds at least `max` entries.
            let r = unsafe {
                libc::syscall(
                    libc::SYS_io_getevents,
                    self.ctx,
                    want_min as libc::c_long,
                    (max - got) as libc::c_long,
                    self.events.as_mut_ptr(),
                    timeout,
                )
            };
            if r < 0 {
                let e = io::Error::last_os_error();
                if e.raw_os_error() == Some(libc::EINTR) {
                    continue;
                }
                return Err(e);
            }
            let r = r as usize;
            for ev in &self.events[..r] {
                out.push(Completion {
                    slot: ev.data as u32,
                    result: ev.res,
                });
            }
            got += r;
            if got >= min || got >= max {
                return Ok(got);
            }
        }
    }
}

impl Drop for LibaioEngine {
    fn drop(&mut self) {
        if self.ctx != 0 {
            io_destroy(self.ctx);
        }
    }
}

impl Engine for LibaioEngine {
    #[cfg(test)]
    fn name(&self) -> &'static str {
        "libaio"
    }
    fn set_file(&mut self, file: u32, fd: RawFd) -> io::Result<()> {
        self.files[file as usize].fd = fd;
        Ok(())
    }
    fn is_sync(&self) -> bool {
        false
    }
    #[inline]
    fn queue(&mut self, io: &IoUnit) -> Queued {
        let file = self.files[io.file as usize];
        let opcode = match io.op {
            Op::Read => IOCB_CMD_PREAD,
            Op::Write => IOCB_CMD_PWRITE,
            Op::Fsync | Op::Fdatasync | Op::Trim => {
                return Queued::Done(do_sync_op(file, io.op, io.offset, io.len))
            }
        };
        let cb = &mut self.iocbs[io.slot as usize];
        *cb = Iocb {
            aio_data: io.slot as u64,
            aio_lio_opcode: opcode,
            aio_fildes: file.fd as u32,
            aio_buf: io.buf as u64,
            aio_nbytes: io.len as u64,
            aio_offset: io.offset as i64,
            ..Iocb::default()
        };
        if let Some(p) = io.prio {
            cb.aio_reqprio = p as i16;
            cb.aio_flags |= IOCB_FLAG_IOPRIO;
        }
        self.batch[self.nbatch] = cb as *mut Iocb;
        self.nbatch += 1;
        Queued::Pending
    }

    fn commit(&mut self) -> io::Result<usize> {
        let total = self.nbatch;
        let mut done = 0usize;
        while done < total {
            // SAFETY: batch[done..total] point at iocbs owned by this engine that stay untouched
            // until their completion is reaped.
            let r = unsafe {
                libc::syscall(
                    libc::SYS_io_submit,
                    self.ctx,
                    (total - done) as libc::c_long,
                    self.batch.as_mut_ptr().add(done),
                )
            };
            if r > 0 {
                done += r as usize;
                continue;
            }
            let err = if r == 0 {
                libc::EAGAIN
            } else {
                io::Error::last_os_error()
                    .raw_os_error()
                    .unwrap_or(libc::EIO)
            };
            match err {
                libc::EINTR => {}
                libc::EAGAIN => {
                    // SAFETY: plain system call.
                    unsafe {
                        libc::sched_yield();
                    }
                }
                _ => {
                    // The first remaining iocb was refused; it completes with the error.
                    // SAFETY: the pointer is one of ours.
                    let slot = unsafe { (*self.batch[done]).aio_data } as u32;
                    self.failed.push(Completion {
                        slot,
                        result: -(err as i64),
                    });
                    done += 1;
                }
            }
        }
        self.nbatch = 0;
        Ok(total)
    }

    fn getevents(
        &mut self,
        min: usize,
        max: usize,
        out: &mut Vec<Completion>,
    ) -> io::Result<usize> {
        let max = max.max(min).max(1);
        let mut got = take_failed(&mut self.failed, max, out);
        if got >= max {
            return Ok(got);
        }
        // Completions already in the mapped ring are taken without a system call; io_getevents
        // is only entered to wait for the rest of `min`.
        if let Some(ring) = self.ring {
            got += self.reap_ring(ring, max - got, out);
        }
        if got >= min && (got > 0 || self.ring.is_some()) {
            return Ok(got);
        }
        if got >= max {
            return Ok(got);
        }
        let more = self.reap_syscall(min.saturating_sub(got), max - got, out)?;
        Ok(got + more)
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::*;
    use super::super::{Engine, EngineFile, EngineOptions, EngineSetup};
    use super::LibaioEngine;

    const BLOCKS: u64 = 512; // 2 MiB files

    fn engine(files: &[EngineFile], bufs: &Buffers, opts: &EngineOptions) -> LibaioEngine {
        let setup = EngineSetup {
            depth: bufs.bufs.len() as u32,
            files,
            buffers: &bufs.bufs,
            options: opts,
            direct: true,
        };
        LibaioEngine::new(&setup).expect("io_setup")
    }

    fn data_test(userspace_reap: bool, poll: bool) {
        for base in bases() {
            let dir = TempDir::new_in(&base, "aio");
            let (_f, ef, _) = open_file(dir.path(), "data", BLOCKS * BS as u64);
            let files = [ef];
            let bufs = Buffers::new(32, BS);
            let opts = EngineOptions {
                userspace_reap,
                ..Default::default()
            };
            let mut eng = engine(&files, &bufs, &opts);
            assert_eq!(eng.userspace_reap_active(), userspace_reap);
            assert!(!eng.is_sync());
            assert_eq!(eng.name(), "libaio");
            write_then_verify(&mut eng, &bufs, BLOCKS, 8, 32, 11, poll);
            write_then_verify(&mut eng, &bufs, BLOCKS, 32, 32, 12, poll);
        }
    }

    #[test]
    fn write_read_verify_qd8_qd32() {
        data_test(false, false);
    }

    #[test]
    fn write_read_verify_polling_syscall() {
        data_test(false, true);
    }

    #[test]
    fn userspace_reap_same_results() {
        data_test(true, true);
        data_test(true, false);
    }
}
