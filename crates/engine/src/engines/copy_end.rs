//! The other end of a copy, for the sync engine: a copying program (dd) reads each block from
//! its input before it writes it, and writes each block it read to its output. With
//! `copy_from`, each write is preceded by one `read(2)` of the block's length from that file
//! into the block's buffer; with `copy_to`, each read is followed by one `write(2)` of the
//! bytes read. Both are opened when the engine is made, before any timing.

use super::sysio::retry;
use super::{EngineError, EngineOptions};
use std::fs::{File, OpenOptions};
use std::os::fd::AsRawFd;
use std::path::Path;

#[derive(Default)]
pub(crate) struct CopyEnds {
    from: Option<File>,
    to: Option<File>,
}

fn open(p: &Path, write: bool) -> Result<File, EngineError> {
    OpenOptions::new()
        .read(!write)
        .write(write)
        .open(p)
        .map_err(|e| {
            EngineError::Io(std::io::Error::new(
                e.kind(),
                format!("{}: {e}", p.display()),
            ))
        })
}

impl CopyEnds {
    pub(crate) fn open(o: &EngineOptions) -> Result<Self, EngineError> {
        Ok(CopyEnds {
            from: o.copy_from.as_deref().map(|p| open(p, false)).transpose()?,
            to: o.copy_to.as_deref().map(|p| open(p, true)).transpose()?,
        })
    }

    /// Before a write of `len` bytes at `buf`: read them from the input, as many `read(2)`
    /// calls as it takes (one for /dev/zero and /dev/urandom). 0, or -errno; -EIO when the
    /// input ends first.
    #[inline]
    pub(crate) fn before_write(&self, buf: *mut u8, len: usize) -> i64 {
        let Some(f) = &self.from else { return 0 };
        let fd = f.as_raw_fd();
        // SAFETY: `buf` is valid for `len` bytes (the worker's contract for the I/O).
        whole(len, |done| unsafe {
            libc::read(fd, buf.add(done) as *mut libc::c_void, len - done)
        })
    }

    /// After a read of `n` bytes into `buf`: write them to the output. 0, or -errno.
    #[inline]
    pub(crate) fn after_read(&self, buf: *mut u8, n: usize) -> i64 {
        let Some(f) = &self.to else { return 0 };
        let fd = f.as_raw_fd();
        // SAFETY: the read just filled `n` bytes at `buf`.
        whole(n, |done| unsafe {
            libc::write(fd, buf.add(done) as *const libc::c_void, n - done)
        })
    }
}

/// Call `io(bytes done so far)` until `len` bytes are done: 0, or -errno (-EIO when a call
/// moves nothing).
#[inline]
fn whole(len: usize, mut io: impl FnMut(usize) -> isize) -> i64 {
    let mut done = 0;
    while done < len {
        match retry(|| io(done)) {
            r if r < 0 => return r,
            0 => return -(libc::EIO as i64),
            r => done += r as usize,
        }
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_block_from_the_input_and_writes_it_to_the_output() {
        let d = std::env::temp_dir().join(format!("iomark-copy-end-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        let (src, dst) = (d.join("in"), d.join("out"));
        std::fs::write(&src, b"abcdefgh").unwrap();
        std::fs::write(&dst, b"").unwrap();
        let ends = CopyEnds::open(&EngineOptions {
            copy_from: Some(src.clone()),
            copy_to: Some(dst.clone()),
            ..Default::default()
        })
        .unwrap();
        let mut buf = [0u8; 4];
        assert_eq!(ends.before_write(buf.as_mut_ptr(), 4), 0);
        assert_eq!(&buf, b"abcd");
        assert_eq!(ends.after_read(buf.as_mut_ptr(), 3), 0);
        assert_eq!(std::fs::read(&dst).unwrap(), b"abc");
        // The input ends before a whole block: an error, not a block of stale bytes.
        let mut big = [0u8; 8];
        assert_eq!(ends.before_write(big.as_mut_ptr(), 8), -(libc::EIO as i64));
        // Without ends, nothing is done.
        let none = CopyEnds::default();
        assert_eq!(none.before_write(big.as_mut_ptr(), 8), 0);
        assert_eq!(none.after_read(big.as_mut_ptr(), 8), 0);
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn a_missing_end_is_an_error_naming_it() {
        let e = CopyEnds::open(&EngineOptions {
            copy_from: Some("/nonexistent/iomark-input".into()),
            ..Default::default()
        });
        match e {
            Err(EngineError::Io(e)) => assert!(e.to_string().contains("/nonexistent/iomark-input")),
            _ => panic!("opened a missing file"),
        }
    }
}
