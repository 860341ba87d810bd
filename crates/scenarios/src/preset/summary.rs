//! A preset's headline figures from the jobs' results, their statistics over repetitions, and
//! the summary table printed after the jobs' output.

use super::{Dirs, Expect, Figure, Metric, Preset};
use crate::repeat::{Agg, Stats};
use iomark_engine::job::Dir;
use iomark_engine::result::{JobResult, LatRecord, RunResult};

fn dirs(d: Dirs) -> &'static [Dir] {
    match d {
        Dirs::Read => &[Dir::Read],
        Dirs::Write => &[Dir::Write],
        Dirs::Both => &[Dir::Read, Dir::Write],
    }
}

/// The value of `f` in one run: bandwidth in bytes/s and IOPS of each named job are its
/// clones' total over the longest clone's runtime (the job's own figure, as its fio block and
/// reports show it), added over the named jobs and directions; latencies merge the histograms
/// of all their I/Os (µs); then divided by the figure's divisor.
pub fn value(f: &Figure, res: &RunResult) -> f64 {
    let jobs: Vec<JobResult> = (0..res.plan.jobs.len())
        .filter(|&i| f.jobs.contains(&res.plan.jobs[i].name.as_str()))
        .filter_map(|i| res.job_merged(i))
        .collect();
    let v = match f.metric {
        Metric::Bw | Metric::Iops => jobs
            .iter()
            .flat_map(|j| dirs(f.dirs).iter().map(move |d| j.dirs[*d].rates()))
            .map(|(iops, bw)| if f.metric == Metric::Bw { bw } else { iops })
            .sum(),
        Metric::LatMean | Metric::LatP99 => {
            let mut all = LatRecord::default();
            for j in &jobs {
                for d in dirs(f.dirs) {
                    all.merge(&j.dirs[*d].lat);
                }
            }
            if f.metric == Metric::LatMean {
                all.stat.mean() / 1000.0
            } else {
                all.hist.percentile(99.0) as f64 / 1000.0
            }
        }
    };
    v / f.divisor
}

fn higher_is_better(m: Metric) -> bool {
    matches!(m, Metric::Bw | Metric::Iops)
}

pub(super) fn unit(m: Metric) -> &'static str {
    match m {
        Metric::Bw => "MB/s",
        Metric::Iops => "IOPS",
        Metric::LatMean | Metric::LatP99 => "µs",
    }
}

/// A figure in its display unit (bandwidth in MB/s).
pub(super) fn shown(m: Metric, v: f64) -> f64 {
    if m == Metric::Bw {
        v / 1e6
    } else {
        v
    }
}

/// One figure over every repetition.
#[derive(Clone, Debug)]
pub struct FigureResult {
    pub label: &'static str,
    pub metric: Metric,
    /// One value per repetition (bytes/s, IOPS or µs).
    pub samples: Vec<f64>,
    pub stats: Stats,
    /// The headline value under the preset's (or the user's) rule.
    pub headline: f64,
    pub expect: Expect,
}

/// A warm-up job: what it moved and how long it took (not part of any figure).
#[derive(Clone, Debug, PartialEq)]
pub struct Warmup {
    pub name: String,
    pub bytes: u64,
    pub secs: f64,
}

/// The provisioned limits given on the command line.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Expected {
    pub iops: Option<f64>,
    pub mbps: Option<f64>,
}

/// A preset's summary over one or more runs.
#[derive(Clone, Debug)]
pub struct Summary {
    pub preset: &'static Preset,
    pub agg: Agg,
    pub figures: Vec<FigureResult>,
    pub warmups: Vec<Warmup>,
    pub expected: Expected,
}

impl Summary {
    /// Summarise `runs` (one per repetition, at least one).
    pub fn of(p: &'static Preset, runs: &[RunResult], agg: Agg, expected: Expected) -> Summary {
        let figures = p
            .figures
            .iter()
            .map(|f| {
                let samples: Vec<f64> = runs.iter().map(|r| value(f, r)).collect();
                let stats = Stats::of(&samples);
                FigureResult {
                    label: f.label,
                    metric: f.metric,
                    headline: stats.headline(agg, higher_is_better(f.metric)),
                    samples,
                    stats,
                    expect: f.expect,
                }
            })
            .collect();
        let mut warmups = Vec::new();
        if let Some(first) = runs.first() {
            for (i, spec) in first.plan.jobs.iter().enumerate() {
                if !p.jobs.iter().any(|j| j.warmup && j.name == spec.name) {
                    continue;
                }
                let mut w = Warmup {
                    name: spec.name.clone(),
                    bytes: 0,
                    secs: 0.0,
                };
                for j in first.jobs.iter().filter(|j| j.job_index == i) {
                    w.bytes += j.dirs.read.io_bytes + j.dirs.write.io_bytes;
                    w.secs = w.secs.max(j.runtime_ms as f64 / 1000.0);
                }
                warmups.push(w);
            }
        }
        Summary {
            preset: p,
            agg,
            figures,
            warmups,
            expected,
        }
    }

    fn find(&self, label: &str) -> Option<&FigureResult> {
        self.figures.iter().find(|f| f.label == label)
    }

    /// Each check against a provisioned limit: (figure, measured, expected, passed, shortfall %).
    pub fn checks(&self) -> Vec<(&'static str, f64, f64, bool, f64)> {
        let mut out = Vec::new();
        for f in &self.figures {
            let want = match f.expect {
                Expect::Iops => self.expected.iops,
                Expect::Mbps => self.expected.mbps,
                Expect::None => None,
            };
            if let Some(want) = want {
                let got = shown(f.metric, f.headline);
                let short = if got >= want {
                    0.0
                } else {
                    (want - got) / want * 100.0
                };
                out.push((f.label, got, want, got >= want, short));
            }
        }
        out
    }

    /// The summary table and the lines under it.
    pub fn table(&self) -> String {
        let n = self.figures.first().map_or(0, |f| f.samples.len());
        let mut out = self.title(n);
        out.push_str(&header_row(n));
        for f in &self.figures {
            out.push_str(&figure_row(f, n));
        }
        self.lines_under(&mut out);
        out
    }

    /// The title line (with how many runs and how they are combined) and the warm-up lines.
    fn title(&self, n: usize) -> String {
        let mut out = format!(
            "\n{} summary ({} run{}{})\n",
            self.preset.name,
            n,
            if n == 1 { "" } else { "s" },
            if n > 1 {
                format!(", headline = {} of the runs", self.agg)
            } else {
                String::new()
            }
        );
        for w in &self.warmups {
            out.push_str(&format!(
                "warm-up {} (not in the figures): {} MiB in {:.1} s ({:.1} MB/s)\n",
                w.name,
                w.bytes >> 20,
                w.secs,
                if w.secs > 0.0 {
                    w.bytes as f64 / w.secs / 1e6
                } else {
                    0.0
                }
            ));
        }
        out
    }

    /// The lines under the table: ranges, explanations, checks, the noise note and the reading
    /// advice.
    fn lines_under(&self, out: &mut String) {
        let p = self.preset;
        for (label, lo, hi) in p.ranges {
            if let (Some(lo), Some(hi)) = (self.find(lo), self.find(hi)) {
                out.push_str(&format!(
                    "{label}: {:.1} to {:.1} MB/s ({:.1} to {:.1} MiB/s)\n",
                    lo.headline / 1e6,
                    hi.headline / 1e6,
                    lo.headline / (1024.0 * 1024.0),
                    hi.headline / (1024.0 * 1024.0)
                ));
            }
        }
        for f in p.figures.iter().filter(|f| !f.explain.is_empty()) {
            out.push_str(&format!("{}\n", f.explain));
        }
        for (label, got, want, pass, short) in self.checks() {
            out.push_str(&format!(
                "{label}: {got:.1} against {want:.1} provisioned: {}\n",
                if pass {
                    "PASS".to_string()
                } else {
                    format!("FAIL ({short:.1} % short)")
                }
            ));
        }
        if self.figures.iter().any(|f| f.stats.noisy()) {
            out.push_str(&format!(
                "noisy: {}\n",
                iomark_engine::noisy::rule().replace("the runs", "the runs of this figure")
            ));
        }
        for r in p.reading {
            out.push_str(&format!("{r}\n"));
        }
    }

    /// The summary as JSON (figures with every sample and their statistics).
    pub fn to_json(&self) -> serde_json::Value {
        let figures: Vec<serde_json::Value> = self
            .figures
            .iter()
            .map(|f| {
                let m = f.metric;
                let s = &f.stats;
                serde_json::json!({
                    "figure": f.label,
                    "unit": unit(m),
                    "headline": shown(m, f.headline),
                    "samples": f.samples.iter().map(|v| shown(m, *v)).collect::<Vec<_>>(),
                    "mean": shown(m, s.mean),
                    "sd": shown(m, s.sd),
                    "min": shown(m, s.min),
                    "max": shown(m, s.max),
                    "median": shown(m, s.median),
                    "ci95": shown(m, s.ci95),
                    "cv": s.cv,
                    "noisy": s.noisy(),
                })
            })
            .collect();
        let checks: Vec<serde_json::Value> = self
            .checks()
            .into_iter()
            .map(|(label, got, want, pass, short)| {
                serde_json::json!({"figure": label, "measured": got, "expected": want, "pass": pass, "shortfall_pct": short})
            })
            .collect();
        let warmups: Vec<serde_json::Value> = self
            .warmups
            .iter()
            .map(|w| serde_json::json!({"job": w.name, "bytes": w.bytes, "secs": w.secs}))
            .collect();
        serde_json::json!({
            "preset": self.preset.name,
            "aggregate": self.agg.name(),
            "figures": figures,
            "warmups": warmups,
            "checks": checks,
        })
    }
}

/// The table's header row; with more than one run, the statistics columns too.
fn header_row(n: usize) -> String {
    let mut out = format!(
        "{:<40} {:>12} {:<5} {:>10}",
        "figure", "value", "unit", "MiB/s"
    );
    if n > 1 {
        out.push_str(&format!(
            " {:>10} {:>10} {:>10} {:>10} {:>10} {:>6}",
            "mean", "sd", "min", "max", "±95% CI", "CV %"
        ));
    }
    out.push('\n');
    out
}

/// One figure's row of the table (`n` runs).
fn figure_row(f: &FigureResult, n: usize) -> String {
    let m = f.metric;
    let prec = |v: f64| {
        if m == Metric::Iops {
            format!("{:.0}", shown(m, v))
        } else {
            format!("{:.1}", shown(m, v))
        }
    };
    let mib = if m == Metric::Bw {
        format!("{:.1}", f.headline / (1024.0 * 1024.0))
    } else {
        String::new()
    };
    let mut out = format!(
        "{:<40} {:>12} {:<5} {:>10}",
        f.label,
        prec(f.headline),
        unit(m),
        mib
    );
    if n > 1 {
        let s = &f.stats;
        out.push_str(&format!(
            " {:>10} {:>10} {:>10} {:>10} {:>10} {:>6.1}",
            prec(s.mean),
            prec(s.sd),
            prec(s.min),
            prec(s.max),
            prec(s.ci95),
            s.cv * 100.0
        ));
        if s.noisy() {
            out.push_str("  noisy");
        }
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::preset::jobfile::Settings;
    use crate::preset::plan;
    use crate::preset::registry::{BACKUP_REPO, CLOUD_DISK};
    use iomark_engine::result::JobResult;
    use std::path::PathBuf;

    /// A result of `p`'s plan in which job `i`'s every clone read `r` MiB and wrote `w` MiB in
    /// 2 s, with 1 MiB I/Os.
    fn result(p: &'static Preset, per_job: &[(u64, u64)]) -> RunResult {
        let s = Settings::defaults(p, PathBuf::from("/x"));
        let (plan, _) = plan::build(p, &s).unwrap();
        let mut jobs = Vec::new();
        for (i, spec) in plan.jobs.iter().enumerate() {
            for c in 0..spec.numjobs.max(1) {
                let mut j = JobResult {
                    job_index: i,
                    clone: c,
                    name: spec.name.clone(),
                    runtime_ms: 2000,
                    ..Default::default()
                };
                let (r, w) = per_job[i];
                for (d, mib) in [(&mut j.dirs.read, r), (&mut j.dirs.write, w)] {
                    d.io_bytes = mib << 20;
                    d.total_ios = mib;
                    d.runtime_ms = 2000;
                    for _ in 0..mib {
                        d.lat.add(100_000);
                    }
                }
                jobs.push(j);
            }
        }
        RunResult {
            plan,
            jobs,
            ..Default::default()
        }
    }

    #[test]
    fn backup_repo_effective_speeds() {
        // active-full writes 1000 MiB, synthetic full reads 300 and writes 300, reverse
        // incremental reads 100 and writes 200, restores read 800 and 200; all in 2 s.
        let res = result(
            &BACKUP_REPO,
            &[(0, 1000), (300, 300), (100, 200), (800, 0), (200, 0)],
        );
        let s = Summary::of(&BACKUP_REPO, &[res], Agg::Mean, Expected::default());
        let mib_s = |v: f64| v / (1 << 20) as f64;
        let got: Vec<f64> = s.figures.iter().map(|f| mib_s(f.headline)).collect();
        assert_eq!(got, [500.0, 150.0, 50.0, 400.0, 100.0]);
        let t = s.table();
        assert!(
            t.contains("restore: 104.9 to 419.4 MB/s (100.0 to 400.0 MiB/s)"),
            "{t}"
        );
        assert!(t.contains("effective = (read + write) / 2"));
        assert!(t.contains("effective = (read + write) / 3"));
        let line = t.lines().find(|l| l.starts_with("synthetic full")).unwrap();
        assert!(
            line.contains(" 157.3 MB/s") && line.ends_with("150.0"),
            "{line}"
        );
    }

    #[test]
    fn cloud_disk_checks_and_warmup() {
        // Warm-ups 1024 MiB each (one clone); max write IOPS job: 4 clones x 500 IOs in 2 s = 1000 IOPS.
        let res = result(
            &CLOUD_DISK,
            &[
                (0, 1024),
                (1024, 0),
                (0, 500),
                (1000, 0),
                (100, 0),
                (0, 50),
                (0, 200),
                (400, 0),
            ],
        );
        let s = Summary::of(
            &CLOUD_DISK,
            &[res],
            Agg::Mean,
            Expected {
                iops: Some(1500.0),
                mbps: Some(100.0),
            },
        );
        let v: Vec<f64> = s.figures.iter().map(|f| f.headline).collect();
        assert_eq!(v[0], 1000.0);
        assert_eq!(v[1], 2000.0);
        assert_eq!(v[2], 300.0);
        assert_eq!(v[3], 400.0 * 1048576.0);
        assert_eq!(s.warmups.len(), 2);
        assert_eq!(s.warmups[0].bytes, 1 << 30);
        let c = s.checks();
        assert_eq!(c[0].0, "max write IOPS (8 KiB)");
        assert!(!c[0].3);
        assert!((c[0].4 - 33.333).abs() < 0.01);
        assert!(c[1].3 && c[1].4 == 0.0);
        let t = s.table();
        assert!(
            t.contains(
                "max write IOPS (8 KiB): 1000.0 against 1500.0 provisioned: FAIL (33.3 % short)"
            ),
            "{t}"
        );
        assert!(t.contains("max read throughput (64 KiB): 838.9 against 100.0 provisioned: PASS"));
        assert!(t.contains("warm-up warmup-write (not in the figures): 1024 MiB in 2.0 s"));
    }

    /// A clone that ran shorter than the others: the summary's figure is the job's own (the
    /// clones' total over the longest runtime, as the fio block and the report show it), not
    /// the sum of each clone's rate (1,250 IOPS here against the job's 1,000).
    #[test]
    fn summary_figures_are_the_jobs_own() {
        let mut res = result(
            &CLOUD_DISK,
            &[
                (0, 1024),
                (1024, 0),
                (0, 500),
                (1000, 0),
                (100, 0),
                (0, 50),
                (0, 200),
                (400, 0),
            ],
        );
        let i = 2;
        let name = res.plan.jobs[i].name.clone();
        let short = res.jobs.iter_mut().find(|j| j.job_index == i).unwrap();
        short.dirs.write.runtime_ms = 1000;
        short.runtime_ms = 1000;
        let f = CLOUD_DISK
            .figures
            .iter()
            .find(|f| f.metric == Metric::Iops && f.jobs == [name.as_str()])
            .unwrap();
        let job = res.job_merged(i).unwrap();
        assert_eq!(job.dirs.write.rates().0, 1000.0);
        assert_eq!(value(f, &res) * f.divisor, 1000.0);
        let figs = crate::repeat::figures::of_run(&res);
        let iops = figs
            .iter()
            .find(|x| x.job == name && x.what == "IOPS")
            .unwrap();
        assert_eq!(iops.value, 1000.0);
    }

    #[test]
    fn repetitions_give_statistics_and_the_noisy_flag() {
        let runs: Vec<RunResult> = [1000, 1100, 700]
            .iter()
            .map(|w| {
                result(
                    &BACKUP_REPO,
                    &[(0, *w), (300, 300), (100, 200), (800, 0), (200, 0)],
                )
            })
            .collect();
        let s = Summary::of(&BACKUP_REPO, &runs, Agg::Best, Expected::default());
        let f = &s.figures[0];
        assert_eq!(f.samples.len(), 3);
        assert_eq!(f.headline, 550.0 * 1048576.0);
        assert!(f.stats.noisy());
        assert!(!s.figures[1].stats.noisy());
        let t = s.table();
        assert!(t.contains("3 runs, headline = best of the runs"));
        let line = t.lines().find(|l| l.starts_with("active full")).unwrap();
        assert!(line.ends_with("noisy"), "{line}");
        let j = s.to_json();
        assert_eq!(j["figures"][0]["samples"].as_array().unwrap().len(), 3);
        assert_eq!(j["figures"][0]["noisy"], true);
    }
}
