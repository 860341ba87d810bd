//! SIGINT/SIGTERM/SIGHUP: the first stops issuing new I/O (the run drains and reports); the
//! second exits at once, after removing any temporary file registered here. SIGUSR1 asks for
//! an interim report (the run goes on).

use std::ffi::CString;
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU32, Ordering};
use std::sync::Arc;

static COUNT: AtomicU32 = AtomicU32::new(0);
/// The stop flag of the current run (a leaked `Arc` clone, so the handler never frees it).
static STOP: AtomicPtr<AtomicBool> = AtomicPtr::new(std::ptr::null_mut());
static INTERRUPTED: AtomicBool = AtomicBool::new(false);
static REPORT_ASKED: AtomicBool = AtomicBool::new(false);
static TEMP_PATH: AtomicPtr<libc::c_char> = AtomicPtr::new(std::ptr::null_mut());

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

/// Whether SIGUSR1 asked for an interim report since the last call.
pub fn take_report_request() -> bool {
    REPORT_ASKED.swap(false, Ordering::SeqCst)
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
            unsafe { drop(CString::from_raw(old)) };
        }
    }
}

pub fn clear_temp() {
    let old = TEMP_PATH.swap(std::ptr::null_mut(), Ordering::SeqCst);
    if !old.is_null() {
        unsafe { drop(CString::from_raw(old)) };
    }
}
