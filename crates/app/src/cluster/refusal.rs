//! Why a rank will not run the plan of a launch, with the exit status it ends with.

use crate::session::exit;

/// A rank's reason not to run the plan, with the exit status a run of one process gives it:
/// [`exit::BAD_INPUT`] for an output that would destroy something (the result file's check,
/// [`crate::session::ResultFile::check`]), [`exit::FAILED`] for the other checks. The verdict
/// of many refusals has the highest of their statuses, on every rank.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    pub code: i32,
    pub why: String,
}

impl Refusal {
    /// A check of the plan or its targets that failed (exit status 1).
    pub fn failed(why: impl Into<String>) -> Refusal {
        Refusal {
            code: exit::FAILED,
            why: why.into(),
        }
    }

    /// Bad input, such as a result file refused (exit status 2).
    pub fn bad_input(why: impl Into<String>) -> Refusal {
        Refusal {
            code: exit::BAD_INPUT,
            why: why.into(),
        }
    }
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.why)
    }
}
