//! Synchronous engines: sync (lseek+read/write), psync (pread/pwrite), vsync (readv/writev),
//! pvsync (preadv/pwritev), pvsync2 (preadv2/pwritev2 with RWF_HIPRI / RWF_NOWAIT).
//!
//! Every I/O completes inside `queue`, which returns the raw system-call result: the byte count
//! (possibly short) or -errno. Interrupted calls (EINTR) are retried. A copy's other end
//! (`copy_from`, `copy_to`) is read before each write and written after each read.

use super::copy_end::CopyEnds;
use super::sysio::{do_sync, do_trim, retry, EBADF};
use super::{
    Engine, EngineDecl, EngineError, EngineFile, EngineFlags, EngineKind, EngineOption,
    EngineSetup, IoUnit, Op, Queued,
};
use std::io;
use std::os::fd::RawFd;

/// Position of a file's descriptor is not known (forces an lseek before the next sync/vsync I/O).
const POS_UNKNOWN: u64 = u64::MAX;

/// Creates any of the engines declared here.
fn create(kind: EngineKind, setup: &EngineSetup) -> Result<Box<dyn Engine>, EngineError> {
    Ok(Box::new(SyncEngine::new(kind, setup)?))
}

const fn decl(kind: EngineKind, options: &'static [EngineOption]) -> EngineDecl {
    EngineDecl {
        kind,
        flags: EngineFlags::FILE_IO,
        options,
        create,
    }
}

/// lseek + read/write.
pub(crate) const SYNC: EngineDecl = decl(EngineKind::Sync, &[]);
/// pread/pwrite.
pub(crate) const PSYNC: EngineDecl = decl(EngineKind::Psync, &[]);
/// lseek + readv/writev.
pub(crate) const VSYNC: EngineDecl = decl(EngineKind::Vsync, &[]);
/// preadv/pwritev.
pub(crate) const PVSYNC: EngineDecl = decl(EngineKind::Pvsync, &[]);
/// preadv2/pwritev2 with RWF_HIPRI / RWF_NOWAIT.
pub(crate) const PVSYNC2: EngineDecl = decl(
    EngineKind::Pvsync2,
    &[EngineOption::Hipri, EngineOption::Nowait],
);

pub(crate) struct SyncEngine {
    kind: EngineKind,
    files: Vec<EngineFile>,
    /// Current descriptor position per file (sync and vsync only).
    pos: Vec<u64>,
    /// preadv2/pwritev2 flags.
    rwf: libc::c_int,
    /// The copy's other end, if any.
    copy: CopyEnds,
}

impl SyncEngine {
    pub(crate) fn new(kind: EngineKind, setup: &EngineSetup) -> Result<Self, EngineError> {
        match kind {
            EngineKind::Sync
            | EngineKind::Psync
            | EngineKind::Vsync
            | EngineKind::Pvsync
            | EngineKind::Pvsync2 => {}
            other => {
                return Err(EngineError::Io(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    format!("{} is not a synchronous read/write engine", other.name()),
                )))
            }
        }
        let mut rwf = 0;
        if kind == EngineKind::Pvsync2 {
            if setup.options.hipri {
                rwf |= libc::RWF_HIPRI;
            }
            if setup.options.nowait {
                rwf |= libc::RWF_NOWAIT;
            }
        }
        Ok(SyncEngine {
            kind,
            files: setup.files.to_vec(),
            pos: vec![POS_UNKNOWN; setup.files.len()],
            rwf,
            copy: CopyEnds::open(setup.options)?,
        })
    }

    /// Read or write through the descriptor of file `idx` with the engine's system call.
    #[inline]
    fn rw(&mut self, idx: usize, fd: RawFd, io: &IoUnit) -> i64 {
        let write = io.op == Op::Write;
        let off = io.offset as libc::off_t;
        let buf = io.buf;
        let len = io.len;
        let iov = libc::iovec {
            iov_base: buf as *mut libc::c_void,
            iov_len: len,
        };
        // SAFETY (all calls below): `buf` is valid for `len` bytes for the duration of the I/O
        // (the worker's contract), and `iov` lives on the stack across each call.
        match self.kind {
            EngineKind::Psync => retry(|| unsafe {
                if write {
                    libc::pwrite(fd, buf as *const libc::c_void, len, off)
                } else {
                    libc::pread(fd, buf as *mut libc::c_void, len, off)
                }
            }),
            // SAFETY: as above; `iov` describes `buf`.
            EngineKind::Pvsync => retry(|| unsafe {
                if write {
                    libc::pwritev(fd, &iov, 1, off)
                } else {
                    libc::preadv(fd, &iov, 1, off)
                }
            }),
            EngineKind::Pvsync2 => {
                let flags = self.rwf;
                // SAFETY: as above; `iov` describes `buf`.
                retry(|| unsafe {
                    if write {
                        libc::pwritev2(fd, &iov, 1, off, flags)
                    } else {
                        libc::preadv2(fd, &iov, 1, off, flags)
                    }
                })
            }
            _ => {
                if self.pos[idx] != io.offset {
                    // SAFETY: lseek takes no memory.
                    let r = retry(|| unsafe { libc::lseek(fd, off, libc::SEEK_SET) } as isize);
                    if r < 0 {
                        self.pos[idx] = POS_UNKNOWN;
                        return r;
                    }
                }
                let vectored = self.kind == EngineKind::Vsync;
                // SAFETY: as above; `buf` is valid for `len` bytes and `iov` describes it.
                let r = retry(|| unsafe {
                    match (vectored, write) {
                        (false, true) => libc::write(fd, buf as *const libc::c_void, len),
                        (false, false) => libc::read(fd, buf as *mut libc::c_void, len),
                        (true, true) => libc::writev(fd, &iov, 1),
                        (true, false) => libc::readv(fd, &iov, 1),
                    }
                });
                self.pos[idx] = if r >= 0 {
                    io.offset + r as u64
                } else {
                    POS_UNKNOWN
                };
                r
            }
        }
    }
}

impl Engine for SyncEngine {
    #[cfg(test)]
    fn name(&self) -> &'static str {
        self.kind.name()
    }
    fn set_file(&mut self, file: u32, fd: RawFd) -> io::Result<()> {
        self.files[file as usize].fd = fd;
        self.pos[file as usize] = POS_UNKNOWN;
        Ok(())
    }
    fn is_sync(&self) -> bool {
        true
    }
    #[inline]
    fn queue(&mut self, io: &IoUnit) -> Queued {
        let idx = io.file as usize;
        let Some(file) = self.files.get(idx) else {
            return Queued::Done(EBADF);
        };
        let fd = file.fd;
        if fd < 0 {
            return Queued::Done(EBADF);
        }
        Queued::Done(match io.op {
            Op::Write => match self.copy.before_write(io.buf, io.len) {
                0 => self.rw(idx, fd, io),
                e => e,
            },
            Op::Read => match self.rw(idx, fd, io) {
                n if n > 0 => match self.copy.after_read(io.buf, n as usize) {
                    0 => n,
                    e => e,
                },
                r => r,
            },
            Op::Trim => do_trim(file, io.offset, io.len as u64),
            Op::Fsync => do_sync(fd, false),
            Op::Fdatasync => do_sync(fd, true),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::*;
    use super::super::EngineOptions;
    use super::*;

    const KINDS: [EngineKind; 5] = [
        EngineKind::Sync,
        EngineKind::Psync,
        EngineKind::Vsync,
        EngineKind::Pvsync,
        EngineKind::Pvsync2,
    ];

    fn done(q: Queued) -> i64 {
        match q {
            Queued::Done(r) => r,
            Queued::Pending => panic!("sync engine returned Pending"),
        }
    }

    fn make_file(path: &std::path::Path, size: usize, seed: u64) -> Vec<u8> {
        let mut data = vec![0u8; size];
        fill(&mut data, seed);
        std::fs::write(path, &data).unwrap();
        data
    }

    #[test]
    fn names_and_rejects_other_kinds() {
        let opts = EngineOptions::default();
        let s = setup(&[], &[], &opts, false);
        for k in KINDS {
            let e = SyncEngine::new(k, &s).unwrap();
            assert_eq!(e.name(), k.name());
            assert!(e.is_sync());
        }
        assert!(SyncEngine::new(EngineKind::Libaio, &s).is_err());
        assert!(SyncEngine::new(EngineKind::FileStat, &s).is_err());
    }

    #[test]
    fn write_then_read_back_every_kind() {
        // (offset, len): sequential runs, backwards jumps and unaligned pieces.
        let ios: [(u64, usize); 8] = [
            (0, 4096),
            (4096, 4096),
            (8192, 8192),
            (65536, 512),
            (1000, 777),
            (131072 - 4096, 4096),
            (20000, 12288),
            (32768, 4096),
        ];
        for dir in temp_dirs("sync-rw") {
            for (ki, kind) in KINDS.into_iter().enumerate() {
                let path = dir.join(kind.name());
                let mut expect = make_file(&path, 131072, 99);
                let fd = Fd::open(&path, libc::O_RDWR).unwrap();
                let files = [efile(fd.0, &path, 131072, false)];
                let mut wbuf = AlignedBuf::new(16384);
                let mut rbuf = AlignedBuf::new(16384);
                let bufs = [wbuf.engine_buf(), rbuf.engine_buf()];
                let opts = EngineOptions::default();
                let mut eng = SyncEngine::new(kind, &setup(&files, &bufs, &opts, false)).unwrap();
                for (i, &(off, len)) in ios.iter().enumerate() {
                    fill(&mut wbuf.as_mut_slice()[..len], (ki * 100 + i) as u64 + 1);
                    let r = done(eng.queue(&unit(0, Op::Write, off, len, wbuf.ptr())));
                    assert_eq!(r, len as i64, "{kind:?} write at {off}");
                    expect[off as usize..off as usize + len]
                        .copy_from_slice(&wbuf.as_slice()[..len]);
                    if matches!(kind, EngineKind::Sync | EngineKind::Vsync) {
                        // SAFETY: querying the position of an open descriptor.
                        let pos = unsafe { libc::lseek(fd.0, 0, libc::SEEK_CUR) };
                        assert_eq!(pos as u64, off + len as u64);
                    }
                }
                for &(off, len) in ios.iter().rev().chain(ios.iter()) {
                    rbuf.as_mut_slice().fill(0);
                    let r = done(eng.queue(&unit(0, Op::Read, off, len, rbuf.ptr())));
                    assert_eq!(r, len as i64, "{kind:?} read at {off}");
                    assert_eq!(
                        &rbuf.as_slice()[..len],
                        &expect[off as usize..off as usize + len],
                        "{kind:?} data at {off}"
                    );
                }
                assert_eq!(done(eng.queue(&unit(0, Op::Fsync, 0, 0, wbuf.ptr()))), 0);
                assert_eq!(
                    done(eng.queue(&unit(0, Op::Fdatasync, 0, 0, wbuf.ptr()))),
                    0
                );
                assert_eq!(std::fs::read(&path).unwrap(), expect, "{kind:?} file");
            }
        }
    }

    #[test]
    fn sync_reseeks_after_outside_move() {
        // A position the engine did not produce must not be trusted: the first I/O seeks.
        let dir = TempDir::new("sync-seek");
        let path = dir.join("f");
        let data = make_file(&path, 16384, 5);
        let fd = Fd::open(&path, libc::O_RDWR).unwrap();
        // SAFETY: moving the position of an open descriptor.
        unsafe { libc::lseek(fd.0, 12345, libc::SEEK_SET) };
        let files = [efile(fd.0, &path, 16384, false)];
        let buf = AlignedBuf::new(4096);
        let opts = EngineOptions::default();
        for kind in [EngineKind::Sync, EngineKind::Vsync] {
            let mut eng = SyncEngine::new(kind, &setup(&files, &[], &opts, false)).unwrap();
            assert_eq!(
                done(eng.queue(&unit(0, Op::Read, 0, 4096, buf.ptr()))),
                4096
            );
            assert_eq!(buf.as_slice(), &data[..4096]);
            assert_eq!(
                done(eng.queue(&unit(0, Op::Read, 4096, 4096, buf.ptr()))),
                4096
            );
            assert_eq!(buf.as_slice(), &data[4096..8192]);
        }
    }

    #[test]
    fn direct_io_every_kind() {
        for dir in temp_dirs("sync-direct") {
            let path = dir.join("direct");
            make_file(&path, 65536, 7);
            let fd = match Fd::open(&path, libc::O_RDWR | libc::O_DIRECT) {
                Ok(fd) => fd,
                Err(e) if e == libc::EINVAL => {
                    eprintln!("O_DIRECT not supported in {}", dir.path().display());
                    continue;
                }
                Err(e) => panic!("open O_DIRECT: errno {e}"),
            };
            let files = [efile(fd.0, &path, 65536, false)];
            let mut wbuf = AlignedBuf::new(8192);
            let mut rbuf = AlignedBuf::new(8192);
            let opts = EngineOptions::default();
            for (ki, kind) in KINDS.into_iter().enumerate() {
                let mut eng = SyncEngine::new(kind, &setup(&files, &[], &opts, true)).unwrap();
                for (i, off) in [8192u64, 0, 4096 * 9].into_iter().enumerate() {
                    fill(wbuf.as_mut_slice(), (ki * 10 + i) as u64 + 1000);
                    let r = done(eng.queue(&unit(0, Op::Write, off, 8192, wbuf.ptr())));
                    assert_eq!(r, 8192, "{kind:?} direct write at {off}");
                    rbuf.as_mut_slice().fill(0);
                    let r = done(eng.queue(&unit(0, Op::Read, off, 8192, rbuf.ptr())));
                    assert_eq!(r, 8192, "{kind:?} direct read at {off}");
                    assert_eq!(rbuf.as_slice(), wbuf.as_slice(), "{kind:?} data at {off}");
                }
            }
        }
    }

    #[test]
    fn pvsync2_nowait_and_hipri() {
        for dir in temp_dirs("sync-nowait") {
            let path = dir.join("cached");
            let data = make_file(&path, 65536, 11);
            // Bring the file into the page cache.
            assert_eq!(std::fs::read(&path).unwrap(), data);
            let fd = Fd::open(&path, libc::O_RDWR).unwrap();
            let tmpfs = is_tmpfs(fd.0);
            let files = [efile(fd.0, &path, 65536, false)];
            let buf = AlignedBuf::new(8192);
            for (hipri, nowait) in [(false, true), (true, true), (true, false)] {
                let opts = EngineOptions {
                    hipri,
                    nowait,
                    ..EngineOptions::default()
                };
                let mut eng =
                    SyncEngine::new(EngineKind::Pvsync2, &setup(&files, &[], &opts, false))
                        .unwrap();
                for off in [0u64, 8192, 40960] {
                    let r = done(eng.queue(&unit(0, Op::Read, off, 8192, buf.ptr())));
                    if r == -(libc::EAGAIN as i64) && nowait {
                        continue;
                    }
                    // tmpfs does not support RWF_NOWAIT and says so.
                    if r == -(libc::EOPNOTSUPP as i64) && nowait && tmpfs {
                        continue;
                    }
                    assert_eq!(
                        r,
                        8192,
                        "{} hipri={hipri} nowait={nowait} off={off}",
                        dir.path().display()
                    );
                    assert_eq!(buf.as_slice(), &data[off as usize..off as usize + 8192]);
                }
            }
        }
    }

    #[test]
    fn short_read_at_eof() {
        for dir in temp_dirs("sync-eof") {
            let path = dir.join("short");
            let data = make_file(&path, 10000, 3);
            let fd = Fd::open(&path, libc::O_RDONLY).unwrap();
            let files = [efile(fd.0, &path, 10000, false)];
            let buf = AlignedBuf::new(4096);
            let opts = EngineOptions::default();
            for kind in KINDS {
                let mut eng = SyncEngine::new(kind, &setup(&files, &[], &opts, false)).unwrap();
                let r = done(eng.queue(&unit(0, Op::Read, 8192, 4096, buf.ptr())));
                assert_eq!(r, 10000 - 8192, "{kind:?}");
                assert_eq!(&buf.as_slice()[..1808], &data[8192..]);
                let r = done(eng.queue(&unit(0, Op::Read, 10000, 4096, buf.ptr())));
                assert_eq!(r, 0, "{kind:?} at EOF");
                // A write on a read-only descriptor fails with EBADF.
                let r = done(eng.queue(&unit(0, Op::Write, 0, 4096, buf.ptr())));
                assert_eq!(r, -(libc::EBADF as i64), "{kind:?} write on O_RDONLY");
            }
        }
    }

    #[test]
    fn trim_punches_hole() {
        for dir in temp_dirs("sync-trim") {
            for kind in [EngineKind::Psync, EngineKind::Sync] {
                let path = dir.join(kind.name());
                std::fs::write(&path, vec![0xABu8; 65536]).unwrap();
                let fd = Fd::open(&path, libc::O_RDWR).unwrap();
                let files = [efile(fd.0, &path, 65536, false)];
                let buf = AlignedBuf::new(65536);
                let opts = EngineOptions::default();
                let mut eng = SyncEngine::new(kind, &setup(&files, &[], &opts, false)).unwrap();
                let r = done(eng.queue(&unit(0, Op::Trim, 16384, 16384, buf.ptr())));
                assert_eq!(r, 16384);
                assert_eq!(fsize(fd.0), 65536);
                let r = done(eng.queue(&unit(0, Op::Read, 0, 65536, buf.ptr())));
                assert_eq!(r, 65536);
                let s = buf.as_slice();
                assert!(s[..16384].iter().all(|&b| b == 0xAB));
                assert!(s[16384..32768].iter().all(|&b| b == 0));
                assert!(s[32768..].iter().all(|&b| b == 0xAB));
                // SAFETY: querying an open descriptor.
                let hole = unsafe { libc::lseek(fd.0, 0, libc::SEEK_HOLE) };
                assert_eq!(hole, 16384, "first hole");
            }
        }
    }

    #[test]
    fn trim_block_path_and_bad_descriptors() {
        let dir = TempDir::new("sync-bad");
        let path = dir.join("f");
        std::fs::write(&path, vec![1u8; 8192]).unwrap();
        let fd = Fd::open(&path, libc::O_RDWR).unwrap();
        // BLKDISCARD on a regular file is refused by the kernel.
        let blk = efile(fd.0, &path, 8192, true);
        let r = do_trim(&blk, 0, 4096);
        assert!(r < 0, "BLKDISCARD on a regular file returned {r}");
        let files = [efile(-1, &path, 8192, false)];
        let buf = AlignedBuf::new(4096);
        let opts = EngineOptions::default();
        for kind in KINDS {
            let mut eng = SyncEngine::new(kind, &setup(&files, &[], &opts, false)).unwrap();
            for op in [Op::Read, Op::Write, Op::Trim, Op::Fsync, Op::Fdatasync] {
                assert_eq!(done(eng.queue(&unit(0, op, 0, 4096, buf.ptr()))), EBADF);
                assert_eq!(done(eng.queue(&unit(5, op, 0, 4096, buf.ptr()))), EBADF);
            }
        }
        assert_eq!(do_sync(-1, false), EBADF);
        assert_eq!(do_sync(fd.0, false), 0);
        assert_eq!(do_sync(fd.0, true), 0);
    }
}
