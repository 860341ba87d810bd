//! The ftruncate engine: each write sets the file's size to the write's offset (`ftruncate`)
//! instead of transferring data; any other direction fails with EINVAL.

use super::sysio::{retry, set_fd, write_fd};
use super::Queued;
use super::{Engine, EngineDecl, EngineFile, EngineFlags, EngineKind, EngineSetup, IoUnit};
use std::io;
use std::os::fd::RawFd;

/// A size change per write.
pub(crate) const DECL: EngineDecl = EngineDecl {
    kind: EngineKind::Ftruncate,
    flags: EngineFlags {
        direct: false,
        ..EngineFlags::FILE_IO
    },
    options: &[],
    create: |_, setup| Ok(Box::new(FtruncateEngine::new(setup))),
};

pub(crate) struct FtruncateEngine {
    files: Vec<EngineFile>,
}

impl FtruncateEngine {
    pub(crate) fn new(setup: &EngineSetup) -> Self {
        FtruncateEngine {
            files: setup.files.to_vec(),
        }
    }
}

impl Engine for FtruncateEngine {
    #[cfg(test)]
    fn name(&self) -> &'static str {
        "ftruncate"
    }
    fn set_file(&mut self, file: u32, fd: RawFd) -> io::Result<()> {
        set_fd(&mut self.files, file, fd);
        Ok(())
    }
    fn is_sync(&self) -> bool {
        true
    }
    fn queue(&mut self, io: &IoUnit) -> Queued {
        let fd = match write_fd(&self.files, io) {
            Ok(fd) => fd,
            Err(e) => return Queued::Done(e),
        };
        let off = io.offset as libc::off_t;
        // SAFETY: ftruncate on an open descriptor.
        let r = retry(|| unsafe { libc::ftruncate(fd, off) } as isize);
        Queued::Done(if r < 0 { r } else { io.len as i64 })
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::*;
    use super::super::{EngineOptions, Op};
    use super::*;
    use std::os::fd::AsRawFd;

    #[test]
    fn writes_set_the_size_and_reads_fail() {
        for dir in temp_dirs("ftruncate") {
            let p = dir.join("f");
            let f = std::fs::File::create(&p).unwrap();
            let files = [efile(f.as_raw_fd(), &p, 0, false)];
            let opts = EngineOptions::default();
            let s = setup(&files, &[], &opts, false);
            let mut e = FtruncateEngine::new(&s);
            let mut u = IoUnit {
                slot: 0,
                file: 0,
                op: Op::Write,
                offset: 12288,
                len: 4096,
                buf: std::ptr::null_mut(),
                prio: None,
            };
            assert_eq!(e.queue(&u), Queued::Done(4096));
            assert_eq!(std::fs::metadata(&p).unwrap().len(), 12288);
            u.op = Op::Read;
            assert_eq!(e.queue(&u), Queued::Done(-(libc::EINVAL as i64)));
        }
    }
}
