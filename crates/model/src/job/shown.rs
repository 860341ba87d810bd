//! Options as the user wrote them, kept only to be shown again.

use serde::{Deserialize, Serialize};

/// Options as a front end read them (name, value as typed), in order: a record of its input
/// for the outputs that repeat it (fio's "job options", a report's facts, the result file).
/// Nothing reads a setting from it: what a job does is in its typed fields.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ShownOptions(Vec<(String, String)>);

impl ShownOptions {
    /// The pairs in the order they were written.
    pub fn pairs(&self) -> &[(String, String)] {
        &self.0
    }
}

impl From<Vec<(String, String)>> for ShownOptions {
    fn from(v: Vec<(String, String)>) -> ShownOptions {
        ShownOptions(v)
    }
}

impl std::ops::Deref for ShownOptions {
    type Target = [(String, String)];
    fn deref(&self) -> &[(String, String)] {
        &self.0
    }
}
