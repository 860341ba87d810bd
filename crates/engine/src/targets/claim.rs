//! What the kernel holds: exclusive claims on block devices (`O_EXCL`, refused with EBUSY when
//! the device is mounted in any mount namespace, is a member of md/dm/LVM, an active swap area,
//! or otherwise claimed), the loop devices a regular file backs, paths under `/dev` that name
//! no device, and what kind of special file a path is.

use super::{dev_split, device_mount_point, mount_for, open_raw, sys_block_by_devnum};
use std::fs::{self, File};
use std::io;
use std::os::unix::fs::{FileTypeExt, MetadataExt};
use std::path::{Path, PathBuf};

/// Why the kernel refused an exclusive claim on a block device, as far as this process can
/// tell.
#[derive(Debug, thiserror::Error)]
pub enum BusyReason {
    /// The device, a partition or a holder of it is mounted.
    #[error("it (or a partition or holder of it) is mounted on {mount_point}")]
    Mounted { mount_point: String },
    /// Devices are built on it (`dm-0 (vg-lv)`, `md0`).
    #[error("it is a member of {} (a device-mapper, md RAID or LVM device built on it)", holders.join(", "))]
    Holders { holders: Vec<String> },
    #[error("it is an active swap area")]
    Swap,
    /// Busy for a reason not visible here.
    #[error("the kernel reports it busy: it is held exclusively, e.g. mounted in another mount namespace (a container) or claimed by another program")]
    HeldElsewhere,
    /// The exclusive open failed for another reason than EBUSY.
    #[error("it cannot be opened exclusively ({0})")]
    NoExclusiveOpen(io::Error),
}

/// Why a loop device backed by a file is in use.
#[derive(Debug, thiserror::Error)]
pub enum LoopInUse {
    #[error("which is mounted on {mount_point}")]
    Mounted { mount_point: String },
    #[error("which is in use: {0}")]
    Busy(BusyReason),
    /// Attached, neither mounted nor held: writes through the file bypass the device (its
    /// cache, its users' view), so the device is the place to write.
    #[error("which is attached (detach it first: losetup -d {})", dev.display())]
    Attached { dev: PathBuf },
}

/// Opens a block device with `O_EXCL`: while the returned file is open the kernel refuses to
/// mount it or build md/dm/LVM devices on it. The error says why the kernel refused.
pub(crate) fn claim_exclusive(dev: &Path) -> Result<File, BusyReason> {
    open_raw(dev, libc::O_RDONLY | libc::O_EXCL, 0).map_err(|e| {
        if e.raw_os_error() == Some(libc::EBUSY) {
            busy_reason(dev)
        } else {
            BusyReason::NoExclusiveOpen(e)
        }
    })
}

/// Why a block device is busy, as far as this process can tell.
fn busy_reason(dev: &Path) -> BusyReason {
    if let Some(mount_point) = device_mount_point(dev) {
        return BusyReason::Mounted { mount_point };
    }
    let holders = holders_of(dev);
    if !holders.is_empty() {
        return BusyReason::Holders { holders };
    }
    if is_active_swap(dev) {
        return BusyReason::Swap;
    }
    BusyReason::HeldElsewhere
}

/// The devices built on a block device (`/sys/class/block/NODE/holders`), named as users know
/// them (`dm-0 (vg-lv)`, `md0`).
fn holders_of(dev: &Path) -> Vec<String> {
    let Some(node) = fs::metadata(dev).ok().and_then(|m| {
        let (ma, mi) = dev_split(m.rdev());
        sys_block_by_devnum(ma, mi)
    }) else {
        return Vec::new();
    };
    let dir = PathBuf::from(format!("/sys/class/block/{}/holders", node.node));
    let mut out: Vec<String> = fs::read_dir(dir)
        .map(|rd| {
            rd.flatten()
                .map(|e| {
                    let h = e.file_name().to_string_lossy().into_owned();
                    match super::read_trim(format!("/sys/class/block/{h}/dm/name")) {
                        Some(n) if !n.is_empty() => format!("{h} ({n})"),
                        _ => h,
                    }
                })
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

fn is_active_swap(dev: &Path) -> bool {
    let Ok(m) = fs::metadata(dev) else {
        return false;
    };
    let text = fs::read_to_string("/proc/swaps").unwrap_or_default();
    text.lines().skip(1).any(|l| {
        l.split_whitespace()
            .next()
            .and_then(|p| fs::metadata(p).ok())
            .is_some_and(|s| s.file_type().is_block_device() && s.rdev() == m.rdev())
    })
}

/// The loop devices (`/dev/loopN`) whose backing file is `file`.
pub fn loops_backed_by(file: &Path) -> Vec<PathBuf> {
    let Ok(fm) = fs::metadata(file) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for e in fs::read_dir("/sys/block").into_iter().flatten().flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if !name.starts_with("loop") {
            continue;
        }
        let Some(back) = super::read_trim(e.path().join("loop/backing_file")) else {
            continue;
        };
        let back = back.strip_suffix(" (deleted)").unwrap_or(&back);
        let same = fs::metadata(back).is_ok_and(|b| b.dev() == fm.dev() && b.ino() == fm.ino());
        if same {
            out.push(PathBuf::from(format!("/dev/{name}")));
        }
    }
    out.sort();
    out
}

/// When `file` backs a loop device (mounted, held, claimed, or only attached): that device and
/// why. Such a file is never written, truncated or deleted by a run.
pub fn backed_loop_in_use(file: &Path) -> Option<(PathBuf, LoopInUse)> {
    let loops = loops_backed_by(file);
    for dev in loops.iter().cloned() {
        if let Some(mount_point) = device_mount_point(&dev) {
            return Some((dev, LoopInUse::Mounted { mount_point }));
        }
        match open_raw(&dev, libc::O_RDONLY | libc::O_EXCL, 0) {
            Err(e) if e.raw_os_error() == Some(libc::EBUSY) => {
                let why = busy_reason(&dev);
                return Some((dev, LoopInUse::Busy(why)));
            }
            _ => {}
        }
    }
    loops
        .into_iter()
        .next()
        .map(|dev| (dev.clone(), LoopInUse::Attached { dev }))
}

/// What a special file is, in words ("a block device node", "a FIFO", ...).
pub(crate) fn special_kind(path: &Path) -> &'static str {
    match fs::metadata(path).map(|m| m.file_type()) {
        Ok(t) if t.is_block_device() => "a block device node",
        Ok(t) if t.is_char_device() => "a character device node",
        Ok(t) if t.is_fifo() => "a FIFO",
        Ok(t) if t.is_socket() => "a socket",
        Ok(t) if t.is_dir() => "a directory",
        Ok(t) if t.is_file() => "a regular file",
        Ok(_) => "a special file",
        Err(_) => "missing",
    }
}

fn on_devtmpfs(dir: &Path) -> bool {
    mount_for(dir).is_some_and(|m| m.fs_type == "devtmpfs" || m.mount_point == "/dev")
}

/// The directory for files iomark makes from a target's name (`verify_dump`): beside a regular
/// file, never beside a device node nor anywhere on the device filesystem (`/dev`). Others go
/// to `fallback`, else the working directory, else the temporary directory.
pub(crate) fn dump_dir_beside(target: &Path, fallback: Option<&Path>) -> PathBuf {
    let parent = match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let regular = fs::metadata(target).is_ok_and(|m| m.is_file());
    if regular && !on_devtmpfs(parent) {
        return parent.to_path_buf();
    }
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    [fallback.map(Path::to_path_buf), Some(cwd)]
        .into_iter()
        .flatten()
        .find(|d| !on_devtmpfs(d))
        .unwrap_or_else(std::env::temp_dir)
}

/// A path that does not exist and would be created on the kernel's device filesystem
/// (devtmpfs, or whatever is mounted on `/dev`, e.g. a container's tmpfs): a device that is
/// not there (an unmapped RBD image, a missing disk), never a place for a regular file.
/// Filesystems mounted below `/dev` (`/dev/shm`) are ordinary places.
pub fn missing_device_path(path: &Path) -> bool {
    if fs::symlink_metadata(path).is_ok() {
        return false;
    }
    match mount_for(path) {
        Some(m) => m.fs_type == "devtmpfs" || m.mount_point == "/dev",
        None => {
            let abs = std::env::current_dir()
                .map(|d| d.join(path))
                .unwrap_or_else(|_| path.to_path_buf());
            abs.starts_with("/dev") && !abs.starts_with("/dev/shm")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::targets::testutil::TempDir;

    #[test]
    fn paths_under_dev_that_do_not_exist() {
        assert!(missing_device_path(Path::new("/dev/iomark-no-such-device")));
        assert!(missing_device_path(Path::new("/dev/iomark-no-dir/x")));
        assert!(!missing_device_path(Path::new("/dev/null")));
        let d = TempDir::new("claimdev");
        assert!(!missing_device_path(&d.path().join("new-file")));
        if Path::new("/dev/shm").is_dir() {
            assert!(!missing_device_path(Path::new("/dev/shm/iomark-new-file")));
        }
        // A regular file backs no loop device.
        let f = d.path().join("f");
        fs::write(&f, b"x").unwrap();
        assert!(loops_backed_by(&f).is_empty());
        assert!(backed_loop_in_use(&f).is_none());
        // Dumps go beside a regular file, never beside a device node.
        assert_eq!(dump_dir_beside(&f, None), d.path());
        assert_eq!(
            dump_dir_beside(Path::new("/dev/null"), Some(d.path())),
            d.path()
        );
        let elsewhere = dump_dir_beside(Path::new("/dev/null"), Some(Path::new("/dev")));
        assert!(!elsewhere.starts_with("/dev") || elsewhere.starts_with("/dev/shm"));
    }
}
