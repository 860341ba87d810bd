//! Steady-state detection: once a second the job's IOPS and bandwidth over the last second are
//! added to a window of `duration` samples; when the window is full, the job ends as soon as
//! the chosen measure is steady: the largest deviation from the window's mean (or the slope of
//! the least-squares line through the window) is below the limit, given in the measure's own
//! unit or as a percentage of the mean.

use serde::{Deserialize, Serialize};
use std::time::Duration;

/// Which measure is judged.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SteadyMetric {
    Iops,
    /// Bytes per second.
    Bw,
}

/// How a job detects its steady state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SteadySpec {
    pub metric: SteadyMetric,
    /// Judge the slope (else the largest deviation from the mean).
    pub slope: bool,
    /// `limit` is a percentage of the window's mean.
    pub percent: bool,
    pub limit: f64,
    /// Samples in the window (one per second).
    pub duration_s: u32,
    /// Samples are taken from one second after this time since the job started.
    pub ramp: Duration,
}

/// What the detection found.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SteadyResult {
    pub attained: bool,
    /// The last value judged (a percentage when the limit is one).
    pub criterion: f64,
    /// The last largest deviation from the mean (deviation judged), else 0.
    pub max_deviation: f64,
    /// The last slope (slope judged), else 0.
    pub slope: f64,
    /// The window, oldest first, padded with zeros while it is not full.
    pub iops: Vec<u64>,
    pub bw: Vec<u64>,
}

impl SteadyResult {
    pub fn iops_mean(&self) -> u64 {
        mean_u64(&self.iops)
    }
    pub fn bw_mean(&self) -> u64 {
        mean_u64(&self.bw)
    }
}

fn mean_u64(v: &[u64]) -> u64 {
    if v.is_empty() {
        0
    } else {
        v.iter().sum::<u64>() / v.len() as u64
    }
}
