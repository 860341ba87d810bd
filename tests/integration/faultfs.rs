//! A FUSE filesystem holding one file in memory that fails or shortens chosen reads and writes:
//! real I/O errors for the error-handling tests.

use fuser::{
    Errno, FileAttr, FileHandle, FileType, Filesystem, FopenFlags, INodeNo, LockOwner, OpenFlags,
    ReplyAttr, ReplyData, ReplyDirectory, ReplyEmpty, ReplyEntry, ReplyOpen, ReplyStatfs,
    ReplyWrite, Request, WriteFlags,
};
use std::ffi::OsStr;
use std::sync::Mutex;
use std::time::{Duration, UNIX_EPOCH};

pub const FILE: &str = "data";
const TTL: Duration = Duration::from_secs(1);

/// One file, `FILE`, held in memory. Reads or writes touching a `bad_*` range fail with `errno`
/// (EIO unless set);
/// ones starting in a `short_*` range transfer only half the bytes asked for.
pub struct FaultFs {
    pub data: Mutex<Vec<u8>>,
    pub bad_read: Vec<(u64, u64)>,
    pub bad_write: Vec<(u64, u64)>,
    pub short_read: Vec<(u64, u64)>,
    pub short_write: Vec<(u64, u64)>,
    /// The error of the bad ranges (EIO when 0).
    pub errno: i32,
}

fn hits(ranges: &[(u64, u64)], off: u64, len: u64) -> bool {
    ranges.iter().any(|&(a, b)| off < b && a < off + len)
}

impl FaultFs {
    fn error(&self) -> Errno {
        if self.errno == 0 {
            Errno::EIO
        } else {
            Errno::from_i32(self.errno)
        }
    }

    fn attr(&self, ino: INodeNo) -> FileAttr {
        let dir = ino == INodeNo::ROOT;
        let size = if dir {
            0
        } else {
            self.data.lock().unwrap().len() as u64
        };
        FileAttr {
            ino,
            size,
            blocks: size.div_ceil(512),
            atime: UNIX_EPOCH,
            mtime: UNIX_EPOCH,
            ctime: UNIX_EPOCH,
            crtime: UNIX_EPOCH,
            kind: if dir {
                FileType::Directory
            } else {
                FileType::RegularFile
            },
            perm: if dir { 0o755 } else { 0o644 },
            nlink: if dir { 2 } else { 1 },
            uid: 0,
            gid: 0,
            rdev: 0,
            flags: 0,
            blksize: 4096,
        }
    }
}

const FILE_INO: INodeNo = INodeNo(2);

impl Filesystem for FaultFs {
    fn lookup(&self, _r: &Request, parent: INodeNo, name: &OsStr, reply: ReplyEntry) {
        if parent == INodeNo::ROOT && name == FILE {
            reply.entry(&TTL, &self.attr(FILE_INO), fuser::Generation(0));
        } else {
            reply.error(Errno::ENOENT);
        }
    }

    fn getattr(&self, _r: &Request, ino: INodeNo, _fh: Option<FileHandle>, reply: ReplyAttr) {
        if ino == INodeNo::ROOT || ino == FILE_INO {
            reply.attr(&TTL, &self.attr(ino));
        } else {
            reply.error(Errno::ENOENT);
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn setattr(
        &self,
        _r: &Request,
        ino: INodeNo,
        _mode: Option<u32>,
        _uid: Option<u32>,
        _gid: Option<u32>,
        _size: Option<u64>,
        _atime: Option<fuser::TimeOrNow>,
        _mtime: Option<fuser::TimeOrNow>,
        _ctime: Option<std::time::SystemTime>,
        _fh: Option<FileHandle>,
        _crtime: Option<std::time::SystemTime>,
        _chgtime: Option<std::time::SystemTime>,
        _bkuptime: Option<std::time::SystemTime>,
        _flags: Option<fuser::BsdFileFlags>,
        reply: ReplyAttr,
    ) {
        reply.attr(&TTL, &self.attr(ino));
    }

    fn open(&self, _r: &Request, _ino: INodeNo, _flags: OpenFlags, reply: ReplyOpen) {
        // Every read and write comes here, none is absorbed by the page cache.
        reply.opened(FileHandle(0), FopenFlags::FOPEN_DIRECT_IO);
    }

    #[allow(clippy::too_many_arguments)]
    fn read(
        &self,
        _r: &Request,
        _ino: INodeNo,
        _fh: FileHandle,
        offset: u64,
        size: u32,
        _flags: OpenFlags,
        _lock: Option<LockOwner>,
        reply: ReplyData,
    ) {
        if hits(&self.bad_read, offset, size as u64) {
            return reply.error(self.error());
        }
        let d = self.data.lock().unwrap();
        let start = (offset as usize).min(d.len());
        let mut end = (start + size as usize).min(d.len());
        if hits(&self.short_read, offset, 1) {
            end = start + (end - start) / 2;
        }
        reply.data(&d[start..end]);
    }

    #[allow(clippy::too_many_arguments)]
    fn write(
        &self,
        _r: &Request,
        _ino: INodeNo,
        _fh: FileHandle,
        offset: u64,
        data: &[u8],
        _wf: WriteFlags,
        _flags: OpenFlags,
        _lock: Option<LockOwner>,
        reply: ReplyWrite,
    ) {
        if hits(&self.bad_write, offset, data.len() as u64) {
            return reply.error(self.error());
        }
        let n = if hits(&self.short_write, offset, 1) {
            data.len() / 2
        } else {
            data.len()
        };
        let mut d = self.data.lock().unwrap();
        let start = offset as usize;
        if start + n > d.len() {
            return reply.error(Errno::ENOSPC);
        }
        d[start..start + n].copy_from_slice(&data[..n]);
        reply.written(n as u32);
    }

    fn flush(
        &self,
        _r: &Request,
        _ino: INodeNo,
        _fh: FileHandle,
        _lock: LockOwner,
        reply: ReplyEmpty,
    ) {
        reply.ok();
    }

    fn fsync(
        &self,
        _r: &Request,
        _ino: INodeNo,
        _fh: FileHandle,
        _datasync: bool,
        reply: ReplyEmpty,
    ) {
        reply.ok();
    }

    fn access(&self, _r: &Request, _ino: INodeNo, _mask: fuser::AccessFlags, reply: ReplyEmpty) {
        reply.ok();
    }

    fn statfs(&self, _r: &Request, _ino: INodeNo, reply: ReplyStatfs) {
        reply.statfs(1 << 20, 1 << 19, 1 << 19, 16, 8, 4096, 255, 4096);
    }

    fn readdir(
        &self,
        _r: &Request,
        ino: INodeNo,
        _fh: FileHandle,
        offset: u64,
        mut reply: ReplyDirectory,
    ) {
        if ino != INodeNo::ROOT {
            return reply.error(Errno::ENOENT);
        }
        let entries = [
            (INodeNo::ROOT, FileType::Directory, "."),
            (INodeNo::ROOT, FileType::Directory, ".."),
            (FILE_INO, FileType::RegularFile, FILE),
        ];
        for (i, (ino, kind, name)) in entries.into_iter().enumerate().skip(offset as usize) {
            if reply.add(ino, (i + 1) as u64, kind, name) {
                break;
            }
        }
        reply.ok();
    }
}

/// The FUSE filesystem mounted on a scratch directory; unmounted on drop.
pub struct FuseMount {
    session: Option<fuser::BackgroundSession>,
    pub file: std::path::PathBuf,
    _dir: crate::util::Scratch,
}

impl FuseMount {
    pub fn new(tag: &str, fs: FaultFs) -> FuseMount {
        let dir = crate::util::Scratch::new(tag);
        let mnt = dir.file("mnt");
        std::fs::create_dir_all(&mnt).unwrap();
        let mut cfg = fuser::Config::default();
        cfg.mount_options = vec![
            fuser::MountOption::FSName("iomark-faultfs".into()),
            fuser::MountOption::DefaultPermissions,
        ];
        cfg.n_threads = Some(2);
        let session = fuser::spawn_mount(fs, &mnt, &cfg)
            .unwrap_or_else(|e| panic!("mounting the FUSE test filesystem: {e}"));
        FuseMount {
            session: Some(session),
            file: mnt.join(FILE),
            _dir: dir,
        }
    }
}

impl Drop for FuseMount {
    fn drop(&mut self) {
        if let Some(s) = self.session.take() {
            let _ = s.umount_and_join();
        }
    }
}
