//! What a worker that shows its requests in flight and its latencies as it goes publishes beside
//! its counters (rados bench's per-second table: ops started and finished, the last and the
//! average latency): written by the worker at each completion batch, read by the progress
//! source's observers.

use std::sync::atomic::{AtomicU64, Ordering};

/// Requests started, and the latencies of those finished, so far.
#[derive(Debug, Default)]
pub struct Flight {
    /// When the measured phase started (`sys::now_ns`; 0: not yet).
    start_ns: AtomicU64,
    started: AtomicU64,
    finished: AtomicU64,
    lat_sum_ns: AtomicU64,
    /// The latency of the last request finished (0: none yet).
    last_lat_ns: AtomicU64,
}

/// One reading of a [`Flight`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FlightNow {
    /// Seconds since the start at the reading's `now_ns`.
    pub elapsed: f64,
    pub started: u64,
    pub finished: u64,
    /// The last request's latency in seconds (None before the first finished).
    pub last_lat: Option<f64>,
    /// The mean latency of the requests finished, in seconds (0 before the first).
    pub avg_lat: f64,
}

impl Flight {
    pub(crate) fn start(&self, now_ns: u64) {
        self.start_ns.store(now_ns.max(1), Ordering::Release);
    }

    pub(crate) fn started(&self, n: u64) {
        self.started.store(n, Ordering::Relaxed);
    }

    /// A batch of completions: `finished` in all, `lat_sum_ns` their latencies' sum, `last_ns`
    /// the last one's latency.
    pub(crate) fn finished(&self, finished: u64, lat_sum_ns: u64, last_ns: u64) {
        self.lat_sum_ns.store(lat_sum_ns, Ordering::Relaxed);
        self.last_lat_ns.store(last_ns.max(1), Ordering::Relaxed);
        self.finished.store(finished, Ordering::Release);
    }

    /// The figures at `now_ns` (the progress sample's clock), once the phase has started.
    pub fn read(&self, now_ns: u64) -> Option<FlightNow> {
        let start = self.start_ns.load(Ordering::Acquire);
        if start == 0 {
            return None;
        }
        let finished = self.finished.load(Ordering::Acquire);
        let sum = self.lat_sum_ns.load(Ordering::Relaxed);
        let last = self.last_lat_ns.load(Ordering::Relaxed);
        Some(FlightNow {
            elapsed: now_ns.saturating_sub(start) as f64 / 1e9,
            started: self.started.load(Ordering::Relaxed).max(finished),
            finished,
            last_lat: (finished > 0 && last > 0).then(|| last as f64 / 1e9),
            avg_lat: if finished > 0 {
                sum as f64 / 1e9 / finished as f64
            } else {
                0.0
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_after_start_and_completions() {
        let f = Flight::default();
        assert_eq!(f.read(5), None);
        f.start(1_000_000_000);
        let r = f.read(1_500_000_000).unwrap();
        assert_eq!(
            (r.started, r.finished, r.last_lat, r.avg_lat),
            (0, 0, None, 0.0)
        );
        assert_eq!(r.elapsed, 0.5);
        f.started(4);
        f.finished(2, 3_000_000, 2_000_000);
        let r = f.read(2_000_000_000).unwrap();
        assert_eq!((r.started, r.finished), (4, 2));
        assert_eq!(r.last_lat, Some(0.002));
        assert!((r.avg_lat - 0.0015).abs() < 1e-12);
    }
}
