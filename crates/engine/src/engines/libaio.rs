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

use super::{Completion, Engine, EngineError, EngineSetup, IoUnit, Op, Queued};
use std::io;
use std::os::fd::RawFd;
use std::sync::atomic::{AtomicU32, Ordering};

const IOCB_CMD_PREAD: u16 = 0;
const IOCB_CMD_PWRITE: u16 = 1;

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

/// A file the engine may touch synchronously (sync ops and trims).
#[derive(Clone, Copy, Debug)]
pub(super) struct SyncFile {
    pub fd: RawFd,
    pub is_block: bool,
}

pub(super) fn sync_files(setup: &EngineSetup) -> Vec<SyncFile> {
    setup
        .files
        .iter()
        .map(|f| SyncFile {
            fd: f.fd,
            is_block: f.is_block,
        })
        .collect()
}

/// Performs a sync op or a trim synchronously: bytes (trim: `len`; sync: 0) or -errno.
pub(super) fn do_sync_op(file: SyncFile, op: Op, offset: u64, len: usize) -> i64 {
    match op {
        Op::Fsync => super::sync::do_sync(file.fd, false),
        Op::Fdatasync => super::sync::do_sync(file.fd, true),
        Op::Trim => super::sync::trim_fd(file.fd, file.is_block, offset, len as u64),
        Op::Read | Op::Write => -(libc::EINVAL as i64),
    }
}

pub struct LibaioEngine {
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
    userspace_reap: bool,
}

// SAFETY: the raw pointers point into memory owned by this engine (the iocb array) or into the
// AIO context mapping that lives until Drop; nothing is shared with other threads.
unsafe impl Send for LibaioEngine {}

impl LibaioEngine {
    pub fn new(setup: &EngineSetup) -> Result<Self, EngineError> {
        let depth = setup.depth.max(1);
        let mut ctx: AioContext = 0;
        if let Err(e) = io_setup(depth, &mut ctx) {
            return Err(match e.raw_os_error() {
                Some(libc::ENOSYS) | Some(libc::EPERM) => EngineError::Unavailable(format!(
                    "libaio is not available: io_setup failed: {e}; use psync or io_uring instead"
                )),
                Some(libc::EAGAIN) => EngineError::Io(io::Error::new(
                    e.kind(),
                    format!(
                        "io_setup({depth}) failed: {e}; the system-wide AIO event limit \
                         (fs.aio-max-nr) is exhausted"
                    ),
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
            userspace_reap: setup.options.userspace_reap,
        })
    }

    /// Whether non-blocking reaps read the kernel's completion ring directly.
    pub fn userspace_reap_active(&self) -> bool {
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
    fn name(&self) -> &'static str {
        "libaio"
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
        let mut got = 0;
        if !self.failed.is_empty() {
            let n = self.failed.len().min(max);
            out.extend(self.failed.drain(..n));
            got = n;
        }
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
pub(super) mod test_support {
    //! A small queue/commit/reap driver and file helpers shared by the async engine tests.

    use super::super::{Completion, Engine, EngineBuf, EngineFile, IoUnit, Op, Queued};
    use std::alloc::{alloc_zeroed, dealloc, Layout};
    use std::fs::{File, OpenOptions};
    use std::os::fd::AsRawFd;
    use std::os::unix::fs::OpenOptionsExt;
    use std::path::{Path, PathBuf};
    use std::sync::atomic::{AtomicU32, Ordering};

    pub const BS: usize = 4096;

    /// `n` separately allocated, 4096-aligned buffers of `len` bytes.
    pub struct Buffers {
        pub bufs: Vec<EngineBuf>,
        layout: Layout,
    }

    impl Buffers {
        pub fn new(n: usize, len: usize) -> Self {
            let layout = Layout::from_size_align(len, 4096).unwrap();
            let bufs = (0..n)
                .map(|_| {
                    // SAFETY: non-zero size layout.
                    let ptr = unsafe { alloc_zeroed(layout) };
                    assert!(!ptr.is_null());
                    EngineBuf { ptr, len }
                })
                .collect();
            Buffers { bufs, layout }
        }
        #[allow(clippy::mut_from_ref)]
        pub fn slice(&self, i: usize) -> &mut [u8] {
            // SAFETY: each buffer is a live allocation of `len` bytes; tests use one at a time.
            unsafe { std::slice::from_raw_parts_mut(self.bufs[i].ptr, self.bufs[i].len) }
        }
    }

    // SAFETY: the buffers are plain heap memory; tests hand them to one engine at a time.
    unsafe impl Send for Buffers {}
    unsafe impl Sync for Buffers {}

    impl Drop for Buffers {
        fn drop(&mut self) {
            for b in &self.bufs {
                // SAFETY: allocated in `new` with this layout.
                unsafe { dealloc(b.ptr, self.layout) };
            }
        }
    }

    /// A unique directory removed on drop.
    pub struct TempDir(pub PathBuf);

    impl TempDir {
        pub fn new(base: &Path, tag: &str) -> Self {
            static N: AtomicU32 = AtomicU32::new(0);
            let p = base.join(format!(
                "iomark-{tag}-{}-{}",
                std::process::id(),
                N.fetch_add(1, Ordering::Relaxed)
            ));
            std::fs::create_dir_all(&p).unwrap();
            TempDir(p)
        }
    }

    impl Drop for TempDir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    /// The bases every data test runs on: the default temp dir (ext4 here) and tmpfs.
    pub fn bases() -> Vec<PathBuf> {
        let mut v = vec![std::env::temp_dir()];
        let shm = PathBuf::from("/dev/shm");
        if shm.is_dir() {
            v.push(shm);
        }
        v
    }

    /// Creates a `size`-byte file, opened with O_DIRECT when the file system allows it.
    pub fn open_file(dir: &Path, name: &str, size: u64) -> (File, EngineFile, bool) {
        let path = dir.join(name);
        let direct = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(true)
            .custom_flags(libc::O_DIRECT)
            .open(&path);
        let (f, is_direct) = match direct {
            Ok(f) => (f, true),
            Err(e) if e.raw_os_error() == Some(libc::EINVAL) => (
                OpenOptions::new()
                    .read(true)
                    .write(true)
                    .create(true)
                    .truncate(true)
                    .open(&path)
                    .unwrap(),
                false,
            ),
            Err(e) => panic!("open {}: {e}", path.display()),
        };
        f.set_len(size).unwrap();
        let ef = EngineFile {
            fd: f.as_raw_fd(),
            path,
            size,
            is_block: false,
        };
        (f, ef, is_direct)
    }

    pub fn fill(buf: &mut [u8], seed: u64, block: u64) {
        for (i, w) in buf.chunks_exact_mut(8).enumerate() {
            let v = seed
                .wrapping_mul(0x9E37_79B9_7F4A_7C15)
                .wrapping_add(block.wrapping_mul(0xBF58_476D_1CE4_E5B9))
                ^ (i as u64).wrapping_mul(0x94D0_49BB_1331_11EB);
            w.copy_from_slice(&v.to_le_bytes());
        }
    }

    pub fn shuffled(n: u64, seed: u64) -> Vec<u64> {
        let mut v: Vec<u64> = (0..n).collect();
        let mut x = seed | 1;
        for i in (1..v.len()).rev() {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            v.swap(i, (x % (i as u64 + 1)) as usize);
        }
        v
    }

    /// Runs `ops` (op, block) at `qd` in flight: queue up to qd, commit, reap, refill. Writes
    /// carry the pattern of (`seed`, block); every read is checked against it. With `poll` the
    /// reaps never block (min = 0). Returns the number of completions seen.
    pub fn drive(
        eng: &mut dyn Engine,
        bufs: &Buffers,
        qd: usize,
        ops: &[(Op, u64)],
        seed: u64,
        poll: bool,
    ) -> usize {
        assert!(qd <= bufs.bufs.len());
        let mut free: Vec<u32> = (0..qd as u32).rev().collect();
        let mut block_of = vec![(Op::Read, 0u64); qd];
        let mut next = 0;
        let mut inflight = 0;
        let mut seen = 0;
        let mut out: Vec<Completion> = Vec::with_capacity(qd);
        let mut expect = vec![0u8; BS];
        let mut check = |slot: u32, result: i64, block_of: &[(Op, u64)]| {
            let (op, block) = block_of[slot as usize];
            assert_eq!(result, BS as i64, "{op:?} of block {block} (slot {slot})");
            if op == Op::Read {
                fill(&mut expect, seed, block);
                assert!(
                    bufs.slice(slot as usize)[..BS] == expect[..],
                    "data mismatch in block {block} (slot {slot})"
                );
            }
        };
        let mut last_progress = std::time::Instant::now();
        while next < ops.len() || inflight > 0 {
            let mut queued = 0;
            while next < ops.len() {
                let Some(slot) = free.pop() else { break };
                let (op, block) = ops[next];
                next += 1;
                let buf = bufs.slice(slot as usize);
                if op == Op::Write {
                    fill(&mut buf[..BS], seed, block);
                } else {
                    buf[..BS].fill(0xEE);
                }
                block_of[slot as usize] = (op, block);
                let io = IoUnit {
                    slot,
                    file: 0,
                    op,
                    offset: block * BS as u64,
                    len: BS,
                    buf: buf.as_mut_ptr(),
                };
                match eng.queue(&io) {
                    Queued::Pending => {
                        inflight += 1;
                        queued += 1;
                    }
                    Queued::Done(r) => {
                        check(slot, r, &block_of);
                        seen += 1;
                        free.push(slot);
                    }
                }
            }
            if queued > 0 {
                assert_eq!(eng.commit().unwrap(), queued);
            }
            if inflight == 0 {
                continue;
            }
            out.clear();
            let min = if poll { 0 } else { 1 };
            let n = eng.getevents(min, qd, &mut out).unwrap();
            assert_eq!(n, out.len());
            assert!(n <= qd);
            if poll && n == 0 {
                assert!(
                    last_progress.elapsed() < std::time::Duration::from_secs(20),
                    "polling found no completion for 20 s"
                );
                std::thread::yield_now();
            } else {
                assert!(n >= min);
            }
            if n > 0 {
                last_progress = std::time::Instant::now();
            }
            for c in &out {
                check(c.slot, c.result, &block_of);
                free.push(c.slot);
                inflight -= 1;
                seen += 1;
            }
        }
        seen
    }

    /// Writes every block of a `blocks`-block file at `wqd`, then reads them all back in a random
    /// order at `rqd`, verifying each.
    pub fn write_then_verify(
        eng: &mut dyn Engine,
        bufs: &Buffers,
        blocks: u64,
        wqd: usize,
        rqd: usize,
        seed: u64,
        poll: bool,
    ) {
        let writes: Vec<(Op, u64)> = shuffled(blocks, seed ^ 0x5555)
            .into_iter()
            .map(|b| (Op::Write, b))
            .collect();
        assert_eq!(drive(eng, bufs, wqd, &writes, seed, poll), blocks as usize);
        let reads: Vec<(Op, u64)> = shuffled(blocks, seed ^ 0xAAAA)
            .into_iter()
            .map(|b| (Op::Read, b))
            .collect();
        assert_eq!(drive(eng, bufs, rqd, &reads, seed, poll), blocks as usize);
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Completion, Engine, EngineFile, EngineSetup, IoUnit, Op, Queued};
    use super::test_support::*;
    use super::LibaioEngine;
    use crate::job::EngineOptions;
    use std::time::{Duration, Instant};

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
            let dir = TempDir::new(&base, "aio");
            let (_f, ef, _) = open_file(&dir.0, "data", BLOCKS * BS as u64);
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

    #[test]
    fn poll_with_nothing_in_flight_does_not_block() {
        for reap in [false, true] {
            let dir = TempDir::new(&std::env::temp_dir(), "aio-poll");
            let (_f, ef, _) = open_file(&dir.0, "f", 64 * 1024);
            let files = [ef];
            let bufs = Buffers::new(4, BS);
            let opts = EngineOptions {
                userspace_reap: reap,
                ..Default::default()
            };
            let mut eng = engine(&files, &bufs, &opts);
            let mut out = Vec::new();
            let t = Instant::now();
            for _ in 0..100 {
                assert_eq!(eng.getevents(0, 4, &mut out).unwrap(), 0);
            }
            assert!(out.is_empty());
            assert!(t.elapsed() < Duration::from_secs(2));
        }
    }

    fn single(eng: &mut LibaioEngine, io: IoUnit) -> Completion {
        assert_eq!(eng.queue(&io), Queued::Pending);
        assert_eq!(eng.commit().unwrap(), 1);
        let mut out = Vec::new();
        assert_eq!(eng.getevents(1, 1, &mut out).unwrap(), 1);
        out[0]
    }

    #[test]
    fn read_past_eof_returns_zero() {
        for base in bases() {
            let dir = TempDir::new(&base, "aio-eof");
            let (_f, ef, _) = open_file(&dir.0, "f", 8 * BS as u64);
            let files = [ef];
            let bufs = Buffers::new(2, BS);
            let opts = EngineOptions::default();
            let mut eng = engine(&files, &bufs, &opts);
            let c = single(
                &mut eng,
                IoUnit {
                    slot: 1,
                    file: 0,
                    op: Op::Read,
                    offset: 8 * BS as u64,
                    len: BS,
                    buf: bufs.bufs[1].ptr,
                },
            );
            assert_eq!(c, Completion { slot: 1, result: 0 });
        }
    }

    #[test]
    fn invalid_fd_completes_with_ebadf() {
        let bufs = Buffers::new(4, BS);
        let files = [EngineFile {
            fd: 999_999,
            path: "/nonexistent".into(),
            size: 1 << 20,
            is_block: false,
        }];
        let opts = EngineOptions::default();
        let mut eng = engine(&files, &bufs, &opts);
        for slot in 0..3u32 {
            let io = IoUnit {
                slot,
                file: 0,
                op: Op::Read,
                offset: 0,
                len: BS,
                buf: bufs.bufs[slot as usize].ptr,
            };
            assert_eq!(eng.queue(&io), Queued::Pending);
        }
        assert_eq!(eng.commit().unwrap(), 3);
        let mut out = Vec::new();
        assert_eq!(eng.getevents(3, 4, &mut out).unwrap(), 3);
        out.sort_by_key(|c| c.slot);
        for (i, c) in out.iter().enumerate() {
            assert_eq!(c.slot, i as u32);
            assert_eq!(c.result, -(libc::EBADF as i64));
        }
        assert_eq!(eng.getevents(0, 4, &mut out).unwrap(), 0);
    }

    #[test]
    fn sync_ops_and_trim_complete_in_queue() {
        for base in bases() {
            let dir = TempDir::new(&base, "aio-sync");
            let (_f, ef, _) = open_file(&dir.0, "f", 16 * BS as u64);
            let files = [ef];
            let bufs = Buffers::new(4, BS);
            let opts = EngineOptions::default();
            let mut eng = engine(&files, &bufs, &opts);
            let ops: Vec<(Op, u64)> = (0..16).map(|b| (Op::Write, b)).collect();
            drive(&mut eng, &bufs, 4, &ops, 5, false);
            let mk = |op, offset, len| IoUnit {
                slot: 0,
                file: 0,
                op,
                offset,
                len,
                buf: bufs.bufs[0].ptr,
            };
            assert_eq!(eng.queue(&mk(Op::Fsync, 0, 0)), Queued::Done(0));
            assert_eq!(eng.queue(&mk(Op::Fdatasync, 0, 0)), Queued::Done(0));
            let t = mk(Op::Trim, 4 * BS as u64, 2 * BS);
            assert_eq!(eng.queue(&t), Queued::Done(2 * BS as i64));
            let c = single(&mut eng, mk(Op::Read, 4 * BS as u64, BS));
            assert_eq!(c.result, BS as i64);
            assert!(bufs.slice(0)[..BS].iter().all(|&b| b == 0));
            let c = single(&mut eng, mk(Op::Read, 6 * BS as u64, BS));
            assert_eq!(c.result, BS as i64);
            let mut expect = vec![0u8; BS];
            fill(&mut expect, 5, 6);
            assert!(bufs.slice(0)[..BS] == expect[..]);
        }
    }
}
