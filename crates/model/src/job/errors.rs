//! Which failed I/Os a job counts and goes on after: errors fall in three classes (a failed
//! read, a failed write or trim, data that did not check out); each class either stops the job
//! or goes on after the error numbers it tolerates.

use super::Dir;
use serde::{Deserialize, Serialize};

/// The class of a failed I/O.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorClass {
    Read = 0,
    /// Writes, trims and flushes.
    Write = 1,
    /// Data that did not check out (EILSEQ, whatever the direction).
    Check = 2,
}

impl ErrorClass {
    /// The class of error `errno` on an I/O of direction `dir`.
    pub fn of(dir: Dir, errno: i32) -> ErrorClass {
        if errno == libc::EILSEQ {
            ErrorClass::Check
        } else if dir == Dir::Read {
            ErrorClass::Read
        } else {
            ErrorClass::Write
        }
    }
}

/// The error numbers a class that goes on tolerates unless told otherwise: I/O errors and
/// data-integrity errors.
pub const DEFAULT_TOLERATED: [i32; 2] = [libc::EIO, libc::EILSEQ];

/// What a job does with failed I/Os.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorPolicy {
    /// Per class (read, write, check): whether the job goes on after a tolerated error.
    pub go_on: [bool; 3],
    /// Per class: the error numbers tolerated; `None` is `DEFAULT_TOLERATED`.
    pub codes: [Option<Vec<i32>>; 3],
    /// Report every failed I/O as it happens, tolerated ones too.
    pub report_each: bool,
}

impl Default for ErrorPolicy {
    /// Every error stops the job.
    fn default() -> Self {
        ErrorPolicy {
            go_on: [false; 3],
            codes: [None, None, None],
            report_each: false,
        }
    }
}

impl ErrorPolicy {
    /// Whether the job goes on after `errno` in `class`.
    pub fn tolerates(&self, class: ErrorClass, errno: i32) -> bool {
        let c = class as usize;
        self.go_on[c]
            && match &self.codes[c] {
                Some(list) => list.contains(&errno),
                None => DEFAULT_TOLERATED.contains(&errno),
            }
    }

    /// Whether any class goes on after errors (error counts are then reported).
    pub fn goes_on(&self) -> bool {
        self.go_on.iter().any(|&b| b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_follow_direction_and_data_errors() {
        assert_eq!(ErrorClass::of(Dir::Read, libc::EIO), ErrorClass::Read);
        assert_eq!(ErrorClass::of(Dir::Write, libc::EIO), ErrorClass::Write);
        assert_eq!(ErrorClass::of(Dir::Trim, libc::ENOSPC), ErrorClass::Write);
        assert_eq!(ErrorClass::of(Dir::Read, libc::EILSEQ), ErrorClass::Check);
        assert_eq!(ErrorClass::of(Dir::Write, libc::EILSEQ), ErrorClass::Check);
    }

    #[test]
    fn going_on_tolerates_only_the_listed_errors() {
        let mut p = ErrorPolicy::default();
        assert!(!p.tolerates(ErrorClass::Read, libc::EIO));
        assert!(!p.goes_on());
        p.go_on[0] = true;
        assert!(p.goes_on());
        // The default list: EIO and EILSEQ only.
        assert!(p.tolerates(ErrorClass::Read, libc::EIO));
        assert!(p.tolerates(ErrorClass::Read, libc::EILSEQ));
        assert!(!p.tolerates(ErrorClass::Read, libc::ENOSPC));
        assert!(!p.tolerates(ErrorClass::Write, libc::EIO));
        // A list replaces the default, EIO included.
        p.codes[0] = Some(vec![libc::ENOSPC]);
        assert!(p.tolerates(ErrorClass::Read, libc::ENOSPC));
        assert!(!p.tolerates(ErrorClass::Read, libc::EIO));
    }
}
