//! The job model: what a front end (fio options, job files, suites, presets) produces and the
//! engine runs. It knows nothing of fio syntax; every field is typed and already validated by the
//! front end (the engine still re-checks what depends on the target, e.g. alignment).

/// Engines are declared in `engines`; the job model names them by kind.
pub use crate::engines::{EngineKind, EngineOptions};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::time::Duration;

/// Data direction, in fio's order (DDIR_READ=0, DDIR_WRITE=1, DDIR_TRIM=2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Dir {
    Read = 0,
    Write = 1,
    Trim = 2,
}

impl Dir {
    pub const ALL: [Dir; 3] = [Dir::Read, Dir::Write, Dir::Trim];
    pub fn idx(self) -> usize {
        self as usize
    }
    pub fn name(self) -> &'static str {
        match self {
            Dir::Read => "read",
            Dir::Write => "write",
            Dir::Trim => "trim",
        }
    }
}

/// One value per data direction (fio's per-direction lists: `bs=4k,64k`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PerDir<T> {
    pub read: T,
    pub write: T,
    pub trim: T,
}

impl<T: Clone> PerDir<T> {
    pub fn all(v: T) -> Self {
        PerDir {
            read: v.clone(),
            write: v.clone(),
            trim: v,
        }
    }
}

impl<T> PerDir<T> {
    pub fn get(&self, d: Dir) -> &T {
        match d {
            Dir::Read => &self.read,
            Dir::Write => &self.write,
            Dir::Trim => &self.trim,
        }
    }
    pub fn get_mut(&mut self, d: Dir) -> &mut T {
        match d {
            Dir::Read => &mut self.read,
            Dir::Write => &mut self.write,
            Dir::Trim => &mut self.trim,
        }
    }
    pub fn map<U>(&self, mut f: impl FnMut(&T) -> U) -> PerDir<U> {
        PerDir {
            read: f(&self.read),
            write: f(&self.write),
            trim: f(&self.trim),
        }
    }
}

impl<T> std::ops::Index<Dir> for PerDir<T> {
    type Output = T;
    fn index(&self, d: Dir) -> &T {
        self.get(d)
    }
}
impl<T> std::ops::IndexMut<Dir> for PerDir<T> {
    fn index_mut(&mut self, d: Dir) -> &mut T {
        self.get_mut(d)
    }
}

/// fio's `rw=`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RwMode {
    Read,
    Write,
    Trim,
    RandRead,
    RandWrite,
    RandTrim,
    /// `rw` / `readwrite`: sequential mixed.
    ReadWrite,
    RandRw,
    /// Sequential trim followed by a write of the same block.
    TrimWrite,
}

impl RwMode {
    pub fn is_random(self) -> bool {
        matches!(
            self,
            RwMode::RandRead | RwMode::RandWrite | RwMode::RandTrim | RwMode::RandRw
        )
    }
    pub fn has_read(self) -> bool {
        matches!(
            self,
            RwMode::Read | RwMode::RandRead | RwMode::ReadWrite | RwMode::RandRw
        )
    }
    pub fn has_write(self) -> bool {
        matches!(
            self,
            RwMode::Write
                | RwMode::RandWrite
                | RwMode::ReadWrite
                | RwMode::RandRw
                | RwMode::TrimWrite
        )
    }
    pub fn has_trim(self) -> bool {
        matches!(self, RwMode::Trim | RwMode::RandTrim | RwMode::TrimWrite)
    }
    /// fio's name, as printed in the job header line.
    pub fn fio_name(self) -> &'static str {
        match self {
            RwMode::Read => "read",
            RwMode::Write => "write",
            RwMode::Trim => "trim",
            RwMode::RandRead => "randread",
            RwMode::RandWrite => "randwrite",
            RwMode::RandTrim => "randtrim",
            RwMode::ReadWrite => "rw",
            RwMode::RandRw => "randrw",
            RwMode::TrimWrite => "trimwrite",
        }
    }
}

/// `rw=randread:8` / `rw=write:4k`: for random patterns N I/Os per generated offset; for
/// sequential patterns a hole of N bytes after each I/O.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RwModifier {
    pub value: u64,
}

/// Block sizes for one direction.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum BlockSize {
    Fixed(u64),
    /// `bsrange=min-max`: a random multiple of `min` in [min, max].
    Range {
        min: u64,
        max: u64,
    },
    /// `bssplit=4k/10:64k/90`: (size, percent); percents sum to 100.
    Split(Vec<(u64, u32)>),
}

impl BlockSize {
    pub fn min(&self) -> u64 {
        match self {
            BlockSize::Fixed(v) => *v,
            BlockSize::Range { min, .. } => *min,
            BlockSize::Split(v) => v.iter().map(|x| x.0).min().unwrap_or(0),
        }
    }
    pub fn max(&self) -> u64 {
        match self {
            BlockSize::Fixed(v) => *v,
            BlockSize::Range { max, .. } => *max,
            BlockSize::Split(v) => v.iter().map(|x| x.0).max().unwrap_or(0),
        }
    }
}

/// `random_distribution=`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Distribution {
    Random,
    Zipf {
        theta: f64,
        center: f64,
    },
    Pareto {
        h: f64,
        center: f64,
    },
    /// Normal (gauss) with sigma given in percent of the region.
    Normal {
        sigma_pct: f64,
        center: f64,
    },
    /// (access percent, region percent) pairs.
    Zoned(Vec<(f64, f64)>),
    /// (access percent, region bytes) pairs.
    ZonedAbs(Vec<(f64, u64)>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SyncMode {
    None,
    /// O_SYNC
    Sync,
    /// O_DSYNC
    Dsync,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FallocateMode {
    None,
    Native,
    Posix,
    Keep,
    Truncate,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FadviseHint {
    Off,
    /// Match the access pattern (fio's default `fadvise_hint=1`).
    Auto,
    Sequential,
    Random,
    NoReuse,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FileServiceType {
    Random,
    RoundRobin,
    Sequential,
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

impl RateSpec {
    pub fn is_limited(&self) -> bool {
        Dir::ALL
            .iter()
            .any(|&d| self.bps[d] > 0 || self.iops[d] > 0)
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
}

impl LogSpec {
    pub fn any(&self) -> bool {
        self.bw_log.is_some()
            || self.iops_log.is_some()
            || self.lat_log.is_some()
            || self.hist_log.is_some()
    }
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
    /// Stop at the first bad block (`verify_fatal`).
    pub fatal: bool,
    /// Write the expected and received contents of bad blocks to files (`verify_dump`).
    pub dump: bool,
    /// Do not write: replay the write sequence and check the data an identical earlier run left.
    pub only: bool,
    /// Check written blocks inline after every N writes (`verify_backlog`); 0 = at the end only.
    pub backlog: u64,
}

impl Default for VerifySpec {
    fn default() -> Self {
        VerifySpec {
            method: crate::verify::VerifyKind::Crc32c,
            do_verify: true,
            interval: 0,
            pattern: None,
            fatal: false,
            dump: false,
            only: false,
            backlog: 0,
        }
    }
}

/// One job as written by the user (before `numjobs` expansion into clones).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JobSpec {
    pub name: String,
    pub description: Option<String>,
    /// Reporting group, assigned by the front end (stonewall / new_group start a new one).
    pub group_id: u32,
    /// Wait for every earlier job to finish before starting.
    pub stonewall: bool,
    /// Wait for the named job to finish before starting.
    pub wait_for: Option<String>,
    pub numjobs: u32,

    // --- workload shape
    pub rw: RwMode,
    pub rw_modifier: RwModifier,
    /// Percentage of reads in mixed workloads.
    pub rwmixread: u32,
    pub percentage_random: PerDir<u32>,
    pub bs: PerDir<BlockSize>,
    /// Alignment of random offsets (None = min bs of the direction).
    pub blockalign: PerDir<Option<u64>>,
    /// I/O region per job (None = the file or device size).
    pub size: Option<SizeSpec>,
    /// Amount of I/O (None = size).
    pub io_size: Option<SizeSpec>,
    /// Per-file size or range (overrides size as the file size).
    pub filesize: Option<(u64, u64)>,
    pub nrfiles: u32,
    pub file_service: FileService,
    /// Explicit file names (fio's `filename`, `:` separated); all clones share them.
    pub filenames: Vec<PathBuf>,
    /// Directories for generated file names; clones are spread across them.
    pub directories: Vec<PathBuf>,
    /// Name template for generated files (when no file names are given).
    pub file_names: NameTemplate,
    pub offset: SizeSpec,
    pub offset_increment: SizeSpec,
    /// Stop after this many I/Os (0 = no limit).
    pub number_ios: u64,

    // --- time and lifecycle
    pub runtime: Option<Duration>,
    pub time_based: bool,
    pub ramp_time: Duration,
    /// Delay before start: fixed, or a random value in [min, max].
    pub startdelay: (Duration, Duration),
    pub loops: u32,

    // --- engine, depth, batching
    pub ioengine: EngineKind,
    pub engine_options: EngineOptions,
    pub iodepth: u32,
    /// Submit once this many are queued (fio: 0 means iodepth).
    pub iodepth_batch_submit: u32,
    pub iodepth_batch_complete_min: u32,
    pub iodepth_batch_complete_max: u32,
    pub iodepth_low: u32,

    // --- files and caching
    pub direct: bool,
    pub sync: SyncMode,
    pub fsync: u64,
    pub fdatasync: u64,
    pub end_fsync: bool,
    pub fsync_on_close: bool,
    pub invalidate: bool,
    pub fadvise_hint: FadviseHint,
    pub fallocate: FallocateMode,
    pub create_on_open: bool,
    pub unlink: bool,
    pub overwrite: bool,
    /// `fill_device`/`fill_fs`: without a size, files span the free space of their filesystem,
    /// are not pre-allocated nor counted by the free-space check, and the job writes until
    /// ENOSPC, which ends it normally.
    #[serde(default)]
    pub fill_device: bool,
    pub allow_mounted_write: bool,
    pub readonly: bool,

    // --- random numbers and data
    pub randrepeat: bool,
    pub randseed: u64,
    pub norandommap: bool,
    pub distribution: Distribution,
    pub buffers: BufferSpec,

    // --- pacing
    pub rate: RateSpec,
    pub thinktime: Duration,
    pub thinktime_spin: Duration,
    pub thinktime_blocks: u32,

    // --- placement
    pub cpus_allowed: Option<Vec<usize>>,
    pub cpus_allowed_policy: CpusAllowedPolicy,

    // --- stats, logs, reporting
    pub stats: StatsSpec,
    pub logs: LogSpec,
    pub group_reporting: bool,
    pub exitall: bool,
    pub continue_on_error: ContinueOnError,
    pub verify: Option<VerifySpec>,

    /// The options as the user wrote them (name, raw value) for `job options` in output and
    /// for the result file; the fio front end fills it.
    pub options: Vec<(String, String)>,
}

impl Default for JobSpec {
    fn default() -> Self {
        JobSpec {
            name: String::new(),
            description: None,
            group_id: 0,
            stonewall: false,
            wait_for: None,
            numjobs: 1,
            rw: RwMode::Read,
            rw_modifier: RwModifier::default(),
            rwmixread: 50,
            percentage_random: PerDir::all(100),
            bs: PerDir::all(BlockSize::Fixed(4096)),
            blockalign: PerDir::all(None),
            size: None,
            io_size: None,
            filesize: None,
            nrfiles: 1,
            file_service: FileService::default(),
            filenames: Vec::new(),
            directories: Vec::new(),
            file_names: NameTemplate::default(),
            offset: SizeSpec::Bytes(0),
            offset_increment: SizeSpec::Bytes(0),
            number_ios: 0,
            runtime: None,
            time_based: false,
            ramp_time: Duration::ZERO,
            startdelay: (Duration::ZERO, Duration::ZERO),
            loops: 1,
            ioengine: EngineKind::Psync,
            engine_options: EngineOptions {
                nonvectored: true,
                ..Default::default()
            },
            iodepth: 1,
            iodepth_batch_submit: 1,
            iodepth_batch_complete_min: 1,
            iodepth_batch_complete_max: 1,
            iodepth_low: 1,
            direct: false,
            sync: SyncMode::None,
            fsync: 0,
            fdatasync: 0,
            end_fsync: false,
            fsync_on_close: false,
            invalidate: true,
            fadvise_hint: FadviseHint::Auto,
            fallocate: FallocateMode::Native,
            create_on_open: false,
            unlink: false,
            overwrite: false,
            fill_device: false,
            allow_mounted_write: false,
            readonly: false,
            randrepeat: true,
            randseed: 0x89,
            norandommap: false,
            distribution: Distribution::Random,
            buffers: BufferSpec::default(),
            rate: RateSpec::default(),
            thinktime: Duration::ZERO,
            thinktime_spin: Duration::ZERO,
            thinktime_blocks: 1,
            cpus_allowed: None,
            cpus_allowed_policy: CpusAllowedPolicy::Shared,
            stats: StatsSpec::default(),
            logs: LogSpec::default(),
            group_reporting: false,
            exitall: false,
            continue_on_error: ContinueOnError::None,
            verify: None,
            options: Vec::new(),
        }
    }
}

impl JobSpec {
    /// The largest block size over the directions this job uses.
    pub fn max_bs(&self) -> u64 {
        Dir::ALL
            .iter()
            .map(|&d| self.bs[d].max())
            .max()
            .unwrap_or(4096)
    }
    /// The smallest block size over the directions this job uses.
    pub fn min_bs(&self) -> u64 {
        let mut dirs = Vec::with_capacity(3);
        if self.rw.has_read() {
            dirs.push(Dir::Read);
        }
        if self.rw.has_write() {
            dirs.push(Dir::Write);
        }
        if self.rw.has_trim() {
            dirs.push(Dir::Trim);
        }
        dirs.iter().map(|&d| self.bs[d].min()).min().unwrap_or(4096)
    }
    /// Whether this job writes (or trims, or creates files).
    pub fn writes(&self) -> bool {
        let verify_only = self.verify.as_ref().is_some_and(|v| v.only);
        (self.rw.has_write() && !verify_only)
            || self.rw.has_trim()
            || matches!(
                self.ioengine,
                EngineKind::FileCreate | EngineKind::FileDelete
            )
    }
}

/// What the engine runs: all jobs in order, with run-wide settings.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RunPlan {
    pub jobs: Vec<JobSpec>,
    /// Options that applied to all jobs (fio's `global options`), as written.
    pub global_options: Vec<(String, String)>,
    /// Refuse every write, trim and file creation (`--readonly`).
    pub readonly: bool,
    /// Allow a layout larger than the free space of its filesystem (`--allow-fill`).
    pub allow_fill: bool,
    /// Allow writes to a block device that carries a filesystem or partition table.
    pub force_device_write: bool,
    /// `--override KEY=VALUE` pairs, applied to every job after all other options.
    #[serde(default)]
    pub overrides: Vec<(String, String)>,
}
