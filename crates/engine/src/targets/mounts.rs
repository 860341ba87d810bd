//! Mounts: the mount table, the mount under a path, and whether a device (or a partition or
//! holder of it) is mounted.

use super::{dev_split, existing_ancestor, read_trim, sys_block_by_devnum};
use std::fs;
use std::os::unix::fs::{FileTypeExt, MetadataExt};
use std::path::{Path, PathBuf};

// ---------------------------------------------------------------------------------------------
// Mounts
// ---------------------------------------------------------------------------------------------

/// One line of /proc/self/mountinfo.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct MountEntry {
    pub(crate) major: u32,
    pub(crate) minor: u32,
    pub(crate) mount_point: String,
    pub(crate) fs_type: String,
    pub(crate) source: String,
    /// The mount's options, then the file system's own (`rw,relatime,errors=remount-ro`).
    pub(crate) options: String,
}

fn unescape_mount(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\'
            && i + 3 < b.len()
            && b[i + 1..i + 4].iter().all(|c| (b'0'..=b'7').contains(c))
        {
            let v = (b[i + 1] - b'0') as u32 * 64
                + (b[i + 2] - b'0') as u32 * 8
                + (b[i + 3] - b'0') as u32;
            out.push(v as u8);
            i += 4;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// A mount's options and its super block's, each once.
fn options(mount: &str, sb: &str) -> String {
    let mut out: Vec<&str> = Vec::new();
    for o in mount.split(',').chain(sb.split(',')) {
        if !o.is_empty() && !out.contains(&o) {
            out.push(o);
        }
    }
    out.join(",")
}

fn parse_mountinfo(text: &str) -> Vec<MountEntry> {
    let mut v = Vec::new();
    for line in text.lines() {
        let f: Vec<&str> = line.split(' ').collect();
        if f.len() < 10 {
            continue;
        }
        let Some(sep) = f.iter().skip(6).position(|&x| x == "-").map(|p| p + 6) else {
            continue;
        };
        if f.len() < sep + 3 {
            continue;
        }
        let Some((ma, mi)) = f[2].split_once(':') else {
            continue;
        };
        let (Ok(major), Ok(minor)) = (ma.parse(), mi.parse()) else {
            continue;
        };
        v.push(MountEntry {
            major,
            minor,
            mount_point: unescape_mount(f[4]),
            fs_type: unescape_mount(f[sep + 1]),
            source: unescape_mount(f[sep + 2]),
            options: options(f[5], f.get(sep + 3).copied().unwrap_or("")),
        });
    }
    v
}

/// The mounts of this process's mount namespace, in mount order.
pub(crate) fn mounts() -> Vec<MountEntry> {
    fs::read_to_string("/proc/self/mountinfo")
        .map(|t| parse_mountinfo(&t))
        .unwrap_or_default()
}

fn best_mount<'a>(entries: &'a [MountEntry], path: &Path) -> Option<&'a MountEntry> {
    let mut best: Option<&MountEntry> = None;
    for e in entries {
        if path.starts_with(Path::new(&e.mount_point)) {
            let better = match best {
                None => true,
                Some(b) => e.mount_point.len() >= b.mount_point.len(),
            };
            if better {
                best = Some(e);
            }
        }
    }
    best
}

/// The mount containing `path` (the longest mount-point prefix of its canonical form; the later
/// mount wins when one is stacked on another). Works for paths that do not exist yet.
pub(crate) fn mount_for(path: &Path) -> Option<MountEntry> {
    let anc = existing_ancestor(path)?;
    let canon = fs::canonicalize(&anc).unwrap_or(anc);
    let entries = mounts();
    best_mount(&entries, &canon).cloned()
}

/// (device, mount point) of every mount whose source is a device node.
#[cfg(test)]
pub(crate) fn mounted_devices() -> Vec<(String, String)> {
    mounts()
        .into_iter()
        .filter(|m| m.source.starts_with("/dev/"))
        .map(|m| (m.source, m.mount_point))
        .collect()
}

/// Names (sysfs) of a device, its partitions when it is a whole disk, and everything stacked
/// on any of them (holders, recursively).
fn related_nodes(node: &str) -> Vec<String> {
    let mut out = vec![node.to_string()];
    let base = PathBuf::from(format!("/sys/class/block/{node}"));
    let is_part = base.join("partition").exists();
    if !is_part {
        if let Ok(rd) = fs::read_dir(format!("/sys/block/{node}")) {
            for e in rd.flatten() {
                if e.path().join("partition").exists() {
                    out.push(e.file_name().to_string_lossy().into_owned());
                }
            }
        }
    }
    let mut i = 0;
    while i < out.len() && out.len() < 4096 {
        let holders = format!("/sys/class/block/{}/holders", out[i]);
        if let Ok(rd) = fs::read_dir(holders) {
            for e in rd.flatten() {
                let n = e.file_name().to_string_lossy().into_owned();
                if !out.contains(&n) {
                    out.push(n);
                }
            }
        }
        i += 1;
    }
    out
}

fn devnum_of_node(node: &str) -> Option<(u32, u32)> {
    let s = read_trim(format!("/sys/class/block/{node}/dev"))?;
    let (a, b) = s.split_once(':')?;
    Some((a.parse().ok()?, b.parse().ok()?))
}

/// Where the device at `dev_path`, any partition of it or anything built on it (device mapper,
/// md) is mounted; `"[SWAP]"` when it is an active swap area. `None` when not in use.
pub(crate) fn device_mount_point(dev_path: &Path) -> Option<String> {
    let meta = fs::metadata(dev_path).ok()?;
    if !meta.file_type().is_block_device() {
        return None;
    }
    let own = dev_split(meta.rdev());
    let mut nums = vec![own];
    if let Some(sb) = sys_block_by_devnum(own.0, own.1) {
        for n in related_nodes(&sb.node) {
            if let Some(d) = devnum_of_node(&n) {
                if !nums.contains(&d) {
                    nums.push(d);
                }
            }
        }
    }
    let rdev_in = |p: &str| -> bool {
        fs::metadata(p)
            .ok()
            .filter(|m| m.file_type().is_block_device())
            .map(|m| nums.contains(&dev_split(m.rdev())))
            .unwrap_or(false)
    };
    for m in mounts() {
        if nums.contains(&(m.major, m.minor))
            || (m.source.starts_with("/dev/") && rdev_in(&m.source))
        {
            return Some(m.mount_point);
        }
    }
    if let Ok(sw) = fs::read_to_string("/proc/swaps") {
        for line in sw.lines().skip(1) {
            if let Some(p) = line.split_whitespace().next() {
                if rdev_in(&unescape_mount(p)) {
                    return Some("[SWAP]".to_string());
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inventory::parse_scheduler;

    #[test]
    fn mountinfo_parsing() {
        let text = "27 1 254:0 / / rw,relatime - ext4 /dev/vda rw\n\
                    30 25 0:27 / /dev/shm rw - tmpfs tmpfs rw\n\
                    40 27 8:1 / /mnt/my\\040disk rw shared:5 master:2 - xfs /dev/sda1 rw\n\
                    41 40 0:44 / /mnt/my\\040disk/sub rw - btrfs /dev/sdb rw\n\
                    42 27 0:45 / /mnt/my rw - tmpfs none rw\n\
                    bad line\n";
        let e = parse_mountinfo(text);
        assert_eq!(e.len(), 5);
        assert_eq!(e[2].mount_point, "/mnt/my disk");
        assert_eq!((e[2].major, e[2].minor), (8, 1));
        assert_eq!(e[2].fs_type, "xfs");
        assert_eq!(e[2].source, "/dev/sda1");
        let m = |p: &str| best_mount(&e, Path::new(p)).unwrap().mount_point.clone();
        assert_eq!(m("/mnt/my disk/x"), "/mnt/my disk");
        assert_eq!(m("/mnt/my disk/sub/y"), "/mnt/my disk/sub");
        assert_eq!(m("/mnt/my"), "/mnt/my");
        assert_eq!(m("/mnt/myx"), "/");
        assert_eq!(m("/dev/shm/a"), "/dev/shm");
        assert_eq!(unescape_mount("a\\011b\\134c\\0"), "a\tb\\c\\0");
        assert_eq!(
            parse_scheduler("none [mq-deadline] kyber"),
            Some("mq-deadline".into())
        );
        assert_eq!(parse_scheduler("none"), Some("none".into()));
        assert_eq!(parse_scheduler("none kyber"), None);
    }

    #[test]
    fn mounted_device_detection() {
        let tmp = std::env::temp_dir();
        let m = mount_for(&tmp).unwrap();
        let is_dev = fs::metadata(&m.source)
            .map(|x| x.file_type().is_block_device())
            .unwrap_or(false);
        if !is_dev {
            return;
        }
        assert!(mounted_devices()
            .iter()
            .any(|(d, p)| d == &m.source && p == &m.mount_point));
        let mp = device_mount_point(Path::new(&m.source)).expect("mounted");
        assert!(mounts().iter().any(|e| e.mount_point == mp));
        // The whole disk counts as mounted when one of its partitions is.
        let sb = sys_block_by_devnum(m.major, m.minor)
            .or_else(|| {
                let r = fs::metadata(&m.source).unwrap().rdev();
                let (a, b) = dev_split(r);
                sys_block_by_devnum(a, b)
            })
            .unwrap();
        let whole = PathBuf::from(format!("/dev/{}", sb.disk));
        if whole.exists() {
            assert!(device_mount_point(&whole).is_some());
        }
        assert_eq!(device_mount_point(Path::new("/dev/null")), None);
    }
}
