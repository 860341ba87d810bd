//! What an engine declares about itself: its kind and fio name, its capabilities and the
//! engine-specific options it reads. Each engine file holds the declarations of its engines;
//! `engines::ENGINES` collects them, and everything that names or classifies an engine (the job
//! model's `EngineKind`, the factory, the front ends' parsers and help) reads that list.

use super::{Engine, EngineError, EngineSetup, ENGINES};
pub use crate::job::{EngineKind, EngineOption, EngineOptions};

/// Capabilities of an engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct EngineFlags {
    /// Every I/O completes inside `queue` (fio's FIO_SYNCIO): no slat.
    pub(crate) sync: bool,
    /// Does its I/O through a descriptor the worker opens on the job's file or device.
    pub(crate) opens_file: bool,
    /// Moves no data and opens no file (fio's diskless engines): nothing is laid out.
    pub(crate) diskless: bool,
    /// Each I/O is a metadata operation (create, stat, unlink) on the path of its own file.
    pub(crate) metadata: bool,
    /// Honours O_DIRECT: `direct=1` bypasses the page cache for its reads and writes.
    pub(crate) direct: bool,
    /// Moves nothing at all (fio's FIO_NOIO): its I/Os are counted without bytes, and the job
    /// runs for its time or its number of I/Os whatever its size.
    pub(crate) noio: bool,
}

impl EngineFlags {
    /// A data engine doing I/O on an open file: the defaults the declarations start from.
    pub(crate) const FILE_IO: EngineFlags = EngineFlags {
        sync: true,
        opens_file: true,
        diskless: false,
        metadata: false,
        direct: true,
        noio: false,
    };
    /// A data engine that reaches its target through a client library (a Ceph image or pool,
    /// an NBD export): asynchronous, opens no local file and lays nothing out.
    pub(crate) const REMOTE: EngineFlags = EngineFlags {
        sync: false,
        opens_file: false,
        diskless: true,
        metadata: false,
        direct: false,
        noio: false,
    };
}

/// Creates an engine of the declared kind.
pub(crate) type CreateFn = fn(EngineKind, &EngineSetup) -> Result<Box<dyn Engine>, EngineError>;

/// One engine as it declares itself.
#[derive(Clone, Copy)]
pub(crate) struct EngineDecl {
    pub(crate) kind: EngineKind,
    pub(crate) flags: EngineFlags,
    /// The engine-specific options the engine reads.
    pub(crate) options: &'static [EngineOption],
    pub(crate) create: CreateFn,
}

impl EngineDecl {
    /// Whether the engine reads `opt`.
    pub(crate) const fn reads(&self, opt: EngineOption) -> bool {
        let mut i = 0;
        while i < self.options.len() {
            if self.options[i] as u8 == opt as u8 {
                return true;
            }
            i += 1;
        }
        false
    }
}

impl std::fmt::Debug for EngineDecl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EngineDecl")
            .field("kind", &self.kind)
            .field("flags", &self.flags)
            .field("options", &self.options)
            .finish()
    }
}

/// Which flag `mask` collects.
#[derive(Clone, Copy)]
enum Flag {
    Sync,
    Diskless,
    Metadata,
    NoIo,
}

/// A bit per engine (by kind) that has `flag`, so per-I/O checks cost no table load.
const fn mask(flag: Flag) -> u32 {
    let mut m = 0u32;
    let mut i = 0;
    while i < ENGINES.len() {
        let f = &ENGINES[i].flags;
        let set = match flag {
            Flag::Sync => f.sync,
            Flag::Diskless => f.diskless,
            Flag::Metadata => f.metadata,
            Flag::NoIo => f.noio,
        };
        if set {
            m |= 1 << ENGINES[i].kind as u32;
        }
        i += 1;
    }
    m
}

const SYNC_MASK: u32 = mask(Flag::Sync);
const DISKLESS_MASK: u32 = mask(Flag::Diskless);
const METADATA_MASK: u32 = mask(Flag::Metadata);
const NOIO_MASK: u32 = mask(Flag::NoIo);

/// What an engine can do, as its declaration says: a job model's [`EngineKind`] classified by
/// the engine that implements it.
pub trait Capabilities: Copy {
    /// Every I/O completes inside `queue()` (fio's FIO_SYNCIO): no slat.
    fn is_sync(self) -> bool;
    /// The engine moves no data and opens no file (fio's diskless engines): nothing is laid out.
    fn is_diskless(self) -> bool;
    /// The Ceph engines (rbd, rados): I/O on an image or objects of a cluster, named by the
    /// engine's own options rather than a local path.
    fn is_ceph(self) -> bool;
    /// The engines whose target is named by their own options (a Ceph image or pool, an NBD
    /// export) rather than a local path: the verifier reads back through the engine.
    fn is_remote(self) -> bool;
    /// Engines where each "I/O" is a metadata operation on its own file.
    fn is_metadata(self) -> bool;
    /// Engines that move nothing (fio's FIO_NOIO): I/Os without bytes, for the job's time.
    fn is_noio(self) -> bool;
}

impl Capabilities for EngineKind {
    #[inline]
    fn is_sync(self) -> bool {
        SYNC_MASK & (1 << self as u32) != 0
    }
    #[inline]
    fn is_diskless(self) -> bool {
        DISKLESS_MASK & (1 << self as u32) != 0
    }
    #[inline]
    fn is_ceph(self) -> bool {
        matches!(self, EngineKind::Rbd | EngineKind::Rados)
    }
    #[inline]
    fn is_remote(self) -> bool {
        self.is_ceph() || self == EngineKind::Nbd
    }
    #[inline]
    fn is_metadata(self) -> bool {
        METADATA_MASK & (1 << self as u32) != 0
    }
    #[inline]
    fn is_noio(self) -> bool {
        NOIO_MASK & (1 << self as u32) != 0
    }
}

/// The declaration of `kind`.
#[inline]
pub(crate) fn decl(kind: EngineKind) -> &'static EngineDecl {
    &ENGINES[kind as usize]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_match_the_flags() {
        for k in EngineKind::ALL {
            let f = decl(k).flags;
            assert_eq!(k.is_sync(), f.sync, "{k:?}");
            assert_eq!(k.is_diskless(), f.diskless, "{k:?}");
            assert_eq!(k.is_metadata(), f.metadata, "{k:?}");
            assert_eq!(k.is_noio(), f.noio, "{k:?}");
            assert!(!f.noio || f.diskless, "{k:?}");
            assert_eq!(f.opens_file, !f.diskless && !f.metadata, "{k:?}");
        }
    }

    #[test]
    fn classification_as_before() {
        use EngineKind::*;
        let asynchronous: Vec<_> = EngineKind::ALL
            .into_iter()
            .filter(|k| !k.is_sync())
            .collect();
        assert_eq!(asynchronous, [Libaio, IoUring, PosixAio, Rbd, Rados, Nbd]);
        let noio: Vec<_> = EngineKind::ALL
            .into_iter()
            .filter(|k| k.is_noio())
            .collect();
        assert_eq!(noio, [Cpuio, Exec]);
        let diskless: Vec<_> = EngineKind::ALL
            .into_iter()
            .filter(|k| k.is_diskless())
            .collect();
        assert_eq!(
            diskless,
            [Null, Rbd, Rados, Cpuio, Exec, Net, Netsplice, Nbd]
        );
        let meta: Vec<_> = EngineKind::ALL
            .into_iter()
            .filter(|k| k.is_metadata())
            .collect();
        assert_eq!(meta, [FileCreate, FileStat, FileDelete]);
    }

    #[test]
    fn names_round_trip() {
        assert_eq!(EngineKind::ALL.len(), 23);
        for k in EngineKind::ALL {
            assert_eq!(EngineKind::from_name(k.name()), Some(k));
        }
        assert_eq!(EngineKind::IoUring.name(), "io_uring");
        assert_eq!(EngineKind::from_name("aio"), None);
        assert_eq!(EngineKind::from_name("LIBAIO"), None);
    }

    #[test]
    fn options_read() {
        assert!(decl(EngineKind::Pvsync2).reads(EngineOption::Hipri));
        assert!(!decl(EngineKind::Psync).reads(EngineOption::Hipri));
        assert!(decl(EngineKind::Libaio).reads(EngineOption::UserspaceReap));
        let o = EngineOptions {
            sqthread_poll_cpu: Some(1),
            ..Default::default()
        };
        for opt in EngineOption::ALL {
            assert_eq!(o.is_set(opt), opt == EngineOption::SqthreadPollCpu);
            assert!(!EngineOptions::default().is_set(opt));
        }
    }
}
