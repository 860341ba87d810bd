//! Targets: regular files, directories, block and character devices. Probing (size, block
//! sizes, filesystem, underlying disk), opening with the requested flags, laying out files,
//! dropping cached pages, disk statistics, mount checks and signature detection for devices.

use std::ffi::CString;
use std::fs::{self, File};
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{FileTypeExt, MetadataExt};
use std::os::unix::io::FromRawFd;
use std::path::{Path, PathBuf};

mod claim;
mod diskstats;
mod ends;
mod layout;
mod mounts;
mod probe;
mod replace;
mod signature;
mod socket;

pub use claim::{backed_loop_in_use, loops_backed_by, missing_device_path};
pub use layout::open_target;
pub use probe::{dir_writable, free_files, free_space, probe, probe_place};
pub(crate) use replace::remove_for_replace;

pub(crate) use claim::{claim_exclusive, dump_dir_beside, special_kind};
pub use claim::{BusyReason, LoopInUse};
#[cfg(test)]
pub(crate) use diskstats::disks_for;
pub(crate) use diskstats::{DiskLookup, DiskStatsSampler};
pub(crate) use ends::ends_signature;
pub(crate) use layout::{invalidate_cache, layout_file_until};
pub(crate) use mounts::{device_mount_point, mount_for};
pub(crate) use signature::fs_signature;
pub use socket::not_a_socket;

// ---------------------------------------------------------------------------------------------
// Small helpers
// ---------------------------------------------------------------------------------------------

fn read_trim(p: impl AsRef<Path>) -> Option<String> {
    fs::read_to_string(p).ok().map(|s| s.trim().to_string())
}

fn read_u64(p: impl AsRef<Path>) -> Option<u64> {
    read_trim(p)?.parse().ok()
}

fn cpath(path: &Path) -> io::Result<CString> {
    CString::new(path.as_os_str().as_bytes()).map_err(|_| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{}: path contains a NUL byte", path.display()),
        )
    })
}

fn dev_split(dev: u64) -> (u32, u32) {
    (
        libc::major(dev as libc::dev_t),
        libc::minor(dev as libc::dev_t),
    )
}

/// The nearest ancestor of `path` (itself included) that exists.
fn existing_ancestor(path: &Path) -> Option<PathBuf> {
    if fs::symlink_metadata(path).is_ok() {
        return Some(path.to_path_buf());
    }
    let abs = if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir().ok()?.join(path)
    };
    let mut p = abs.as_path();
    loop {
        if fs::symlink_metadata(p).is_ok() {
            return Some(p.to_path_buf());
        }
        p = p.parent()?;
    }
}

/// sysfs names of a block device node: the node itself (disk or partition) and its whole disk.
#[derive(Clone, Debug, PartialEq, Eq)]
struct SysBlock {
    node: String,
    disk: String,
}

fn sys_block_by_devnum(major: u32, minor: u32) -> Option<SysBlock> {
    let link = PathBuf::from(format!("/sys/dev/block/{major}:{minor}"));
    let real = fs::canonicalize(&link).ok()?;
    sys_block_from_dir(&real)
}

fn sys_block_by_name(name: &str) -> Option<SysBlock> {
    let real = fs::canonicalize(format!("/sys/class/block/{}", name.replace('/', "!"))).ok()?;
    sys_block_from_dir(&real)
}

fn sys_block_from_dir(real: &Path) -> Option<SysBlock> {
    let node = real.file_name()?.to_string_lossy().into_owned();
    let disk = if real.join("partition").exists() {
        real.parent()?.file_name()?.to_string_lossy().into_owned()
    } else {
        node.clone()
    };
    Some(SysBlock { node, disk })
}

/// The block device holding a file's filesystem: from st_dev, or from the mount's source device
/// when st_dev is an anonymous number (btrfs, overlay on a device, ...).
fn sys_block_for_fs(path: &Path, st_dev: u64) -> Option<SysBlock> {
    let (ma, mi) = dev_split(st_dev);
    if ma != 0 {
        if let Some(b) = sys_block_by_devnum(ma, mi) {
            return Some(b);
        }
    }
    let m = mount_for(path)?;
    if !m.source.starts_with("/dev/") {
        return None;
    }
    let meta = fs::metadata(&m.source).ok()?;
    if !meta.file_type().is_block_device() {
        return None;
    }
    let (ma, mi) = dev_split(meta.rdev());
    sys_block_by_devnum(ma, mi)
}

fn open_raw(path: &Path, flags: libc::c_int, mode: libc::mode_t) -> io::Result<File> {
    let c = cpath(path)?;
    loop {
        // SAFETY: c is a valid NUL-terminated path.
        let fd = unsafe { libc::open(c.as_ptr(), flags | libc::O_CLOEXEC, mode as libc::c_uint) };
        if fd >= 0 {
            // SAFETY: fd is a freshly opened descriptor we own.
            return Ok(unsafe { File::from_raw_fd(fd) });
        }
        let e = io::Error::last_os_error();
        if e.raw_os_error() != Some(libc::EINTR) {
            return Err(e);
        }
    }
}

/// Helpers shared by the target tests.
#[cfg(test)]
pub(crate) mod testutil {
    use super::*;
    use std::process::Command;

    pub(crate) use crate::test_support::TempDir;

    /// Detaches a loop device on drop.
    pub(crate) struct LoopDev(pub(crate) String);
    impl Drop for LoopDev {
        fn drop(&mut self) {
            let _ = Command::new("losetup").arg("-d").arg(&self.0).status();
        }
    }

    pub(crate) fn statfs_magic(p: &Path) -> i64 {
        let c = cpath(p).unwrap();
        // SAFETY: zeroed statfs is valid; statfs fills it.
        let mut st: libc::statfs = unsafe { std::mem::zeroed() };
        // SAFETY: valid path and out pointer.
        assert_eq!(unsafe { libc::statfs(c.as_ptr(), &mut st) }, 0);
        st.f_type as i64
    }

    pub(crate) const EXT_MAGIC: i64 = 0xEF53;
    pub(crate) const TMPFS_MAGIC: i64 = 0x0102_1994;

    pub(crate) fn mkfs_ext4() -> &'static str {
        for p in ["/sbin/mkfs.ext4", "/usr/sbin/mkfs.ext4"] {
            if Path::new(p).exists() {
                return p;
            }
        }
        panic!("mkfs.ext4 is required for this test (install e2fsprogs)");
    }
}

#[cfg(test)]
mod tests {
    use super::layout::layout_file;
    use super::testutil::*;
    use super::*;
    use crate::job::{FallocateMode, SyncMode};
    use std::os::unix::io::AsRawFd;
    use std::process::Command;

    #[test]
    fn loop_device() {
        if !crate::sys::is_root() {
            return;
        }
        let mkfs = mkfs_ext4();
        let d = TempDir::new("loop");
        let img = d.path().join("loop.img");
        let size: u64 = 32 << 20;
        File::create(&img).unwrap().set_len(size).unwrap();
        let st = Command::new(mkfs)
            .arg("-q")
            .arg("-F")
            .arg(&img)
            .status()
            .unwrap();
        assert!(st.success());
        let out = Command::new("losetup")
            .arg("-f")
            .arg("--show")
            .arg(&img)
            .output()
            .expect("losetup");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let dev = LoopDev(String::from_utf8(out.stdout).unwrap().trim().to_string());
        let p = Path::new(&dev.0);
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        let info = probe(p).unwrap();
        assert_eq!(info.kind, "block");
        assert_eq!(info.size_bytes, size);
        assert_eq!(info.logical_block_size, 512);
        assert!(info.physical_block_size >= 512);
        assert_eq!(info.device.as_deref(), Some(name.as_str()));
        assert_eq!(info.fs_type, None);
        assert_eq!(disks_for(p), vec![name.clone()]);
        assert!(fs_signature(p)
            .unwrap()
            .is_some_and(|s| s.starts_with("ext4 (filesystem")));
        assert_eq!(device_mount_point(p), None);
        let f = open_target(p, true, false, false, false, SyncMode::None).unwrap();
        invalidate_cache(f.as_raw_fd(), true).unwrap();
        drop(f);
        // Not a regular file: layout leaves it alone.
        assert!(!layout_file(p, 1 << 20, FallocateMode::Native, true, None).unwrap());
    }
}
