//! A preset's headline figures from the jobs' results, their statistics over repetitions, and
//! the summary table printed after the jobs' output. A figure whose jobs did not run (an
//! interrupted preset) is "not run", never a zero.

use super::io_line::IoFacts;
use super::limits::{Check, Target};
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

/// The value of `f` in one run, or None when none of its jobs ran: bandwidth in bytes/s and
/// IOPS of each named job are its clones' total over the longest clone's runtime (the job's
/// own figure, as its fio block and reports show it), added over the named jobs and
/// directions; latencies merge the histograms of all their I/Os (µs); then divided by the
/// figure's divisor.
pub fn value(f: &Figure, res: &RunResult) -> Option<f64> {
    let jobs: Vec<JobResult> = (0..res.plan.jobs.len())
        .filter(|&i| f.jobs.contains(&res.plan.jobs[i].name.as_str()))
        .filter_map(|i| res.job_merged(i))
        .filter(|j| j.runtime_ms > 0 || dirs(f.dirs).iter().any(|d| j.dirs[*d].total_ios > 0))
        .collect();
    if jobs.is_empty() {
        return None;
    }
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
    Some(v / f.divisor)
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
    /// One value per repetition in which its jobs ran (bytes/s, IOPS or µs).
    pub samples: Vec<f64>,
    /// The statistics of the samples; None when the figure's jobs never ran.
    pub stats: Option<Stats>,
    /// The headline value under the preset's (or the user's) rule; None: not run.
    pub headline: Option<f64>,
    pub expect: Expect,
    pub key: &'static str,
}

impl FigureResult {
    fn noisy(&self) -> bool {
        self.stats.as_ref().is_some_and(|s| s.noisy())
    }
}

/// A warm-up job: what it moved and how long it took (not part of any figure).
#[derive(Clone, Debug, PartialEq)]
pub struct Warmup {
    pub name: String,
    pub bytes: u64,
    pub secs: f64,
}

/// A preset's summary over one or more runs.
#[derive(Clone, Debug)]
pub struct Summary {
    pub preset: &'static Preset,
    pub agg: Agg,
    /// How many runs there were (a figure may have fewer samples: not run in some).
    pub runs: usize,
    pub figures: Vec<FigureResult>,
    pub warmups: Vec<Warmup>,
    /// The sets of limits the figures are checked against.
    pub targets: Vec<Target>,
    /// How the jobs ran (from the first run's plan).
    pub io: IoFacts,
}

impl Summary {
    /// Summarise `runs` (one per repetition, at least one).
    pub fn of(p: &'static Preset, runs: &[RunResult], agg: Agg, targets: Vec<Target>) -> Summary {
        let figures = p
            .figures
            .iter()
            .map(|f| {
                let samples: Vec<f64> = runs.iter().filter_map(|r| value(f, r)).collect();
                let stats = (!samples.is_empty()).then(|| Stats::of(&samples));
                FigureResult {
                    label: f.label,
                    metric: f.metric,
                    headline: stats
                        .as_ref()
                        .map(|s| s.headline(agg, higher_is_better(f.metric))),
                    samples,
                    stats,
                    expect: f.expect,
                    key: f.key,
                }
            })
            .collect();
        Summary {
            preset: p,
            agg,
            runs: runs.len(),
            figures,
            warmups: runs.first().map(|r| warmups(p, r)).unwrap_or_default(),
            targets,
            io: runs
                .first()
                .map(|r| IoFacts::of(&r.plan))
                .unwrap_or_default(),
        }
    }

    fn find(&self, label: &str) -> Option<&FigureResult> {
        self.figures.iter().find(|f| f.label == label)
    }

    /// Each figure against each limit of each target, in the targets' order.
    pub fn checks(&self) -> Vec<Check> {
        let mut out = Vec::new();
        for t in &self.targets {
            for (key, limit) in &t.limits {
                if let Some(f) = self.figures.iter().find(|f| f.key == *key) {
                    out.push(Check {
                        target: t.name.clone(),
                        figure: f.label,
                        key,
                        unit: unit(f.metric),
                        measured: f.headline.map(|h| shown(f.metric, h)),
                        limit: *limit,
                    });
                }
            }
        }
        out
    }

    /// True when a figure missed one of its limits.
    pub fn missed(&self) -> bool {
        self.checks().iter().any(|c| c.met() == Some(false))
    }

    /// The summary table and the lines under it.
    pub fn table(&self) -> String {
        let n = self.runs;
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

    /// The lines under the table: how the jobs ran, ranges, explanations, checks, the noise
    /// note and the reading advice.
    fn lines_under(&self, out: &mut String) {
        let p = self.preset;
        for l in self.io.lines() {
            out.push_str(&format!("{l}\n"));
        }
        for (label, lo, hi) in p.ranges {
            if let (Some(lo), Some(hi)) = (self.find(lo), self.find(hi)) {
                out.push_str(&range_lines(label, lo, hi));
            }
        }
        for f in p.figures.iter().filter(|f| !f.explain.is_empty()) {
            out.push_str(&format!("{}\n", f.explain));
        }
        let checks = self.checks();
        for t in &self.targets {
            out.push_str(&format!("against {}:\n", t.name));
            for c in checks.iter().filter(|c| c.target == t.name) {
                out.push_str(&format!("{}\n", c.line()));
            }
            if !t.source.is_empty() {
                out.push_str(&format!("  limits: {}\n", t.source));
            }
        }
        let not_run: Vec<&str> = self
            .figures
            .iter()
            .filter(|f| f.samples.len() < self.runs)
            .map(|f| f.label)
            .collect();
        if !not_run.is_empty() {
            out.push_str(&format!(
                "not run in every run (interrupted or failed before their jobs): {}\n",
                not_run.join(", ")
            ));
        }
        if self.figures.iter().any(|f| f.noisy()) {
            out.push_str(&format!(
                "noisy: {}\n",
                iomark_engine::noisy::rule().replace("the runs", "the runs of this figure")
            ));
        }
        for r in p.reading {
            out.push_str(&format!("{r}\n"));
        }
    }

    /// The summary as JSON (figures with every sample and their statistics; a figure not run
    /// has a null headline and `"not_run": true`).
    pub fn to_json(&self) -> serde_json::Value {
        let figures: Vec<serde_json::Value> = self.figures.iter().map(figure_json).collect();
        let checks: Vec<serde_json::Value> = self
            .checks()
            .into_iter()
            .map(|c| {
                serde_json::json!({
                    "target": c.target, "figure": c.figure, "key": c.key, "unit": c.unit,
                    "measured": c.measured, "expected": c.limit, "pass": c.met(),
                    "shortfall_pct": c.shortfall(),
                })
            })
            .collect();
        let targets: Vec<serde_json::Value> = self
            .targets
            .iter()
            .map(|t| {
                let limits: serde_json::Map<String, serde_json::Value> = t
                    .limits
                    .iter()
                    .map(|(k, v)| (k.to_string(), (*v).into()))
                    .collect();
                serde_json::json!({"name": t.name, "source": t.source, "limits": limits})
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
            "runs": self.runs,
            "figures": figures,
            "warmups": warmups,
            "io": self.io.to_json(),
            "targets": targets,
            "checks": checks,
        })
    }
}

/// The warm-up jobs of one run.
fn warmups(p: &Preset, first: &RunResult) -> Vec<Warmup> {
    let mut out = Vec::new();
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
        out.push(w);
    }
    out
}

fn figure_json(f: &FigureResult) -> serde_json::Value {
    let m = f.metric;
    let Some(s) = &f.stats else {
        return serde_json::json!({
            "figure": f.label, "unit": unit(m), "headline": null, "samples": [], "not_run": true,
        });
    };
    serde_json::json!({
        "figure": f.label,
        "unit": unit(m),
        "headline": f.headline.map(|h| shown(m, h)),
        "samples": f.samples.iter().map(|v| shown(m, *v)).collect::<Vec<_>>(),
        "mean": shown(m, s.mean),
        "sd": shown(m, s.sd),
        "min": shown(m, s.min),
        "max": shown(m, s.max),
        "median": shown(m, s.median),
        "ci95": shown(m, s.ci95),
        "cv": s.cv,
        "noisy": s.noisy(),
        "not_run": false,
    })
}

/// A range's line (`restore: 104.9 MB/s from random reads to 419.4 MB/s from sequential
/// reads`), said "not run" when either end did not, and a second line when the low end came
/// out above the high end, with why that happens.
fn range_lines(label: &str, lo: &FigureResult, hi: &FigureResult) -> String {
    let (Some(l), Some(h)) = (lo.headline, hi.headline) else {
        return format!(
            "{label}: not run ({} and {} are both needed)\n",
            lo.label, hi.label
        );
    };
    let what = |f: &FigureResult| {
        f.label
            .split_once(" (")
            .map_or(f.label, |(name, _)| name)
            .trim_start_matches(label)
            .trim_start_matches(' ')
            .to_string()
    };
    let mib = |v: f64| v / (1024.0 * 1024.0);
    let mut out = format!(
        "{label}: {:.1} MB/s {} to {:.1} MB/s {} ({:.1} to {:.1} MiB/s)\n",
        l / 1e6,
        what(lo),
        h / 1e6,
        what(hi),
        mib(l),
        mib(h)
    );
    if l > h {
        out.push_str(&format!(
            "{label}: the lower bound ({}) came out {:.1} % above the upper bound ({}): the expected order does not hold here. \
             On a device without a seek penalty (SSD, NVMe, a RAID or network volume that stripes) random and sequential reads of large blocks run at about the same speed, \
             and the difference is run-to-run noise; read-ahead, caching in the device or controller, or other load during one of the two jobs also swap them. \
             Take the two as one figure here, or run with --repeat to see the spread.\n",
            what(lo),
            (l - h) / h * 100.0,
            what(hi),
        ));
    }
    out
}

/// The table's header row; with more than one run, the statistics columns too.
fn header_row(n: usize) -> String {
    let mut out = format!(
        "{:<44} {:>12} {:<5} {:>10}",
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
    let (Some(h), Some(s)) = (f.headline, &f.stats) else {
        return format!("{:<44} {:>12} {:<5}\n", f.label, "not run", unit(m));
    };
    let mib = if m == Metric::Bw {
        format!("{:.1}", h / (1024.0 * 1024.0))
    } else {
        String::new()
    };
    let mut out = format!("{:<44} {:>12} {:<5} {:>10}", f.label, prec(h), unit(m), mib);
    if n > 1 {
        out.push_str(&format!(
            " {:>10} {:>10} {:>10} {:>10} {:>10} {:>6.1}",
            prec(s.mean),
            prec(s.sd),
            prec(s.min),
            prec(s.max),
            prec(s.ci95),
            s.cv * 100.0
        ));
        if f.samples.len() < n {
            out.push_str(&format!("  {} of {n} runs", f.samples.len()));
        }
        if s.noisy() {
            out.push_str("  noisy");
        }
    }
    out.push('\n');
    out
}

#[cfg(test)]
#[path = "summary_tests.rs"]
mod tests;
