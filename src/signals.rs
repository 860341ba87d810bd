//! SIGINT/SIGTERM/SIGHUP: the first stops issuing new I/O (the run drains and reports); the
//! second exits at once, after removing any temporary file registered here. SIGUSR1 asks for
//! an interim report (the run goes on); the reporter thread sleeps on a pipe the handler writes
//! to, so it costs nothing until asked.

use std::ffi::CString;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicPtr, AtomicU32, Ordering};
use std::sync::Arc;

static COUNT: AtomicU32 = AtomicU32::new(0);
/// The stop flag of the current run (a leaked `Arc` clone, so the handler never frees it).
static STOP: AtomicPtr<AtomicBool> = AtomicPtr::new(std::ptr::null_mut());
static INTERRUPTED: AtomicBool = AtomicBool::new(false);
static REPORT_ASKED: AtomicBool = AtomicBool::new(false);
static TEMP_PATH: AtomicPtr<libc::c_char> = AtomicPtr::new(std::ptr::null_mut());
/// The pipe that wakes the reporter: read end, write end (-1 before `install`).
static WAKE_RD: AtomicI32 = AtomicI32::new(-1);
static WAKE_WR: AtomicI32 = AtomicI32::new(-1);

extern "C" fn on_signal(_sig: libc::c_int) {
    let n = COUNT.fetch_add(1, Ordering::SeqCst);
    INTERRUPTED.store(true, Ordering::SeqCst);
    let stop = STOP.load(Ordering::SeqCst);
    if !stop.is_null() {
        // SAFETY: the pointer comes from Arc::into_raw and is never released.
        unsafe { (*stop).store(true, Ordering::SeqCst) };
    }
    if n >= 1 {
        let p = TEMP_PATH.load(Ordering::SeqCst);
        unsafe {
            if !p.is_null() {
                libc::unlink(p);
            }
            libc::_exit(130);
        }
    }
}

extern "C" fn on_usr1(_sig: libc::c_int) {
    REPORT_ASKED.store(true, Ordering::SeqCst);
    wake_reporter();
}

/// Wake a thread blocked in `wait_report_request` (async-signal-safe: one write to a
/// non-blocking pipe; a full pipe already means "wake up").
pub fn wake_reporter() {
    let fd = WAKE_WR.load(Ordering::SeqCst);
    if fd >= 0 {
        // SAFETY: writes one byte from a live stack variable to a descriptor we own.
        unsafe {
            let b = 1u8;
            libc::write(fd, &b as *const u8 as *const libc::c_void, 1);
        }
    }
}

/// Block up to `timeout` (or until `wake_reporter`/SIGUSR1); true when SIGUSR1 asked for an
/// interim report since the last call.
pub fn wait_report_request(timeout: std::time::Duration) -> bool {
    if REPORT_ASKED.swap(false, Ordering::SeqCst) {
        return true;
    }
    let fd = WAKE_RD.load(Ordering::SeqCst);
    if fd < 0 {
        std::thread::sleep(timeout.min(std::time::Duration::from_millis(20)));
    } else {
        let ms = timeout.as_millis().min(i32::MAX as u128) as i32;
        let mut p = libc::pollfd {
            fd,
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: one valid pollfd for the duration of the call.
        let n = unsafe { libc::poll(&mut p, 1, ms) };
        if n > 0 {
            let mut buf = [0u8; 64];
            // SAFETY: reads into a live local buffer of the given length (non-blocking fd).
            unsafe { libc::read(fd, buf.as_mut_ptr() as *mut libc::c_void, buf.len()) };
        }
    }
    REPORT_ASKED.swap(false, Ordering::SeqCst)
}

/// Install the handlers; `stop` is set on the first signal (a later call replaces the flag:
/// each run of a repeated command gets its own).
pub fn install(stop: Arc<AtomicBool>) {
    let raw = Arc::into_raw(stop) as *mut AtomicBool;
    if STOP.swap(raw, Ordering::SeqCst) == raw {
        // SAFETY: the same flag was installed before; drop the extra count taken above.
        unsafe { drop(Arc::from_raw(raw)) };
    }
    if INTERRUPTED.load(Ordering::SeqCst) {
        // SAFETY: raw came from Arc::into_raw just above and stays alive.
        unsafe { (*raw).store(true, Ordering::SeqCst) };
    }
    let mut fds = [-1; 2];
    // SAFETY: pipe2 fills the two-element array; both ends are ours for the process lifetime.
    if WAKE_RD.load(Ordering::SeqCst) < 0
        && unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_NONBLOCK | libc::O_CLOEXEC) } == 0
    {
        WAKE_WR.store(fds[1], Ordering::SeqCst);
        WAKE_RD.store(fds[0], Ordering::SeqCst);
    }
    // SAFETY: the handlers only touch atomics and call async-signal-safe functions (unlink,
    // _exit); libc::signal installs them with restarting (BSD) semantics on glibc.
    unsafe {
        let handler = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
        libc::signal(libc::SIGINT, handler);
        libc::signal(libc::SIGTERM, handler);
        libc::signal(libc::SIGHUP, handler);
        let usr1 = on_usr1 as extern "C" fn(libc::c_int) as libc::sighandler_t;
        libc::signal(libc::SIGUSR1, usr1);
    }
}

/// Whether a signal arrived.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// Register a temporary file to remove if the process must exit at once.
pub fn register_temp(path: &std::path::Path) {
    use std::os::unix::ffi::OsStrExt;
    if let Ok(c) = CString::new(path.as_os_str().as_bytes()) {
        let old = TEMP_PATH.swap(c.into_raw(), Ordering::SeqCst);
        if !old.is_null() {
            // SAFETY: `old` came from `CString::into_raw` in this function and was swapped out, so it is freed once.
            unsafe { drop(CString::from_raw(old)) };
        }
    }
}

pub fn clear_temp() {
    let old = TEMP_PATH.swap(std::ptr::null_mut(), Ordering::SeqCst);
    if !old.is_null() {
        // SAFETY: `old` came from `CString::into_raw` in `register_temp` and was swapped out, so it is freed once.
        unsafe { drop(CString::from_raw(old)) };
    }
}
