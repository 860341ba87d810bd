//! The one option table: every fio option iomark knows, defined once. The command-line parser,
//! the job-file reader, `--help`, `--cmdhelp`, the man page, validation messages and "did you
//! mean" suggestions all read it.

use crate::values::TimeUnit;

/// The value an option takes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum OptKind {
    /// Free text.
    Str,
    /// Integer (size suffixes allowed, as in fio).
    Int,
    /// Byte count with k/m/g/t/p suffixes.
    Size,
    /// Byte count or a percentage of the target (`50%`).
    SizePct,
    /// Byte count or a range (`1g-4g`).
    SizeRange,
    /// Duration; a bare number is in the given unit.
    Time(TimeUnit),
    /// Duration or a range of durations (`5s-10s`).
    TimeRange(TimeUnit),
    /// 0/1 (true/false, yes/no, on/off); a value is required.
    Bool,
    /// A flag: given alone it means 1; `=0`/`=1` also accepted.
    Flag,
    Float,
    /// One of a fixed set of words.
    Enum(&'static [&'static str]),
    /// Per-direction list of sizes (`4k,64k`).
    PerDirSize,
    /// Per-direction list of integers.
    PerDirInt,
    /// Per-direction list of size ranges (`1k-4k,8k-16k`).
    PerDirRange,
    /// Weighted block-size split (`4k/10:64k/90`, per direction).
    BsSplit,
    /// `:`-separated decimal numbers.
    FloatList,
    /// CPU numbers and ranges (`0,5,8-15`).
    CpuList,
    /// `:`-separated paths (`\:` for a literal colon).
    PathList,
    /// Data pattern (`0xdeadbeef`, `"text"`, decimal).
    Pattern,
    /// Offset distribution (`zipf:1.2`, `zoned:...`).
    Distribution,
    /// I/O pattern with optional `:N` modifier.
    Rw,
    /// I/O engine name.
    Engine,
    /// File service type with optional `:N` batch.
    ServiceType,
    /// Optional log-file prefix (the job name when given alone).
    LogPrefix,
}

impl OptKind {
    /// Whether the option can be given without a value (`--time_based`).
    pub fn value_optional(self) -> bool {
        matches!(self, OptKind::Flag | OptKind::LogPrefix)
    }

    /// Value placeholder for usage lines (`--bs=SIZE`); empty for flags.
    pub fn placeholder(self) -> &'static str {
        match self {
            OptKind::Str | OptKind::Pattern => "STR",
            OptKind::Int => "N",
            OptKind::Size => "SIZE",
            OptKind::SizePct => "SIZE|PCT%",
            OptKind::SizeRange | OptKind::PerDirRange => "SIZE[-SIZE]",
            OptKind::Time(_) => "TIME",
            OptKind::TimeRange(_) => "TIME[-TIME]",
            OptKind::Bool => "0|1",
            OptKind::Flag => "",
            OptKind::Float => "NUM",
            OptKind::Enum(_) => "WORD",
            OptKind::PerDirSize => "SIZE[,SIZE[,SIZE]]",
            OptKind::PerDirInt => "N[,N[,N]]",
            OptKind::BsSplit => "SIZE/PCT:...",
            OptKind::FloatList => "NUM:NUM:...",
            OptKind::CpuList => "CPUS",
            OptKind::PathList => "PATH[:PATH]",
            OptKind::Distribution => "DIST",
            OptKind::Rw => "PATTERN",
            OptKind::Engine => "ENGINE",
            OptKind::ServiceType => "TYPE[:N]",
            OptKind::LogPrefix => "PREFIX",
        }
    }

    /// Short type name, as shown by `--cmdhelp`.
    pub fn type_name(self) -> String {
        match self {
            OptKind::Str => "string".into(),
            OptKind::Int => "integer".into(),
            OptKind::Size => "size".into(),
            OptKind::SizePct => "size or percentage".into(),
            OptKind::SizeRange => "size or size range".into(),
            OptKind::Time(u) => format!("time (bare number in {})", u.name()),
            OptKind::TimeRange(u) => format!("time or time range (bare number in {})", u.name()),
            OptKind::Bool => "boolean".into(),
            OptKind::Flag => "flag (empty or boolean)".into(),
            OptKind::Float => "decimal number".into(),
            OptKind::Enum(v) => format!("one of: {}", v.join(", ")),
            OptKind::PerDirSize => "size list (read,write,trim)".into(),
            OptKind::PerDirInt => "integer list (read,write,trim)".into(),
            OptKind::PerDirRange => "size range list (read,write,trim)".into(),
            OptKind::BsSplit => "block size split (read,write,trim)".into(),
            OptKind::FloatList => "list of numbers separated by ':'".into(),
            OptKind::CpuList => "CPU list".into(),
            OptKind::PathList => "list of paths separated by ':'".into(),
            OptKind::Pattern => "data pattern".into(),
            OptKind::Distribution => "distribution".into(),
            OptKind::Rw => "I/O pattern".into(),
            OptKind::Engine => "I/O engine name".into(),
            OptKind::ServiceType => "file service type".into(),
            OptKind::LogPrefix => "file name prefix (optional)".into(),
        }
    }

    /// The accepted form, for error messages.
    pub fn form(self) -> String {
        match self {
            OptKind::Str => "any text".into(),
            OptKind::Int => "an integer such as 8 or 1k".into(),
            OptKind::Size => "a size such as 4096, 4k, 1m, 16g or 0x1000".into(),
            OptKind::SizePct => "a size such as 4k, 1g, or a percentage such as 50%".into(),
            OptKind::SizeRange => "a size such as 1g or a range such as 1g-4g".into(),
            OptKind::Time(u) => format!("a time such as 30 (in {}), 500ms, 10s, 2m, 1h", u.name()),
            OptKind::TimeRange(u) => format!(
                "a time such as 10 (in {}) or 5s, or a range such as 5s-10s",
                u.name()
            ),
            OptKind::Bool => "0 or 1".into(),
            OptKind::Flag => "nothing, 0 or 1".into(),
            OptKind::Float => "a decimal number such as 1.5".into(),
            OptKind::Enum(v) => format!("one of {}", v.join(", ")),
            OptKind::PerDirSize => "a size or read,write,trim sizes such as 4k,64k".into(),
            OptKind::PerDirInt => "a number or read,write,trim numbers such as 100,50".into(),
            OptKind::PerDirRange => "a range such as 4k-64k, or one per direction".into(),
            OptKind::BsSplit => "size/percent entries such as 4k/10:64k/90".into(),
            OptKind::FloatList => "numbers separated by ':' such as 99:99.9".into(),
            OptKind::CpuList => "CPU numbers and ranges such as 0,5,8-15".into(),
            OptKind::PathList => "paths separated by ':' (\\: for a colon)".into(),
            OptKind::Pattern => "0xHEX, \"text\" or a decimal number".into(),
            OptKind::Distribution => {
                "random, zipf:T, pareto:H, normal:S, zoned:A/R:... or zoned_abs:A/SIZE:...".into()
            }
            OptKind::Rw => format!("one of {} with an optional :N", RW_MODES.join(", ")),
            OptKind::Engine => format!("one of {}", SUPPORTED_ENGINES.join(", ")),
            OptKind::ServiceType => "random, roundrobin or sequential, with an optional :N".into(),
            OptKind::LogPrefix => "a file name prefix, or nothing".into(),
        }
    }
}

/// Which layer reads the option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layer {
    /// The job model (workload, files, timing, stats).
    Job,
    /// I/O-engine-specific options.
    Engine,
    /// Output formatting.
    Output,
    /// Run-wide behaviour.
    Run,
}

/// Whether iomark implements the option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Support {
    Supported,
    /// Accepted with a warning: it tunes fio internals and has no effect in iomark.
    Ignored(&'static str),
    /// A real fio option that changes what is measured; iomark rejects it for now (unless it is
    /// given its default value, which is then a no-op).
    NotYet(&'static str),
}

#[derive(Clone, Copy, Debug)]
pub struct OptDef {
    pub name: &'static str,
    pub aliases: &'static [&'static str],
    pub kind: OptKind,
    /// fio's default as text ("" if none).
    pub default: &'static str,
    pub help: &'static str,
    pub category: &'static str,
    pub layer: Layer,
    pub support: Support,
    /// For engine options: the engines that define them.
    pub engines: &'static [&'static str],
}

const fn o(
    name: &'static str,
    kind: OptKind,
    default: &'static str,
    category: &'static str,
    help: &'static str,
) -> OptDef {
    OptDef {
        name,
        aliases: &[],
        kind,
        default,
        help,
        category,
        layer: Layer::Job,
        support: Support::Supported,
        engines: &[],
    }
}

impl OptDef {
    const fn al(mut self, aliases: &'static [&'static str]) -> Self {
        self.aliases = aliases;
        self
    }
    const fn layer(mut self, layer: Layer) -> Self {
        self.layer = layer;
        self
    }
    const fn ign(mut self, why: &'static str) -> Self {
        self.support = Support::Ignored(why);
        self
    }
    const fn ny(mut self, why: &'static str) -> Self {
        self.support = Support::NotYet(why);
        self
    }
    const fn eng(mut self, engines: &'static [&'static str]) -> Self {
        self.engines = engines;
        self.layer = Layer::Engine;
        self
    }

    pub fn is_supported(&self) -> bool {
        self.support == Support::Supported
    }
    pub fn is_engine_option(&self) -> bool {
        !self.engines.is_empty()
    }
}

/// fio's I/O patterns for `rw=`.
pub const RW_MODES: &[&str] = &[
    "read",
    "write",
    "trim",
    "randread",
    "randwrite",
    "randtrim",
    "rw",
    "readwrite",
    "randrw",
    "trimwrite",
];

/// I/O engines iomark implements (the engine's own list).
pub const SUPPORTED_ENGINES: &[&str] = iomark_engine::engines::NAMES;

/// Real fio engines that iomark does not implement (an error names them as such).
pub const NOT_YET_ENGINES: &[&str] = &[
    "posixaio",
    "io_uring_cmd",
    "cpuio",
    "net",
    "netsplice",
    "ftruncate",
    "exec",
    "falloc",
    "e4defrag",
    "splice",
    "gfapi",
    "gfapi_async",
    "mtd",
    "sg",
    "nbd",
    "rdma",
    "rados",
    "rbd",
    "pmemblk",
    "dev-dax",
    "libpmem",
    "http",
    "libblkio",
    "xnvme",
    "libcufile",
    "libhipfile",
    "dfs",
    "nfs",
    "libiscsi",
    "libzbc",
    "windowsaio",
    "solarisaio",
    "dircreate",
    "dirstat",
    "dirdelete",
    "page_fault",
    "guasi",
    "binject",
    "syslet-rw",
];

const SYNC_VALUES: &[&str] = &["none", "0", "sync", "1", "dsync"];
const FADVISE_VALUES: &[&str] = &["0", "1", "sequential", "random", "noreuse"];
const FALLOCATE_VALUES: &[&str] = &["none", "native", "posix", "keep", "truncate", "0", "1"];
const CPUS_POLICY: &[&str] = &["shared", "split"];
const RATE_PROCESS: &[&str] = &["linear", "poisson"];
const COE_VALUES: &[&str] = &["none", "read", "write", "io", "verify", "all", "0", "1"];
const UNIFIED_VALUES: &[&str] = &["none", "mixed", "both", "0", "1", "2"];
const KB_BASE: &[&str] = &["1024", "1000"];
const UNIT_BASE: &[&str] = &["0", "8", "1", "bits", "bytes"];
const LOG_MAX: &[&str] = &["0", "1", "2", "avg", "max", "both"];

const NYI: &str = "not implemented in iomark yet";
const VERIFY: &str = "this verification option is not implemented in iomark yet (verify, do_verify, verify_only, verify_backlog, verify_fatal, verify_dump, verify_interval and verify_pattern are)";
const ZONES: &str = "zoned and strided layouts are not implemented in iomark yet";
const IOLOG: &str = "I/O log recording and replay are not implemented in iomark yet";
const PRIO: &str = "priority, NUMA and cgroup controls are not implemented in iomark yet";
const LATTGT: &str = "latency targets and limits are not implemented in iomark yet";
const DEDUPE: &str = "dedupe modes beyond dedupe_percentage are not implemented in iomark yet";
const TRIM: &str = "trim verification is not implemented in iomark yet";
const ENGOPT: &str = "this engine option is not implemented in iomark yet";
const STEADY: &str = "steady-state detection is not implemented in iomark yet";

const IOU: &[&str] = &["io_uring"];
const IOU_P2: &[&str] = &["io_uring", "pvsync2"];
const NOWAIT_ENG: &[&str] = &["io_uring", "pvsync2", "libaio"];
const AIO: &[&str] = &["libaio"];
const PRIO_ENG: &[&str] = &["io_uring", "libaio"];

/// Every option, in help order.
pub static OPTIONS: &[OptDef] = &[
    // --- Job description
    o("name", OptKind::Str, "", "Job description", "Name of the job; on the command line it starts a new job."),
    o("description", OptKind::Str, "", "Job description", "Free-text description of the job."),
    // --- I/O pattern
    o("rw", OptKind::Rw, "read", "I/O pattern", "I/O pattern: read, write, trim, randread, randwrite, randtrim, rw, randrw, trimwrite; ':N' adds a modifier.").al(&["readwrite"]),
    o("rw_sequencer", OptKind::Enum(&["sequential", "identical"]), "sequential", "I/O pattern", "How offsets are generated for the rw ':N' modifier.").ny(NYI),
    o("rwmixread", OptKind::Int, "50", "I/O pattern", "Percentage of reads in a mixed workload."),
    o("rwmixwrite", OptKind::Int, "50", "I/O pattern", "Percentage of writes in a mixed workload."),
    o("percentage_random", OptKind::PerDirInt, "100,100,100", "I/O pattern", "Share of random I/O in a random workload; the rest is sequential."),
    o("random_distribution", OptKind::Distribution, "random", "I/O pattern", "How random offsets are spread: random, zipf, pareto, normal, zoned, zoned_abs."),
    o("number_ios", OptKind::Int, "0", "I/O pattern", "Stop the job after this many I/Os (0 = no limit)."),
    o("io_submit_mode", OptKind::Enum(&["inline", "offload"]), "inline", "I/O pattern", "Submit I/O from the job thread or from a pool of offload threads.").ny(NYI),
    // --- Block size
    o("bs", OptKind::PerDirSize, "4096", "Block size", "Block size per I/O, optionally per direction (read,write,trim).").al(&["blocksize"]),
    o("bsrange", OptKind::PerDirRange, "", "Block size", "Range of block sizes, as multiples of the smallest.").al(&["blocksize_range"]),
    o("bssplit", OptKind::BsSplit, "", "Block size", "Weighted mix of block sizes, e.g. 4k/10:64k/90."),
    o("ba", OptKind::PerDirSize, "", "Block size", "Alignment of random offsets (defaults to the block size).").al(&["blockalign"]),
    o("bs_unaligned", OptKind::Flag, "", "Block size", "Allow block sizes that are not sector multiples.").al(&["blocksize_unaligned"]).ny(NYI),
    o("bs_is_seq_rand", OptKind::Flag, "0", "Block size", "Read and write block sizes mean sequential and random sizes instead.").ny(NYI),
    // --- Size and offsets
    o("size", OptKind::SizePct, "", "Size and offsets", "Size of the I/O region per job (default: file or device size); a percentage is allowed."),
    o("io_size", OptKind::SizePct, "", "Size and offsets", "Amount of I/O to do, independent of the region size.").al(&["io_limit"]),
    o("filesize", OptKind::SizeRange, "", "Size and offsets", "Size of each file, or a range picked per file; overrides size for file creation."),
    o("offset", OptKind::SizePct, "0", "Size and offsets", "Start of the I/O region in the file or device.").al(&["fileoffset"]),
    o("offset_increment", OptKind::SizePct, "0", "Size and offsets", "Added to offset for each job clone, giving disjoint regions."),
    o("offset_align", OptKind::Size, "0", "Size and offsets", "Alignment of a percentage offset.").ny(NYI),
    o("fill_device", OptKind::Bool, "0", "Size and offsets", "Write until the device or filesystem is full (ENOSPC ends the job normally).").al(&["fill_fs"]),
    o("file_append", OptKind::Bool, "0", "Size and offsets", "Do I/O after the end of the existing file.").ny(NYI),
    // --- Files
    o("filename", OptKind::PathList, "", "Files", "File or device to use; several separated by ':' (\\: escapes a colon)."),
    o("directory", OptKind::PathList, "", "Files", "Directory for generated files; several separated by ':' spread the clones."),
    o("filename_format", OptKind::Str, "$jobname.$jobnum.$filenum", "Files", "Template for generated file names."),
    o("nrfiles", OptKind::Int, "1", "Files", "Number of files per job.").al(&["nr_files"]),
    o("file_service_type", OptKind::ServiceType, "roundrobin", "Files", "How the next file is picked: random, roundrobin, sequential (':N' I/Os per pick)."),
    o("openfiles", OptKind::Int, "", "Files", "Maximum number of files open at the same time.").ny(NYI),
    o("unique_filename", OptKind::Bool, "1", "Files", "Prefix file names with the client address in client/server mode.").ign("client/server mode is not used by iomark"),
    o("opendir", OptKind::Str, "", "Files", "Add every file below this directory.").ny(NYI),
    o("lockfile", OptKind::Enum(&["none", "exclusive", "readwrite"]), "none", "Files", "Lock the file while doing I/O to it.").ny(NYI),
    o("create_on_open", OptKind::Bool, "0", "Files", "Create files when the job opens them rather than before the run."),
    o("create_serialize", OptKind::Bool, "1", "Files", "Lay out the files of different jobs one after another.").ign("iomark lays out files before the run in its own order"),
    o("create_fsync", OptKind::Bool, "1", "Files", "fsync files after laying them out.").ign("iomark always syncs laid-out files"),
    o("create_only", OptKind::Bool, "0", "Files", "Only lay out the files, do no I/O.").ny(NYI),
    o("allow_file_create", OptKind::Bool, "1", "Files", "Allow the job to create files.").ny(NYI),
    o("pre_read", OptKind::Bool, "0", "Files", "Read the files into the page cache before the run.").ny(NYI),
    o("unlink", OptKind::Bool, "0", "Files", "Delete the job's files when it finishes."),
    o("unlink_each_loop", OptKind::Bool, "0", "Files", "Delete the job's files after each loop.").ny(NYI),
    o("overwrite", OptKind::Bool, "0", "Files", "Write the files fully during layout so later writes overwrite data."),
    o("fallocate", OptKind::Enum(FALLOCATE_VALUES), "native", "Files", "How file space is preallocated: none, native, posix, keep, truncate."),
    o("allow_mounted_write", OptKind::Bool, "0", "Files", "Allow writes to a block device that is mounted."),
    o("write_hint", OptKind::Str, "", "Files", "Lifetime hint for written data.").ny(NYI),
    // --- Time and lifecycle
    o("runtime", OptKind::Time(TimeUnit::S), "0", "Time", "Stop the job after this time (0 = no limit).").al(&["timeout"]),
    o("time_based", OptKind::Flag, "0", "Time", "Keep running until runtime ends, repeating the workload."),
    o("ramp_time", OptKind::Time(TimeUnit::S), "0", "Time", "Run this long before statistics are kept."),
    o("startdelay", OptKind::TimeRange(TimeUnit::S), "0", "Time", "Delay before the job starts; a range picks a random delay."),
    o("loops", OptKind::Int, "1", "Time", "Repeat the job this many times."),
    o("numjobs", OptKind::Int, "1", "Time", "Number of clones of the job running in parallel."),
    o("thread", OptKind::Flag, "0", "Time", "Run jobs as threads rather than processes.").ign("iomark always runs each job as a thread of one process"),
    o("steadystate", OptKind::Str, "iops_slope:0.01%", "Time", "Stop when a steady state is detected.").al(&["ss"]).ny(STEADY),
    o("steadystate_duration", OptKind::Time(TimeUnit::S), "0", "Time", "Window for steady-state detection.").al(&["ss_dur"]).ny(STEADY),
    o("steadystate_ramp_time", OptKind::Time(TimeUnit::S), "0", "Time", "Time before steady-state data is collected.").al(&["ss_ramp"]).ny(STEADY),
    o("steadystate_check_interval", OptKind::Time(TimeUnit::S), "1", "Time", "Sampling interval for steady-state detection.").al(&["ss_interval"]).ny(STEADY),
    o("ramp_size", OptKind::Size, "0", "Time", "Amount of I/O before statistics are kept.").ny(NYI),
    // --- Engine and queue depth
    o("ioengine", OptKind::Engine, "psync", "Engine and queue depth", "How I/O is issued: sync, psync, vsync, pvsync, pvsync2, libaio, io_uring, mmap, null, filecreate, filestat, filedelete."),
    o("iodepth", OptKind::Int, "1", "Engine and queue depth", "Number of I/Os kept in flight per job (async engines)."),
    o("iodepth_batch", OptKind::Int, "1", "Engine and queue depth", "Submit once this many I/Os are queued (0 = iodepth).").al(&["iodepth_batch_submit"]),
    o("iodepth_batch_complete_min", OptKind::Int, "1", "Engine and queue depth", "Minimum completions to wait for per reap.").al(&["iodepth_batch_complete"]),
    o("iodepth_batch_complete_max", OptKind::Int, "", "Engine and queue depth", "Maximum completions to take per reap (default: the minimum)."),
    o("iodepth_low", OptKind::Int, "", "Engine and queue depth", "When the queue is full, drain it to this depth before refilling (default: iodepth)."),
    o("serialize_overlap", OptKind::Bool, "0", "Engine and queue depth", "Never keep overlapping I/Os in flight together.").ny(NYI),
    // --- Engine-specific options
    o("hipri", OptKind::Flag, "0", "Engine options", "Use polled completions (io_uring IOPOLL, pvsync2 RWF_HIPRI).").eng(IOU_P2),
    o("nowait", OptKind::Flag, "0", "Engine options", "Fail rather than block when the I/O would wait (RWF_NOWAIT).").eng(NOWAIT_ENG),
    o("fixedbufs", OptKind::Flag, "0", "Engine options", "io_uring: register the I/O buffers with the kernel.").eng(IOU),
    o("registerfiles", OptKind::Flag, "0", "Engine options", "io_uring: register the files with the kernel.").eng(IOU),
    o("sqthread_poll", OptKind::Flag, "0", "Engine options", "io_uring: a kernel thread polls the submission queue.").eng(IOU),
    o("sqthread_poll_cpu", OptKind::Int, "", "Engine options", "io_uring: CPU for the submission polling thread.").eng(IOU),
    o("nonvectored", OptKind::Int, "-1", "Engine options", "io_uring: use non-vectored read/write commands (-1 = when available).").eng(IOU),
    o("userspace_reap", OptKind::Flag, "0", "Engine options", "libaio: reap completions from the ring in user space.").eng(AIO),
    o("force_async", OptKind::Int, "0", "Engine options", "io_uring: mark every Nth request for async punt.").eng(IOU).ny(ENGOPT),
    o("uncached", OptKind::Int, "0", "Engine options", "Use uncached buffered I/O (RWF_DONTCACHE).").eng(IOU_P2).ny(ENGOPT),
    o("hipri_percentage", OptKind::Int, "100", "Engine options", "pvsync2: share of I/O issued as high priority.").eng(&["pvsync2"]).ny(ENGOPT),
    o("cmdprio_percentage", OptKind::PerDirInt, "", "Engine options", "Share of I/O sent with a higher priority.").eng(PRIO_ENG).ny(ENGOPT),
    o("cmdprio_class", OptKind::PerDirInt, "", "Engine options", "Priority class for prioritised I/O.").eng(PRIO_ENG).ny(ENGOPT),
    o("cmdprio", OptKind::PerDirInt, "", "Engine options", "Priority level for prioritised I/O.").eng(PRIO_ENG).ny(ENGOPT),
    o("cmdprio_bssplit", OptKind::Str, "", "Engine options", "Priorities per block size.").eng(PRIO_ENG).ny(ENGOPT),
    o("libaio_vectored", OptKind::Flag, "0", "Engine options", "libaio: use vectored commands.").eng(AIO).ny(ENGOPT),
    o("cmd_type", OptKind::Str, "nvme", "Engine options", "io_uring_cmd: pass-through command type.").eng(&["io_uring_cmd"]).ny(ENGOPT),
    o("thp", OptKind::Flag, "0", "Engine options", "mmap: use transparent huge pages.").eng(&["mmap"]).ny(ENGOPT),
    o("stat_type", OptKind::Enum(&["stat", "lstat", "statx"]), "stat", "Engine options", "filestat: which stat call to use.").eng(&["filestat"]).ny(ENGOPT),
    // --- Caching and syncing
    o("direct", OptKind::Bool, "0", "Caching and sync", "Use O_DIRECT (bypass the page cache)."),
    o("buffered", OptKind::Bool, "1", "Caching and sync", "Use buffered I/O (the opposite of direct)."),
    o("atomic", OptKind::Bool, "0", "Caching and sync", "Use atomic direct writes.").ny(NYI),
    o("sync", OptKind::Enum(SYNC_VALUES), "none", "Caching and sync", "Open files for synchronous writes: none/0, sync/1 (O_SYNC), dsync (O_DSYNC)."),
    o("fsync", OptKind::Int, "0", "Caching and sync", "fsync after this many writes (0 = never)."),
    o("fdatasync", OptKind::Int, "0", "Caching and sync", "fdatasync after this many writes (0 = never)."),
    o("write_barrier", OptKind::Int, "0", "Caching and sync", "Make every Nth write a barrier write.").ny(NYI),
    o("sync_file_range", OptKind::Str, "", "Caching and sync", "Call sync_file_range with these flags every N writes.").ny(NYI),
    o("end_fsync", OptKind::Bool, "0", "Caching and sync", "fsync the files when the job's writes are done."),
    o("fsync_on_close", OptKind::Bool, "0", "Caching and sync", "fsync each file when it is closed."),
    o("invalidate", OptKind::Bool, "1", "Caching and sync", "Drop the file's pages from the page cache before the run."),
    o("fadvise_hint", OptKind::Enum(FADVISE_VALUES), "1", "Caching and sync", "posix_fadvise hint: 0, 1 (match the pattern), sequential, random, noreuse."),
    // --- Random numbers
    o("randrepeat", OptKind::Bool, "1", "Random numbers", "Use the same random sequence on every run."),
    o("allrandrepeat", OptKind::Bool, "0", "Random numbers", "Make every random generator repeatable.").ny(NYI),
    o("randseed", OptKind::Int, "0x89", "Random numbers", "Seed for the random generators."),
    o("norandommap", OptKind::Flag, "0", "Random numbers", "Do not track which blocks were done; offsets may repeat."),
    o("softrandommap", OptKind::Bool, "0", "Random numbers", "Continue without a random map if it cannot be allocated.").ign("iomark needs no memory for its random map"),
    o("random_generator", OptKind::Enum(&["tausworthe", "lfsr", "tausworthe64"]), "tausworthe", "Random numbers", "fio's random number generator type.").ign("iomark uses its own generator and visits every block once per pass without a map"),
    // --- Data buffers
    o("zero_buffers", OptKind::Flag, "0", "Data buffers", "Fill write buffers with zeroes."),
    o("refill_buffers", OptKind::Flag, "0", "Data buffers", "Regenerate write data for every I/O."),
    o("scramble_buffers", OptKind::Bool, "1", "Data buffers", "Lightly alter buffers on each write to defeat dedupe."),
    o("buffer_compress_percentage", OptKind::Int, "0", "Data buffers", "Make write data compressible to this percentage."),
    o("buffer_compress_chunk", OptKind::Size, "512", "Data buffers", "Granularity of compressible and random data."),
    o("buffer_pattern", OptKind::Pattern, "", "Data buffers", "Fill write buffers with this pattern."),
    o("dedupe_percentage", OptKind::Int, "0", "Data buffers", "Share of writes that repeat earlier data."),
    o("dedupe_mode", OptKind::Enum(&["repeat", "working_set"]), "repeat", "Data buffers", "How duplicate data is chosen.").ny(DEDUPE),
    o("dedupe_working_set_percentage", OptKind::Int, "5", "Data buffers", "Size of the dedupe working set.").ny(DEDUPE),
    o("dedupe_global", OptKind::Bool, "0", "Data buffers", "Share dedupe data between jobs.").ny(DEDUPE),
    o("mem", OptKind::Str, "malloc", "Data buffers", "Where I/O buffers are allocated (malloc, shm, mmap, ...).").al(&["iomem"]).ign("iomark allocates aligned buffers itself"),
    o("iomem_align", OptKind::Size, "0", "Data buffers", "Alignment of I/O buffers.").al(&["mem_align"]).ign("iomark aligns buffers to the device's logical block size"),
    o("hugepage-size", OptKind::Size, "2m", "Data buffers", "Huge page size for huge-page buffers.").ign("iomark does not use huge-page buffers"),
    o("lockmem", OptKind::Size, "0", "Data buffers", "Lock this much memory to simulate a smaller machine.").ign("iomark does not pin memory to shrink the page cache"),
    // --- Rate and think time
    o("rate", OptKind::PerDirSize, "", "Rate and think time", "Cap bandwidth in bytes per second, per direction."),
    o("rate_iops", OptKind::PerDirInt, "", "Rate and think time", "Cap I/Os per second, per direction."),
    o("rate_min", OptKind::PerDirSize, "", "Rate and think time", "Fail the job if bandwidth falls below this.").al(&["ratemin"]),
    o("rate_iops_min", OptKind::PerDirInt, "", "Rate and think time", "Fail the job if IOPS fall below this."),
    o("rate_process", OptKind::Enum(RATE_PROCESS), "linear", "Rate and think time", "Spacing of rate-limited I/O: linear or poisson."),
    o("rate_cycle", OptKind::Time(TimeUnit::Ms), "1000", "Rate and think time", "Averaging window for rate_min and rate_iops_min.").al(&["ratecycle"]),
    o("rate_ignore_thinktime", OptKind::Bool, "0", "Rate and think time", "Keep the rate schedule across think time.").ny(NYI),
    o("thinktime", OptKind::Time(TimeUnit::Us), "0", "Rate and think time", "Pause this long between I/Os (bare number in microseconds)."),
    o("thinktime_spin", OptKind::Time(TimeUnit::Us), "0", "Rate and think time", "Busy-spin part of thinktime (microseconds)."),
    o("thinktime_blocks", OptKind::Int, "1", "Rate and think time", "Number of I/Os between think times."),
    o("thinktime_blocks_type", OptKind::Enum(&["complete", "issue"]), "complete", "Rate and think time", "Count thinktime_blocks on completion or on issue.").ny(NYI),
    o("thinktime_iotime", OptKind::Time(TimeUnit::S), "0", "Rate and think time", "Do I/O for this long between think times.").ny(NYI),
    o("thinkcycles", OptKind::Int, "0", "Rate and think time", "CPU cycles to burn between I/Os.").ny(NYI),
    o("latency_target", OptKind::Time(TimeUnit::Us), "", "Rate and think time", "Find the depth that keeps latency under this target.").ny(LATTGT),
    o("latency_window", OptKind::Time(TimeUnit::Us), "", "Rate and think time", "Window for latency_target.").ny(LATTGT),
    o("latency_percentile", OptKind::Float, "100", "Rate and think time", "Share of I/O that must meet latency_target.").ny(LATTGT),
    o("latency_run", OptKind::Bool, "0", "Rate and think time", "Keep searching for the latency target.").ny(LATTGT),
    o("max_latency", OptKind::Time(TimeUnit::Us), "", "Rate and think time", "Fail when an I/O takes longer than this.").ny(LATTGT),
    o("flow", OptKind::Int, "0", "Rate and think time", "Weight for token-based flow control between jobs.").ny(NYI),
    o("flow_id", OptKind::Int, "0", "Rate and think time", "Flow-control group of the job.").ny(NYI),
    o("flow_sleep", OptKind::Time(TimeUnit::Us), "0", "Rate and think time", "Sleep when flow control stalls the job.").ny(NYI),
    // --- CPU and placement
    o("cpus_allowed", OptKind::CpuList, "", "CPU and placement", "CPUs the job may run on, e.g. 0,5,8-15."),
    o("cpus_allowed_policy", OptKind::Enum(CPUS_POLICY), "shared", "CPU and placement", "shared: every clone uses all cpus_allowed; split: one CPU per clone."),
    o("cpumask", OptKind::Int, "", "CPU and placement", "CPU affinity as a bit mask.").ny(NYI),
    o("numa_cpu_nodes", OptKind::Str, "", "CPU and placement", "NUMA nodes the job may run on.").ny(PRIO),
    o("numa_mem_policy", OptKind::Str, "", "CPU and placement", "NUMA memory policy.").ny(PRIO),
    o("nice", OptKind::Int, "0", "CPU and placement", "Process nice value.").ny(PRIO),
    o("prio", OptKind::Int, "", "CPU and placement", "I/O priority level.").ny(PRIO),
    o("prioclass", OptKind::Int, "", "CPU and placement", "I/O priority class.").ny(PRIO),
    o("priohint", OptKind::Int, "", "CPU and placement", "I/O priority hint.").ny(PRIO),
    o("cgroup", OptKind::Str, "", "CPU and placement", "Run the job in this cgroup.").ny(PRIO),
    o("cgroup_weight", OptKind::Int, "", "CPU and placement", "Weight of the job's cgroup.").ny(PRIO),
    o("cgroup_nodelete", OptKind::Bool, "0", "CPU and placement", "Keep the cgroup after the job.").ny(PRIO),
    o("uid", OptKind::Int, "", "CPU and placement", "Run the job as this user id.").ny(PRIO),
    o("gid", OptKind::Int, "", "CPU and placement", "Run the job as this group id.").ny(PRIO),
    o("gtod_cpu", OptKind::Int, "", "CPU and placement", "Dedicate a CPU to reading the time.").ign("iomark reads the clock in each worker, batched per submit and reap"),
    o("clocksource", OptKind::Enum(&["gettimeofday", "clock_gettime", "cpu"]), "", "CPU and placement", "Clock used for timestamps.").ign("iomark always uses the monotonic clock"),
    o("ioscheduler", OptKind::Str, "", "CPU and placement", "Switch the device to this I/O scheduler.").ny(NYI),
    // --- Groups and ordering
    o("stonewall", OptKind::Flag, "0", "Groups and ordering", "Wait for earlier jobs to finish; starts a new reporting group.").al(&["wait_for_previous"]),
    o("new_group", OptKind::Flag, "0", "Groups and ordering", "Start a new reporting group without waiting."),
    o("wait_for", OptKind::Str, "", "Groups and ordering", "Wait for the named job to finish before starting."),
    o("group_reporting", OptKind::Flag, "0", "Groups and ordering", "Report each group as a whole rather than per job."),
    o("exitall", OptKind::Flag, "0", "Groups and ordering", "Stop every job when this one finishes."),
    o("exit_what", OptKind::Enum(&["group", "stonewall", "all"]), "group", "Groups and ordering", "Which jobs exitall stops.").ny(NYI),
    o("exitall_on_error", OptKind::Flag, "0", "Groups and ordering", "Stop every job when this one fails.").ny(NYI),
    o("stats", OptKind::Bool, "1", "Groups and ordering", "Include the job in the report.").ny(NYI),
    // --- Errors
    o("continue_on_error", OptKind::Enum(COE_VALUES), "none", "Errors", "Keep going after I/O errors: none, read, write, io, verify, all."),
    o("ignore_error", OptKind::Str, "", "Errors", "Error codes to ignore per direction.").ny(NYI),
    o("error_dump", OptKind::Bool, "0", "Errors", "Print every error as it happens.").ign("iomark reports errors in its result"),
    // --- Latency statistics
    o("clat_percentiles", OptKind::Bool, "1", "Latency statistics", "Report completion-latency percentiles."),
    o("lat_percentiles", OptKind::Bool, "0", "Latency statistics", "Report total-latency percentiles."),
    o("slat_percentiles", OptKind::Bool, "0", "Latency statistics", "Report submission-latency percentiles."),
    o("percentile_list", OptKind::FloatList, "1:5:10:20:30:40:50:60:70:80:90:95:99:99.5:99.9:99.95:99.99", "Latency statistics", "Percentiles to report, separated by ':' (at most 20)."),
    o("disable_lat", OptKind::Bool, "0", "Latency statistics", "Do not measure total latency."),
    o("disable_clat", OptKind::Bool, "0", "Latency statistics", "Do not measure completion latency."),
    o("disable_slat", OptKind::Bool, "0", "Latency statistics", "Do not measure submission latency."),
    o("disable_bw_measurement", OptKind::Bool, "0", "Latency statistics", "Do not sample bandwidth and IOPS.").al(&["disable_bw"]),
    o("gtod_reduce", OptKind::Bool, "0", "Latency statistics", "Turn off all latency and bandwidth timing to cut clock reads."),
    o("bwavgtime", OptKind::Time(TimeUnit::Ms), "500", "Latency statistics", "Bandwidth sampling interval (milliseconds)."),
    o("iopsavgtime", OptKind::Time(TimeUnit::Ms), "500", "Latency statistics", "IOPS sampling interval (milliseconds)."),
    o("block_error_percentiles", OptKind::Bool, "0", "Latency statistics", "Report trim block error percentiles.").ny(NYI),
    o("significant_figures", OptKind::Int, "4", "Output", "Significant figures in terse and normal output.").layer(Layer::Output).ny(NYI),
    // --- Logs
    o("write_bw_log", OptKind::LogPrefix, "", "Logs", "Write a bandwidth log with this file prefix."),
    o("write_iops_log", OptKind::LogPrefix, "", "Logs", "Write an IOPS log with this file prefix."),
    o("write_lat_log", OptKind::LogPrefix, "", "Logs", "Write slat, clat and lat logs with this file prefix."),
    o("write_hist_log", OptKind::LogPrefix, "", "Logs", "Write a latency histogram log with this file prefix."),
    o("log_avg_msec", OptKind::Int, "0", "Logs", "Average log entries over this many milliseconds (0 = one per I/O)."),
    o("log_hist_msec", OptKind::Int, "0", "Logs", "Histogram log interval in milliseconds."),
    o("log_max_value", OptKind::Enum(LOG_MAX), "0", "Logs", "Log the maximum rather than the average of each window (2 = both).").al(&["log_window_value"]),
    o("log_offset", OptKind::Bool, "0", "Logs", "Add the I/O offset to each log entry."),
    o("per_job_logs", OptKind::Bool, "1", "Logs", "Write one log file per job rather than per group."),
    o("log_entries", OptKind::Int, "1024", "Logs", "Initial number of log entries.").ign("iomark sizes its logs itself"),
    o("log_hist_coarseness", OptKind::Int, "0", "Logs", "Merge histogram log bins.").ny(NYI),
    o("log_prio", OptKind::Bool, "0", "Logs", "Add the I/O priority to each log entry.").ny(NYI),
    o("log_issue_time", OptKind::Bool, "0", "Logs", "Add the issue time to each log entry.").ny(NYI),
    o("log_compression", OptKind::Size, "", "Logs", "Compress logs in memory in chunks of this size.").ny(NYI),
    o("log_compression_cpus", OptKind::CpuList, "", "Logs", "CPUs for log compression.").ny(NYI),
    o("log_store_compressed", OptKind::Bool, "0", "Logs", "Store logs compressed.").ny(NYI),
    o("log_unix_epoch", OptKind::Bool, "0", "Logs", "Log timestamps relative to the Unix epoch.").ny(NYI),
    o("log_alternate_epoch", OptKind::Bool, "0", "Logs", "Log timestamps relative to another clock's epoch.").ny(NYI),
    o("log_alternate_epoch_clock_id", OptKind::Int, "", "Logs", "Clock for log_alternate_epoch.").ny(NYI),
    // --- Output
    o("unified_rw_reporting", OptKind::Enum(UNIFIED_VALUES), "none", "Output", "Report directions separately (none), merged (mixed) or both.").layer(Layer::Output),
    o("kb_base", OptKind::Enum(KB_BASE), "1024", "Output", "Base for k/m/g in input values and units in output: 1024 or 1000.").layer(Layer::Output),
    o("unit_base", OptKind::Enum(UNIT_BASE), "0", "Output", "Report in bytes (8), bits (1) or automatically (0).").layer(Layer::Output),
    o("disk_util", OptKind::Bool, "1", "Output", "Collect and print disk utilisation.").layer(Layer::Output).ign("iomark does not collect disk utilisation yet"),
    // --- Verification
    o("verify", OptKind::Str, "0", "Verification", "Check written data with this method: crc32c (crc32c-intel), xxhash, md5, sha256, pattern, null; 0 = off."),
    o("do_verify", OptKind::Bool, "1", "Verification", "Run the verify phase after writing."),
    o("verify_interval", OptKind::Size, "", "Verification", "Size of each verified block (default: the block size); must divide it."),
    o("verify_offset", OptKind::Size, "", "Verification", "Where the verify header goes in a block.").ny(VERIFY),
    o("verify_pattern", OptKind::Pattern, "", "Verification", "Pattern written after each block header and checked (0x hex, \"string\" or a number)."),
    o("verify_fatal", OptKind::Bool, "0", "Verification", "Stop at the first verify failure."),
    o("verify_dump", OptKind::Bool, "0", "Verification", "Write the expected and received contents of bad blocks to files next to the target."),
    o("verify_async", OptKind::Int, "0", "Verification", "Threads that verify asynchronously.").ny(VERIFY),
    o("verify_async_cpus", OptKind::CpuList, "", "Verification", "CPUs for verify threads.").ny(VERIFY),
    o("verify_backlog", OptKind::Int, "", "Verification", "Check written blocks inline after every this many writes."),
    o("verify_backlog_batch", OptKind::Int, "", "Verification", "Blocks verified per backlog pass.").ny(VERIFY),
    o("verify_only", OptKind::Flag, "0", "Verification", "Do not write: replay the job's writes and check the data an identical earlier run left."),
    o("experimental_verify", OptKind::Bool, "0", "Verification", "Verify by replaying the random sequence.").ny(VERIFY),
    o("verify_state_save", OptKind::Bool, "1", "Verification", "Save verify state on exit.").ny(VERIFY),
    o("verify_state_load", OptKind::Bool, "0", "Verification", "Load verify state at start.").ny(VERIFY),
    o("verify_write_sequence", OptKind::Bool, "1", "Verification", "Check the write sequence number.").ny(VERIFY),
    o("verify_header_seed", OptKind::Bool, "1", "Verification", "Check the seed in verify headers.").ny(VERIFY),
    o("verify_policy", OptKind::Str, "", "Verification", "What to do with verify failures.").ny(VERIFY),
    o("trim_percentage", OptKind::Int, "0", "Verification", "Share of verified blocks to trim.").ny(TRIM),
    o("trim_verify_zero", OptKind::Bool, "1", "Verification", "Check that trimmed blocks read back as zeroes.").ny(TRIM),
    o("trim_backlog", OptKind::Int, "", "Verification", "Trim after this many writes.").ny(TRIM),
    o("trim_backlog_batch", OptKind::Int, "", "Verification", "Blocks trimmed per backlog pass.").ny(TRIM),
    // --- Zones
    o("zonemode", OptKind::Enum(&["none", "strided", "zbd"]), "none", "Zones", "Zoned layout: none, strided or zbd.").ny(ZONES),
    o("zonesize", OptKind::Size, "0", "Zones", "Size of a zone.").ny(ZONES),
    o("zonecapacity", OptKind::Size, "0", "Zones", "Usable capacity of a zone.").ny(ZONES),
    o("zonerange", OptKind::Size, "0", "Zones", "Size of the region a zone is picked from.").ny(ZONES),
    o("zoneskip", OptKind::Size, "0", "Zones", "Bytes skipped after each zone.").ny(ZONES),
    o("read_beyond_wp", OptKind::Bool, "0", "Zones", "Allow reads beyond the write pointer.").ny(ZONES),
    o("max_open_zones", OptKind::Int, "0", "Zones", "Limit on open zones.").ny(ZONES),
    o("job_max_open_zones", OptKind::Int, "0", "Zones", "Limit on open zones per job.").ny(ZONES),
    o("ignore_zone_limits", OptKind::Bool, "0", "Zones", "Ignore the device's zone limits.").ny(ZONES),
    o("zone_reset_threshold", OptKind::Float, "", "Zones", "Reset zones above this fill level.").ny(ZONES),
    o("zone_reset_frequency", OptKind::Float, "", "Zones", "How often zones are reset.").ny(ZONES),
    // --- I/O logs and hooks
    o("write_iolog", OptKind::Str, "", "I/O logs", "Record the issued I/O to this file.").ny(IOLOG),
    o("read_iolog", OptKind::Str, "", "I/O logs", "Replay I/O from this file.").ny(IOLOG),
    o("read_iolog_chunked", OptKind::Bool, "0", "I/O logs", "Read the replay log in chunks.").ny(IOLOG),
    o("replay_no_stall", OptKind::Bool, "0", "I/O logs", "Replay without the recorded delays.").ny(IOLOG),
    o("replay_redirect", OptKind::Str, "", "I/O logs", "Replay onto this device.").ny(IOLOG),
    o("replay_scale", OptKind::Int, "1", "I/O logs", "Divide replayed offsets by this.").ny(IOLOG),
    o("replay_align", OptKind::Int, "", "I/O logs", "Align replayed offsets.").ny(IOLOG),
    o("replay_time_scale", OptKind::Int, "100", "I/O logs", "Scale replay timing (percent).").ny(IOLOG),
    o("replay_skip", OptKind::Str, "", "I/O logs", "Skip these directions in replay.").ny(IOLOG),
    o("merge_blktrace_file", OptKind::Str, "", "I/O logs", "Merge blktraces into this file.").ny(IOLOG),
    o("merge_blktrace_scalars", OptKind::FloatList, "", "I/O logs", "Time scaling per merged trace.").ny(IOLOG),
    o("merge_blktrace_iters", OptKind::FloatList, "", "I/O logs", "Iterations per merged trace.").ny(IOLOG),
    o("exec_prerun", OptKind::Str, "", "I/O logs", "Run this command before the job.").ny(NYI),
    o("exec_postrun", OptKind::Str, "", "I/O logs", "Run this command after the job.").ny(NYI),
    o("profile", OptKind::Str, "", "I/O logs", "Use a built-in fio profile.").ny(NYI),
];

/// Normalise an option name: lower case, `-` and `_` equivalent.
fn norm(s: &str) -> String {
    s.trim().to_ascii_lowercase().replace('-', "_")
}

/// Find an option by name or alias (`-`/`_` and case do not matter).
pub fn lookup(name: &str) -> Option<&'static OptDef> {
    let n = name.trim();
    OPTIONS
        .iter()
        .find(|d| same_name(n, d.name) || d.aliases.iter().any(|a| same_name(n, a)))
}

/// `a == b` ignoring ASCII case and `-` versus `_`, without allocating.
fn same_name(a: &str, b: &str) -> bool {
    let fold = |c: u8| match c {
        b'-' => b'_',
        c => c.to_ascii_lowercase(),
    };
    a.len() == b.len() && a.bytes().zip(b.bytes()).all(|(x, y)| fold(x) == fold(y))
}

/// Every spelling (names and aliases).
pub fn all_spellings() -> impl Iterator<Item = &'static str> {
    OPTIONS
        .iter()
        .flat_map(|d| std::iter::once(d.name).chain(d.aliases.iter().copied()))
}

/// Edit distance (with adjacent transpositions counting as one edit).
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let (n, m) = (a.len(), b.len());
    let mut d = vec![vec![0usize; m + 1]; n + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=n {
        for j in 1..=m {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = v;
        }
    }
    d[n][m]
}

/// The closest candidate within a distance that still looks like a typo.
pub fn nearest<'a>(name: &str, candidates: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let n = norm(name);
    let len = n.chars().count();
    let limit = match len {
        0..=3 => 1,
        4..=8 => 2,
        _ => 3,
    };
    candidates
        // The length difference bounds the edit distance from below: skipping far lengths
        // keeps a hostile 100 000-character name from costing seconds per candidate.
        .filter(|c| len.abs_diff(c.chars().count()) <= limit)
        .map(|c| (edit_distance(&n, &norm(c)), c))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// Nearest option name or alias, for "did you mean" messages.
pub fn suggest(name: &str) -> Option<&'static str> {
    nearest(name, all_spellings())
}

/// Whether `value` is the option's default (so a not-yet-supported option is a no-op).
pub fn is_default_value(def: &OptDef, value: &str) -> bool {
    let v = value.trim();
    let d = def.default;
    if v.eq_ignore_ascii_case(d) {
        return true;
    }
    match def.kind {
        OptKind::Bool | OptKind::Flag => {
            let dv = crate::values::parse_bool(if d.is_empty() { "0" } else { d });
            let vv = if v.is_empty() {
                Ok(true)
            } else {
                crate::values::parse_bool(v)
            };
            matches!((dv, vv), (Ok(a), Ok(b)) if a == b)
        }
        OptKind::Str | OptKind::Enum(_) if d == "0" || d == "none" => {
            matches!(v.to_ascii_lowercase().as_str(), "0" | "none" | "off")
        }
        OptKind::Int | OptKind::Size | OptKind::Float | OptKind::Time(_) => {
            let dn = if d.is_empty() { "0" } else { d };
            match (v.parse::<f64>(), dn.parse::<f64>()) {
                (Ok(a), Ok(b)) => a == b,
                _ => false,
            }
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn table_has_no_duplicate_spellings() {
        let mut seen = HashSet::new();
        for s in all_spellings() {
            assert!(seen.insert(norm(s)), "duplicate option spelling {s}");
        }
    }

    #[test]
    fn table_entries_are_complete() {
        for d in OPTIONS {
            assert!(!d.help.is_empty(), "{} has no help", d.name);
            assert!(!d.category.is_empty(), "{} has no category", d.name);
            if let OptKind::Enum(v) = d.kind {
                if !d.default.is_empty() {
                    assert!(
                        v.contains(&d.default),
                        "{} default not in its values",
                        d.name
                    );
                }
            }
        }
    }

    #[test]
    fn lookup_accepts_aliases_and_spellings() {
        assert_eq!(lookup("bs").unwrap().name, "bs");
        assert_eq!(lookup("blocksize").unwrap().name, "bs");
        assert_eq!(lookup("readwrite").unwrap().name, "rw");
        assert_eq!(lookup("timeout").unwrap().name, "runtime");
        assert_eq!(lookup("io-size").unwrap().name, "io_size");
        assert_eq!(lookup("hugepage_size").unwrap().name, "hugepage-size");
        assert_eq!(lookup("wait_for_previous").unwrap().name, "stonewall");
        assert_eq!(
            lookup("iodepth_batch_submit").unwrap().name,
            "iodepth_batch"
        );
        assert!(lookup("blocksiz").is_none());
    }

    #[test]
    fn suggestions() {
        assert_eq!(suggest("blocksiz"), Some("blocksize"));
        assert_eq!(suggest("iodepht"), Some("iodepth"));
        assert_eq!(suggest("runtim"), Some("runtime"));
        assert_eq!(suggest("time-base"), Some("time_based"));
        assert_eq!(suggest("completely_unrelated_words"), None);
    }

    #[test]
    fn supported_engines_match_the_engine_model() {
        for e in SUPPORTED_ENGINES {
            assert!(
                iomark_engine::job::EngineKind::from_fio_name(e).is_some(),
                "{e}"
            );
        }
        assert_eq!(
            SUPPORTED_ENGINES.len(),
            iomark_engine::job::EngineKind::ALL.len()
        );
    }

    #[test]
    fn defaults_count_as_no_ops() {
        let v = lookup("verify").unwrap();
        assert!(is_default_value(v, "0"));
        assert!(is_default_value(v, "none"));
        assert!(!is_default_value(v, "md5"));
        let z = lookup("zonemode").unwrap();
        assert!(is_default_value(z, "none"));
        assert!(!is_default_value(z, "zbd"));
        let d = lookup("do_verify").unwrap();
        assert!(is_default_value(d, "1"));
        assert!(!is_default_value(d, "0"));
        let f = lookup("fill_device").unwrap();
        assert!(is_default_value(f, "0"));
        assert!(!is_default_value(f, "1"));
    }
}
