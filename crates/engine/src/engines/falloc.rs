//! The falloc engine: each I/O is a `fallocate` of its range instead of a transfer. A write
//! allocates the range (the file grows to cover it), a read allocates it without changing the
//! file's size, a trim punches a hole in it (the range reads back as zeroes). The descriptor is
//! opened for writing; a job that only reads has it reopened so, as allocation needs it.

use super::sysio::{do_sync, retry, EBADF};
use super::{Engine, EngineDecl, EngineFile, EngineFlags, EngineKind, EngineSetup, IoUnit, Op};
use super::{EngineError, Queued};
use std::io;
use std::os::fd::RawFd;

/// Space allocation per I/O.
pub(crate) const DECL: EngineDecl = EngineDecl {
    kind: EngineKind::Falloc,
    flags: EngineFlags {
        direct: false,
        ..EngineFlags::FILE_IO
    },
    options: &[],
    create: |_, setup| Ok(Box::new(FallocEngine::new(setup)?)),
};

pub(crate) struct FallocEngine {
    files: Vec<EngineFile>,
    /// Descriptors this engine opened for writing in place of read-only ones (closed on drop).
    reopened: Vec<RawFd>,
}

impl FallocEngine {
    pub(crate) fn new(setup: &EngineSetup) -> Result<Self, EngineError> {
        let mut e = FallocEngine {
            files: setup.files.to_vec(),
            reopened: Vec::new(),
        };
        for i in 0..e.files.len() {
            let fd = e.files[i].fd;
            if fd >= 0 {
                e.set_file(i as u32, fd).map_err(EngineError::Io)?;
            }
        }
        Ok(e)
    }

    /// `fd` itself when it was opened for writing, else a new descriptor of the same file
    /// opened read-write.
    fn writable(&mut self, fd: RawFd) -> io::Result<RawFd> {
        // SAFETY: F_GETFL on a descriptor the worker opened reads its flags only.
        let fl = unsafe { libc::fcntl(fd, libc::F_GETFL) };
        if fl < 0 {
            return Err(io::Error::last_os_error());
        }
        if fl & libc::O_ACCMODE != libc::O_RDONLY {
            return Ok(fd);
        }
        let proc = std::ffi::CString::new(format!("/proc/self/fd/{fd}")).expect("no NUL");
        // SAFETY: `proc` is a valid NUL-terminated path; the flags create nothing.
        let w = unsafe { libc::open(proc.as_ptr(), libc::O_RDWR | libc::O_CLOEXEC) };
        if w < 0 {
            return Err(io::Error::last_os_error());
        }
        self.reopened.push(w);
        Ok(w)
    }
}

impl Drop for FallocEngine {
    fn drop(&mut self) {
        for &fd in &self.reopened {
            // SAFETY: each was opened by this engine and is closed once.
            unsafe { libc::close(fd) };
        }
    }
}

impl Engine for FallocEngine {
    #[cfg(test)]
    fn name(&self) -> &'static str {
        "falloc"
    }
    fn set_file(&mut self, file: u32, fd: RawFd) -> io::Result<()> {
        let fd = if fd >= 0 { self.writable(fd)? } else { fd };
        if let Some(f) = self.files.get_mut(file as usize) {
            f.fd = fd;
        }
        Ok(())
    }
    fn is_sync(&self) -> bool {
        true
    }
    fn queue(&mut self, io: &IoUnit) -> Queued {
        let fd = self.files.get(io.file as usize).map_or(-1, |f| f.fd);
        if fd < 0 {
            return Queued::Done(EBADF);
        }
        let mode = match io.op {
            Op::Read => libc::FALLOC_FL_KEEP_SIZE,
            Op::Write => 0,
            Op::Trim => libc::FALLOC_FL_PUNCH_HOLE | libc::FALLOC_FL_KEEP_SIZE,
            Op::Fsync => return Queued::Done(do_sync(fd, false)),
            Op::Fdatasync => return Queued::Done(do_sync(fd, true)),
        };
        let (off, len) = (io.offset as libc::off_t, io.len as libc::off_t);
        // SAFETY: fallocate on an open descriptor; no memory is passed.
        let r = retry(|| unsafe { libc::fallocate(fd, mode, off, len) } as isize);
        Queued::Done(if r < 0 { r } else { io.len as i64 })
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::*;
    use super::super::EngineOptions;
    use super::*;
    use std::os::unix::fs::MetadataExt;

    fn unit(op: Op, offset: u64, len: usize) -> IoUnit {
        IoUnit {
            slot: 0,
            file: 0,
            op,
            offset,
            len,
            buf: std::ptr::null_mut(),
            prio: None,
        }
    }

    #[test]
    fn allocate_keep_size_and_punch() {
        for dir in temp_dirs("falloc") {
            let p = dir.join("f");
            let f = std::fs::File::create(&p).unwrap();
            use std::os::fd::AsRawFd;
            let files = [efile(f.as_raw_fd(), &p, 0, false)];
            let opts = EngineOptions::default();
            let s = setup(&files, &[], &opts, false);
            let mut e = FallocEngine::new(&s).unwrap();
            assert_eq!(e.queue(&unit(Op::Write, 0, 1 << 20)), Queued::Done(1 << 20));
            assert_eq!(std::fs::metadata(&p).unwrap().len(), 1 << 20);
            assert_eq!(e.queue(&unit(Op::Read, 1 << 20, 4096)), Queued::Done(4096));
            assert_eq!(std::fs::metadata(&p).unwrap().len(), 1 << 20);
            let before = std::fs::metadata(&p).unwrap().blocks();
            match e.queue(&unit(Op::Trim, 0, 1 << 19)) {
                Queued::Done(r) if r == -(libc::EOPNOTSUPP as i64) => continue,
                Queued::Done(r) => assert_eq!(r, 1 << 19),
                Queued::Pending => panic!("falloc is synchronous"),
            }
            assert!(std::fs::metadata(&p).unwrap().blocks() < before);
        }
    }
}
