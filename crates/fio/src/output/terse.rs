//! fio's terse output (`--minimal`): one `;`-separated line per report unit, in fio's versions
//! (checked against fio 3.33):
//! - 2: no fio-version field; read, write and trim blocks; no disk stats; the description on a
//!   line of its own;
//! - 3 (default): read and write blocks, then CPU, depths, latency buckets, disk stats;
//! - 4: as 3 with the trim block;
//! - 5: as 4, each direction followed by its bw sample count and IOPS min/max/mean/dev/samples.

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

fn dir_fields(f: &mut Vec<String>, report: &Report, u: &ReportUnit, d: Dir, version: u32) {
    let r = &u.job.dirs[d];
    f.push((r.io_bytes / 1024).to_string());
    f.push((u.bw_bytes(d) / 1024).to_string());
    f.push((u.iops(d).round() as u64).to_string());
    f.push(r.runtime_ms.to_string());
    lat_fields(f, &r.slat);
    lat_fields(f, &r.clat);
    let list = &u.spec.stats.percentile_list;
    // As fio: the total latency's percentiles with lat_percentiles=1, else completion's.
    let source = if u.spec.stats.lat_percentiles {
        Some(&r.lat)
    } else if u.spec.stats.clat_percentiles {
        Some(&r.clat)
    } else {
        None
    };
    let vals: Vec<(f64, u64)> = match source {
        Some(rec) if rec.stat.n > 0 => rec.hist.percentiles(list),
        Some(_) => list.iter().map(|&p| (p, 0)).collect(),
        None => Vec::new(),
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
    if version >= 5 {
        f.push(b.n.to_string());
        let i = &r.iops_samples;
        if i.n > 0 {
            f.push((i.min as u64).to_string());
            f.push((i.max as u64).to_string());
            f.push(f6(i.mean));
        } else {
            f.push("0".into());
            f.push("0".into());
            f.push(f6(0.0));
        }
        f.push(f6(i.stddev()));
        f.push(i.n.to_string());
    }
}

fn unit_line(result: &RunResult, report: &Report, u: &ReportUnit, version: u32) -> String {
    let mut f: Vec<String> = vec![version.to_string()];
    if version >= 3 {
        f.push(format!("iomark-{}", iomark_engine::VERSION));
    }
    f.push(u.job.name.clone());
    f.push(u.job.group_id.to_string());
    f.push(u.reported_error().to_string());
    // unified_rw_reporting=mixed: one block for all directions; =both: the mixed one after.
    dir_fields(&mut f, report, u, Dir::Read, version);
    if !u.mixed_only {
        dir_fields(&mut f, report, u, Dir::Write, version);
        if version != 3 {
            dir_fields(&mut f, report, u, Dir::Trim, version);
        }
    }
    if let Some(m) = u.mixed_block() {
        dir_fields(&mut f, report, &m, Dir::Read, version);
    }
    let (usr, sys) = u.cpu_pct();
    f.push(format!("{}%", f6(usr)));
    f.push(format!("{}%", f6(sys)));
    f.push(u.job.cpu.ctx.to_string());
    f.push(u.job.cpu.majf.to_string());
    f.push(u.job.cpu.minf.to_string());
    for v in depth_dist(&u.job.depth.level, u.job.depth.level.iter().sum()) {
        f.push(format!("{v:.1}%"));
    }
    let hists: Vec<&Histogram> = Dir::ALL.iter().map(|&d| &u.job.dirs[d].clat.hist).collect();
    let lb = LatencyBuckets::from_hists(&hists);
    for v in lb.us.iter().chain(lb.ms.iter()) {
        f.push(format!("{v:.2}%"));
    }
    for d in result.disk_util.iter().filter(|_| version >= 3) {
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
    if u.spec.errors.goes_on() {
        f.push(u.job.total_err.to_string());
        f.push(u.job.first_error.to_string());
    }
    let mut line = f.join(";");
    if let Some(desc) = &u.spec.description {
        if version == 2 {
            line.push('\n');
        }
        line.push(';');
        line.push_str(desc);
    }
    line
}

/// Render a run as terse lines of `version` (2 to 5).
pub fn render(result: &RunResult, version: u32) -> String {
    render_report(result, &group::build(result), version)
}

/// The terse lines of `report`'s units (`result` gives the disk utilisation).
pub(crate) fn render_report(result: &RunResult, report: &Report, version: u32) -> String {
    let mut out = String::new();
    for u in &report.units {
        out.push_str(&unit_line(result, report, u, version));
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
        let line = render(&r, 3);
        let ours: Vec<&str> = line.trim_end().split(';').collect();
        let sample = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/fixtures/fio-3.33-output/fio-terse-v3.txt"
        ))
        .expect("the fio reference output in tests/fixtures");
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
