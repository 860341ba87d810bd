//! The latency summary line the tools print after their own output: IOPS and completion-latency
//! percentiles of one direction, from the result model.

use iomark_engine::result::LatRecord;

/// The percentiles every tool prints.
pub const PERCENTILES: [f64; 3] = [50.0, 99.0, 99.9];

/// `12.3 us`, `4.56 ms`, `1.20 s`: three significant figures, the unit that fits.
pub fn fmt_ns(ns: u64) -> String {
    let (v, unit) = if ns < 1_000 {
        return format!("{ns} ns");
    } else if ns < 1_000_000 {
        (ns as f64 / 1e3, "us")
    } else if ns < 1_000_000_000 {
        (ns as f64 / 1e6, "ms")
    } else {
        (ns as f64 / 1e9, "s")
    };
    let digits = if v < 10.0 {
        2
    } else if v < 100.0 {
        1
    } else {
        0
    };
    format!("{v:.digits$} {unit}")
}

/// `p50 12.3 us, p99 45.6 us, p99.9 78.9 us, max 1.20 ms` (or `no I/O`).
pub fn percentiles(lat: &LatRecord) -> String {
    if lat.hist.count() == 0 {
        return "no I/O".to_string();
    }
    // A percentile is its histogram bucket's value: never above the exact maximum.
    let max = lat.stat.max_or_zero();
    let mut parts: Vec<String> = lat
        .hist
        .percentiles(&PERCENTILES)
        .into_iter()
        .map(|(p, v)| format!("p{p} {}", fmt_ns(v.min(max))))
        .collect();
    parts.push(format!("max {}", fmt_ns(max)));
    parts.join(", ")
}

/// I/Os per second over `runtime_ms` (0 when nothing was timed).
pub fn iops(ios: u64, runtime_ms: u64) -> f64 {
    if runtime_ms == 0 {
        0.0
    } else {
        ios as f64 * 1000.0 / runtime_ms as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_and_figures() {
        assert_eq!(fmt_ns(999), "999 ns");
        assert_eq!(fmt_ns(1_234), "1.23 us");
        assert_eq!(fmt_ns(45_600), "45.6 us");
        assert_eq!(fmt_ns(456_000), "456 us");
        assert_eq!(fmt_ns(1_200_000), "1.20 ms");
        assert_eq!(fmt_ns(2_500_000_000), "2.50 s");
    }

    #[test]
    fn percentile_line() {
        let mut r = LatRecord::default();
        assert_eq!(percentiles(&r), "no I/O");
        for _ in 0..100 {
            r.add(10_000);
        }
        let s = percentiles(&r);
        assert!(s.starts_with("p50 "), "{s}");
        assert!(s.contains("p99.9 "), "{s}");
        assert!(s.ends_with("p99.9 10.0 us, max 10.0 us"), "{s}");
        assert_eq!(iops(100, 0), 0.0);
        assert_eq!(iops(100, 500), 200.0);
    }
}
