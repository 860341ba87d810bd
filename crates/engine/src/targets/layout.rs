//! Opening targets with the requested flags, laying out files and dropping cached pages.

use super::open_raw;
use crate::job::{FallocateMode, SyncMode};
use crate::sys::{error_with_errno, now_ns, posix_fadvise, with_context};
use std::fs::{self, File};
use std::io;
use std::os::unix::io::{AsRawFd, RawFd};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

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
    // O_NONBLOCK: a FIFO (or anything that would wait for a peer) must not block the open;
    // such targets are refused below and the flag is cleared for every other kind.
    let opened = match open_raw(path, flags | dflag | libc::O_NONBLOCK, 0o644) {
        Ok(f) => Ok(f),
        Err(e) if direct && e.raw_os_error() == Some(libc::EINVAL) => {
            if open_raw(path, flags | libc::O_NONBLOCK, 0o644).is_ok() {
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
        Err(e) => Err(match fs::metadata(path) {
            Ok(m) if !m.is_file() && special_kind(&m).is_some() => not_file_or_device(path, &m),
            _ => with_context(e, path.display()),
        }),
    }?;
    let meta = opened
        .metadata()
        .map_err(|e| with_context(e, path.display()))?;
    if special_kind(&meta).is_some() {
        return Err(not_file_or_device(path, &meta));
    }
    clear_nonblock(opened.as_raw_fd()).map_err(|e| with_context(e, path.display()))?;
    Ok(opened)
}

/// "a FIFO" or "a socket" for the kinds of file no engine reads or writes as a target.
fn special_kind(m: &fs::Metadata) -> Option<&'static str> {
    use std::os::unix::fs::FileTypeExt;
    let ft = m.file_type();
    if ft.is_fifo() {
        Some("a FIFO (named pipe)")
    } else if ft.is_socket() {
        Some("a socket")
    } else {
        None
    }
}

fn not_file_or_device(path: &Path, m: &fs::Metadata) -> io::Error {
    error_with_errno(
        libc::EINVAL,
        format!(
            "{} is {}, not a regular file or device",
            path.display(),
            special_kind(m).unwrap_or("not a regular file")
        ),
    )
}

fn clear_nonblock(fd: RawFd) -> io::Result<()> {
    // SAFETY: fcntl on a descriptor we own, with integer arguments only.
    let fl = unsafe { libc::fcntl(fd, libc::F_GETFL) };
    if fl < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: as above.
    if unsafe { libc::fcntl(fd, libc::F_SETFL, fl & !libc::O_NONBLOCK) } < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
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
/// `progress`) and fsynced; the new part's cached pages are then dropped. Errors carry the path
/// and keep their errno.
#[cfg(test)]
pub(crate) fn layout_file(
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
pub(crate) fn layout_file_until(
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
    // As fio: the laid-out part leaves the page cache whatever the job's `invalidate`, so that
    // a job with invalidate=0 does not read the layout's pages from memory.
    let _ = posix_fadvise(fd, existing, size - existing, libc::POSIX_FADV_DONTNEED);
    Ok(true)
}

/// Drops cached pages of a target: posix_fadvise(DONTNEED) for files; BLKFLSBUF for block
/// devices (falling back to fadvise when the ioctl is refused or unsupported).
pub(crate) fn invalidate_cache(fd: RawFd, is_block: bool) -> io::Result<()> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::targets::testutil::*;
    use crate::targets::*;
    use std::io::{Read, Seek, SeekFrom, Write};

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
    fn fifo_targets_are_refused_without_blocking() {
        let d = TempDir::new("fifo");
        let fifo = d.path().join("fifo");
        let c = cpath(&fifo).unwrap();
        // SAFETY: c is a valid path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        // No writer and no reader: a blocking open would wait forever.
        for (r, w) in [(true, false), (false, true), (true, true)] {
            let e = open_target(&fifo, r, w, false, false, SyncMode::None).unwrap_err();
            assert!(
                e.to_string()
                    .contains("is a FIFO (named pipe), not a regular file or device"),
                "{e}"
            );
        }
        // Other targets keep blocking I/O.
        let f = d.path().join("plain");
        fs::write(&f, b"x").unwrap();
        let file = open_target(&f, true, false, false, false, SyncMode::None).unwrap();
        // SAFETY: F_GETFL on an open descriptor.
        let fl = unsafe { libc::fcntl(file.as_raw_fd(), libc::F_GETFL) };
        assert_eq!(fl & libc::O_NONBLOCK, 0);
    }
}
