//! Setting up a worker's queue: opening its files, filling its buffers, starting its engine
//! (falling back from io_uring to libaio when io_uring is unavailable) and laying out its slots.

use super::buffers::{fill_buffer, Buffers};
use super::{Slot, WorkerSetup};
use crate::engines::Capabilities;
use crate::engines::{self, Engine, EngineFile, Op};
use crate::failure::JobFailure;
use crate::job::{Dir, EngineKind, JobSpec, SubmitMode};
use crate::note::Note;
use crate::offload::{OffloadPool, PoolSetup, SlotTimes};
use crate::result::JobResult;
use crate::rng::Rng;
use crate::sys;
use crate::targets;
use crate::worker_file::WorkerFile;
use std::os::fd::{IntoRawFd, RawFd};
use std::sync::Arc;

/// A setup step's failure: the errno and the failure, for the job's result.
pub(super) type Failed = (i32, JobFailure);

/// A worker's queue as set up: its files open, its buffers filled, its engine started, every
/// slot free.
pub(super) struct Queue {
    pub(super) efiles: Vec<EngineFile>,
    /// The files are opened for writing (the job writes or trims).
    pub(super) writes: bool,
    /// With `openfiles` below the number of files, each file is opened when first chosen.
    pub(super) lazy: bool,
    /// Declared before `bufs`: the engine (which may have registered the buffers with the
    /// kernel) is dropped first.
    pub(super) engine: Box<dyn Engine>,
    pub(super) sync_engine: bool,
    /// No submission stage to time (a sync engine, also when offloaded).
    pub(super) one_stage: bool,
    /// Offloaded: when the submit threads issued and completed each slot's I/O.
    pub(super) offload_times: Option<Arc<SlotTimes>>,
    /// The job's thread keeps overlapping I/Os out of its queue.
    pub(super) serialize: bool,
    /// With `serialize`: which slots are in flight (empty otherwise).
    pub(super) in_flight: Vec<bool>,
    pub(super) bufs: Buffers,
    pub(super) slots: Vec<Slot>,
    pub(super) free: Vec<u32>,
    /// The seed of the job's main stream (drawn before the data stream's).
    pub(super) seed: u64,
    /// The stream of the write data.
    pub(super) data_rng: Rng,
}

impl Queue {
    /// Open the job's files, fill the buffers, start the engine and free every slot; a
    /// failure closes the files opened.
    pub(super) fn open(s: &WorkerSetup, res: &mut JobResult) -> Result<Queue, Failed> {
        let spec = &s.spec;
        let kind = spec.ioengine;
        let verify_only = spec.verify.as_ref().is_some_and(|v| v.only);
        let writes = (spec.rw.has_write() && !verify_only) || spec.rw.has_trim();
        // Open files; with `openfiles` below their number, each is opened when first chosen.
        let lazy = open_limit(spec, s.files.len()).is_some();
        let efiles = open_files(spec, &s.files, writes, lazy)?;
        let offload = spec.submit_mode == SubmitMode::Offload;
        let depth = queue_depth(spec);
        // Buffers: one per slot, aligned to the logical block size (at least a page).
        let align = buffer_align(&s.files);
        let buf_len = (spec.max_bs() as usize).max(1);
        let seed = crate::rng::job_seed(spec.randseed, spec.repeatable_seeds(), s.thread_number, 0);
        let mut data_rng = Rng::new(crate::rng::job_seed(
            spec.randseed,
            spec.repeatable_seeds(),
            s.thread_number,
            1,
        ));
        let bufs = Buffers::new(depth as usize, buf_len, align, |b| {
            fill_buffer(spec, b, &mut data_rng)
        });
        let (engine, offload_times) = start_engine(s, depth, &efiles, &bufs, res)?;
        res.notes.extend(engine.notes());
        let sync_engine = engine.is_sync();
        // Each submit thread runs one I/O at a time: an engine that completes it inside its
        // queue call (a sync engine; null too) has no submission stage to time, as in fio.
        let one_stage = if offload { kind.is_sync() } else { sync_engine };
        // In flight on this job's own queue: the job's thread checks for overlaps itself, when
        // the job changes data and more than one I/O can be in flight (offloaded, the submit
        // threads check, against every job of the run).
        let serialize = spec.serialize_overlap
            && !offload
            && depth > 1
            && (spec.rw.has_write() || spec.rw.has_trim() || spec.replay.is_some());
        let in_flight = if serialize {
            vec![false; depth as usize]
        } else {
            Vec::new()
        };
        Ok(Queue {
            efiles,
            writes,
            lazy,
            engine,
            sync_engine,
            one_stage,
            offload_times,
            serialize,
            in_flight,
            bufs,
            slots: free_slots(depth),
            free: (0..depth).rev().collect(),
            seed,
            data_rng,
        })
    }
}

/// Open the job's files in order (none with a metadata or diskless engine, nor when each is
/// opened when first chosen); a failure closes those opened before it.
fn open_files(
    spec: &JobSpec,
    files: &[WorkerFile],
    writes: bool,
    lazy: bool,
) -> Result<Vec<EngineFile>, Failed> {
    let kind = spec.ioengine;
    let mut efiles = Vec::with_capacity(files.len());
    for f in files {
        let fd = if kind.is_metadata() || kind.is_diskless() || lazy {
            -1
        } else {
            match open_job_file(spec, f, writes) {
                Ok(fd) => fd,
                Err(failed) => {
                    close_fds(&efiles);
                    return Err(failed);
                }
            }
        };
        efiles.push(EngineFile {
            fd,
            path: f.path.clone(),
            size: f.size,
            is_block: f.is_block,
        });
    }
    Ok(efiles)
}

/// The number of slots: the job's iodepth, or 1 on a sync engine (other than null) run on the
/// job's thread.
fn queue_depth(spec: &JobSpec) -> u32 {
    let kind = spec.ioengine;
    // Offloaded: one submit thread per slot, each running one I/O at a time.
    if spec.submit_mode == SubmitMode::Offload {
        spec.iodepth.max(1)
    } else if kind.is_sync() && kind != EngineKind::Null {
        1
    } else {
        spec.iodepth.max(1)
    }
}

/// The buffers' alignment: the largest logical block size of the files, at least a page.
fn buffer_align(files: &[WorkerFile]) -> usize {
    files
        .iter()
        .map(|f| f.logical_block_size)
        .max()
        .unwrap_or(512)
        .max(sys::page_size() as u64) as usize
}

/// A started engine, with the submit threads' clock when offloaded.
type Started = (Box<dyn Engine>, Option<Arc<SlotTimes>>);

/// Start the job's engine on its files and buffers (offloaded to submit threads, with their
/// clock, or on the job's thread); an unavailable io_uring falls back to libaio, with a note.
/// A failure closes the files.
fn start_engine(
    s: &WorkerSetup,
    depth: u32,
    efiles: &[EngineFile],
    bufs: &Buffers,
    res: &mut JobResult,
) -> Result<Started, Failed> {
    let spec = &s.spec;
    let kind = spec.ioengine;
    let offload = spec.submit_mode == SubmitMode::Offload;
    let ebufs = bufs.engine_bufs();
    let esetup = engines::EngineSetup {
        depth,
        files: efiles,
        buffers: &ebufs,
        options: &spec.engine_options,
        direct: spec.direct,
    };
    let mut offload_times = None;
    let created = if offload {
        let overlap = spec.serialize_overlap.then(|| s.overlap.clone());
        OffloadPool::start(PoolSetup {
            kind,
            threads: depth,
            files: efiles,
            buffers: &ebufs,
            options: &spec.engine_options,
            direct: spec.direct,
            overlap,
        })
        .map(|p| {
            offload_times = Some(p.times());
            Box::new(p) as Box<dyn Engine>
        })
    } else {
        engines::create(kind, &esetup)
    };
    let engine = match created {
        Ok(e) => e,
        Err(engines::EngineError::Unavailable(why)) if kind == EngineKind::IoUring => {
            res.notes.push(Note::EngineFallback {
                job: spec.name.clone(),
                from: kind,
                to: EngineKind::Libaio,
                reason: why,
            });
            match engines::create(EngineKind::Libaio, &esetup) {
                Ok(e) => e,
                Err(e) => {
                    close_fds(efiles);
                    let failure = JobFailure::Engine {
                        job: spec.name.clone(),
                        engine: EngineKind::Libaio,
                        fallback_from: Some(kind),
                        errno: libc::ENOSYS,
                        reason: e.to_string(),
                    };
                    return Err((libc::ENOSYS, failure));
                }
            }
        }
        Err(e) => {
            close_fds(efiles);
            let errno = match &e {
                engines::EngineError::Io(io) => io.raw_os_error().unwrap_or(libc::EIO),
                _ => libc::ENOSYS,
            };
            let failure = JobFailure::Engine {
                job: spec.name.clone(),
                engine: kind,
                fallback_from: None,
                errno,
                reason: e.to_string(),
            };
            return Err((errno, failure));
        }
    };
    Ok((engine, offload_times))
}

/// `depth` slots, each free (no I/O loaded).
fn free_slots(depth: u32) -> Vec<Slot> {
    (0..depth)
        .map(|_| Slot {
            dir: Dir::Read,
            op: Op::Read,
            file: 0,
            offset: 0,
            len: 0,
            start_ns: 0,
            issue_ns: 0,
            measured: false,
            prio: None,
            prio_rec: 0,
        })
        .collect()
}

/// Stop reads from updating the file's access time (fio does the same for devices): the
/// benchmark should not churn metadata, and the kernel then skips the atime check on every read.
/// Only the owner (or CAP_FOWNER) may set O_NOATIME; otherwise the descriptor is left as it is.
fn no_atime(fd: i32) {
    // SAFETY: fcntl on a descriptor this worker owns; no memory is passed.
    unsafe {
        let fl = libc::fcntl(fd, libc::F_GETFL);
        if fl >= 0 && fl & libc::O_NOATIME == 0 {
            libc::fcntl(fd, libc::F_SETFL, fl | libc::O_NOATIME);
        }
    }
}

/// The number of files a job keeps open at most, when `openfiles` is below its number of
/// files (and the engine works on descriptors; offloaded jobs, refused by the front end, keep
/// every file open for their submit threads).
pub(super) fn open_limit(spec: &JobSpec, files: usize) -> Option<usize> {
    let n = spec.open_files as usize;
    let fds = !(spec.ioengine.is_metadata() || spec.ioengine.is_diskless());
    let inline = spec.submit_mode == SubmitMode::Inline;
    (fds && inline && n > 0 && n < files).then_some(n)
}

/// Open one of the job's files with its flags, then the best-effort hints: no atime updates,
/// dropped cache (`invalidate`), the access pattern (`fadvise_hint`). A failure carries its
/// errno.
pub(super) fn open_job_file(
    spec: &JobSpec,
    f: &WorkerFile,
    writes: bool,
) -> Result<RawFd, (i32, JobFailure)> {
    let fd = targets::open_target(
        &f.path,
        true,
        writes,
        false,
        spec.direct && !f.is_char,
        spec.sync,
    )
    .map_err(|e| {
        let errno = crate::sys::errno_of(&e);
        let failure = JobFailure::Open {
            job: spec.name.clone(),
            path: f.path.clone(),
            errno,
            reason: e.to_string(),
        };
        (errno, failure)
    })?
    .into_raw_fd();
    no_atime(fd);
    if !f.is_char {
        if spec.invalidate && !writes_only_fresh(spec) {
            // Best effort: a cache that cannot be dropped only makes reads faster.
            let _ = targets::invalidate_cache(fd, f.is_block);
        }
        // Best effort: a hint the kernel may ignore.
        let _ = sys::fadvise(
            fd,
            f.region_start,
            f.region_len,
            spec.fadvise_hint,
            spec.rw.is_random(),
        );
    }
    Ok(fd)
}

/// Close the descriptors the worker opened (the engine is dropped before).
pub(super) fn close_fds(files: &[EngineFile]) {
    for f in files {
        if f.fd >= 0 {
            // SAFETY: the worker owns these descriptors (from `into_raw_fd` in `Worker::new`)
            // and closes each exactly once, at setup failure or in `finish`.
            unsafe {
                libc::close(f.fd);
            }
        }
    }
}

/// A write-only job on a file it just laid out: invalidating gains nothing.
fn writes_only_fresh(spec: &JobSpec) -> bool {
    !spec.rw.has_read() && !spec.overwrite
}
