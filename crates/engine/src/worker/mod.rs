//! One worker thread per job clone: it owns its engine, buffers, generators, RNG and stats, and
//! runs the issue/complete loop. Nothing on the per-I/O path allocates, locks or formats; the
//! clock is read once per submit batch and once per reap batch (twice per I/O for sync engines:
//! around the system call).
//!
//! The parts, each in its own file:
//! - `setup`: the steps of `Worker::new`: affinity, the generators, logs, verifier and trace;
//! - `queue_setup`: opening the files, the buffers and the engine, for `setup`;
//! - `io_loop`: the issue/complete loop, submission and reaping;
//! - `complete`: accounting one completion, I/O errors;
//! - `pick`: the next I/O's direction, block size and offset, rate limiting;
//! - `access`: the next I/O of a job with an access mix;
//! - `files`: which file the next I/O goes to (file_service_type);
//! - `pause`: fsync every N writes, think time, flow control, sleeping until a deadline;
//! - `logs`: bw/iops samples, averaged and per-I/O log entries, histogram logs, progress;
//! - `prio`: which reads and writes carry a request priority of their own;
//! - `depth`: the latency limit, and the depth search under a latency target;
//! - `steady`: steady-state detection (a sample a second, ending the job once steady);
//! - `trace`: recording the issued I/O into a trace file, replaying a trace;
//! - `verify_hooks`: the worker's side of data verification;
//! - `buffers`: the owned I/O buffers and how write data is generated.

use crate::engines::Capabilities;
mod access;
mod amount;
mod buffers;
mod complete;
mod dedupe;
mod depth;
// Whole timed runs on the modelled device: the end-to-end tier (they need a quiet clock).
#[cfg(all(test, feature = "end-to-end"))]
mod depth_tests;
mod files;
mod flight;
mod io_loop;
mod logs;
mod open_files;
mod pause;
mod pick;
#[cfg(test)]
mod pick_tests;
mod prio;
mod queue_setup;
mod setup;
mod steady;
mod trace;
mod verify_hooks;
#[cfg(test)]
mod wrap_tests;

pub(crate) use crate::worker_file::WorkerFile;
pub use flight::{Flight, FlightNow};

use crate::engines::{Completion, Engine, EngineFile, Op};
use crate::failure::{FlushPoint, JobFailure};
use crate::gen::{BsPicker, DirMix, OffsetGen};
use crate::job::{Dir, JobSpec, PerDir, RwMode};
use crate::result::{CpuUsage, DirResult, JobResult};
use crate::rng::Rng;
use crate::sys;
use buffers::Buffers;
use files::FileChooser;
use logs::{HistLog, Interval, LogWindow};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering};
use std::sync::Arc;

/// What a worker is doing, for a live status display.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WorkerState {
    /// Opening files, allocating buffers, setting up the engine.
    Setup,
    /// Doing I/O (ramp or measured phase).
    Running,
    /// Finished without error.
    Done,
    /// Finished with an error.
    Failed,
}

impl WorkerState {
    const ALL: [WorkerState; 4] = [
        WorkerState::Setup,
        WorkerState::Running,
        WorkerState::Done,
        WorkerState::Failed,
    ];

    /// Whether the worker has finished (with or without an error).
    pub fn finished(self) -> bool {
        matches!(self, WorkerState::Done | WorkerState::Failed)
    }
}

/// Live counters of one worker, written by the worker and read by the status thread.
#[derive(Debug)]
pub struct WorkerProgress {
    pub name: String,
    pub bytes: [AtomicU64; 3],
    pub ios: [AtomicU64; 3],
    /// Bytes the job will move in total (0 when time based).
    pub total_bytes: AtomicU64,
    /// Runtime limit in ms (0 = none) and ms elapsed in the measured phase.
    pub runtime_ms: AtomicU64,
    pub elapsed_ms: AtomicU64,
    /// When `bytes` and `ios` were last published (sys::now_ns, CLOCK_MONOTONIC; 0 = never):
    /// a reader computes rates between two publications, not between its own reads.
    pub published_ns: AtomicU64,
    /// The [`WorkerState`], as its index in `WorkerState::ALL`.
    state: AtomicU8,
    /// The job's directions and order of offsets.
    pub rw: RwMode,
    /// Set by a reporter (`--status-interval`) to ask for a snapshot of the results so far; the
    /// worker answers at its next bw/iops sample and clears it. A finished worker leaves its
    /// final result here.
    pub snapshot_req: AtomicBool,
    pub snapshot: std::sync::Mutex<Option<JobResult>>,
    /// A reporter reads `snapshot`: leave the final result there too (else nothing is copied).
    pub keep_final: AtomicBool,
    /// Requests in flight and latencies so far, for a worker whose progress shows them.
    pub flight: Flight,
}

impl WorkerProgress {
    pub(crate) fn new(name: &str, rw: RwMode) -> Self {
        WorkerProgress {
            name: name.to_string(),
            bytes: Default::default(),
            ios: Default::default(),
            total_bytes: AtomicU64::new(0),
            runtime_ms: AtomicU64::new(0),
            elapsed_ms: AtomicU64::new(0),
            published_ns: AtomicU64::new(0),
            state: AtomicU8::new(0),
            rw,
            snapshot_req: AtomicBool::new(false),
            snapshot: Default::default(),
            keep_final: AtomicBool::new(false),
            flight: Flight::default(),
        }
    }

    /// What the worker is doing now.
    pub fn state(&self) -> WorkerState {
        WorkerState::ALL[self.state.load(Ordering::Relaxed) as usize]
    }

    pub(crate) fn set_state(&self, s: WorkerState) {
        let code = WorkerState::ALL.iter().position(|&x| x == s).unwrap_or(0);
        self.state.store(code as u8, Ordering::Relaxed);
    }
}

/// Everything a worker needs, prepared by the runner.
pub(crate) struct WorkerSetup {
    pub(crate) spec: JobSpec,
    pub(crate) job_index: usize,
    pub(crate) clone: u32,
    pub(crate) thread_number: u32,
    /// Job clones in the run (all jobs).
    pub(crate) threads: u32,
    pub(crate) files: Vec<WorkerFile>,
    /// Total bytes to move per loop (io_size or the sum of regions).
    pub(crate) io_bytes_per_loop: u64,
    pub(crate) stop: Arc<AtomicBool>,
    pub(crate) progress: Arc<WorkerProgress>,
    /// The job's seat in its flow (flow control between jobs), if it has one.
    pub(crate) flow: Option<crate::flow::FlowSeat>,
    /// The run's ranges in flight, for jobs that serialize overlapping I/O on submit threads.
    pub(crate) overlap: Arc<crate::offload::InFlight>,
    /// The run's emulated zones (`zonemode=zbd`), shared by the jobs on a target.
    pub(crate) zones: Arc<crate::zbd::Registry>,
    /// The reporting group's steady-state window and this clone's member number in it, when
    /// the group judges steady state together.
    pub(crate) steady_group: Option<(Arc<crate::steady_group::SteadyGroup>, usize)>,
}

const NS_PER_MS: u64 = 1_000_000;

/// One queue slot: the I/O it carries (slot i owns buffer i).
struct Slot {
    dir: Dir,
    op: Op,
    file: u32,
    offset: u64,
    len: usize,
    start_ns: u64,
    issue_ns: u64,
    measured: bool,
    /// The request's own priority, if it carries one.
    prio: Option<u16>,
    /// Its per-priority record (0: the job's own priority).
    prio_rec: u8,
}

/// Run one worker to completion and return its results.
pub(crate) fn run_worker(setup: WorkerSetup) -> JobResult {
    let mut w = match Worker::new(setup) {
        Ok(w) => w,
        Err(res) => return *res,
    };
    w.run();
    w.finish()
}

struct Worker {
    spec: JobSpec,
    res: JobResult,
    files: Vec<WorkerFile>,
    efiles: Vec<EngineFile>,
    /// The files are opened for writing (the job writes or trims).
    writes: bool,
    /// Declared before `bufs`: the engine (which may have registered the buffers with the
    /// kernel) is dropped first.
    engine: Box<dyn Engine>,
    sync_engine: bool,
    /// No submission stage to time (a sync engine, also when offloaded): no slat, lat = clat.
    one_stage: bool,
    /// Offloaded: when the submit threads issued and completed each slot's I/O.
    offload_times: Option<Arc<crate::offload::SlotTimes>>,
    /// The job's thread keeps overlapping I/Os out of its queue.
    serialize: bool,
    /// With `serialize`: which slots are in flight (empty otherwise).
    in_flight: Vec<bool>,
    bufs: Buffers,
    slots: Vec<Slot>,
    free: Vec<u32>,
    inflight: usize,
    rng: Rng,
    data_rng: Rng,
    /// `dedupe_percentage`: which write buffers repeat earlier data.
    dedupe: Option<Box<dedupe::Dedupe>>,
    bs: PerDir<BsPicker>,
    mix: DirMix,
    /// Offset generator per file.
    gens: Vec<OffsetGen>,
    /// Emulated zones (`zonemode=zbd`): where each write and read lands.
    zbd: Option<Box<crate::zbd::WorkerZones>>,
    /// The offset generators and the job's stream as the first loop began, when every loop
    /// repeats the first (fio's `randrepeat` without `randseed`, over several loops).
    loop_start: Option<Box<(Vec<OffsetGen>, Rng)>>,
    /// The access mix's picker and offsets, when the job has one.
    access: Option<Box<access::MixRun>>,
    file_chooser: FileChooser,
    stop: Arc<AtomicBool>,
    progress: Arc<WorkerProgress>,
    /// What the job moves, per pass and in all.
    amount: amount::Amount,
    // state
    measuring: bool,
    meas_start_ns: u64,
    job_start_ns: u64,
    ramp_end_ns: u64,
    end_ns: u64,
    /// Bytes issued in this pass, and in all.
    issued_bytes: u64,
    issued_total: u64,
    issued_ios: u64,
    /// Passes over the files finished.
    loops_done: u32,
    /// The pass that ended was read back and checked (passes verified one by one), and the
    /// bytes all such read-backs read.
    pass_verified: bool,
    pass_verify_bytes: u64,
    /// Writes issued since the job began measuring (fio's write issue count, which fsync=N
    /// and fdatasync=N divide).
    writes_issued: u64,
    /// The last I/O to complete was a sync: no other sync until another I/O completed.
    last_was_sync: bool,
    blocks_since_think: u32,
    next_issue_ns: [u64; 3],
    bytes: [u64; 3],
    ios: [u64; 3],
    interval: Interval,
    cpu_start: CpuUsage,
    done_issuing: bool,
    error: bool,
    comps: Vec<Completion>,
    uncommitted: Vec<u32>,
    log_window: Option<LogWindow>,
    hist_log: Option<Box<HistLog>>,
    verifier: Option<crate::verifier::Verifier>,
    verify_due: bool,
    recorder: Option<Box<trace::Recorder>>,
    replay: Option<Box<trace::ReplayCursor>>,
    steady: Option<Box<steady::SteadyRun>>,
    /// When the next steady-state sample is due (u64::MAX: no detection).
    steady_next_ns: u64,
    flow: Option<crate::flow::FlowSeat>,
    /// How many I/Os may be in flight now: the queue's size, or the depth search's depth (0
    /// while the search drains the queue).
    depth_now: usize,
    /// Per direction, the total latency over which a completion is looked at (latency limit,
    /// latency target; u64::MAX: neither).
    lat_bound_ns: [u64; 3],
    /// The depth search under a latency target, when the job has one.
    search: Option<Box<crate::depth_search::DepthSearch>>,
    /// When the search's window is due (u64::MAX: none due).
    search_due_ns: u64,
    /// The measurements restarted for the search's final window.
    search_reset_done: bool,
    /// trimwrite: the write due after the last trim (file, offset, length).
    pair_write: Option<(u32, u64, usize)>,
    /// The draw of request priorities, when requests carry their own.
    prio: Option<Box<prio::PrioDraw>>,
    /// The priority value of the job's own requests (0: none set).
    job_prio: u16,
}

impl Worker {
    /// Start the measured phase (after the ramp, or at once).
    #[cold]
    fn begin_measuring(&mut self, now: u64) {
        self.measuring = true;
        self.meas_start_ns = now;
        if !self.spec.ramp_time.is_zero() {
            // As fio at the end of the ramp: the mix counts and the write count of
            // fsync=N start again.
            self.mix.restart_counts();
            self.writes_issued = 0;
        }
        self.cpu_start = sys::rusage_thread();
        self.bytes = [0; 3];
        self.ios = [0; 3];
        self.interval = Interval::starting_at(now);
        if let Some(w) = &mut self.log_window {
            w.start_ns = now;
        }
        if let Some(h) = &mut self.hist_log {
            h.last_ns = now;
            h.last = Default::default();
        }
        if let Some(rt) = self.spec.runtime {
            self.end_ns = now.saturating_add(rt.as_nanos() as u64);
        }
        if let Some(s) = self.search.as_deref_mut() {
            // The search starts again from depth 1 with the measured phase (not in its final
            // window, whose measurements start here).
            s.restart(now, 0);
            if self.depth_now != 0 {
                self.depth_now = (s.depth() as usize).clamp(1, self.slots.len());
                self.search_due_ns = s.window_due_ns();
            }
        }
        self.progress.runtime_ms.store(
            self.spec.runtime.map_or(0, |r| r.as_millis() as u64),
            Ordering::Relaxed,
        );
    }

    /// Checks the time limits; returns false when no more I/O should be issued. On the per-I/O
    /// path: always inlined, with the rare work (ramp end, snapshots, samples) out of line.
    #[inline(always)]
    fn check_time(&mut self, now: u64) -> bool {
        if !self.measuring && now >= self.ramp_end_ns {
            self.begin_measuring(now);
        }
        if self.progress.snapshot_req.load(Ordering::Relaxed) {
            self.answer_snapshot();
        }
        if now >= self.search_due_ns {
            self.search_window(now);
        }
        if now >= self.steady_next_ns && self.steady_sample(now) {
            self.done_issuing = true;
            return false;
        }
        if self.measuring {
            self.sample_intervals(now);
            if now >= self.end_ns {
                self.done_issuing = true;
                return false;
            }
        }
        true
    }

    /// Close the logs, sync and close the files and hand back the results.
    fn finish(mut self) -> JobResult {
        let now = sys::now_ns();
        self.flush_log_window(now, true);
        if self.measuring {
            self.flush_hist_log(now);
        }
        self.publish_progress(now);
        let mut res = std::mem::take(&mut self.res);
        self.fill_totals(&mut res, now);
        if let Some(s) = &self.steady {
            s.leave();
            res.steady = Some(s.result());
        }
        res.search_depth = self.search.as_ref().map(|s| s.depth());
        res.zone_resets = self.zbd.as_ref().map_or(0, |z| z.resets);
        self.res = res;
        if self.spec.fsync_on_close {
            self.fsync_files(FlushPoint::Close);
        }
        if let Some(mut r) = self.recorder.take() {
            if let Err((path, errno)) = r.close(sys::now_ns()) {
                let job = self.spec.name.clone();
                self.fatal(errno, JobFailure::Trace { job, path, errno });
            }
        }
        self.progress.set_state(if self.res.error != 0 {
            WorkerState::Failed
        } else {
            WorkerState::Done
        });
        drop(self.engine);
        queue_setup::close_fds(&self.efiles);
        if self.progress.keep_final.load(Ordering::Relaxed) {
            let r = logs::copy_for_report(&mut self.res);
            if let Ok(mut slot) = self.progress.snapshot.lock() {
                *slot = Some(r);
            }
        }
        self.res
    }

    /// Runtime, CPU and byte/I/O totals as of `now`, into `res`.
    fn fill_totals(&self, res: &mut JobResult, now: u64) {
        let runtime_ns = if self.measuring {
            now - self.meas_start_ns
        } else {
            0
        };
        // Whole milliseconds rounded up, as fio counts a direction's runtime: a job that did
        // its I/O in under a millisecond ran for 1 ms, not 0 (a rate over 0 ms would be 0).
        let runtime_us = runtime_ns / 1000;
        let runtime_ms = runtime_us.div_ceil(1000);
        res.runtime_ms = runtime_ms;
        res.runtime_us = runtime_us;
        res.elapsed_ms = (now - self.job_start_ns) / NS_PER_MS;
        res.cpu = sys::cpu_delta(&sys::rusage_thread(), &self.cpu_start);
        for d in Dir::ALL {
            let r: &mut DirResult = &mut res.dirs[d];
            r.io_bytes = self.bytes[d.idx()];
            r.total_ios = self.ios[d.idx()];
            r.drop_ios = self.engine.dropped()[d.idx()];
            // A direction that moved nothing ran for no time (fio's FIO_NOIO engines count
            // their I/Os only): no rate is made of it.
            let moved = r.io_bytes > 0 || !self.spec.ioengine.is_noio();
            r.runtime_ms = if r.total_ios > 0 && moved {
                runtime_ms
            } else {
                0
            };
            // Sync engines record one histogram: their total latency is the completion latency.
            if self.one_stage && !self.spec.stats.disable_clat && !self.spec.stats.disable_lat {
                r.lat = r.clat.clone();
            }
        }
    }
}
