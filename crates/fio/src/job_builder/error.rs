//! Why options do not make a job: one option's value, or what several of them say together.
//! Each variant carries the facts; its words are the ones users see.

use super::UnknownOption;
use crate::iolog::IologError;
use crate::options::OptionError;
use iomark_output::echo::quote;
use std::path::PathBuf;
use thiserror::Error;

/// What is wrong with a job, without naming the job (see [`JobError`]).
#[derive(Clone, Debug, PartialEq, Error)]
pub enum BuildError {
    #[error(transparent)]
    Unknown(#[from] UnknownOption),
    #[error(transparent)]
    Option(#[from] OptionError),
    #[error("iodepth_batch_complete_max ({max}) is below iodepth_batch_complete_min ({min})")]
    BatchCompleteMax { max: u32, min: u32 },
    /// An engine option given with the engine it belongs to, but another engine chosen later.
    #[error("option '{option}' belongs to ioengine {owners}, but the job uses ioengine={engine}", owners = .owners.join(" or "))]
    EngineChanged {
        option: &'static str,
        owners: &'static [&'static str],
        engine: &'static str,
    },
    /// An engine that needs one of its options, without it.
    #[error("ioengine={engine} needs {option}= ({why})")]
    EngineNeeds {
        engine: &'static str,
        option: &'static str,
        why: &'static str,
    },
    /// A network job fio's net engine would refuse.
    #[error("ioengine={engine}: {why}")]
    NetJob {
        engine: &'static str,
        why: &'static str,
    },
    #[error("block size {bs} is larger than size={size}; the job could not do a single I/O")]
    BlockOverSize { bs: u64, size: u64 },
    #[error("fill_device with rw={rw} is not supported yet: only write jobs can fill a device")]
    FillDeviceReads { rw: &'static str },
    #[error("--readonly was given but the job deletes its files when done (unlink=1)")]
    ReadonlyUnlink,
    #[error("--readonly was given but the job writes (rw={rw}, ioengine={engine})")]
    ReadonlyWrites {
        rw: &'static str,
        engine: &'static str,
    },
    #[error("dedupe_mode=working_set needs size= given explicitly (the working set is a share of it), as fio requires")]
    DedupeWorkingSetSize,
    #[error(
        "dedupe_mode=working_set works with one file per job, as in fio, but the job has {files}"
    )]
    DedupeWorkingSetFiles { files: u32 },
    #[error("dedupe_percentage={dedupe} with dedupe_working_set_percentage={ws}: together above 100, the working set's unique buffers leave too few writes to repeat")]
    DedupeWorkingSetTooLarge { dedupe: u32, ws: u32 },
    #[error("verify_only needs verify= naming the method the data was written with (e.g. verify=crc32c)")]
    VerifyOnlyWithoutMethod,
    #[error("option 'verify={method}' with rw={rw} is not supported yet: verification of trimmed blocks is not implemented in iomark yet")]
    VerifyTrim { method: String, rw: &'static str },
    #[error("verify={0}: not supported (use crc32c, xxhash, md5, sha256, pattern or null)")]
    VerifyMethod(String),
    #[error("verify={method}: the verify block ({block} bytes) is smaller than its header ({header} bytes); raise bs or verify_interval")]
    VerifyBlockUnderHeader {
        method: String,
        block: u64,
        header: u64,
    },
    #[error("the steady-state options (steadystate, steadystate_duration, steadystate_ramp_time) must be the same for every job of a reporting group: job '{0}' of this group has others")]
    SteadyGroupMismatch(String),
    #[error("option 'read_iolog={logs}' is not supported yet: one log per clone ({count} logs) is not implemented in iomark yet; give one log")]
    ReplayManyLogs { logs: String, count: usize },
    #[error(transparent)]
    Iolog(#[from] IologError),
    #[error("the I/O log {log} reads {}, which does not exist", .file.display())]
    ReplayMissingFile { log: String, file: PathBuf },
    #[error(transparent)]
    Zone(#[from] super::zones::ZoneError),
    #[error("option 'log_store_compressed' with write_hist_log is not supported yet: iomark stores only the bw, iops and latency logs compressed")]
    CompressedHistLog,
    #[error("cmdprio_percentage and cmdprio_bssplit are mutually exclusive: give one of them")]
    CmdprioBoth,
    #[error("io_submit_mode=offload cannot be used with ioengine={engine}, whose submissions are not safe from several threads; use a sync engine")]
    OffloadEngine { engine: &'static str },
    #[error("option 'openfiles={open}' with io_submit_mode=offload is not supported yet: the submit threads keep every file open; drop openfiles or io_submit_mode")]
    OpenFilesOffload { open: u32 },
    #[error("wait_for={q} does not name an earlier job", q = quote(.0))]
    WaitFor(String),
}

/// A job that could not be typed: its name, which of its options is to blame when one is (an
/// index into `inherited` followed by `options`), and why.
#[derive(Clone, Debug, PartialEq, Error)]
#[error("job {q}: {cause}", q = quote(.job))]
pub struct JobError {
    pub job: String,
    pub option: Option<usize>,
    pub cause: Box<BuildError>,
}

/// A plan that could not be typed.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum PlanError {
    /// The plan's job number `index`.
    #[error("{error}")]
    Job { index: usize, error: JobError },
    /// A global option that no row names.
    #[error(transparent)]
    Global(UnknownOption),
}

impl PlanError {
    /// The job to point at (the first for a global option).
    pub fn job_index(&self) -> usize {
        match self {
            PlanError::Job { index, .. } => *index,
            PlanError::Global(_) => 0,
        }
    }
    /// The option to blame, when one is (an index into the job's `inherited` then `options`).
    pub fn option(&self) -> Option<usize> {
        match self {
            PlanError::Job { error, .. } => error.option,
            PlanError::Global(_) => None,
        }
    }
    /// What is wrong, without the job's name (for a message already placed in that job).
    pub fn cause(&self) -> String {
        match self {
            PlanError::Job { error, .. } => error.cause.to_string(),
            PlanError::Global(u) => u.to_string(),
        }
    }
}
