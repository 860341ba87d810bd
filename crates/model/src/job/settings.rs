//! The other settings of a job: file service, sizes, rates, buffers, CPU policy, statistics,
//! logs, error handling, generated file names and verification.

use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::time::Duration;

/// Kept beside the other settings of a job; defined with the priority mixes it is part of.
pub use super::prio_mix::IoPriority;
use super::PerDir;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FileServiceType {
    Random,
    RoundRobin,
    Sequential,
}

/// Where a job's I/Os are submitted and reaped.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SubmitMode {
    /// By the job's own thread, through its engine.
    #[default]
    Inline,
    /// By a pool of submit threads (one per queue slot), each running one I/O at a time on its
    /// own engine; the job's thread prepares the I/Os and accounts their completions.
    Offload,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FileService {
    pub kind: FileServiceType,
    /// Number of I/Os before switching file (`roundrobin:N`); default 1.
    pub batch: u32,
}

impl Default for FileService {
    fn default() -> Self {
        FileService {
            kind: FileServiceType::RoundRobin,
            batch: 1,
        }
    }
}

/// A size that may be given as a percentage of the target (`size=50%`, `offset=10%`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum SizeSpec {
    Bytes(u64),
    Percent(f64),
}

impl SizeSpec {
    pub fn resolve(self, total: u64) -> u64 {
        match self {
            SizeSpec::Bytes(b) => b,
            SizeSpec::Percent(p) => ((total as f64) * p / 100.0) as u64,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RateProcess {
    Linear,
    Poisson,
}

/// Flow control between jobs (see `crate::flow`): a weight in a flow shared by id.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FlowSpec {
    /// Which flow the job shares (jobs with the same id share one).
    pub id: i32,
    /// The job's weight in the flow; 0 = no flow control.
    pub weight: u32,
    /// How long a held-back job sleeps before it tries again (zero: it retries at once).
    pub sleep: Duration,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RateSpec {
    /// bytes per second per direction, 0 = unlimited.
    pub bps: PerDir<u64>,
    /// I/Os per second per direction, 0 = unlimited.
    pub iops: PerDir<u64>,
    /// Minimum bytes/s (`rate_min`); the job fails below it.
    pub min_bps: PerDir<u64>,
    pub min_iops: PerDir<u64>,
    pub process: RateProcess,
    /// Averaging window for rate_min checks (fio's `rate_cycle`).
    pub cycle: Duration,
}

impl Default for RateSpec {
    fn default() -> Self {
        RateSpec {
            bps: PerDir::all(0),
            iops: PerDir::all(0),
            min_bps: PerDir::all(0),
            min_iops: PerDir::all(0),
            process: RateProcess::Linear,
            cycle: Duration::from_millis(1000),
        }
    }
}

/// What goes into write buffers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BufferSpec {
    pub zero_buffers: bool,
    pub refill_buffers: bool,
    pub scramble_buffers: bool,
    /// 0 = incompressible random data.
    pub compress_percentage: u32,
    pub compress_chunk: u64,
    /// Fill buffers with this repeated pattern (`buffer_pattern`).
    pub pattern: Option<Vec<u8>>,
    pub dedupe_percentage: u32,
    /// What a repeated buffer repeats.
    #[serde(default)]
    pub dedupe_mode: DedupeMode,
    /// `DedupeMode::WorkingSet`: the working set's share of the job's region, in per cent.
    #[serde(default = "default_working_set")]
    pub dedupe_working_set_percentage: u32,
    /// The working set is shared by every job clone of the run that shares it.
    #[serde(default)]
    pub dedupe_global: bool,
}

fn default_working_set() -> u32 {
    5
}

/// What a repeated (deduplicable) write buffer repeats.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DedupeMode {
    /// The last unique buffer.
    #[default]
    Repeat,
    /// A buffer drawn at random from the first unique buffers of the job.
    WorkingSet,
}

impl Default for BufferSpec {
    fn default() -> Self {
        BufferSpec {
            zero_buffers: false,
            refill_buffers: false,
            scramble_buffers: true,
            compress_percentage: 0,
            compress_chunk: 512,
            pattern: None,
            dedupe_percentage: 0,
            dedupe_mode: DedupeMode::Repeat,
            dedupe_working_set_percentage: 5,
            dedupe_global: false,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CpusAllowedPolicy {
    Shared,
    Split,
}

/// Which latency figures are recorded and which get percentiles.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StatsSpec {
    pub clat_percentiles: bool,
    pub lat_percentiles: bool,
    pub slat_percentiles: bool,
    /// Percentiles to report, e.g. [1, 5, 10, ..., 99.99].
    pub percentile_list: Vec<f64>,
    pub disable_lat: bool,
    pub disable_clat: bool,
    pub disable_slat: bool,
    pub disable_bw: bool,
    pub bwavgtime: Duration,
    pub iopsavgtime: Duration,
    /// fio's `unified_rw_reporting`: directions reported apart, merged, or both.
    #[serde(default)]
    pub unified_rw: UnifiedRw,
}

/// How directions are reported (`unified_rw_reporting`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum UnifiedRw {
    /// Each direction on its own.
    #[default]
    None,
    /// One `mixed` block summing every direction, instead of them.
    Mixed,
    /// Each direction, then the `mixed` block.
    Both,
}

pub const DEFAULT_PERCENTILES: [f64; 17] = [
    1.0, 5.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0, 90.0, 95.0, 99.0, 99.5, 99.9, 99.95,
    99.99,
];

impl Default for StatsSpec {
    fn default() -> Self {
        StatsSpec {
            clat_percentiles: true,
            lat_percentiles: false,
            slat_percentiles: false,
            percentile_list: DEFAULT_PERCENTILES.to_vec(),
            disable_lat: false,
            disable_clat: false,
            disable_slat: false,
            disable_bw: false,
            bwavgtime: Duration::from_millis(500),
            iopsavgtime: Duration::from_millis(500),
            unified_rw: UnifiedRw::None,
        }
    }
}

/// fio-style log files (`write_bw_log=prefix` etc.).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LogSpec {
    pub bw_log: Option<String>,
    pub iops_log: Option<String>,
    pub lat_log: Option<String>,
    pub hist_log: Option<String>,
    /// 0 = one entry per I/O.
    pub avg_msec: u64,
    pub hist_msec: u64,
    pub per_job_logs: bool,
    pub log_offset: bool,
    /// `log_max_value`: 0 = average, 1 = max, 2 = both.
    pub max_value: u8,
    /// Store the logs compressed, in chunks of this many bytes of samples (None: as text).
    #[serde(default)]
    pub compressed_chunk: Option<u64>,
    /// Each entry's last column is the request's priority value (else 1 for a real-time
    /// request, 0 otherwise).
    #[serde(default)]
    pub log_prio: bool,
}

impl LogSpec {
    pub fn any(&self) -> bool {
        self.bw_log.is_some()
            || self.iops_log.is_some()
            || self.lat_log.is_some()
            || self.hist_log.is_some()
    }
}

/// Which jobs a finishing job that stops others (`JobSpec::exitall`) stops.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ExitScope {
    /// The jobs of its reporting group, started or not.
    #[default]
    Group,
    /// The jobs running at that moment, whatever their group; later groups still run.
    Running,
    /// Every job: the run ends.
    All,
}

/// `continue_on_error=`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ContinueOnError {
    None,
    Read,
    Write,
    Io,
    Verify,
    All,
}

impl ContinueOnError {
    /// The classes of error (read, write, check) the job goes on after.
    pub fn classes(self) -> [bool; 3] {
        match self {
            ContinueOnError::None => [false; 3],
            ContinueOnError::Read => [true, false, false],
            ContinueOnError::Write => [false, true, false],
            ContinueOnError::Io => [true, true, false],
            ContinueOnError::Verify => [false, false, true],
            ContinueOnError::All => [true; 3],
        }
    }
}

/// One piece of a [`NameTemplate`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum NamePart {
    /// Literal text.
    Text(String),
    /// The job's name.
    JobName,
    /// The clone's number within its job (0-based).
    Clone,
    /// The file's number within the clone (0-based).
    File,
}

/// The names of the files a job generates: text and the parts filled in per clone and file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NameTemplate(pub Vec<NamePart>);

impl Default for NameTemplate {
    /// `<job>.<clone>.<file>`.
    fn default() -> Self {
        NameTemplate(vec![
            NamePart::JobName,
            NamePart::Text(".".into()),
            NamePart::Clone,
            NamePart::Text(".".into()),
            NamePart::File,
        ])
    }
}

impl NameTemplate {
    /// The name of file `file` of clone `clone` of job `job`.
    pub fn expand(&self, job: &str, clone: u32, file: u32) -> String {
        let mut out = String::new();
        for p in &self.0 {
            match p {
                NamePart::Text(t) => out.push_str(t),
                NamePart::JobName => out.push_str(job),
                NamePart::Clone => out.push_str(&clone.to_string()),
                NamePart::File => out.push_str(&file.to_string()),
            }
        }
        out
    }
}

/// Data verification (fio's `verify` family).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct VerifySpec {
    /// The check that protects each block.
    pub method: crate::verify::VerifyKind,
    /// Read back and check every written block after the write phase (`do_verify`).
    pub do_verify: bool,
    /// Size of a verify block (`verify_interval`); 0 = the smallest block size.
    pub interval: u64,
    /// `verify_pattern` bytes (data after each header).
    pub pattern: Option<Vec<u8>>,
    /// Positions in `pattern` where the offset of each I/O goes (fio's `%o`), 8 bytes
    /// little-endian, cut short at the pattern's end.
    #[serde(default)]
    pub pattern_offsets: Vec<usize>,
    /// Stop at the first bad block (`verify_fatal`).
    pub fatal: bool,
    /// Write the expected and received contents of bad blocks to files (`verify_dump`).
    pub dump: bool,
    /// Where every dump goes (`--dump-dir`); without it, beside a regular file target.
    #[serde(default)]
    pub dump_dir: Option<PathBuf>,
    /// Where dumps of targets that are not regular files go (a device: never beside its node);
    /// without it, the working directory.
    #[serde(default)]
    pub dump_fallback_dir: Option<PathBuf>,
    /// Do not write: replay the write sequence and check the data an identical earlier run left.
    pub only: bool,
    /// Check written blocks inline after every N writes (`verify_backlog`); 0 = at the end only.
    pub backlog: u64,
    /// Swap each block's header with the data this many bytes into the block before writing,
    /// and back before checking (`verify_offset`); 0 = the header stays at the start.
    #[serde(default)]
    pub header_offset: u64,
    /// Keep the offsets of the last writes completed (as many as the queue depth) and report
    /// them with the writes issued in the result (`VerifyResult::progress`).
    #[serde(default)]
    pub keep_progress: bool,
    /// A job that reads data back only as far as an earlier writing job got: `Some` asks for
    /// it (the front end fills in the records), with what that job had done when it ended, per
    /// thread number; the read-back stops where its record says the writes ended.
    #[serde(default)]
    pub written_before: Option<Vec<(u32, crate::verify::WriteProgress)>>,
}

impl Default for VerifySpec {
    fn default() -> Self {
        VerifySpec {
            method: crate::verify::VerifyKind::Crc32c,
            do_verify: true,
            interval: 0,
            pattern: None,
            pattern_offsets: Vec::new(),
            fatal: false,
            dump: false,
            dump_dir: None,
            dump_fallback_dir: None,
            only: false,
            backlog: 0,
            header_offset: 0,
            keep_progress: false,
            written_before: None,
        }
    }
}
