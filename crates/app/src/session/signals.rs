//! SIGINT/SIGTERM/SIGHUP: the first stops issuing new I/O (the run drains and reports); the
//! second exits at once, after removing any temporary file registered here. SIGUSR1 asks for
//! an interim report (the run goes on). The handlers are `signal-hook`'s; one thread receives
//! the signals and acts on them, so nothing here runs inside a signal handler.

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM, SIGUSR1};
use signal_hook::iterator::Signals;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::time::Duration;

/// What the signal thread and the commands share.
struct State {
    /// How many stopping signals arrived.
    count: AtomicU32,
    /// The stop flag of the current run (each run of a repeated command gets its own).
    stop: Mutex<Arc<AtomicBool>>,
    /// The file to remove when a second signal ends the process at once.
    temp: Mutex<Option<PathBuf>>,
    /// Wakes the reporter: (an interim report was asked for, a wake-up is pending).
    wake: Mutex<(bool, bool)>,
    woken: Condvar,
}

static STATE: OnceLock<State> = OnceLock::new();

fn state() -> &'static State {
    STATE.get_or_init(|| State {
        count: AtomicU32::new(0),
        stop: Mutex::new(Arc::new(AtomicBool::new(false))),
        temp: Mutex::new(None),
        wake: Mutex::new((false, false)),
        woken: Condvar::new(),
    })
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// Acts on one signal (on the signal thread).
fn on_signal(sig: i32) {
    let s = state();
    if sig == SIGUSR1 {
        lock(&s.wake).0 = true;
        wake_reporter();
        return;
    }
    let n = s.count.fetch_add(1, Ordering::SeqCst);
    lock(&s.stop).store(true, Ordering::SeqCst);
    if n >= 1 {
        if let Some(p) = lock(&s.temp).as_ref() {
            // A work directory the run made, or a file.
            if std::fs::symlink_metadata(p).is_ok_and(|m| m.is_dir()) {
                let _ = std::fs::remove_dir_all(p);
            } else {
                let _ = std::fs::remove_file(p);
            }
        }
        // SAFETY: ends the process at once, as the user asked twice; no destructor is needed.
        unsafe { libc::_exit(130) };
    }
}

/// Install the handlers (once per process; the thread that receives the signals starts then);
/// `stop` is set on the first signal. A later call replaces the flag: each run of a repeated
/// command gets its own, already set when a signal came before.
pub fn install(stop: Arc<AtomicBool>) {
    let s = state();
    if interrupted() {
        stop.store(true, Ordering::SeqCst);
    }
    *lock(&s.stop) = stop;
    static STARTED: OnceLock<()> = OnceLock::new();
    STARTED.get_or_init(|| match Signals::new([SIGINT, SIGTERM, SIGHUP, SIGUSR1]) {
        Ok(mut signals) => {
            let spawned = std::thread::Builder::new()
                .name("iomark-signals".into())
                .spawn(move || signals.forever().for_each(on_signal));
            if let Err(e) = spawned {
                eprintln!("iomark: warning: cannot watch for signals: {e}");
            }
        }
        Err(e) => eprintln!("iomark: warning: cannot install the signal handlers: {e}"),
    });
}

/// Wake a thread blocked in `wait_report_request` (a wake-up before it waits is kept).
pub fn wake_reporter() {
    let s = state();
    lock(&s.wake).1 = true;
    s.woken.notify_all();
}

/// Block up to `timeout` (or until `wake_reporter`/SIGUSR1); true when SIGUSR1 asked for an
/// interim report since the last call.
pub fn wait_report_request(timeout: Duration) -> bool {
    let s = state();
    let mut w = lock(&s.wake);
    if !w.0 && !w.1 {
        w = s
            .woken
            .wait_timeout(w, timeout)
            .unwrap_or_else(|p| p.into_inner())
            .0;
    }
    w.1 = false;
    std::mem::take(&mut w.0)
}

/// Whether a stopping signal arrived.
pub fn interrupted() -> bool {
    state().count.load(Ordering::SeqCst) > 0
}

/// Register a temporary file (or a work directory the run made) to remove if the process must
/// exit at once.
pub fn register_temp(path: &Path) {
    *lock(&state().temp) = Some(path.to_path_buf());
}

pub fn clear_temp() {
    *lock(&state().temp) = None;
}

/// Wait `d` (a pause between runs) unless a stopping signal comes first; false when one did
/// (also one that came before). The handlers are installed, so the first signal ends the pause
/// rather than being left for the next run.
pub fn pause(d: Duration) -> bool {
    install(Arc::new(AtomicBool::new(false)));
    let end = std::time::Instant::now() + d;
    loop {
        if interrupted() {
            return false;
        }
        let now = std::time::Instant::now();
        if now >= end {
            return true;
        }
        std::thread::sleep((end - now).min(Duration::from_millis(100)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One test: the two steps share the process's state.
    #[test]
    fn wakes_are_kept_and_report_requests_seen_once() {
        wake_reporter();
        let t = std::time::Instant::now();
        assert!(!wait_report_request(Duration::from_secs(30)));
        assert!(t.elapsed() < Duration::from_secs(30));
        lock(&state().wake).0 = true;
        assert!(wait_report_request(Duration::from_secs(30)));
        wake_reporter();
        assert!(!wait_report_request(Duration::from_secs(30)));
    }
}
