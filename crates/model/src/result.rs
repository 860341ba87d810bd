//! The result model: everything a report, a comparison or a distributed merge needs, with units
//! in the field names. Self-describing and lossless: latency histograms are kept whole (sparse)
//! so results from many threads, runs or hosts merge exactly.

use crate::failure::JobFailure;
use crate::hist::{Histogram, LatStat, SampleStat};
use crate::job::{Dir, PerDir, RunPlan};
use crate::note::Note;
use serde::{Deserialize, Serialize};

pub use crate::table::{self, SuiteTable, TableCell, TableKind};

/// A latency figure: running stats plus its full histogram (ns).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LatRecord {
    pub stat: LatStat,
    pub hist: Histogram,
}

impl LatRecord {
    #[inline]
    pub fn add(&mut self, ns: u64) {
        self.stat.add(ns);
        self.hist.record(ns);
    }
    pub fn merge(&mut self, other: &LatRecord) {
        self.stat.merge(&other.stat);
        self.hist.merge(&other.hist);
    }
}

/// The latency of the I/Os sent with one request priority (total latency when the job's
/// statistics report it, else completion latency).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PrioLat {
    /// The priority value (class in the top 3 bits, level in the low 3).
    pub ioprio: u16,
    pub lat: LatRecord,
}

/// Per-priority records merge by priority value; a value new to `a` is appended.
fn merge_prios(a: &mut Vec<PrioLat>, o: &[PrioLat]) {
    for p in o {
        match a.iter_mut().find(|x| x.ioprio == p.ioprio) {
            Some(x) => x.lat.merge(&p.lat),
            None => a.push(p.clone()),
        }
    }
}

/// Per-direction results of one job (clone).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DirResult {
    pub io_bytes: u64,
    pub total_ios: u64,
    pub short_ios: u64,
    pub drop_ios: u64,
    /// I/Os that failed (and were tolerated by continue_on_error).
    pub errors: u64,
    /// Measured runtime of this direction in ms (the job's measured runtime when it did I/O).
    pub runtime_ms: u64,
    /// Submission latency (async engines only).
    pub slat: LatRecord,
    /// Completion latency.
    pub clat: LatRecord,
    /// Total latency (slat + clat).
    pub lat: LatRecord,
    /// Interval bandwidth samples in KiB/s (every `bwavgtime`).
    pub bw_samples: SampleStat,
    /// Interval IOPS samples (every `iopsavgtime`).
    pub iops_samples: SampleStat,
    /// Latency per request priority, when requests carry priorities of their own: the job's
    /// own priority first, then each other in order of first use. Empty otherwise.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub prios: Vec<PrioLat>,
}

impl DirResult {
    pub fn merge(&mut self, o: &DirResult) {
        self.io_bytes += o.io_bytes;
        self.total_ios += o.total_ios;
        self.short_ios += o.short_ios;
        self.drop_ios += o.drop_ios;
        self.errors += o.errors;
        self.runtime_ms = self.runtime_ms.max(o.runtime_ms);
        self.slat.merge(&o.slat);
        self.clat.merge(&o.clat);
        self.lat.merge(&o.lat);
        self.bw_samples.sum_merge(&o.bw_samples);
        self.iops_samples.sum_merge(&o.iops_samples);
        merge_prios(&mut self.prios, &o.prios);
    }

    /// I/Os and bytes per second over the runtime; of a merged job (see
    /// [`RunResult::job_merged`]) its clones' total over the longest clone's runtime, as fio's
    /// group figures. Zeros without a runtime.
    pub fn rates(&self) -> (f64, f64) {
        if self.runtime_ms == 0 {
            return (0.0, 0.0);
        }
        let s = self.runtime_ms as f64 / 1000.0;
        (self.total_ios as f64 / s, self.io_bytes as f64 / s)
    }
}

/// CPU use of a job's thread, from getrusage(RUSAGE_THREAD).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CpuUsage {
    pub usr_us: u64,
    pub sys_us: u64,
    /// Voluntary + involuntary context switches.
    pub ctx: u64,
    pub majf: u64,
    pub minf: u64,
}

impl CpuUsage {
    pub fn merge(&mut self, o: &CpuUsage) {
        self.usr_us += o.usr_us;
        self.sys_us += o.sys_us;
        self.ctx += o.ctx;
        self.majf += o.majf;
        self.minf += o.minf;
    }
}

/// Queue-depth distributions, as fio's `IO depths`, `submit` and `complete` lines.
/// `level` buckets: 1, 2, 4, 8, 16, 32, >=64 (in-flight depth at each issue).
/// `submit`/`complete` buckets: 0, 4, 8, 16, 32, 64, >=64 (I/Os per submit / reap call).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DepthStats {
    pub level: [u64; 7],
    pub submit: [u64; 7],
    pub complete: [u64; 7],
}

impl DepthStats {
    #[inline]
    pub fn level_bucket(depth: u64) -> usize {
        match depth {
            0..=1 => 0,
            2..=3 => 1,
            4..=7 => 2,
            8..=15 => 3,
            16..=31 => 4,
            32..=63 => 5,
            _ => 6,
        }
    }
    #[inline]
    pub fn batch_bucket(n: u64) -> usize {
        match n {
            0 => 0,
            1..=4 => 1,
            5..=8 => 2,
            9..=16 => 3,
            17..=32 => 4,
            33..=64 => 5,
            _ => 6,
        }
    }
    pub fn merge(&mut self, o: &DepthStats) {
        for i in 0..7 {
            self.level[i] += o.level[i];
            self.submit[i] += o.submit[i];
            self.complete[i] += o.complete[i];
        }
    }
}

/// One point of a time series (for fio-style logs and charts).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LogEntry {
    /// Milliseconds since the job's start.
    pub t_ms: u64,
    /// Value (bw: KiB/s, iops: count, lat: ns).
    pub value: u64,
    /// fio's ddir: 0 read, 1 write, 2 trim.
    pub ddir: u8,
    pub bs: u64,
    pub offset: u64,
    /// The window's maximum beside its average (`log_max_value=2`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<u64>,
    /// The request's priority value (0 in averaged windows).
    #[serde(default, skip_serializing_if = "is_zero_u16")]
    pub prio: u16,
}

fn is_zero_u16(v: &u16) -> bool {
    *v == 0
}

/// One `write_hist_log` entry: the completion-latency histogram of one direction over one
/// `log_hist_msec` period (counts of that period only).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct HistLogEntry {
    pub t_ms: u64,
    pub ddir: u8,
    pub bs: u64,
    pub hist: crate::hist::Histogram,
}

/// Time series kept for logs (only filled when a log asks for them).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TimeSeries {
    pub bw: Vec<LogEntry>,
    pub iops: Vec<LogEntry>,
    pub slat: Vec<LogEntry>,
    pub clat: Vec<LogEntry>,
    pub lat: Vec<LogEntry>,
    #[serde(default)]
    pub hist: Vec<HistLogEntry>,
}

impl TimeSeries {
    /// Combine with another job's series: every entry of both is kept, each series in time
    /// order (entries at the same time keep `self`'s first). Lossless; nothing is averaged.
    pub fn merge(&mut self, o: &TimeSeries) {
        merge_by_time(&mut self.bw, &o.bw, |e| e.t_ms);
        merge_by_time(&mut self.iops, &o.iops, |e| e.t_ms);
        merge_by_time(&mut self.slat, &o.slat, |e| e.t_ms);
        merge_by_time(&mut self.clat, &o.clat, |e| e.t_ms);
        merge_by_time(&mut self.lat, &o.lat, |e| e.t_ms);
        merge_by_time(&mut self.hist, &o.hist, |e| e.t_ms);
    }
    pub fn is_empty(&self) -> bool {
        self.bw.is_empty()
            && self.iops.is_empty()
            && self.slat.is_empty()
            && self.clat.is_empty()
            && self.lat.is_empty()
            && self.hist.is_empty()
    }
}

/// Append `o` to `a` and keep the whole in time order (a stable sort: equal times keep `a`'s
/// entries first, then `o`'s in their order).
fn merge_by_time<T: Clone>(a: &mut Vec<T>, o: &[T], t: impl Fn(&T) -> u64) {
    if o.is_empty() {
        return;
    }
    a.extend_from_slice(o);
    a.sort_by_key(t);
}

/// What was measured about a target.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TargetInfo {
    pub path: String,
    /// "file", "block", "char" or "directory".
    pub kind: String,
    pub size_bytes: u64,
    pub logical_block_size: u64,
    pub physical_block_size: u64,
    /// Filesystem type of the file's mount (e.g. "ext4", "tmpfs"), if a file.
    pub fs_type: Option<String>,
    /// Block device under the target (e.g. "vda", "loop0").
    pub device: Option<String>,
    pub device_model: Option<String>,
    pub scheduler: Option<String>,
    pub rotational: Option<bool>,
    /// The disk's firmware revision.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub firmware: Option<String>,
    /// The drivers from the disk up to its controller (`sd, ahci`; `virtio_blk, virtio-pci`;
    /// `nvme`), or what a virtual disk is (`loop`, `device-mapper`, `md raid1`, `rbd`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub driver: Option<String>,
    /// The block layer's queue size.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nr_requests: Option<u64>,
    /// `write back` or `write through`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub write_cache: Option<String>,
    /// What lies under a virtual disk, a line per layer (loop's backing file, dm/md members).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub layers: Vec<String>,
    /// The options of the file system's mount.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mount_options: Option<String>,
    /// Free space of the file system (bytes available to unprivileged users) when probed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub free_bytes: Option<u64>,
}

/// One bad block found by verification.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct VerifyReport {
    pub file: String,
    pub offset: u64,
    pub len: u64,
    /// Which check failed (e.g. "DataChecksum", "Misdirected", "Stale", "BadMagic").
    pub check: String,
    pub message: String,
    /// The header the block should carry (None when the block could not be read).
    #[serde(default)]
    pub expected: Option<BlockHeader>,
    /// The header found in the block, decoded as stored (None when unreadable or too short).
    #[serde(default)]
    pub found: Option<BlockHeader>,
}

/// The fields of a verify block header, for reports. In an expectation, `None` means "any".
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BlockHeader {
    pub magic: Option<u32>,
    pub offset: u64,
    pub len: u64,
    pub job: Option<u32>,
    pub seed: Option<u64>,
    pub generation: Option<u64>,
    /// Expectation only: any generation from this one on is acceptable.
    pub min_generation: Option<u64>,
}

/// What verification found.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct VerifyResult {
    pub method: String,
    pub blocks_checked: u64,
    pub bad_blocks: u64,
    /// The first bad blocks (at most `VerifyResult::MAX_FAILURES`), in the order found.
    pub failures: Vec<VerifyReport>,
    /// A writing job that was asked to keep it: its writes issued and last completed writes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub progress: Option<crate::verify::WriteProgress>,
}

impl VerifyResult {
    /// How many bad blocks a result lists one by one.
    pub const MAX_FAILURES: usize = 100;

    /// Combine with another job's verification: counts add, the listed failures are `self`'s
    /// then `o`'s, up to [`VerifyResult::MAX_FAILURES`]. The method is `self`'s (or `o`'s when
    /// `self` has none).
    pub fn merge(&mut self, o: &VerifyResult) {
        if self.method.is_empty() {
            self.method = o.method.clone();
        }
        self.blocks_checked += o.blocks_checked;
        self.bad_blocks += o.bad_blocks;
        let room = Self::MAX_FAILURES.saturating_sub(self.failures.len());
        self.failures.extend(o.failures.iter().take(room).cloned());
    }
}

/// Results of one job clone.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct JobResult {
    pub name: String,
    /// Index of the job in the plan.
    pub job_index: usize,
    /// Clone number within the job (0..numjobs) and the global thread number (fio's jobnum).
    pub clone: u32,
    pub thread_number: u32,
    pub group_id: u32,
    /// 0 on success, else the errno of the first fatal error.
    pub error: i32,
    /// Why the job stopped, with the facts (`error_msg` in result files, where files written
    /// before failures were typed hold its words).
    #[serde(rename = "error_msg")]
    pub failure: Option<JobFailure>,
    /// Unix time in ms when the job started.
    pub start_unix_ms: u64,
    /// Wall time of the job in ms, from start to end (includes layout and ramp).
    pub elapsed_ms: u64,
    /// Measured runtime in ms (after ramp).
    pub runtime_ms: u64,
    /// The same in microseconds, for tools that print sub-millisecond times (dd, hdparm).
    #[serde(default)]
    pub runtime_us: u64,
    pub dirs: PerDir<DirResult>,
    /// fsync / fdatasync latencies.
    pub sync: LatRecord,
    /// fsyncs issued: fio's sync count (`issued rwts`, the JSON `sync` block's `total_ios`),
    /// which leaves fdatasyncs out (they are in the latencies).
    pub sync_ios: u64,
    /// I/Os issued per direction (fio's `issued rwts: total=`).
    pub issued: PerDir<u64>,
    pub cpu: CpuUsage,
    pub depth: DepthStats,
    /// Total errors tolerated (`total_err`) and the first one's errno (`first_error`).
    pub total_err: u64,
    pub first_error: i32,
    pub series: TimeSeries,
    pub verify: Option<VerifyResult>,
    /// Steady-state detection, when the job asked for it.
    #[serde(default)]
    pub steady: Option<crate::steady::SteadyResult>,
    /// The queue depth the job's latency-target search ended at, when it searched.
    #[serde(default)]
    pub search_depth: Option<u32>,
    /// Zones the job reset before writing them again (`zonemode=zbd`).
    #[serde(default)]
    pub zone_resets: u64,
    pub targets: Vec<TargetInfo>,
    /// Honesty notes (e.g. the working set fits in the page cache), typed.
    pub notes: Vec<Note>,
    /// The job ran (did not get skipped because of an earlier failure or interrupt).
    pub ran: bool,
}

impl JobResult {
    /// Fill direction `d` with what was measured outside the runner (the classic tools' own
    /// passes and operations): bytes, I/Os and their latency, completion and total alike (there
    /// is no submission stage), over the job's runtime.
    pub fn set_measured(&mut self, d: Dir, bytes: u64, ios: u64, lat: &LatRecord) {
        let r = &mut self.dirs[d];
        r.io_bytes = bytes;
        r.total_ios = ios;
        r.runtime_ms = self.runtime_ms;
        r.clat = lat.clone();
        r.lat = lat.clone();
        self.issued[d] = ios;
    }

    /// Merge another job's (clone's, run's, host's) results into this one, exactly: counts and
    /// bytes add, latency histograms add bucket by bucket (so percentiles of the merged result
    /// are those of all samples together), min/max/sums of the running stats combine, runtimes
    /// and wall times take the longest, CPU and depth figures add, the first error is kept,
    /// targets and notes are listed once each, time series keep every entry in time order and
    /// verification counts add.
    ///
    /// The identity of the result (name, job index, clone and thread number, group, start time)
    /// stays `self`'s: merge into the first result of a set.
    pub fn merge(&mut self, o: &JobResult) {
        self.merge_stats(o);
        self.series.merge(&o.series);
        match (&mut self.verify, &o.verify) {
            (Some(a), Some(b)) => a.merge(b),
            (None, Some(b)) => self.verify = Some(b.clone()),
            _ => {}
        }
    }

    /// `JobResult::merge` without the time series and the verification reports: what a
    /// summary of a set needs (a report of merged jobs), without copying the logs.
    pub fn merge_stats(&mut self, o: &JobResult) {
        if self.error == 0 && o.error != 0 {
            self.error = o.error;
            self.failure = o.failure.clone();
        }
        self.elapsed_ms = self.elapsed_ms.max(o.elapsed_ms);
        self.runtime_ms = self.runtime_ms.max(o.runtime_ms);
        self.runtime_us = self.runtime_us.max(o.runtime_us);
        for d in crate::job::Dir::ALL {
            self.dirs[d].merge(&o.dirs[d]);
            self.issued[d] += o.issued[d];
        }
        self.sync.merge(&o.sync);
        self.sync_ios += o.sync_ios;
        self.cpu.merge(&o.cpu);
        self.depth.merge(&o.depth);
        self.total_err += o.total_err;
        self.zone_resets += o.zone_resets;
        if self.first_error == 0 {
            self.first_error = o.first_error;
        }
        for t in &o.targets {
            if !self.targets.iter().any(|x| x.path == t.path) {
                self.targets.push(t.clone());
            }
        }
        for n in &o.notes {
            if !self.notes.contains(n) {
                self.notes.push(n.clone());
            }
        }
        // As fio: a group shows the depth of the last job that searched.
        if o.search_depth.is_some() {
            self.search_depth = o.search_depth;
        }
        self.ran |= o.ran;
    }

    /// A copy of this result without its time series and verification reports (the starting
    /// point of a summary built with [`JobResult::merge_stats`]).
    pub fn stats_only(&self) -> JobResult {
        JobResult {
            name: self.name.clone(),
            job_index: self.job_index,
            clone: self.clone,
            thread_number: self.thread_number,
            group_id: self.group_id,
            error: self.error,
            failure: self.failure.clone(),
            start_unix_ms: self.start_unix_ms,
            elapsed_ms: self.elapsed_ms,
            runtime_ms: self.runtime_ms,
            runtime_us: self.runtime_us,
            dirs: self.dirs.clone(),
            sync: self.sync.clone(),
            sync_ios: self.sync_ios,
            issued: self.issued,
            cpu: self.cpu.clone(),
            depth: self.depth.clone(),
            total_err: self.total_err,
            first_error: self.first_error,
            series: TimeSeries::default(),
            verify: None,
            steady: self.steady.clone(),
            search_depth: self.search_depth,
            zone_resets: self.zone_resets,
            targets: self.targets.clone(),
            notes: self.notes.clone(),
            ran: self.ran,
        }
    }
}

/// Disk utilisation from `/sys/block/DEV/stat`, over the run.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DiskUtil {
    pub name: String,
    pub read_ios: u64,
    pub write_ios: u64,
    pub read_merges: u64,
    pub write_merges: u64,
    pub read_sectors: u64,
    pub write_sectors: u64,
    pub read_ticks: u64,
    pub write_ticks: u64,
    pub in_queue: u64,
    pub io_ticks: u64,
    pub elapsed_ms: u64,
    /// Percent of time the device was busy.
    pub util: f64,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct HostInfo {
    pub hostname: String,
    pub kernel: String,
    pub cpus: usize,
    pub mem_bytes: u64,
    /// The distribution (`/etc/os-release`'s PRETTY_NAME).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub os: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub cpu_model: String,
    /// The DMI vendor and product (`QEMU Standard PC (Q35 + ICH9, 2009)`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub machine: String,
    /// The hypervisor or container (`kvm`, `qemu`, `microsoft`, `vmware`, `xen`, `container
    /// (docker)`, ...), as systemd-detect-virt names them; empty on bare metal.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub virtualization: String,
    /// The cloud vendor the DMI strings name (`aws`, `gcp`, `azure`, ...).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub cloud: String,
}

/// The result of a whole run.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RunResult {
    /// Format marker for iomark's own result files.
    pub format: String,
    pub iomark_version: String,
    pub start_unix_ms: u64,
    pub host: HostInfo,
    pub plan: RunPlan,
    pub jobs: Vec<JobResult>,
    pub disk_util: Vec<DiskUtil>,
    /// The run was stopped by a signal before it finished.
    pub interrupted: bool,
    /// The run's notes and its jobs' notes, typed; a front end's own notes as text.
    pub notes: Vec<Note>,
    /// The command line that made this result (program name first); empty in results written
    /// before it was recorded.
    #[serde(default)]
    pub command_line: Vec<String>,
    /// The figures a suite, preset or sweep shows in its own table (dd's rate, hdparm's
    /// timings, bonnie's rows per run, a sweep's matrix), for reports and exports.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tables: Vec<SuiteTable>,
    /// A run of many ranks (MPI, or result files merged with `iomark merge`): every rank's own
    /// result, in rank order; `jobs` then holds each job of all ranks merged. Empty for a run
    /// on one host.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ranks: Vec<RankResult>,
}

/// One rank's (one host's) whole result, as gathered by rank 0 or read from its result file.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RankResult {
    /// The rank in the launch (0-based); the file's position when merged from files.
    pub rank: usize,
    /// The host the rank ran on.
    pub host: String,
    pub result: RunResult,
}

pub const RESULT_FORMAT: &str = "iomark-result/1";

impl RunResult {
    /// A run's result from its jobs' results (in plan order): the one place a [`RunResult`] is
    /// put together, at the end of a run and for the live reports of a run still going. What
    /// only the end of a run knows (disk utilisation over the run, whether it was interrupted,
    /// the run's notes) and what only the front end knows (the command line) starts empty; the
    /// caller fills it in.
    pub fn assemble(
        plan: &RunPlan,
        start_unix_ms: u64,
        host: HostInfo,
        jobs: Vec<JobResult>,
    ) -> RunResult {
        RunResult {
            format: RESULT_FORMAT.to_string(),
            iomark_version: crate::VERSION.to_string(),
            start_unix_ms,
            host,
            plan: plan.clone(),
            jobs,
            disk_util: Vec::new(),
            interrupted: false,
            notes: Vec::new(),
            command_line: Vec::new(),
            tables: Vec::new(),
            ranks: Vec::new(),
        }
    }

    /// Plan job `i`'s clones merged (stats only, no series): the one figure of a job that the
    /// fio block, summaries, tables and reports all read. None when it has no clone.
    pub fn job_merged(&self, i: usize) -> Option<JobResult> {
        let mut clones = self.jobs.iter().filter(|j| j.job_index == i);
        let mut m = clones.next()?.stats_only();
        for c in clones {
            m.merge_stats(c);
        }
        Some(m)
    }

    /// Read an iomark result file (`--result`). Never panics: anything that is not a result of
    /// a known format version is an error naming what is wrong.
    pub fn from_json(bytes: &[u8]) -> Result<RunResult, ResultFileError> {
        let r: RunResult = serde_json::from_slice(bytes).map_err(ResultFileError::NotAResult)?;
        if r.format != RESULT_FORMAT {
            return Err(ResultFileError::UnknownFormat(
                r.format.chars().take(40).collect(),
            ));
        }
        Ok(r)
    }
}

/// Why a result file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ResultFileError {
    #[error("not an iomark result file: {0}")]
    NotAResult(serde_json::Error),
    /// The format named in the file (its first 40 characters).
    #[error("unsupported result format '{0}' (this iomark reads '{RESULT_FORMAT}')")]
    UnknownFormat(String),
}

#[cfg(test)]
#[path = "result_tests.rs"]
mod tests;
