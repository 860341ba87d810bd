//! The runner: expands jobs into clones, resolves and checks their targets before any I/O, lays
//! out files, starts one worker thread per clone in stonewall order, and collects the results.

use crate::job::{EngineKind, JobSpec, RunPlan, SizeSpec};
use crate::result::{JobResult, RunResult};
use crate::rng::Rng;
use crate::sys;
use crate::target;
use crate::worker::{run_worker, WorkerFile, WorkerProgress, WorkerSetup};
use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// Shared control of a run: the stop flag (Ctrl-C, exitall), live progress for a status
/// display, and a sink for informational messages (the CLI sends them to stderr).
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
    info: Box<dyn Fn(&str) + Send + Sync>,
}

impl RunCtl {
    pub fn new(info: impl Fn(&str) + Send + Sync + 'static) -> Self {
        RunCtl {
            stop: Arc::new(AtomicBool::new(false)),
            interrupted: AtomicBool::new(false),
            workers: Mutex::new(Vec::new()),
            keep_snapshots: AtomicBool::new(false),
            layout_bytes: AtomicU64::new(0),
            info: Box::new(info),
        }
    }
    pub fn quiet() -> Self {
        Self::new(|_| {})
    }
    pub fn info(&self, msg: &str) {
        (self.info)(msg)
    }
}

/// A run refused before any I/O.
#[derive(Debug, Clone, PartialEq)]
pub struct RunError(pub String);

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}
impl std::error::Error for RunError {}

/// One clone, fully resolved.
struct Unit {
    job_index: usize,
    clone: u32,
    thread_number: u32,
    files: Vec<WorkerFile>,
    io_bytes_per_loop: u64,
}

/// A file to create or extend before the run.
struct Layout {
    path: PathBuf,
    size: u64,
    fill: bool,
    job: String,
    fallocate: crate::job::FallocateMode,
    /// Left sparse and not counted by the free-space check (fill_device).
    sparse: bool,
}

/// Resolve every clone's files and check everything that can be checked before I/O.
/// Clones, the files to lay out, and notes for the user.
type Planned = (Vec<Unit>, Vec<Layout>, Vec<String>);

fn plan_units(plan: &RunPlan) -> Result<Planned, RunError> {
    let mut units = Vec::new();
    let mut layouts: BTreeMap<PathBuf, Layout> = BTreeMap::new();
    let mut notes = Vec::new();
    let mut thread_number = 0u32;
    for (ji, job) in plan.jobs.iter().enumerate() {
        if (plan.readonly || job.readonly) && job.writes() {
            return Err(RunError(format!(
                "{}: refusing to run a job that writes (rw={}, ioengine={}) with --readonly",
                job.name,
                job.rw.fio_name(),
                job.ioengine.fio_name()
            )));
        }
        for clone in 0..job.numjobs.max(1) {
            let unit = plan_clone(
                plan,
                job,
                ji,
                clone,
                thread_number,
                &mut layouts,
                &mut notes,
            )?;
            units.push(unit);
            thread_number += 1;
        }
    }
    Ok((units, layouts.into_values().collect(), notes))
}

fn expand_name(fmt: &str, job: &JobSpec, clone: u32, filenum: u32) -> String {
    fmt.replace("$jobname", &job.name)
        .replace("$jobnum", &clone.to_string())
        .replace("$filenum", &filenum.to_string())
        .replace("$clientuid", "0")
}

fn plan_clone(
    plan: &RunPlan,
    job: &JobSpec,
    ji: usize,
    clone: u32,
    thread_number: u32,
    layouts: &mut BTreeMap<PathBuf, Layout>,
    notes: &mut Vec<String>,
) -> Result<Unit, RunError> {
    let name = &job.name;
    let paths: Vec<PathBuf> = if !job.filenames.is_empty() {
        job.filenames.clone()
    } else {
        let dir = if job.directories.is_empty() {
            PathBuf::from(".")
        } else {
            job.directories[clone as usize % job.directories.len()].clone()
        };
        (0..job.nrfiles.max(1))
            .map(|f| dir.join(expand_name(&job.filename_format, job, clone, f)))
            .collect()
    };
    let nfiles = paths.len() as u64;
    let mut size_rng = Rng::new(crate::rng::job_seed(job.randseed, true, thread_number, 99));
    let writes = job.writes();
    let meta = job.ioengine.is_metadata();
    let diskless = job.ioengine.is_diskless();
    let mut files = Vec::with_capacity(paths.len());
    for path in paths {
        let probe = target::probe(&path).ok();
        let kind = probe.as_ref().map(|p| p.kind.as_str()).unwrap_or("missing");
        if kind == "directory" {
            return Err(RunError(format!(
                "{name}: {} is a directory; use directory= for a place to create files, or filename= for a file or device",
                path.display()
            )));
        }
        if kind == "missing" && job.verify.as_ref().is_some_and(|v| v.only) {
            return Err(RunError(format!(
                "{name}: verify_only checks data an earlier run wrote, but {} does not exist",
                path.display()
            )));
        }
        let is_block = kind == "block";
        let is_char = kind == "char";
        let real_size = probe
            .as_ref()
            .map(|p| p.size_bytes)
            .filter(|_| kind != "missing");
        let lbs = probe
            .as_ref()
            .map(|p| p.logical_block_size)
            .filter(|&b| b > 0)
            .or_else(|| {
                path.parent()
                    .and_then(|d| {
                        target::probe(if d.as_os_str().is_empty() {
                            Path::new(".")
                        } else {
                            d
                        })
                        .ok()
                    })
                    .map(|p| p.logical_block_size)
            })
            .unwrap_or(512)
            .max(1);
        // Per-file size.
        let per_file = if let Some((lo, hi)) = job.filesize {
            if hi > lo {
                lo + size_rng.below(hi - lo + 1)
            } else {
                lo
            }
        } else {
            match job.size {
                Some(SizeSpec::Bytes(b)) => b / nfiles.max(1),
                Some(SizeSpec::Percent(p)) => match real_size {
                    Some(r) => ((r as f64) * p / 100.0) as u64,
                    None => {
                        return Err(RunError(format!(
                        "{name}: size={p}% needs an existing file or device, but {} does not exist",
                        path.display()
                    )))
                    }
                },
                None if job.fill_device && !is_block && !is_char => {
                    // The free space of the filesystem (plus what the file already holds),
                    // shared by the job's files: the writes meet ENOSPC before the end.
                    let dir = path
                        .parent()
                        .filter(|d| !d.as_os_str().is_empty())
                        .unwrap_or(Path::new("."));
                    let free = target::free_space(dir).map_err(|e| {
                        RunError(format!(
                            "{name}: fill_device: cannot read the free space of {}: {e}",
                            dir.display()
                        ))
                    })?;
                    // A margin past the free space makes ENOSPC, not the region, end the job.
                    (free + free / 16 + (1 << 20) + real_size.unwrap_or(0)) / nfiles.max(1)
                }
                None => match real_size {
                    Some(r) if !is_char => r,
                    _ if meta => 0,
                    _ => {
                        return Err(RunError(format!(
                            "{name}: no size given for {} (it {}); set size= or filesize=",
                            path.display(),
                            if is_char {
                                "is a character device"
                            } else {
                                "does not exist"
                            }
                        )))
                    }
                },
            }
        };
        let base = real_size.unwrap_or(per_file);
        let offset = job.offset.resolve(base) + job.offset_increment.resolve(base) * clone as u64;
        // Without an explicit size, an existing file or device is used from the offset to its end.
        let per_file = if job.size.is_none() && job.filesize.is_none() && real_size.is_some() {
            per_file.saturating_sub(offset)
        } else {
            per_file
        };
        let (region_start, region_len, size) = if is_block {
            let r = real_size.unwrap_or(0);
            if offset >= r {
                return Err(RunError(format!(
                    "{name}: offset {offset} is beyond the end of {} ({r} bytes)",
                    path.display()
                )));
            }
            (offset, per_file.min(r - offset), r)
        } else {
            (
                offset,
                per_file,
                real_size.unwrap_or(0).max(offset + per_file),
            )
        };
        if !meta && region_len == 0 {
            return Err(RunError(format!(
                "{name}: the I/O region of {} is empty (size {per_file}, offset {offset})",
                path.display()
            )));
        }
        let min_bs = job.min_bs();
        if !meta && min_bs > region_len {
            return Err(RunError(format!(
                "{name}: bs ({min_bs}) is larger than the I/O region of {} ({region_len} bytes)",
                path.display()
            )));
        }
        if job.direct && !is_char && !meta && !diskless {
            check_direct_alignment(job, &path, lbs, region_start)?;
        }
        if writes && is_block && !diskless {
            check_device_write(plan, job, &path)?;
        }
        // Layout of regular files that do not exist or are too small.
        let need = region_start + region_len;
        let is_file = !is_block && !is_char;
        if is_file && !diskless && !(meta && job.ioengine == EngineKind::FileCreate) {
            let too_small = real_size.is_none_or(|r| r < need);
            if too_small {
                if plan.readonly || job.readonly {
                    return Err(RunError(format!(
                        "{name}: {} would have to be created ({need} bytes) but --readonly is set",
                        path.display()
                    )));
                }
                let fill = (job.rw.has_read() || job.overwrite) && !meta;
                let e = layouts.entry(path.clone()).or_insert(Layout {
                    path: path.clone(),
                    size: need,
                    fill,
                    job: name.clone(),
                    fallocate: if job.fill_device {
                        crate::job::FallocateMode::None
                    } else {
                        job.fallocate
                    },
                    sparse: job.fill_device,
                });
                e.size = e.size.max(need);
                e.fill |= fill;
            }
        }
        files.push(WorkerFile {
            path,
            is_block,
            is_char,
            size: size.max(need),
            region_start,
            region_len,
            logical_block_size: lbs,
        });
    }
    let total_region: u64 = files.iter().map(|f| f.region_len).sum();
    let io_bytes_per_loop = if meta {
        u64::MAX
    } else {
        match job.io_size {
            Some(s) => s.resolve(total_region),
            None => total_region,
        }
    };
    // Honesty note: buffered reads over a working set that fits in memory.
    if !job.direct && job.rw.has_read() && !meta && !diskless && clone == 0 {
        let avail = sys::mem_available();
        let ws: u64 = files
            .iter()
            .filter(|f| !f.is_char)
            .map(|f| f.region_len)
            .sum();
        if ws > 0 && avail > 0 && ws <= avail {
            notes.push(format!(
                "{}: buffered I/O (direct=0) over a working set of {} MiB that fits in the page cache ({} MiB available): read figures may come from memory rather than the device{}",
                job.name,
                ws >> 20,
                avail >> 20,
                if job.invalidate { "" } else { " (invalidate=0 keeps cached data)" }
            ));
        }
    }
    Ok(Unit {
        job_index: ji,
        clone,
        thread_number,
        files,
        io_bytes_per_loop,
    })
}

fn check_direct_alignment(
    job: &JobSpec,
    path: &Path,
    lbs: u64,
    start: u64,
) -> Result<(), RunError> {
    use crate::job::{BlockSize, Dir};
    for d in Dir::ALL {
        let used = match d {
            Dir::Read => job.rw.has_read(),
            Dir::Write => job.rw.has_write(),
            Dir::Trim => job.rw.has_trim(),
        };
        if !used {
            continue;
        }
        let sizes: Vec<u64> = match &job.bs[d] {
            BlockSize::Fixed(v) => vec![*v],
            BlockSize::Range { min, max } => vec![*min, *max],
            BlockSize::Split(v) => v.iter().map(|x| x.0).collect(),
        };
        for bs in sizes {
            if bs % lbs != 0 {
                return Err(RunError(format!(
                    "{}: direct=1 needs block sizes that are multiples of the logical block size of {} ({lbs} bytes), but {} bs is {bs}",
                    job.name,
                    path.display(),
                    d.name()
                )));
            }
        }
    }
    if start % lbs != 0 {
        return Err(RunError(format!(
            "{}: direct=1 needs an offset aligned to the logical block size of {} ({lbs} bytes), but the region starts at {start}",
            job.name,
            path.display()
        )));
    }
    Ok(())
}

fn check_device_write(plan: &RunPlan, job: &JobSpec, path: &Path) -> Result<(), RunError> {
    if let Some(mp) = target::device_mount_point(path) {
        if !job.allow_mounted_write {
            return Err(RunError(format!(
                "{}: refusing to write to {}: it (or a partition or holder of it) is mounted on {mp}; set allow_mounted_write=1 to write anyway",
                job.name,
                path.display()
            )));
        }
    }
    if !plan.force_device_write {
        match target::fs_signature(path) {
            Ok(None) => {}
            Ok(Some(sig)) => {
                return Err(RunError(format!(
                    "{}: refusing to write to {}: it holds {sig}; writing would destroy it. Pass --force-device-write to overwrite it",
                    job.name,
                    path.display()
                )))
            }
            // What cannot be checked is not assumed empty.
            Err(e) => {
                return Err(RunError(format!(
                    "{}: refusing to write to {}: its first blocks could not be read to look for a filesystem or partition table ({e}). Pass --force-device-write to write anyway",
                    job.name,
                    path.display()
                )))
            }
        }
    }
    Ok(())
}

/// Refuse layouts that would not fit in their filesystem.
fn check_free_space(plan: &RunPlan, layouts: &[Layout]) -> Result<(), RunError> {
    if plan.allow_fill {
        return Ok(());
    }
    let mut by_dir: HashMap<PathBuf, (u64, Vec<&Path>)> = HashMap::new();
    for l in layouts.iter().filter(|l| !l.sparse) {
        let existing = std::fs::metadata(&l.path).map(|m| m.len()).unwrap_or(0);
        let add = l.size.saturating_sub(existing);
        let dir = l
            .path
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .unwrap_or(Path::new("."))
            .to_path_buf();
        let dev_key = std::fs::canonicalize(&dir).unwrap_or(dir);
        let e = by_dir.entry(dev_key).or_default();
        e.0 += add;
        e.1.push(&l.path);
    }
    // Merge directories on the same filesystem.
    let mut by_fs: HashMap<u64, (u64, u64, PathBuf)> = HashMap::new();
    for (dir, (need, _)) in &by_dir {
        use std::os::unix::fs::MetadataExt;
        let dev = std::fs::metadata(dir)
            .map(|m| m.dev())
            .map_err(|e| RunError(format!("cannot create files in {}: {e}", dir.display())))?;
        let free = target::free_space(dir).unwrap_or(u64::MAX);
        let e = by_fs.entry(dev).or_insert((0, free, dir.clone()));
        e.0 += need;
    }
    for (need, free, dir) in by_fs.values() {
        if need > free {
            return Err(RunError(format!(
                "refusing to lay out {} MiB of files in {}: only {} MiB are free on that filesystem. Make the jobs smaller (size=, filesize=, nrfiles=, numjobs=), point them elsewhere (directory=, filename=), or pass --allow-fill to fill it on purpose",
                need.div_ceil(1 << 20),
                dir.display(),
                free >> 20
            )));
        }
    }
    Ok(())
}

fn human_size(b: u64) -> String {
    if b >= 1 << 30 && b % (1 << 30) == 0 {
        format!("{}GiB", b >> 30)
    } else if b >= 1 << 20 {
        format!("{}MiB", b >> 20)
    } else if b >= 1 << 10 {
        format!("{}KiB", b >> 10)
    } else {
        format!("{b}B")
    }
}

/// Check a plan without doing any I/O (everything `run` would refuse up front).
pub fn check(plan: &RunPlan) -> Result<Vec<String>, RunError> {
    let (_, layouts, notes) = plan_units(plan)?;
    check_free_space(plan, &layouts)?;
    Ok(notes)
}

/// Run a plan to completion.
pub fn run(plan: &RunPlan, ctl: &RunCtl) -> Result<RunResult, RunError> {
    let start_unix_ms = sys::unix_ms();
    let (units, layouts, mut notes) = plan_units(plan)?;
    check_free_space(plan, &layouts)?;
    // Lay out files (fio's "Laying out IO file").
    let mut created: Vec<PathBuf> = Vec::new();
    for l in &layouts {
        if ctl.stop.load(Ordering::Relaxed) {
            break;
        }
        let existed = l.path.exists();
        ctl.info(&format!(
            "{}: Laying out IO file (1 file / {})",
            l.job,
            human_size(l.size)
        ));
        match target::layout_file_until(
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
                return Err(RunError(format!(
                    "{}: laying out {} ({} bytes) failed: {e}",
                    l.job,
                    l.path.display(),
                    l.size
                )))
            }
        }
    }
    if ctl.stop.load(Ordering::Relaxed) {
        return Err(RunError(
            "stopped while laying out files, before any I/O was measured (a file being laid out was removed or put back as it was)".into(),
        ));
    }
    // Disk stats for every device under the targets.
    let mut disks: Vec<String> = Vec::new();
    for u in units
        .iter()
        .filter(|u| !plan.jobs[u.job_index].ioengine.is_diskless())
    {
        for f in &u.files {
            for d in target::disks_for(&f.path) {
                if !disks.contains(&d) {
                    disks.push(d);
                }
            }
        }
    }
    let sampler = target::DiskStatsSampler::start(&disks);
    // Start workers in order, honouring stonewall and wait_for.
    let mut results: Vec<Option<JobResult>> = (0..units.len()).map(|_| None).collect();
    let mut running: Vec<(usize, JoinHandle<JobResult>)> = Vec::new();
    let mut finished_jobs: Vec<bool> = vec![false; plan.jobs.len()];
    let unit_job: Vec<usize> = units.iter().map(|u| u.job_index).collect();
    let join_all = |running: &mut Vec<(usize, JoinHandle<JobResult>)>,
                    results: &mut Vec<Option<JobResult>>| {
        for (i, h) in running.drain(..) {
            let r = h.join().unwrap_or_else(|_| JobResult {
                error: libc::EIO,
                error_msg: Some("worker thread panicked".into()),
                ..Default::default()
            });
            results[i] = Some(r);
        }
    };
    let mut last_job = usize::MAX;
    for (ui, unit) in units.into_iter().enumerate() {
        let job = &plan.jobs[unit.job_index];
        if unit.job_index != last_job {
            last_job = unit.job_index;
            if job.stonewall && !running.is_empty() {
                join_all(&mut running, &mut results);
            }
            if let Some(w) = &job.wait_for {
                if let Some(target_ji) = plan.jobs.iter().position(|j| &j.name == w) {
                    if target_ji < unit.job_index && !finished_jobs[target_ji] {
                        let mut keep = Vec::new();
                        for (i, h) in running.drain(..) {
                            if unit_job[i] == target_ji {
                                results[i] = Some(h.join().unwrap_or_default());
                            } else {
                                keep.push((i, h));
                            }
                        }
                        running = keep;
                        finished_jobs[target_ji] = true;
                    }
                }
            }
        }
        if ctl.stop.load(Ordering::Relaxed) {
            results[ui] = Some(JobResult {
                name: job.name.clone(),
                job_index: unit.job_index,
                clone: unit.clone,
                thread_number: unit.thread_number,
                group_id: job.group_id,
                ran: false,
                ..Default::default()
            });
            continue;
        }
        let progress = Arc::new(WorkerProgress::new(&job.name, job.rw));
        progress.keep_final.store(
            ctl.keep_snapshots.load(Ordering::Relaxed),
            Ordering::Relaxed,
        );
        ctl.workers.lock().unwrap().push(progress.clone());
        let setup = WorkerSetup {
            spec: job.clone(),
            job_index: unit.job_index,
            clone: unit.clone,
            thread_number: unit.thread_number,
            files: unit.files,
            io_bytes_per_loop: unit.io_bytes_per_loop,
            stop: ctl.stop.clone(),
            progress,
        };
        let stop = ctl.stop.clone();
        let exitall = job.exitall;
        let delay = startdelay(job, unit.thread_number);
        let h = std::thread::Builder::new()
            .name(format!("iomark-{}", job.name))
            .spawn(move || {
                if !delay.is_zero() {
                    let until = sys::now_ns() + delay.as_nanos() as u64;
                    while sys::now_ns() < until && !stop.load(Ordering::Relaxed) {
                        std::thread::sleep(std::time::Duration::from_millis(5));
                    }
                }
                let r = run_worker(setup);
                if exitall {
                    stop.store(true, Ordering::Relaxed);
                }
                r
            })
            .map_err(|e| RunError(format!("cannot start a worker thread: {e}")))?;
        running.push((ui, h));
    }
    join_all(&mut running, &mut results);
    let disk_util = sampler.finish();
    // Remove files of jobs that asked for it.
    for (ji, job) in plan.jobs.iter().enumerate() {
        if job.unlink {
            for r in results.iter().flatten().filter(|r| r.job_index == ji) {
                for t in &r.targets {
                    if t.kind == "file" {
                        let _ = std::fs::remove_file(&t.path);
                    }
                }
            }
        }
    }
    let _ = created;
    let jobs: Vec<JobResult> = results.into_iter().map(|r| r.unwrap_or_default()).collect();
    for j in &jobs {
        notes.extend(j.notes.iter().cloned());
    }
    notes.dedup();
    Ok(RunResult {
        disk_util,
        interrupted: ctl.interrupted.load(Ordering::Relaxed),
        notes,
        ..RunResult::assemble(plan, start_unix_ms, sys::host_info(), jobs)
    })
}

fn startdelay(job: &JobSpec, thread_number: u32) -> std::time::Duration {
    let (lo, hi) = job.startdelay;
    if hi > lo {
        let mut r = Rng::new(crate::rng::job_seed(
            job.randseed,
            job.randrepeat,
            thread_number,
            98,
        ));
        let span = (hi - lo).as_nanos() as u64;
        lo + std::time::Duration::from_nanos(r.below(span + 1))
    } else {
        lo
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::job::{BlockSize, EngineKind, PerDir, RwMode};

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
                assert_eq!(j.error, 0, "{engine:?} {rw:?}: {:?}", j.error_msg);
                let bytes = j.dirs.read.io_bytes + j.dirs.write.io_bytes;
                assert_eq!(bytes, 4 << 20, "{engine:?} {rw:?}");
                let n = j.dirs.read.clat.hist.count() + j.dirs.write.clat.hist.count();
                assert_eq!(n, 1024, "{engine:?} {rw:?}");
                // The runtime in microseconds agrees with the runtime in milliseconds.
                assert_eq!(j.runtime_us / 1000, j.runtime_ms, "{engine:?} {rw:?}");
                assert!(j.runtime_us > 0, "{engine:?} {rw:?}");
            }
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
