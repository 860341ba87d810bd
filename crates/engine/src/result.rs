//! The result model: everything a report, a comparison or a distributed merge needs, with units
//! in the field names. Self-describing and lossless: latency histograms are kept whole (sparse)
//! so results from many threads, runs or hosts merge exactly.

use crate::hist::{Histogram, LatStat, SampleStat};
use crate::job::{PerDir, RunPlan};
use serde::{Deserialize, Serialize};

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
    /// The first bad blocks (at most 100), in the order found.
    pub failures: Vec<VerifyReport>,
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
    pub error_msg: Option<String>,
    /// Unix time in ms when the job started.
    pub start_unix_ms: u64,
    /// Wall time of the job in ms, from start to end (includes layout and ramp).
    pub elapsed_ms: u64,
    /// Measured runtime in ms (after ramp).
    pub runtime_ms: u64,
    pub dirs: PerDir<DirResult>,
    /// fsync / fdatasync latencies.
    pub sync: LatRecord,
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
    pub targets: Vec<TargetInfo>,
    /// Honesty notes (e.g. "working set fits in page cache").
    pub notes: Vec<String>,
    /// The job ran (did not get skipped because of an earlier failure or interrupt).
    pub ran: bool,
}

/// Disk utilisation from /sys/block/<dev>/stat, over the run.
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
    pub notes: Vec<String>,
}

pub const RESULT_FORMAT: &str = "iomark-result/1";

impl RunResult {
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
