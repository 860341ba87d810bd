//! System-call helpers shared by the engines: EINTR retries, -errno results, trims (BLKDISCARD or
//! a punched hole), fsync/fdatasync, and the synchronous path the async engines take for sync ops
//! and trims.

use super::{Completion, EngineFile, EngineSetup, IoUnit, Op};
use std::io;
use std::os::fd::RawFd;

/// `_IO(0x12, 119)`: discard a byte range `[offset, len]` of a block device.
const BLKDISCARD: u64 = (0x12 << 8) | 119;

pub(super) const EBADF: i64 = -(libc::EBADF as i64);
const EINTR: i64 = -(libc::EINTR as i64);

/// The negated errno of the last OS error, as engines report failures.
#[inline]
pub(crate) fn last_errno() -> i64 {
    -(io::Error::last_os_error()
        .raw_os_error()
        .unwrap_or(libc::EIO) as i64)
}

/// A sync engine's files: the descriptor the worker opened for `file`.
pub(super) fn set_fd(files: &mut [EngineFile], file: u32, fd: RawFd) {
    if let Some(f) = files.get_mut(file as usize) {
        f.fd = fd;
    }
}

/// The descriptor of `file`, or EBADF when it has none.
#[inline]
pub(super) fn fd_of(files: &[EngineFile], file: u32) -> Result<RawFd, i64> {
    match files.get(file as usize).map_or(-1, |f| f.fd) {
        fd if fd >= 0 => Ok(fd),
        _ => Err(EBADF),
    }
}

/// The descriptor an engine that acts on writes alone (a size change, a defragmentation)
/// takes for `io`: EBADF when its file has none, EINVAL for any other direction.
#[inline]
pub(super) fn write_fd(files: &[EngineFile], io: &IoUnit) -> Result<RawFd, i64> {
    let fd = fd_of(files, io.file)?;
    if io.op != Op::Write {
        return Err(-(libc::EINVAL as i64));
    }
    Ok(fd)
}

/// Run a system call until it is not interrupted; the result or -errno.
#[inline]
pub(super) fn retry<F: FnMut() -> isize>(mut call: F) -> i64 {
    loop {
        let r = call();
        if r >= 0 {
            return r as i64;
        }
        let e = last_errno();
        if e != EINTR {
            return e;
        }
    }
}

/// Discard `len` bytes at `off`: BLKDISCARD on a block device, a punched hole (size kept) on a
/// regular file. Returns `len` on success, -errno on failure.
pub(crate) fn do_trim(file: &EngineFile, off: u64, len: u64) -> i64 {
    trim_fd(file.fd, file.is_block, off, len)
}

/// [`do_trim`] on a bare descriptor.
pub(crate) fn trim_fd(fd: RawFd, is_block: bool, off: u64, len: u64) -> i64 {
    if fd < 0 {
        return EBADF;
    }
    let r = if is_block {
        let range: [u64; 2] = [off, len];
        // SAFETY: BLKDISCARD reads two u64 values from the pointer, which outlives the call.
        retry(|| unsafe { libc::ioctl(fd, BLKDISCARD as _, range.as_ptr()) } as isize)
    } else {
        // SAFETY: plain system call on a descriptor; no memory is passed.
        retry(|| unsafe {
            libc::fallocate(
                fd,
                libc::FALLOC_FL_PUNCH_HOLE | libc::FALLOC_FL_KEEP_SIZE,
                off as libc::off_t,
                len as libc::off_t,
            )
        } as isize)
    };
    if r < 0 {
        r
    } else {
        len as i64
    }
}

/// fsync (or fdatasync when `datasync`) the descriptor. Returns 0 or -errno.
pub(crate) fn do_sync(fd: RawFd, datasync: bool) -> i64 {
    if fd < 0 {
        return EBADF;
    }
    // SAFETY: plain system calls on a descriptor.
    let r = retry(|| unsafe {
        if datasync {
            libc::fdatasync(fd)
        } else {
            libc::fsync(fd)
        }
    } as isize);
    if r < 0 {
        r
    } else {
        0
    }
}

/// A file the engine may touch synchronously (sync ops and trims).
#[derive(Clone, Copy, Debug)]
pub(super) struct SyncFile {
    pub(crate) fd: RawFd,
    pub(crate) is_block: bool,
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
        Op::Fsync => do_sync(file.fd, false),
        Op::Fdatasync => do_sync(file.fd, true),
        Op::Trim => trim_fd(file.fd, file.is_block, offset, len as u64),
        Op::Read | Op::Write => -(libc::EINVAL as i64),
    }
}

/// Move up to `max` of the requests refused at submission (completing with their -errno) to
/// `out`, oldest first; how many were moved. The async engines report these first at a reap.
pub(super) fn take_failed(
    failed: &mut Vec<Completion>,
    max: usize,
    out: &mut Vec<Completion>,
) -> usize {
    let n = failed.len().min(max);
    out.extend(failed.drain(..n));
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::testutil::*;
    use crate::test_support::TempDir;

    #[test]
    fn trim_block_path_and_bad_descriptors() {
        let dir = TempDir::new("sysio-bad");
        let path = dir.join("f");
        std::fs::write(&path, vec![1u8; 8192]).unwrap();
        let fd = Fd::open(&path, libc::O_RDWR).unwrap();
        // BLKDISCARD on a regular file is refused by the kernel.
        let blk = efile(fd.0, &path, 8192, true);
        let r = do_trim(&blk, 0, 4096);
        assert!(r < 0, "BLKDISCARD on a regular file returned {r}");
        assert_eq!(trim_fd(-1, false, 0, 4096), EBADF);
        assert_eq!(do_sync(-1, false), EBADF);
        assert_eq!(do_sync(fd.0, false), 0);
        assert_eq!(do_sync(fd.0, true), 0);
        let f = SyncFile {
            fd: fd.0,
            is_block: false,
        };
        assert_eq!(do_sync_op(f, Op::Read, 0, 4096), -(libc::EINVAL as i64));
        assert_eq!(do_sync_op(f, Op::Trim, 0, 4096), 4096);
    }
}
