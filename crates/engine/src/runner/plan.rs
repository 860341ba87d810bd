//! Planning a run: every clone's files resolved, and everything that can be checked before any
//! I/O checked (sizes, regions, direct I/O alignment, device safety, free space).

use super::region::{file_size, resolve_region, Found};
use super::{Note, RunError};
use crate::engines::Capabilities;
use crate::job::{EngineKind, JobSpec, RunPlan};
use crate::result::TargetInfo;
use crate::rng::Rng;
use crate::sys;
use crate::targets;
use crate::worker::WorkerFile;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

/// The most worker threads (jobs times numjobs) one run starts, as fio's default limit.
pub(crate) const MAX_JOBS: u64 = 4096;

/// One clone, fully resolved.
pub(super) struct Unit {
    pub(super) job_index: usize,
    pub(super) clone: u32,
    pub(super) thread_number: u32,
    pub(super) files: Vec<WorkerFile>,
    pub(super) io_bytes_per_loop: u64,
}

/// A file to create or extend before the run.
pub(super) struct Layout {
    pub(super) path: PathBuf,
    pub(super) size: u64,
    pub(super) fill: bool,
    pub(super) job: String,
    pub(super) fallocate: crate::job::FallocateMode,
    /// Left sparse and not counted by the free-space check (fill_device).
    pub(super) sparse: bool,
}

/// Resolve every clone's files and check everything that can be checked before I/O.
/// Clones, the files to lay out, and notes for the user.
pub(super) type Planned = (Vec<Unit>, Vec<Layout>, Vec<Note>);

pub(super) fn plan_units(plan: &RunPlan) -> Result<Planned, RunError> {
    let mut units = Vec::new();
    let mut st = Planning::default();
    let mut notes = Vec::new();
    let mut thread_number = 0u32;
    // Refused before anything is allocated per job.
    let threads: u64 = plan.jobs.iter().map(|j| u64::from(j.numjobs.max(1))).sum();
    if threads > MAX_JOBS {
        return Err(RunError::TooManyJobs {
            threads,
            max: MAX_JOBS,
        });
    }
    let cpus = sys::cpus_configured();
    for job in &plan.jobs {
        if let Some(&cpu) = job.cpus_allowed.iter().flatten().find(|&&c| c >= cpus) {
            return Err(RunError::NoSuchCpu {
                job: job.name.clone(),
                cpu,
                cpus,
            });
        }
    }
    let nodes = sys::numa_nodes();
    for job in &plan.jobs {
        if let Some(&node) = job.numa_nodes.iter().find(|n| !nodes.contains(n)) {
            return Err(RunError::NoSuchNumaNode {
                job: job.name.clone(),
                node,
                nodes: nodes.clone(),
            });
        }
    }
    for (ji, job) in plan.jobs.iter().enumerate() {
        if (plan.readonly || job.readonly) && job.writes() {
            return Err(RunError::ReadonlyWrites {
                job: job.name.clone(),
                rw: job.rw,
                engine: job.ioengine,
            });
        }
        if (plan.readonly || job.readonly) && job.unlink {
            return Err(RunError::ReadonlyUnlink {
                job: job.name.clone(),
            });
        }
        // Files an engine creates or truncates beside its targets (exec's JOB.stdout and
        // JOB.stderr, e4defrag's donor) pass the run's gate for written files.
        let written = crate::engines::files_written(job);
        for path in &written {
            super::steps::check_named_file(path).map_err(|e| e.for_job(&job.name))?;
        }
        if job.ioengine == EngineKind::E4defrag {
            check_ext4(job, &written)?;
        }
        // A unix-socket listener replaces only a socket at its path.
        if let Some(path) = crate::engines::net::listen_path(job) {
            if let Some(what) = crate::targets::not_a_socket(path) {
                return Err(RunError::NotASocket {
                    job: job.name.clone(),
                    path: path.to_path_buf(),
                    what,
                });
            }
        }
        for clone in 0..job.numjobs.max(1) {
            let unit = plan_clone(plan, job, ji, clone, thread_number, &mut st, &mut notes)?;
            units.push(unit);
            thread_number += 1;
        }
    }
    Ok((units, st.layouts.into_values().collect(), notes))
}

/// e4defrag moves extents with an ioctl only ext4 has: every file of the job and its donor
/// must be on ext4.
fn check_ext4(job: &JobSpec, donor: &[PathBuf]) -> Result<(), RunError> {
    let paths = (0..job.numjobs.max(1)).flat_map(|c| job.clone_paths(c));
    for path in paths.chain(donor.iter().cloned()) {
        if let Some(fs) = crate::engines::e4defrag::not_ext4(&path) {
            return Err(RunError::NeedsExt4 {
                job: job.name.clone(),
                path,
                fs,
            });
        }
    }
    Ok(())
}

/// What planning gathers across files: the layouts, and the logical block size of each
/// directory a missing file would be created in (probed once, not once per file).
#[derive(Default)]
struct Planning {
    layouts: BTreeMap<PathBuf, Layout>,
    dir_lbs: HashMap<PathBuf, u64>,
    /// Per directory: whether a missing file in it would be on the device filesystem.
    dir_on_dev: HashMap<PathBuf, bool>,
}

impl Planning {
    /// Whether the missing `path` names a device that is not there (`/dev/...`), asked once
    /// per directory: every missing file of a directory has the same answer.
    fn missing_device(&mut self, path: &Path) -> bool {
        let dir = path.parent().unwrap_or(Path::new("")).to_path_buf();
        *self
            .dir_on_dev
            .entry(dir)
            .or_insert_with(|| targets::missing_device_path(path))
    }
}

/// Resolve one clone of `job`: each of its files, then the amount it moves per loop and, for
/// the first clone, notes on a working set the page cache would hold.
fn plan_clone(
    plan: &RunPlan,
    job: &JobSpec,
    ji: usize,
    clone: u32,
    thread_number: u32,
    st: &mut Planning,
    notes: &mut Vec<Note>,
) -> Result<Unit, RunError> {
    let paths = job.clone_paths(clone);
    let nfiles = paths.len() as u64;
    let mut size_rng = Rng::new(crate::rng::job_seed(job.randseed, true, thread_number, 99));
    let meta = job.ioengine.is_metadata();
    let diskless = job.ioengine.is_diskless();
    let mut files = Vec::with_capacity(paths.len());
    for path in paths {
        files.push(plan_file(
            plan,
            job,
            clone,
            path,
            nfiles,
            &mut size_rng,
            st,
        )?);
    }
    if job.ioengine == EngineKind::Rbd && clone == 0 && job.numjobs > 1 && job.writes() {
        notes.push(Note::Text(format!(
            "{}: {} jobs write one image: they take its exclusive lock in turn, which measures the lock more than the cluster (give each job its own image)",
            job.name, job.numjobs
        )));
    }
    let total_region: u64 = files.iter().map(|f| f.region_len).sum();
    // An engine that moves nothing runs for its time or number of I/Os, whatever the size.
    let io_bytes_per_loop = if meta || job.ioengine.is_noio() {
        u64::MAX
    } else {
        match job.io_size {
            Some(s) => s.resolve(total_region),
            None => total_region,
        }
    };
    // Honesty notes: buffered I/O over a working set that fits in memory.
    if !job.direct && !meta && !diskless && clone == 0 {
        let ws: u64 = files
            .iter()
            .filter(|f| !f.is_char)
            .map(|f| f.region_len)
            .sum();
        notes.extend(super::notice::cache_notes(job, ws, sys::mem_available()));
    }
    Ok(Unit {
        job_index: ji,
        clone,
        thread_number,
        files,
        io_bytes_per_loop,
    })
}

/// Resolve one file of a clone: what is at the path, its size and region, every check that
/// can be made before I/O, and its layout when it must be created or extended.
fn plan_file(
    plan: &RunPlan,
    job: &JobSpec,
    clone: u32,
    path: PathBuf,
    nfiles: u64,
    size_rng: &mut Rng,
    st: &mut Planning,
) -> Result<WorkerFile, RunError> {
    if job.ioengine.is_ceph() {
        return super::plan_ceph::plan_ceph_file(plan, job, clone, path, nfiles, size_rng);
    }
    if job.ioengine == EngineKind::Nbd {
        return super::plan_nbd::plan_nbd_file(plan, job, clone, path, nfiles, size_rng);
    }
    let writes = job.writes();
    let meta = job.ioengine.is_metadata();
    let diskless = job.ioengine.is_diskless();
    let probe = targets::probe(&path).ok();
    let kind = probe.as_ref().map(|p| p.kind.as_str()).unwrap_or("missing");
    let missing_device = kind == "missing" && !diskless && st.missing_device(&path);
    check_kind(job, &path, kind, probe.as_ref(), missing_device)?;
    let is_block = kind == "block";
    let is_char = kind == "char";
    let real_size = probe
        .as_ref()
        .map(|p| p.size_bytes)
        .filter(|_| kind != "missing");
    let lbs = logical_block_size(probe.as_ref(), &path, &mut st.dir_lbs);
    let found = Found {
        is_block,
        is_char,
        real_size,
    };
    let per_file = file_size(job, &path, &found, nfiles, size_rng)?;
    let (region_start, region_len, size) = resolve_region(job, clone, &path, &found, per_file)?;
    if job.direct && !is_char && !meta && !diskless {
        check_direct_alignment(job, &path, lbs, region_start)?;
    }
    if writes && is_block && !diskless {
        check_device_write(plan, job, &path)?;
    }
    // Layout of regular files that do not exist or are too small.
    let need = region_start + region_len;
    let is_file = !is_block && !is_char;
    let grows = real_size.is_some_and(|r| r < need);
    // A file-deleting engine never removes a loop device's backing file, whatever is allowed.
    if is_file && job.ioengine == EngineKind::FileDelete {
        if let Some((loop_dev, reason)) = targets::backed_loop_in_use(&path) {
            return Err(RunError::BackingFile {
                path,
                loop_dev,
                reason,
            });
        }
    }
    if is_file && !diskless && !meta && (writes || grows) && !job.allow_mounted_write {
        if let Some((loop_dev, reason)) = targets::backed_loop_in_use(&path) {
            return Err(RunError::BackingFileInUse {
                job: job.name.clone(),
                path,
                loop_dev,
                reason,
            });
        }
    }
    if is_file && !diskless && !(meta && job.ioengine == EngineKind::FileCreate) {
        plan_layout(plan, job, &path, real_size, need, &mut st.layouts)?;
    }
    Ok(WorkerFile {
        path,
        is_block,
        is_char,
        size: size.max(need),
        region_start,
        region_len,
        logical_block_size: lbs,
    })
}

/// Refuse what the job cannot use at `path` (of the probed `kind`): a directory, a device
/// under a metadata engine, a missing device, a FIFO, socket or pseudo-filesystem file, a
/// missing file to verify.
fn check_kind(
    job: &JobSpec,
    path: &Path,
    kind: &str,
    probe: Option<&TargetInfo>,
    missing_device: bool,
) -> Result<(), RunError> {
    let name = &job.name;
    let meta = job.ioengine.is_metadata();
    let diskless = job.ioengine.is_diskless();
    if kind == "directory" {
        return Err(RunError::IsDirectory {
            job: name.clone(),
            path: path.to_path_buf(),
        });
    }
    if meta && (kind == "block" || kind == "char") {
        return Err(RunError::MetadataOnSpecial {
            job: name.clone(),
            engine: job.ioengine,
            what: targets::special_kind(path),
            path: path.to_path_buf(),
        });
    }
    if missing_device {
        return Err(RunError::NoSuchDevice {
            job: name.clone(),
            path: path.to_path_buf(),
        });
    }
    if !diskless {
        let what = match kind {
            "fifo" => Some("a FIFO (named pipe)".to_string()),
            "socket" => Some("a socket".to_string()),
            "pseudo" => Some(format!(
                "a file of the kernel's {} filesystem",
                probe.and_then(|p| p.fs_type.as_deref()).unwrap_or("pseudo")
            )),
            _ => None,
        };
        if let Some(what) = what {
            return Err(RunError::NotFileOrDevice {
                job: name.clone(),
                path: path.to_path_buf(),
                what,
            });
        }
    }
    if kind == "missing" && job.verify.as_ref().is_some_and(|v| v.only) {
        return Err(RunError::VerifyOnlyMissing {
            job: name.clone(),
            path: path.to_path_buf(),
        });
    }
    Ok(())
}

/// The logical block size at `path`: the probe's, else that of the directory it would be
/// created in, else 512.
fn logical_block_size(
    probe: Option<&TargetInfo>,
    path: &Path,
    dir_lbs: &mut HashMap<PathBuf, u64>,
) -> u64 {
    if let Some(b) = probe.map(|p| p.logical_block_size).filter(|&b| b > 0) {
        return b;
    }
    let Some(d) = path.parent() else {
        return 512;
    };
    let d = if d.as_os_str().is_empty() {
        Path::new(".")
    } else {
        d
    };
    *dir_lbs.entry(d.to_path_buf()).or_insert_with(|| {
        targets::probe(d)
            .ok()
            .map(|p| p.logical_block_size)
            .filter(|&b| b > 0)
            .unwrap_or(512)
    })
}

/// Add the layout a regular file needs when it is missing or smaller than `need` bytes (a
/// file that grows as written only when missing); refused for read-only runs.
fn plan_layout(
    plan: &RunPlan,
    job: &JobSpec,
    path: &Path,
    real_size: Option<u64>,
    need: u64,
    layouts: &mut BTreeMap<PathBuf, Layout>,
) -> Result<(), RunError> {
    let meta = job.ioengine.is_metadata();
    // A replayed trace reads what it wrote before (or past the end, as the trace says).
    let grow = job.grow_file && (!job.rw.has_read() || job.replay.is_some());
    let too_small = if grow {
        real_size.is_none()
    } else {
        real_size.is_none_or(|r| r < need)
    };
    if too_small {
        if plan.readonly || job.readonly {
            return Err(RunError::ReadonlyLayout {
                job: job.name.clone(),
                path: path.to_path_buf(),
                bytes: need,
            });
        }
        let fill = (job.rw.has_read() || job.overwrite) && !meta;
        let e = layouts.entry(path.to_path_buf()).or_insert(Layout {
            path: path.to_path_buf(),
            size: if grow { 0 } else { need },
            fill,
            job: job.name.clone(),
            fallocate: if job.fill_device || grow {
                crate::job::FallocateMode::None
            } else {
                job.fallocate
            },
            sparse: job.fill_device,
        });
        e.size = e.size.max(if grow { 0 } else { need });
        e.fill |= fill;
    }
    Ok(())
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
                return Err(RunError::DirectBlockSize {
                    job: job.name.clone(),
                    path: path.to_path_buf(),
                    logical_block_size: lbs,
                    dir: d,
                    block_size: bs,
                });
            }
        }
    }
    if start % lbs != 0 {
        return Err(RunError::DirectOffset {
            job: job.name.clone(),
            path: path.to_path_buf(),
            logical_block_size: lbs,
            start,
        });
    }
    Ok(())
}

fn check_device_write(plan: &RunPlan, job: &JobSpec, path: &Path) -> Result<(), RunError> {
    if let Some(mp) = targets::device_mount_point(path) {
        if !job.allow_mounted_write {
            return Err(RunError::DeviceMounted {
                job: job.name.clone(),
                path: path.to_path_buf(),
                mount_point: mp,
            });
        }
    }
    if !plan.force_device_write {
        match targets::fs_signature(path) {
            Ok(None) => {}
            Ok(Some(sig)) => {
                return Err(RunError::DeviceHoldsData {
                    job: job.name.clone(),
                    path: path.to_path_buf(),
                    signature: sig,
                })
            }
            // What cannot be checked is not assumed empty.
            Err(e) => {
                return Err(RunError::DeviceUnreadable {
                    job: job.name.clone(),
                    path: path.to_path_buf(),
                    source: e,
                })
            }
        }
    }
    Ok(())
}

/// Claims every block device a job writes with `O_EXCL` (unless the job allows writes to a
/// mounted device): the kernel refuses while the device is mounted in any namespace, built on,
/// or held, and while the claims are held nothing can mount it. Keep the files for the run.
pub(super) fn claim_devices(
    plan: &RunPlan,
    units: &[Unit],
) -> Result<Vec<std::fs::File>, RunError> {
    let mut claims = Vec::new();
    let mut seen: Vec<&Path> = Vec::new();
    for u in units {
        let job = &plan.jobs[u.job_index];
        if !job.writes() || job.allow_mounted_write || job.ioengine.is_diskless() {
            continue;
        }
        for f in u.files.iter().filter(|f| f.is_block) {
            if seen.contains(&f.path.as_path()) {
                continue;
            }
            seen.push(&f.path);
            match targets::claim_exclusive(&f.path) {
                Ok(file) => claims.push(file),
                Err(reason) => {
                    return Err(RunError::DeviceBusy {
                        job: job.name.clone(),
                        path: f.path.clone(),
                        reason,
                    })
                }
            }
        }
    }
    Ok(claims)
}

/// Refuse layouts that would not fit in their filesystem.
pub(super) fn check_free_space(plan: &RunPlan, layouts: &[Layout]) -> Result<(), RunError> {
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
        let dev =
            std::fs::metadata(dir)
                .map(|m| m.dev())
                .map_err(|e| RunError::DirectoryUnusable {
                    dir: dir.clone(),
                    source: e,
                })?;
        let free = targets::free_space(dir).unwrap_or(u64::MAX);
        let e = by_fs.entry(dev).or_insert((0, free, dir.clone()));
        e.0 += need;
    }
    for (need, free, dir) in by_fs.values() {
        if need > free {
            return Err(RunError::NoSpace {
                dir: dir.clone(),
                needed: *need,
                free: *free,
            });
        }
    }
    Ok(())
}
