//! The latency summary of one measured pass (mean, p50, p99, max), as the result file and the
//! tables show it: percentiles from the pass's histogram, never above its maximum; absent
//! when the pass kept no per-record latency (nothing asked for it, see `Timing::latency`).

use super::run::Measure;
use serde::Serialize;

/// A pass's latency in nanoseconds.
#[derive(Serialize)]
pub struct LatSummary {
    pub mean_ns: f64,
    pub p50_ns: u64,
    pub p99_ns: u64,
    pub max_ns: u64,
}

/// The summary of `m`'s latency, when it was recorded.
pub(super) fn summary(m: &Measure) -> Option<LatSummary> {
    if m.lat.stat.n == 0 {
        return None;
    }
    let max = m.lat.stat.max_or_zero();
    let p = m.lat.hist.percentiles(&[50.0, 99.0]);
    let get = |i: usize| p.get(i).map_or(0, |x| x.1.min(max));
    Some(LatSummary {
        mean_ns: m.lat.stat.mean(),
        p50_ns: get(0),
        p99_ns: get(1),
        max_ns: max,
    })
}
