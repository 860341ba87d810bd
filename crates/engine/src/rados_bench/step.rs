//! A rados bench run as a step of the runner: the phase (write, seq or rand) on the pool, then,
//! after a write, the metadata object that says what it wrote and, unless the objects are to be
//! kept, their removal. Its jobs: the phase (its I/Os, latency record, operations per second,
//! and for a read the objects whose content was not the write run's), then the removal.

use super::objects::{metadata_object, prefix, Metadata};
use super::submit::{Done, Loop};
use super::{read_metadata, remove_run, BenchSpec, Mode};
use crate::failure::JobFailure;
use crate::job::{Dir, RwMode};
use crate::result::{JobResult, LatRecord, LogEntry, VerifyResult};
use crate::runner::steps::{Step, StepOutcome};
use crate::runner::RunCtl;
use crate::sys;
use crate::worker::WorkerProgress;
use iomark_ceph::Pool;
use std::sync::atomic::Ordering;
use std::sync::Arc;

/// The job name of the removal after a write run.
pub const CLEANUP_JOB: &str = "cleanup";

/// One rados bench run on a pool.
pub struct BenchStep {
    spec: BenchSpec,
    pool: Arc<Pool>,
    /// What the write run writes (its object count filled in after it), or what it left.
    meta: Metadata,
    prefix: String,
}

impl BenchStep {
    /// A run of `spec` on `pool`; a read run reads what the write run left now, and is refused
    /// when there is nothing to read.
    pub fn new(spec: BenchSpec, pool: Arc<Pool>) -> Result<BenchStep, String> {
        let meta = match spec.mode {
            Mode::Write => Metadata {
                object_size: spec.op_size,
                objects: 0,
                pid: std::process::id() as i32,
                op_size: spec.op_size,
            },
            _ => read_metadata(&pool, spec.run_name.as_deref())?,
        };
        Ok(BenchStep {
            prefix: prefix(meta.pid),
            spec,
            pool,
            meta,
        })
    }

    /// The size of each request (and object): the write's, or the objects' a read finds.
    pub fn object_size(&self) -> u64 {
        self.meta.object_size
    }

    /// The job name of the phase (`write`, `seq`, `rand`).
    pub fn job_name(&self) -> &'static str {
        match self.spec.mode {
            Mode::Write => "write",
            Mode::Seq => "seq",
            Mode::Rand => "rand",
        }
    }

    fn dir(&self) -> (Dir, RwMode) {
        match self.spec.mode {
            Mode::Write => (Dir::Write, RwMode::Write),
            Mode::Seq => (Dir::Read, RwMode::Read),
            Mode::Rand => (Dir::Read, RwMode::RandRead),
        }
    }

    /// The phase as a job of the result.
    fn phase_job(&self, d: &Done, start_ms: u64, cpu0: &crate::result::CpuUsage) -> JobResult {
        let (dir, _) = self.dir();
        let size = self.object_size();
        let mut j = timed_job(self.job_name(), d.elapsed_ns, start_ms);
        j.cpu = sys::cpu_delta(&sys::rusage_self(), cpu0);
        j.set_measured(dir, d.ops * size, d.ops, &d.lat);
        j.series.iops = d
            .per_sec
            .iter()
            .enumerate()
            .map(|(i, &n)| LogEntry {
                t_ms: (i as u64 + 1) * 1000,
                value: n,
                ddir: dir as u8,
                bs: size,
                ..Default::default()
            })
            .collect();
        if self.spec.mode != Mode::Write {
            j.verify = Some(VerifyResult {
                method: "rados bench".into(),
                blocks_checked: d.ops,
                bad_blocks: d.bad,
                ..Default::default()
            });
        }
        if let Some(e) = &d.error {
            fail(&mut j, e);
        }
        j
    }

    /// After a write: the metadata, then the removal unless the objects are kept.
    fn after_write(&self, ops: u64, jobs: &mut Vec<JobResult>) {
        let m = Metadata {
            objects: ops as u32,
            ..self.meta
        };
        let name = metadata_object(self.spec.run_name.as_deref());
        if let Err(e) = self.pool.write_full(&name, &m.encode()) {
            fail(&mut jobs[0], &e.to_string());
            return;
        }
        if self.spec.no_cleanup {
            return;
        }
        let (t0, start_ms) = (sys::now_ns(), sys::unix_ms());
        let mut lat = LatRecord::default();
        let removed = remove_run(&self.pool, self.spec.run_name.as_deref(), &mut lat);
        let mut j = timed_job(CLEANUP_JOB, sys::now_ns().saturating_sub(t0), start_ms);
        match removed {
            Ok(n) => j.set_measured(Dir::Write, 0, n, &lat),
            Err(e) => fail(&mut j, &e),
        }
        jobs.push(j);
    }
}

/// A job of the result called `name` that ran `ns` from `start_ms`.
fn timed_job(name: &str, ns: u64, start_ms: u64) -> JobResult {
    JobResult {
        name: name.to_string(),
        runtime_us: ns / 1000,
        runtime_ms: ns / 1_000_000,
        elapsed_ms: ns / 1_000_000,
        start_unix_ms: start_ms,
        ran: true,
        ..Default::default()
    }
}

fn fail(j: &mut JobResult, reason: &str) {
    j.error = libc::EIO;
    j.failure = Some(JobFailure::Phase {
        job: j.name.clone(),
        reason: reason.to_string(),
    });
}

impl Step for BenchStep {
    fn run(&mut self, ctl: &RunCtl) -> StepOutcome {
        let (_, rw) = self.dir();
        let progress = Arc::new(WorkerProgress::new(self.job_name(), rw));
        let limit_ms = self.spec.seconds.saturating_mul(1000);
        progress.runtime_ms.store(limit_ms, Ordering::Relaxed);
        if let Ok(mut w) = ctl.workers.lock() {
            w.push(progress.clone());
        }
        let (start_ms, cpu0) = (sys::unix_ms(), sys::rusage_self());
        let shape = (
            self.spec.threads.max(1),
            self.object_size(),
            self.meta.objects as u64,
        );
        let done = Loop::new(
            self.spec.mode,
            self.spec.seconds,
            &self.pool,
            shape,
            &self.prefix,
            &progress,
        )
        .go(&ctl.stop);
        progress
            .elapsed_ms
            .store(done.elapsed_ns / 1_000_000, Ordering::Relaxed);
        let mut jobs = vec![self.phase_job(&done, start_ms, &cpu0)];
        if self.spec.mode == Mode::Write && done.error.is_none() {
            self.after_write(done.ops, &mut jobs);
        }
        StepOutcome::of_jobs(jobs)
    }
}
