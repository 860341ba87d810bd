//! What the runner refuses before any I/O, and what it notes for the user, as typed values with
//! the facts. The engine words them in its own neutral terms (`Display`); each front end words
//! them for its users (the options to change, the switches to pass).

use crate::job::{Dir, EngineKind, RwMode};
use crate::targets::{BusyReason, LoopInUse};
use std::io;
use std::path::PathBuf;

/// A run refused before any I/O (or stopped before any I/O was measured).
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The plan or the job is read-only, but the job writes.
    #[error("{job}: refusing to run a job that writes ({rw:?}, {engine:?}) in a read-only run")]
    ReadonlyWrites {
        job: String,
        rw: RwMode,
        engine: EngineKind,
    },
    /// A directory was given where a file or device is expected.
    #[error("{job}: {} is a directory, not a file or device", path.display())]
    IsDirectory { job: String, path: PathBuf },
    /// A verify-only job checks data an earlier run wrote, but the file does not exist.
    #[error("{job}: verifying data an earlier run wrote, but {} does not exist", path.display())]
    VerifyOnlyMissing { job: String, path: PathBuf },
    /// A size in percent of a target that does not exist.
    #[error("{job}: a size of {percent}% needs an existing file or device, but {} does not exist", path.display())]
    PercentOfMissing {
        job: String,
        path: PathBuf,
        percent: f64,
    },
    /// Filling the device needs the free space of the filesystem, which could not be read.
    #[error("{job}: cannot read the free space of {}: {source}", dir.display())]
    FreeSpaceUnknown {
        job: String,
        dir: PathBuf,
        source: io::Error,
    },
    /// No size was given and the target has none to use.
    #[error("{job}: no size given for {} (it {})", path.display(), if *char_device { "is a character device" } else { "does not exist" })]
    NoSize {
        job: String,
        path: PathBuf,
        /// The target is a character device (else it does not exist).
        char_device: bool,
    },
    /// The start offset lies at or past the end of a device.
    #[error("{job}: offset {offset} is beyond the end of {} ({size} bytes)", path.display())]
    OffsetBeyondEnd {
        job: String,
        path: PathBuf,
        offset: u64,
        size: u64,
    },
    /// The region to do I/O in is empty.
    #[error("{job}: the I/O region of {} is empty (size {size}, offset {offset})", path.display())]
    EmptyRegion {
        job: String,
        path: PathBuf,
        size: u64,
        offset: u64,
    },
    /// The smallest block size does not fit in the region.
    #[error("{job}: block size ({block_size}) is larger than the I/O region of {} ({region} bytes)", path.display())]
    BlockLargerThanRegion {
        job: String,
        path: PathBuf,
        block_size: u64,
        region: u64,
    },
    /// Direct I/O with a block size that is not a multiple of the logical block size.
    #[error("{job}: direct I/O needs block sizes that are multiples of the logical block size of {} ({logical_block_size} bytes), but the {} block size is {block_size}", path.display(), dir.name())]
    DirectBlockSize {
        job: String,
        path: PathBuf,
        logical_block_size: u64,
        dir: Dir,
        block_size: u64,
    },
    /// Direct I/O from an offset that is not aligned to the logical block size.
    #[error("{job}: direct I/O needs an offset aligned to the logical block size of {} ({logical_block_size} bytes), but the region starts at {start}", path.display())]
    DirectOffset {
        job: String,
        path: PathBuf,
        logical_block_size: u64,
        start: u64,
    },
    /// A write to a device that (or a partition or holder of which) is mounted.
    #[error("{job}: refusing to write to {}: it (or a partition or holder of it) is mounted on {mount_point}", path.display())]
    DeviceMounted {
        job: String,
        path: PathBuf,
        mount_point: String,
    },
    /// A write to a device that holds a filesystem, partition table, RAID, volume-manager or
    /// encryption signature (as libblkid names it).
    #[error("{job}: refusing to write to {}: it holds {signature}; writing would destroy it", path.display())]
    DeviceHoldsData {
        job: String,
        path: PathBuf,
        signature: String,
    },
    /// A write to a device whose content could not be probed for a signature.
    #[error("{job}: refusing to write to {}: what it holds could not be checked ({source})", path.display())]
    DeviceUnreadable {
        job: String,
        path: PathBuf,
        source: io::Error,
    },
    /// A file would have to be created or extended in a read-only run.
    #[error("{job}: {} would have to be created ({bytes} bytes) but the run is read-only", path.display())]
    ReadonlyLayout {
        job: String,
        path: PathBuf,
        bytes: u64,
    },
    /// The directory for the files cannot be used.
    #[error("cannot create files in {}: {source}", dir.display())]
    DirectoryUnusable { dir: PathBuf, source: io::Error },
    /// The files to lay out do not fit in the free space of their filesystem.
    #[error("refusing to lay out {} MiB of files in {}: only {} MiB are free on that filesystem", needed.div_ceil(1 << 20), dir.display(), free >> 20)]
    NoSpace {
        dir: PathBuf,
        needed: u64,
        free: u64,
    },
    /// Laying out a file failed.
    #[error("{job}: laying out {} ({bytes} bytes) failed: {source}", path.display())]
    LayoutFailed {
        job: String,
        path: PathBuf,
        bytes: u64,
        source: io::Error,
    },
    /// Cutting a file to the size a job starts from (GNU dd's truncation at open) failed.
    #[error("{job}: truncating {} to {bytes} bytes failed: {source}", path.display())]
    TruncateFailed {
        job: String,
        path: PathBuf,
        bytes: u64,
        source: io::Error,
    },
    /// Removing the socket an earlier run left at a unix-socket listener's path failed.
    #[error("{job}: removing the socket {} left by an earlier run failed: {source}", path.display())]
    SocketRemoveFailed {
        job: String,
        path: PathBuf,
        source: io::Error,
    },
    /// A metadata engine (filecreate, filestat, filedelete) aimed at something that is not a
    /// regular file: it acts only on regular files.
    #[error("{job}: {} acts only on regular files, but {} is {what}", engine.name(), path.display())]
    MetadataOnSpecial {
        job: String,
        engine: EngineKind,
        path: PathBuf,
        what: &'static str,
    },
    /// A read-only run, but the job deletes its files when done.
    #[error("{job}: the job deletes its files when done (unlink) but the run is read-only")]
    ReadonlyUnlink { job: String },
    /// A path on the kernel's device filesystem (`/dev`) that does not exist: iomark never
    /// creates a regular file there.
    #[error("{job}: no such device {} (not mapped or not attached?); refusing to create a file on the device filesystem", path.display())]
    NoSuchDevice { job: String, path: PathBuf },
    /// The kernel refused an exclusive open of a device the job writes (EBUSY).
    #[error("{job}: refusing to write to {}: {reason}", path.display())]
    DeviceBusy {
        job: String,
        path: PathBuf,
        reason: BusyReason,
    },
    /// A regular file the job writes backs a loop device that is in use.
    #[error("{job}: refusing to write to {}: it is the backing file of {} {reason}", path.display(), loop_dev.display())]
    BackingFileInUse {
        job: String,
        path: PathBuf,
        loop_dev: PathBuf,
        reason: LoopInUse,
    },
    /// A file to be written or deleted is the backing file of a loop device (mounted, in use or
    /// only attached): never written, truncated or deleted, whatever is allowed.
    #[error("refusing to write to or delete {}: it is the backing file of {} {reason}", path.display(), loop_dev.display())]
    BackingFile {
        path: PathBuf,
        loop_dev: PathBuf,
        reason: LoopInUse,
    },
    /// The run's private work directory could not be made (something is at its path, or the
    /// directory it goes in refuses it).
    #[error("cannot make the work directory {}: {source}", path.display())]
    WorkDir { path: PathBuf, source: io::Error },
    /// A worker thread could not be started.
    #[error("cannot start a worker thread: {0}")]
    ThreadSpawn(io::Error),
    /// The target is neither a regular file nor a device: a FIFO, a socket, or a file of a
    /// kernel pseudo filesystem such as proc (`what` says which).
    #[error("{job}: {} is {what}, not a regular file or device", path.display())]
    NotFileOrDevice {
        job: String,
        path: PathBuf,
        what: String,
    },
    /// A unix-socket listener's path holds something other than a socket (which binding
    /// would have to remove).
    #[error("{job}: {} is {what}, not a socket: a unix-socket listener replaces only a socket left at its path", path.display())]
    NotASocket {
        job: String,
        path: PathBuf,
        what: &'static str,
    },
    /// The e4defrag engine on a file that is not on ext4 (`fs` names what it is on).
    #[error("{job}: e4defrag moves extents with EXT4_IOC_MOVE_EXT, which only ext4 has, but {} is on {fs}", path.display())]
    NeedsExt4 {
        job: String,
        path: PathBuf,
        fs: String,
    },
    /// A NUMA node a job names (numa_cpu_nodes, numa_mem_policy) does not exist here.
    #[error("{job}: NUMA node {node} does not exist (this machine has NUMA nodes {nodes:?})")]
    NoSuchNumaNode {
        job: String,
        node: u32,
        nodes: Vec<u32>,
    },
    /// A CPU the job is to run on does not exist on this system.
    #[error("{job}: CPU {cpu} does not exist (this system has CPUs 0-{})", cpus.saturating_sub(1))]
    NoSuchCpu {
        job: String,
        cpu: usize,
        cpus: usize,
    },
    /// A write to a Ceph image that other clients have open (mapped, or open by a VM or
    /// another program): treated as a mounted device.
    #[error("{job}: refusing to write to image {image}: it is open by another client (watchers: {watchers}); writing under it could corrupt what it holds")]
    ImageWatched {
        job: String,
        image: String,
        watchers: String,
    },
    /// A write to a Ceph image that holds a filesystem, partition table or other signature.
    #[error(
        "{job}: refusing to write to image {image}: it holds {signature}; writing would destroy it"
    )]
    ImageHoldsData {
        job: String,
        image: String,
        signature: String,
    },
    /// The cluster, pool, image or client library could not be reached or used.
    #[error("{job}: {message}")]
    Ceph { job: String, message: String },
    /// A write to an NBD export the server offers read-only.
    #[error("{job}: refusing to write to NBD export {uri}: the server offers it read-only")]
    ExportReadOnly { job: String, uri: String },
    /// A write to an NBD export that holds a filesystem, partition table or other signature.
    #[error(
        "{job}: refusing to write to NBD export {uri}: it holds {signature}; writing would destroy it"
    )]
    ExportHoldsData {
        job: String,
        uri: String,
        signature: String,
    },
    /// The export, its server or the client library could not be reached or used.
    #[error("{job}: {message}")]
    Nbd { job: String, message: String },
    /// More worker threads than a run may start.
    #[error("{threads} jobs (clones counted) are more than the limit of {max}")]
    TooManyJobs { threads: u64, max: u64 },
}

impl RunError {
    /// The error with `name` as its job where it names none (the checks of a written file
    /// know only the file).
    pub(crate) fn for_job(mut self, name: &str) -> RunError {
        match &mut self {
            RunError::IsDirectory { job, .. }
            | RunError::NoSuchDevice { job, .. }
            | RunError::NotFileOrDevice { job, .. }
            | RunError::TruncateFailed { job, .. }
            | RunError::SocketRemoveFailed { job, .. }
            | RunError::NotASocket { job, .. }
                if job.is_empty() =>
            {
                *job = name.to_string();
            }
            _ => {}
        }
        self
    }
}
