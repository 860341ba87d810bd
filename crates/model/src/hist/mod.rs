//! Latency histograms and running statistics.
//!
//! [`Histogram`] is a log-linear histogram of nanosecond values with the same bucket layout as
//! fio's latency histograms (64 sub-buckets per power of two, bucket midpoints as reported
//! values), extended with more groups so that values up to about 36 minutes keep the full
//! precision. [`LatStat`] keeps exact running sums of latencies, [`SampleStat`] a Welford
//! mean/variance of interval samples, and [`LatencyBuckets`] the coarse `lat (usec): 250=x%`
//! distribution.

mod buckets;
mod histogram;
mod percentile;
mod serial;
mod stats;
#[cfg(test)]
mod tests;

pub use buckets::{LatencyBuckets, LAT_MS_THRESHOLDS, LAT_THRESHOLDS};
pub use histogram::Histogram;
#[cfg(test)]
use stats::mul_u128_wide;
pub use stats::{LatStat, SampleStat};

/// Bits of sub-bucket resolution per group (64 sub-buckets).
pub const HIST_BITS: u32 = 6;
/// Sub-buckets per group.
pub const HIST_GROUP_BUCKETS: usize = 1 << HIST_BITS;
/// Number of groups kept by [`Histogram`]; the top group starts at 2^40 ns (about 18 minutes)
/// and ends at 2^41 ns (about 36.6 minutes). Larger values land in the last bucket.
pub const HIST_GROUPS: usize = 36;
/// Number of buckets kept by [`Histogram`].
pub const HIST_BUCKETS: usize = HIST_GROUPS * HIST_GROUP_BUCKETS;
/// Number of groups in fio's histogram (top group 2^33..2^34 ns, about 8.6..17.2 s).
pub const FIO_HIST_GROUPS: usize = 29;
/// Number of buckets in fio's histogram (the field count of its histogram log lines).
pub const FIO_HIST_BUCKETS: usize = FIO_HIST_GROUPS * HIST_GROUP_BUCKETS;

/// Largest group count accepted when deserializing (a u64 has at most 58 meaningful groups).
const MAX_SERIAL_GROUPS: u32 = 64 - HIST_BITS;
