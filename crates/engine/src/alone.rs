//! A thread with its own table of open files, for a pass or phase that a single-threaded tool
//! (iozone, bonnie++) runs in its one process. In a process of several threads the table is
//! shared, and for every read, write and lseek the kernel then takes a reference on the file
//! and its position lock, which a single-threaded process skips. Measured with a C loop of 16
//! `lseek` + 4 KiB `read` on a cached file, with one idle extra thread: 3.32 µs a loop in the
//! shared table, 3.23 µs in a table of its own, 3.16-3.20 µs single-threaded (with the calls
//! of [`crate::nocancel`] in both). A thread that unshares the table (unshare(CLONE_FILES))
//! pays what a single-threaded process pays. Where the kernel refuses (a sandbox), the work
//! runs anyway.

use std::thread;

/// Make the calling thread's table of open files its own (a copy of the process's); false
/// when the kernel refused. Files opened afterwards are this thread's alone: close them here.
pub(crate) fn private_files() -> bool {
    // SAFETY: unshare takes a flag set and touches only the calling thread's state.
    unsafe { libc::unshare(libc::CLONE_FILES) == 0 }
}

/// Run `f` in a new thread whose table of open files is private, and return what it returns
/// (a panic in `f` goes on in the caller).
pub(crate) fn in_own_thread<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    thread::scope(|s| {
        s.spawn(|| {
            private_files();
            f()
        })
        .join()
        .unwrap_or_else(|p| std::panic::resume_unwind(p))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The calling thread's table of open files has an entry for `path`.
    fn open_in_process(path: &std::path::Path) -> bool {
        std::fs::read_dir("/proc/thread-self/fd")
            .unwrap()
            .flatten()
            .any(|e| std::fs::read_link(e.path()).is_ok_and(|l| l == path))
    }

    /// A file opened (and left open) in the pass's thread is not in the process's table, and
    /// a file of the process is still open after the thread ended.
    #[test]
    fn files_opened_alone_stay_alone() {
        let dir = tempfile::tempdir().unwrap();
        let (inner, outer) = (dir.path().join("inner"), dir.path().join("outer"));
        std::fs::write(&inner, b"x").unwrap();
        let _outer = std::fs::File::create(&outer).unwrap();
        let unshared = in_own_thread(|| {
            let ok = private_files();
            std::mem::forget(std::fs::File::open(&inner).unwrap());
            assert!(
                open_in_process(&inner),
                "the thread does not see its own file"
            );
            ok
        });
        assert!(unshared, "unshare(CLONE_FILES) was refused");
        assert!(
            !open_in_process(&inner),
            "the thread's file is in the process's table"
        );
        assert!(open_in_process(&outer), "the process's file was closed");
    }
}
