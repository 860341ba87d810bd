//! Targets: regular files, directories, block and character devices. Probing (size, block
//! sizes, filesystem, underlying disk), opening with the requested flags, laying out files,
//! dropping cached pages, disk statistics, mount checks and signature detection for devices.

use crate::job::{FallocateMode, SyncMode};
use crate::result::{DiskUtil, TargetInfo};
use crate::sys::{error_with_errno, now_ns, posix_fadvise, with_context};
use std::ffi::CString;
use std::fs::{self, File};
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{FileTypeExt, MetadataExt};
use std::os::unix::io::{AsRawFd, FromRawFd, RawFd};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

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
#[cfg(any(
    target_arch = "powerpc",
    target_arch = "powerpc64",
    target_arch = "mips",
    target_arch = "mips64",
    target_arch = "sparc",
    target_arch = "sparc64"
))]
const BLKFLSBUF: libc::Ioctl = 0x2000_1261u32 as libc::Ioctl;
#[cfg(not(any(
    target_arch = "powerpc",
    target_arch = "powerpc64",
    target_arch = "mips",
    target_arch = "mips64",
    target_arch = "sparc",
    target_arch = "sparc64"
)))]
const BLKFLSBUF: libc::Ioctl = 0x1261u32 as libc::Ioctl;

/// Size of the writes used to fill a laid-out file.
const FILL_CHUNK: usize = 1 << 20;

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

fn parse_scheduler(s: &str) -> Option<String> {
    if let (Some(a), Some(b)) = (s.find('['), s.find(']')) {
        if b > a + 1 {
            return Some(s[a + 1..b].to_string());
        }
    }
    let mut words = s.split_whitespace();
    match (words.next(), words.next()) {
        (Some(w), None) => Some(w.to_string()),
        _ => None,
    }
}

// ---------------------------------------------------------------------------------------------
// Mounts
// ---------------------------------------------------------------------------------------------

/// One line of /proc/self/mountinfo.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MountEntry {
    pub major: u32,
    pub minor: u32,
    pub mount_point: String,
    pub fs_type: String,
    pub source: String,
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
        });
    }
    v
}

/// The mounts of this process's mount namespace, in mount order.
pub fn mounts() -> Vec<MountEntry> {
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
pub fn mount_for(path: &Path) -> Option<MountEntry> {
    let anc = existing_ancestor(path)?;
    let canon = fs::canonicalize(&anc).unwrap_or(anc);
    let entries = mounts();
    best_mount(&entries, &canon).cloned()
}

/// (device, mount point) of every mount whose source is a device node.
pub fn mounted_devices() -> Vec<(String, String)> {
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
pub fn device_mount_point(dev_path: &Path) -> Option<String> {
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

/// Size and logical/physical block sizes of an open block device.
fn block_dev_geometry(fd: RawFd) -> io::Result<(u64, u64, u64)> {
    let size = ioctl_u64(fd, BLKGETSIZE64)?;
    let lbs = ioctl_int(fd, libc::BLKSSZGET as libc::Ioctl).unwrap_or(512);
    let pbs = ioctl_int(fd, libc::BLKPBSZGET as libc::Ioctl).unwrap_or(lbs);
    Ok((size, lbs.max(1), pbs.max(1)))
}

fn fill_disk_facts(info: &mut TargetInfo, sb: &SysBlock) {
    let q = PathBuf::from(format!("/sys/block/{}/queue", sb.disk));
    info.device = Some(sb.disk.clone());
    info.device_model =
        read_trim(format!("/sys/block/{}/device/model", sb.disk)).filter(|s| !s.is_empty());
    info.scheduler = read_trim(q.join("scheduler")).and_then(|s| parse_scheduler(&s));
    info.rotational = read_trim(q.join("rotational")).map(|s| s == "1");
}

/// Measures a target: kind ("file", "block", "char", "directory"), size, block sizes, the
/// filesystem and the disk under it. A missing path gives a NotFound error.
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
                let q = format!("/sys/block/{}/queue", sb.disk);
                info.logical_block_size =
                    read_u64(format!("{q}/logical_block_size")).unwrap_or(512);
                info.physical_block_size =
                    read_u64(format!("{q}/physical_block_size")).unwrap_or(info.logical_block_size);
            }
        }
        if let Some(sb) = sb {
            fill_disk_facts(&mut info, &sb);
        }
        return Ok(info);
    }
    if ft.is_dir() {
        info.kind = "directory".into();
    } else if ft.is_file() {
        info.kind = "file".into();
        info.size_bytes = meta.len();
    } else {
        info.kind = "char".into();
        return Ok(info);
    }
    info.fs_type = mount_for(path).map(|m| m.fs_type);
    if let Some(sb) = sys_block_for_fs(path, meta.dev()) {
        let q = format!("/sys/block/{}/queue", sb.disk);
        if let Some(l) = read_u64(format!("{q}/logical_block_size")).filter(|&v| v > 0) {
            info.logical_block_size = l;
        }
        info.physical_block_size = read_u64(format!("{q}/physical_block_size"))
            .filter(|&v| v > 0)
            .unwrap_or(info.logical_block_size);
        fill_disk_facts(&mut info, &sb);
    }
    Ok(info)
}

/// Bytes available to unprivileged users on the filesystem holding `dir` (statvfs).
pub fn free_space(dir: &Path) -> io::Result<u64> {
    let p = existing_ancestor(dir).unwrap_or_else(|| dir.to_path_buf());
    let c = cpath(&p)?;
    // SAFETY: zeroed statvfs is valid; statvfs fills it.
    let mut st: libc::statvfs = unsafe { std::mem::zeroed() };
    // SAFETY: c is a valid path, st a valid out pointer.
    let rc = unsafe { libc::statvfs(c.as_ptr(), &mut st) };
    if rc != 0 {
        return Err(with_context(io::Error::last_os_error(), p.display()));
    }
    Ok((st.f_bavail as u64).saturating_mul(st.f_frsize as u64))
}

// ---------------------------------------------------------------------------------------------
// Open, lay out, invalidate
// ---------------------------------------------------------------------------------------------

/// Opens a target with the given access and flags (O_DIRECT, O_SYNC / O_DSYNC, O_CREAT with mode
/// 0644). Neither read nor write means read-only. When O_DIRECT is refused with EINVAL the error
/// says the filesystem does not support direct I/O.
pub fn open_target(
    path: &Path,
    read: bool,
    write: bool,
    create: bool,
    direct: bool,
    sync: SyncMode,
) -> io::Result<File> {
    let mut flags = match (read, write) {
        (true, true) => libc::O_RDWR,
        (false, true) => libc::O_WRONLY,
        _ => libc::O_RDONLY,
    };
    if create {
        flags |= libc::O_CREAT;
    }
    match sync {
        SyncMode::None => {}
        SyncMode::Sync => flags |= libc::O_SYNC,
        SyncMode::Dsync => flags |= libc::O_DSYNC,
    }
    let dflag = if direct { libc::O_DIRECT } else { 0 };
    match open_raw(path, flags | dflag, 0o644) {
        Ok(f) => Ok(f),
        Err(e) if direct && e.raw_os_error() == Some(libc::EINVAL) => {
            if open_raw(path, flags, 0o644).is_ok() {
                Err(error_with_errno(
                    libc::EINVAL,
                    format!(
                        "{}: the filesystem does not support direct I/O (O_DIRECT): {e}",
                        path.display()
                    ),
                ))
            } else {
                Err(with_context(e, path.display()))
            }
        }
        Err(e) => Err(with_context(e, path.display())),
    }
}

fn check_fallocate(rc: libc::c_int, errno: Option<i32>) -> io::Result<()> {
    if rc == 0 {
        return Ok(());
    }
    match errno {
        Some(libc::EOPNOTSUPP) | Some(libc::ENOSYS) => Ok(()),
        Some(n) => Err(io::Error::from_raw_os_error(n)),
        None => Err(io::Error::other("fallocate failed")),
    }
}

fn preallocate(fd: RawFd, size: u64, mode: FallocateMode) -> io::Result<()> {
    if size == 0 {
        return Ok(());
    }
    match mode {
        FallocateMode::None | FallocateMode::Truncate => Ok(()),
        FallocateMode::Native | FallocateMode::Keep => {
            let m = if mode == FallocateMode::Keep {
                libc::FALLOC_FL_KEEP_SIZE
            } else {
                0
            };
            // SAFETY: plain syscall on our descriptor.
            let rc = unsafe { libc::fallocate(fd, m, 0, size as libc::off_t) };
            check_fallocate(rc, io::Error::last_os_error().raw_os_error())
        }
        FallocateMode::Posix => {
            // SAFETY: plain syscall on our descriptor.
            let rc = unsafe { libc::posix_fallocate(fd, 0, size as libc::off_t) };
            if rc == 0 {
                Ok(())
            } else {
                Err(io::Error::from_raw_os_error(rc))
            }
        }
    }
}

fn pwrite_all(fd: RawFd, mut buf: &[u8], mut off: u64) -> io::Result<()> {
    while !buf.is_empty() {
        // SAFETY: buf is valid for buf.len() bytes.
        let n = unsafe {
            libc::pwrite(
                fd,
                buf.as_ptr() as *const libc::c_void,
                buf.len(),
                off as libc::off_t,
            )
        };
        if n < 0 {
            let e = io::Error::last_os_error();
            if e.raw_os_error() == Some(libc::EINTR) {
                continue;
            }
            return Err(e);
        }
        if n == 0 {
            return Err(io::Error::from_raw_os_error(libc::ENOSPC));
        }
        buf = &buf[n as usize..];
        off += n as u64;
    }
    Ok(())
}

#[inline]
fn xorshift_fill(words: &mut [u64], state: &mut u64) {
    let mut x = *state;
    for w in words.iter_mut() {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        *w = x;
    }
    *state = x;
}

/// Lays out a file of `size` bytes. An existing regular file of at least `size` bytes (or an
/// existing non-regular file such as a device) is left alone and `false` is returned. Otherwise
/// the file is created, or a smaller existing one extended (its bytes are kept: nothing is
/// truncated), pre-allocated per `fallocate`, sized with ftruncate and, when `fill`, the new part
/// written sequentially with pseudo-random data in 1 MiB writes (adding the bytes written to
/// `progress`) and fsynced. Errors carry the path and keep their errno.
pub fn layout_file(
    path: &Path,
    size: u64,
    fallocate: FallocateMode,
    fill: bool,
    progress: Option<&AtomicU64>,
) -> io::Result<bool> {
    layout_file_until(path, size, fallocate, fill, progress, None)
}

/// [`layout_file`] that gives up when `stop` is set (checked between 1 MiB writes): the file is
/// then put back as it was (removed when it was created here, cut back to its old length when it
/// was extended), so that no half-written file passes for a laid-out one later, and the error is
/// `ErrorKind::Interrupted`.
pub fn layout_file_until(
    path: &Path,
    size: u64,
    fallocate: FallocateMode,
    fill: bool,
    progress: Option<&AtomicU64>,
    stop: Option<&std::sync::atomic::AtomicBool>,
) -> io::Result<bool> {
    let mut existing = 0u64;
    let created = !path.exists();
    match fs::metadata(path) {
        Ok(m) if !m.is_file() => return Ok(false),
        Ok(m) if m.len() >= size => return Ok(false),
        Ok(m) => existing = m.len(),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
                fs::create_dir_all(parent).map_err(|e| with_context(e, parent.display()))?;
            }
        }
        Err(e) => return Err(with_context(e, path.display())),
    }
    let ctx = |e: io::Error| with_context(e, format!("{}: laying out file", path.display()));
    let f = open_raw(path, libc::O_WRONLY | libc::O_CREAT, 0o644).map_err(ctx)?;
    let fd = f.as_raw_fd();
    match preallocate(fd, size, fallocate) {
        Ok(()) => {}
        // Only reachable when the free-space check was bypassed (--allow-fill) or raced: leave
        // the file sparse, so the job's own writes meet ENOSPC where the space runs out and
        // report it with file and offset.
        Err(e) if e.raw_os_error() == Some(libc::ENOSPC) && !fill => {}
        Err(e) => return Err(ctx(e)),
    }
    // SAFETY: plain syscall on our descriptor.
    if unsafe { libc::ftruncate(fd, size as libc::off_t) } != 0 {
        return Err(ctx(io::Error::last_os_error()));
    }
    if fill && size > 0 {
        let mut words = vec![0u64; FILL_CHUNK / 8];
        let mut state = now_ns() ^ size.rotate_left(29) ^ 0x9E37_79B9_7F4A_7C15;
        if state == 0 {
            state = 0x2545_F491_4F6C_DD1D;
        }
        let mut off = existing;
        while off < size {
            if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
                if created {
                    let _ = fs::remove_file(path);
                } else {
                    // SAFETY: plain syscall on our descriptor.
                    unsafe { libc::ftruncate(fd, existing as libc::off_t) };
                }
                return Err(io::Error::new(
                    io::ErrorKind::Interrupted,
                    format!("{}: laying out file: interrupted", path.display()),
                ));
            }
            xorshift_fill(&mut words, &mut state);
            let n = ((size - off) as usize).min(FILL_CHUNK);
            // SAFETY: words is FILL_CHUNK bytes of initialised u64s viewed as bytes.
            let bytes = unsafe { std::slice::from_raw_parts(words.as_ptr() as *const u8, n) };
            pwrite_all(fd, bytes, off).map_err(ctx)?;
            off += n as u64;
            if let Some(p) = progress {
                p.fetch_add(n as u64, Ordering::Relaxed);
            }
        }
        f.sync_all().map_err(ctx)?;
    }
    Ok(true)
}

/// Drops cached pages of a target: posix_fadvise(DONTNEED) for files; BLKFLSBUF for block
/// devices (falling back to fadvise when the ioctl is refused or unsupported).
pub fn invalidate_cache(fd: RawFd, is_block: bool) -> io::Result<()> {
    if is_block {
        // SAFETY: BLKFLSBUF takes no argument data.
        let rc = unsafe { libc::ioctl(fd, BLKFLSBUF, 0) };
        if rc == 0 {
            return Ok(());
        }
        let e = io::Error::last_os_error();
        match e.raw_os_error() {
            Some(libc::EACCES) | Some(libc::EPERM) | Some(libc::ENOTTY) => {
                let _ = posix_fadvise(fd, 0, 0, libc::POSIX_FADV_DONTNEED);
                return Ok(());
            }
            _ => return Err(e),
        }
    }
    posix_fadvise(fd, 0, 0, libc::POSIX_FADV_DONTNEED)
}

// ---------------------------------------------------------------------------------------------
// Disk statistics
// ---------------------------------------------------------------------------------------------

/// Block devices whose statistics describe I/O to `path`: the whole disk under a file's
/// filesystem or the device itself, plus (recursively) the slaves of device-mapper and md
/// devices, as whole disks. Empty for filesystems without a block device (tmpfs, ...).
pub fn disks_for(path: &Path) -> Vec<String> {
    let Some(anc) = existing_ancestor(path) else {
        return Vec::new();
    };
    let Ok(meta) = fs::metadata(&anc) else {
        return Vec::new();
    };
    let sb = if meta.file_type().is_block_device() {
        let (ma, mi) = dev_split(meta.rdev());
        sys_block_by_devnum(ma, mi)
    } else if meta.file_type().is_char_device() {
        None
    } else {
        sys_block_for_fs(&anc, meta.dev())
    };
    let Some(sb) = sb else {
        return Vec::new();
    };
    let mut out = vec![sb.disk];
    let mut i = 0;
    while i < out.len() && out.len() < 256 {
        let name = out[i].clone();
        if name.starts_with("dm-") || name.starts_with("md") {
            if let Ok(rd) = fs::read_dir(format!("/sys/block/{name}/slaves")) {
                let mut slaves: Vec<String> = rd
                    .flatten()
                    .filter_map(|e| sys_block_by_name(&e.file_name().to_string_lossy()))
                    .map(|s| s.disk)
                    .collect();
                slaves.sort();
                for s in slaves {
                    if !out.contains(&s) {
                        out.push(s);
                    }
                }
            }
        }
        i += 1;
    }
    out
}

const STAT_FIELDS: usize = 11;

fn read_disk_stat(name: &str) -> Option<[u64; STAT_FIELDS]> {
    let text = fs::read_to_string(format!("/sys/block/{}/stat", name.replace('/', "!"))).ok()?;
    parse_disk_stat(&text)
}

fn parse_disk_stat(text: &str) -> Option<[u64; STAT_FIELDS]> {
    let mut v = [0u64; STAT_FIELDS];
    let mut it = text.split_whitespace();
    for slot in v.iter_mut() {
        *slot = it.next()?.parse().ok()?;
    }
    Some(v)
}

/// Counter difference that tolerates a 32-bit wrap.
fn counter_delta(after: u64, before: u64) -> u64 {
    if after >= before {
        after - before
    } else if before <= u32::MAX as u64 {
        after + (1u64 << 32) - before
    } else {
        0
    }
}

/// Samples /sys/block/<name>/stat at the start and end of a run.
#[derive(Clone, Debug)]
pub struct DiskStatsSampler {
    start_ns: u64,
    start: Vec<(String, [u64; STAT_FIELDS])>,
}

impl DiskStatsSampler {
    /// Takes the first sample. Devices without statistics are ignored.
    pub fn start(names: &[String]) -> Self {
        let mut start = Vec::new();
        for n in names {
            if start.iter().any(|(s, _): &(String, _)| s == n) {
                continue;
            }
            if let Some(st) = read_disk_stat(n) {
                start.push((n.clone(), st));
            }
        }
        DiskStatsSampler {
            start_ns: now_ns(),
            start,
        }
    }

    /// The devices being sampled.
    pub fn names(&self) -> Vec<String> {
        self.start.iter().map(|(n, _)| n.clone()).collect()
    }

    /// Takes the second sample and reports the differences; devices that vanished are skipped.
    pub fn finish(&self) -> Vec<DiskUtil> {
        let elapsed_ms = now_ns().saturating_sub(self.start_ns) / 1_000_000;
        let mut out = Vec::new();
        for (name, a) in &self.start {
            let Some(b) = read_disk_stat(name) else {
                continue;
            };
            let d = |i: usize| counter_delta(b[i], a[i]);
            let io_ticks = d(9);
            let util = if elapsed_ms == 0 {
                0.0
            } else {
                (100.0 * io_ticks as f64 / elapsed_ms as f64).min(100.0)
            };
            out.push(DiskUtil {
                name: name.clone(),
                read_ios: d(0),
                read_merges: d(1),
                read_sectors: d(2),
                read_ticks: d(3),
                write_ios: d(4),
                write_merges: d(5),
                write_sectors: d(6),
                write_ticks: d(7),
                io_ticks,
                in_queue: d(10),
                elapsed_ms,
                util,
            });
        }
        out
    }
}

// ---------------------------------------------------------------------------------------------
// Signatures
// ---------------------------------------------------------------------------------------------

const SIG_READ: usize = 128 * 1024;

fn le16(b: &[u8], off: usize) -> Option<u16> {
    Some(u16::from_le_bytes(b.get(off..off + 2)?.try_into().ok()?))
}

fn le32(b: &[u8], off: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(off..off + 4)?.try_into().ok()?))
}

fn at(b: &[u8], off: usize, magic: &[u8]) -> bool {
    b.get(off..off + magic.len()) == Some(magic)
}

/// Names what the first bytes of a device hold (partition table, volume manager label,
/// filesystem or swap), or `None` when nothing is recognised.
pub fn detect_signature(b: &[u8], page_size: usize) -> Option<String> {
    for s in 0..4 {
        if at(b, s * 512, b"LABELONE") && at(b, s * 512 + 24, b"LVM2 001") {
            return Some("LVM2 physical volume".into());
        }
    }
    // Linux md RAID superblocks of format 1.1 (at 0) and 1.2 (at 4 KiB).
    for off in [0, 4096] {
        if le32(b, off) == Some(0xa92b_4efc) && le32(b, off + 4) == Some(1) {
            return Some("Linux md RAID member (superblock 1.x)".into());
        }
    }
    if at(b, 512, b"EFI PART") {
        return Some("GPT partition table".into());
    }
    if at(b, 510, &[0x55, 0xAA]) {
        let entries: Vec<&[u8]> = (0..4)
            .filter_map(|i| b.get(446 + 16 * i..462 + 16 * i))
            .collect();
        let flags_ok = entries.iter().all(|e| e[0] == 0 || e[0] == 0x80);
        let any_used = entries.iter().any(|e| e[4] != 0);
        if entries.len() == 4 && flags_ok && any_used {
            return Some("MBR partition table".into());
        }
    }
    if le16(b, 1024 + 56) == Some(0xEF53) {
        let compat = le32(b, 1024 + 92).unwrap_or(0);
        let incompat = le32(b, 1024 + 96).unwrap_or(0);
        let ro_compat = le32(b, 1024 + 100).unwrap_or(0);
        let name = if incompat & !0x1F != 0 || ro_compat & (0x8 | 0x10 | 0x20 | 0x40 | 0x400) != 0 {
            "ext4"
        } else if compat & 0x4 != 0 {
            "ext3"
        } else {
            "ext2"
        };
        return Some(format!("{name} filesystem"));
    }
    if at(b, 0, b"XFSB") {
        return Some("XFS filesystem".into());
    }
    if at(b, 65536 + 64, b"_BHRfS_M") {
        return Some("Btrfs filesystem".into());
    }
    let mut sizes = vec![page_size, 4096, 8192, 16384, 65536];
    sizes.dedup();
    for ps in sizes {
        if ps >= 10 && (at(b, ps - 10, b"SWAPSPACE2") || at(b, ps - 10, b"SWAP-SPACE")) {
            return Some("swap space".into());
        }
    }
    None
}

/// Reads the start of a device (or image file) and names the signature found there.
pub fn fs_signature(dev_path: &Path) -> io::Result<Option<String>> {
    let f =
        open_raw(dev_path, libc::O_RDONLY, 0).map_err(|e| with_context(e, dev_path.display()))?;
    let mut buf = vec![0u8; SIG_READ];
    let mut got = 0usize;
    while got < buf.len() {
        // SAFETY: the destination range lies within buf.
        let n = unsafe {
            libc::pread(
                f.as_raw_fd(),
                buf[got..].as_mut_ptr() as *mut libc::c_void,
                buf.len() - got,
                got as libc::off_t,
            )
        };
        if n < 0 {
            let e = io::Error::last_os_error();
            if e.raw_os_error() == Some(libc::EINTR) {
                continue;
            }
            return Err(with_context(e, dev_path.display()));
        }
        if n == 0 {
            break;
        }
        got += n as usize;
    }
    buf.truncate(got);
    Ok(detect_signature(&buf, crate::sys::page_size()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Seek, SeekFrom, Write};
    use std::process::Command;

    use crate::test_support::TempDir;

    /// Detaches a loop device on drop.
    struct LoopDev(String);
    impl Drop for LoopDev {
        fn drop(&mut self) {
            let _ = Command::new("losetup").arg("-d").arg(&self.0).status();
        }
    }

    fn statfs_magic(p: &Path) -> i64 {
        let c = cpath(p).unwrap();
        // SAFETY: zeroed statfs is valid; statfs fills it.
        let mut st: libc::statfs = unsafe { std::mem::zeroed() };
        // SAFETY: valid path and out pointer.
        assert_eq!(unsafe { libc::statfs(c.as_ptr(), &mut st) }, 0);
        st.f_type as i64
    }

    const EXT_MAGIC: i64 = 0xEF53;
    const TMPFS_MAGIC: i64 = 0x0102_1994;

    fn mkfs_ext4() -> &'static str {
        for p in ["/sbin/mkfs.ext4", "/usr/sbin/mkfs.ext4"] {
            if Path::new(p).exists() {
                return p;
            }
        }
        panic!("mkfs.ext4 is required for this test (install e2fsprogs)");
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

    fn read_all(p: &Path) -> Vec<u8> {
        let mut v = Vec::new();
        File::open(p).unwrap().read_to_end(&mut v).unwrap();
        v
    }

    #[test]
    fn layout_fill_and_reuse() {
        let d = TempDir::new("layout");
        let f = d.path().join("sub/dir/file.dat");
        let size = 3 * FILL_CHUNK as u64 + 12345;
        let prog = AtomicU64::new(0);
        assert!(layout_file(&f, size, FallocateMode::Native, true, Some(&prog)).unwrap());
        assert_eq!(prog.load(Ordering::Relaxed), size);
        let data = read_all(&f);
        assert_eq!(data.len() as u64, size);
        let zeros = data.iter().filter(|&&b| b == 0).count();
        assert!(zeros < data.len() / 64, "{zeros} zero bytes");
        assert_ne!(&data[..4096], &data[FILL_CHUNK..FILL_CHUNK + 4096]);
        assert!(data[data.len() - 4096..].iter().any(|&b| b != 0));
        let mtime = fs::metadata(&f).unwrap().modified().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(20));
        // Large enough already: untouched.
        assert!(!layout_file(&f, size, FallocateMode::Native, true, Some(&prog)).unwrap());
        assert!(!layout_file(&f, 4096, FallocateMode::Posix, true, None).unwrap());
        assert_eq!(prog.load(Ordering::Relaxed), size);
        assert_eq!(fs::metadata(&f).unwrap().modified().unwrap(), mtime);
        assert_eq!(read_all(&f), data);
        // Too small: extended to the new size, its own bytes kept.
        let bigger = size + 100_000;
        let prog = AtomicU64::new(0);
        assert!(layout_file(&f, bigger, FallocateMode::Native, true, Some(&prog)).unwrap());
        assert_eq!(
            prog.load(Ordering::Relaxed),
            100_000,
            "only the new part is written"
        );
        assert_eq!(fs::metadata(&f).unwrap().len(), bigger);
        let d2 = read_all(&f);
        assert_eq!(&d2[..size as usize], &data[..], "existing bytes are kept");
        assert!(d2[size as usize..].iter().any(|&b| b != 0));
        // Devices are never laid out.
        assert!(!layout_file(
            Path::new("/dev/null"),
            1 << 20,
            FallocateMode::None,
            true,
            None
        )
        .unwrap());
    }

    #[test]
    fn layout_fallocate_modes() {
        let d = TempDir::new("falloc");
        let size: u64 = 4 << 20;
        let blocks = |p: &Path| fs::metadata(p).unwrap().blocks() * 512;
        let ext = statfs_magic(d.path()) == EXT_MAGIC;
        for (mode, allocated) in [
            (FallocateMode::Native, true),
            (FallocateMode::Keep, true),
            (FallocateMode::Posix, true),
            (FallocateMode::None, false),
            (FallocateMode::Truncate, false),
        ] {
            let f = d.path().join(format!("{mode:?}"));
            assert!(layout_file(&f, size, mode, false, None).unwrap());
            let m = fs::metadata(&f).unwrap();
            assert_eq!(m.len(), size, "{mode:?}");
            if ext {
                if allocated {
                    assert!(blocks(&f) >= size, "{mode:?}: {} allocated", blocks(&f));
                } else {
                    assert!(blocks(&f) < size / 4, "{mode:?}: {} allocated", blocks(&f));
                }
            }
            assert!(read_all(&f).iter().all(|&b| b == 0));
        }
        let z = d.path().join("zero");
        assert!(layout_file(&z, 0, FallocateMode::Native, true, None).unwrap());
        assert_eq!(fs::metadata(&z).unwrap().len(), 0);
    }

    #[test]
    fn layout_error_has_path() {
        let d = TempDir::new("lerr");
        let blocker = d.path().join("plainfile");
        fs::write(&blocker, b"x").unwrap();
        let f = blocker.join("child.dat");
        let e = layout_file(&f, 4096, FallocateMode::None, true, None).unwrap_err();
        assert!(e.to_string().contains("plainfile"), "{e}");
        assert_eq!(crate::sys::errno_of(&e), libc::ENOTDIR);
    }

    #[test]
    fn open_flags_and_invalidate() {
        let d = TempDir::new("open");
        let f = d.path().join("o.dat");
        assert!(open_target(&f, true, false, false, false, SyncMode::None).is_err());
        let mut w = open_target(&f, false, true, true, false, SyncMode::Dsync).unwrap();
        w.write_all(&[7u8; 8192]).unwrap();
        let flags = unsafe { libc::fcntl(w.as_raw_fd(), libc::F_GETFL) };
        assert_eq!(flags & libc::O_ACCMODE, libc::O_WRONLY);
        assert_ne!(flags & libc::O_DSYNC, 0);
        drop(w);
        let mut r = open_target(&f, true, true, false, false, SyncMode::Sync).unwrap();
        let flags = unsafe { libc::fcntl(r.as_raw_fd(), libc::F_GETFL) };
        assert_eq!(flags & libc::O_ACCMODE, libc::O_RDWR);
        assert_eq!(flags & libc::O_SYNC, libc::O_SYNC);
        let mut buf = [0u8; 8192];
        r.seek(SeekFrom::Start(0)).unwrap();
        r.read_exact(&mut buf).unwrap();
        assert!(buf.iter().all(|&b| b == 7));
        invalidate_cache(r.as_raw_fd(), false).unwrap();
        let o = open_target(&f, false, false, false, true, SyncMode::None);
        match o {
            Ok(o) => {
                let flags = unsafe { libc::fcntl(o.as_raw_fd(), libc::F_GETFL) };
                assert_ne!(flags & libc::O_DIRECT, 0);
            }
            Err(e) => {
                assert_eq!(crate::sys::errno_of(&e), libc::EINVAL);
                assert!(e.to_string().contains("direct I/O"), "{e}");
            }
        }
        assert!(free_space(d.path()).unwrap() > 0);
        assert!(free_space(&d.path().join("a/b")).unwrap() > 0);
        assert!(invalidate_cache(-1, false).is_err());
    }

    #[test]
    fn disk_stats_sampler() {
        let d = TempDir::new("dstat");
        let names = disks_for(d.path());
        let gone = DiskStatsSampler::start(&["iomark-no-such-disk".to_string()]);
        assert!(gone.names().is_empty());
        assert!(gone.finish().is_empty());
        if names.is_empty() {
            assert_ne!(statfs_magic(d.path()), EXT_MAGIC);
            return;
        }
        let s = DiskStatsSampler::start(&names);
        assert_eq!(s.names(), names);
        let f = d.path().join("w.dat");
        let mut fh = File::create(&f).unwrap();
        fh.write_all(&vec![3u8; 1 << 20]).unwrap();
        fh.sync_all().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(20));
        let u = s.finish();
        assert_eq!(u.len(), names.len());
        assert_eq!(u[0].name, names[0]);
        assert!(u[0].write_ios > 0 && u[0].write_sectors >= 8, "{:?}", u[0]);
        for x in &u {
            assert!(x.elapsed_ms >= 20);
            assert!((0.0..=100.0).contains(&x.util), "{x:?}");
        }
        assert_eq!(counter_delta(5, 10), (1u64 << 32) - 5);
        assert_eq!(counter_delta(10, 5), 5);
        assert_eq!(
            parse_disk_stat("1 2 3 4 5 6 7 8 9 10 11 12 13"),
            Some([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11])
        );
        assert_eq!(parse_disk_stat("1 2 3"), None);
    }

    fn write_image(path: &Path, size: u64, patches: &[(usize, &[u8])]) {
        let mut f = File::create(path).unwrap();
        f.set_len(size).unwrap();
        for (off, bytes) in patches {
            f.seek(SeekFrom::Start(*off as u64)).unwrap();
            f.write_all(bytes).unwrap();
        }
    }

    #[test]
    fn signatures_handcrafted() {
        let d = TempDir::new("sig");
        let img = d.path().join("img");
        let ps = crate::sys::page_size();
        let mbr_entry: [u8; 16] = [0x80, 0, 0, 0, 0x83, 0, 0, 0, 0, 8, 0, 0, 0, 0, 1, 0];
        let mut ext_sb = vec![0u8; 1024];
        ext_sb[56..58].copy_from_slice(&0xEF53u16.to_le_bytes());
        let mut ext3_sb = ext_sb.clone();
        ext3_sb[92..96].copy_from_slice(&4u32.to_le_bytes());
        let mut ext4_sb = ext3_sb.clone();
        ext4_sb[96..100].copy_from_slice(&(0x2u32 | 0x40).to_le_bytes());
        let mut lvm = vec![0u8; 32];
        lvm[..8].copy_from_slice(b"LABELONE");
        lvm[24..32].copy_from_slice(b"LVM2 001");
        type Case<'a> = (Vec<(usize, &'a [u8])>, Option<&'a str>);
        let cases: Vec<Case> = vec![
            (vec![], None),
            (
                vec![(512, b"EFI PART"), (510, &[0x55, 0xAA])],
                Some("GPT partition table"),
            ),
            (
                vec![(446, &mbr_entry), (510, &[0x55, 0xAA])],
                Some("MBR partition table"),
            ),
            (vec![(510, &[0x55, 0xAA])], None),
            (vec![(ps - 10, b"SWAPSPACE2")], Some("swap space")),
            (vec![(1024, &ext_sb)], Some("ext2 filesystem")),
            (vec![(1024, &ext3_sb)], Some("ext3 filesystem")),
            (vec![(1024, &ext4_sb)], Some("ext4 filesystem")),
            (vec![(0, b"XFSB")], Some("XFS filesystem")),
            (vec![(65536 + 64, b"_BHRfS_M")], Some("Btrfs filesystem")),
            (vec![(512, &lvm)], Some("LVM2 physical volume")),
            (
                vec![(4096, &[0xfc, 0x4e, 0x2b, 0xa9, 1, 0, 0, 0])],
                Some("Linux md RAID member (superblock 1.x)"),
            ),
        ];
        for (patches, want) in cases {
            write_image(&img, 1 << 20, &patches);
            assert_eq!(fs_signature(&img).unwrap().as_deref(), want, "{patches:?}");
            fs::remove_file(&img).unwrap();
        }
        // A short file is read without error.
        fs::write(&img, b"XFSB").unwrap();
        assert_eq!(
            fs_signature(&img).unwrap().as_deref(),
            Some("XFS filesystem")
        );
        assert!(fs_signature(&d.path().join("nope")).is_err());
    }

    #[test]
    fn signature_of_real_ext4_image() {
        let mkfs = mkfs_ext4();
        let d = TempDir::new("ext4img");
        let img = d.path().join("ext4.img");
        File::create(&img).unwrap().set_len(64 << 20).unwrap();
        assert_eq!(fs_signature(&img).unwrap(), None);
        let st = Command::new(mkfs)
            .arg("-q")
            .arg("-F")
            .arg(&img)
            .status()
            .unwrap();
        assert!(st.success());
        assert_eq!(
            fs_signature(&img).unwrap().as_deref(),
            Some("ext4 filesystem")
        );
    }

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
        assert_eq!(fs_signature(p).unwrap().as_deref(), Some("ext4 filesystem"));
        assert_eq!(device_mount_point(p), None);
        let f = open_target(p, true, false, false, false, SyncMode::None).unwrap();
        invalidate_cache(f.as_raw_fd(), true).unwrap();
        drop(f);
        // Not a regular file: layout leaves it alone.
        assert!(!layout_file(p, 1 << 20, FallocateMode::Native, true, None).unwrap());
    }
}
