//! Worker setup: affinity, opening the files, the buffers, the engine (falling back from io_uring
//! to libaio when io_uring is unavailable), the generators and the verifier.

use super::buffers::{fill_buffer, Buffers};
use super::files::FileChooser;
use super::logs::{HistLog, Interval, LogWindow};
use super::{trace, Slot, Worker, WorkerSetup};
use crate::engines::{self, Engine, EngineFile, Op};
use crate::failure::JobFailure;
use crate::gen::{BsPicker, DirMix, OffsetGen};
use crate::job::{Dir, EngineKind, JobSpec, SubmitMode};
use crate::note::Note;
use crate::offload::{OffloadPool, PoolSetup};
use crate::result::{CpuUsage, JobResult};
use crate::rng::Rng;
use crate::sys;
use crate::target;
use crate::worker_file::WorkerFile;
use std::os::fd::{IntoRawFd, RawFd};
use std::sync::atomic::Ordering;

/// A failed setup: the job's result, carrying the failure.
pub(super) type SetupErr = Box<JobResult>;

impl Worker {
    pub(super) fn new(s: WorkerSetup) -> Result<Worker, SetupErr> {
        let spec = s.spec;
        let mut res = JobResult {
            name: spec.name.clone(),
            job_index: s.job_index,
            clone: s.clone,
            thread_number: s.thread_number,
            group_id: spec.group_id,
            start_unix_ms: sys::unix_ms(),
            ran: true,
            ..Default::default()
        };
        let fail = |mut res: JobResult, errno: i32, failure: JobFailure| -> SetupErr {
            res.error = errno;
            res.failure = Some(failure);
            Box::new(res)
        };
        if let Some(cpus) = &spec.cpus_allowed {
            let cpus: Vec<usize> = match spec.cpus_allowed_policy {
                crate::job::CpusAllowedPolicy::Shared => cpus.clone(),
                crate::job::CpusAllowedPolicy::Split => {
                    vec![cpus[s.thread_number as usize % cpus.len().max(1)]]
                }
            };
            if let Err(e) = sys::set_affinity(&cpus) {
                res.notes.push(Note::AffinityNotApplied {
                    job: spec.name.clone(),
                    reason: e.to_string(),
                });
            }
        }
        // Before the engine is set up, so that its submission threads inherit it.
        if let Some(p) = spec.io_priority {
            if let Err(e) = sys::set_io_priority(p) {
                let errno = e.raw_os_error().unwrap_or(libc::EINVAL);
                let failure = JobFailure::IoPriority {
                    job: spec.name.clone(),
                    class: p.class,
                    level: p.level,
                    errno,
                };
                return Err(fail(res, errno, failure));
            }
        }
        let job_start_ns = sys::now_ns();
        let kind = spec.ioengine;
        let verify_only = spec.verify.as_ref().is_some_and(|v| v.only);
        let writes = (spec.rw.has_write() && !verify_only) || spec.rw.has_trim();
        // Open files; with `openfiles` below their number, each is opened when first chosen.
        let lazy = open_limit(&spec, s.files.len()).is_some();
        let mut efiles = Vec::with_capacity(s.files.len());
        for f in &s.files {
            let fd = if kind.is_metadata() || kind.is_diskless() || lazy {
                -1
            } else {
                match open_job_file(&spec, f, writes) {
                    Ok(fd) => fd,
                    Err((errno, failure)) => {
                        close_fds(&efiles);
                        return Err(fail(res, errno, failure));
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
        // Buffers: one per slot, aligned to the logical block size (at least a page).
        // Offloaded: one submit thread per slot, each running one I/O at a time.
        let offload = spec.submit_mode == SubmitMode::Offload;
        let depth = if offload {
            spec.iodepth.max(1)
        } else if kind.is_sync() && kind != EngineKind::Null {
            1
        } else {
            spec.iodepth.max(1)
        };
        let align = s
            .files
            .iter()
            .map(|f| f.logical_block_size)
            .max()
            .unwrap_or(512)
            .max(sys::page_size() as u64) as usize;
        let buf_len = (spec.max_bs() as usize).max(1);
        let seed = crate::rng::job_seed(spec.randseed, spec.repeatable_seeds(), s.thread_number, 0);
        let mut data_rng = Rng::new(crate::rng::job_seed(
            spec.randseed,
            spec.repeatable_seeds(),
            s.thread_number,
            1,
        ));
        let bufs = Buffers::new(depth as usize, buf_len, align, |b| {
            fill_buffer(&spec, b, &mut data_rng)
        });
        let ebufs = bufs.engine_bufs();
        let esetup = engines::EngineSetup {
            depth,
            files: &efiles,
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
                files: &efiles,
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
                        close_fds(&efiles);
                        let failure = JobFailure::Engine {
                            job: spec.name.clone(),
                            engine: EngineKind::Libaio,
                            fallback_from: Some(kind),
                            errno: libc::ENOSYS,
                            reason: e.to_string(),
                        };
                        return Err(fail(res, libc::ENOSYS, failure));
                    }
                }
            }
            Err(e) => {
                close_fds(&efiles);
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
                return Err(fail(res, errno, failure));
            }
        };
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
        let slots: Vec<Slot> = (0..depth)
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
            .collect();
        let free: Vec<u32> = (0..depth).rev().collect();
        let mut rng = Rng::new(seed);
        let gens: Vec<OffsetGen> = s
            .files
            .iter()
            .enumerate()
            .map(|(i, f)| {
                let seed = crate::rng::job_seed(
                    spec.randseed,
                    spec.repeatable_seeds(),
                    s.thread_number,
                    2 + i as u32,
                );
                let mut g = OffsetGen::for_job(&spec, f.region_start, f.region_len, seed);
                if !f.is_char {
                    g.set_file_size(f.size);
                }
                g
            })
            .collect();
        let _ = rng.next_u64();
        let loop_start = (spec.randrepeat && spec.loops > 1 && !spec.time_based)
            .then(|| Box::new((gens.clone(), rng.clone())));
        let bs = spec.bs.map(BsPicker::new);
        // The mix draws as fio does: its stream seeded from randseed and the (1-based) thread.
        let mix_seed = if spec.repeatable_seeds() {
            crate::gen::stream_seed(spec.randseed, s.thread_number + 1, crate::gen::Stream::Mix)
        } else {
            crate::rng::job_seed(spec.randseed, false, s.thread_number, 8)
        };
        let mix = DirMix::new(spec.rwmixread, mix_seed);
        let file_chooser = FileChooser::new(
            &spec.file_service,
            s.files.len(),
            open_limit(&spec, s.files.len()),
        );
        let access = spec
            .access_mix
            .as_ref()
            .map(|m| Box::new(super::access::MixRun::new(m, &s.files)));
        let log_window = LogWindow::for_job(&spec.logs);
        let hist_log = HistLog::for_job(&spec.logs).map(Box::new);
        let verifier = match &spec.verify {
            Some(v) => match crate::verifier::Verifier::new(
                v,
                &spec.name,
                s.thread_number,
                crate::rng::job_seed(spec.randseed, true, s.thread_number, 7),
                spec.min_bs(),
                &s.files,
            ) {
                Ok(mut v) => {
                    v.read_side = !spec.rw.has_write();
                    if spec.verify.as_ref().is_some_and(|v| v.keep_progress) {
                        v.keep_progress(spec.iodepth);
                    }
                    Some(v)
                }
                Err(e) => {
                    close_fds(&efiles);
                    let failure = JobFailure::Verifier {
                        job: spec.name.clone(),
                        reason: e.to_string(),
                    };
                    return Err(fail(res, libc::EINVAL, failure));
                }
            },
            None => None,
        };
        let mut targets = Vec::new();
        for f in &s.files {
            if let Ok(t) = target::probe(&f.path) {
                targets.push(t);
            }
        }
        res.targets = targets;
        let recorder = match &spec.record {
            Some(rec) => {
                let paths: Vec<_> = s.files.iter().map(|f| f.path.clone()).collect();
                let now = sys::now_ns();
                match trace::Recorder::open(rec, &paths, job_start_ns, now, lazy) {
                    Ok(r) => Some(Box::new(r)),
                    Err(e) => {
                        close_fds(&efiles);
                        let errno = e.raw_os_error().unwrap_or(libc::EIO);
                        let failure = JobFailure::Trace {
                            job: spec.name.clone(),
                            path: rec.path.clone(),
                            errno,
                        };
                        return Err(fail(res, errno, failure));
                    }
                }
            }
            None => None,
        };
        let mut spec = spec;
        let replay = spec
            .replay
            .take()
            .map(|r| Box::new(trace::ReplayCursor::new(r.entries, r.stall)));
        let steady = spec
            .steady
            .clone()
            .map(|sp| Box::new(super::steady::SteadyRun::new(sp, job_start_ns)));
        let lat_bound_ns = super::depth::latency_bounds(&spec);
        let search = spec.depth_search.enabled().then(|| {
            Box::new(crate::depth_search::DepthSearch::new(
                spec.depth_search,
                // As fio, the search goes up to the job's iodepth even where the engine runs
                // one I/O at a time (the queue is then never deeper than 1).
                spec.iodepth.max(1),
                job_start_ns,
                0,
            ))
        });
        let slots_len = slots.len();
        let total = match &replay {
            Some(r) => r.total_bytes(),
            None => s.io_bytes_per_loop * spec.loops as u64,
        };
        s.progress.total_bytes.store(total, Ordering::Relaxed);
        let region: u64 = s.files.iter().map(|f| f.region_len).sum();
        let dedupe =
            super::dedupe::Dedupe::new(&spec, s.thread_number, s.threads, region).map(Box::new);
        let prio = super::prio::PrioDraw::for_job(&spec, s.thread_number, &mut res.dirs);
        let job_prio = super::prio::job_prio(&spec);
        Ok(Worker {
            spec,
            res,
            files: s.files,
            efiles,
            writes,
            engine,
            sync_engine,
            one_stage,
            offload_times,
            serialize,
            in_flight,
            bufs,
            slots,
            free,
            inflight: 0,
            rng,
            data_rng,
            dedupe,
            bs,
            mix,
            gens,
            loop_start,
            access,
            file_chooser,
            stop: s.stop,
            progress: s.progress,
            io_bytes_per_loop: s.io_bytes_per_loop,
            measuring: false,
            meas_start_ns: 0,
            job_start_ns,
            ramp_end_ns: 0,
            end_ns: u64::MAX,
            issued_bytes: 0,
            issued_ios: 0,
            loops_done: 0,
            writes_issued: 0,
            last_was_sync: false,
            blocks_since_think: 0,
            next_issue_ns: [0; 3],
            bytes: [0; 3],
            ios: [0; 3],
            interval: Interval::starting_at(0),
            cpu_start: CpuUsage::default(),
            done_issuing: false,
            error: false,
            comps: Vec::with_capacity(depth as usize),
            uncommitted: Vec::with_capacity(depth as usize),
            log_window,
            hist_log,
            verifier,
            verify_due: false,
            recorder,
            replay,
            steady_next_ns: if steady.is_some() {
                job_start_ns + 1_000_000_000
            } else {
                u64::MAX
            },
            steady,
            flow: s.flow,
            depth_now: if search.is_some() { 1 } else { slots_len },
            lat_bound_ns,
            search,
            search_due_ns: u64::MAX,
            search_reset_done: false,
            pair_write: None,
            prio,
            job_prio,
        })
    }
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
    let fd = target::open_target(
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
            let _ = target::invalidate_cache(fd, f.is_block);
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
