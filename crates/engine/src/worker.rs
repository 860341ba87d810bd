//! One worker thread per job clone: it owns its engine, buffers, generators, RNG and stats, and
//! runs the issue/complete loop. Nothing on the per-I/O path allocates, locks or formats; the
//! clock is read once per submit batch and once per reap batch (twice per I/O for sync engines:
//! around the system call).

use crate::engines::{self, Completion, Engine, EngineBuf, EngineFile, IoUnit, Op, Queued};
use crate::gen::{BsPicker, DirMix};
use crate::job::{
    ContinueOnError, Dir, EngineKind, FileServiceType, JobSpec, PerDir, RateProcess, RwMode,
};
use crate::result::{CpuUsage, DepthStats, DirResult, JobResult, LogEntry};
use crate::rng::Rng;
use crate::sys::{self, AlignedBuf};
use crate::target;
use std::os::fd::{AsRawFd, IntoRawFd};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Live counters of one worker, written by the worker and read by the status thread.
#[derive(Debug, Default)]
pub struct WorkerProgress {
    pub name: String,
    pub bytes: [AtomicU64; 3],
    pub ios: [AtomicU64; 3],
    /// Bytes the job will move in total (0 when time based).
    pub total_bytes: AtomicU64,
    /// Runtime limit in ms (0 = none) and ms elapsed in the measured phase.
    pub runtime_ms: AtomicU64,
    pub elapsed_ms: AtomicU64,
    /// fio-style state letter: b'P' setup, b'r'/b'R' etc. running, b'_' done, b'E' error.
    pub state: AtomicU8,
    pub rw: AtomicU8,
    /// Set by a reporter (`--status-interval`) to ask for a snapshot of the results so far; the
    /// worker answers at its next bw/iops sample and clears it. A finished worker leaves its
    /// final result here.
    pub snapshot_req: AtomicBool,
    pub snapshot: std::sync::Mutex<Option<JobResult>>,
    /// A reporter reads `snapshot`: leave the final result there too (else nothing is copied).
    pub keep_final: AtomicBool,
}

impl WorkerProgress {
    pub fn new(name: &str, rw: RwMode) -> Self {
        let p = WorkerProgress {
            name: name.to_string(),
            ..Default::default()
        };
        p.state.store(b'P', Ordering::Relaxed);
        let letter = match rw {
            RwMode::Read => b'R',
            RwMode::RandRead => b'r',
            RwMode::Write => b'W',
            RwMode::RandWrite => b'w',
            RwMode::ReadWrite => b'M',
            RwMode::RandRw => b'm',
            RwMode::Trim => b'D',
            RwMode::RandTrim => b'd',
            RwMode::TrimWrite => b'T',
        };
        p.rw.store(letter, Ordering::Relaxed);
        p
    }
}

/// A file of a worker with its I/O region.
#[derive(Clone, Debug)]
pub struct WorkerFile {
    pub path: std::path::PathBuf,
    pub is_block: bool,
    pub is_char: bool,
    /// Size of the file or device.
    pub size: u64,
    /// I/O region inside the file.
    pub region_start: u64,
    pub region_len: u64,
    /// Needs to be created by the engine itself (filecreate) rather than opened.
    pub logical_block_size: u64,
}

/// Everything a worker needs, prepared by the runner.
pub struct WorkerSetup {
    pub spec: JobSpec,
    pub job_index: usize,
    pub clone: u32,
    pub thread_number: u32,
    pub files: Vec<WorkerFile>,
    /// Total bytes to move per loop (io_size or the sum of regions).
    pub io_bytes_per_loop: u64,
    pub stop: Arc<AtomicBool>,
    pub progress: Arc<WorkerProgress>,
}

const NS_PER_MS: u64 = 1_000_000;

struct Slot {
    dir: Dir,
    op: Op,
    file: u32,
    offset: u64,
    len: usize,
    start_ns: u64,
    issue_ns: u64,
    measured: bool,
}

/// Per-file offset state.
struct FileGen {
    seq: [crate::gen::SeqGen; 3],
    rand: crate::gen::RandGen,
    /// Remaining I/Os at sequential offsets after a random one (rw=randread:N).
    run_left: u32,
    run_next: u64,
}

struct Interval {
    last_ns: u64,
    last_bytes: [u64; 3],
    last_ios: [u64; 3],
}

/// Run one worker to completion and return its results.
pub fn run_worker(setup: WorkerSetup) -> JobResult {
    let mut w = match Worker::new(setup) {
        Ok(w) => w,
        Err((res, _)) => return *res,
    };
    w.run();
    w.finish()
}

struct Worker {
    spec: JobSpec,
    res: JobResult,
    files: Vec<WorkerFile>,
    efiles: Vec<EngineFile>,
    engine: Box<dyn Engine>,
    sync_engine: bool,
    _bufs: Vec<AlignedBuf>,
    buf_ptrs: Vec<*mut u8>,
    buf_len: usize,
    slots: Vec<Slot>,
    free: Vec<u32>,
    inflight: usize,
    rng: Rng,
    data_rng: Rng,
    bs: PerDir<BsPicker>,
    mix: DirMix,
    gens: Vec<FileGen>,
    file_cursor: usize,
    file_batch_left: u32,
    stop: Arc<AtomicBool>,
    progress: Arc<WorkerProgress>,
    io_bytes_per_loop: u64,
    // state
    measuring: bool,
    meas_start_ns: u64,
    job_start_ns: u64,
    ramp_end_ns: u64,
    end_ns: u64,
    issued_bytes: u64,
    issued_ios: u64,
    loops_done: u32,
    writes_since_sync: u64,
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
    pass_files_done: Vec<bool>,
    verifier: Option<crate::verifier::Verifier>,
    verify_due: bool,
}

struct LogWindow {
    start_ns: u64,
    bytes: [u64; 3],
    ios: [u64; 3],
    lat_sum: [[u64; 3]; 3],
    lat_max: [[u64; 3]; 3],
    lat_n: [u64; 3],
}

/// `write_hist_log`: the histograms at the last entry, per direction.
struct HistLog {
    period_ns: u64,
    last_ns: u64,
    last: [crate::hist::Histogram; 3],
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

fn dir_op(d: Dir) -> Op {
    match d {
        Dir::Read => Op::Read,
        Dir::Write => Op::Write,
        Dir::Trim => Op::Trim,
    }
}

type SetupErr = (Box<JobResult>, String);

impl Worker {
    fn new(s: WorkerSetup) -> Result<Worker, SetupErr> {
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
        let fail = |mut res: JobResult, errno: i32, msg: String| -> SetupErr {
            res.error = errno;
            res.error_msg = Some(msg.clone());
            (Box::new(res), msg)
        };
        if let Some(cpus) = &spec.cpus_allowed {
            let cpus: Vec<usize> = match spec.cpus_allowed_policy {
                crate::job::CpusAllowedPolicy::Shared => cpus.clone(),
                crate::job::CpusAllowedPolicy::Split => {
                    vec![cpus[s.thread_number as usize % cpus.len().max(1)]]
                }
            };
            if let Err(e) = sys::set_affinity(&cpus) {
                res.notes
                    .push(format!("cpus_allowed could not be applied: {e}"));
            }
        }
        let job_start_ns = sys::now_ns();
        let kind = spec.ioengine;
        let verify_only = spec.verify.as_ref().is_some_and(|v| v.only);
        let writes = (spec.rw.has_write() && !verify_only) || spec.rw.has_trim();
        // Open files.
        let mut efiles = Vec::with_capacity(s.files.len());
        for f in &s.files {
            let fd = if kind.is_metadata() || kind.is_diskless() {
                -1
            } else {
                match target::open_target(
                    &f.path,
                    true,
                    writes,
                    false,
                    spec.direct && !f.is_char,
                    spec.sync,
                ) {
                    Ok(file) => file.into_raw_fd(),
                    Err(e) => {
                        let errno = e.raw_os_error().unwrap_or(libc::EIO);
                        close_fds(&efiles);
                        return Err(fail(
                            res,
                            errno,
                            format!("{}: cannot open {}: {e}", spec.name, f.path.display()),
                        ));
                    }
                }
            };
            if fd >= 0 {
                no_atime(fd);
            }
            if fd >= 0 && !f.is_char {
                if spec.invalidate && !writes_only_fresh(&spec) {
                    let _ = target::invalidate_cache(fd, f.is_block);
                }
                let _ = sys::fadvise(
                    fd,
                    f.region_start,
                    f.region_len,
                    spec.fadvise_hint,
                    spec.rw.is_random(),
                );
            }
            efiles.push(EngineFile {
                fd,
                path: f.path.clone(),
                size: f.size,
                is_block: f.is_block,
            });
        }
        // Buffers: one per slot, aligned to the logical block size (at least a page).
        let depth = if kind.is_sync() && kind != EngineKind::Null {
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
        let seed = crate::rng::job_seed(spec.randseed, spec.randrepeat, s.thread_number, 0);
        let mut data_rng = Rng::new(crate::rng::job_seed(
            spec.randseed,
            spec.randrepeat,
            s.thread_number,
            1,
        ));
        let mut bufs = Vec::with_capacity(depth as usize);
        for _ in 0..depth {
            let mut b = AlignedBuf::new(buf_len, align);
            fill_buffer(&spec, b.as_mut_slice(), &mut data_rng);
            bufs.push(b);
        }
        let buf_ptrs: Vec<*mut u8> = bufs.iter_mut().map(|b| b.as_mut_ptr()).collect();
        let ebufs: Vec<EngineBuf> = buf_ptrs
            .iter()
            .map(|&ptr| EngineBuf { ptr, len: buf_len })
            .collect();
        let esetup = engines::EngineSetup {
            depth,
            files: &efiles,
            buffers: &ebufs,
            options: &spec.engine_options,
            direct: spec.direct,
        };
        let engine = match engines::create(kind, &esetup) {
            Ok(e) => e,
            Err(engines::EngineError::Unavailable(why)) if kind == EngineKind::IoUring => {
                let msg = format!("{}: {why}; falling back to ioengine=libaio", spec.name);
                res.notes.push(msg);
                match engines::create(EngineKind::Libaio, &esetup) {
                    Ok(e) => e,
                    Err(e) => {
                        close_fds(&efiles);
                        return Err(fail(res, libc::ENOSYS, format!("{}: {e}", spec.name)));
                    }
                }
            }
            Err(e) => {
                close_fds(&efiles);
                let errno = match &e {
                    engines::EngineError::Io(io) => io.raw_os_error().unwrap_or(libc::EIO),
                    _ => libc::ENOSYS,
                };
                return Err(fail(
                    res,
                    errno,
                    format!("{}: ioengine={}: {e}", spec.name, kind.fio_name()),
                ));
            }
        };
        res.notes.extend(engine.notes());
        let sync_engine = engine.is_sync();
        let slots = (0..depth)
            .map(|_| Slot {
                dir: Dir::Read,
                op: Op::Read,
                file: 0,
                offset: 0,
                len: 0,
                start_ns: 0,
                issue_ns: 0,
                measured: false,
            })
            .collect();
        let free: Vec<u32> = (0..depth).rev().collect();
        let mut rng = Rng::new(seed);
        let gens = s
            .files
            .iter()
            .enumerate()
            .map(|(i, f)| {
                let hole = if spec.rw.is_random() {
                    0
                } else {
                    spec.rw_modifier.value
                };
                let align = Dir::ALL
                    .iter()
                    .filter_map(|&d| spec.blockalign[d])
                    .min()
                    .unwrap_or_else(|| spec.min_bs())
                    .max(1);
                let mode = crate::gen::RandMode::for_job(
                    spec.norandommap,
                    Dir::ALL.iter().any(|&d| spec.blockalign[d].is_some()),
                    &spec.distribution,
                );
                FileGen {
                    seq: [
                        crate::gen::SeqGen::new(f.region_start, f.region_len, hole),
                        crate::gen::SeqGen::new(f.region_start, f.region_len, hole),
                        crate::gen::SeqGen::new(f.region_start, f.region_len, hole),
                    ],
                    rand: crate::gen::RandGen::new(
                        f.region_start,
                        f.region_len,
                        align,
                        crate::rng::job_seed(
                            spec.randseed,
                            spec.randrepeat,
                            s.thread_number,
                            2 + i as u32,
                        ),
                        mode,
                    ),
                    run_left: 0,
                    run_next: 0,
                }
            })
            .collect();
        let _ = rng.next_u64();
        let bs = spec.bs.map(BsPicker::new);
        let mix = DirMix::new(spec.rwmixread);
        let nfiles = s.files.len();
        let log_window = if spec.logs.any() && spec.logs.avg_msec > 0 {
            Some(LogWindow {
                start_ns: 0,
                bytes: [0; 3],
                ios: [0; 3],
                lat_sum: [[0; 3]; 3],
                lat_max: [[0; 3]; 3],
                lat_n: [0; 3],
            })
        } else {
            None
        };
        let hist_log = match (&spec.logs.hist_log, spec.logs.hist_msec) {
            (Some(_), ms) if ms > 0 => Some(Box::new(HistLog {
                period_ns: ms * NS_PER_MS,
                last_ns: 0,
                last: Default::default(),
            })),
            _ => None,
        };
        let verifier = match &spec.verify {
            Some(v) => match crate::verifier::Verifier::new(
                v,
                &spec.name,
                s.thread_number,
                crate::rng::job_seed(spec.randseed, true, s.thread_number, 7),
                spec.min_bs(),
                &s.files,
            ) {
                Ok(v) => Some(v),
                Err(e) => {
                    close_fds(&efiles);
                    return Err(fail(res, libc::EINVAL, format!("{}: {e}", spec.name)));
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
        s.progress
            .total_bytes
            .store(s.io_bytes_per_loop * spec.loops as u64, Ordering::Relaxed);
        Ok(Worker {
            file_batch_left: spec.file_service.batch.max(1),
            spec,
            res,
            files: s.files,
            efiles,
            engine,
            sync_engine,
            _bufs: bufs,
            buf_ptrs,
            buf_len,
            slots,
            free,
            inflight: 0,
            rng,
            data_rng,
            bs,
            mix,
            gens,
            file_cursor: 0,
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
            writes_since_sync: 0,
            blocks_since_think: 0,
            next_issue_ns: [0; 3],
            bytes: [0; 3],
            ios: [0; 3],
            interval: Interval {
                last_ns: 0,
                last_bytes: [0; 3],
                last_ios: [0; 3],
            },
            cpu_start: CpuUsage::default(),
            done_issuing: false,
            error: false,
            comps: Vec::with_capacity(depth as usize),
            uncommitted: Vec::with_capacity(depth as usize),
            log_window,
            hist_log,
            pass_files_done: vec![false; nfiles],
            verifier,
            verify_due: false,
        })
    }

    fn begin_measuring(&mut self, now: u64) {
        self.measuring = true;
        self.meas_start_ns = now;
        self.cpu_start = sys::rusage_thread();
        self.bytes = [0; 3];
        self.ios = [0; 3];
        self.interval = Interval {
            last_ns: now,
            last_bytes: [0; 3],
            last_ios: [0; 3],
        };
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
        self.progress.runtime_ms.store(
            self.spec.runtime.map_or(0, |r| r.as_millis() as u64),
            Ordering::Relaxed,
        );
    }

    fn run(&mut self) {
        let now = sys::now_ns();
        self.progress
            .state
            .store(self.progress.rw.load(Ordering::Relaxed), Ordering::Relaxed);
        if self.spec.ramp_time > Duration::ZERO {
            self.ramp_end_ns = now + self.spec.ramp_time.as_nanos() as u64;
        } else {
            self.begin_measuring(now);
        }
        let batch_submit = match self.spec.iodepth_batch_submit {
            0 => self.slots.len(),
            n => n as usize,
        };
        let depth = self.slots.len();
        let low = (self.spec.iodepth_low as usize).min(depth);
        let mut draining_to_low = false;
        let mut queued_uncommitted = 0usize;
        let mut now = now;
        loop {
            if self.stop.load(Ordering::Relaxed) {
                self.done_issuing = true;
            }
            // Issue as many as the queue allows.
            let mut batch_start = 0u64;
            // The stop flag is checked per I/O too: with a sync engine nothing stays in flight
            // and this loop runs until the job's end (a plain load; Relaxed costs nothing).
            while !self.done_issuing
                && self.inflight < depth
                && !draining_to_low
                && !self.error
                && !self.stop.load(Ordering::Relaxed)
            {
                if batch_start == 0 {
                    batch_start = sys::now_ns();
                    now = batch_start;
                    if !self.check_time(now) {
                        break;
                    }
                }
                match self.prepare_next(now) {
                    Next::Io(slot) if self.verify_only_write(slot) => {
                        self.skip_write(slot);
                    }
                    Next::Io(slot) => {
                        if self.sync_engine {
                            now = self.issue_sync(slot);
                            batch_start = now;
                            if !self.check_time(now) {
                                break;
                            }
                        } else {
                            self.slots[slot as usize].start_ns = batch_start;
                            let s = &self.slots[slot as usize];
                            let io = IoUnit {
                                slot,
                                file: s.file,
                                op: s.op,
                                offset: s.offset,
                                len: s.len,
                                buf: self.buf_ptrs[slot as usize],
                            };
                            match self.engine.queue(&io) {
                                Queued::Pending => {
                                    self.inflight += 1;
                                    queued_uncommitted += 1;
                                    self.uncommitted.push(slot);
                                    let lvl = DepthStats::level_bucket(self.inflight as u64);
                                    self.res.depth.level[lvl] += 1;
                                    if queued_uncommitted >= batch_submit {
                                        now = self.commit(&mut queued_uncommitted);
                                        batch_start = now;
                                    }
                                }
                                Queued::Done(r) => {
                                    let t = sys::now_ns();
                                    self.slots[slot as usize].issue_ns = batch_start;
                                    self.complete(slot, r, t);
                                    self.free.push(slot);
                                }
                            }
                        }
                    }
                    Next::Wait(until) => {
                        if self.inflight == 0 && queued_uncommitted == 0 {
                            sleep_until(until, &self.stop);
                            batch_start = 0;
                            continue;
                        }
                        break;
                    }
                    Next::Sync => {
                        if self.inflight > 0 || queued_uncommitted > 0 {
                            break;
                        }
                        self.do_sync();
                        batch_start = 0;
                    }
                    Next::Think => {
                        if self.inflight > 0 || queued_uncommitted > 0 {
                            break;
                        }
                        self.think();
                        batch_start = 0;
                    }
                    Next::Verify => {
                        if self.inflight > 0 || queued_uncommitted > 0 {
                            break;
                        }
                        self.verify_backlog();
                        batch_start = 0;
                    }
                    Next::Done => {
                        self.done_issuing = true;
                    }
                }
            }
            if queued_uncommitted > 0 {
                self.commit(&mut queued_uncommitted);
            }
            if self.inflight == 0 {
                if self.done_issuing || self.error {
                    break;
                }
                draining_to_low = false;
                continue;
            }
            // Reap.
            let full = self.inflight >= depth;
            if full && low < depth {
                draining_to_low = true;
            }
            let min = if full || self.done_issuing || draining_to_low {
                (self.spec.iodepth_batch_complete_min as usize).clamp(1, self.inflight)
            } else {
                (self.spec.iodepth_batch_complete_min as usize).min(self.inflight)
            };
            let max = match self.spec.iodepth_batch_complete_max as usize {
                0 => depth,
                m => m.max(min),
            };
            self.comps.clear();
            let mut comps = std::mem::take(&mut self.comps);
            let got = match self.engine.getevents(min, max, &mut comps) {
                Ok(n) => n,
                Err(e) => {
                    self.fatal(
                        e.raw_os_error().unwrap_or(libc::EIO),
                        &format!("reaping completions: {e}"),
                    );
                    comps.clear();
                    self.comps = comps;
                    break;
                }
            };
            if got > 0 {
                let t = sys::now_ns();
                self.res.depth.complete[DepthStats::batch_bucket(got as u64)] += 1;
                for c in comps.iter() {
                    self.inflight -= 1;
                    self.complete(c.slot, c.result, t);
                    self.free.push(c.slot);
                }
                now = t;
                self.check_time(now);
            } else if min == 0 {
                std::hint::spin_loop();
            }
            self.comps = comps;
            if draining_to_low && self.inflight <= low {
                draining_to_low = false;
            }
        }
        // Drain anything left (stop or error).
        while self.inflight > 0 {
            self.comps.clear();
            let mut comps = std::mem::take(&mut self.comps);
            match self.engine.getevents(1, self.slots.len(), &mut comps) {
                Ok(_) => {
                    let t = sys::now_ns();
                    for c in comps.iter() {
                        self.inflight -= 1;
                        self.complete(c.slot, c.result, t);
                        self.free.push(c.slot);
                    }
                }
                Err(_) => break,
            }
            self.comps = comps;
        }
        if !self.measuring {
            // Ramp never ended (stopped early): measure nothing.
            self.begin_measuring(sys::now_ns());
        }
        self.verify_at_end();
        if self.spec.end_fsync && !self.error {
            for i in 0..self.efiles.len() {
                let fd = self.efiles[i].fd;
                if fd >= 0 {
                    unsafe {
                        libc::fsync(fd);
                    }
                }
            }
        }
    }

    /// Submit what was queued; returns the clock after submission (the issue time).
    fn commit(&mut self, queued: &mut usize) -> u64 {
        let n = *queued;
        *queued = 0;
        match self.engine.commit() {
            Ok(_) => {}
            Err(e) => {
                self.fatal(
                    e.raw_os_error().unwrap_or(libc::EIO),
                    &format!("submitting I/O: {e}"),
                );
            }
        }
        let t = sys::now_ns();
        self.res.depth.submit[DepthStats::batch_bucket(n as u64)] += 1;
        // One clock read stamps the issue time of the whole batch.
        for &slot in &self.uncommitted {
            self.slots[slot as usize].issue_ns = t;
        }
        self.uncommitted.clear();
        t
    }

    /// Perform one I/O on a sync engine; returns the clock at its completion.
    fn issue_sync(&mut self, slot: u32) -> u64 {
        let s = &self.slots[slot as usize];
        let io = IoUnit {
            slot,
            file: s.file,
            op: s.op,
            offset: s.offset,
            len: s.len,
            buf: self.buf_ptrs[slot as usize],
        };
        self.res.depth.level[0] += 1;
        let t0 = sys::now_ns();
        let r = match self.engine.queue(&io) {
            Queued::Done(r) => r,
            Queued::Pending => {
                // A sync engine never leaves I/O pending; reap it at once.
                let _ = self.engine.commit();
                self.comps.clear();
                let _ = self.engine.getevents(1, 1, &mut self.comps);
                self.comps.first().map_or(-(libc::EIO as i64), |c| c.result)
            }
        };
        let t1 = sys::now_ns();
        self.res.depth.submit[1] += 1;
        self.res.depth.complete[1] += 1;
        {
            let s = &mut self.slots[slot as usize];
            s.start_ns = t0;
            s.issue_ns = t0;
        }
        self.complete(slot, r, t1);
        self.free.push(slot);
        t1
    }

    /// Checks the time limits; returns false when no more I/O should be issued.
    #[inline]
    fn check_time(&mut self, now: u64) -> bool {
        if !self.measuring && now >= self.ramp_end_ns {
            self.begin_measuring(now);
        }
        if self.progress.snapshot_req.load(Ordering::Relaxed) {
            self.answer_snapshot();
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

    fn sample_intervals(&mut self, now: u64) {
        let period = self.spec.stats.bwavgtime.as_nanos().max(1) as u64;
        if now.saturating_sub(self.interval.last_ns) < period {
            return;
        }
        let dt_ms = (now - self.interval.last_ns) as f64 / NS_PER_MS as f64;
        for d in Dir::ALL {
            let i = d.idx();
            let db = self.bytes[i] - self.interval.last_bytes[i];
            let di = self.ios[i] - self.interval.last_ios[i];
            if di == 0 {
                continue;
            }
            let bw = db as f64 * 1000.0 / dt_ms / 1024.0;
            let iops = di as f64 * 1000.0 / dt_ms;
            let r = &mut self.res.dirs[d];
            r.bw_samples.add(bw);
            r.iops_samples.add(iops);
        }
        self.interval.last_ns = now;
        self.interval.last_bytes = self.bytes;
        self.interval.last_ios = self.ios;
        self.publish_progress(now);
        self.flush_log_window(now, false);
    }

    /// Answer a `--status-interval` request with the results so far.
    #[cold]
    fn answer_snapshot(&mut self) {
        let now = sys::now_ns();
        let mut r = copy_for_report(&mut self.res);
        self.fill_totals(&mut r, now);
        if let Ok(mut slot) = self.progress.snapshot.lock() {
            *slot = Some(r);
        }
        self.progress.snapshot_req.store(false, Ordering::Release);
    }

    fn publish_progress(&self, now: u64) {
        for i in 0..3 {
            self.progress.bytes[i].store(self.bytes[i], Ordering::Relaxed);
            self.progress.ios[i].store(self.ios[i], Ordering::Relaxed);
        }
        if self.measuring {
            self.progress
                .elapsed_ms
                .store((now - self.meas_start_ns) / NS_PER_MS, Ordering::Relaxed);
        }
    }

    fn flush_log_window(&mut self, now: u64, force: bool) {
        let avg = self.spec.logs.avg_msec;
        let Some(w) = &mut self.log_window else {
            return;
        };
        let span = now.saturating_sub(w.start_ns);
        if !force && span < avg * NS_PER_MS {
            return;
        }
        if span == 0 {
            return;
        }
        let t_ms = (now - self.meas_start_ns) / NS_PER_MS;
        let series = &mut self.res.series;
        for d in 0..3 {
            if w.ios[d] == 0 {
                continue;
            }
            let ddir = d as u8;
            let span_ms = span as f64 / NS_PER_MS as f64;
            if self.spec.logs.bw_log.is_some() {
                series.bw.push(LogEntry {
                    t_ms,
                    value: (w.bytes[d] as f64 * 1000.0 / span_ms / 1024.0) as u64,
                    ddir,
                    bs: 0,
                    offset: 0,
                    max: None,
                });
            }
            if self.spec.logs.iops_log.is_some() {
                series.iops.push(LogEntry {
                    t_ms,
                    value: (w.ios[d] as f64 * 1000.0 / span_ms) as u64,
                    ddir,
                    bs: 0,
                    offset: 0,
                    max: None,
                });
            }
            if self.spec.logs.lat_log.is_some() && w.lat_n[d] > 0 {
                let n = w.lat_n[d];
                let mode = self.spec.logs.max_value;
                for (k, list) in [&mut series.slat, &mut series.clat, &mut series.lat]
                    .into_iter()
                    .enumerate()
                {
                    let (avg, max) = (w.lat_sum[d][k] / n, w.lat_max[d][k]);
                    list.push(LogEntry {
                        t_ms,
                        value: if mode == 1 { max } else { avg },
                        ddir,
                        bs: 0,
                        offset: 0,
                        max: (mode == 2).then_some(max),
                    });
                }
            }
        }
        w.start_ns = now;
        w.bytes = [0; 3];
        w.ios = [0; 3];
        w.lat_sum = [[0; 3]; 3];
        w.lat_max = [[0; 3]; 3];
        w.lat_n = [0; 3];
    }

    /// Pick the next I/O: direction, file, size, offset.
    fn prepare_next(&mut self, now: u64) -> Next {
        // Amount limits.
        if !self.spec.time_based {
            let total = self.io_bytes_per_loop;
            if self.issued_bytes >= total {
                self.loops_done += 1;
                if self.loops_done >= self.spec.loops {
                    return Next::Done;
                }
                self.issued_bytes = 0;
                self.reset_passes();
            }
        }
        if self.spec.number_ios > 0 && self.issued_ios >= self.spec.number_ios {
            return Next::Done;
        }
        // fsync / fdatasync every N writes.
        let sync_every = if self.spec.fsync > 0 {
            self.spec.fsync
        } else {
            self.spec.fdatasync
        };
        if sync_every > 0 && self.writes_since_sync >= sync_every {
            return Next::Sync;
        }
        if self.spec.thinktime > Duration::ZERO
            && self.blocks_since_think >= self.spec.thinktime_blocks.max(1)
        {
            return Next::Think;
        }
        if self.verify_due {
            return Next::Verify;
        }
        let dir = self.pick_dir();
        // Rate limiting: wait until this direction's next issue time.
        if self.next_issue_ns[dir.idx()] > now {
            return Next::Wait(self.next_issue_ns[dir.idx()]);
        }
        let mut bs = self.bs[dir].pick(&mut self.rng);
        if !self.spec.time_based {
            let left = self.io_bytes_per_loop - self.issued_bytes;
            if left < bs {
                bs = left.max(self.spec.min_bs().min(left).max(1));
            }
        }
        let Some((file, offset)) = self.pick_offset(dir, bs) else {
            // Every file finished its pass.
            if self.spec.time_based {
                self.reset_passes();
                match self.pick_offset(dir, bs) {
                    Some(x) => return self.fill_slot(dir, x.0, x.1, bs, now),
                    None => return Next::Done,
                }
            }
            self.loops_done += 1;
            if self.loops_done >= self.spec.loops {
                return Next::Done;
            }
            self.issued_bytes = 0;
            self.reset_passes();
            return match self.pick_offset(dir, bs) {
                Some(x) => self.fill_slot(dir, x.0, x.1, bs, now),
                None => Next::Done,
            };
        };
        self.fill_slot(dir, file, offset, bs, now)
    }

    fn fill_slot(&mut self, dir: Dir, file: u32, offset: u64, bs: u64, now: u64) -> Next {
        let Some(slot) = self.free.pop() else {
            return Next::Wait(now);
        };
        // Clamp to the region end (variable block sizes at the tail).
        let f = &self.files[file as usize];
        let end = f.region_start + f.region_len;
        let len = bs.min(end.saturating_sub(offset)).max(1) as usize;
        let len = len.min(self.buf_len);
        if dir == Dir::Write && self.verifier.is_some() {
            let buf = unsafe { std::slice::from_raw_parts_mut(self.buf_ptrs[slot as usize], len) };
            if let Some(v) = &mut self.verifier {
                v.on_write_issue(file, offset, buf);
            }
        } else if dir == Dir::Write
            && (self.spec.buffers.refill_buffers || self.spec.buffers.scramble_buffers)
        {
            let buf = unsafe { std::slice::from_raw_parts_mut(self.buf_ptrs[slot as usize], len) };
            if self.spec.buffers.refill_buffers {
                fill_buffer(&self.spec, buf, &mut self.data_rng);
            } else if !self.spec.buffers.zero_buffers && self.spec.buffers.pattern.is_none() {
                scramble(buf, offset, self.issued_ios);
            }
        }
        let op = if self.spec.ioengine.is_metadata() {
            dir_op(Dir::Read)
        } else {
            dir_op(dir)
        };
        let s = &mut self.slots[slot as usize];
        s.dir = dir;
        s.op = op;
        s.file = file;
        s.offset = offset;
        s.len = len;
        s.start_ns = 0;
        s.issue_ns = 0;
        s.measured = self.measuring;
        self.issued_bytes += len as u64;
        self.issued_ios += 1;
        self.res.issued[dir] += 1;
        if dir == Dir::Write {
            self.writes_since_sync += 1;
        }
        self.blocks_since_think += 1;
        // Rate schedule.
        let r = &self.spec.rate;
        let d = dir.idx();
        let by_bytes = (len as u128 * 1_000_000_000)
            .checked_div(r.bps[dir] as u128)
            .unwrap_or(0) as u64;
        let by_ios = 1_000_000_000u64.checked_div(r.iops[dir]).unwrap_or(0);
        let gap = by_bytes.max(by_ios);
        if gap > 0 {
            let gap = match r.process {
                RateProcess::Linear => gap,
                RateProcess::Poisson => (self.rng.exp(gap as f64)) as u64,
            };
            let base = if self.next_issue_ns[d] == 0 {
                now
            } else {
                self.next_issue_ns[d]
            };
            self.next_issue_ns[d] = base + gap;
        }
        Next::Io(slot)
    }

    fn pick_dir(&mut self) -> Dir {
        match self.spec.rw {
            RwMode::Read | RwMode::RandRead => Dir::Read,
            RwMode::Write | RwMode::RandWrite => Dir::Write,
            RwMode::Trim | RwMode::RandTrim => Dir::Trim,
            RwMode::ReadWrite | RwMode::RandRw => self.mix.choose(&mut self.rng),
            RwMode::TrimWrite => {
                // Alternate trim then write of the same block.
                if self.res.issued.trim > self.res.issued.write {
                    Dir::Write
                } else {
                    Dir::Trim
                }
            }
        }
    }

    fn pick_file(&mut self) -> usize {
        let n = self.files.len();
        if n <= 1 {
            return 0;
        }
        match self.spec.file_service.kind {
            FileServiceType::Random => {
                if self.file_batch_left == 0 {
                    self.file_cursor = self.rng.below(n as u64) as usize;
                    self.file_batch_left = self.spec.file_service.batch.max(1);
                }
            }
            FileServiceType::RoundRobin => {
                if self.file_batch_left == 0 {
                    self.file_cursor = (self.file_cursor + 1) % n;
                    self.file_batch_left = self.spec.file_service.batch.max(1);
                }
            }
            FileServiceType::Sequential => {}
        }
        self.file_batch_left = self.file_batch_left.saturating_sub(1);
        self.file_cursor
    }

    fn pick_offset(&mut self, dir: Dir, bs: u64) -> Option<(u32, u64)> {
        let n = self.files.len();
        for _ in 0..n {
            let fi = self.pick_file();
            if self.pass_files_done[fi] {
                self.file_batch_left = 0;
                if self.spec.file_service.kind == FileServiceType::Sequential {
                    self.file_cursor = (self.file_cursor + 1) % n;
                }
                continue;
            }
            if let Some(off) = self.next_offset_in(fi, dir, bs) {
                return Some((fi as u32, off));
            }
            self.pass_files_done[fi] = true;
            self.file_batch_left = 0;
            if self.spec.file_service.kind != FileServiceType::Random {
                self.file_cursor = (self.file_cursor + 1) % n;
            }
        }
        // Check every file once more in order (random service may have missed one).
        for fi in 0..n {
            if !self.pass_files_done[fi] {
                if let Some(off) = self.next_offset_in(fi, dir, bs) {
                    return Some((fi as u32, off));
                }
                self.pass_files_done[fi] = true;
            }
        }
        None
    }

    fn next_offset_in(&mut self, fi: usize, dir: Dir, bs: u64) -> Option<u64> {
        if self.spec.ioengine.is_metadata() {
            // One operation per file per pass.
            let g = &mut self.gens[fi];
            if g.run_left == 1 {
                return None;
            }
            g.run_left = 1;
            return Some(0);
        }
        let random = self.spec.rw.is_random() && {
            let pct = self.spec.percentage_random[dir];
            pct >= 100 || (pct > 0 && self.rng.below(100) < pct as u64)
        };
        let g = &mut self.gens[fi];
        let f = &self.files[fi];
        let end = f.region_start + f.region_len;
        if random {
            if g.run_left > 0 && g.run_next + bs <= end {
                g.run_left -= 1;
                let off = g.run_next;
                g.run_next += bs;
                return Some(off);
            }
            let off = g.rand.next(bs)?;
            if self.spec.rw_modifier.value > 1 {
                g.run_left = (self.spec.rw_modifier.value - 1) as u32;
                g.run_next = off + bs;
            }
            Some(off)
        } else {
            g.seq[dir.idx()].next(bs)
        }
    }

    fn reset_passes(&mut self) {
        for g in &mut self.gens {
            for s in &mut g.seq {
                s.reset();
            }
            g.rand.reset();
            g.run_left = 0;
        }
        for d in &mut self.pass_files_done {
            *d = false;
        }
    }

    /// Account one completion.
    #[inline]
    fn complete(&mut self, slot: u32, result: i64, now: u64) {
        let s = &mut self.slots[slot as usize];
        let dir = s.dir;
        let d = dir.idx();
        let len = s.len as i64;
        let measured = self.measuring && s.measured;
        let issue = s.issue_ns;
        let start = s.start_ns;
        s.start_ns = 0;
        s.issue_ns = 0;
        if dir == Dir::Write {
            if let Some(v) = &mut self.verifier {
                v.on_write_complete(s.file, s.offset, s.len as u64);
                self.verify_due |= v.backlog_due();
            }
        }
        if result < 0 {
            let (file, offset) = (s.file, s.offset);
            self.io_error(dir, file, offset, (-result) as i32);
            return;
        }
        let r = &mut self.res.dirs[dir];
        if result < len {
            r.short_ios += 1;
        }
        if !measured {
            return;
        }
        self.bytes[d] += result as u64;
        self.ios[d] += 1;
        let st = &self.spec.stats;
        let clat = now.saturating_sub(issue);
        let lat = now.saturating_sub(start);
        let slat = issue.saturating_sub(start);
        if self.sync_engine {
            // No submission stage: lat equals clat, so one record serves both (copied in
            // `finish`).
            if !st.disable_clat {
                r.clat.add(clat);
            } else if !st.disable_lat {
                r.lat.add(lat);
            }
        } else {
            if !st.disable_clat {
                r.clat.add(clat);
            }
            if !st.disable_lat {
                r.lat.add(lat);
            }
            if !st.disable_slat {
                r.slat.add(slat);
            }
        }
        if let Some(w) = &mut self.log_window {
            w.bytes[d] += result as u64;
            w.ios[d] += 1;
            for (k, v) in [slat, clat, lat].into_iter().enumerate() {
                w.lat_sum[d][k] += v;
                w.lat_max[d][k] = w.lat_max[d][k].max(v);
            }
            w.lat_n[d] += 1;
            if now.saturating_sub(w.start_ns) >= self.spec.logs.avg_msec * NS_PER_MS {
                self.flush_log_window(now, false);
            }
        } else if self.spec.logs.any() {
            let offset = self.slots[slot as usize].offset;
            self.log_per_io(dir, result as u64, clat, lat, slat, now, offset);
        }
        if let Some(h) = &self.hist_log {
            if now.saturating_sub(h.last_ns) >= h.period_ns {
                self.flush_hist_log(now);
            }
        }
    }

    /// One `write_hist_log` entry per direction with completions since the last one.
    #[cold]
    fn flush_hist_log(&mut self, now: u64) {
        let Some(h) = &mut self.hist_log else {
            return;
        };
        let t_ms = now.saturating_sub(self.meas_start_ns) / NS_PER_MS;
        for d in Dir::ALL {
            let cur = &self.res.dirs[d].clat.hist;
            let delta = cur.delta_since(&h.last[d.idx()]);
            if delta.is_empty() {
                continue;
            }
            self.res.series.hist.push(crate::result::HistLogEntry {
                t_ms,
                ddir: d.idx() as u8,
                bs: 0,
                hist: delta,
            });
            h.last[d.idx()] = cur.clone();
        }
        h.last_ns = now;
    }

    #[cold]
    #[allow(clippy::too_many_arguments)]
    fn log_per_io(
        &mut self,
        dir: Dir,
        bytes: u64,
        clat: u64,
        lat: u64,
        slat: u64,
        now: u64,
        offset: u64,
    ) {
        let t_ms = now.saturating_sub(self.meas_start_ns) / NS_PER_MS;
        let ddir = dir.idx() as u8;
        let series = &mut self.res.series;
        let logs = &self.spec.logs;
        let offset = if logs.log_offset { offset } else { 0 };
        let e = |value| LogEntry {
            t_ms,
            value,
            ddir,
            bs: bytes,
            offset,
            max: None,
        };
        if logs.bw_log.is_some() {
            let v = if clat > 0 {
                (bytes as u128 * 1_000_000_000 / clat as u128 / 1024) as u64
            } else {
                0
            };
            series.bw.push(e(v));
        }
        if logs.iops_log.is_some() {
            series.iops.push(e(1));
        }
        if logs.lat_log.is_some() {
            if !self.sync_engine {
                series.slat.push(e(slat));
            }
            series.clat.push(e(clat));
            series.lat.push(e(lat));
        }
    }

    #[cold]
    fn io_error(&mut self, dir: Dir, file: u32, offset: u64, errno: i32) {
        if errno == libc::ENOSPC && dir == Dir::Write && self.spec.fill_device {
            // The device is full: what fill_device asked for. In-flight writes drain.
            if !self.done_issuing {
                self.res.notes.push(format!(
                    "{}: {} is full after {} bytes written (fill_device)",
                    self.spec.name,
                    self.files[file as usize].path.display(),
                    self.bytes[dir.idx()]
                ));
            }
            self.done_issuing = true;
            return;
        }
        let tolerate = match self.spec.continue_on_error {
            ContinueOnError::None => false,
            ContinueOnError::Read => dir == Dir::Read,
            ContinueOnError::Write => dir == Dir::Write,
            ContinueOnError::Io | ContinueOnError::All => true,
            ContinueOnError::Verify => false,
        };
        self.res.dirs[dir].errors += 1;
        self.res.total_err += 1;
        if self.res.first_error == 0 {
            self.res.first_error = errno;
        }
        let err = std::io::Error::from_raw_os_error(errno);
        let path = self.files[file as usize].path.display().to_string();
        let msg = format!(
            "{}: {} error on {} at offset {} (after {} bytes of this direction): {}",
            self.spec.name,
            dir.name(),
            path,
            offset,
            self.bytes[dir.idx()],
            err
        );
        if tolerate {
            if self.res.total_err == 1 {
                self.res.notes.push(msg);
            }
        } else {
            self.fatal(errno, &msg);
        }
    }

    fn fatal(&mut self, errno: i32, msg: &str) {
        if self.res.error == 0 {
            self.res.error = errno;
            self.res.error_msg = Some(msg.to_string());
        }
        self.error = true;
        self.done_issuing = true;
    }

    fn do_sync(&mut self) {
        self.writes_since_sync = 0;
        let datasync = self.spec.fsync == 0;
        let op = if datasync { Op::Fdatasync } else { Op::Fsync };
        let measured = self.measuring;
        for fi in 0..self.efiles.len() {
            let Some(slot) = self.free.pop() else { return };
            let io = IoUnit {
                slot,
                file: fi as u32,
                op,
                offset: 0,
                len: 0,
                buf: self.buf_ptrs[slot as usize],
            };
            let t0 = sys::now_ns();
            let r = match self.engine.queue(&io) {
                Queued::Done(r) => r,
                Queued::Pending => {
                    let _ = self.engine.commit();
                    self.comps.clear();
                    let _ = self.engine.getevents(1, 1, &mut self.comps);
                    self.comps.first().map_or(-(libc::EIO as i64), |c| c.result)
                }
            };
            let t1 = sys::now_ns();
            self.free.push(slot);
            if r < 0 {
                self.fatal(
                    (-r) as i32,
                    &format!(
                        "{}: fsync failed: {}",
                        self.spec.name,
                        std::io::Error::from_raw_os_error((-r) as i32)
                    ),
                );
                return;
            }
            if measured {
                self.res.sync.add(t1 - t0);
                self.res.sync_ios += 1;
            }
        }
    }

    fn verify_only_write(&self, slot: u32) -> bool {
        self.slots[slot as usize].dir == Dir::Write
            && self.verifier.as_ref().is_some_and(|v| v.only)
    }

    /// verify_only: account the write as if it happened, without doing it.
    fn skip_write(&mut self, slot: u32) {
        let s = &self.slots[slot as usize];
        let (file, offset, len) = (s.file, s.offset, s.len as u64);
        if let Some(v) = &mut self.verifier {
            // The write was stamped when it was prepared; it completes at once.
            v.on_write_complete(file, offset, len);
        }
        self.verify_due = false;
        self.free.push(slot);
    }

    fn verify_buf(&mut self) -> &'static mut [u8] {
        // SAFETY: called only with no I/O in flight; slot 0's buffer is buf_len bytes and lives
        // as long as the worker, which outlives every use of the slice.
        unsafe { std::slice::from_raw_parts_mut(self.buf_ptrs[0], self.buf_len) }
    }

    fn verify_backlog(&mut self) {
        self.verify_due = false;
        let Some(mut v) = self.verifier.take() else {
            return;
        };
        let fds: Vec<i32> = self.efiles.iter().map(|f| f.fd).collect();
        let buf = self.verify_buf();
        let go_on = v.check_pending(&fds, &self.files, buf, &mut self.res.dirs.read);
        self.verifier = Some(v);
        if !go_on {
            self.verify_failed();
        }
    }

    fn verify_at_end(&mut self) {
        let Some(mut v) = self.verifier.take() else {
            return;
        };
        let do_verify = self
            .spec
            .verify
            .as_ref()
            .is_some_and(|s| s.do_verify || s.only);
        if do_verify && !self.error && !self.stop.load(Ordering::Relaxed) {
            if !v.only && !self.spec.direct {
                // Read back from the device where the OS allows it, not from the page cache.
                for f in &self.efiles {
                    if f.fd >= 0 {
                        unsafe {
                            libc::fsync(f.fd);
                        }
                        let _ = target::invalidate_cache(f.fd, f.is_block);
                    }
                }
            }
            let fds: Vec<i32> = self.efiles.iter().map(|f| f.fd).collect();
            let buf = self.verify_buf();
            v.check_all(&fds, &self.files, buf, &mut self.res.dirs.read, &self.stop);
        }
        self.verifier = Some(v);
        self.verify_failed();
    }

    /// Turn bad blocks into a job error (or a tolerated error count) and record the findings.
    fn verify_failed(&mut self) {
        let Some(v) = &self.verifier else {
            return;
        };
        let r = v.result.clone();
        if r.bad_blocks > 0 && self.res.verify.is_none() {
            let tolerate = matches!(
                self.spec.continue_on_error,
                ContinueOnError::Verify | ContinueOnError::All
            );
            let first = r
                .failures
                .first()
                .map(|f| format!("{}: {}", f.file, f.message))
                .unwrap_or_default();
            let msg = format!(
                "{}: verify: {} bad block(s) of {} checked; first: {first}",
                self.spec.name, r.bad_blocks, r.blocks_checked
            );
            if tolerate {
                self.res.total_err += r.bad_blocks;
                if self.res.first_error == 0 {
                    self.res.first_error = libc::EILSEQ;
                }
                self.res.notes.push(msg);
            } else {
                self.fatal(libc::EILSEQ, &msg);
            }
        }
        self.res.verify = Some(r);
    }

    fn think(&mut self) {
        self.blocks_since_think = 0;
        let spin = self.spec.thinktime_spin;
        let total = self.spec.thinktime;
        let t0 = sys::now_ns();
        let spin_ns = spin.as_nanos() as u64;
        while sys::now_ns() - t0 < spin_ns {
            std::hint::spin_loop();
        }
        let rest = total.saturating_sub(spin);
        if rest > Duration::ZERO {
            sleep_until(t0 + total.as_nanos() as u64, &self.stop);
        }
    }

    fn finish(mut self) -> JobResult {
        let now = sys::now_ns();
        self.flush_log_window(now, true);
        if self.measuring {
            self.flush_hist_log(now);
        }
        self.publish_progress(now);
        let mut res = std::mem::take(&mut self.res);
        self.fill_totals(&mut res, now);
        self.res = res;
        if self.spec.fsync_on_close {
            for f in &self.efiles {
                if f.fd >= 0 {
                    unsafe {
                        libc::fsync(f.fd);
                    }
                }
            }
        }
        self.progress.state.store(
            if self.res.error != 0 { b'E' } else { b'_' },
            Ordering::Relaxed,
        );
        drop(self.engine);
        close_fds(&self.efiles);
        if self.progress.keep_final.load(Ordering::Relaxed) {
            let r = copy_for_report(&mut self.res);
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
        let runtime_ms = runtime_ns / NS_PER_MS;
        res.runtime_ms = runtime_ms;
        res.runtime_us = runtime_ns / 1000;
        res.elapsed_ms = (now - self.job_start_ns) / NS_PER_MS;
        res.cpu = sys::cpu_delta(&sys::rusage_thread(), &self.cpu_start);
        for d in Dir::ALL {
            let r: &mut DirResult = &mut res.dirs[d];
            r.io_bytes = self.bytes[d.idx()];
            r.total_ios = self.ios[d.idx()];
            r.runtime_ms = if r.total_ios > 0 { runtime_ms } else { 0 };
            // Sync engines record one histogram: their total latency is the completion latency.
            if self.sync_engine && !self.spec.stats.disable_clat && !self.spec.stats.disable_lat {
                r.lat = r.clat.clone();
            }
        }
    }
}

enum Next {
    Io(u32),
    /// Nothing may be issued before this time (rate limiting).
    Wait(u64),
    /// An fsync/fdatasync is due (after draining).
    Sync,
    /// Think time is due (after draining).
    Think,
    /// An inline verification (verify_backlog) is due (after draining).
    Verify,
    /// No more I/O to issue.
    Done,
}

/// A copy of the results for a `--status-interval` report, without the log time series (reports
/// do not show them, and they can be long).
fn copy_for_report(res: &mut JobResult) -> JobResult {
    let series = std::mem::take(&mut res.series);
    let copy = res.clone();
    res.series = series;
    copy
}

fn close_fds(files: &[EngineFile]) {
    for f in files {
        if f.fd >= 0 {
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

fn sleep_until(until: u64, stop: &AtomicBool) {
    loop {
        let now = sys::now_ns();
        if now >= until || stop.load(Ordering::Relaxed) {
            return;
        }
        let left = until - now;
        if left > 2_000_000 {
            std::thread::sleep(Duration::from_nanos((left - 1_000_000).min(50_000_000)));
        } else if left > 50_000 {
            std::thread::sleep(Duration::from_nanos(left / 2));
        } else {
            std::hint::spin_loop();
        }
    }
}

/// Fill a write buffer according to the job's buffer options.
pub fn fill_buffer(spec: &JobSpec, buf: &mut [u8], rng: &mut Rng) {
    let b = &spec.buffers;
    if b.zero_buffers {
        buf.fill(0);
        return;
    }
    if let Some(p) = &b.pattern {
        if !p.is_empty() {
            for (i, x) in buf.iter_mut().enumerate() {
                *x = p[i % p.len()];
            }
            return;
        }
    }
    rng.fill(buf);
    if b.compress_percentage > 0 {
        let chunk = (b.compress_chunk.max(1) as usize).min(buf.len().max(1));
        let zero_len = chunk * b.compress_percentage.min(100) as usize / 100;
        for c in buf.chunks_mut(chunk) {
            let n = zero_len.min(c.len());
            c[..n].fill(0);
        }
    }
}

/// Cheap per-write change so that identical buffers do not dedupe (fio's scramble_buffers).
#[inline]
fn scramble(buf: &mut [u8], offset: u64, seq: u64) {
    let v = (offset ^ seq.rotate_left(32)).to_le_bytes();
    let mut i = 0;
    while i + 8 <= buf.len() {
        buf[i..i + 8].copy_from_slice(&v);
        i += 512;
    }
}

/// Raw fd of a std file (helper for the runner).
pub fn raw_fd(f: &std::fs::File) -> i32 {
    f.as_raw_fd()
}
