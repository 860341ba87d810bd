//! Output to a reader that may stop early (`iomark --help | head -3`). Rust ignores SIGPIPE,
//! so a write to a closed pipe fails and `print!` panics; iomark restores the default instead:
//! a run whose reader went away ends quietly as killed by SIGPIPE (status 141 in a shell), as
//! `cat` does. Help, version and the manual page end with status 0.

use std::io::Write;

/// Let SIGPIPE end the process quietly (called first thing in main).
pub fn default_sigpipe() {
    // SAFETY: resetting a signal's disposition to its default; no handler runs.
    unsafe { libc::signal(libc::SIGPIPE, libc::SIG_DFL) };
}

/// Print a text the reader may stop reading early; a closed pipe ends it quietly, status 0.
pub fn print_text(text: &str) -> i32 {
    // SAFETY: ignoring SIGPIPE so a closed pipe becomes an EPIPE error that is dropped below.
    unsafe { libc::signal(libc::SIGPIPE, libc::SIG_IGN) };
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes());
    if !text.ends_with('\n') {
        let _ = out.write_all(b"\n");
    }
    let _ = out.flush();
    0
}
