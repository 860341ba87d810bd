//! rbd bench's output: the header, one `SEC OPS OPS/SEC BYTES/SEC` line per second where
//! OPS/SEC and BYTES/SEC are rates over a rolling window of the last 5 samples, and the
//! `elapsed: ops: ops/sec: bytes/sec:` summary. Numbers print as Ceph 16's `rbd bench` prints
//! them: rates of operations as a C++ stream prints a double, rates of bytes in binary units
//! (`71 MiB/s`).

use crate::ceph_text::{byte_u, g};

/// The number of samples the rolling window spans.
pub const WINDOW: usize = 5;

/// A sample taken once a second: seconds since the start, and the operations and bytes done
/// so far (cumulative).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    pub t: f64,
    pub ops: u64,
    pub bytes: u64,
}

/// One per-second line.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Line {
    pub sec: u64,
    pub ops: u64,
    pub ops_per_sec: f64,
    pub bytes_per_sec: f64,
}

/// The per-second lines of `samples` (in time order): the rates are the difference between the
/// newest sample and the oldest of the last [`WINDOW`] (the start counting as a sample at 0),
/// over the time between them.
pub fn lines(samples: &[Sample]) -> Vec<Line> {
    let mut all = vec![Sample {
        t: 0.0,
        ops: 0,
        bytes: 0,
    }];
    all.extend_from_slice(samples);
    (1..all.len())
        .map(|i| {
            let now = all[i];
            let old = all[i.saturating_sub(WINDOW)];
            let dt = now.t - old.t;
            let rate = |a: u64, b: u64| if dt > 0.0 { (a - b) as f64 / dt } else { 0.0 };
            Line {
                sec: i as u64,
                ops: now.ops,
                ops_per_sec: rate(now.ops, old.ops),
                bytes_per_sec: rate(now.bytes, old.bytes),
            }
        })
        .collect()
}

/// The header line, as rbd bench prints it.
pub fn header(io_type: &str, io_size: u64, threads: u32, total: u64, pattern: &str) -> String {
    format!(
        "bench  type {io_type} io_size {io_size} io_threads {threads} bytes {total} pattern {pattern}\n  SEC       OPS   OPS/SEC   BYTES/SEC\n"
    )
}

/// A per-second line: fixed widths of 5, 10, 10 and 10 characters, no separator.
pub fn format_line(l: &Line) -> String {
    format!(
        "{:>5}{:>10}{:>10}{:>10}/s\n",
        l.sec,
        l.ops,
        g(l.ops_per_sec),
        byte_u(l.bytes_per_sec)
    )
}

/// The summary line: `elapsed:` whole seconds (truncated), total ops, and the rates over the
/// whole run; `prefix` is "" or "read_" / "write_" for the per-direction lines of a mix.
pub fn summary(prefix: &str, elapsed: f64, ops: u64, bytes: u64) -> String {
    let rate = |x: u64| {
        if elapsed > 0.0 {
            x as f64 / elapsed
        } else {
            0.0
        }
    };
    let head = if prefix.is_empty() {
        format!("elapsed: {}   ", elapsed as u64)
    } else {
        String::new()
    };
    format!(
        "{head}{prefix}ops: {ops}   {prefix}ops/sec: {}   {prefix}bytes/sec: {}/s\n",
        g(rate(ops)),
        byte_u(rate(bytes))
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A synthetic clock: one sample a second, 100 ops in each of the first 5 seconds, then
    /// 200 ops a second; 4 KiB each.
    fn clock() -> Vec<Sample> {
        let mut ops = 0;
        (1..=8)
            .map(|s| {
                ops += if s <= 5 { 100 } else { 200 };
                Sample {
                    t: s as f64,
                    ops,
                    bytes: ops * 4096,
                }
            })
            .collect()
    }

    #[test]
    fn rolling_window_of_five_samples() {
        let l = lines(&clock());
        assert_eq!(l.len(), 8);
        // Before the window fills, the rate runs from the start.
        assert_eq!((l[0].sec, l[0].ops, l[0].ops_per_sec), (1, 100, 100.0));
        assert_eq!(l[4].ops_per_sec, 100.0);
        // Second 6: (700 - 100) / (6 - 1) = 120; second 8: (1100 - 300) / (8 - 3) = 160.
        assert_eq!(l[5].ops_per_sec, 120.0);
        assert_eq!(l[7].ops, 1100);
        assert_eq!(l[7].ops_per_sec, 160.0);
        assert_eq!(l[7].bytes_per_sec, 160.0 * 4096.0);
        assert_eq!(
            format_line(&l[7]),
            "    8      1100       160   640 KiB/s\n"
        );
    }

    #[test]
    fn header_and_summary() {
        assert_eq!(
            header("write", 4096, 32, 10485760, "random"),
            "bench  type write io_size 4096 io_threads 32 bytes 10485760 pattern random\n  SEC       OPS   OPS/SEC   BYTES/SEC\n"
        );
        // As Ceph 16's rbd bench printed them on a test cluster.
        assert_eq!(
            summary("", 0.112, 2048, 2048 * 4096),
            "elapsed: 0   ops: 2048   ops/sec: 18285.7   bytes/sec: 71 MiB/s\n"
        );
        assert_eq!(
            summary("read_", 0.096, 524, 524 * 4096),
            "read_ops: 524   read_ops/sec: 5458.33   read_bytes/sec: 21 MiB/s\n"
        );
        assert_eq!(
            format_line(&Line {
                sec: 2,
                ops: 9923,
                ops_per_sec: 4971.94,
                bytes_per_sec: 4971.94 * 65536.0
            }),
            "    2      9923   4971.94   311 MiB/s\n"
        );
    }
}
