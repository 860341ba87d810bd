//! Starting the workers: one thread per clone in plan order, each group of jobs (the first,
//! then each stonewall) through the run's gate after the groups before it finished, `wait_for`
//! honoured, and every clone's result collected.

use super::plan::Unit;
use super::stops::Stops;
use super::{JobFailure, RunCtl, RunError, WorkerProgress};
use crate::flow::{FlowSeat, Flows};
use crate::job::{JobSpec, RunPlan};
use crate::result::JobResult;
use crate::rng::Rng;
use crate::steady_group::SteadyGroup;
use crate::sys;
use crate::worker::{run_worker, WorkerSetup};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::thread::JoinHandle;

/// Start every clone's worker in order and collect the results (None: a clone never started,
/// which cannot be once this returns). A stop leaves the clones not yet started as not run.
pub(super) fn start_workers(
    plan: &RunPlan,
    ctl: &RunCtl,
    units: Vec<Unit>,
) -> Result<Vec<Option<JobResult>>, RunError> {
    // Start workers in order, honouring stonewall and wait_for.
    let mut w = Workers {
        results: (0..units.len()).map(|_| None).collect(),
        running: Vec::new(),
        finished_jobs: vec![false; plan.jobs.len()],
        unit_job: units.iter().map(|u| u.job_index).collect(),
    };
    let threads = units.len() as u32;
    let stops = Stops::new(
        units
            .iter()
            .map(|u| plan.jobs[u.job_index].group_id)
            .collect(),
        stonewall_sections(plan, &units),
        ctl.stop.clone(),
    );
    let watcher = stops.watch();
    // Every job of a flow counts in its weight from the start (also jobs of later groups).
    let mut flows = Flows::default();
    let mut seats = flow_seats(plan, &units, &mut flows);
    let mut steady = steady_groups(plan, &units, &stops);
    let judged_by: Vec<Option<Arc<SteadyGroup>>> = steady
        .iter()
        .map(|s| s.as_ref().map(|(g, _)| g.clone()))
        .collect();
    // The ranges in flight of the jobs that serialize overlapping I/O on submit threads.
    let overlap = Arc::new(crate::offload::InFlight::default());
    let zones = Arc::new(crate::zbd::Registry::default());
    let mut last_job = usize::MAX;
    let mut group = 0;
    for (ui, unit) in units.into_iter().enumerate() {
        let job = &plan.jobs[unit.job_index];
        if unit.job_index != last_job {
            let new_group = last_job == usize::MAX || job.stonewall;
            last_job = unit.job_index;
            if job.stonewall && !w.running.is_empty() {
                w.join_all();
            }
            if new_group {
                pass_gate(ctl, &stops, group);
                group += 1;
            }
            w.wait_for(plan, job, unit.job_index);
        }
        if ctl.stop.load(Ordering::Relaxed) {
            w.results[ui] = Some(not_run(job, &unit));
            continue;
        }
        let progress = register_progress(ctl, job);
        let mut spec = as_run(job, plan);
        crate::engines::net::for_clone(&mut spec, unit.clone);
        let setup = WorkerSetup {
            spec,
            job_index: unit.job_index,
            clone: unit.clone,
            thread_number: unit.thread_number,
            threads,
            files: unit.files,
            io_bytes_per_loop: unit.io_bytes_per_loop,
            stop: stops.flag(ui),
            progress,
            flow: seats[ui].take(),
            overlap: overlap.clone(),
            zones: zones.clone(),
            steady_group: steady[ui].take(),
        };
        let h = spawn_worker(job, ui, setup, &stops)?;
        w.running.push((ui, h));
    }
    w.join_all();
    drop(watcher);
    // Every clone of a group that judged steady state together carries the group's final
    // window (a clone that finished first took it before the last round).
    for (r, g) in w.results.iter_mut().zip(judged_by) {
        if let (Some(r), Some(g)) = (r.as_mut().filter(|r| r.ran), g) {
            r.steady = Some(g.result());
        }
    }
    Ok(w.results)
}

/// The workers started and what came of them.
struct Workers {
    /// Each clone's result, once its worker was joined (or it was not run).
    results: Vec<Option<JobResult>>,
    /// The workers running, with their clone's index.
    running: Vec<(usize, JoinHandle<JobResult>)>,
    /// Per job: its clones were waited for (`wait_for`).
    finished_jobs: Vec<bool>,
    /// Each clone's job.
    unit_job: Vec<usize>,
}

impl Workers {
    /// Wait for every running worker and keep its result (a panicked one's says so).
    fn join_all(&mut self) {
        for (i, h) in self.running.drain(..) {
            let r = h.join().unwrap_or_else(|_| JobResult {
                error: libc::EIO,
                failure: Some(JobFailure::Panicked),
                ..Default::default()
            });
            self.results[i] = Some(r);
        }
    }

    /// `wait_for`: before the clones of `job` (at `job_index`) start, wait for those of the
    /// earlier job it names, unless they were waited for already.
    fn wait_for(&mut self, plan: &RunPlan, job: &JobSpec, job_index: usize) {
        if let Some(w) = &job.wait_for {
            if let Some(target_ji) = plan.jobs.iter().position(|j| &j.name == w) {
                if target_ji < job_index && !self.finished_jobs[target_ji] {
                    let mut keep = Vec::new();
                    for (i, h) in self.running.drain(..) {
                        if self.unit_job[i] == target_ji {
                            self.results[i] = Some(h.join().unwrap_or_default());
                        } else {
                            keep.push((i, h));
                        }
                    }
                    self.running = keep;
                    self.finished_jobs[target_ji] = true;
                }
            }
        }
    }
}

/// Each clone's section: the clones released together, from one stonewall to the next.
fn stonewall_sections(plan: &RunPlan, units: &[Unit]) -> Vec<u32> {
    let mut section = 0;
    units
        .iter()
        .enumerate()
        .map(|(i, u)| {
            let first_clone = i > 0 && units[i - 1].job_index != u.job_index;
            if first_clone && plan.jobs[u.job_index].stonewall {
                section += 1;
            }
            section
        })
        .collect()
}

/// Each clone's seat in its job's flow, when the job has one (joined in `flows`).
fn flow_seats(plan: &RunPlan, units: &[Unit], flows: &mut Flows) -> Vec<Option<FlowSeat>> {
    units
        .iter()
        .map(|u| {
            let f = plan.jobs[u.job_index].flow;
            (f.weight > 0).then(|| flows.join(f.id, f.weight))
        })
        .collect()
}

/// Each clone's seat in its reporting group's steady-state window, when its job judges steady
/// state over the group (`group_reporting`): the clones of all such jobs of a group share one
/// window, judged by the first one's criterion.
fn steady_groups(
    plan: &RunPlan,
    units: &[Unit],
    stops: &Stops,
) -> Vec<Option<(Arc<SteadyGroup>, usize)>> {
    let judged = |u: &Unit| {
        let j = &plan.jobs[u.job_index];
        j.steady
            .as_ref()
            .filter(|_| j.group_reporting)
            .map(|sp| (j.group_id, sp))
    };
    let mut seats: Vec<Option<(Arc<SteadyGroup>, usize)>> = units.iter().map(|_| None).collect();
    for (first, u) in units.iter().enumerate() {
        let Some((gid, spec)) = judged(u) else {
            continue;
        };
        if seats[first].is_some() {
            continue;
        }
        let members: Vec<usize> = (first..units.len())
            .filter(|&i| judged(&units[i]).is_some_and(|(g, _)| g == gid))
            .collect();
        let flags = members.iter().map(|&i| stops.flag(i)).collect();
        let group = Arc::new(SteadyGroup::new(spec.clone(), flags));
        for (m, &i) in members.iter().enumerate() {
            seats[i] = Some((group.clone(), m));
        }
    }
    seats
}

/// A new group of jobs starts: through the run's gate (a closed gate stops the run), then its
/// section is released.
fn pass_gate(ctl: &RunCtl, stops: &Stops, group: usize) {
    if let Some(gate) = &ctl.group_gate {
        if !gate(group) {
            ctl.stop.store(true, Ordering::Relaxed);
        }
    }
    stops.release(group as u32);
}

/// The result of a clone the run stopped before it started.
fn not_run(job: &JobSpec, unit: &Unit) -> JobResult {
    JobResult {
        name: job.name.clone(),
        job_index: unit.job_index,
        clone: unit.clone,
        thread_number: unit.thread_number,
        group_id: job.group_id,
        ran: false,
        ..Default::default()
    }
}

/// A clone's live progress, registered with the run's control for status displays.
fn register_progress(ctl: &RunCtl, job: &JobSpec) -> Arc<WorkerProgress> {
    let progress = Arc::new(WorkerProgress::new(&job.name, job.rw));
    progress.keep_final.store(
        ctl.keep_snapshots.load(Ordering::Relaxed),
        Ordering::Relaxed,
    );
    ctl.workers.lock().unwrap().push(progress.clone());
    progress
}

/// Start clone `ui`'s worker thread: it waits out the job's start delay (unless stopped), runs
/// the worker, then stops what the job's end asks to stop.
/// The job as its worker runs it: when the plan asks for a report's interval series
/// (`RunPlan::series_ms`) and the job keeps no log of its own, its worker keeps every series at
/// that interval. Only the worker's copy changes: the plan in the result keeps the job's own
/// log settings, so no log file is written that was not asked for.
fn as_run(job: &JobSpec, plan: &RunPlan) -> JobSpec {
    let mut spec = job.clone();
    if let Some(ms) = plan.series_ms.filter(|_| !job.logs.any()) {
        let name = Some(String::from("series"));
        spec.logs.bw_log = name.clone();
        spec.logs.iops_log = name.clone();
        spec.logs.lat_log = name.clone();
        spec.logs.hist_log = name;
        spec.logs.avg_msec = ms;
        spec.logs.hist_msec = ms;
    }
    spec
}

fn spawn_worker(
    job: &JobSpec,
    ui: usize,
    setup: WorkerSetup,
    stops: &Arc<Stops>,
) -> Result<JoinHandle<JobResult>, RunError> {
    let stop = stops.flag(ui);
    let unit_stops = stops.clone();
    let spec = job.clone();
    let delay = startdelay(job, setup.thread_number);
    std::thread::Builder::new()
        .name(format!("iomark-{}", job.name))
        .spawn(move || {
            if !delay.is_zero() {
                let until = sys::now_ns() + delay.as_nanos() as u64;
                while sys::now_ns() < until && !stop.load(Ordering::Relaxed) {
                    std::thread::sleep(std::time::Duration::from_millis(5));
                }
            }
            let r = run_worker(setup);
            unit_stops.finished(ui, &spec, r.error != 0);
            r
        })
        .map_err(RunError::ThreadSpawn)
}

/// The job's start delay for this thread: drawn from its range, or its fixed delay.
fn startdelay(job: &JobSpec, thread_number: u32) -> std::time::Duration {
    let (lo, hi) = job.startdelay;
    if hi > lo {
        let mut r = Rng::new(crate::rng::job_seed(
            job.randseed,
            job.repeatable_seeds(),
            thread_number,
            98,
        ));
        let span = (hi - lo).as_nanos() as u64;
        lo + std::time::Duration::from_nanos(r.below(span + 1))
    } else {
        lo
    }
}
