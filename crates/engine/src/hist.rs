//! Latency histograms and running statistics (stub API; implemented in full by the stats work).

use serde::{Deserialize, Serialize};

/// fio-compatible log-linear latency histogram in ns (64 sub-buckets per power of two).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Histogram {
    counts: Vec<u64>,
}

impl Histogram {
    pub fn new() -> Self {
        Self::default()
    }
    #[inline]
    pub fn record(&mut self, _ns: u64) {}
    pub fn merge(&mut self, _o: &Histogram) {}
    pub fn count(&self) -> u64 {
        0
    }
    pub fn percentile(&self, _p: f64) -> u64 {
        0
    }
    /// Non-zero buckets as (midpoint ns, count), ascending.
    pub fn bins(&self) -> Vec<(u64, u64)> {
        Vec::new()
    }
}

/// Running min/max/mean/stddev of latencies (ns), mergeable exactly.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LatStat {
    pub n: u64,
    pub min: u64,
    pub max: u64,
    pub sum: u128,
    pub sumsq: u128,
}

impl LatStat {
    #[inline]
    pub fn add(&mut self, _v: u64) {}
    pub fn merge(&mut self, _o: &LatStat) {}
    pub fn mean(&self) -> f64 {
        0.0
    }
    pub fn stddev(&self) -> f64 {
        0.0
    }
}

/// Interval samples (bw in KiB/s, IOPS), Welford mean/variance.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SampleStat {
    pub n: u64,
    pub min: f64,
    pub max: f64,
    pub mean: f64,
    pub m2: f64,
}

impl SampleStat {
    pub fn add(&mut self, _v: f64) {}
    /// fio's group "pure sum": min, max, mean and samples are added.
    pub fn sum_merge(&mut self, _o: &SampleStat) {}
    pub fn stddev(&self) -> f64 {
        0.0
    }
}
