//! fio's terse output, version 3 (`--minimal`): one `;`-separated line per report unit.

use super::fmt::{depth_dist, f6};
use super::group::{self, Report, ReportUnit};
use iomark_engine::hist::{Histogram, LatencyBuckets};
use iomark_engine::job::Dir;
use iomark_engine::result::LatRecord;
use iomark_engine::RunResult;

const TERSE_PERCENTILES: usize = 20;

fn lat_fields(f: &mut Vec<String>, rec: &LatRecord) {
    let st = &rec.stat;
    f.push((st.min_or_zero() / 1000).to_string());
    f.push((st.max / 1000).to_string());
    f.push(f6(st.mean() / 1000.0));
    f.push(f6(st.stddev() / 1000.0));
}

fn dir_fields(f: &mut Vec<String>, report: &Report, u: &ReportUnit, d: Dir) {
    let r = &u.dirs[d];
    f.push((r.io_bytes / 1024).to_string());
    f.push((u.bw_bytes(d) / 1024).to_string());
    f.push((u.iops(d).round() as u64).to_string());
    f.push(r.runtime_ms.to_string());
    lat_fields(f, &r.slat);
    lat_fields(f, &r.clat);
    let list = &u.spec.stats.percentile_list;
    let vals: Vec<(f64, u64)> = if u.spec.stats.clat_percentiles {
        if r.clat.stat.n > 0 {
            r.clat.hist.percentiles(list)
        } else {
            list.iter().map(|&p| (p, 0)).collect()
        }
    } else {
        Vec::new()
    };
    for i in 0..TERSE_PERCENTILES {
        match vals.get(i) {
            Some((p, v)) => f.push(format!("{}%={}", f6(*p), v / 1000)),
            None => f.push("0%=0".into()),
        }
    }
    lat_fields(f, &r.lat);
    let b = &r.bw_samples;
    let (min, max, mean) = if b.n > 0 {
        (b.min as u64, b.max as u64, b.mean)
    } else {
        (0, 0, 0.0)
    };
    f.push(min.to_string());
    f.push(max.to_string());
    f.push(format!("{}%", f6(report.bw_agg_pct(u, d))));
    f.push(f6(mean));
    f.push(f6(b.stddev()));
}

fn unit_line(result: &RunResult, report: &Report, u: &ReportUnit) -> String {
    let mut f: Vec<String> = vec![
        "3".into(),
        format!("iomark-{}", iomark_engine::VERSION),
        u.name.clone(),
        u.group_id.to_string(),
        u.error.to_string(),
    ];
    dir_fields(&mut f, report, u, Dir::Read);
    dir_fields(&mut f, report, u, Dir::Write);
    let (usr, sys) = u.cpu_pct();
    f.push(format!("{}%", f6(usr)));
    f.push(format!("{}%", f6(sys)));
    f.push(u.cpu.ctx.to_string());
    f.push(u.cpu.majf.to_string());
    f.push(u.cpu.minf.to_string());
    for v in depth_dist(&u.depth.level, u.depth.level.iter().sum()) {
        f.push(format!("{v:.1}%"));
    }
    let hists: Vec<&Histogram> = Dir::ALL.iter().map(|&d| &u.dirs[d].clat.hist).collect();
    let lb = LatencyBuckets::from_hists(&hists);
    for v in lb.us.iter().chain(lb.ms.iter()) {
        f.push(format!("{v:.2}%"));
    }
    for d in &result.disk_util {
        f.push(d.name.clone());
        f.push(d.read_ios.to_string());
        f.push(d.write_ios.to_string());
        f.push(d.read_merges.to_string());
        f.push(d.write_merges.to_string());
        f.push(d.read_ticks.to_string());
        f.push(d.write_ticks.to_string());
        f.push(d.in_queue.to_string());
        f.push(format!("{:.2}%", d.util));
    }
    if u.spec.continue_on_error != iomark_engine::job::ContinueOnError::None {
        f.push(u.total_err.to_string());
        f.push(u.first_error.to_string());
    }
    if let Some(desc) = &u.spec.description {
        f.push(desc.clone());
    }
    f.join(";")
}

/// Render a run as terse v3 lines.
pub fn render(result: &RunResult) -> String {
    let report = group::build(result);
    let mut out = String::new();
    for u in &report.units {
        out.push_str(&unit_line(result, &report, u));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::group::tests as fx;

    #[test]
    fn field_count_and_positions_match_fio_v3() {
        let r = fx::randrw_libaio();
        let line = render(&r);
        let ours: Vec<&str> = line.trim_end().split(';').collect();
        let sample = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../../shared/reference/fio-3.33-output/fio-terse-v3.txt"
        ))
        .expect("the fio reference output beside the repository");
        let theirs: Vec<&str> = sample.trim().split(';').collect();
        assert_eq!(ours.len(), theirs.len(), "{line}");
        assert_eq!(ours[0], "3");
        // percentile entries sit at the same positions
        for i in [16, 17, 32, 33] {
            assert_eq!(
                ours[i].contains("%="),
                theirs[i].contains("%="),
                "field {i}"
            );
        }
        for i in [43, 84] {
            assert!(
                ours[i].ends_with('%') && theirs[i].ends_with('%'),
                "field {i}"
            );
        }
        assert_eq!(ours[121], "vda");
    }
}
