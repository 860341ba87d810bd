//! The engine a job uses and the values of the engines' own options: plain values of the job
//! model, which notes and failures name too. What each engine can do (its capabilities, the
//! options it reads, how it is created) is declared by the engines themselves, in the engine.

use super::prio_mix::IoPrioMix;
use serde::{Deserialize, Serialize};

/// Which engine a job uses. The discriminant is the engine's index in the engine's table of
/// engines (which checks it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EngineKind {
    Sync,
    Psync,
    Vsync,
    Pvsync,
    Pvsync2,
    Libaio,
    IoUring,
    PosixAio,
    Mmap,
    Null,
    FileCreate,
    FileStat,
    FileDelete,
    Falloc,
    Ftruncate,
    /// Ceph RBD images through librbd.
    Rbd,
    /// Ceph RADOS objects through librados.
    Rados,
    /// Burns CPU for a share of the time; moves no data.
    Cpuio,
    /// Runs a program for the job's time; moves no data.
    Exec,
    /// ext4 online defragmentation: each write moves its range's blocks to a donor file's.
    E4defrag,
    /// Sends or receives over a TCP, UDP or unix socket.
    Net,
    /// As `Net`, through splice(2) and a pipe.
    Netsplice,
    /// An NBD export through libnbd.
    Nbd,
}

impl EngineKind {
    /// Every engine, in the order of the discriminants.
    pub const ALL: [EngineKind; 23] = [
        EngineKind::Sync,
        EngineKind::Psync,
        EngineKind::Vsync,
        EngineKind::Pvsync,
        EngineKind::Pvsync2,
        EngineKind::Libaio,
        EngineKind::IoUring,
        EngineKind::PosixAio,
        EngineKind::Mmap,
        EngineKind::Null,
        EngineKind::FileCreate,
        EngineKind::FileStat,
        EngineKind::FileDelete,
        EngineKind::Falloc,
        EngineKind::Ftruncate,
        EngineKind::Rbd,
        EngineKind::Rados,
        EngineKind::Cpuio,
        EngineKind::Exec,
        EngineKind::E4defrag,
        EngineKind::Net,
        EngineKind::Netsplice,
        EngineKind::Nbd,
    ];

    /// The engine's name, as job files and outputs name it (`ioengine=`).
    pub const fn name(self) -> &'static str {
        match self {
            EngineKind::Sync => "sync",
            EngineKind::Psync => "psync",
            EngineKind::Vsync => "vsync",
            EngineKind::Pvsync => "pvsync",
            EngineKind::Pvsync2 => "pvsync2",
            EngineKind::Libaio => "libaio",
            EngineKind::IoUring => "io_uring",
            EngineKind::PosixAio => "posixaio",
            EngineKind::Mmap => "mmap",
            EngineKind::Null => "null",
            EngineKind::FileCreate => "filecreate",
            EngineKind::FileStat => "filestat",
            EngineKind::FileDelete => "filedelete",
            EngineKind::Falloc => "falloc",
            EngineKind::Ftruncate => "ftruncate",
            EngineKind::Rbd => "rbd",
            EngineKind::Rados => "rados",
            EngineKind::Cpuio => "cpuio",
            EngineKind::Exec => "exec",
            EngineKind::E4defrag => "e4defrag",
            EngineKind::Net => "net",
            EngineKind::Netsplice => "netsplice",
            EngineKind::Nbd => "nbd",
        }
    }

    /// The engine called `name` (exactly).
    pub fn from_name(name: &str) -> Option<EngineKind> {
        EngineKind::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// An engine-specific option (fio's FIO_OPT_C_ENGINE options) an engine reads from
/// [`EngineOptions`]. Front ends map their own option names onto these.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EngineOption {
    /// Polled completions: RWF_HIPRI (pvsync2), IORING_SETUP_IOPOLL (io_uring).
    Hipri,
    /// RWF_NOWAIT.
    Nowait,
    /// Registered I/O buffers.
    Fixedbufs,
    /// Registered files.
    Registerfiles,
    /// A kernel thread polls the submission queue.
    SqthreadPoll,
    /// CPU of the submission polling thread.
    SqthreadPollCpu,
    /// Non-vectored read/write commands.
    Nonvectored,
    /// Completions reaped from the user-space ring.
    UserspaceReap,
    /// The share of reads and writes sent with a priority of their own.
    PrioPercent,
    /// The class of that priority.
    PrioClass,
    /// The level of that priority.
    PrioLevel,
    /// Shares and priorities per block size.
    PrioBySize,
    /// Ceph: the cluster's name.
    ClusterName,
    /// Ceph: the pool.
    Pool,
    /// Ceph: the RBD image.
    RbdName,
    /// Ceph: the client's name or id.
    ClientName,
    /// Ceph: spin for completions rather than sleep.
    BusyPoll,
    /// Ceph: the configuration file.
    Conf,
    /// rados: create the objects when the job starts.
    TouchObjects,
    /// cpuio: the share of the CPU to use.
    CpuLoad,
    /// cpuio: how the CPU is burnt.
    CpuMode,
    /// cpuio: the length of one burn.
    CpuChunks,
    /// exec: the program run.
    Program,
    /// exec: its arguments.
    Arguments,
    /// exec: how long it has to end after SIGTERM.
    GraceTime,
    /// exec: its output into files.
    StdRedirect,
    /// e4defrag: the donor file.
    DonorName,
    /// e4defrag: allocate and free the donor's space per I/O.
    Inplace,
    /// net: the peer's host (or a unix socket's path).
    Hostname,
    /// net: the TCP or UDP port.
    Port,
    /// net: tcp, tcpv6, udp, udpv6 or unix.
    Protocol,
    /// net: wait for the peer rather than connect to it.
    Listen,
    /// net: each I/O answered by the peer.
    Pingpong,
    /// net: TCP_NODELAY.
    Nodelay,
    /// net: the socket's buffer sizes.
    WindowSize,
    /// net: the TCP maximum segment size.
    Mss,
    /// net: the interface of UDP multicast.
    Interface,
    /// net: the time-to-live of UDP multicast.
    Ttl,
    /// nbd: the export's URI.
    Uri,
}

impl EngineOption {
    pub const ALL: [EngineOption; 39] = [
        EngineOption::Hipri,
        EngineOption::Nowait,
        EngineOption::Fixedbufs,
        EngineOption::Registerfiles,
        EngineOption::SqthreadPoll,
        EngineOption::SqthreadPollCpu,
        EngineOption::Nonvectored,
        EngineOption::UserspaceReap,
        EngineOption::PrioPercent,
        EngineOption::PrioClass,
        EngineOption::PrioLevel,
        EngineOption::PrioBySize,
        EngineOption::ClusterName,
        EngineOption::Pool,
        EngineOption::RbdName,
        EngineOption::ClientName,
        EngineOption::BusyPoll,
        EngineOption::Conf,
        EngineOption::TouchObjects,
        EngineOption::CpuLoad,
        EngineOption::CpuMode,
        EngineOption::CpuChunks,
        EngineOption::Program,
        EngineOption::Arguments,
        EngineOption::GraceTime,
        EngineOption::StdRedirect,
        EngineOption::DonorName,
        EngineOption::Inplace,
        EngineOption::Hostname,
        EngineOption::Port,
        EngineOption::Protocol,
        EngineOption::Listen,
        EngineOption::Pingpong,
        EngineOption::Nodelay,
        EngineOption::WindowSize,
        EngineOption::Mss,
        EngineOption::Interface,
        EngineOption::Ttl,
        EngineOption::Uri,
    ];
}

/// Engine-specific option values (fio's FIO_OPT_C_ENGINE options).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct EngineOptions {
    /// pvsync2/io_uring: RWF_HIPRI / IORING_SETUP_IOPOLL.
    pub hipri: bool,
    /// pvsync2: RWF_NOWAIT.
    pub nowait: bool,
    /// io_uring: registered buffers (READ_FIXED/WRITE_FIXED).
    pub fixedbufs: bool,
    /// io_uring: registered files.
    pub registerfiles: bool,
    /// io_uring: SQPOLL kernel thread.
    pub sqthread_poll: bool,
    pub sqthread_poll_cpu: Option<u32>,
    /// io_uring: use IORING_OP_READ/WRITE rather than READV/WRITEV (default true where supported).
    pub nonvectored: bool,
    /// libaio: reap completions from the user-space ring.
    pub userspace_reap: bool,
    /// libaio/io_uring: reads and writes sent with a priority of their own.
    #[serde(default, skip_serializing_if = "IoPrioMix::is_off")]
    pub prio_mix: IoPrioMix,
    /// null: the modelled device's service time per I/O in ns (0: none, no delay).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub null_service_ns: u64,
    /// rbd/rados: the Ceph cluster, pool, image and client.
    #[serde(default, skip_serializing_if = "CephTarget::is_unset")]
    pub ceph: CephTarget,
    /// cpuio: the share of the CPU burnt and how.
    #[serde(default, skip_serializing_if = "CpuBurn::is_unset")]
    pub cpu: CpuBurn,
    /// exec: the program run for the job's time.
    #[serde(default, skip_serializing_if = "ExecProgram::is_unset")]
    pub exec: ExecProgram,
    /// e4defrag: the donor file and how its space is taken.
    #[serde(default, skip_serializing_if = "DefragDonor::is_unset")]
    pub defrag: DefragDonor,
    /// net/netsplice: the socket and its peer.
    #[serde(default, skip_serializing_if = "NetLink::is_unset")]
    pub net: NetLink,
    /// nbd: the export, as a URI (`nbd://`, `nbd+unix://`, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nbd_uri: Option<String>,
    /// sync: the other end of a copy, as a copying program such as dd has one: each block is
    /// read from this file (`read(2)`, the block's length) before it is written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub copy_from: Option<std::path::PathBuf>,
    /// sync: the other end of a copy: each block read is then written to this file
    /// (`write(2)`, the bytes read).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub copy_to: Option<std::path::PathBuf>,
}

/// The donor of the e4defrag engine (fio's `donorname`, `inplace`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DefragDonor {
    /// `donorname`: the donor file, in the job's `directory` when it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// `inplace=1`: the donor's space is allocated for each I/O's range and freed after it;
    /// otherwise it is allocated once, from the job's offset to its file size.
    #[serde(default)]
    pub inplace: bool,
    /// The donor's path and the range allocated at the start (offset, length), filled in when
    /// the job starts.
    #[serde(skip)]
    pub prepared: Option<(std::path::PathBuf, u64, u64)>,
}

impl DefragDonor {
    pub fn is_unset(&self) -> bool {
        *self == DefragDonor::default()
    }
}

pub use super::net::{NetLink, NetProtocol};

/// The program the exec engine runs (fio's `program`, `arguments`, `grace_time`, `std_redirect`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExecProgram {
    /// `program`: run through the PATH.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub program: Option<String>,
    /// `arguments`, split at spaces; `%r` is the job's runtime in seconds and `%n` its name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arguments: Option<String>,
    /// `grace_time`: seconds between SIGTERM and SIGKILL (unset: 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grace_time_s: Option<u32>,
    /// `std_redirect`: its standard output and error into `JOB.stdout` and `JOB.stderr`
    /// (unset: yes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub std_redirect: Option<bool>,
    /// The job's name and runtime, filled in when the job starts (its output files and the
    /// substitutions are named after them; the program is stopped after the runtime).
    #[serde(skip)]
    pub job: Option<(String, Option<std::time::Duration>)>,
}

impl ExecProgram {
    pub fn is_unset(&self) -> bool {
        *self == ExecProgram::default()
    }
    /// The arguments with fio's substitutions made: `%r` the job's runtime in whole seconds
    /// (0 without one), `%n` the job's name.
    pub fn expanded_arguments(
        &self,
        job: &str,
        runtime: Option<std::time::Duration>,
    ) -> Option<String> {
        let secs = runtime.map_or(0, |r| r.as_secs());
        self.arguments
            .as_ref()
            .map(|a| a.replace("%r", &secs.to_string()).replace("%n", job))
    }
    /// The command run: the program, then each space-separated word of the expanded arguments.
    pub fn argv(&self, job: &str, runtime: Option<std::time::Duration>) -> Vec<String> {
        let mut line = self.program.clone().unwrap_or_default();
        if let Some(a) = self.expanded_arguments(job, runtime) {
            line.push(' ');
            line.push_str(&a);
        }
        line.split(' ')
            .filter(|w| !w.is_empty())
            .map(str::to_string)
            .collect()
    }
    /// Whether its output goes into files (`std_redirect`, yes by default).
    pub fn redirects(&self) -> bool {
        self.std_redirect.unwrap_or(true)
    }
    /// Seconds between SIGTERM and SIGKILL (`grace_time`, 1 by default).
    pub fn grace_time_s(&self) -> u32 {
        self.grace_time_s.unwrap_or(1)
    }
}

/// How the cpuio engine burns CPU (fio's `cpuload`, `cpumode`, `cpuchunks`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CpuBurn {
    /// `cpuload`: percent of the time spent burning (1-100; 0: not given).
    #[serde(default)]
    pub load: u32,
    /// `cpumode`.
    #[serde(default)]
    pub mode: CpuMode,
    /// `cpuchunks`: the length of one burn in microseconds (unset: 50,000).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chunk_us: Option<u32>,
}

impl CpuBurn {
    /// fio's default burn: 50 ms.
    pub const DEFAULT_CHUNK_US: u32 = 50_000;

    pub fn is_unset(&self) -> bool {
        *self == CpuBurn::default()
    }
    /// The length of one burn in microseconds.
    pub fn chunk_us(&self) -> u32 {
        self.chunk_us.unwrap_or(Self::DEFAULT_CHUNK_US)
    }
}

/// What the cpuio engine does while it burns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CpuMode {
    /// Spins on the clock for the length of a burn.
    #[default]
    Noop,
    /// Sorts 256 Ki numbers four ways per burn; the burn's length is what that takes.
    Qsort,
}

/// Where the Ceph engines do their I/O (fio's rbd/rados options).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CephTarget {
    /// `clustername` (default "ceph").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cluster: Option<String>,
    /// `pool`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pool: Option<String>,
    /// `rbdname`: the image.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image: Option<String>,
    /// `clientname`: an id ("admin") or a full name ("client.admin").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client: Option<String>,
    /// `conf`: the configuration file (rados).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conf: Option<String>,
    /// `busy_poll`: spin for completions.
    #[serde(default)]
    pub busy_poll: bool,
    /// `touch_objects`: create the objects when the job starts (rados; unset: on, the default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub touch_objects: Option<bool>,
    /// librbd's cache left as the configuration sets it, as `rbd bench` opens an image (no flush
    /// after opening, whatever `direct` says); off for fio's jobs, which set the cache up by
    /// `direct` as fio's engine does.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub cache_as_configured: bool,
}

impl CephTarget {
    pub fn is_unset(&self) -> bool {
        *self == CephTarget::default()
    }
}

fn is_zero(v: &u64) -> bool {
    *v == 0
}

impl EngineOptions {
    /// Whether `opt` differs from its default here.
    pub fn is_set(&self, opt: EngineOption) -> bool {
        match opt {
            EngineOption::Hipri => self.hipri,
            EngineOption::Nowait => self.nowait,
            EngineOption::Fixedbufs => self.fixedbufs,
            EngineOption::Registerfiles => self.registerfiles,
            EngineOption::SqthreadPoll => self.sqthread_poll,
            EngineOption::SqthreadPollCpu => self.sqthread_poll_cpu.is_some(),
            EngineOption::Nonvectored => self.nonvectored,
            EngineOption::UserspaceReap => self.userspace_reap,
            EngineOption::PrioPercent => self.prio_mix.percent != [0, 0],
            EngineOption::PrioClass => self.prio_mix.class != [0, 0],
            EngineOption::PrioLevel => self.prio_mix.level != [0, 0],
            EngineOption::PrioBySize => self.prio_mix.by_size.iter().any(|v| !v.is_empty()),
            EngineOption::ClusterName => self.ceph.cluster.is_some(),
            EngineOption::Pool => self.ceph.pool.is_some(),
            EngineOption::RbdName => self.ceph.image.is_some(),
            EngineOption::ClientName => self.ceph.client.is_some(),
            EngineOption::BusyPoll => self.ceph.busy_poll,
            EngineOption::Conf => self.ceph.conf.is_some(),
            EngineOption::TouchObjects => self.ceph.touch_objects.is_some(),
            EngineOption::CpuLoad => self.cpu.load != 0,
            EngineOption::CpuMode => self.cpu.mode != CpuMode::Noop,
            EngineOption::CpuChunks => self.cpu.chunk_us.is_some(),
            EngineOption::Program => self.exec.program.is_some(),
            EngineOption::Arguments => self.exec.arguments.is_some(),
            EngineOption::GraceTime => self.exec.grace_time_s.is_some(),
            EngineOption::StdRedirect => self.exec.std_redirect.is_some(),
            EngineOption::DonorName => self.defrag.name.is_some(),
            EngineOption::Inplace => self.defrag.inplace,
            EngineOption::Hostname => self.net.host.is_some(),
            EngineOption::Port => self.net.port != 0,
            EngineOption::Protocol => self.net.protocol != NetProtocol::Tcp,
            EngineOption::Listen => self.net.listen,
            EngineOption::Pingpong => self.net.pingpong,
            EngineOption::Nodelay => self.net.nodelay,
            EngineOption::WindowSize => self.net.window_size != 0,
            EngineOption::Mss => self.net.mss != 0,
            EngineOption::Interface => self.net.interface.is_some(),
            EngineOption::Ttl => self.net.ttl.is_some(),
            EngineOption::Uri => self.nbd_uri.is_some(),
        }
    }
}
