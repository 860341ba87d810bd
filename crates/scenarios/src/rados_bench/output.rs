//! rados bench's output: the table's header and lines (fixed widths), and the summary. Numbers
//! print as C++ streams print a double by default (6 significant digits, exponent when very
//! small or large); MB means MiB.

use iomark_engine::job::Dir;
use iomark_engine::rados_bench::Mode;
use iomark_engine::result::{JobResult, LatRecord};

const MB: f64 = 1024.0 * 1024.0;

pub use crate::ceph_text::g;

pub const HEADER: &str =
    "  sec Cur ops   started  finished  avg MB/s  cur MB/s last lat(s)  avg lat(s)\n";

/// The lines before the table.
pub fn preamble(mode: Mode, op_size: u64, threads: u32, seconds: u64, prefix: &str) -> String {
    let mut s = String::from("hints = 1\n");
    if mode == Mode::Write {
        s.push_str(&format!(
            "Maintaining {threads} concurrent writes of {op_size} bytes to objects of size {op_size} for up to {seconds} seconds or 0 objects\nObject prefix: {prefix}\n"
        ));
    }
    s
}

/// One second's figures.
#[derive(Clone, Copy, Debug, Default)]
pub struct Tick {
    pub sec: u64,
    pub in_flight: u64,
    pub started: u64,
    pub finished: u64,
    /// Seconds since the start.
    pub elapsed: f64,
    pub last_lat: Option<f64>,
    pub avg_lat: f64,
    pub op_size: u64,
}

/// One line of the table (`prev`: the previous second's finished count).
pub fn line(t: &Tick, prev_finished: u64) -> String {
    let avg = if t.elapsed > 0.0 {
        t.finished as f64 * t.op_size as f64 / MB / t.elapsed
    } else {
        0.0
    };
    let cur = (t.finished - prev_finished) as f64 * t.op_size as f64 / MB;
    let last = t.last_lat.map_or("-".to_string(), g);
    let mut s = if t.sec % 20 == 0 {
        HEADER.to_string()
    } else {
        String::new()
    };
    s.push_str(&format!(
        "{:>5} {:>7} {:>9} {:>9} {:>9} {:>9} {:>11} {:>11}\n",
        t.sec,
        t.in_flight,
        t.started,
        t.finished,
        g(avg),
        g(cur),
        last,
        g(t.avg_lat)
    ));
    s
}

fn stats(v: &[f64]) -> (f64, f64, f64, f64) {
    if v.is_empty() {
        return (0.0, 0.0, 0.0, 0.0);
    }
    let n = v.len() as f64;
    let mean = v.iter().sum::<f64>() / n;
    let var = if v.len() > 1 {
        v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0)
    } else {
        0.0
    };
    let max = v.iter().cloned().fold(f64::MIN, f64::max);
    let min = v.iter().cloned().fold(f64::MAX, f64::min);
    (mean, var.sqrt(), max, min)
}

/// The direction a run's figures are in.
fn dir(mode: Mode) -> Dir {
    if mode == Mode::Write {
        Dir::Write
    } else {
        Dir::Read
    }
}

/// The latency record of the run's job (`mode`'s direction).
pub fn latencies(mode: Mode, j: &JobResult) -> &LatRecord {
    &j.dirs[dir(mode)].lat
}

/// The summary after the table, from the run's job (`object_size`: the size of each request
/// and object).
pub fn summary(mode: Mode, j: &JobResult, object_size: u64) -> String {
    let elapsed = j.runtime_us as f64 / 1e6;
    let ops = j.dirs[dir(mode)].total_ios;
    let op_size = object_size;
    let bw = if elapsed > 0.0 {
        ops as f64 * op_size as f64 / MB / elapsed
    } else {
        0.0
    };
    let iops: Vec<f64> = j.series.iops.iter().map(|e| e.value as f64).collect();
    let bws: Vec<f64> = iops.iter().map(|n| n * op_size as f64 / MB).collect();
    let (_, iops_sd, iops_max, iops_min) = stats(&iops);
    let (_, bw_sd, bw_max, bw_min) = stats(&bws);
    let l = &latencies(mode, j).stat;
    let (lat_avg, lat_sd) = (l.mean() / 1e9, l.stddev() / 1e9);
    let (lat_max, lat_min) = if l.n == 0 {
        (0.0, 0.0)
    } else {
        (l.max as f64 / 1e9, l.min as f64 / 1e9)
    };
    let avg_iops = if elapsed > 0.0 {
        (ops as f64 / elapsed) as u64
    } else {
        0
    };
    let mut s = String::new();
    if mode == Mode::Write {
        let rows = [
            ("Total time run:", g(elapsed)),
            ("Total writes made:", ops.to_string()),
            ("Write size:", op_size.to_string()),
            ("Object size:", object_size.to_string()),
            ("Bandwidth (MB/sec):", g(bw)),
            ("Stddev Bandwidth:", g(bw_sd)),
            ("Max bandwidth (MB/sec):", g(bw_max)),
            ("Min bandwidth (MB/sec):", g(bw_min)),
            ("Average IOPS:", avg_iops.to_string()),
            ("Stddev IOPS:", g(iops_sd)),
            ("Max IOPS:", (iops_max as u64).to_string()),
            ("Min IOPS:", (iops_min as u64).to_string()),
            ("Average Latency(s):", g(lat_avg)),
            ("Stddev Latency(s):", g(lat_sd)),
            ("Max latency(s):", g(lat_max)),
            ("Min latency(s):", g(lat_min)),
        ];
        for (k, v) in rows {
            s.push_str(&format!("{k:<24}{v}\n"));
        }
    } else {
        let rows = [
            ("Total time run:", g(elapsed)),
            ("Total reads made:", ops.to_string()),
            ("Read size:", op_size.to_string()),
            ("Object size:", object_size.to_string()),
            ("Bandwidth (MB/sec):", g(bw)),
            ("Average IOPS:", avg_iops.to_string()),
            ("Stddev IOPS:", g(iops_sd)),
            ("Max IOPS:", (iops_max as u64).to_string()),
            ("Min IOPS:", (iops_min as u64).to_string()),
            ("Average Latency(s):", g(lat_avg)),
            ("Max latency(s):", g(lat_max)),
            ("Min latency(s):", g(lat_min)),
        ];
        for (k, v) in rows {
            s.push_str(&format!("{k:<22}{v}\n"));
        }
    }
    s
}

/// Latency percentiles (for stderr), from the latency record's histogram; the exact maximum.
pub fn percentiles(lat: &LatRecord) -> String {
    let us = |q: f64| lat.hist.percentile(q) as f64 / 1000.0;
    format!(
        "latency (µs): p50 {:.1}  p90 {:.1}  p99 {:.1}  p99.9 {:.1}  max {:.1}\n",
        us(50.0),
        us(90.0),
        us(99.0),
        us(99.9),
        lat.stat.max as f64 / 1000.0
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_as_rados_bench_prints_them() {
        let t = Tick {
            sec: 1,
            in_flight: 3,
            started: 5022,
            finished: 5019,
            elapsed: 1.0,
            last_lat: Some(0.000_432_298),
            avg_lat: 0.000_797_058,
            op_size: 65536,
        };
        assert_eq!(
            line(&t, 0),
            "    1       3      5022      5019   313.688   313.688 0.000432298 0.000797058\n"
        );
    }

    /// The summary reads the run's job: its runtime, I/Os, latency record and operations per
    /// second.
    #[test]
    fn summary_from_the_runs_job() {
        use iomark_engine::result::LogEntry;
        let mut lat = LatRecord::default();
        for ns in [1_000_000, 2_000_000, 3_000_000, 2_000_000] {
            lat.add(ns);
        }
        let mut j = JobResult {
            runtime_us: 2_000_000,
            runtime_ms: 2_000,
            ..Default::default()
        };
        j.set_measured(Dir::Write, 4 * 4096, 4, &lat);
        j.series.iops = [3, 1]
            .iter()
            .enumerate()
            .map(|(i, &n)| LogEntry {
                t_ms: (i as u64 + 1) * 1000,
                value: n,
                ..Default::default()
            })
            .collect();
        let s = summary(Mode::Write, &j, 4096);
        for want in [
            "Total time run:         2\n",
            "Total writes made:      4\n",
            "Write size:             4096\n",
            "Bandwidth (MB/sec):     0.0078125\n",
            "Max IOPS:               3\n",
            "Min IOPS:               1\n",
            "Stddev IOPS:            1.41421\n",
            "Average IOPS:           2\n",
            "Average Latency(s):     0.002\n",
            "Stddev Latency(s):      0.000816497\n",
            "Max latency(s):         0.003\n",
            "Min latency(s):         0.001\n",
        ] {
            assert!(s.contains(want), "{want:?} not in\n{s}");
        }
        // A read run's summary reads the read direction; nothing read: zeros, not garbage.
        let r = summary(Mode::Seq, &JobResult::default(), 8192);
        assert!(r.contains("Total reads made:     0\n"), "{r}");
        assert!(r.contains("Read size:            8192\n"), "{r}");
        assert!(r.contains("Min latency(s):       0\n"), "{r}");
        // Percentiles from the histogram (bucketed near 2 ms), the maximum exact.
        let p = percentiles(&lat);
        assert!(p.starts_with("latency (µs): p50 "), "{p}");
        assert!(p.ends_with("  max 3000.0\n"), "{p}");
        let p50: f64 = p["latency (µs): p50 ".len()..]
            .split(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert!((1900.0..=2100.0).contains(&p50), "{p}");
    }
}
