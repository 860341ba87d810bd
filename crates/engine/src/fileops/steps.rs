//! The file operations of this module as steps of a run ([`crate::runner::steps`]): each phase
//! becomes a job of the result named by the front end, and a failed or stopped phase stops the
//! run after it.

use super::blogtree::{self, Counts, Tree, TreeSpec};
use super::bytewise::{self, RewriteOpts};
use super::fileset::{self, FileSet, FileSetSpec};
use super::seeks::{self, SeekOpts};
use super::Phase;
use crate::alone::in_own_thread;
use crate::job::Dir;
use crate::result::{JobResult, LogEntry};
use crate::runner::steps::{Step, StepOutcome};
use crate::runner::RunCtl;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// What a [`FileStep`] does to its file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileOp {
    /// Create the file (it must not exist) and write `bytes` bytes one per `write(2)`.
    WriteBytes { bytes: u64 },
    /// Read the first `bytes` bytes one per `read(2)`.
    ReadBytes { bytes: u64 },
    /// Rewrite the file in place, chunk by chunk.
    Rewrite { chunk: usize, opts: RewriteOpts },
    /// Random seeks (each read, some written back).
    Seeks(SeekOpts),
}

impl FileOp {
    /// The operation type counted, and its direction.
    fn counted(&self) -> (&'static str, Dir) {
        match self {
            FileOp::WriteBytes { .. } => (bytewise::PUTC, Dir::Write),
            FileOp::ReadBytes { .. } => (bytewise::GETC, Dir::Read),
            FileOp::Rewrite { .. } => (bytewise::REWRITE, Dir::Write),
            FileOp::Seeks(_) => (seeks::SEEK, Dir::Read),
        }
    }
}

/// One phase on one file, as the job `name`.
#[derive(Clone, Debug, PartialEq)]
pub struct FileStep {
    pub name: String,
    pub path: PathBuf,
    pub op: FileOp,
    /// Remove the file after the phase (the next test makes a new one).
    pub remove_after: bool,
}

impl Step for FileStep {
    fn run(&mut self, ctl: &RunCtl) -> StepOutcome {
        let stop = &ctl.stop;
        let p = &self.path;
        // The one-file phases run as bonnie++'s single process runs them, with a table of open
        // files of their own (see `crate::alone`); its seekers are threads, as bonnie++'s.
        let phase = match self.op {
            FileOp::WriteBytes { bytes } => in_own_thread(|| bytewise::write_bytes(p, bytes, stop)),
            FileOp::ReadBytes { bytes } => in_own_thread(|| bytewise::read_bytes(p, bytes, stop)),
            FileOp::Rewrite { chunk, opts } => {
                in_own_thread(|| bytewise::rewrite(p, chunk, opts, stop))
            }
            // The seekers remove the file themselves as they end, as bonnie++'s do.
            FileOp::Seeks(o) => seeks::seeks(p, o, self.remove_after, stop),
        };
        if self.remove_after && !matches!(self.op, FileOp::Seeks(_)) {
            let _ = std::fs::remove_file(p);
        }
        let (op, dir) = self.op.counted();
        phase_outcome(vec![phase.job(&self.name, op, dir)], &phase)
    }
}

/// The outcome of phases whose last is `last`: failed when it failed or was stopped.
fn phase_outcome(jobs: Vec<JobResult>, last: &Phase) -> StepOutcome {
    StepOutcome {
        failed: last.error.is_some() || last.stopped,
        jobs,
        ..Default::default()
    }
}

/// A set of small files created, stat-ed and deleted in name order, then again in random order
/// (six phases, as bonnie++'s file tests), each the job of its name in `names`.
#[derive(Clone, Debug, PartialEq)]
pub struct FileSetSteps {
    pub spec: FileSetSpec,
    /// Sequential create, stat, delete, then random create, stat, delete.
    pub names: [String; 6],
}

impl Step for FileSetSteps {
    fn run(&mut self, ctl: &RunCtl) -> StepOutcome {
        let stop = &ctl.stop;
        let mut set = FileSet::new(self.spec.clone());
        let mut jobs = Vec::new();
        let mut last = Phase::default();
        for (i, name) in self.names.iter().enumerate() {
            let order = if i < 3 {
                fileset::Order::Sequential
            } else {
                fileset::Order::Random
            };
            let (ph, op, dir) = match i % 3 {
                0 => (set.create(order, stop), fileset::CREATE, Dir::Write),
                1 => (set.stat(order, stop), fileset::STAT, Dir::Read),
                _ => (set.delete(order, stop), fileset::DELETE, Dir::Write),
            };
            jobs.push(ph.job(name, op, dir));
            last = ph;
            if last.error.is_some() || last.stopped {
                set.clean_up();
                break;
            }
        }
        phase_outcome(jobs, &last)
    }
}

/// A tree of blogs worked on by threads ([`blogtree`]) for `intervals` intervals of `every`,
/// each interval's counts handed to `on_interval` as it ends. Its jobs: one per operation type
/// (`PREFIX-OP`, with its latencies), then one per counter (`PREFIX-blogs-written`, ...) with
/// its total and its rate per second in each interval as a series.
pub struct TreeRun {
    pub spec: TreeSpec,
    pub intervals: u32,
    pub every: Duration,
    pub prefix: String,
    pub on_interval: Box<dyn FnMut(&Counts) + Send>,
    /// What the run did, once it ran.
    pub done: Option<TreeDone>,
}

/// What a [`TreeRun`] did.
#[derive(Debug, Default)]
pub struct TreeDone {
    /// Each interval's end (ms from the start) and counts.
    pub intervals: Vec<(u64, Counts)>,
    pub phase: Phase,
    /// Rounds that failed because files raced between threads, and the first reason.
    pub races: (u64, Option<String>),
}

impl TreeRun {
    fn watch(&mut self, tree: &Tree, stop: &AtomicBool) -> Vec<(u64, Counts)> {
        let start = Instant::now();
        let mut seen = Vec::new();
        for i in 1..=self.intervals {
            let end = start + self.every * i;
            while Instant::now() < end && !stop.load(Ordering::Relaxed) && !tree.ended_by_error() {
                std::thread::sleep((end - Instant::now()).min(Duration::from_millis(50)));
            }
            if stop.load(Ordering::Relaxed) || tree.ended_by_error() {
                break;
            }
            let c = tree.take_interval();
            (self.on_interval)(&c);
            seen.push((start.elapsed().as_millis() as u64, c));
        }
        seen
    }

    fn jobs(&self, d: &TreeDone, start_ms: u64) -> Vec<JobResult> {
        let p = &self.prefix;
        let mut jobs: Vec<JobResult> = blogtree::OPS
            .iter()
            .map(|op| {
                let name = format!("{p}-{}", op.replace(' ', "-"));
                d.phase.job(&name, op, blogtree::op_dir(op))
            })
            .collect();
        let secs = self.every.as_secs_f64().max(1e-9);
        for (k, (name, dir, _)) in Counts::default().named().iter().enumerate() {
            let mut j = JobResult {
                name: format!("{p}-{name}"),
                ran: true,
                runtime_ms: d.phase.elapsed_ns / 1_000_000,
                runtime_us: d.phase.elapsed_ns / 1000,
                start_unix_ms: start_ms,
                ..Default::default()
            };
            for (t_ms, c) in &d.intervals {
                let n = c.named()[k].2;
                j.dirs[*dir].total_ios += n;
                j.series.iops.push(LogEntry {
                    t_ms: *t_ms,
                    value: (n as f64 / secs).round() as u64,
                    ddir: *dir as u8,
                    bs: 0,
                    offset: 0,
                    max: None,
                    prio: 0,
                });
            }
            jobs.push(j);
        }
        jobs
    }
}

impl Step for TreeRun {
    fn run(&mut self, ctl: &RunCtl) -> StepOutcome {
        let start_ms = crate::sys::unix_ms();
        let tree = match Tree::start(self.spec.clone(), ctl.stop.clone()) {
            Ok(t) => t,
            Err(e) => {
                let phase = Phase {
                    error: Some(e.to_string()),
                    ..Default::default()
                };
                self.done = Some(TreeDone {
                    phase,
                    ..Default::default()
                });
                return StepOutcome {
                    failed: true,
                    ..Default::default()
                };
            }
        };
        let intervals = self.watch(&tree, &ctl.stop);
        let races = tree.failures();
        let phase = tree.finish();
        let d = TreeDone {
            intervals,
            phase,
            races,
        };
        let jobs = self.jobs(&d, start_ms);
        let failed = d.phase.error.is_some();
        self.done = Some(d);
        StepOutcome {
            failed,
            jobs,
            ..Default::default()
        }
    }
}
