//! iozone's arithmetic of a pass's time. At start iozone measures the resolution of the
//! microsecond clock it times with: ten times, two reads with an empty loop between them that
//! grows until the reads differ, and the smallest difference seen (about 1 µs). It subtracts
//! that resolution from every timed pass (and from a throughput test's parent time); a time
//! that comes out under a microsecond is replaced by the resolution itself. The rate is then
//! the bytes (or operations) over that time, so a cell's figure here is the figure iozone's
//! formula gives for the same elapsed time; the result file keeps the unadjusted time too.

use std::sync::OnceLock;

/// Microseconds since the epoch, as iozone reads its clock (gettimeofday: the real-time
/// clock in whole microseconds).
fn micros() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_micros() as i64)
}

/// iozone's measure of its clock's resolution, in microseconds: the smallest of ten nonzero
/// differences between two reads, the empty loop between them lengthened (and kept from one
/// try to the next) while the two reads agree. A read that goes back (the clock set) is tried
/// again.
fn measure_us() -> u64 {
    let mut best = u64::MAX;
    let mut delay = 0u64;
    // Warm the code and data up, as iozone does.
    std::hint::black_box((micros(), micros()));
    let mut found = 0;
    while found < 10 {
        let start = micros();
        for j in 0..delay {
            std::hint::black_box(j);
        }
        let finish = micros();
        if finish == start {
            delay += 1;
        } else if finish > start {
            best = best.min((finish - start) as u64);
            found += 1;
        }
    }
    best
}

/// The resolution (ns) this run subtracts from every pass, measured once per process.
pub fn resolution_ns() -> u64 {
    static RES: OnceLock<u64> = OnceLock::new();
    *RES.get_or_init(|| measure_us() * 1000)
}

/// A pass's time in seconds as iozone computes it: the elapsed time (ns) less the clock's
/// resolution (ns), or the resolution when that is under a microsecond. A resolution of 0
/// (a figure made without one, as a merged or test figure) leaves the time as it was, at
/// least 1 ns.
pub fn iozone_secs(elapsed_ns: u64, resolution_ns: u64) -> f64 {
    if resolution_ns == 0 {
        return elapsed_ns.max(1) as f64 / 1e9;
    }
    let res = resolution_ns as f64 / 1e9;
    let t = elapsed_ns as f64 / 1e9 - res;
    if t < 0.000001 {
        res
    } else {
        t
    }
}

/// Whether iozone's guard replaced the pass's time by the resolution (the time less the
/// resolution under a microsecond).
pub fn floored(elapsed_ns: u64, resolution_ns: u64) -> bool {
    resolution_ns > 0 && (elapsed_ns as f64 - resolution_ns as f64) / 1e9 < 0.000001
}

/// iozone's lines after "iozone test complete." when the guard replaced some pass's time:
/// `record` is the largest record size (bytes) of such a pass.
pub fn poor_resolution_lines(record: u64) -> String {
    format!(
        "Timer resolution is poor. Some small transfers may have \n\
         reported inaccurate results. Sizes {} kBytes and below.\n",
        record / 1024
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// iozone's formula worked by hand: rate = (bytes / (elapsed - time_res)) >> 10.
    #[test]
    fn a_small_pass_loses_the_resolution() {
        // 64 KiB in 5.3 µs with a 1 µs resolution: 65536 / 0.0000043 = 15,240,930,232 B/s,
        // >> 10 = 14,883,720 kB/s (unadjusted, 65536 / 0.0000053 >> 10 = 12,075,471).
        let s = iozone_secs(5_300, 1_000);
        assert!((s - 0.000_004_3).abs() < 1e-15, "{s}");
        assert_eq!((65_536.0 / s) as u64 >> 10, 14_883_720);
        assert_eq!((65_536.0 / iozone_secs(5_300, 0)) as u64 >> 10, 12_075_471);
        // 16 MiB in 5 ms: 16777216 / 0.004999 = 3,356,114,422 B/s → 3,277,455 kB/s.
        let s = iozone_secs(5_000_000, 1_000);
        assert_eq!((16_777_216.0 / s) as u64 >> 10, 3_277_455);
    }

    #[test]
    fn under_a_microsecond_the_time_is_the_resolution() {
        // 1.5 µs - 1 µs = 0.5 µs < 1 µs: iozone takes time_res (1 µs) instead.
        assert_eq!(iozone_secs(1_500, 1_000), 0.000_001);
        // Shorter than the resolution (negative once adjusted): the same.
        assert_eq!(iozone_secs(200, 1_000), 0.000_001);
        assert_eq!(iozone_secs(0, 2_000), 0.000_002);
        // Exactly 2 µs leaves 1 µs, which is not under a microsecond.
        assert!((iozone_secs(2_000, 1_000) - 0.000_001).abs() < 1e-15);
    }

    /// Every figure of the tables goes through the adjustment: kB/s, operations per second
    /// (`-O`) and microseconds per operation (`-N`), a child's rate and the parent's.
    #[test]
    fn the_tables_figures_use_it() {
        use crate::iozone::run::{Measure, Unit};
        let m = Measure {
            bytes: 65_536,
            ops: 16,
            timed_ns: 5_300,
            time_res_ns: 1_000,
            ..Default::default()
        };
        assert_eq!(m.value(Unit::KiBps), 14_883_720);
        // 16 / 0.0000043 = 3,720,930.2; 4.3 µs / 16 = 0.27 µs.
        assert_eq!(m.value(Unit::OpsPerSec), 3_720_930);
        assert_eq!(m.value(Unit::MicrosPerOp), 0);
        let f = crate::iozone::throughput::TpFigure {
            label: "readers",
            report: "Read",
            children: 2,
            per_child: vec![m.clone(), m],
            cut: vec![false; 2],
            writer: vec![false; 2],
            parent_ns: 6_300,
            start_spread_ns: 0,
            ranks: Vec::new(),
        };
        // Each child 65536 / 0.0000043 / 1024; the parent 131072 / 0.0000053 / 1024.
        let child = 65_536.0 / 0.000_004_3 / 1024.0;
        assert!((f.children_see(Unit::KiBps) - 2.0 * child).abs() < 1e-3);
        let parent = 131_072.0 / 0.000_005_3 / 1024.0;
        assert!((f.parent_sees(Unit::KiBps) - parent).abs() < 1e-3);
    }

    #[test]
    fn the_guard_is_said_as_iozone_says_it() {
        assert!(floored(1_500, 1_000) && floored(200, 1_000));
        assert!(!floored(2_000, 1_000) && !floored(1_500, 0));
        assert_eq!(
            poor_resolution_lines(4096),
            "Timer resolution is poor. Some small transfers may have \n\
             reported inaccurate results. Sizes 4 kBytes and below.\n"
        );
    }

    #[test]
    fn no_resolution_leaves_the_time() {
        assert_eq!(iozone_secs(3_000, 0), 0.000_003);
        assert_eq!(iozone_secs(0, 0), 1e-9);
    }

    #[test]
    fn the_measured_resolution_is_a_whole_number_of_microseconds() {
        let r = resolution_ns();
        assert!(r >= 1000 && r % 1000 == 0, "{r}");
        assert_eq!(resolution_ns(), r, "measured once");
    }
}
