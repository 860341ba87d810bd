//! Results of one run made by many processes at once (MPI ranks, or hosts whose result files are
//! merged afterwards): each rank's whole result, named by rank and host, so that a merge can add
//! histograms exactly and name the slowest ranks.

use crate::result::RunResult;
use serde::{Deserialize, Serialize};

/// One rank's (one host's) whole result, as gathered by rank 0 or read from its result file.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RankResult {
    /// The rank in the launch (0-based); the file's position when merged from files.
    pub rank: usize,
    /// The host the rank ran on.
    pub host: String,
    pub result: RunResult,
}
