//! Metadata engines: filecreate, filestat, filedelete. Each I/O is one metadata operation on the
//! path of its file: create (open with O_CREAT, then close), stat, or unlink. A success reports the
//! I/O's full length so the worker counts it as one complete I/O.

use super::sysio::retry;
use super::{
    Engine, EngineDecl, EngineError, EngineFlags, EngineKind, EngineSetup, IoUnit, Queued,
};
use crate::engines::Capabilities;
use std::ffi::CString;
use std::io;
use std::os::unix::ffi::OsStrExt;

const fn decl(kind: EngineKind) -> EngineDecl {
    EngineDecl {
        kind,
        flags: EngineFlags {
            sync: true,
            opens_file: false,
            diskless: false,
            metadata: true,
            direct: false,
            noio: false,
        },
        options: &[],
        create: |kind, setup| Ok(Box::new(MetaEngine::new(kind, setup)?)),
    }
}

/// Creates (and closes) each file.
pub(crate) const FILECREATE: EngineDecl = decl(EngineKind::FileCreate);
/// Stats each file.
pub(crate) const FILESTAT: EngineDecl = decl(EngineKind::FileStat);
/// Unlinks each file.
pub(crate) const FILEDELETE: EngineDecl = decl(EngineKind::FileDelete);

pub(crate) struct MetaEngine {
    kind: EngineKind,
    /// NUL-terminated paths, one per file, built once so `queue` never allocates.
    paths: Vec<CString>,
}

impl MetaEngine {
    pub(crate) fn new(kind: EngineKind, setup: &EngineSetup) -> Result<Self, EngineError> {
        if !kind.is_metadata() {
            return Err(EngineError::Io(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("{} is not a metadata engine", kind.name()),
            )));
        }
        // A file that backs a loop device (mounted or only attached) is never deleted.
        if kind == EngineKind::FileDelete {
            for f in setup.files {
                if let Some((dev, why)) = crate::targets::backed_loop_in_use(&f.path) {
                    return Err(EngineError::Io(io::Error::new(
                        io::ErrorKind::PermissionDenied,
                        format!(
                            "refusing to delete {}: it is the backing file of {} {why}",
                            f.path.display(),
                            dev.display()
                        ),
                    )));
                }
            }
        }
        let paths = setup
            .files
            .iter()
            .map(|f| {
                CString::new(f.path.as_os_str().as_bytes()).map_err(|_| {
                    EngineError::Io(io::Error::new(
                        io::ErrorKind::InvalidInput,
                        format!("file name contains a NUL byte: {}", f.path.display()),
                    ))
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(MetaEngine { kind, paths })
    }
}

impl Engine for MetaEngine {
    #[cfg(test)]
    fn name(&self) -> &'static str {
        self.kind.name()
    }
    fn is_sync(&self) -> bool {
        true
    }
    fn queue(&mut self, io: &IoUnit) -> Queued {
        let Some(path) = self.paths.get(io.file as usize) else {
            return Queued::Done(-(libc::EBADF as i64));
        };
        let p = path.as_ptr();
        // SAFETY (all calls): `p` is a valid NUL-terminated path; `st` is a stack value the
        // kernel fills in.
        let r = match self.kind {
            EngineKind::FileCreate => {
                let fd = retry(|| unsafe {
                    libc::open(
                        p,
                        libc::O_CREAT | libc::O_RDWR | libc::O_CLOEXEC,
                        0o644 as libc::c_uint,
                    ) as isize
                });
                if fd >= 0 {
                    // SAFETY: `fd` was just opened here; close errors are ignored as for any
                    // close of an unmodified descriptor.
                    unsafe { libc::close(fd as libc::c_int) };
                }
                fd
            }
            EngineKind::FileStat => {
                let mut st = std::mem::MaybeUninit::<libc::stat>::uninit();
                retry(|| unsafe { libc::stat(p, st.as_mut_ptr()) } as isize)
            }
            // SAFETY: `p` is a valid NUL-terminated path.
            _ => retry(|| unsafe { libc::unlink(p) } as isize),
        };
        Queued::Done(if r < 0 { r } else { io.len as i64 })
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::*;
    use super::super::EngineOptions;
    use super::super::Op;
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn done(q: Queued) -> i64 {
        match q {
            Queued::Done(r) => r,
            Queued::Pending => panic!("metadata engine returned Pending"),
        }
    }

    #[test]
    fn create_stat_delete() {
        const ENOENT: i64 = -(libc::ENOENT as i64);
        for dir in temp_dirs("meta") {
            let mut files: Vec<_> = (0..10)
                .map(|i| efile(-1, &dir.join(format!("f.{i}")), 4096, false))
                .collect();
            files.push(efile(-1, &dir.join("missing"), 4096, false));
            files.push(efile(-1, &dir.join("no-such-dir/f"), 4096, false));
            let opts = EngineOptions::default();
            let s = setup(&files, &[], &opts, false);
            let mut create = MetaEngine::new(EngineKind::FileCreate, &s).unwrap();
            let mut stat = MetaEngine::new(EngineKind::FileStat, &s).unwrap();
            let mut delete = MetaEngine::new(EngineKind::FileDelete, &s).unwrap();
            assert_eq!(create.name(), "filecreate");
            assert_eq!(stat.name(), "filestat");
            assert_eq!(delete.name(), "filedelete");
            assert!(create.is_sync() && stat.is_sync() && delete.is_sync());
            let null = std::ptr::null_mut();

            for (i, f) in files.iter().enumerate().take(10) {
                assert!(!f.path.exists());
                let r = done(create.queue(&unit(i as u32, Op::Write, 0, 4096, null)));
                assert_eq!(r, 4096);
                let md = std::fs::metadata(&f.path).unwrap();
                assert!(md.is_file());
                assert_eq!(md.len(), 0);
                assert_eq!(md.permissions().mode() & 0o600, 0o600);
            }
            // Creating an existing file is not an error.
            assert_eq!(done(create.queue(&unit(0, Op::Write, 0, 512, null))), 512);
            assert_eq!(done(create.queue(&unit(11, Op::Write, 0, 1, null))), ENOENT);

            for i in 0..10 {
                assert_eq!(
                    done(stat.queue(&unit(i as u32, Op::Read, 0, 4096, null))),
                    4096
                );
            }
            assert_eq!(done(stat.queue(&unit(10, Op::Read, 0, 4096, null))), ENOENT);
            assert_eq!(done(stat.queue(&unit(11, Op::Read, 0, 4096, null))), ENOENT);

            for (i, f) in files.iter().enumerate().take(10) {
                assert_eq!(
                    done(delete.queue(&unit(i as u32, Op::Write, 0, 4096, null))),
                    4096
                );
                assert!(!f.path.exists());
            }
            assert_eq!(
                done(delete.queue(&unit(0, Op::Write, 0, 4096, null))),
                ENOENT
            );
            assert_eq!(done(stat.queue(&unit(3, Op::Read, 0, 4096, null))), ENOENT);
            assert_eq!(
                done(stat.queue(&unit(99, Op::Read, 0, 4096, null))),
                -(libc::EBADF as i64)
            );
            assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
        }
    }

    #[test]
    fn rejects_other_kinds_and_bad_paths() {
        let opts = EngineOptions::default();
        let s = setup(&[], &[], &opts, false);
        assert!(MetaEngine::new(EngineKind::Psync, &s).is_err());
        use std::os::unix::ffi::OsStrExt;
        let bad = std::path::Path::new(std::ffi::OsStr::from_bytes(b"a\0b"));
        let files = [efile(-1, bad, 0, false)];
        let s = setup(&files, &[], &opts, false);
        assert!(MetaEngine::new(EngineKind::FileStat, &s).is_err());
    }
}
