//! How a job searches for the deepest queue that keeps latency within a target (the
//! engine's search itself is its own).

use serde::{Deserialize, Serialize};
use std::time::Duration;

/// How a job searches for the deepest queue that keeps latency within a target.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct DepthSearchSpec {
    /// Total latency an I/O should not exceed; zero: no search (the job runs at its depth).
    pub target: Duration,
    /// How long each depth runs before it is judged (zero: judged as often as the worker
    /// looks, after each round of submission and reaping).
    pub window: Duration,
    /// Share of a window's I/O, in percent, that must be within the target.
    pub percentile: f64,
    /// Keep adjusting the depth for the whole run instead of ending once settled.
    pub keep_adjusting: bool,
}

impl Default for DepthSearchSpec {
    fn default() -> Self {
        DepthSearchSpec {
            target: Duration::ZERO,
            window: Duration::ZERO,
            percentile: 100.0,
            keep_adjusting: false,
        }
    }
}

impl DepthSearchSpec {
    /// Whether the job searches at all.
    pub fn enabled(&self) -> bool {
        !self.target.is_zero()
    }
    /// Whether each I/O over the target lowers the depth at once (a share of 100%).
    pub fn every_io(&self) -> bool {
        self.percentile >= 100.0
    }
}
