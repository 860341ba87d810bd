//! The exit status of every command, in one place: 0 when it did what was asked, 1 when the run
//! failed (a job errored, a check or an expected figure was not met, an output could not be
//! written), 2 for bad input (found before any I/O), 130 when a signal interrupted it (the
//! result file is still written, marked interrupted). A second signal ends the process at
//! once, with 130 too.

/// Done as asked.
pub const OK: i32 = 0;
/// The run failed: a job errored, a check or an expected figure was missed, an output could
/// not be written.
pub const FAILED: i32 = 1;
/// Bad input: an unknown option, a value out of range, a target or output refused before any
/// I/O.
pub const BAD_INPUT: i32 = 2;
/// Interrupted by SIGINT, SIGTERM or SIGHUP (128 + SIGINT, as a shell reports it).
pub const INTERRUPTED: i32 = 130;

/// The status of a command that ran: interrupted wins over failed.
pub fn of_run(failed: bool) -> i32 {
    of(super::signals::interrupted(), failed)
}

/// The status for a run `interrupted` or `failed`.
pub fn of(interrupted: bool, failed: bool) -> i32 {
    if interrupted {
        INTERRUPTED
    } else if failed {
        FAILED
    } else {
        OK
    }
}

/// The text of the policy for the manual pages (roff).
pub const MANUAL: &str = "0 on success; 1 when the run failed (a job errored, a check, a \\fB\\-\\-fail\\-if\\fR rule or an expected figure was not met, an output could not be written); 2 for invalid input or usage (found before any I/O); 130 when interrupted by a signal (the result file is still written and marked interrupted; a second signal ends the run at once).";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interrupted_wins_over_failed() {
        assert_eq!(of(false, false), OK);
        assert_eq!(of(false, true), FAILED);
        assert_eq!(of(true, true), INTERRUPTED);
        assert_eq!(of(true, false), INTERRUPTED);
    }
}
