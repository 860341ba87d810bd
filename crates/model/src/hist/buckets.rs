//! fio's coarse latency distribution (`lat (usec): 250=x%`).

use serde::{Deserialize, Serialize};

use super::Histogram;

/// Upper bounds (exclusive) of the ns and µs buckets, in their unit.
pub const LAT_THRESHOLDS: [u64; 10] = [2, 4, 10, 20, 50, 100, 250, 500, 750, 1000];
/// Upper bounds (exclusive) of the first 11 ms buckets in ms; the 12th holds the rest.
pub const LAT_MS_THRESHOLDS: [u64; 11] = [2, 4, 10, 20, 50, 100, 250, 500, 750, 1000, 2000];

/// fio's coarse latency distribution: percentages of all values per bucket. A value falls in
/// the first bucket whose threshold it is strictly below (250 <= v < 500 µs is the bucket of
/// threshold 500 µs); values of 2000 ms and more are in the last ms bucket.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LatencyBuckets {
    pub ns: [f64; 10],
    pub us: [f64; 10],
    pub ms: [f64; 12],
}

/// Position of a value (ns) in the concatenation ns[0..10], us[0..10], ms[0..12].
fn lat_bucket_slot(v: u64) -> usize {
    fn first_below(x: u64, th: &[u64]) -> Option<usize> {
        th.iter().position(|&t| x < t)
    }
    if v < 1000 {
        first_below(v, &LAT_THRESHOLDS).unwrap_or(9)
    } else if v < 1_000_000 {
        10 + first_below(v / 1000, &LAT_THRESHOLDS).unwrap_or(9)
    } else {
        20 + first_below(v / 1_000_000, &LAT_MS_THRESHOLDS).unwrap_or(11)
    }
}

impl LatencyBuckets {
    /// Distribution of every value recorded in `hists` (all directions together, as fio does),
    /// each bucket classified by its midpoint value. All zeros when nothing was recorded.
    pub fn from_hists(hists: &[&Histogram]) -> LatencyBuckets {
        let mut counts = [0u64; 32];
        let mut total = 0u64;
        for h in hists {
            for (idx, &c) in h.counts.iter().enumerate() {
                if c != 0 {
                    let slot = lat_bucket_slot(Histogram::bucket_value(idx));
                    counts[slot] = counts[slot].saturating_add(c);
                    total = total.saturating_add(c);
                }
            }
        }
        let mut out = LatencyBuckets::default();
        if total == 0 {
            return out;
        }
        let pct = |c: u64| c as f64 * 100.0 / total as f64;
        for i in 0..10 {
            out.ns[i] = pct(counts[i]);
            out.us[i] = pct(counts[10 + i]);
        }
        for i in 0..12 {
            out.ms[i] = pct(counts[20 + i]);
        }
        out
    }
}
