//! A file written or read one byte per system call (`write(fd, &c, 1)`, `read(fd, &c, 1)`), and
//! a file rewritten in place chunk by chunk (read a chunk, change it, seek back, write it).
//! Each system call (each chunk for the rewrite) is one timed operation. The reads and writes
//! skip glibc's cancellation bookkeeping ([`crate::nocancel`]), as bonnie++'s single process
//! does without it.

use super::{path_err, timed, AlignedBuf, Clock, OpStats, Phase};
use crate::nocancel;
use std::fs::{File, OpenOptions};
use std::io::{self, Seek, SeekFrom};
use std::os::fd::{AsRawFd, RawFd};
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

/// Operation type of a one-byte write.
pub const PUTC: &str = "putc";
/// Operation type of a one-byte read.
pub const GETC: &str = "getc";
/// Operation type of one chunk's read, change, seek back and write.
pub const REWRITE: &str = "rewrite";

/// How often (in operations) the stop flag is looked at.
const STOP_EVERY: u64 = 4096;

/// Create `path` (it must not exist: O_EXCL), write `bytes` bytes one per `write(2)`, fsync and
/// close it. The file stays.
pub fn write_bytes(path: &Path, bytes: u64, stop: &AtomicBool) -> Phase {
    let clock = Clock::start();
    let mut stats = OpStats::default();
    let r = (|| {
        let f = OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(path)
            .map_err(|e| path_err(e, "cannot create", path))?;
        let fd = f.as_raw_fd();
        for i in 0..bytes {
            if i % STOP_EVERY == 0 && stop.load(Ordering::Relaxed) {
                break;
            }
            let c = [(i & 0x7f) as u8];
            timed(&mut stats, PUTC, || write_once(fd, &c).map(|n| n as u64))
                .map_err(|e| path_err(e, "write", path))?;
        }
        f.sync_all().map_err(|e| path_err(e, "fsync", path))
    })();
    clock.finish(stats, r, stop)
}

/// Read the first `bytes` bytes of `path` one per `read(2)` (fewer when the file is shorter).
pub fn read_bytes(path: &Path, bytes: u64, stop: &AtomicBool) -> Phase {
    let clock = Clock::start();
    let mut stats = OpStats::default();
    let r = (|| {
        let f = File::open(path).map_err(|e| path_err(e, "cannot open", path))?;
        let fd = f.as_raw_fd();
        let mut c = [0u8; 1];
        for i in 0..bytes {
            if i % STOP_EVERY == 0 && stop.load(Ordering::Relaxed) {
                break;
            }
            let n = timed(&mut stats, GETC, || read_once(fd, &mut c).map(|n| n as u64))
                .map_err(|e| path_err(e, "read", path))?;
            if n == 0 {
                break;
            }
        }
        Ok(())
    })();
    clock.finish(stats, r, stop)
}

/// How [`rewrite`] opens and syncs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RewriteOpts {
    /// O_DIRECT (the chunk must then be a multiple of the logical block size).
    pub direct: bool,
    /// fsync after every write.
    pub fsync_each: bool,
}

/// Rewrite the existing file `path` from its start in `chunk`-byte pieces: read a chunk, change
/// one byte, seek back by the chunk, write it; fsync at the end. A short last piece is left.
pub fn rewrite(path: &Path, chunk: usize, o: RewriteOpts, stop: &AtomicBool) -> Phase {
    let clock = Clock::start();
    let mut stats = OpStats::default();
    let r = (|| {
        let mut opts = OpenOptions::new();
        opts.read(true).write(true);
        if o.direct {
            opts.custom_flags(libc::O_DIRECT);
        }
        let mut f = opts
            .open(path)
            .map_err(|e| path_err(e, "cannot open", path))?;
        f.seek(SeekFrom::Start(0))?;
        let mut buf = AlignedBuf::new(chunk);
        let buf = &mut buf.as_mut_slice()[..chunk];
        let mut n: u64 = 0;
        loop {
            if n % 64 == 0 && stop.load(Ordering::Relaxed) {
                break;
            }
            let t0 = crate::sys::now_ns();
            let got = read_once(f.as_raw_fd(), buf).map_err(|e| path_err(e, "read", path))?;
            if got < chunk {
                break;
            }
            buf[0] = buf[0].wrapping_add(1);
            f.seek(SeekFrom::Current(-(chunk as i64)))?;
            write_all(f.as_raw_fd(), buf).map_err(|e| path_err(e, "write", path))?;
            if o.fsync_each {
                f.sync_all().map_err(|e| path_err(e, "fsync", path))?;
            }
            stats.record(
                REWRITE,
                crate::sys::now_ns().saturating_sub(t0),
                chunk as u64,
            );
            n += 1;
        }
        f.sync_all().map_err(|e| path_err(e, "fsync", path))
    })();
    clock.finish(stats, r, stop)
}

/// One read(2) into `buf`: the bytes read.
fn read_once(fd: RawFd, buf: &mut [u8]) -> io::Result<usize> {
    // SAFETY: buf is valid for its length.
    let n = unsafe { nocancel::read(fd, buf.as_mut_ptr().cast(), buf.len()) };
    usize::try_from(n).map_err(|_| io::Error::last_os_error())
}

/// One write(2) from `buf`: the bytes written.
fn write_once(fd: RawFd, buf: &[u8]) -> io::Result<usize> {
    // SAFETY: buf is valid for its length.
    let n = unsafe { nocancel::write(fd, buf.as_ptr().cast(), buf.len()) };
    usize::try_from(n).map_err(|_| io::Error::last_os_error())
}

/// write(2) until all of `buf` is written (as `Write::write_all`).
fn write_all(fd: RawFd, mut buf: &[u8]) -> io::Result<()> {
    while !buf.is_empty() {
        match write_once(fd, buf) {
            Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
            Ok(n) => buf = &buf[n..],
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::TempDir;

    #[test]
    fn bytes_out_and_in() {
        let d = TempDir::new("bytewise");
        let p = d.join("f");
        let stop = AtomicBool::new(false);
        let w = write_bytes(&p, 10_000, &stop);
        assert!(w.error.is_none(), "{:?}", w.error);
        assert_eq!(w.stats.ops(PUTC), 10_000);
        assert_eq!(std::fs::metadata(&p).unwrap().len(), 10_000);
        // O_EXCL: an existing file is never overwritten.
        let again = write_bytes(&p, 10, &stop);
        assert!(again.error.unwrap().contains("cannot create"));
        let r = read_bytes(&p, 4_000, &stop);
        assert!(r.error.is_none());
        assert_eq!(r.stats.ops(GETC), 4_000);
        assert_eq!(r.stats.get(GETC).unwrap().bytes, 4_000);
        // Past the end: stops at EOF (the zero-byte read is counted).
        let r = read_bytes(&p, 20_000, &stop);
        assert_eq!(r.stats.get(GETC).unwrap().bytes, 10_000);
        assert!(read_bytes(&d.join("nope"), 1, &stop).error.is_some());
        stop.store(true, Ordering::Relaxed);
        let s = write_bytes(&d.join("g"), 10_000, &stop);
        assert!(s.stopped && s.stats.ops(PUTC) == 0);
    }

    #[test]
    fn rewrite_changes_every_chunk_in_place() {
        let d = TempDir::new("rewrite");
        let p = d.join("f");
        std::fs::write(&p, vec![7u8; 4096 * 5 + 100]).unwrap();
        let stop = AtomicBool::new(false);
        let r = rewrite(&p, 4096, RewriteOpts::default(), &stop);
        assert!(r.error.is_none(), "{:?}", r.error);
        assert_eq!(r.stats.get(REWRITE).unwrap().bytes, 4096 * 5);
        let data = std::fs::read(&p).unwrap();
        assert_eq!(data.len(), 4096 * 5 + 100);
        for i in 0..5 {
            assert_eq!(data[i * 4096], 8, "chunk {i}");
            assert_eq!(data[i * 4096 + 1], 7);
        }
        assert_eq!(data[4096 * 5], 7);
        let r = rewrite(
            &p,
            4096,
            RewriteOpts {
                fsync_each: true,
                ..Default::default()
            },
            &stop,
        );
        assert!(r.error.is_none());
        assert_eq!(std::fs::read(&p).unwrap()[0], 9);
        assert!(
            rewrite(&d.join("nope"), 4096, RewriteOpts::default(), &stop)
                .error
                .is_some()
        );
    }
}
