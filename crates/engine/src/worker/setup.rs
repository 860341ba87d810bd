//! Worker setup: affinity and I/O priority, the queue (files, buffers, engine: see
//! `queue_setup`), the generators, the logs, verifier and trace, and the job's controls.

use super::access::MixRun;
use super::dedupe::Dedupe;
use super::files::FileChooser;
use super::logs::{HistLog, Interval, LogWindow};
use super::prio::PrioDraw;
use super::queue_setup::{close_fds, open_limit, Failed, Queue};
use super::steady::SteadyRun;
use super::{trace, Worker, WorkerSetup};
use crate::depth_search::DepthSearch;
use crate::engines::EngineFile;
use crate::failure::JobFailure;
use crate::gen::{BsPicker, DirMix, OffsetGen};
use crate::job::{JobSpec, PerDir};
use crate::note::Note;
use crate::result::{CpuUsage, JobResult, TargetInfo};
use crate::rng::Rng;
use crate::sys;
use crate::targets;
use crate::verifier::Verifier;
use crate::worker_file::WorkerFile;
use std::sync::atomic::Ordering;

/// A failed setup: the job's result, carrying the failure.
pub(super) type SetupErr = Box<JobResult>;

impl Worker {
    /// Set up a worker, step by step in this order: its result, affinity and I/O priority, its
    /// queue, its draws, its records and its controls. A failure closes the files opened and
    /// comes back as the job's result.
    pub(super) fn new(mut s: WorkerSetup) -> Result<Worker, SetupErr> {
        crate::engines::prepare_job(&mut s.spec);
        let mut res = first_result(&s);
        pin_to_cpus(&s.spec, s.thread_number, &mut res);
        // Before the engine is set up, so that its submission threads inherit it.
        set_io_priority(&s.spec).map_err(|e| failed(&mut res, e))?;
        let job_start_ns = sys::now_ns();
        let queue = Queue::open(&s, &mut res).map_err(|e| failed(&mut res, e))?;
        let zbd = zones_of(&mut s).map_err(|e| failed(&mut res, e))?;
        let draws = Draws::new(&s.spec, &s.files, s.thread_number, queue.seed);
        let records = Records::open(&mut s, &mut res, &queue.efiles, queue.lazy, job_start_ns)
            .map_err(|e| failed(&mut res, e))?;
        publish_total(&s, records.replay.as_deref());
        let controls = Controls::new(&s, &mut res, job_start_ns);
        let mut w = Worker::assemble(s, res, queue, draws, records, controls, job_start_ns);
        w.zbd = zbd;
        if let Some(z) = &mut w.zbd {
            z.new_pass(w.writes);
        }
        Ok(w)
    }

    /// The worker made of its parts, before its first I/O: nothing issued or measured yet.
    fn assemble(
        s: WorkerSetup,
        res: JobResult,
        q: Queue,
        d: Draws,
        r: Records,
        c: Controls,
        job_start_ns: u64,
    ) -> Worker {
        let depth = q.slots.len();
        let amount = amount_of(&s);
        Worker {
            spec: s.spec,
            res,
            files: s.files,
            efiles: q.efiles,
            writes: q.writes,
            engine: q.engine,
            sync_engine: q.sync_engine,
            one_stage: q.one_stage,
            offload_times: q.offload_times,
            serialize: q.serialize,
            in_flight: q.in_flight,
            bufs: q.bufs,
            slots: q.slots,
            free: q.free,
            inflight: 0,
            rng: d.rng,
            data_rng: q.data_rng,
            dedupe: c.dedupe,
            bs: d.bs,
            mix: d.mix,
            gens: d.gens,
            zbd: None,
            loop_start: d.loop_start,
            access: d.access,
            file_chooser: d.file_chooser,
            stop: s.stop,
            progress: s.progress,
            amount,
            measuring: false,
            meas_start_ns: 0,
            job_start_ns,
            ramp_end_ns: 0,
            end_ns: u64::MAX,
            issued_bytes: 0,
            issued_total: 0,
            issued_ios: 0,
            loops_done: 0,
            pass_verified: false,
            pass_verify_bytes: 0,
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
            comps: Vec::with_capacity(depth),
            uncommitted: Vec::with_capacity(depth),
            log_window: r.log_window,
            hist_log: r.hist_log,
            verifier: r.verifier,
            verify_due: false,
            recorder: r.recorder,
            replay: r.replay,
            steady_next_ns: if c.steady.is_some() {
                job_start_ns + 1_000_000_000
            } else {
                u64::MAX
            },
            steady: c.steady,
            flow: s.flow,
            depth_now: if c.search.is_some() { 1 } else { depth },
            lat_bound_ns: c.lat_bound_ns,
            search: c.search,
            search_due_ns: u64::MAX,
            search_reset_done: false,
            pair_write: None,
            prio: c.prio,
            job_prio: c.job_prio,
        }
    }
}

/// The job's result as its worker starts: which clone it is, and when it started.
fn first_result(s: &WorkerSetup) -> JobResult {
    JobResult {
        name: s.spec.name.clone(),
        job_index: s.job_index,
        clone: s.clone,
        thread_number: s.thread_number,
        group_id: s.spec.group_id,
        start_unix_ms: sys::unix_ms(),
        ran: true,
        ..Default::default()
    }
}

/// Run the thread on the job's CPUs (all of them, or with the split policy one per thread); a
/// refusal is only noted.
fn pin_to_cpus(spec: &JobSpec, thread_number: u32, res: &mut JobResult) {
    if let Some(cpus) = &spec.cpus_allowed {
        let cpus: Vec<usize> = match spec.cpus_allowed_policy {
            crate::job::CpusAllowedPolicy::Shared => cpus.clone(),
            crate::job::CpusAllowedPolicy::Split => {
                vec![cpus[thread_number as usize % cpus.len().max(1)]]
            }
        };
        if let Err(e) = sys::set_affinity(&cpus) {
            res.notes.push(Note::AffinityNotApplied {
                job: spec.name.clone(),
                reason: e.to_string(),
            });
        }
    }
}

/// Give the thread the job's I/O priority, when it has one.
fn set_io_priority(spec: &JobSpec) -> Result<(), Failed> {
    if let Some(p) = spec.io_priority {
        if let Err(e) = sys::set_io_priority(p) {
            let errno = e.raw_os_error().unwrap_or(libc::EINVAL);
            let failure = JobFailure::IoPriority {
                job: spec.name.clone(),
                class: p.class,
                level: p.level,
                errno,
            };
            return Err((errno, failure));
        }
    }
    Ok(())
}

/// The job's result carrying a setup failure (taken from `res`, which is left empty).
/// The job's emulated zones (`zonemode=zbd`), its regions moved in to whole zones.
fn zones_of(s: &mut WorkerSetup) -> Result<Option<Box<crate::zbd::WorkerZones>>, Failed> {
    crate::zbd::WorkerZones::new(&s.spec, &mut s.files, &s.zones)
        .map(|z| z.map(Box::new))
        .map_err(|(path, reason)| {
            let job = s.spec.name.clone();
            (libc::EINVAL, JobFailure::Zones { job, path, reason })
        })
}

fn failed(res: &mut JobResult, (errno, failure): Failed) -> SetupErr {
    let mut res = std::mem::take(res);
    res.error = errno;
    res.failure = Some(failure);
    Box::new(res)
}

/// The job's random draws and where its I/O goes: the main stream, the offset generators,
/// the block sizes, the direction mix, the file chooser and the access mix.
struct Draws {
    rng: Rng,
    /// Offset generator per file.
    gens: Vec<OffsetGen>,
    /// The generators and the main stream as the first loop begins, when every loop repeats it.
    loop_start: Option<Box<(Vec<OffsetGen>, Rng)>>,
    bs: PerDir<BsPicker>,
    mix: DirMix,
    file_chooser: FileChooser,
    access: Option<Box<MixRun>>,
}

impl Draws {
    /// The draws of the job's thread, its main stream seeded by `seed`.
    fn new(spec: &JobSpec, files: &[WorkerFile], thread_number: u32, seed: u64) -> Draws {
        let mut rng = Rng::new(seed);
        let gens = offset_gens(spec, files, thread_number);
        let _ = rng.next_u64();
        // Several passes: several loops, or an io_size that may wrap around the files.
        let passes = spec.loops > 1 || spec.io_size.is_some();
        let loop_start = (spec.randrepeat && passes && !spec.time_based)
            .then(|| Box::new((gens.clone(), rng.clone())));
        let bs = spec.bs.map(BsPicker::new);
        // The mix draws as fio does: its stream seeded from randseed and the (1-based) thread.
        let mix_seed = if spec.repeatable_seeds() {
            crate::gen::stream_seed(spec.randseed, thread_number + 1, crate::gen::Stream::Mix)
        } else {
            crate::rng::job_seed(spec.randseed, false, thread_number, 8)
        };
        let mix = DirMix::new(spec.rwmixread, mix_seed);
        let file_chooser = FileChooser::new(
            &spec.file_service,
            files.len(),
            open_limit(spec, files.len()),
        );
        let access = spec
            .access_mix
            .as_ref()
            .map(|m| Box::new(MixRun::new(m, files)));
        Draws {
            rng,
            gens,
            loop_start,
            bs,
            mix,
            file_chooser,
            access,
        }
    }
}

/// One offset generator per file, each on its own stream, over the file's region.
fn offset_gens(spec: &JobSpec, files: &[WorkerFile], thread_number: u32) -> Vec<OffsetGen> {
    files
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let seed = crate::rng::job_seed(
                spec.randseed,
                spec.repeatable_seeds(),
                thread_number,
                2 + i as u32,
            );
            let mut g = OffsetGen::for_job(spec, f.region_start, f.region_len, seed);
            if !f.is_char {
                g.set_file_size(f.size);
            }
            g
        })
        .collect()
}

/// What the job keeps a record of, or follows: its logs, its verifier, the trace it records
/// and the trace it replays.
struct Records {
    log_window: Option<LogWindow>,
    hist_log: Option<Box<HistLog>>,
    verifier: Option<Verifier>,
    recorder: Option<Box<trace::Recorder>>,
    replay: Option<Box<trace::ReplayCursor>>,
}

impl Records {
    /// The logs, the verifier, the targets (into `res`), the trace recorder and the replay
    /// (taken from the spec), in that order; a failure closes `efiles`.
    fn open(
        s: &mut WorkerSetup,
        res: &mut JobResult,
        efiles: &[EngineFile],
        lazy: bool,
        job_start_ns: u64,
    ) -> Result<Records, Failed> {
        let log_window = LogWindow::for_job(&s.spec.logs);
        let hist_log = HistLog::for_job(&s.spec.logs).map(Box::new);
        let verifier = new_verifier(&s.spec, s.thread_number, &s.files).inspect_err(|_| {
            close_fds(efiles);
        })?;
        res.targets = probe_targets(&s.files);
        let recorder = open_recorder(&s.spec, &s.files, job_start_ns, lazy).inspect_err(|_| {
            close_fds(efiles);
        })?;
        let replay = s
            .spec
            .replay
            .take()
            .map(|r| Box::new(trace::ReplayCursor::new(r.entries, r.stall)));
        Ok(Records {
            log_window,
            hist_log,
            verifier,
            recorder,
            replay,
        })
    }
}

/// The job's verifier, when it verifies.
fn new_verifier(
    spec: &JobSpec,
    thread_number: u32,
    files: &[WorkerFile],
) -> Result<Option<Verifier>, Failed> {
    let Some(v) = &spec.verify else {
        return Ok(None);
    };
    match Verifier::new(
        v,
        &spec.name,
        thread_number,
        crate::rng::job_seed(spec.randseed, true, thread_number, 7),
        spec.min_bs(),
        files,
    ) {
        Ok(mut v) => {
            v.read_side = !spec.rw.has_write();
            if spec.verify.as_ref().is_some_and(|v| v.keep_progress) {
                v.keep_progress(spec.iodepth);
            }
            Ok(Some(v))
        }
        Err(e) => {
            let failure = JobFailure::Verifier {
                job: spec.name.clone(),
                reason: e.to_string(),
            };
            Err((libc::EINVAL, failure))
        }
    }
}

/// What each of the job's files is, for the result (files that cannot be probed are left out).
fn probe_targets(files: &[WorkerFile]) -> Vec<TargetInfo> {
    let mut targets = Vec::new();
    for f in files {
        if let Ok(t) = targets::probe(&f.path) {
            targets.push(t);
        }
    }
    targets
}

/// The recorder of the I/O the job issues, when it records a trace.
fn open_recorder(
    spec: &JobSpec,
    files: &[WorkerFile],
    job_start_ns: u64,
    lazy: bool,
) -> Result<Option<Box<trace::Recorder>>, Failed> {
    let Some(rec) = &spec.record else {
        return Ok(None);
    };
    let paths: Vec<_> = files.iter().map(|f| f.path.clone()).collect();
    let now = sys::now_ns();
    match trace::Recorder::open(rec, &paths, job_start_ns, now, lazy) {
        Ok(r) => Ok(Some(Box::new(r))),
        Err(e) => {
            let errno = e.raw_os_error().unwrap_or(libc::EIO);
            let failure = JobFailure::Trace {
                job: spec.name.clone(),
                path: rec.path.clone(),
                errno,
            };
            Err((errno, failure))
        }
    }
}

/// The job's amount limits over its files' regions.
fn amount_of(s: &WorkerSetup) -> super::amount::Amount {
    let region = s.files.iter().map(|f| f.region_len).sum();
    super::amount::Amount::new(&s.spec, region, s.io_bytes_per_loop)
}

/// Publish the bytes the job will move in total, for a progress display: the replayed trace's,
/// or every pass's.
fn publish_total(s: &WorkerSetup, replay: Option<&trace::ReplayCursor>) {
    let total = match replay {
        Some(r) => r.total_bytes(),
        None => amount_of(s).expected_total(),
    };
    s.progress.total_bytes.store(total, Ordering::Relaxed);
}

/// What steers the job's I/O beyond where it goes: steady-state detection, the latency bounds
/// and depth search, dedupe of the write data, request priorities.
struct Controls {
    steady: Option<Box<SteadyRun>>,
    lat_bound_ns: [u64; 3],
    search: Option<Box<DepthSearch>>,
    dedupe: Option<Box<Dedupe>>,
    prio: Option<Box<PrioDraw>>,
    job_prio: u16,
}

impl Controls {
    /// The job's controls, starting at `job_start_ns` (the priorities' records go into `res`).
    fn new(s: &WorkerSetup, res: &mut JobResult, job_start_ns: u64) -> Controls {
        let spec = &s.spec;
        let steady = spec
            .steady
            .clone()
            .map(|sp| Box::new(SteadyRun::new(sp, job_start_ns, s.steady_group.clone())));
        let lat_bound_ns = super::depth::latency_bounds(spec);
        let search = spec.depth_search.enabled().then(|| {
            Box::new(DepthSearch::new(
                spec.depth_search,
                // As fio, the search goes up to the job's iodepth even where the engine runs
                // one I/O at a time (the queue is then never deeper than 1).
                spec.iodepth.max(1),
                job_start_ns,
                0,
            ))
        });
        let region: u64 = s.files.iter().map(|f| f.region_len).sum();
        let dedupe = Dedupe::new(spec, s.thread_number, s.threads, region).map(Box::new);
        let prio = PrioDraw::for_job(spec, s.thread_number, &mut res.dirs);
        let job_prio = super::prio::job_prio(spec);
        Controls {
            steady,
            lat_bound_ns,
            search,
            dedupe,
            prio,
            job_prio,
        }
    }
}
