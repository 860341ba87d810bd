//! The runner: expands jobs into clones, resolves and checks their targets before any I/O, lays
//! out files, starts one worker thread per clone in stonewall order, and collects the results.

use crate::engines::Capabilities;
mod error;
#[cfg(test)]
mod exec_gate_tests;
mod notice;
mod plan;
mod plan_ceph;
mod plan_nbd;
mod region;
mod start;
pub mod steps;
mod stops;
mod unlink;

pub use crate::failure::JobFailure;
pub use crate::note::Note;
pub use crate::worker::{FlightNow, WorkerProgress, WorkerState};
pub use error::RunError;
pub use notice::Event;
pub use unlink::unlink_refused;

use crate::job::RunPlan;
use crate::result::{JobResult, RunResult};
use crate::sys;
use crate::targets;
use plan::{check_free_space, claim_devices, plan_units, Layout, Unit};
use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// Shared control of a run: the stop flag (Ctrl-C, exitall), live progress for a status
/// display, and a sink for progress events (the CLI words them on stderr).
pub struct RunCtl {
    pub stop: Arc<AtomicBool>,
    /// Set by the front end when the stop came from a signal.
    pub interrupted: AtomicBool,
    pub workers: Mutex<Vec<Arc<WorkerProgress>>>,
    /// A periodic reporter reads the workers' snapshots (`--status-interval`): finished workers
    /// leave their final result for it.
    pub keep_snapshots: AtomicBool,
    /// Bytes laid out so far (for a "laying out" progress display).
    pub layout_bytes: AtomicU64,
    on_event: Box<dyn Fn(&Event) + Send + Sync>,
    /// Called before each group of jobs starts (the first group, then each stonewall), with
    /// the group's number from 0, after the files are laid out; it may wait (many processes
    /// starting each group together). `false` stops the run there, as a stop request does.
    group_gate: Option<GroupGate>,
    /// The command line the run was started with, recorded in its result (the front end knows
    /// it; empty when none is given).
    pub command_line: Vec<String>,
}

/// See [`RunCtl::with_group_gate`].
pub(crate) type GroupGate = Box<dyn Fn(usize) -> bool + Send + Sync>;

impl RunCtl {
    pub fn new(on_event: impl Fn(&Event) + Send + Sync + 'static) -> Self {
        RunCtl {
            stop: Arc::new(AtomicBool::new(false)),
            interrupted: AtomicBool::new(false),
            workers: Mutex::new(Vec::new()),
            keep_snapshots: AtomicBool::new(false),
            layout_bytes: AtomicU64::new(0),
            on_event: Box::new(on_event),
            group_gate: None,
            command_line: Vec::new(),
        }
    }
    /// The command line to record in the run's result.
    pub fn with_command_line(mut self, line: Vec<String>) -> Self {
        self.command_line = line;
        self
    }
    /// A gate every group of jobs passes before it starts (see the field): how processes that
    /// run the same plan start each group at once.
    pub fn with_group_gate(mut self, gate: impl Fn(usize) -> bool + Send + Sync + 'static) -> Self {
        self.group_gate = Some(Box::new(gate));
        self
    }
    pub fn quiet() -> Self {
        Self::new(|_| {})
    }
    fn event(&self, e: &Event) {
        (self.on_event)(e)
    }
}

/// Check a plan without doing any I/O (everything `run` would refuse up front).
pub fn check(plan: &RunPlan) -> Result<Vec<Note>, RunError> {
    let (units, layouts, notes) = plan_units(plan)?;
    claim_devices(plan, &units)?;
    check_free_space(plan, &layouts)?;
    Ok(notes)
}

/// Run a plan to completion.
pub fn run(plan: &RunPlan, ctl: &RunCtl) -> Result<RunResult, RunError> {
    let start_unix_ms = sys::unix_ms();
    let (units, layouts, plan_notes) = plan_units(plan)?;
    // Held until the run ends: nothing mounts or builds on a device while it is written.
    let claims = claim_devices(plan, &units)?;
    check_free_space(plan, &layouts)?;
    let pre_existing = pre_existing_files(plan, &units);
    truncate_files(plan, &units)?;
    remove_stale_sockets(plan)?;
    let created = lay_out(&layouts, ctl)?;
    // A stop during layout still ends in a result: every job is reported as not run (zero
    // I/O), so the outputs stay valid and say the run was interrupted.
    let mut plan_notes = plan_notes;
    if ctl.stop.load(Ordering::Relaxed) {
        plan_notes.push(Note::StoppedDuringLayout);
    }
    let disks = disks_under(plan, &units);
    let sampler = targets::DiskStatsSampler::start(&disks);
    let results = start::start_workers(plan, ctl, units)?;
    let disk_util = sampler.finish();
    drop(claims);
    unlink_files(plan, &results, &pre_existing, &mut plan_notes);
    let _ = created;
    let jobs: Vec<JobResult> = results.into_iter().map(|r| r.unwrap_or_default()).collect();
    let mut notes = plan_notes;
    for j in &jobs {
        notes.extend(j.notes.iter().cloned());
    }
    notes.dedup();
    Ok(RunResult {
        disk_util,
        interrupted: ctl.interrupted.load(Ordering::Relaxed),
        notes,
        command_line: ctl.command_line.clone(),
        ..RunResult::assemble(plan, start_unix_ms, sys::host_info(), jobs)
    })
}

/// Files of unlink jobs that exist before the run: unlink keeps them.
fn pre_existing_files(plan: &RunPlan, units: &[Unit]) -> HashSet<PathBuf> {
    units
        .iter()
        .filter(|u| plan.jobs[u.job_index].unlink && !plan.allow_unlink_existing)
        .flat_map(|u| u.files.iter())
        .filter(|f| std::fs::symlink_metadata(&f.path).is_ok())
        .map(|f| f.path.clone())
        .collect()
}

/// Cut the files of jobs that start from a truncated file (`truncate_to`: GNU dd's output),
/// through the gate of named files, after every check of the run passed.
fn truncate_files(plan: &RunPlan, units: &[Unit]) -> Result<(), RunError> {
    for u in units {
        let job = &plan.jobs[u.job_index];
        let Some(size) = job.truncate_to else {
            continue;
        };
        for f in &u.files {
            steps::truncate_named_file(&f.path, size).map_err(|e| e.for_job(&job.name))?;
        }
    }
    Ok(())
}

/// Remove the sockets earlier runs left at the paths of unix-socket listeners, through the
/// gate of named files, after every check of the run passed.
fn remove_stale_sockets(plan: &RunPlan) -> Result<(), RunError> {
    for job in &plan.jobs {
        if let Some(path) = crate::engines::net::listen_path(job) {
            steps::remove_stale_socket(path).map_err(|e| e.for_job(&job.name))?;
        }
    }
    Ok(())
}

/// Lay out files (fio's "Laying out IO file"), announcing each job once, until the run is
/// stopped; the files that did not exist before.
fn lay_out(layouts: &[Layout], ctl: &RunCtl) -> Result<Vec<PathBuf>, RunError> {
    let mut created: Vec<PathBuf> = Vec::new();
    // One line per job, however many files it lays out.
    let mut announced: Vec<&str> = Vec::new();
    for l in layouts {
        if ctl.stop.load(Ordering::Relaxed) {
            break;
        }
        let existed = l.path.exists();
        if !announced.contains(&l.job.as_str()) {
            announced.push(&l.job);
            let mine = layouts.iter().filter(|o| o.job == l.job);
            ctl.event(&Event::LayingOut {
                job: l.job.clone(),
                path: l.path.clone(),
                files: mine.clone().count() as u64,
                bytes: mine.map(|o| o.size).sum(),
            });
        }
        match targets::layout_file_until(
            &l.path,
            l.size,
            l.fallocate,
            l.fill,
            Some(&ctl.layout_bytes),
            Some(&ctl.stop),
        ) {
            Ok(_) => {
                if !existed {
                    created.push(l.path.clone());
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => break,
            Err(e) => {
                return Err(RunError::LayoutFailed {
                    job: l.job.clone(),
                    path: l.path.clone(),
                    bytes: l.size,
                    source: e,
                })
            }
        }
    }
    Ok(created)
}

/// Disk stats for every device under the targets (of jobs that use a disk), each once.
fn disks_under(plan: &RunPlan, units: &[Unit]) -> Vec<String> {
    let mut disks: Vec<String> = Vec::new();
    let mut lookup = targets::DiskLookup::default();
    for u in units
        .iter()
        .filter(|u| !plan.jobs[u.job_index].ioengine.is_diskless())
    {
        for f in &u.files {
            for d in lookup.disks_for(&f.path) {
                if !disks.contains(&d) {
                    disks.push(d);
                }
            }
        }
    }
    disks
}

/// Remove files of jobs that asked for it: regular files this run created (or any regular
/// file with allow_unlink_existing); one that existed before is kept, with a note.
fn unlink_files(
    plan: &RunPlan,
    results: &[Option<JobResult>],
    pre_existing: &HashSet<PathBuf>,
    plan_notes: &mut Vec<Note>,
) {
    for (ji, job) in plan.jobs.iter().enumerate() {
        if job.unlink {
            for r in results.iter().flatten().filter(|r| r.job_index == ji) {
                for t in &r.targets {
                    let path = PathBuf::from(&t.path);
                    let regular = std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_file());
                    if t.kind != "file" || !regular {
                        continue;
                    }
                    // A loop device's backing file is never removed, whatever is allowed.
                    let backs_loop = !targets::loops_backed_by(&path).is_empty();
                    if pre_existing.contains(&path) || backs_loop {
                        let job = job.name.clone();
                        let n = if backs_loop {
                            Note::KeptBackingFile { job, path }
                        } else {
                            Note::KeptExisting { job, path }
                        };
                        if !plan_notes.contains(&n) {
                            plan_notes.push(n);
                        }
                    } else {
                        let _ = std::fs::remove_file(&path);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::job::{BlockSize, EngineKind, JobSpec, PerDir, RwMode, SizeSpec};
    use std::path::Path;

    fn scratch(tag: &str) -> PathBuf {
        let p = std::env::temp_dir().join(format!("iomark-runner-{}-{tag}", std::process::id()));
        std::fs::create_dir_all(&p).unwrap();
        p
    }

    fn job(name: &str, file: &Path, rw: RwMode, engine: EngineKind, depth: u32) -> JobSpec {
        JobSpec {
            name: name.into(),
            rw,
            filenames: vec![file.to_path_buf()],
            size: Some(SizeSpec::Bytes(4 << 20)),
            bs: PerDir::all(BlockSize::Fixed(4096)),
            ioengine: engine,
            iodepth: depth,
            iodepth_low: depth,
            ..Default::default()
        }
    }

    #[test]
    fn size_bounded_jobs_move_exactly_size() {
        let d = scratch("size");
        let f = d.join("f");
        for engine in [
            EngineKind::Psync,
            EngineKind::Libaio,
            EngineKind::PosixAio,
            EngineKind::IoUring,
            EngineKind::Null,
        ] {
            for rw in [
                RwMode::Write,
                RwMode::RandRead,
                RwMode::RandWrite,
                RwMode::Read,
                RwMode::RandRw,
            ] {
                let plan = RunPlan {
                    jobs: vec![job("j", &f, rw, engine, 8)],
                    ..Default::default()
                };
                let r = run(&plan, &RunCtl::quiet()).unwrap();
                let j = &r.jobs[0];
                assert_eq!(j.error, 0, "{engine:?} {rw:?}: {:?}", j.failure);
                let bytes = j.dirs.read.io_bytes + j.dirs.write.io_bytes;
                assert_eq!(bytes, 4 << 20, "{engine:?} {rw:?}");
                let n = j.dirs.read.clat.hist.count() + j.dirs.write.clat.hist.count();
                assert_eq!(n, 1024, "{engine:?} {rw:?}");
                // The runtime in milliseconds is the one in microseconds rounded up, as fio
                // counts it: I/O done in under a millisecond (the null engine) took 1 ms, so
                // no rate derived from it is 0 or infinite.
                assert_eq!(
                    j.runtime_us.div_ceil(1000),
                    j.runtime_ms,
                    "{engine:?} {rw:?}"
                );
                assert!(j.runtime_us > 0, "{engine:?} {rw:?}");
                for d in [&j.dirs.read, &j.dirs.write] {
                    assert_eq!(d.total_ios > 0, d.runtime_ms > 0, "{engine:?} {rw:?}");
                }
            }
        }
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn grow_file_writes_a_new_file_without_laying_it_out() {
        let d = scratch("grow");
        for grow in [true, false] {
            let f = d.join(format!("f{grow}"));
            let mut j = job("g", &f, RwMode::Write, EngineKind::Sync, 1);
            j.grow_file = grow;
            let plan = RunPlan {
                jobs: vec![j],
                ..Default::default()
            };
            let laid = Arc::new(Mutex::new(Vec::new()));
            let l = laid.clone();
            let ctl = RunCtl::new(move |e| {
                let Event::LayingOut { bytes, .. } = e;
                l.lock().unwrap().push(*bytes);
            });
            let r = run(&plan, &ctl).unwrap();
            assert_eq!(r.jobs[0].error, 0, "{:?}", r.jobs[0].failure);
            assert_eq!(r.jobs[0].dirs.write.io_bytes, 4 << 20);
            assert_eq!(std::fs::metadata(&f).unwrap().len(), 4 << 20);
            let want: Vec<u64> = vec![if grow { 0 } else { 4 << 20 }];
            assert_eq!(*laid.lock().unwrap(), want, "grow={grow}");
        }
        std::fs::remove_dir_all(&d).unwrap();
    }

    fn verify_job(file: &Path, only: bool, loops: u32) -> JobSpec {
        let mut j = job("v", file, RwMode::RandWrite, EngineKind::IoUring, 16);
        j.size = Some(SizeSpec::Bytes(1 << 20));
        j.loops = loops;
        j.norandommap = true;
        j.verify = Some(crate::job::VerifySpec {
            only,
            ..Default::default()
        });
        j
    }

    #[test]
    fn verify_finds_exactly_the_damaged_blocks() {
        let d = scratch("verify");
        let f = d.join("f");
        let run1 = |j: JobSpec| {
            run(
                &RunPlan {
                    jobs: vec![j],
                    ..Default::default()
                },
                &RunCtl::quiet(),
            )
            .unwrap()
        };
        // Write twice over (generation 2 everywhere that was hit twice), verify: clean.
        let r = run1(verify_job(&f, false, 2));
        let v = r.jobs[0].verify.clone().unwrap();
        assert_eq!(r.jobs[0].error, 0, "{:?}", v.failures.first());
        assert_eq!(v.bad_blocks, 0);
        assert!(v.blocks_checked > 0);
        // The same replayed without writing: clean.
        let r = run1(verify_job(&f, true, 2));
        assert_eq!(r.jobs[0].verify.as_ref().unwrap().bad_blocks, 0);
        // An older copy of a block: the state after one pass, written to another file.
        let g = d.join("g");
        let mut once = verify_job(&g, false, 1);
        once.verify.as_mut().unwrap().do_verify = false;
        once.filenames = vec![g.clone()];
        let _ = run1(once);
        let mut data = std::fs::read(&f).unwrap();
        let old = std::fs::read(&g).unwrap();
        let bs = 4096;
        let ours = |b: &[u8]| crate::verify::describe(b).filter(|h| h.magic == 0x4b4d_4f49);
        // Find a block whose generation differs between the two (written in both passes).
        let stale = (0..256)
            .find(|&b| {
                let a = ours(&data[b * bs..]).map(|h| h.generation);
                let o = ours(&old[b * bs..]).map(|h| h.generation);
                a.is_some() && o.is_some() && a != o
            })
            .expect("a block written twice");
        data[stale * bs..(stale + 1) * bs].copy_from_slice(&old[stale * bs..(stale + 1) * bs]);
        // A flipped byte in another block, and a block copied over its neighbour.
        let written: Vec<usize> = (0..256)
            .filter(|&b| b != stale && ours(&data[b * bs..]).is_some())
            .collect();
        let flip = written[3];
        data[flip * bs + 1000] ^= 0x40;
        let (src, dst) = (written[10], written[11]);
        let copy = data[src * bs..(src + 1) * bs].to_vec();
        data[dst * bs..(dst + 1) * bs].copy_from_slice(&copy);
        std::fs::write(&f, &data).unwrap();
        let r = run1(verify_job(&f, true, 2));
        let v = r.jobs[0].verify.clone().unwrap();
        let mut found: Vec<(u64, String)> = v
            .failures
            .iter()
            .map(|x| (x.offset, x.check.clone()))
            .collect();
        found.sort();
        let mut want = vec![
            ((stale * bs) as u64, "Stale".to_string()),
            ((flip * bs) as u64, "DataChecksum".to_string()),
            ((dst * bs) as u64, "Misdirected".to_string()),
        ];
        want.sort();
        assert_eq!(found, want);
        assert_eq!(r.jobs[0].error, libc::EILSEQ);
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn every_group_passes_the_gate_once_and_a_closed_gate_stops_the_run() {
        let d = scratch("gate");
        let mut jobs: Vec<JobSpec> = (0..3)
            .map(|i| {
                job(
                    &format!("j{i}"),
                    &d.join("f"),
                    RwMode::Read,
                    EngineKind::Null,
                    1,
                )
            })
            .collect();
        jobs[2].stonewall = true;
        let plan = RunPlan {
            jobs,
            ..Default::default()
        };
        for open_groups in [2, 1] {
            let seen = Arc::new(Mutex::new(Vec::new()));
            let s = seen.clone();
            let ctl = RunCtl::quiet().with_group_gate(move |g| {
                s.lock().unwrap().push(g);
                g < open_groups
            });
            let r = run(&plan, &ctl).unwrap();
            assert_eq!(*seen.lock().unwrap(), vec![0, 1]);
            let ran: Vec<bool> = r.jobs.iter().map(|j| j.ran).collect();
            assert_eq!(ran, vec![true, true, open_groups == 2]);
        }
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn refuses_bs_larger_than_region() {
        let d = scratch("bs");
        let mut j = job("j", &d.join("f"), RwMode::Read, EngineKind::Psync, 1);
        j.size = Some(SizeSpec::Bytes(4096));
        j.bs = PerDir::all(BlockSize::Fixed(8192));
        let plan = RunPlan {
            jobs: vec![j],
            ..Default::default()
        };
        assert!(run(&plan, &RunCtl::quiet()).is_err());
        assert!(!d.join("f").exists());
        std::fs::remove_dir_all(&d).unwrap();
    }
}
