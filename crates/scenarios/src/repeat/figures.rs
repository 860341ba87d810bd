//! The figures of one `iomark run` (per job, all clones together, per direction that did I/O:
//! bandwidth, IOPS, mean and 99th percentile latency) and their table over repetitions.

use super::stats::{Agg, Stats};
use iomark_engine::job::Dir;
use iomark_engine::result::RunResult;

/// One figure of a run, e.g. ("randread", "read", "IOPS", 12345.0).
#[derive(Clone, Debug, PartialEq)]
pub struct Figure {
    pub job: String,
    pub dir: &'static str,
    pub what: &'static str,
    pub value: f64,
}

const WHAT: [&str; 4] = ["MB/s", "IOPS", "mean lat µs", "p99 lat µs"];

fn higher_is_better(what: &str) -> bool {
    matches!(what, "MB/s" | "IOPS")
}

/// The figures of `res`, in plan order: for each job (its clones merged) and each direction it
/// moved data in, MB/s and IOPS (the clones' total over the longest clone's runtime) and
/// the mean and p99 of the total latency of all its I/Os.
pub fn of_run(res: &RunResult) -> Vec<Figure> {
    let mut out = Vec::new();
    for (i, spec) in res.plan.jobs.iter().enumerate() {
        let Some(merged) = res.job_merged(i) else {
            continue;
        };
        for (d, dn) in [
            (Dir::Read, "read"),
            (Dir::Write, "write"),
            (Dir::Trim, "trim"),
        ] {
            if merged.dirs[d].total_ios == 0 {
                continue;
            }
            let (iops, bw) = merged.dirs[d].rates();
            let lat = &merged.dirs[d].lat;
            let values = [
                bw / 1e6,
                iops,
                lat.stat.mean() / 1000.0,
                lat.hist.percentile(99.0) as f64 / 1000.0,
            ];
            for (what, value) in WHAT.iter().zip(values) {
                out.push(Figure {
                    job: spec.name.clone(),
                    dir: dn,
                    what,
                    value,
                });
            }
        }
    }
    out
}

/// One row of the repetition table: a figure's samples over the runs.
#[derive(Clone, Debug)]
pub struct Row {
    pub job: String,
    pub dir: &'static str,
    pub what: &'static str,
    pub samples: Vec<f64>,
    pub stats: Stats,
    pub headline: f64,
}

/// Rows for the figures of `runs` (matched by job, direction and figure; a figure missing from
/// a run is left out of that run's samples).
pub fn rows(runs: &[Vec<Figure>], agg: Agg) -> Vec<Row> {
    let mut rows: Vec<Row> = Vec::new();
    for (k, f) in runs.first().into_iter().flatten().enumerate() {
        let samples: Vec<f64> = runs
            .iter()
            .filter_map(|r| {
                r.get(k)
                    .filter(|g| g.job == f.job && g.dir == f.dir && g.what == f.what)
                    .or_else(|| {
                        r.iter()
                            .find(|g| g.job == f.job && g.dir == f.dir && g.what == f.what)
                    })
                    .map(|g| g.value)
            })
            .collect();
        let stats = Stats::of(&samples);
        rows.push(Row {
            job: f.job.clone(),
            dir: f.dir,
            what: f.what,
            headline: stats.headline(agg, higher_is_better(f.what)),
            samples,
            stats,
        });
    }
    rows
}

/// The repetition table: headline, mean, sd, min, max, ±95 % CI and CV per figure; noisy ones
/// marked.
pub fn table(rows: &[Row], agg: Agg) -> String {
    let n = rows.first().map_or(0, |r| r.samples.len());
    let mut out = format!("\nrepetitions: {n} runs, headline = {agg} of the runs\n");
    out.push_str(&format!(
        "{:<20} {:<5} {:<12} {:>11} {:>11} {:>10} {:>11} {:>11} {:>10} {:>6}\n",
        "job",
        "dir",
        "figure",
        agg.name(),
        "mean",
        "sd",
        "min",
        "max",
        "±95% CI",
        "CV %"
    ));
    for r in rows {
        let s = &r.stats;
        let v = |x: f64| {
            if r.what == "IOPS" {
                format!("{x:.0}")
            } else {
                format!("{x:.1}")
            }
        };
        out.push_str(&format!(
            "{:<20} {:<5} {:<12} {:>11} {:>11} {:>10} {:>11} {:>11} {:>10} {:>6.1}{}\n",
            r.job,
            r.dir,
            r.what,
            v(r.headline),
            v(s.mean),
            v(s.sd),
            v(s.min),
            v(s.max),
            v(s.ci95),
            s.cv * 100.0,
            if s.noisy() { "  noisy" } else { "" }
        ));
    }
    if rows.iter().any(|r| r.stats.noisy()) {
        out.push_str("noisy: the runs of this figure varied by more than 10 % of their mean\n");
    }
    out
}

/// The rows as JSON: every sample and its statistics.
pub fn to_json(rows: &[Row], agg: Agg) -> serde_json::Value {
    let figs: Vec<serde_json::Value> = rows
        .iter()
        .map(|r| {
            let s = &r.stats;
            serde_json::json!({
                "job": r.job, "dir": r.dir, "figure": r.what,
                "headline": r.headline, "samples": r.samples,
                "mean": s.mean, "sd": s.sd, "min": s.min, "max": s.max, "median": s.median,
                "ci95": s.ci95, "cv": s.cv, "noisy": s.noisy(),
            })
        })
        .collect();
    serde_json::json!({ "aggregate": agg.name(), "figures": figs })
}

#[cfg(test)]
mod tests {
    use super::*;
    use iomark_engine::job::{JobSpec, RunPlan};
    use iomark_engine::result::JobResult;

    fn run(read_mib: &[u64]) -> RunResult {
        let plan = RunPlan {
            jobs: vec![JobSpec {
                name: "rr".into(),
                numjobs: read_mib.len() as u32,
                ..Default::default()
            }],
            ..Default::default()
        };
        let jobs = read_mib
            .iter()
            .enumerate()
            .map(|(c, m)| {
                let mut j = JobResult {
                    clone: c as u32,
                    ..Default::default()
                };
                j.dirs.read.io_bytes = m << 20;
                j.dirs.read.total_ios = *m;
                j.dirs.read.runtime_ms = 1000;
                for _ in 0..*m {
                    j.dirs.read.lat.add(1_000_000);
                }
                j
            })
            .collect();
        RunResult {
            plan,
            jobs,
            ..Default::default()
        }
    }

    #[test]
    fn clones_add_up_and_repetitions_tabulate() {
        let f = of_run(&run(&[100, 300]));
        assert_eq!(f.len(), 4);
        assert_eq!((f[1].what, f[1].value), ("IOPS", 400.0));
        assert!((f[0].value - 400.0 * 1.048576).abs() < 1e-9);
        assert!((f[2].value - 1000.0).abs() < 1.0);
        let runs = vec![
            of_run(&run(&[100])),
            of_run(&run(&[120])),
            of_run(&run(&[80])),
        ];
        let rows = rows(&runs, Agg::Best);
        assert_eq!(rows[1].samples, [100.0, 120.0, 80.0]);
        assert_eq!(rows[1].headline, 120.0);
        assert!(rows[1].stats.noisy());
        let t = table(&rows, Agg::Best);
        assert!(t.contains("repetitions: 3 runs, headline = best of the runs"));
        let line = t.lines().find(|l| l.contains("IOPS")).unwrap();
        assert!(
            line.starts_with("rr                   read  IOPS"),
            "{line}"
        );
        assert!(line.ends_with("noisy"));
        // Latency: best is the lowest.
        assert_eq!(rows[2].headline, rows[2].stats.min);
    }
}
