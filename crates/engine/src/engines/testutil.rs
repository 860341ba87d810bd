//! Helpers shared by the engine tests: aligned buffers, descriptors, files, byte patterns, and a
//! queue/commit/reap driver that runs a list of I/Os through any engine and checks every result.

use super::{
    Completion, Engine, EngineBuf, EngineFile, EngineOptions, EngineSetup, IoUnit, Op, Queued,
};
use std::alloc::{alloc_zeroed, dealloc, Layout};
use std::ffi::CString;
use std::fs::{File, OpenOptions};
use std::os::fd::{AsRawFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;

pub use crate::test_support::TempDir;
pub(crate) use crate::test_support::{bases, temp_dirs};

pub(crate) const BS: usize = 4096;

/// A zeroed buffer aligned to 4096 bytes.
pub(crate) struct AlignedBuf {
    ptr: *mut u8,
    layout: Layout,
}

impl AlignedBuf {
    pub(crate) fn new(len: usize) -> AlignedBuf {
        let layout = Layout::from_size_align(len.max(1), 4096).unwrap();
        // SAFETY: the layout has a non-zero size.
        let ptr = unsafe { alloc_zeroed(layout) };
        assert!(!ptr.is_null());
        AlignedBuf { ptr, layout }
    }
    pub(crate) fn ptr(&self) -> *mut u8 {
        self.ptr
    }
    pub(crate) fn len(&self) -> usize {
        self.layout.size()
    }
    pub(crate) fn as_slice(&self) -> &[u8] {
        // SAFETY: the allocation is `len` bytes and initialised.
        unsafe { std::slice::from_raw_parts(self.ptr, self.len()) }
    }
    pub(crate) fn as_mut_slice(&mut self) -> &mut [u8] {
        // SAFETY: as above, and `&mut self` makes the access exclusive.
        unsafe { std::slice::from_raw_parts_mut(self.ptr, self.len()) }
    }
    pub(crate) fn engine_buf(&self) -> EngineBuf {
        EngineBuf {
            ptr: self.ptr,
            len: self.len(),
        }
    }
}

impl Drop for AlignedBuf {
    fn drop(&mut self) {
        // SAFETY: allocated with this layout in `new`.
        unsafe { dealloc(self.ptr, self.layout) }
    }
}

/// A descriptor closed on drop.
pub(crate) struct Fd(pub RawFd);

impl Fd {
    /// Open `path` with `flags` (O_CLOEXEC added); the raw -errno on failure.
    pub(crate) fn open(path: &Path, flags: libc::c_int) -> Result<Fd, i32> {
        let c = CString::new(path.as_os_str().as_bytes()).unwrap();
        // SAFETY: `c` is a valid NUL-terminated string.
        let fd = unsafe { libc::open(c.as_ptr(), flags | libc::O_CLOEXEC, 0o644) };
        if fd < 0 {
            Err(std::io::Error::last_os_error().raw_os_error().unwrap())
        } else {
            Ok(Fd(fd))
        }
    }
}

impl Drop for Fd {
    fn drop(&mut self) {
        // SAFETY: the descriptor is owned by this value.
        unsafe { libc::close(self.0) };
    }
}

pub(crate) fn efile(fd: RawFd, path: &Path, size: u64, is_block: bool) -> EngineFile {
    EngineFile {
        fd,
        path: path.to_path_buf(),
        size,
        is_block,
    }
}

pub(crate) fn setup<'a>(
    files: &'a [EngineFile],
    buffers: &'a [EngineBuf],
    options: &'a EngineOptions,
    direct: bool,
) -> EngineSetup<'a> {
    EngineSetup {
        depth: buffers.len().max(1) as u32,
        files,
        buffers,
        options,
        direct,
    }
}

pub(crate) fn unit(file: u32, op: Op, offset: u64, len: usize, buf: *mut u8) -> IoUnit {
    IoUnit {
        slot: 0,
        file,
        op,
        offset,
        len,
        buf,
        prio: None,
    }
}

/// A deterministic byte pattern that differs per `seed`.
pub(crate) fn fill(buf: &mut [u8], seed: u64) {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    for b in buf.iter_mut() {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        *b = x as u8;
    }
}

/// Whether `fd` lives on tmpfs.
pub(crate) fn is_tmpfs(fd: RawFd) -> bool {
    // SAFETY: `st` is written by fstatfs before it is read.
    unsafe {
        let mut st: libc::statfs = std::mem::zeroed();
        assert_eq!(libc::fstatfs(fd, &mut st), 0);
        st.f_type == libc::TMPFS_MAGIC
    }
}

/// Size of the file behind `fd`.
pub(crate) fn fsize(fd: RawFd) -> u64 {
    // SAFETY: `st` is written by fstat before it is read.
    unsafe {
        let mut st: libc::stat = std::mem::zeroed();
        assert_eq!(libc::fstat(fd, &mut st), 0);
        st.st_size as u64
    }
}

/// `n` separately allocated, 4096-aligned buffers of `len` bytes.
pub(crate) struct Buffers {
    pub(crate) bufs: Vec<EngineBuf>,
    _owned: Vec<AlignedBuf>,
}

impl Buffers {
    pub(crate) fn new(n: usize, len: usize) -> Self {
        let owned: Vec<AlignedBuf> = (0..n).map(|_| AlignedBuf::new(len)).collect();
        Buffers {
            bufs: owned.iter().map(AlignedBuf::engine_buf).collect(),
            _owned: owned,
        }
    }
    #[allow(clippy::mut_from_ref)]
    pub(crate) fn slice(&self, i: usize) -> &mut [u8] {
        // SAFETY: each buffer is a live allocation of `len` bytes; tests use one at a time.
        unsafe { std::slice::from_raw_parts_mut(self.bufs[i].ptr, self.bufs[i].len) }
    }
}

// SAFETY: the buffers are plain heap memory; tests hand them to one engine at a time.
unsafe impl Send for Buffers {}
unsafe impl Sync for Buffers {}

/// Creates a `size`-byte file, opened with O_DIRECT when the file system allows it.
pub(crate) fn open_file(dir: &Path, name: &str, size: u64) -> (File, EngineFile, bool) {
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

pub(crate) fn fill_block(buf: &mut [u8], seed: u64, block: u64) {
    for (i, w) in buf.chunks_exact_mut(8).enumerate() {
        let v = seed
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .wrapping_add(block.wrapping_mul(0xBF58_476D_1CE4_E5B9))
            ^ (i as u64).wrapping_mul(0x94D0_49BB_1331_11EB);
        w.copy_from_slice(&v.to_le_bytes());
    }
}

pub(crate) fn shuffled(n: u64, seed: u64) -> Vec<u64> {
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
pub(crate) fn drive(
    eng: &mut dyn Engine,
    bufs: &Buffers,
    qd: usize,
    ops: &[(Op, u64)],
    seed: u64,
    poll: bool,
) -> usize {
    drive_checked(eng, bufs, qd, ops, seed, poll, true)
}

/// [`drive`], checking read data only with `verify` (engines that move no data).
pub(crate) fn drive_checked(
    eng: &mut dyn Engine,
    bufs: &Buffers,
    qd: usize,
    ops: &[(Op, u64)],
    seed: u64,
    poll: bool,
    verify: bool,
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
        if op == Op::Read && verify {
            fill_block(&mut expect, seed, block);
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
                fill_block(&mut buf[..BS], seed, block);
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
                prio: None,
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
pub(crate) fn write_then_verify(
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

/// Queues one I/O and returns its completion, whether the engine completes it in `queue` or later.
pub(crate) fn single(eng: &mut dyn Engine, io: IoUnit) -> Completion {
    match eng.queue(&io) {
        Queued::Done(result) => Completion {
            slot: io.slot,
            result,
        },
        Queued::Pending => {
            assert_eq!(eng.commit().unwrap(), 1);
            let mut out = Vec::new();
            assert_eq!(eng.getevents(1, 1, &mut out).unwrap(), 1);
            out[0]
        }
    }
}
