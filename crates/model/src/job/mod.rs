//! The job model: what a front end (fio options, job files, suites, presets) produces and the
//! engine runs. It knows nothing of fio syntax; every field is typed and already validated by the
//! front end (the engine still re-checks what depends on the target, e.g. alignment).

use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::time::Duration;

mod access;
mod engine;
mod errors;
pub mod io;
mod net;
pub mod prio_mix;
mod settings;
mod shown;
mod trace;
mod zbd;

pub use access::*;
pub use engine::{
    CephTarget, CpuBurn, CpuMode, DefragDonor, EngineKind, EngineOption, EngineOptions,
    ExecProgram, NetLink, NetProtocol,
};
pub use errors::*;
pub use io::*;
pub use settings::*;
pub use shown::ShownOptions;
pub use trace::*;
pub use zbd::ZbdZones;

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
    /// At most this many of the job's files open at once (0: all of them, for the whole run);
    /// below the number of files, each is opened when first chosen and closed once it
    /// finished its pass.
    #[serde(default)]
    pub open_files: u32,
    /// Explicit file names (fio's `filename`, `:` separated); all clones share them.
    pub filenames: Vec<PathBuf>,
    /// Directories for generated file names; clones are spread across them.
    pub directories: Vec<PathBuf>,
    /// Name template for generated files (when no file names are given).
    pub file_names: NameTemplate,
    pub offset: SizeSpec,
    pub offset_increment: SizeSpec,
    /// Clones of this job that other processes of the same run own on the same target, before
    /// this process's: the offset steps continue after theirs (0 when the run is one process).
    #[serde(default)]
    pub clones_before: u32,
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
    /// Who submits the I/Os: the job's thread, or a pool of submit threads.
    #[serde(default)]
    pub submit_mode: SubmitMode,
    /// An I/O that overlaps one in flight waits for it to complete (with offloaded submission:
    /// one in flight in any job of the run that also asks for it).
    #[serde(default)]
    pub serialize_overlap: bool,

    // --- files and caching
    pub direct: bool,
    pub sync: SyncMode,
    pub fsync: u64,
    pub fdatasync: u64,
    pub end_fsync: bool,
    pub fsync_on_close: bool,
    /// `end_fsync` and `fsync_on_close` call fdatasync(2) rather than fsync(2) (dd's
    /// conv=fdatasync).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub end_sync_data_only: bool,
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
    /// A file that does not exist is created empty and grows as the job writes it (as a program
    /// appending to a new file), instead of being laid out at its full size first.
    #[serde(default)]
    pub grow_file: bool,
    /// Before the run's first I/O, each file of the job that is a regular file is cut (or
    /// extended) to this many bytes, as GNU dd does to its output unless conv=notrunc; a block
    /// device is left as it is, and a file that does not exist yet is created by the job.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub truncate_to: Option<u64>,
    pub allow_mounted_write: bool,
    pub readonly: bool,

    // --- random numbers and data
    /// Repeatable random streams, seeded again at every loop.
    pub randrepeat: bool,
    pub randseed: u64,
    /// The streams derive from `randseed` alone even without `randrepeat` (fio: `randseed`
    /// given, or `allrandrepeat`); they are then not seeded again at each loop.
    #[serde(default)]
    pub seeds_from_randseed: bool,
    pub norandommap: bool,
    /// `random_generator=lfsr`: every block once per pass, without a map (even with
    /// `norandommap`), as fio's LFSR does.
    #[serde(default)]
    pub lfsr: bool,
    pub distribution: Distribution,
    pub buffers: BufferSpec,

    // --- pacing
    pub rate: RateSpec,
    pub thinktime: Duration,
    pub thinktime_spin: Duration,
    pub thinktime_blocks: u32,
    /// Flow control between jobs (weight 0: none).
    #[serde(default)]
    pub flow: FlowSpec,
    /// Search for the deepest queue that keeps latency within a target (target zero: none).
    #[serde(default)]
    pub depth_search: crate::depth_search::DepthSearchSpec,
    /// Per direction, the total latency no I/O may exceed: one that does ends the job with
    /// ETIMEDOUT (zero: no limit).
    #[serde(default)]
    pub latency_limit: PerDir<Duration>,

    // --- placement
    pub cpus_allowed: Option<Vec<usize>>,
    pub cpus_allowed_policy: CpusAllowedPolicy,
    /// NUMA nodes named by `numa_cpu_nodes` and `numa_mem_policy`: each must exist on the
    /// machine that runs the job (fio drops a job naming a node the machine does not have).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub numa_nodes: Vec<u32>,

    // --- stats, logs, reporting
    pub stats: StatsSpec,
    pub logs: LogSpec,
    pub group_reporting: bool,
    pub exitall: bool,
    /// Which jobs `exitall` (and `exit_on_error`) stops.
    #[serde(default)]
    pub exit_scope: ExitScope,
    /// Stop the jobs of `exit_scope` when this job ends with an error.
    #[serde(default)]
    pub exit_on_error: bool,
    /// What failed I/Os do: stop the job, or counted and tolerated.
    #[serde(default)]
    pub errors: ErrorPolicy,
    pub verify: Option<VerifySpec>,
    /// Record the issued I/O into a trace file.
    #[serde(default)]
    pub record: Option<TraceRecord>,
    /// Replay these I/Os instead of generating them.
    #[serde(default)]
    pub replay: Option<Replay>,
    /// End the job once its IOPS or bandwidth is steady.
    #[serde(default)]
    pub steady: Option<crate::steady::SteadySpec>,
    /// Pick each I/O's direction, size and offset from these weighted lines instead of from
    /// the job's direction mix, block sizes, alignment, random share and think time.
    #[serde(default)]
    pub access_mix: Option<AccessMix>,
    /// Strided zones: the job's I/O confined to one zone of the region at a time.
    #[serde(default)]
    pub zones: Option<StridedZones>,
    /// Emulated zones with write pointers (`zonemode=zbd` on a target that is not zoned).
    #[serde(default)]
    pub zbd: Option<ZbdZones>,
    /// The I/O priority of the job's thread (ioprio_set), None = inherited.
    #[serde(default)]
    pub io_priority: Option<IoPriority>,

    /// The job's own options as the user wrote them, only to be shown again (fio's `job
    /// options`, the result file); the fio front end fills it.
    #[serde(rename = "options")]
    pub shown_options: ShownOptions,
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
            open_files: 0,
            filenames: Vec::new(),
            directories: Vec::new(),
            file_names: NameTemplate::default(),
            offset: SizeSpec::Bytes(0),
            offset_increment: SizeSpec::Bytes(0),
            clones_before: 0,
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
            submit_mode: SubmitMode::Inline,
            serialize_overlap: false,
            direct: false,
            sync: SyncMode::None,
            fsync: 0,
            fdatasync: 0,
            end_fsync: false,
            fsync_on_close: false,
            end_sync_data_only: false,
            invalidate: true,
            fadvise_hint: FadviseHint::Auto,
            fallocate: FallocateMode::Native,
            create_on_open: false,
            unlink: false,
            overwrite: false,
            fill_device: false,
            grow_file: false,
            truncate_to: None,
            allow_mounted_write: false,
            readonly: false,
            randrepeat: true,
            randseed: 0x89,
            seeds_from_randseed: false,
            norandommap: false,
            lfsr: false,
            distribution: Distribution::Random,
            buffers: BufferSpec::default(),
            rate: RateSpec::default(),
            thinktime: Duration::ZERO,
            thinktime_spin: Duration::ZERO,
            thinktime_blocks: 1,
            flow: FlowSpec::default(),
            depth_search: Default::default(),
            latency_limit: PerDir::all(Duration::ZERO),
            cpus_allowed: None,
            cpus_allowed_policy: CpusAllowedPolicy::Shared,
            numa_nodes: Vec::new(),
            stats: StatsSpec::default(),
            logs: LogSpec::default(),
            group_reporting: false,
            exitall: false,
            exit_scope: ExitScope::Group,
            exit_on_error: false,
            errors: ErrorPolicy::default(),
            verify: None,
            record: None,
            replay: None,
            steady: None,
            access_mix: None,
            zones: None,
            zbd: None,
            io_priority: None,
            shown_options: ShownOptions::default(),
        }
    }
}

impl JobSpec {
    /// The largest block size over the directions this job uses.
    pub fn max_bs(&self) -> u64 {
        Dir::ALL
            .iter()
            .map(|&d| self.bs[d].max())
            .chain(self.access_mix.as_ref().map(AccessMix::max_size))
            .max()
            .unwrap_or(4096)
    }
    /// The smallest block size over the directions this job uses.
    /// Whether the job's random streams derive from `randseed` alone (the same on every run).
    pub fn repeatable_seeds(&self) -> bool {
        self.randrepeat || self.seeds_from_randseed
    }

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
    /// Options that applied to all jobs (fio's `global options`) as written, only to be shown
    /// again.
    #[serde(rename = "global_options")]
    pub shown_global_options: ShownOptions,
    /// Refuse every write, trim and file creation (`--readonly`).
    pub readonly: bool,
    /// Allow a layout larger than the free space of its filesystem (`--allow-fill`).
    pub allow_fill: bool,
    /// Allow writes to a block device that carries a filesystem or partition table.
    pub force_device_write: bool,
    /// `unlink` deletes also files that existed before the run (`--allow-unlink-existing`);
    /// without it, only files the run created.
    #[serde(default)]
    pub allow_unlink_existing: bool,
    /// `--override KEY=VALUE` pairs as written (applied to every job after all other options
    /// by the front end), only to be shown again.
    #[serde(default, rename = "overrides")]
    pub shown_overrides: ShownOptions,
    /// Keep the interval series a report draws (bandwidth, IOPS, latency and latency
    /// histograms, one point every this many ms) for the jobs that keep none of their own. The
    /// series stay in the result; the jobs' own log settings, and so the log files a front end
    /// writes, are as given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub series_ms: Option<u64>,
}

impl JobSpec {
    /// The files clone `clone` of this job uses: its filenames, or its generated names in its
    /// directory (`directory=`, else the working directory).
    pub fn clone_paths(&self, clone: u32) -> Vec<PathBuf> {
        if !self.filenames.is_empty() {
            return self.filenames.clone();
        }
        let dir = if self.directories.is_empty() {
            PathBuf::from(".")
        } else {
            self.directories[clone as usize % self.directories.len()].clone()
        };
        (0..self.nrfiles.max(1))
            .map(|f| dir.join(self.file_names.expand(&self.name, clone, f)))
            .collect()
    }
}
