//! A sweep's plan (one stonewalled job per point, typed by the fio front end), the figures of
//! each point and the matrix table.

use super::axes::Axis;
use iomark_engine::job::{Dir, RunPlan};
use iomark_engine::result::{LatRecord, RunResult};
use iomark_fio::job_builder::{self, RawJob, RawPlan};

/// The figure a matrix shows.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Show {
    #[default]
    Iops,
    Bw,
    Mean,
    P99,
}

impl Show {
    pub fn parse(s: &str) -> Option<Show> {
        match s {
            "iops" => Some(Show::Iops),
            "bw" => Some(Show::Bw),
            "mean" | "lat" => Some(Show::Mean),
            "p99" => Some(Show::P99),
            _ => None,
        }
    }
    pub fn title(self) -> &'static str {
        match self {
            Show::Iops => "IOPS",
            Show::Bw => "MB/s",
            Show::Mean => "mean latency (µs)",
            Show::P99 => "p99 latency (µs)",
        }
    }
}

/// The name of a point's job: `bs=4k,iodepth=16`.
pub fn point_name(axes: &[Axis], point: &[String]) -> String {
    axes.iter()
        .zip(point)
        .map(|(a, v)| format!("{}={v}", a.option))
        .collect::<Vec<_>>()
        .join(",")
}

/// The plan: one job per point, in order, each waiting for the one before.
pub fn plan(
    axes: &[Axis],
    points: &[Vec<String>],
    fixed: &[(String, String)],
) -> Result<RunPlan, job_builder::PlanError> {
    let raw = RawPlan {
        global_options: fixed.to_vec(),
        jobs: points
            .iter()
            .map(|p| {
                let mut options: Vec<(String, String)> = axes
                    .iter()
                    .zip(p)
                    .map(|(a, v)| (a.option.clone(), v.clone()))
                    .collect();
                options.push(("stonewall".into(), "1".into()));
                RawJob {
                    name: point_name(axes, p),
                    inherited: fixed.to_vec(),
                    options,
                    ..Default::default()
                }
            })
            .collect(),
        ..Default::default()
    };
    job_builder::build_plan(&raw).map(|b| b.plan)
}

/// The figure of plan job `i` in `res` (all clones, both directions): IOPS and MB/s are the
/// clones' total over the longest clone's runtime (the job's own figure), added over the
/// directions; latencies merge every I/O's.
pub fn figure(res: &RunResult, i: usize, show: Show) -> f64 {
    let mut rate = 0.0;
    let mut lat = LatRecord::default();
    if let Some(j) = res.job_merged(i) {
        for d in Dir::ALL {
            let x = &j.dirs[d];
            let (iops, bw) = x.rates();
            rate += if show == Show::Bw { bw / 1e6 } else { iops };
            lat.merge(&x.lat);
        }
    }
    match show {
        Show::Iops | Show::Bw => rate,
        Show::Mean => lat.stat.mean() / 1000.0,
        Show::P99 => lat.hist.percentile(99.0) as f64 / 1000.0,
    }
}

/// The matrix: `cols` along the columns, every other axis (`rows` first) along the rows.
pub fn table(
    axes: &[Axis],
    points: &[Vec<String>],
    values: &[f64],
    rows: Option<&str>,
    cols: Option<&str>,
    show: Show,
) -> String {
    let ci = cols
        .and_then(|c| axes.iter().position(|a| a.option == c))
        .unwrap_or(axes.len() - 1);
    let mut row_axes: Vec<usize> = (0..axes.len()).filter(|&i| i != ci).collect();
    if let Some(r) = rows.and_then(|r| axes.iter().position(|a| a.option == r)) {
        if let Some(pos) = row_axes.iter().position(|&i| i == r) {
            row_axes.remove(pos);
            row_axes.insert(0, r);
        }
    }
    let key = |p: &[String]| {
        row_axes
            .iter()
            .map(|&i| format!("{}={}", axes[i].option, p[i]))
            .collect::<Vec<_>>()
            .join(" ")
    };
    // Rows in the order the row axes' values were given.
    let mut row_keys: Vec<(Vec<usize>, String)> = Vec::new();
    for p in points {
        let idx: Vec<usize> = row_axes
            .iter()
            .map(|&i| axes[i].values.iter().position(|v| *v == p[i]).unwrap_or(0))
            .collect();
        let k = key(p);
        if !row_keys.iter().any(|(_, x)| *x == k) {
            row_keys.push((idx, k));
        }
    }
    row_keys.sort_by(|a, b| a.0.cmp(&b.0));
    let width = row_keys
        .iter()
        .map(|(_, k)| k.len())
        .max()
        .unwrap_or(0)
        .max(8);
    let cw = axes[ci]
        .values
        .iter()
        .map(|v| v.len() + axes[ci].option.len() + 1)
        .max()
        .unwrap_or(0)
        .max(10);
    let mut out = format!("\n{} by {}\n{:<width$}", show.title(), axes[ci].option, "");
    for v in &axes[ci].values {
        out.push_str(&format!(" {:>cw$}", format!("{}={v}", axes[ci].option)));
    }
    out.push('\n');
    for (_, k) in &row_keys {
        out.push_str(&format!("{k:<width$}"));
        for v in &axes[ci].values {
            let cell = points
                .iter()
                .position(|p| &p[ci] == v && key(p) == *k)
                .and_then(|i| values.get(i))
                .map(|x| match show {
                    Show::Iops => format!("{x:.0}"),
                    _ => format!("{x:.1}"),
                })
                .unwrap_or_else(|| "-".into());
            out.push_str(&format!(" {cell:>cw$}"));
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sweep::axes::{parse_axis, points};

    #[test]
    fn plan_has_one_job_per_point_in_order() {
        let axes = [
            parse_axis("bs", "4k,64k").unwrap(),
            parse_axis("iodepth", "1,8").unwrap(),
        ];
        let pts = points(&axes).unwrap();
        let fixed = vec![
            ("rw".to_string(), "randread".to_string()),
            ("filename".to_string(), "/tmp/x".to_string()),
            ("size".to_string(), "16m".to_string()),
        ];
        let p = plan(&axes, &pts, &fixed).unwrap();
        let names: Vec<&str> = p.jobs.iter().map(|j| j.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "bs=4k,iodepth=1",
                "bs=4k,iodepth=8",
                "bs=64k,iodepth=1",
                "bs=64k,iodepth=8"
            ]
        );
        assert_eq!(p.jobs[3].iodepth, 8);
        assert!(p.jobs.iter().all(|j| j.stonewall));
        assert!(plan(&axes, &pts, &[("nope".into(), "1".into())]).is_err());
    }

    /// Two clones, one cut short: the point's IOPS is the job's own (2,000 I/Os over the
    /// longest 2 s), not the sum of the clones' rates (1,500).
    #[test]
    fn a_points_figure_is_the_jobs_own() {
        let mut res = RunResult::default();
        for (c, ms) in [(0, 2000), (1, 1000)] {
            let mut j = iomark_engine::result::JobResult {
                clone: c,
                ..Default::default()
            };
            j.dirs.read.total_ios = 1000;
            j.dirs.read.io_bytes = 1000 * 4096;
            j.dirs.read.runtime_ms = ms;
            res.jobs.push(j);
        }
        assert_eq!(figure(&res, 0, Show::Iops), 1000.0);
        assert_eq!(figure(&res, 0, Show::Bw), 4.096);
    }

    #[test]
    fn matrix_rows_and_columns() {
        let axes = [
            parse_axis("bs", "4k,64k").unwrap(),
            parse_axis("iodepth", "1,8").unwrap(),
            parse_axis("rw", "read,write").unwrap(),
        ];
        let pts = points(&axes).unwrap();
        let values: Vec<f64> = (0..pts.len()).map(|i| (i * 100) as f64).collect();
        let t = table(
            &axes,
            &pts,
            &values,
            Some("iodepth"),
            Some("bs"),
            Show::Iops,
        );
        let lines: Vec<&str> = t.lines().collect();
        assert_eq!(lines[1], "IOPS by bs");
        assert!(lines[2].ends_with("    bs=4k     bs=64k"), "{t}");
        // Rows: iodepth first, then rw; point index = bs*4 + iodepth*2 + rw.
        assert!(
            lines[3].starts_with("iodepth=1 rw=read") && lines[3].ends_with("0        400"),
            "{t}"
        );
        assert!(
            lines[4].starts_with("iodepth=1 rw=write") && lines[4].ends_with("100        500"),
            "{t}"
        );
        assert!(
            lines[6].starts_with("iodepth=8 rw=write") && lines[6].ends_with("300        700"),
            "{t}"
        );
        assert_eq!(lines.len(), 7);
    }
}
