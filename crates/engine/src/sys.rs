//! Operating-system helpers used by workers and the runner: aligned buffers, clocks, CPU usage,
//! host facts, CPU affinity, resource limits, page-cache hints and errors that carry context
//! without losing their errno. Front ends use only the clocks (`now_ns`, `unix_ms`) and the host
//! facts (`host_info`, `mem_total`); everything else is the engine's own (`pub(crate)`).

use crate::job::FadviseHint;
use crate::result::{CpuUsage, HostInfo};
use std::alloc::{self, Layout};
use std::fmt;
use std::io;
use std::os::unix::io::RawFd;
use std::ptr::NonNull;
use std::time::{SystemTime, UNIX_EPOCH};

// ---------------------------------------------------------------------------------------------
// Aligned buffers
// ---------------------------------------------------------------------------------------------

/// An owned, zero-initialised byte buffer whose start is aligned to `align` bytes (for O_DIRECT
/// and registered io_uring buffers).
pub(crate) struct AlignedBuf {
    ptr: NonNull<u8>,
    len: usize,
    layout: Layout,
}

// SAFETY: the buffer is uniquely owned heap memory; access follows Rust borrow rules.
unsafe impl Send for AlignedBuf {}
// SAFETY: shared references only give read access.
unsafe impl Sync for AlignedBuf {}

impl AlignedBuf {
    /// Allocates `len` zeroed bytes aligned to `align` (a power of two; values below 1 are
    /// treated as 1). Panics if the layout is invalid; aborts on allocation failure.
    pub(crate) fn new(len: usize, align: usize) -> AlignedBuf {
        let align = align.max(1);
        let layout = Layout::from_size_align(len.max(1), align)
            .expect("AlignedBuf: alignment must be a power of two");
        // SAFETY: layout has a non-zero size.
        let raw = unsafe { alloc::alloc_zeroed(layout) };
        let ptr = match NonNull::new(raw) {
            Some(p) => p,
            None => alloc::handle_alloc_error(layout),
        };
        AlignedBuf { ptr, len, layout }
    }
    #[inline]
    pub(crate) fn as_ptr(&self) -> *const u8 {
        self.ptr.as_ptr()
    }
    #[inline]
    pub(crate) fn as_mut_ptr(&mut self) -> *mut u8 {
        self.ptr.as_ptr()
    }
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.len
    }
    #[inline]
    #[cfg(test)]
    pub(crate) fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// The alignment the buffer was allocated with.
    #[cfg(test)]
    pub(crate) fn align(&self) -> usize {
        self.layout.align()
    }
    #[inline]
    pub(crate) fn as_slice(&self) -> &[u8] {
        // SAFETY: ptr is valid for len initialised bytes.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
    #[inline]
    pub(crate) fn as_mut_slice(&mut self) -> &mut [u8] {
        // SAFETY: ptr is valid for len initialised bytes and uniquely borrowed.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

impl Drop for AlignedBuf {
    fn drop(&mut self) {
        // SAFETY: allocated in `new` with this exact layout.
        unsafe { alloc::dealloc(self.ptr.as_ptr(), self.layout) }
    }
}

impl fmt::Debug for AlignedBuf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AlignedBuf")
            .field("len", &self.len)
            .field("align", &self.layout.align())
            .finish()
    }
}

// ---------------------------------------------------------------------------------------------
// Clocks
// ---------------------------------------------------------------------------------------------

/// Monotonic time in nanoseconds (CLOCK_MONOTONIC, served by the vDSO).
#[inline]
pub fn now_ns() -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: ts is a valid out pointer.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut ts) };
    (ts.tv_sec as u64)
        .wrapping_mul(1_000_000_000)
        .wrapping_add(ts.tv_nsec as u64)
}

/// Wall-clock time in milliseconds since the Unix epoch.
pub fn unix_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

// ---------------------------------------------------------------------------------------------
// CPU usage
// ---------------------------------------------------------------------------------------------

const RUSAGE_THREAD: libc::c_int = 1;

fn rusage(who: libc::c_int) -> Option<CpuUsage> {
    // SAFETY: zeroed rusage is a valid value; getrusage fills it.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: ru is a valid out pointer.
    let rc = unsafe { libc::getrusage(who, &mut ru) };
    if rc != 0 {
        return None;
    }
    let tv_us = |tv: libc::timeval| (tv.tv_sec as u64) * 1_000_000 + tv.tv_usec as u64;
    Some(CpuUsage {
        usr_us: tv_us(ru.ru_utime),
        sys_us: tv_us(ru.ru_stime),
        ctx: (ru.ru_nvcsw as u64) + (ru.ru_nivcsw as u64),
        majf: ru.ru_majflt as u64,
        minf: ru.ru_minflt as u64,
    })
}

/// CPU usage of the calling thread so far (getrusage RUSAGE_THREAD, or the whole process when
/// the kernel lacks per-thread accounting).
pub(crate) fn rusage_thread() -> CpuUsage {
    rusage(RUSAGE_THREAD)
        .or_else(|| rusage(libc::RUSAGE_SELF))
        .unwrap_or_default()
}

/// CPU time (user + system) of the calling thread so far, in ns, from the scheduler's own
/// count (CLOCK_THREAD_CPUTIME_ID): exact, where getrusage's split may move in ticks.
pub(crate) fn thread_cpu_ns() -> u64 {
    // SAFETY: zeroed timespec is a valid out value.
    let mut ts: libc::timespec = unsafe { std::mem::zeroed() };
    // SAFETY: ts is a valid out pointer.
    if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) } != 0 {
        let u = rusage_thread();
        return (u.usr_us + u.sys_us) * 1000;
    }
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

/// The smallest step of the calling thread's CPU time (ns), found as iozone finds it: spin
/// until the reading changes (at most 100 ms).
pub fn cpu_time_resolution_ns() -> u64 {
    let t0 = thread_cpu_ns();
    let deadline = now_ns() + 100_000_000;
    loop {
        let t = thread_cpu_ns();
        if t != t0 {
            return t - t0;
        }
        if now_ns() > deadline {
            return 100_000_000;
        }
    }
}

/// CPU usage of the whole process so far.
pub(crate) fn rusage_self() -> CpuUsage {
    rusage(libc::RUSAGE_SELF).unwrap_or_default()
}

/// `after - before`, field by field (saturating at zero).
pub(crate) fn cpu_delta(after: &CpuUsage, before: &CpuUsage) -> CpuUsage {
    CpuUsage {
        usr_us: after.usr_us.saturating_sub(before.usr_us),
        sys_us: after.sys_us.saturating_sub(before.sys_us),
        ctx: after.ctx.saturating_sub(before.ctx),
        majf: after.majf.saturating_sub(before.majf),
        minf: after.minf.saturating_sub(before.minf),
    }
}

// ---------------------------------------------------------------------------------------------
// Host facts
// ---------------------------------------------------------------------------------------------

fn cstr_field(f: &[libc::c_char]) -> String {
    let bytes: Vec<u8> = f
        .iter()
        .take_while(|&&c| c != 0)
        .map(|&c| c as u8)
        .collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Value in bytes of a `Key:   N kB` line of /proc/meminfo.
fn meminfo_value(key: &str) -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    parse_meminfo(&text, key)
}

fn parse_meminfo(text: &str, key: &str) -> Option<u64> {
    for line in text.lines() {
        let Some((k, v)) = line.split_once(':') else {
            continue;
        };
        if k.trim() != key {
            continue;
        }
        let mut it = v.split_whitespace();
        let n: u64 = it.next()?.parse().ok()?;
        let mult = match it.next() {
            Some("kB") | Some("KB") | Some("kb") => 1024,
            _ => 1,
        };
        return Some(n * mult);
    }
    None
}

/// Host name, kernel release, online CPUs and total memory.
pub fn host_info() -> HostInfo {
    // SAFETY: zeroed utsname is valid; uname fills it.
    let mut u: libc::utsname = unsafe { std::mem::zeroed() };
    // SAFETY: u is a valid out pointer.
    let ok = unsafe { libc::uname(&mut u) } == 0;
    let (hostname, kernel) = if ok {
        (cstr_field(&u.nodename), cstr_field(&u.release))
    } else {
        (String::new(), String::new())
    };
    let mut h = HostInfo {
        hostname,
        kernel,
        cpus: ncpus(),
        mem_bytes: meminfo_value("MemTotal").unwrap_or(0),
        ..HostInfo::default()
    };
    crate::inventory::host_facts(std::path::Path::new("/"), &mut h);
    h
}

/// Memory available for new allocations without swapping (/proc/meminfo MemAvailable), bytes.
pub(crate) fn mem_available() -> u64 {
    meminfo_value("MemAvailable")
        .or_else(|| meminfo_value("MemFree"))
        .unwrap_or(0)
}

/// Total memory in bytes.
pub fn mem_total() -> u64 {
    meminfo_value("MemTotal").unwrap_or(0)
}

/// The system page size in bytes.
pub(crate) fn page_size() -> usize {
    // SAFETY: sysconf has no memory-safety preconditions.
    let v = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    if v > 0 {
        v as usize
    } else {
        4096
    }
}

/// Number of online CPUs.
pub(crate) fn ncpus() -> usize {
    // SAFETY: sysconf has no memory-safety preconditions.
    let v = unsafe { libc::sysconf(libc::_SC_NPROCESSORS_ONLN) };
    if v > 0 {
        v as usize
    } else {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    }
}

/// Number of CPUs the system has (online or not): CPU numbers run from 0 to this minus one.
/// The NUMA nodes of this machine (`/sys/devices/system/node/online`); node 0 alone when the
/// kernel does not say.
pub fn numa_nodes() -> Vec<u32> {
    let text = std::fs::read_to_string("/sys/devices/system/node/online").unwrap_or_default();
    let mut nodes = Vec::new();
    for part in text.trim().split(',').filter(|p| !p.is_empty()) {
        let (a, b) = part.split_once('-').unwrap_or((part, part));
        if let (Ok(a), Ok(b)) = (a.parse::<u32>(), b.parse::<u32>()) {
            nodes.extend(a..=b);
        }
    }
    if nodes.is_empty() {
        nodes.push(0);
    }
    nodes
}

pub(crate) fn cpus_configured() -> usize {
    // SAFETY: sysconf has no memory-safety preconditions.
    let v = unsafe { libc::sysconf(libc::_SC_NPROCESSORS_CONF) };
    if v > 0 {
        v as usize
    } else {
        ncpus()
    }
}

// ---------------------------------------------------------------------------------------------
// Affinity, limits, privileges
// ---------------------------------------------------------------------------------------------

/// Sets the I/O priority of the calling thread (ioprio_set for the thread itself).
pub(crate) fn set_io_priority(prio: crate::job::IoPriority) -> io::Result<()> {
    const IOPRIO_WHO_PROCESS: libc::c_long = 1;
    // SAFETY: ioprio_set takes three integers; who = 0 is the calling thread.
    let rc = unsafe {
        libc::syscall(
            libc::SYS_ioprio_set,
            IOPRIO_WHO_PROCESS,
            0 as libc::c_long,
            libc::c_long::from(prio.value()),
        )
    };
    if rc != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// The I/O priority value of the calling thread (ioprio_get).
#[cfg(test)]
pub(crate) fn get_io_priority() -> io::Result<u16> {
    // SAFETY: ioprio_get takes two integers; who = 0 is the calling thread.
    let rc = unsafe { libc::syscall(libc::SYS_ioprio_get, 1 as libc::c_long, 0 as libc::c_long) };
    if rc < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(rc as u16)
}

/// Pins the calling thread to the given CPUs (sched_setaffinity).
pub fn set_affinity(cpus: &[usize]) -> io::Result<()> {
    if cpus.is_empty() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "empty CPU set for affinity",
        ));
    }
    // SAFETY: zeroed cpu_set_t is an empty set.
    let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
    let max = 8 * std::mem::size_of::<libc::cpu_set_t>();
    for &c in cpus {
        if c >= max {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("CPU {c} is out of range for affinity (max {})", max - 1),
            ));
        }
        // SAFETY: c is below the set's capacity.
        unsafe { libc::CPU_SET(c, &mut set) };
    }
    // SAFETY: set is a valid cpu_set_t of the given size.
    let rc = unsafe { libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) };
    if rc != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// The CPUs the calling thread may run on.
#[cfg(test)]
pub(crate) fn get_affinity() -> io::Result<Vec<usize>> {
    // SAFETY: zeroed cpu_set_t is valid; sched_getaffinity fills it.
    let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
    // SAFETY: set is a valid out pointer of the given size.
    let rc =
        unsafe { libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) };
    if rc != 0 {
        return Err(io::Error::last_os_error());
    }
    let max = 8 * std::mem::size_of::<libc::cpu_set_t>();
    // SAFETY: c is below the set's capacity.
    Ok((0..max)
        .filter(|&c| unsafe { libc::CPU_ISSET(c, &set) })
        .collect())
}

/// The soft RLIMIT_MEMLOCK in bytes; `None` when unlimited.
#[cfg(test)]
pub(crate) fn memlock_limit() -> Option<u64> {
    let mut rl = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: rl is a valid out pointer.
    let rc = unsafe { libc::getrlimit(libc::RLIMIT_MEMLOCK, &mut rl) };
    if rc != 0 || rl.rlim_cur == libc::RLIM_INFINITY {
        None
    } else {
        #[allow(clippy::unnecessary_cast)]
        Some(rl.rlim_cur as u64)
    }
}

/// The effective user is root.
#[cfg(test)]
pub(crate) fn is_root() -> bool {
    // SAFETY: geteuid cannot fail.
    unsafe { libc::geteuid() == 0 }
}

// ---------------------------------------------------------------------------------------------
// Page-cache hints
// ---------------------------------------------------------------------------------------------

/// Applies a posix_fadvise hint to `[off, off+len)` (len 0 = to the end). `Auto` picks RANDOM
/// or SEQUENTIAL from `random`; `Off` does nothing.
pub(crate) fn fadvise(
    fd: RawFd,
    off: u64,
    len: u64,
    hint: FadviseHint,
    random: bool,
) -> io::Result<()> {
    let advice = match hint {
        FadviseHint::Off => return Ok(()),
        FadviseHint::Auto => {
            if random {
                libc::POSIX_FADV_RANDOM
            } else {
                libc::POSIX_FADV_SEQUENTIAL
            }
        }
        FadviseHint::Sequential => libc::POSIX_FADV_SEQUENTIAL,
        FadviseHint::Random => libc::POSIX_FADV_RANDOM,
        FadviseHint::NoReuse => libc::POSIX_FADV_NOREUSE,
    };
    posix_fadvise(fd, off, len, advice)
}

/// posix_fadvise with an io::Result (it returns the error number rather than setting errno).
pub(crate) fn posix_fadvise(fd: RawFd, off: u64, len: u64, advice: libc::c_int) -> io::Result<()> {
    // SAFETY: plain syscall on a caller-provided descriptor.
    let rc = unsafe { libc::posix_fadvise(fd, off as libc::off_t, len as libc::off_t, advice) };
    if rc != 0 {
        return Err(io::Error::from_raw_os_error(rc));
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Errors with context
// ---------------------------------------------------------------------------------------------

/// An error message with the errno it came from, carried inside an `io::Error`.
#[derive(Debug)]
struct ContextError {
    errno: i32,
    msg: String,
}

impl fmt::Display for ContextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.msg)
    }
}

impl std::error::Error for ContextError {}

/// Wraps `e` with `ctx` prefixed to its message (`"<ctx>: <error>"`), keeping its kind and errno
/// (readable with [`errno_of`]).
pub(crate) fn with_context(e: io::Error, ctx: impl fmt::Display) -> io::Error {
    let errno = errno_of(&e);
    io::Error::new(
        e.kind(),
        ContextError {
            errno,
            msg: format!("{ctx}: {e}"),
        },
    )
}

/// An error with the given errno and message (the message is used as is).
pub(crate) fn error_with_errno(errno: i32, msg: impl Into<String>) -> io::Error {
    let kind = io::Error::from_raw_os_error(errno).kind();
    io::Error::new(
        kind,
        ContextError {
            errno,
            msg: msg.into(),
        },
    )
}

/// The errno behind an error: its raw OS error, the errno kept by [`with_context`] /
/// [`error_with_errno`], or EIO when none is known.
pub(crate) fn errno_of(e: &io::Error) -> i32 {
    if let Some(n) = e.raw_os_error() {
        return n;
    }
    if let Some(c) = e.get_ref().and_then(|r| r.downcast_ref::<ContextError>()) {
        return c.errno;
    }
    match e.kind() {
        io::ErrorKind::NotFound => libc::ENOENT,
        io::ErrorKind::PermissionDenied => libc::EACCES,
        io::ErrorKind::InvalidInput => libc::EINVAL,
        io::ErrorKind::AlreadyExists => libc::EEXIST,
        io::ErrorKind::Interrupted => libc::EINTR,
        io::ErrorKind::WouldBlock => libc::EAGAIN,
        io::ErrorKind::UnexpectedEof => libc::EIO,
        _ => libc::EIO,
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn io_priority_of_the_thread() {
        use crate::job::IoPriority;
        std::thread::spawn(|| {
            set_io_priority(IoPriority { class: 2, level: 5 }).unwrap();
            assert_eq!(get_io_priority().unwrap(), (2 << 13) | 5);
            // Class 0 is best-effort, as the kernel takes it.
            set_io_priority(IoPriority { class: 0, level: 3 }).unwrap();
            assert_eq!(get_io_priority().unwrap(), (2 << 13) | 3);
            set_io_priority(IoPriority { class: 3, level: 0 }).unwrap();
            assert_eq!(get_io_priority().unwrap() >> 13, 3);
        })
        .join()
        .unwrap();
    }
    use super::*;

    #[test]
    fn aligned_buf_alignment_and_zeroed() {
        for &align in &[512usize, 4096, 65536] {
            let mut b = AlignedBuf::new(3 * align + 17, align);
            assert_eq!(b.as_ptr() as usize % align, 0);
            assert_eq!(b.len(), 3 * align + 17);
            assert_eq!(b.align(), align);
            assert!(b.as_slice().iter().all(|&x| x == 0));
            b.as_mut_slice()[0] = 7;
            let last = b.len() - 1;
            b.as_mut_slice()[last] = 9;
            assert_eq!(b.as_slice()[0], 7);
            assert_eq!(b.as_slice()[last], 9);
            assert_eq!(b.as_mut_ptr() as usize % align, 0);
        }
        let e = AlignedBuf::new(0, 4096);
        assert!(e.is_empty());
        assert_eq!(e.as_slice().len(), 0);
        fn is_send<T: Send>() {}
        is_send::<AlignedBuf>();
    }

    #[test]
    fn clocks_advance() {
        let a = now_ns();
        std::thread::sleep(std::time::Duration::from_millis(2));
        let b = now_ns();
        assert!(b > a && b - a >= 2_000_000, "{a} {b}");
        let ms = unix_ms();
        assert!(ms > 1_600_000_000_000);
    }

    #[test]
    fn rusage_non_decreasing() {
        let a = rusage_thread();
        // Burn 50 ms of this thread's CPU (black_box keeps the optimiser from folding the loop).
        let t0 = std::time::Instant::now();
        let mut x = 0u64;
        while t0.elapsed() < std::time::Duration::from_millis(50) {
            for i in 0..10_000u64 {
                x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(i));
            }
        }
        std::hint::black_box(x);
        let b = rusage_thread();
        assert!(b.usr_us + b.sys_us >= a.usr_us + a.sys_us);
        assert!(b.ctx >= a.ctx && b.minf >= a.minf && b.majf >= a.majf);
        let d = cpu_delta(&b, &a);
        assert!(d.usr_us + d.sys_us > 0, "{d:?}");
        assert_eq!(cpu_delta(&a, &b).usr_us, 0);
        let p = rusage_self();
        assert!(p.usr_us + p.sys_us >= d.usr_us + d.sys_us);
    }

    #[test]
    fn host_facts() {
        let h = host_info();
        assert!(!h.kernel.is_empty());
        assert!(h.cpus >= 1);
        assert!(h.mem_bytes > 16 << 20);
        let avail = mem_available();
        assert!(avail > 0 && avail <= h.mem_bytes);
        assert_eq!(mem_total(), h.mem_bytes);
        assert!(page_size() >= 4096 && page_size().is_power_of_two());
        assert_eq!(ncpus(), h.cpus);
        assert_eq!(
            parse_meminfo("MemTotal:  100 kB\nMemAvailable:   5 kB\n", "MemAvailable"),
            Some(5 * 1024)
        );
        assert_eq!(parse_meminfo("MemTotal:  100 kB\n", "MemFree"), None);
    }

    #[test]
    fn affinity_roundtrip() {
        let before = get_affinity().unwrap();
        assert!(!before.is_empty());
        std::thread::spawn(move || {
            let cpu = before[0];
            set_affinity(&[cpu]).unwrap();
            assert_eq!(get_affinity().unwrap(), vec![cpu]);
            assert!(set_affinity(&[]).is_err());
            assert!(set_affinity(&[1 << 20]).is_err());
        })
        .join()
        .unwrap();
    }

    #[test]
    fn limits_and_fadvise() {
        if let Some(l) = memlock_limit() {
            assert!(l < u64::MAX);
        }
        let _ = is_root();
        let dir = std::env::temp_dir();
        let path = dir.join(format!("iomark-sys-fadv-{}", std::process::id()));
        let f = std::fs::File::create(&path).unwrap();
        use std::os::unix::io::AsRawFd;
        let fd = f.as_raw_fd();
        for h in [
            FadviseHint::Off,
            FadviseHint::Auto,
            FadviseHint::Sequential,
            FadviseHint::Random,
            FadviseHint::NoReuse,
        ] {
            fadvise(fd, 0, 0, h, true).unwrap();
            fadvise(fd, 0, 4096, h, false).unwrap();
        }
        drop(f);
        std::fs::remove_file(&path).unwrap();
        let e = fadvise(-1, 0, 0, FadviseHint::Random, true).unwrap_err();
        assert_eq!(e.raw_os_error(), Some(libc::EBADF));
    }

    #[test]
    fn context_keeps_errno() {
        let e = io::Error::from_raw_os_error(libc::ENOSPC);
        let w = with_context(e, "/x/y");
        assert_eq!(errno_of(&w), libc::ENOSPC);
        assert!(w.to_string().starts_with("/x/y: "), "{w}");
        let w2 = with_context(w, "layout");
        assert_eq!(errno_of(&w2), libc::ENOSPC);
        let d = error_with_errno(libc::EINVAL, "no direct");
        assert_eq!(errno_of(&d), libc::EINVAL);
        assert_eq!(d.kind(), io::ErrorKind::InvalidInput);
        assert_eq!(d.to_string(), "no direct");
    }
}
