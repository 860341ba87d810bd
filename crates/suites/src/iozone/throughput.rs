//! Throughput mode (`-t N`, `-l`/`-u`): N children (threads), one file each, released together
//! from a barrier for every pass; with stonewalling (iozone's default) the first child to
//! finish stops the others and every figure counts only what was done while all ran (`-x`
//! turns it off). Per pass the block iozone prints: Children see (sum of the children's
//! rates), Parent sees (all bytes over the parent's wall time), min/max/avg per child and Min
//! xfer (below the file size when the stonewall cut a child). The block has one layout
//! whatever the options (iozone's changes with them, which breaks parsers). The mix (`-i 8`)
//! is one pass in which some children read and the others write (`mix_reader`). With `-+u`
//! each block adds the CPU utilization line: the longest child's wall time, the children's
//! CPU time (user + system) summed, and their ratio.

use super::catalog::{bare, mix_pass, mix_reader, passes};
use super::plan::Plan;
use super::run::{Measure, Unit};
use iomark_engine::pass::group::{run_group_with, GroupHooks, GroupOptions};
use iomark_engine::pass::PassOp;
use iomark_engine::result::JobResult;
use iomark_engine::runner::steps::{self, Step, StepOutcome, StepRun};
use iomark_engine::runner::RunCtl;
use serde::Serialize;
use std::cell::RefCell;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// One pass of one test with N children.
#[derive(Clone, Debug, PartialEq)]
pub struct TpFigure {
    /// "initial writers", "readers", ...
    pub label: &'static str,
    /// The row name of the `-R` report: "Initial write", "Read", ...
    pub report: &'static str,
    pub children: u32,
    pub per_child: Vec<Measure>,
    /// Which children the stonewall cut.
    pub cut: Vec<bool>,
    /// Which children wrote (the rest read): all or none, but for the mix.
    pub writer: Vec<bool>,
    pub parent_ns: u64,
    /// Spread of the children's start times (ns).
    pub start_spread_ns: u64,
    /// Over many processes: which children each ran (empty for a run of one process).
    pub ranks: Vec<RankShare>,
}

/// Which children of a merged pass one process ran.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RankShare {
    pub rank: usize,
    pub host: String,
    /// Its children are `first_child..first_child + children` of the merged figure.
    pub first_child: usize,
    pub children: u32,
    /// From its release to its last child's end (ns).
    pub parent_ns: u64,
}

/// The labels of a test's passes in throughput mode (iozone runs one pass of the stdio and
/// positional tests there).
fn labels(test: u32) -> &'static [(&'static str, &'static str)] {
    match test {
        0 => &[
            ("initial writers", "Initial write"),
            ("rewriters", "Rewrite"),
        ],
        1 => &[("readers", "Read"), ("re-readers", "Re-read")],
        2 => &[
            ("random readers", "Random read"),
            ("random writers", "Random write"),
        ],
        3 => &[("reverse readers", "Reverse Read")],
        5 => &[("stride readers", "Stride read")],
        6 => &[("fwriters", "Fwrite")],
        7 => &[("freaders", "Fread")],
        8 => &[("mixed workload", "Mixed workload")],
        9 => &[("pwrite writers", "Pwrite")],
        10 => &[("pread readers", "Pread")],
        _ => &[],
    }
}

impl TpFigure {
    fn rate(m: &Measure, unit: Unit) -> f64 {
        let secs = m.secs();
        match unit {
            Unit::KiBps => m.bytes as f64 / 1024.0 / secs,
            Unit::OpsPerSec => m.ops as f64 / secs,
            Unit::MicrosPerOp => secs * 1e6 / m.ops.max(1) as f64,
        }
    }
    /// Sum of the children's rates.
    pub fn children_see(&self, unit: Unit) -> f64 {
        self.per_child.iter().map(|m| Self::rate(m, unit)).sum()
    }
    /// Everything moved over the parent's wall time.
    pub fn parent_sees(&self, unit: Unit) -> f64 {
        // The parent's time less the clock's resolution, as each child's (iozone's
        // total_time).
        let res = self.per_child.first().map_or(0, |m| m.time_res_ns);
        let secs = super::clock::iozone_secs(self.parent_ns, res);
        let bytes: u64 = self.per_child.iter().map(|m| m.bytes).sum();
        let ops: u64 = self.per_child.iter().map(|m| m.ops).sum();
        match unit {
            Unit::KiBps => bytes as f64 / 1024.0 / secs,
            Unit::OpsPerSec => ops as f64 / secs,
            Unit::MicrosPerOp => secs * 1e6 / ops.max(1) as f64,
        }
    }
    /// iozone's CPU figures of a pass: the longest child's wall time, the children's CPU time
    /// summed (seconds), and CPU over wall in percent.
    pub fn cpu(&self) -> (f64, f64, f64) {
        let wall = self
            .per_child
            .iter()
            .map(Measure::wall_secs)
            .fold(0.0, f64::max);
        let cpu: f64 = self.per_child.iter().map(Measure::cpu_secs).sum();
        let util = if wall > 0.0 { 100.0 * cpu / wall } else { 0.0 };
        (wall, cpu, util)
    }
    /// Smallest amount one child moved, in kB (or operations).
    pub fn min_xfer(&self, unit: Unit) -> f64 {
        self.per_child
            .iter()
            .map(|m| match unit {
                Unit::KiBps => m.bytes as f64 / 1024.0,
                _ => m.ops as f64,
            })
            .fold(f64::INFINITY, f64::min)
    }
}

/// Why a throughput run stopped.
#[derive(Debug, thiserror::Error)]
pub enum ThroughputError {
    #[error("not a throughput plan")]
    NotThroughput,
    /// A child's pass failed.
    #[error(transparent)]
    Pass(#[from] std::io::Error),
}

/// What a run of one child count gave: iozone's figures of each pass, and the run's jobs (one
/// per child of each pass, from the same measures: [`child_jobs`]) as the step runner
/// assembled them, for the result.
#[derive(Debug, Default)]
pub struct CountRun {
    pub figures: Vec<TpFigure>,
    pub jobs: Vec<JobResult>,
}

/// Run every test of the plan with `children` children; `on_figure` sees each pass's figure.
pub fn run_count(
    plan: &Plan,
    children: u32,
    keep: bool,
    stop: &Arc<AtomicBool>,
    on_figure: &mut dyn FnMut(&TpFigure),
) -> Result<CountRun, ThroughputError> {
    run_count_with(plan, children, keep, stop, GroupHooks::default(), on_figure)
}

/// [`run_count`] with every pass released and stonewalled through `hooks` (children of other
/// processes run the same passes at the same time). Each test is a step of one run, so the
/// children's files pass the gate of files a run writes before any I/O, and the gate removes
/// them at the end (unless `keep`): only those the run created.
pub fn run_count_with(
    plan: &Plan,
    children: u32,
    keep: bool,
    stop: &Arc<AtomicBool>,
    hooks: GroupHooks<'_>,
    on_figure: &mut dyn FnMut(&TpFigure),
) -> Result<CountRun, ThroughputError> {
    let tp = plan
        .throughput
        .as_ref()
        .ok_or(ThroughputError::NotThroughput)?;
    let files = &tp.files[..children as usize];
    let on_figure = RefCell::new(on_figure);
    let mut tests: Vec<TestStep<'_, '_>> = plan
        .tests
        .iter()
        .map(|&test| TestStep {
            plan,
            tp,
            files,
            test,
            hooks,
            on_figure: &on_figure,
            figures: Vec::new(),
            error: None,
        })
        .collect();
    let setup = StepRun {
        scratch_files: files.to_vec(),
        keep,
        ..Default::default()
    };
    let mut ctl = RunCtl::quiet();
    ctl.stop = stop.clone();
    let ran = steps::run_all(&setup, &mut tests, &ctl)
        .map_err(|e| ThroughputError::Pass(std::io::Error::other(e.to_string())))?;
    let mut figures = Vec::new();
    for t in tests {
        figures.extend(t.figures);
        if let Some(e) = t.error {
            return Err(ThroughputError::Pass(e));
        }
    }
    Ok(CountRun {
        figures,
        jobs: ran.result.jobs,
    })
}

/// The jobs of a pass's figure: one per child, named `iozone LABEL xN child I`, with the
/// bytes, operations, timed runtime, latency and CPU its figure has.
pub fn child_jobs(f: &TpFigure) -> Vec<JobResult> {
    f.per_child
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let name = format!("iozone {} x{} child {i}", f.label, f.children);
            m.job(name, f.writer.get(i).copied().unwrap_or(false), i)
        })
        .collect()
}

/// One test of a throughput run as a step: each of its passes run by every child at once.
struct TestStep<'a, 'f> {
    plan: &'a Plan,
    tp: &'a super::plan::Throughput,
    files: &'a [PathBuf],
    test: u32,
    hooks: GroupHooks<'a>,
    on_figure: &'a RefCell<&'f mut dyn FnMut(&TpFigure)>,
    figures: Vec<TpFigure>,
    error: Option<std::io::Error>,
}

impl Step for TestStep<'_, '_> {
    fn run(&mut self, ctl: &RunCtl) -> StepOutcome {
        if let Err(e) = self.passes(&ctl.stop) {
            self.error = Some(e);
        }
        StepOutcome {
            jobs: self.figures.iter().flat_map(child_jobs).collect(),
            failed: self.error.is_some(),
            ..Default::default()
        }
    }
}

impl TestStep<'_, '_> {
    fn passes(&mut self, stop: &AtomicBool) -> std::io::Result<()> {
        let (plan, tp, test) = (self.plan, self.tp, self.test);
        let cell = plan.cells[0];
        let n = self.files.len() as u32;
        let per_file: Vec<_> = self
            .files
            .iter()
            .enumerate()
            .map(|(i, f)| {
                if test == 8 {
                    let reader = mix_reader(i as u32, n, tp.pct_read);
                    let spec = mix_pass(f, cell.file, cell.record, plan.timing, reader, tp.seq_mix);
                    vec![(0, spec)]
                } else {
                    passes(test, f, cell.file, cell.record, plan.timing)
                }
            })
            .collect();
        for (k, &(label, report)) in labels(test).iter().enumerate() {
            if k >= per_file[0].len() {
                break;
            }
            // iozone's children start their clock right after the open (no fsync, no
            // priming read).
            let specs: Vec<_> = per_file.iter().map(|v| bare(v[k].1.clone())).collect();
            let writer = specs.iter().map(|s| s.op == PassOp::Write).collect();
            let options = GroupOptions {
                stonewall: tp.stonewall,
                delay: Duration::from_micros(tp.delay_us),
                first_cpu: tp.first_cpu,
                own_files: !tp.threads,
            };
            let g = run_group_with(&specs, options, stop, self.hooks);
            let mut per_child = Vec::new();
            let mut cut = Vec::new();
            for r in g.children {
                let r = r?;
                cut.push(r.cut);
                per_child.push(Measure::from(r));
            }
            let starts = per_child.iter().map(|m| m.start_unix_us);
            let spread = starts.clone().max().unwrap_or(0) - starts.min().unwrap_or(0);
            let f = TpFigure {
                label,
                report,
                children: n,
                per_child,
                cut,
                writer,
                parent_ns: g.wall_ns,
                start_spread_ns: spread * 1000,
                ranks: Vec::new(),
            };
            (self.on_figure.borrow_mut())(&f);
            self.figures.push(f);
            if stop.load(Ordering::Relaxed) {
                break;
            }
        }
        Ok(())
    }
}

fn unit_words(unit: Unit) -> (&'static str, &'static str) {
    match unit {
        Unit::KiBps => ("kB/sec", "kB"),
        Unit::OpsPerSec => ("ops/sec", "ops"),
        Unit::MicrosPerOp => ("microseconds/op", "ops"),
    }
}

/// What iozone calls its children: "thread" with `-T`, else "process" (its children are
/// processes then), and their plural.
pub fn child_word(threads: bool, plural: bool) -> &'static str {
    match (threads, plural) {
        (true, false) => "thread",
        (true, true) => "threads",
        (false, false) => "process",
        (false, true) => "processes",
    }
}

/// iozone's block for one pass (`-C` adds a line per child, `-+u` the CPU figures), the
/// children called `each` ([`child_word`]).
pub fn block_per(f: &TpFigure, unit: Unit, per_child: bool, cpu: bool, each: &str) -> String {
    let (rate, amount) = unit_words(unit);
    let rates: Vec<f64> = f
        .per_child
        .iter()
        .map(|m| TpFigure::rate(m, unit))
        .collect();
    let min = rates.iter().copied().fold(f64::INFINITY, f64::min);
    let max = rates.iter().copied().fold(0.0, f64::max);
    let avg = f.children_see(unit) / rates.len().max(1) as f64;
    let who = format!("{:2} {}", f.children, f.label);
    let mut s = format!(
        "\tChildren see throughput for {who} \t= {:10.2} {rate}\n\tParent sees throughput for {who} \t= {:10.2} {rate}\n",
        f.children_see(unit),
        f.parent_sees(unit)
    );
    s.push_str(&format!(
        "\tMin throughput per {each} \t\t\t= {min:10.2} {rate} \n"
    ));
    s.push_str(&format!(
        "\tMax throughput per {each} \t\t\t= {max:10.2} {rate}\n"
    ));
    s.push_str(&format!(
        "\tAvg throughput per {each} \t\t\t= {avg:10.2} {rate}\n"
    ));
    s.push_str(&format!(
        "\tMin xfer \t\t\t\t\t= {:10.2} {amount}\n",
        f.min_xfer(unit)
    ));
    if cpu {
        let (wall, cpu, util) = f.cpu();
        s.push_str(&format!(
            "\tCPU utilization: Wall time {wall:8.3}    CPU time {cpu:8.3}    CPU utilization {util:6.2} %\n\n"
        ));
    }
    if per_child {
        for (i, (m, r)) in f.per_child.iter().zip(&rates).enumerate() {
            let x = if unit == Unit::KiBps {
                m.bytes as f64 / 1024.0
            } else {
                m.ops as f64
            };
            s.push_str(&format!(
                "\tChild[{i}] xfer count = {x:10.2} {amount}, Throughput = {r:10.2} {rate}"
            ));
            if cpu {
                s.push_str(&format!(
                    ", wall={:6.3}, cpu={:6.3}, %={:6.2}",
                    m.wall_secs(),
                    m.cpu_secs(),
                    m.cpu_util()
                ));
            }
            s.push('\n');
        }
    }
    s.push('\n');
    s
}

/// The throughput table: the child counts, and per pass its Children see figure per count.
pub fn table(figs: &[TpFigure], unit: Unit) -> (Vec<u32>, Vec<(String, Vec<f64>)>) {
    table_of(figs, |f| f.children_see(unit))
}

/// The CPU utilization table (`-+u`): per pass its CPU % per child count.
pub fn cpu_table(figs: &[TpFigure]) -> (Vec<u32>, Vec<(String, Vec<f64>)>) {
    table_of(figs, |f| f.cpu().2)
}

fn table_of(
    figs: &[TpFigure],
    value: impl Fn(&TpFigure) -> f64,
) -> (Vec<u32>, Vec<(String, Vec<f64>)>) {
    let mut counts: Vec<u32> = Vec::new();
    let mut rows: Vec<(String, Vec<f64>)> = Vec::new();
    for f in figs {
        if !counts.contains(&f.children) {
            counts.push(f.children);
        }
        match rows.iter_mut().find(|r| r.0 == f.report) {
            Some(r) => r.1.push(value(f)),
            None => rows.push((f.report.to_string(), vec![value(f)])),
        }
    }
    (counts, rows)
}

/// The unit as throughput mode's reports name it.
pub fn unit_label(unit: Unit) -> &'static str {
    match unit {
        Unit::KiBps => "kBytes/sec",
        Unit::OpsPerSec => "ops/sec",
        Unit::MicrosPerOp => "microseconds/op",
    }
}

/// The `-R` report of throughput mode: one row per pass, one column per child count.
pub fn excel(figs: &[TpFigure], record: u64, unit: Unit, threads: bool) -> String {
    let label = unit_label(unit);
    report_rows(
        &format!(
            "\n\"Throughput report Y-axis is type of test X-axis is number of {}\"\n\"Record size = {} kBytes \"\n\"Output is in {label}\"\n\n",
            child_word(threads, true),
            record >> 10
        ),
        &table(figs, unit).1,
    )
}

/// The CPU utilization report of throughput mode (`-R -+u`), after the throughput report.
pub fn cpu_excel(figs: &[TpFigure], record: u64, threads: bool) -> String {
    report_rows(
        &format!(
            "\n\"CPU utilization report Y-axis is type of test X-axis is number of {}\"\n\"Record size = {} kBytes \"\n\"Output is in CPU%\"\n\n",
            child_word(threads, true),
            record >> 10
        ),
        &cpu_table(figs).1,
    )
}

fn report_rows(head: &str, rows: &[(String, Vec<f64>)]) -> String {
    let mut s = head.to_string();
    for (name, vals) in rows {
        s.push_str(&format!("\"{name:>15} \""));
        for v in vals {
            s.push_str(&format!(" {v:10.2} "));
        }
        s.push_str("\n\n");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::iozone::{args::parse, plan::plan};
    use iomark_engine::Dir;
    use std::path::Path;

    /// The run's jobs are each pass's children, with the bytes, operations and time of the
    /// figures stdout prints; the files the run made are removed through the gate.
    #[test]
    fn the_runs_jobs_are_the_figures_children() {
        let d = iomark_engine::test_support::TempDir::new("iozone-tp");
        let files: Vec<String> = (0..2)
            .map(|i| d.join(format!("c{i}")).display().to_string())
            .collect();
        let mut args: Vec<String> = "-t 2 -s 256k -r 64k -i 0 -x -C -F"
            .split_whitespace()
            .map(String::from)
            .collect();
        args.extend(files.iter().cloned());
        let p = plan(&parse(&args).unwrap(), &|_| Some(1 << 40)).unwrap();
        let stop = Arc::new(AtomicBool::new(false));
        let mut text = String::new();
        let mut show = |f: &TpFigure| text.push_str(&block_per(f, Unit::KiBps, true, false, "x"));
        let run = run_count(&p, 2, false, &stop, &mut show).unwrap();
        // Initial writers and rewriters, two children each.
        assert_eq!(run.figures.len(), 2);
        assert_eq!(run.jobs.len(), 4);
        for (k, f) in run.figures.iter().enumerate() {
            for (i, m) in f.per_child.iter().enumerate() {
                let j = &run.jobs[k * 2 + i];
                assert_eq!(j.name, format!("iozone {} x2 child {i}", f.label));
                let w = &j.dirs[Dir::Write];
                assert_eq!((w.io_bytes, w.total_ios), (m.bytes, m.ops), "{}", j.name);
                assert_eq!(j.runtime_us, m.timed_ns / 1000, "{}", j.name);
                // -x: every child moved its whole file.
                assert_eq!(m.bytes, 256 << 10, "{}", j.name);
            }
        }
        // The per-child lines of stdout report the jobs' amounts.
        let xfer: Vec<String> = text
            .lines()
            .filter_map(|l| l.split("xfer count = ").nth(1))
            .map(|r| r.split_whitespace().next().unwrap().to_string())
            .collect();
        let jobs: Vec<String> = run
            .jobs
            .iter()
            .map(|j| format!("{:.2}", j.dirs[Dir::Write].io_bytes as f64 / 1024.0))
            .collect();
        assert_eq!(xfer, jobs, "{text}");
        assert!(files.iter().all(|f| !Path::new(f).exists()));
    }
}
