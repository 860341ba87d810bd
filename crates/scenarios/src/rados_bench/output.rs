//! rados bench's output: the table's header and lines (fixed widths), and the summary. Numbers
//! print as C++ streams print a double by default (6 significant digits, exponent when very
//! small or large); MB means MiB.

use iomark_engine::rados_bench::{BenchResult, Mode, Tick};

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

/// The summary after the table.
pub fn summary(mode: Mode, r: &BenchResult) -> String {
    let bw = if r.elapsed > 0.0 {
        r.ops as f64 * r.op_size as f64 / MB / r.elapsed
    } else {
        0.0
    };
    let iops: Vec<f64> = r.per_sec.iter().map(|&n| n as f64).collect();
    let bws: Vec<f64> = iops.iter().map(|n| n * r.op_size as f64 / MB).collect();
    let (_, iops_sd, iops_max, iops_min) = stats(&iops);
    let (_, bw_sd, bw_max, bw_min) = stats(&bws);
    let (lat_avg, lat_sd, lat_max, lat_min) = stats(&r.lats);
    let avg_iops = if r.elapsed > 0.0 {
        (r.ops as f64 / r.elapsed) as u64
    } else {
        0
    };
    let mut s = String::new();
    if mode == Mode::Write {
        let rows = [
            ("Total time run:", g(r.elapsed)),
            ("Total writes made:", r.ops.to_string()),
            ("Write size:", r.op_size.to_string()),
            ("Object size:", r.object_size.to_string()),
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
            ("Total time run:", g(r.elapsed)),
            ("Total reads made:", r.ops.to_string()),
            ("Read size:", r.op_size.to_string()),
            ("Object size:", r.object_size.to_string()),
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

/// Latency percentiles (for stderr).
pub fn percentiles(lats: &[f64]) -> String {
    let mut v = lats.to_vec();
    v.sort_by(f64::total_cmp);
    let p = |q: f64| {
        if v.is_empty() {
            0.0
        } else {
            v[((q / 100.0 * v.len() as f64).ceil() as usize).clamp(1, v.len()) - 1] * 1e6
        }
    };
    format!(
        "latency (µs): p50 {:.1}  p90 {:.1}  p99 {:.1}  p99.9 {:.1}  max {:.1}\n",
        p(50.0),
        p(90.0),
        p(99.0),
        p(99.9),
        p(100.0)
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
}
