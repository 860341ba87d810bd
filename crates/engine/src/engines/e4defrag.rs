//! The e4defrag engine (ext4 online defragmentation, as fio's): each write asks the kernel to
//! move the blocks of its range of the job's file to the same range of a donor file
//! (`EXT4_IOC_MOVE_EXT`), which rewrites the file's layout and leaves its data as it was. The
//! donor (`donorname`, in the job's directory when it has one) is created if missing and kept;
//! its space is allocated once from the job's offset to its file size, or with `inplace=1`
//! for each I/O's range and freed after it. Reads and trims fail with EINVAL, as in fio. Only
//! ext4 has the operation: the runner refuses other file systems before any I/O.

use super::sysio::{retry, set_fd, write_fd};
use super::{Engine, EngineDecl, EngineFile, EngineFlags, EngineKind, EngineOption, EngineSetup};
use super::{IoUnit, Queued};
use crate::job::{JobSpec, SizeSpec};
use std::fs::{File, OpenOptions};
use std::io;
use std::os::fd::{AsRawFd, RawFd};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

/// The superblock magic of ext2, ext3 and ext4 (`statfs`'s f_type).
pub(crate) const EXT4_MAGIC: i64 = 0xEF53;

/// Moves a write's blocks to a donor file.
pub(crate) const DECL: EngineDecl = EngineDecl {
    kind: EngineKind::E4defrag,
    flags: EngineFlags {
        direct: true,
        ..EngineFlags::FILE_IO
    },
    options: &[EngineOption::DonorName, EngineOption::Inplace],
    create: |_, setup| Ok(Box::new(E4defragEngine::new(setup)?)),
};

/// The kernel's `struct move_extent`.
#[repr(C)]
#[derive(Debug, Default)]
struct MoveExtent {
    reserved: u32,
    donor_fd: u32,
    orig_start: u64,
    donor_start: u64,
    len: u64,
    moved_len: u64,
}

/// `EXT4_IOC_MOVE_EXT`: `_IOWR('f', 15, struct move_extent)`.
const EXT4_IOC_MOVE_EXT: libc::Ioctl =
    ((3u32 << 30) | ((std::mem::size_of::<MoveExtent>() as u32) << 16) | ((b'f' as u32) << 8) | 15)
        as libc::Ioctl;

/// The donor's path: `donorname` in the job's (first) directory, as fio joins them.
pub(crate) fn donor_path(spec: &JobSpec) -> Option<PathBuf> {
    let name = spec.engine_options.defrag.name.as_deref()?;
    Some(match spec.directories.first() {
        Some(d) => PathBuf::from(format!("{}/{name}", d.display())),
        None => PathBuf::from(name),
    })
}

/// The donor's path and the range allocated when the job starts: from the job's offset to its
/// file size (fio's `filesize`, the largest of a range).
pub(crate) fn prepare(spec: &mut JobSpec) {
    let Some(path) = donor_path(spec) else {
        return;
    };
    let start = match spec.offset {
        SizeSpec::Bytes(b) => b,
        SizeSpec::Percent(_) => 0,
    };
    let end = spec.filesize.map_or(0, |(_, high)| high);
    spec.engine_options.defrag.prepared = Some((path, start, end.saturating_sub(start)));
}

/// The files an e4defrag job creates besides its targets: the donor.
pub(crate) fn files_written(spec: &JobSpec) -> Vec<PathBuf> {
    match spec.ioengine {
        EngineKind::E4defrag => donor_path(spec).into_iter().collect(),
        _ => Vec::new(),
    }
}

/// The file system `path` is on (or would be created on), when it is not one with
/// `EXT4_IOC_MOVE_EXT`: its name or its magic number.
pub(crate) fn not_ext4(path: &Path) -> Option<String> {
    let probe = if path.exists() {
        path
    } else {
        match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        }
    };
    let magic = fs_magic(probe)?;
    (magic != EXT4_MAGIC).then(|| fs_name(magic))
}

/// `statfs`'s f_type of the file system holding `path`.
fn fs_magic(path: &Path) -> Option<i64> {
    use std::os::unix::ffi::OsStrExt;
    let c = std::ffi::CString::new(path.as_os_str().as_bytes()).ok()?;
    // SAFETY: zeroed statfs is valid; statfs fills it.
    let mut st: libc::statfs = unsafe { std::mem::zeroed() };
    // SAFETY: c is a valid path, st a valid out pointer.
    if unsafe { libc::statfs(c.as_ptr(), &mut st) } != 0 {
        return None;
    }
    Some(st.f_type as i64)
}

/// A file system's name from its magic (<linux/magic.h>), for the common ones.
fn fs_name(magic: i64) -> String {
    let known: &[(i64, &str)] = &[
        (0x0102_1994, "tmpfs"),
        (0x5846_5342, "xfs"),
        (0x9123_683e, "btrfs"),
        (0x794c_7630, "overlayfs"),
        (0x6969, "nfs"),
        (0xf2f5_2010, "f2fs"),
        (0x2fc1_2fc1, "zfs"),
    ];
    match known.iter().find(|(m, _)| *m == magic) {
        Some((_, n)) => n.to_string(),
        None => format!("a file system of type {magic:#x}"),
    }
}

pub(crate) struct E4defragEngine {
    files: Vec<EngineFile>,
    donor: File,
    /// The donor's block size: extents move in whole blocks.
    bsz: u64,
    inplace: bool,
}

impl E4defragEngine {
    fn new(setup: &EngineSetup) -> io::Result<Self> {
        let d = &setup.options.defrag;
        let Some((path, start, len)) = d.prepared.clone() else {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "e4defrag needs a donor file (donorname)",
            ));
        };
        let donor = OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(false)
            .mode(0o644)
            .open(&path)?;
        if !d.inplace {
            fallocate(donor.as_raw_fd(), start, len)?;
        }
        let bsz = donor.metadata()?.blksize().max(1);
        Ok(E4defragEngine {
            files: setup.files.to_vec(),
            donor,
            bsz,
            inplace: d.inplace,
        })
    }

    /// Move the blocks under `[offset, offset + len)` of `fd` to the donor: the bytes moved
    /// (at most `len`), or -errno; none moved is EINVAL (the range lies past the file's end).
    fn move_range(&self, fd: RawFd, offset: u64, len: u64) -> i64 {
        let first = offset / self.bsz;
        let mut me = MoveExtent {
            donor_fd: self.donor.as_raw_fd() as u32,
            orig_start: first,
            donor_start: first,
            len: (offset + len).div_ceil(self.bsz) - first,
            ..Default::default()
        };
        // SAFETY: the ioctl reads and writes `me`, a live struct of the kernel's layout.
        let r = retry(|| unsafe { libc::ioctl(fd, EXT4_IOC_MOVE_EXT, &mut me) } as isize);
        if r < 0 {
            return r;
        }
        match (me.moved_len * self.bsz).min(len) {
            0 => -(libc::EINVAL as i64),
            moved => moved as i64,
        }
    }
}

/// fallocate(2) of `[start, start + len)`, mode 0.
fn fallocate(fd: RawFd, start: u64, len: u64) -> io::Result<()> {
    // SAFETY: fallocate on an open descriptor.
    let r = unsafe { libc::fallocate(fd, 0, start as libc::off_t, len as libc::off_t) };
    if r == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

impl Engine for E4defragEngine {
    #[cfg(test)]
    fn name(&self) -> &'static str {
        "e4defrag"
    }
    fn set_file(&mut self, file: u32, fd: RawFd) -> io::Result<()> {
        set_fd(&mut self.files, file, fd);
        Ok(())
    }
    fn is_sync(&self) -> bool {
        true
    }
    fn queue(&mut self, io: &IoUnit) -> Queued {
        // Defragmenting changes where the data lies, not what it is: writes only.
        let fd = match write_fd(&self.files, io) {
            Ok(fd) => fd,
            Err(e) => return Queued::Done(e),
        };
        let donor = self.donor.as_raw_fd();
        if self.inplace {
            if let Err(e) = fallocate(donor, io.offset, io.len as u64) {
                return Queued::Done(-(e.raw_os_error().unwrap_or(libc::EIO) as i64));
            }
        }
        let r = self.move_range(fd, io.offset, io.len as u64);
        if self.inplace {
            // SAFETY: ftruncate on the open donor.
            let t = unsafe { libc::ftruncate(donor, 0) };
            if t != 0 && r >= 0 {
                return Queued::Done(
                    -(io::Error::last_os_error()
                        .raw_os_error()
                        .unwrap_or(libc::EIO) as i64),
                );
            }
        }
        Queued::Done(r)
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::*;
    use super::super::{EngineOptions, Op};
    use super::*;

    #[test]
    fn the_request_is_the_kernels() {
        assert_eq!(std::mem::size_of::<MoveExtent>(), 40);
        assert_eq!(EXT4_IOC_MOVE_EXT, 0xC028_660F);
    }

    #[test]
    fn the_donor_goes_in_the_jobs_directory_and_is_allocated_to_the_file_size() {
        let mut j = JobSpec {
            ioengine: EngineKind::E4defrag,
            directories: vec!["/scratch".into()],
            filesize: Some((1 << 20, 4 << 20)),
            offset: SizeSpec::Bytes(4096),
            ..Default::default()
        };
        j.engine_options.defrag.name = Some("file.def".into());
        prepare(&mut j);
        let p = j.engine_options.defrag.prepared.clone().unwrap();
        assert_eq!(
            p,
            (PathBuf::from("/scratch/file.def"), 4096, (4 << 20) - 4096)
        );
        assert_eq!(files_written(&j), [PathBuf::from("/scratch/file.def")]);
    }

    #[test]
    fn reads_fail_and_a_file_system_without_the_operation_refuses_writes() {
        for dir in temp_dirs("e4defrag") {
            let p = dir.join("f");
            std::fs::write(&p, vec![7u8; 64 << 10]).unwrap();
            let f = std::fs::OpenOptions::new()
                .read(true)
                .write(true)
                .open(&p)
                .unwrap();
            // Blocks to move: ext4 allocates delayed writes only when they reach the disk.
            f.sync_all().unwrap();
            let files = [efile(f.as_raw_fd(), &p, 0, false)];
            let mut opts = EngineOptions::default();
            opts.defrag.prepared = Some((dir.join("donor"), 0, 64 << 10));
            let s = setup(&files, &[], &opts, false);
            let mut e = E4defragEngine::new(&s).unwrap();
            assert!(dir.join("donor").exists(), "the donor is created");
            let mut u = unit(0, Op::Read, 0, 4096, std::ptr::null_mut());
            assert_eq!(e.queue(&u), Queued::Done(-(libc::EINVAL as i64)));
            u.op = Op::Write;
            let r = e.queue(&u);
            match not_ext4(&p) {
                // tmpfs and the like: the ioctl is not there.
                Some(_) => assert!(matches!(r, Queued::Done(n) if n < 0), "{r:?}"),
                None => assert_eq!(r, Queued::Done(4096)),
            }
            // The data stays what it was.
            assert_eq!(std::fs::read(&p).unwrap(), vec![7u8; 64 << 10]);
        }
    }
}
