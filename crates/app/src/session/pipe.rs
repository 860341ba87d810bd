//! Output to a reader that may stop early (`iomark --help | head -3`). Rust ignores SIGPIPE,
//! so a write to a closed pipe fails and `print!` panics; iomark restores the default instead:
//! a run whose reader went away ends quietly as killed by SIGPIPE (status 141 in a shell), as
//! `cat` does. Help, version and the manual page end with status 0 on a closed pipe.
//!
//! Any other write error on standard output (a full disk, `> /dev/full`) ends the command with
//! a message and status 1, wherever it happens: `print!` panics on it, and the panic hook
//! installed here turns that panic into the message and the status; what is still buffered at
//! the end is flushed and checked the same way.

use std::io::Write;

/// Let SIGPIPE end the process quietly (called first thing in main).
pub fn default_sigpipe() {
    // SAFETY: resetting a signal's disposition to its default; no handler runs.
    unsafe { libc::signal(libc::SIGPIPE, libc::SIG_DFL) };
}

/// The message for a write error on standard output.
fn stdout_failed(e: &dyn std::fmt::Display) -> String {
    format!("iomark: cannot write to standard output: {e}")
}

/// The panic `print!` raises on a write error, as the error's words (None for other panics).
fn print_failure(info: &std::panic::PanicHookInfo<'_>) -> Option<String> {
    let p = info.payload();
    let msg = p
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| p.downcast_ref::<&str>().copied())?;
    msg.strip_prefix("failed printing to stdout: ")
        .map(str::to_string)
}

/// Make a write error on standard output end the process with a message and status 1
/// instead of a panic (status 101); other panics are reported as before.
pub fn exit_on_stdout_errors() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| match print_failure(info) {
        Some(e) => {
            eprintln!("{}", stdout_failed(&e));
            std::process::exit(1);
        }
        None => previous(info),
    }));
}

/// Flush what is still buffered for standard output at the end of a command: a write error
/// turns status 0 into 1 (after saying so); a closed pipe is not an error.
pub fn finish_stdout(code: i32) -> i32 {
    match std::io::stdout().lock().flush() {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            eprintln!("{}", stdout_failed(&e));
            if code == 0 {
                1
            } else {
                code
            }
        }
        _ => code,
    }
}

/// Print a text the reader may stop reading early; a closed pipe ends it quietly, status 0;
/// another write error (a full disk) is said, status 1.
pub fn print_text(text: &str) -> i32 {
    // SAFETY: ignoring SIGPIPE so a closed pipe becomes an EPIPE error that is dropped below.
    unsafe { libc::signal(libc::SIGPIPE, libc::SIG_IGN) };
    let mut out = std::io::stdout().lock();
    let mut res = out.write_all(text.as_bytes());
    if res.is_ok() && !text.ends_with('\n') {
        res = out.write_all(b"\n");
    }
    let res = res.and_then(|()| out.flush());
    match res {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            eprintln!("{}", stdout_failed(&e));
            1
        }
        _ => 0,
    }
}
