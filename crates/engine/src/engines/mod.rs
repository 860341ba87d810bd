//! I/O engines: a small table of operations (queue, commit, getevents), as fio's ioengine_ops.
//! The worker around them is shared: it picks offsets, owns buffers and clocks, and keeps stats.
//! Engines never read the clock, allocate per I/O or format anything.

//!
//! Each engine file declares its engines (`EngineDecl`: fio name, capabilities, the
//! engine-specific options it reads, constructor); `ENGINES` collects them, and naming, parsing
//! and creating an engine all go through that list.

use std::fmt;
use std::io;
use std::os::fd::RawFd;
use std::path::PathBuf;

mod copy_end;
pub(crate) mod cpuio;
mod decl;
pub(crate) mod e4defrag;
pub(crate) mod exec;
pub(crate) mod falloc;
pub(crate) mod ftruncate;
pub(crate) mod libaio;
pub(crate) mod meta;
pub(crate) mod mmap;
pub(crate) mod nbd;
pub(crate) mod net;
pub(crate) mod null;
pub(crate) mod posixaio;
pub(crate) mod rados;
pub(crate) mod rbd;
pub(crate) mod sync;
pub(crate) mod sysio;
pub(crate) mod uring;

#[cfg(test)]
mod conformance;
#[cfg(test)]
pub(crate) mod testutil;

pub use crate::job::prio_mix;
pub use decl::{Capabilities, EngineKind, EngineOption, EngineOptions};
pub(crate) use decl::{EngineDecl, EngineFlags};

/// Every engine iomark implements, in the order of [`EngineKind`]'s variants.
pub(crate) const ENGINES: &[EngineDecl] = &[
    sync::SYNC,
    sync::PSYNC,
    sync::VSYNC,
    sync::PVSYNC,
    sync::PVSYNC2,
    libaio::DECL,
    uring::DECL,
    posixaio::DECL,
    mmap::DECL,
    null::DECL,
    meta::FILECREATE,
    meta::FILESTAT,
    meta::FILEDELETE,
    falloc::DECL,
    ftruncate::DECL,
    rbd::DECL,
    rados::DECL,
    cpuio::DECL,
    exec::DECL,
    e4defrag::DECL,
    net::DECL,
    net::splice::DECL,
    nbd::DECL,
];

// `EngineKind as usize` indexes ENGINES.
const _: () = {
    let mut i = 0;
    while i < ENGINES.len() {
        assert!(ENGINES[i].kind as usize == i);
        i += 1;
    }
    // Every kind of the job model has its engine.
    assert!(ENGINES.len() == EngineKind::ALL.len());
};

const fn names<const N: usize>() -> [&'static str; N] {
    let mut a = [""; N];
    let mut i = 0;
    while i < N {
        a[i] = ENGINES[i].kind.name();
        i += 1;
    }
    a
}

/// The fio names of every engine, in the order of `ENGINES` (for help texts and "did you
/// mean" suggestions).
pub const NAMES: &[&str] = &names::<{ ENGINES.len() }>();

/// The engines that read `opt`.
#[cfg(test)]
pub(crate) fn readers(opt: EngineOption) -> impl Iterator<Item = &'static EngineDecl> {
    ENGINES.iter().filter(move |d| d.reads(opt))
}

/// How many engines read `opt`.
const fn reader_count(opt: EngineOption) -> usize {
    let mut n = 0;
    let mut i = 0;
    while i < ENGINES.len() {
        if ENGINES[i].reads(opt) {
            n += 1;
        }
        i += 1;
    }
    n
}

/// The names of the engines that read `opt`, in `ENGINES` order (`N` = `reader_count(opt)`).
const fn reader_names<const N: usize>(opt: EngineOption) -> [&'static str; N] {
    let mut a = [""; N];
    let mut n = 0;
    let mut i = 0;
    while i < ENGINES.len() {
        if ENGINES[i].reads(opt) {
            a[n] = ENGINES[i].kind.name();
            n += 1;
        }
        i += 1;
    }
    a
}

/// The fio names of the engines that read `opt` (as `readers`), as a constant list: a front
/// end's option table names an engine option's owners with it, so they come from the engines'
/// own declarations.
pub const fn reader_list(opt: EngineOption) -> &'static [&'static str] {
    macro_rules! list {
        ($o:expr) => {{
            const N: usize = reader_count($o);
            const L: [&str; N] = reader_names::<N>($o);
            &L
        }};
    }
    match opt {
        EngineOption::Hipri => list!(EngineOption::Hipri),
        EngineOption::Nowait => list!(EngineOption::Nowait),
        EngineOption::Fixedbufs => list!(EngineOption::Fixedbufs),
        EngineOption::Registerfiles => list!(EngineOption::Registerfiles),
        EngineOption::SqthreadPoll => list!(EngineOption::SqthreadPoll),
        EngineOption::SqthreadPollCpu => list!(EngineOption::SqthreadPollCpu),
        EngineOption::Nonvectored => list!(EngineOption::Nonvectored),
        EngineOption::UserspaceReap => list!(EngineOption::UserspaceReap),
        EngineOption::PrioPercent => list!(EngineOption::PrioPercent),
        EngineOption::PrioClass => list!(EngineOption::PrioClass),
        EngineOption::PrioLevel => list!(EngineOption::PrioLevel),
        EngineOption::PrioBySize => list!(EngineOption::PrioBySize),
        EngineOption::ClusterName => list!(EngineOption::ClusterName),
        EngineOption::Pool => list!(EngineOption::Pool),
        EngineOption::RbdName => list!(EngineOption::RbdName),
        EngineOption::ClientName => list!(EngineOption::ClientName),
        EngineOption::BusyPoll => list!(EngineOption::BusyPoll),
        EngineOption::Conf => list!(EngineOption::Conf),
        EngineOption::TouchObjects => list!(EngineOption::TouchObjects),
        EngineOption::CpuLoad => list!(EngineOption::CpuLoad),
        EngineOption::CpuMode => list!(EngineOption::CpuMode),
        EngineOption::CpuChunks => list!(EngineOption::CpuChunks),
        EngineOption::Program => list!(EngineOption::Program),
        EngineOption::Arguments => list!(EngineOption::Arguments),
        EngineOption::GraceTime => list!(EngineOption::GraceTime),
        EngineOption::StdRedirect => list!(EngineOption::StdRedirect),
        EngineOption::DonorName => list!(EngineOption::DonorName),
        EngineOption::Inplace => list!(EngineOption::Inplace),
        EngineOption::Hostname => list!(EngineOption::Hostname),
        EngineOption::Port => list!(EngineOption::Port),
        EngineOption::Protocol => list!(EngineOption::Protocol),
        EngineOption::Listen => list!(EngineOption::Listen),
        EngineOption::Pingpong => list!(EngineOption::Pingpong),
        EngineOption::Nodelay => list!(EngineOption::Nodelay),
        EngineOption::WindowSize => list!(EngineOption::WindowSize),
        EngineOption::Mss => list!(EngineOption::Mss),
        EngineOption::Interface => list!(EngineOption::Interface),
        EngineOption::Ttl => list!(EngineOption::Ttl),
        EngineOption::Uri => list!(EngineOption::Uri),
    }
}

/// What an engine sets in its job before the job starts, as fio's engines do when they are set
/// up: the think time of the engines that move nothing.
pub(crate) fn prepare_job(spec: &mut crate::job::JobSpec) {
    match spec.ioengine {
        EngineKind::Cpuio => cpuio::think_between(spec),
        EngineKind::Exec => exec::prepare(spec),
        EngineKind::E4defrag => e4defrag::prepare(spec),
        // As fio: a UDP or unix reader is the side that waits for its peer.
        EngineKind::Net | EngineKind::Netsplice => {
            let reads = spec.rw.has_read();
            let net = &mut spec.engine_options.net;
            net.listen = net.waits(reads);
        }
        _ => {}
    }
}

/// The files an engine creates or truncates besides the job's targets (exec's `JOB.stdout`
/// and `JOB.stderr`, e4defrag's donor): they pass the run's checks for written files.
pub(crate) fn files_written(spec: &crate::job::JobSpec) -> Vec<PathBuf> {
    let mut v = exec::files_written(spec);
    v.extend(e4defrag::files_written(spec));
    v
}
/// The result of an I/O that found its stream ended by the peer (the sender of a network job
/// closed): the job ends there, and that I/O is not counted.
pub(crate) const END_OF_STREAM: i64 = i64::MIN;

/// The operation of one I/O unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Op {
    Read,
    Write,
    Trim,
    Fsync,
    Fdatasync,
}

/// One I/O request. `buf` points into a buffer owned by the worker that stays valid and is not
/// touched by the worker until the I/O completes. `slot` identifies the request while in flight
/// (0..depth) and is also the index of its buffer in `EngineSetup::buffers`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct IoUnit {
    pub(crate) slot: u32,
    /// Index into `EngineSetup::files`.
    pub(crate) file: u32,
    pub(crate) op: Op,
    pub(crate) offset: u64,
    pub(crate) len: usize,
    pub(crate) buf: *mut u8,
    /// The request's own priority (ioprio value), if it carries one.
    pub(crate) prio: Option<u16>,
}

/// A file the engine may do I/O on. `fd` is opened by the worker with the job's flags
/// (O_DIRECT, O_SYNC, read/write); -1 for the metadata engines, which work on `path`.
#[derive(Clone, Debug)]
pub(crate) struct EngineFile {
    pub(crate) fd: RawFd,
    pub(crate) path: PathBuf,
    /// Size of the file or device in bytes.
    pub(crate) size: u64,
    pub(crate) is_block: bool,
}

/// One I/O buffer (aligned to the target's logical block size).
#[derive(Clone, Copy, Debug)]
pub(crate) struct EngineBuf {
    pub(crate) ptr: *mut u8,
    pub(crate) len: usize,
}

/// What an engine is given when it is created.
pub(crate) struct EngineSetup<'a> {
    /// Maximum number of I/Os in flight.
    pub(crate) depth: u32,
    pub(crate) files: &'a [EngineFile],
    /// `depth` buffers; buffer i belongs to slot i.
    pub(crate) buffers: &'a [EngineBuf],
    pub(crate) options: &'a EngineOptions,
    pub(crate) direct: bool,
}

/// Result of queueing one I/O.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Queued {
    /// Accepted; it completes later through `commit` + `getevents`.
    Pending,
    /// Completed inside `queue` (sync engines; also sync ops and trims on async engines):
    /// bytes transferred, or -errno.
    Done(i64),
}

/// A completed I/O: its slot and the result (bytes, or -errno).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Completion {
    pub(crate) slot: u32,
    pub(crate) result: i64,
}

pub(crate) trait Engine {
    #[cfg(test)]
    fn name(&self) -> &'static str;
    /// Completes every I/O inside `queue` (fio's FIO_SYNCIO: no slat).
    fn is_sync(&self) -> bool;
    /// Queue one I/O. The worker never has more than `depth` I/Os pending. Before an Fsync or
    /// Fdatasync the worker drains all pending I/O, so engines may perform those synchronously.
    fn queue(&mut self, io: &IoUnit) -> Queued;
    /// Submit everything queued since the last commit; returns how many were submitted.
    fn commit(&mut self) -> io::Result<usize> {
        Ok(0)
    }
    /// Reap at least `min` (0 = do not block) and at most `max` completions, appended to `out`.
    /// Returns the number appended.
    fn getevents(
        &mut self,
        _min: usize,
        _max: usize,
        _out: &mut Vec<Completion>,
    ) -> io::Result<usize> {
        Ok(0)
    }
    /// The worker opened (`fd` >= 0) or closed (`fd` = -1) file `file` during the run
    /// (`openfiles`): later I/Os on it go to `fd`. Called only with no I/O queued or in
    /// flight. Engines that keep no descriptors need not act.
    fn set_file(&mut self, _file: u32, _fd: RawFd) -> io::Result<()> {
        Ok(())
    }
    /// Reads into `buf` at `offset` of file `file` synchronously, with nothing in flight: the
    /// verifier's read-back for engines whose files have no descriptor. `None`: the engine
    /// reads no other way than through the job's descriptors.
    fn read_at(&mut self, _file: u32, _buf: &mut [u8], _offset: u64) -> Option<io::Result<usize>> {
        None
    }
    /// The think time the engine asks for after each I/O (cpuio: the idle part of its duty
    /// cycle), in place of the job's own; `None`: the job's.
    fn think_time(&self) -> Option<std::time::Duration> {
        None
    }
    /// I/Os the engine knows were lost on the way, per direction (read, write, trim): a UDP
    /// receiver's datagrams that never came (fio's dropped I/Os).
    fn dropped(&self) -> [u64; 3] {
        [0; 3]
    }
    /// Notes for the user about how the engine was set up (e.g. "fixed buffers disabled:
    /// RLIMIT_MEMLOCK is 8 MiB").
    fn notes(&self) -> Vec<crate::note::Note> {
        Vec::new()
    }
}

/// Why an engine could not be created.
#[derive(Debug)]
pub(crate) enum EngineError {
    /// The kernel or a security policy refused the mechanism (e.g. io_uring disabled); the caller
    /// may fall back to another engine.
    Unavailable(String),
    Io(io::Error),
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Unavailable(s) => write!(f, "{s}"),
            EngineError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for EngineError {}

impl From<io::Error> for EngineError {
    fn from(e: io::Error) -> Self {
        EngineError::Io(e)
    }
}

/// Whether an engine of `kind` can be created here (with default options and no files): the
/// kernel or a security policy may refuse its mechanism (e.g. io_uring disabled).
pub fn available(kind: EngineKind) -> bool {
    let options = EngineOptions::default();
    let setup = EngineSetup {
        depth: 1,
        files: &[],
        buffers: &[],
        options: &options,
        direct: false,
    };
    create(kind, &setup).is_ok()
}

/// Create an engine of the given kind.
pub(crate) fn create(
    kind: EngineKind,
    setup: &EngineSetup,
) -> Result<Box<dyn Engine>, EngineError> {
    (decl::decl(kind).create)(kind, setup)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookup() {
        assert_eq!(NAMES.len(), ENGINES.len());
        assert_eq!(
            EngineKind::from_name("io_uring").unwrap(),
            EngineKind::IoUring
        );
        assert_eq!(
            EngineKind::from_name("posixaio").unwrap(),
            EngineKind::PosixAio
        );
        assert!(EngineKind::from_name("posix_aio").is_none());
        for opt in EngineOption::ALL {
            let names: Vec<_> = readers(opt).map(|d| d.kind.name()).collect();
            assert_eq!(reader_list(opt), names.as_slice(), "{opt:?}");
            assert!(!names.is_empty(), "{opt:?} is read by no engine");
        }
        let hipri: Vec<_> = readers(EngineOption::Hipri)
            .map(|d| d.kind.name())
            .collect();
        assert_eq!(hipri, ["pvsync2", "io_uring"]);
        for (d, n) in ENGINES.iter().zip(NAMES) {
            assert_eq!(d.kind.name(), *n);
            assert_eq!(EngineKind::from_name(n), Some(d.kind));
        }
    }
}
