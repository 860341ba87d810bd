//! Probing a target: kind, size, block sizes, filesystem and the disk under it.

use super::mounts::mount_for;
use super::{
    cpath, dev_split, existing_ancestor, open_raw, read_u64, sys_block_by_devnum, sys_block_for_fs,
    SysBlock,
};
use crate::result::TargetInfo;
use crate::sys::with_context;
use std::fs;
use std::io;
use std::os::unix::fs::{FileTypeExt, MetadataExt};
use std::os::unix::io::{AsRawFd, RawFd};
use std::path::Path;

// Block-device ioctls (from <linux/fs.h>).
#[cfg(any(
    target_arch = "powerpc",
    target_arch = "powerpc64",
    target_arch = "mips",
    target_arch = "mips64",
    target_arch = "sparc",
    target_arch = "sparc64"
))]
const BLKGETSIZE64: libc::Ioctl = 0x4008_1272u32 as libc::Ioctl;
#[cfg(not(any(
    target_arch = "powerpc",
    target_arch = "powerpc64",
    target_arch = "mips",
    target_arch = "mips64",
    target_arch = "sparc",
    target_arch = "sparc64"
)))]
const BLKGETSIZE64: libc::Ioctl = 0x8008_1272u32 as libc::Ioctl;

// ---------------------------------------------------------------------------------------------
// Probe
// ---------------------------------------------------------------------------------------------

fn ioctl_u64(fd: RawFd, req: libc::Ioctl) -> io::Result<u64> {
    let mut v: u64 = 0;
    // SAFETY: the request writes a u64 into v.
    let rc = unsafe { libc::ioctl(fd, req, &mut v as *mut u64) };
    if rc < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(v)
}

fn ioctl_int(fd: RawFd, req: libc::Ioctl) -> io::Result<u64> {
    let mut v: libc::c_int = 0;
    // SAFETY: the request writes an int into v.
    let rc = unsafe { libc::ioctl(fd, req, &mut v as *mut libc::c_int) };
    if rc < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(v as u64)
}

/// Size and logical/physical block sizes of an open block device.
fn block_dev_geometry(fd: RawFd) -> io::Result<(u64, u64, u64)> {
    let size = ioctl_u64(fd, BLKGETSIZE64)?;
    let lbs = ioctl_int(fd, libc::BLKSSZGET as libc::Ioctl).unwrap_or(512);
    let pbs = ioctl_int(fd, libc::BLKPBSZGET as libc::Ioctl).unwrap_or(lbs);
    Ok((size, lbs.max(1), pbs.max(1)))
}

fn fill_disk_facts(info: &mut TargetInfo, sb: &SysBlock) {
    info.device = Some(sb.disk.clone());
    crate::inventory::disk_facts(Path::new("/"), &sb.disk, info);
}

/// Filesystems whose files are views of the kernel, not storage (statfs magics from
/// <linux/magic.h>): proc, sysfs, debugfs, tracefs, securityfs, cgroup v1/v2, configfs, efivarfs,
/// bpf, pstore.
const PSEUDO_FS: &[(libc::c_long, &str)] = &[
    (0x9fa0, "proc"),
    (0x6265_6572, "sysfs"),
    (0x6462_6720, "debugfs"),
    (0x7472_6163, "tracefs"),
    (0x7363_6673, "securityfs"),
    (0x0027_e0eb, "cgroup"),
    (0x6367_7270, "cgroup2"),
    (0x6265_6570, "configfs"),
    (0xde5e_81e4_u32 as libc::c_long, "efivarfs"),
    (0xcafe_4a11_u32 as libc::c_long, "bpf"),
    (0x6165_676c, "pstore"),
];

/// The name of the pseudo filesystem (proc, sysfs, ...) holding `path`, if it is one.
pub(crate) fn pseudo_fs(path: &Path) -> Option<&'static str> {
    let c = cpath(path).ok()?;
    // SAFETY: zeroed statfs is valid; statfs fills it.
    let mut st: libc::statfs = unsafe { std::mem::zeroed() };
    // SAFETY: c is a valid path, st a valid out pointer.
    if unsafe { libc::statfs(c.as_ptr(), &mut st) } != 0 {
        return None;
    }
    let magic = st.f_type as libc::c_long;
    PSEUDO_FS.iter().find(|(m, _)| *m == magic).map(|(_, n)| *n)
}

/// Measures a target: kind ("file", "block", "char", "directory", "fifo", "socket", or
/// "pseudo" for a file of proc, sysfs and the like), size, block sizes, the filesystem and the
/// disk under it. A missing path gives a NotFound error.
pub fn probe(path: &Path) -> io::Result<TargetInfo> {
    let meta = fs::metadata(path).map_err(|e| with_context(e, path.display()))?;
    let ft = meta.file_type();
    let mut info = TargetInfo {
        path: path.display().to_string(),
        logical_block_size: 512,
        physical_block_size: 512,
        ..Default::default()
    };
    if ft.is_block_device() {
        info.kind = "block".into();
        let (ma, mi) = dev_split(meta.rdev());
        let sb = sys_block_by_devnum(ma, mi);
        match open_raw(path, libc::O_RDONLY | libc::O_NONBLOCK, 0)
            .and_then(|f| block_dev_geometry(f.as_raw_fd()))
        {
            Ok((size, lbs, pbs)) => {
                info.size_bytes = size;
                info.logical_block_size = lbs;
                info.physical_block_size = pbs;
            }
            Err(e) => {
                // Without access to the node, sysfs still knows the geometry.
                let sb = sb.as_ref().ok_or_else(|| with_context(e, path.display()))?;
                let sectors = read_u64(format!("/sys/class/block/{}/size", sb.node)).unwrap_or(0);
                info.size_bytes = sectors * 512;
                let (lbs, pbs) = crate::inventory::block_sizes(Path::new("/"), &sb.disk);
                info.logical_block_size = lbs.unwrap_or(512);
                info.physical_block_size = pbs.unwrap_or(info.logical_block_size);
            }
        }
        if let Some(sb) = sb {
            fill_disk_facts(&mut info, &sb);
        }
        return Ok(info);
    }
    if ft.is_fifo() || ft.is_socket() {
        info.kind = if ft.is_fifo() { "fifo" } else { "socket" }.into();
        return Ok(info);
    }
    if ft.is_dir() {
        info.kind = "directory".into();
    } else if ft.is_file() {
        if let Some(fs) = pseudo_fs(path) {
            info.kind = "pseudo".into();
            info.fs_type = Some(fs.into());
            return Ok(info);
        }
        info.kind = "file".into();
        info.size_bytes = meta.len();
    } else {
        info.kind = "char".into();
        return Ok(info);
    }
    let mount = mount_for(path);
    info.fs_type = mount.as_ref().map(|m| m.fs_type.clone());
    info.mount_options = mount.map(|m| m.options).filter(|o| !o.is_empty());
    info.free_bytes = free_space(path).ok();
    if let Some(sb) = sys_block_for_fs(path, meta.dev()) {
        let (lbs, pbs) = crate::inventory::block_sizes(Path::new("/"), &sb.disk);
        if let Some(l) = lbs {
            info.logical_block_size = l;
        }
        info.physical_block_size = pbs.unwrap_or(info.logical_block_size);
        fill_disk_facts(&mut info, &sb);
    }
    Ok(info)
}

/// statvfs of the filesystem holding `dir` (or its nearest existing ancestor).
fn statvfs(dir: &Path) -> io::Result<libc::statvfs> {
    let p = existing_ancestor(dir).unwrap_or_else(|| dir.to_path_buf());
    let c = cpath(&p)?;
    // SAFETY: zeroed statvfs is valid; statvfs fills it.
    let mut st: libc::statvfs = unsafe { std::mem::zeroed() };
    // SAFETY: c is a valid path, st a valid out pointer.
    let rc = unsafe { libc::statvfs(c.as_ptr(), &mut st) };
    if rc != 0 {
        return Err(with_context(io::Error::last_os_error(), p.display()));
    }
    Ok(st)
}

/// Bytes available to unprivileged users on the filesystem holding `dir` (statvfs).
pub fn free_space(dir: &Path) -> io::Result<u64> {
    let st = statvfs(dir)?;
    Ok((st.f_bavail as u64).saturating_mul(st.f_frsize as u64))
}

/// Files (inodes) that can still be created on the filesystem holding `dir`; None when the
/// filesystem has no fixed count (it reports 0 inodes in all, as btrfs and tmpfs may).
pub fn free_files(dir: &Path) -> io::Result<Option<u64>> {
    let st = statvfs(dir)?;
    Ok((st.f_files > 0).then_some(st.f_favail as u64))
}

/// Whether this process may create and remove entries in the directory `dir`: access(2) with
/// W_OK|X_OK, which answers EROFS on a read-only file system even to root (and EACCES when the
/// permission bits refuse an unprivileged user). Nothing is written.
pub fn dir_writable(dir: &Path) -> io::Result<()> {
    let c = cpath(dir)?;
    // SAFETY: c is a valid NUL-terminated path; access reads it and nothing else.
    let rc = unsafe { libc::access(c.as_ptr(), libc::W_OK | libc::X_OK) };
    if rc != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// The facts of a place a run makes its files in (a suite's test file, work directory or
/// scratch file), under its absolute path: the path's own when something is there, else the
/// nearest existing directory above it (its file system and disk), so that a file the run
/// makes and removes is still described. None when nothing above it exists.
pub fn probe_place(path: &Path) -> Option<TargetInfo> {
    let abs = std::path::absolute(path).ok()?;
    let mut info = abs
        .ancestors()
        .find(|a| a.symlink_metadata().is_ok())
        .and_then(|a| probe(a).ok())?;
    info.path = abs.display().to_string();
    Some(info)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::targets::testutil::*;
    use crate::targets::*;

    #[test]
    fn dir_writable_answers_for_a_directory() {
        let d = TempDir::new("writable");
        assert!(dir_writable(d.path()).is_ok());
        let missing = d.path().join("missing");
        assert_eq!(
            dir_writable(&missing).unwrap_err().raw_os_error(),
            Some(libc::ENOENT)
        );
    }

    #[test]
    fn probe_regular_file_in_tmp() {
        let d = TempDir::new("probe");
        let f = d.path().join("a.dat");
        fs::write(&f, vec![1u8; 12345]).unwrap();
        let info = probe(&f).unwrap();
        assert_eq!(info.kind, "file");
        assert_eq!(info.size_bytes, 12345);
        assert_eq!(info.path, f.display().to_string());
        let fs_type = info.fs_type.clone().expect("fs_type");
        let expect = mount_for(&f).unwrap();
        assert_eq!(fs_type, expect.fs_type);
        assert!(info.logical_block_size >= 512 && info.logical_block_size.is_power_of_two());
        assert!(info.physical_block_size >= info.logical_block_size);
        if statfs_magic(&f) == EXT_MAGIC {
            assert!(fs_type.starts_with("ext"), "{fs_type}");
            let dev = info.device.clone().expect("an ext filesystem has a device");
            assert!(
                Path::new(&format!("/sys/block/{dev}/stat")).exists(),
                "{dev}"
            );
            assert!(info.rotational.is_some());
            if Path::new(&format!("/sys/block/{dev}/queue/scheduler")).exists() {
                assert!(info.scheduler.is_some());
            }
            let lbs = read_u64(format!("/sys/block/{dev}/queue/logical_block_size")).unwrap();
            assert_eq!(info.logical_block_size, lbs);
            assert_eq!(disks_for(&f).first(), Some(&dev));
            assert_eq!(
                disks_for(&d.path().join("not/yet/there")).first(),
                Some(&dev)
            );
        }
    }

    #[test]
    fn probe_tmpfs_file() {
        let shm = Path::new("/dev/shm");
        assert!(shm.is_dir(), "/dev/shm missing");
        assert_eq!(statfs_magic(shm), TMPFS_MAGIC);
        let d = TempDir::new_in(shm, "shm");
        let f = d.path().join("b.dat");
        fs::write(&f, b"hello").unwrap();
        let info = probe(&f).unwrap();
        assert_eq!(info.kind, "file");
        assert_eq!(info.size_bytes, 5);
        assert_eq!(info.fs_type.as_deref(), Some("tmpfs"));
        assert_eq!(info.device, None);
        assert_eq!(info.logical_block_size, 512);
        assert!(disks_for(&f).is_empty());
    }

    #[test]
    fn probe_char_dir_missing() {
        let n = probe(Path::new("/dev/null")).unwrap();
        assert_eq!(n.kind, "char");
        assert_eq!(n.size_bytes, 0);
        assert_eq!(n.device, None);
        let d = TempDir::new("dir");
        let i = probe(d.path()).unwrap();
        assert_eq!(i.kind, "directory");
        assert!(i.fs_type.is_some());
        let e = probe(&d.path().join("missing")).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::NotFound);
        assert!(e.to_string().contains("missing"), "{e}");
        assert_eq!(crate::sys::errno_of(&e), libc::ENOENT);
        assert!(disks_for(Path::new("/dev/null")).is_empty());
    }

    #[test]
    fn probe_fifo_socket_and_kernel_files() {
        let d = TempDir::new("special");
        let fifo = d.path().join("fifo");
        let c = cpath(&fifo).unwrap();
        // SAFETY: c is a valid path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        assert_eq!(probe(&fifo).unwrap().kind, "fifo");
        let sock = d.path().join("sock");
        let _l = std::os::unix::net::UnixListener::bind(&sock).unwrap();
        assert_eq!(probe(&sock).unwrap().kind, "socket");
        let mem = probe(Path::new("/proc/self/mem")).unwrap();
        assert_eq!(mem.kind, "pseudo");
        assert_eq!(mem.fs_type.as_deref(), Some("proc"));
        assert_eq!(pseudo_fs(Path::new("/sys/kernel")), Some("sysfs"));
        assert_eq!(pseudo_fs(d.path()), None);
    }

    #[test]
    fn a_place_not_made_yet_has_the_facts_of_its_directory_under_its_own_path() {
        let d = tempfile::tempdir().unwrap();
        let gone = d.path().join("sub").join("file.tmp");
        let t = probe_place(&gone).unwrap();
        assert_eq!(t.path, gone.display().to_string());
        assert_eq!(t.kind, "directory");
        let dir = probe(d.path()).unwrap();
        assert_eq!(
            (t.fs_type.clone(), t.size_bytes),
            (dir.fs_type, dir.size_bytes)
        );
        std::fs::write(d.path().join("made"), b"x").unwrap();
        let made = probe_place(&d.path().join("made")).unwrap();
        assert_eq!((made.kind.as_str(), made.size_bytes), ("file", 1));
    }
}
