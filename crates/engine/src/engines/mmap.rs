//! mmap engine: each file is mapped whole (MAP_SHARED) on first use; reads and writes are memory
//! copies between the mapping and the I/O buffer, syncs are msync(MS_SYNC) of the mapping.

use super::sysio::{do_trim, last_errno, EBADF};
use super::{
    Engine, EngineDecl, EngineError, EngineFile, EngineFlags, EngineKind, EngineSetup, IoUnit, Op,
    Queued,
};
use std::io;
use std::os::fd::RawFd;
use std::ptr;

/// Memory-mapped files.
pub(crate) const DECL: EngineDecl = EngineDecl {
    kind: EngineKind::Mmap,
    flags: EngineFlags {
        direct: false,
        ..EngineFlags::FILE_IO
    },
    options: &[],
    create: |_, setup| Ok(Box::new(MmapEngine::new(setup)?)),
};
const EINVAL: i64 = -(libc::EINVAL as i64);

/// One file's mapping; `ptr` is null while the file is not mapped.
struct Mapping {
    ptr: *mut u8,
    len: usize,
    writable: bool,
}

pub(crate) struct MmapEngine {
    files: Vec<EngineFile>,
    maps: Vec<Mapping>,
}

impl MmapEngine {
    pub(crate) fn new(setup: &EngineSetup) -> Result<Self, EngineError> {
        Ok(MmapEngine {
            files: setup.files.to_vec(),
            maps: setup
                .files
                .iter()
                .map(|_| Mapping {
                    ptr: ptr::null_mut(),
                    len: 0,
                    writable: false,
                })
                .collect(),
        })
    }

    /// Map file `idx` if it is not mapped yet. Returns 0 or -errno.
    #[cold]
    fn map(&mut self, idx: usize) -> i64 {
        let file = &self.files[idx];
        let fd = file.fd;
        // SAFETY: plain system call on a descriptor.
        let fl = unsafe { libc::fcntl(fd, libc::F_GETFL) };
        if fl < 0 {
            return last_errno();
        }
        let acc = fl & libc::O_ACCMODE;
        let writable = acc == libc::O_RDWR || acc == libc::O_WRONLY;
        let mut len = file.size;
        if !file.is_block {
            // Never map past the end of a regular file: touching such pages raises SIGBUS.
            // SAFETY: `st` is written by fstat before it is read.
            let st_size = unsafe {
                let mut st: libc::stat = std::mem::zeroed();
                if libc::fstat(fd, &mut st) < 0 {
                    return last_errno();
                }
                st.st_size as u64
            };
            len = if len == 0 { st_size } else { len.min(st_size) };
        }
        if len == 0 || len > isize::MAX as u64 {
            return EINVAL;
        }
        let mut prot = libc::PROT_READ;
        if writable {
            prot |= libc::PROT_WRITE;
        }
        // SAFETY: a new shared mapping of `len` bytes of the file; the kernel picks the address.
        let p = unsafe { libc::mmap(ptr::null_mut(), len as usize, prot, libc::MAP_SHARED, fd, 0) };
        if p == libc::MAP_FAILED {
            return last_errno();
        }
        self.maps[idx] = Mapping {
            ptr: p as *mut u8,
            len: len as usize,
            writable,
        };
        0
    }
}

impl Mapping {
    /// Unmap, if mapped (written pages stay in the page cache, as after any munmap).
    fn unmap(&mut self) {
        if !self.ptr.is_null() {
            // SAFETY: `ptr`/`len` describe a mapping created in `map` and not yet unmapped.
            unsafe { libc::munmap(self.ptr as *mut libc::c_void, self.len) };
            self.ptr = ptr::null_mut();
        }
    }
}

impl Drop for MmapEngine {
    fn drop(&mut self) {
        for m in &mut self.maps {
            m.unmap();
        }
    }
}

impl Engine for MmapEngine {
    #[cfg(test)]
    fn name(&self) -> &'static str {
        "mmap"
    }
    /// A closed or reopened file loses its mapping; the next I/O maps the new descriptor.
    fn set_file(&mut self, file: u32, fd: RawFd) -> io::Result<()> {
        self.maps[file as usize].unmap();
        self.files[file as usize].fd = fd;
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
        if file.fd < 0 {
            return Queued::Done(EBADF);
        }
        match io.op {
            Op::Trim => return Queued::Done(do_trim(file, io.offset, io.len as u64)),
            Op::Fsync | Op::Fdatasync => {
                let m = &self.maps[idx];
                if m.ptr.is_null() {
                    // Nothing was written through a mapping of this file.
                    return Queued::Done(0);
                }
                // SAFETY: `ptr`/`len` describe a live mapping.
                let r = unsafe { libc::msync(m.ptr as *mut libc::c_void, m.len, libc::MS_SYNC) };
                return Queued::Done(if r < 0 { last_errno() } else { 0 });
            }
            Op::Read | Op::Write => {}
        }
        if self.maps[idx].ptr.is_null() {
            let r = self.map(idx);
            if r < 0 {
                return Queued::Done(r);
            }
        }
        let m = &self.maps[idx];
        let end = io.offset.checked_add(io.len as u64);
        if !matches!(end, Some(e) if e <= m.len as u64) {
            return Queued::Done(EINVAL);
        }
        // SAFETY: [offset, offset+len) lies inside the live mapping (checked above), and `io.buf`
        // is valid for `io.len` bytes; a worker buffer never overlaps a file mapping.
        unsafe {
            let at = m.ptr.add(io.offset as usize);
            if io.op == Op::Write {
                if !m.writable {
                    return Queued::Done(EBADF);
                }
                ptr::copy_nonoverlapping(io.buf as *const u8, at, io.len);
            } else {
                ptr::copy_nonoverlapping(at as *const u8, io.buf, io.len);
            }
        }
        Queued::Done(io.len as i64)
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::*;
    use super::super::EngineOptions;
    use super::*;

    fn done(q: Queued) -> i64 {
        match q {
            Queued::Done(r) => r,
            Queued::Pending => panic!("mmap engine returned Pending"),
        }
    }

    #[test]
    fn read_write_round_trip_and_msync() {
        for dir in temp_dirs("mmap-rw") {
            let path = dir.join("m");
            let mut expect = vec![0u8; 262144];
            fill(&mut expect, 21);
            std::fs::write(&path, &expect).unwrap();
            let fd = Fd::open(&path, libc::O_RDWR).unwrap();
            let files = [efile(fd.0, &path, 262144, false)];
            let mut wbuf = AlignedBuf::new(16384);
            let mut rbuf = AlignedBuf::new(16384);
            let opts = EngineOptions::default();
            let mut eng = MmapEngine::new(&setup(&files, &[], &opts, false)).unwrap();
            assert_eq!(eng.name(), "mmap");
            assert!(eng.is_sync());
            // Fsync before anything is mapped.
            assert_eq!(done(eng.queue(&unit(0, Op::Fsync, 0, 0, wbuf.ptr()))), 0);
            for (off, len) in [(0u64, 4096usize), (100000, 16384), (262144 - 512, 512)] {
                let r = done(eng.queue(&unit(0, Op::Read, off, len, rbuf.ptr())));
                assert_eq!(r, len as i64);
                assert_eq!(
                    &rbuf.as_slice()[..len],
                    &expect[off as usize..off as usize + len]
                );
            }
            let writes = [(4096u64, 4096usize), (777, 1000), (200000, 16384), (0, 64)];
            for (i, &(off, len)) in writes.iter().enumerate() {
                fill(&mut wbuf.as_mut_slice()[..len], 500 + i as u64);
                let r = done(eng.queue(&unit(0, Op::Write, off, len, wbuf.ptr())));
                assert_eq!(r, len as i64);
                expect[off as usize..off as usize + len].copy_from_slice(&wbuf.as_slice()[..len]);
            }
            for &(off, len) in &writes {
                rbuf.as_mut_slice().fill(0);
                let r = done(eng.queue(&unit(0, Op::Read, off, len, rbuf.ptr())));
                assert_eq!(r, len as i64);
                assert_eq!(
                    &rbuf.as_slice()[..len],
                    &expect[off as usize..off as usize + len]
                );
            }
            assert_eq!(done(eng.queue(&unit(0, Op::Fsync, 0, 0, wbuf.ptr()))), 0);
            assert_eq!(
                done(eng.queue(&unit(0, Op::Fdatasync, 0, 0, wbuf.ptr()))),
                0
            );
            // The data is in the file, as seen through the descriptor.
            let mut got = vec![0u8; 262144];
            // SAFETY: `got` is valid for its length.
            let n = unsafe { libc::pread(fd.0, got.as_mut_ptr() as *mut _, got.len(), 0) };
            assert_eq!(n, 262144);
            assert_eq!(got, expect);
            drop(eng);
            assert_eq!(std::fs::read(&path).unwrap(), expect);
        }
    }

    #[test]
    fn trim_through_mapping() {
        for dir in temp_dirs("mmap-trim") {
            let path = dir.join("t");
            std::fs::write(&path, vec![0x5Au8; 65536]).unwrap();
            let fd = Fd::open(&path, libc::O_RDWR).unwrap();
            let files = [efile(fd.0, &path, 65536, false)];
            let buf = AlignedBuf::new(65536);
            let opts = EngineOptions::default();
            let mut eng = MmapEngine::new(&setup(&files, &[], &opts, false)).unwrap();
            assert_eq!(
                done(eng.queue(&unit(0, Op::Read, 0, 4096, buf.ptr()))),
                4096
            );
            assert_eq!(
                done(eng.queue(&unit(0, Op::Trim, 8192, 8192, buf.ptr()))),
                8192
            );
            assert_eq!(
                done(eng.queue(&unit(0, Op::Read, 0, 65536, buf.ptr()))),
                65536
            );
            let s = buf.as_slice();
            assert!(s[..8192].iter().all(|&b| b == 0x5A));
            assert!(s[8192..16384].iter().all(|&b| b == 0));
            assert!(s[16384..].iter().all(|&b| b == 0x5A));
            assert_eq!(fsize(fd.0), 65536);
        }
    }

    #[test]
    fn errors() {
        let dir = TempDir::new("mmap-err");
        let path = dir.join("ro");
        let mut data = vec![0u8; 16384];
        fill(&mut data, 8);
        std::fs::write(&path, &data).unwrap();
        let empty = dir.join("empty");
        std::fs::write(&empty, b"").unwrap();
        let ro = Fd::open(&path, libc::O_RDONLY).unwrap();
        let efd = Fd::open(&empty, libc::O_RDWR).unwrap();
        let files = [
            efile(ro.0, &path, 16384, false),
            efile(efd.0, &empty, 0, false),
            efile(-1, &path, 16384, false),
            // Claims more than the file holds: the mapping stops at the real end.
            efile(ro.0, &path, 1 << 20, false),
        ];
        let buf = AlignedBuf::new(8192);
        let opts = EngineOptions::default();
        let mut eng = MmapEngine::new(&setup(&files, &[], &opts, false)).unwrap();
        // Read-only descriptor: reads work, writes are refused, the file is untouched.
        assert_eq!(
            done(eng.queue(&unit(0, Op::Read, 8192, 8192, buf.ptr()))),
            8192
        );
        assert_eq!(buf.as_slice(), &data[8192..]);
        assert_eq!(
            done(eng.queue(&unit(0, Op::Write, 0, 4096, buf.ptr()))),
            EBADF
        );
        assert_eq!(std::fs::read(&path).unwrap(), data);
        // Past the end of the mapping.
        assert_eq!(
            done(eng.queue(&unit(0, Op::Read, 12288, 8192, buf.ptr()))),
            EINVAL
        );
        assert_eq!(
            done(eng.queue(&unit(0, Op::Read, u64::MAX - 10, 4096, buf.ptr()))),
            EINVAL
        );
        assert_eq!(
            done(eng.queue(&unit(3, Op::Read, 16384, 4096, buf.ptr()))),
            EINVAL
        );
        assert_eq!(
            done(eng.queue(&unit(3, Op::Read, 12288, 4096, buf.ptr()))),
            4096
        );
        // Zero-size file.
        assert!(done(eng.queue(&unit(1, Op::Read, 0, 4096, buf.ptr()))) < 0);
        assert!(done(eng.queue(&unit(1, Op::Write, 0, 4096, buf.ptr()))) < 0);
        // No descriptor, or no such file.
        for op in [Op::Read, Op::Write, Op::Trim, Op::Fsync, Op::Fdatasync] {
            assert_eq!(done(eng.queue(&unit(2, op, 0, 4096, buf.ptr()))), EBADF);
            assert_eq!(done(eng.queue(&unit(9, op, 0, 4096, buf.ptr()))), EBADF);
        }
    }
}
