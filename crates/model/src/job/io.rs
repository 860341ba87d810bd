//! Directions and the I/O pattern: `rw=`, block sizes, offset distribution, sync, fallocate
//! and fadvise modes.

use serde::{Deserialize, Serialize};

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
    /// Random trim followed by a write of the same block.
    RandTrimWrite,
}

impl RwMode {
    pub fn is_random(self) -> bool {
        matches!(
            self,
            RwMode::RandRead
                | RwMode::RandWrite
                | RwMode::RandTrim
                | RwMode::RandRw
                | RwMode::RandTrimWrite
        )
    }
    /// Each trim is followed by a write of the same offset and length.
    pub fn is_trimwrite(self) -> bool {
        matches!(self, RwMode::TrimWrite | RwMode::RandTrimWrite)
    }
    /// Reads and writes mixed (rwmixread applies).
    pub fn is_mixed(self) -> bool {
        matches!(self, RwMode::ReadWrite | RwMode::RandRw)
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
                | RwMode::RandTrimWrite
        )
    }
    pub fn has_trim(self) -> bool {
        matches!(
            self,
            RwMode::Trim | RwMode::RandTrim | RwMode::TrimWrite | RwMode::RandTrimWrite
        )
    }
    /// Whether this mode issues I/O in direction `d`.
    pub fn has_dir(self, d: Dir) -> bool {
        match d {
            Dir::Read => self.has_read(),
            Dir::Write => self.has_write(),
            Dir::Trim => self.has_trim(),
        }
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
            RwMode::RandTrimWrite => "randtrimwrite",
        }
    }
}

/// `rw=randread:8` / `rw=write:4k` / `rw=read:-8k`: for random patterns N I/Os per generated
/// offset; for sequential patterns N bytes added to the end of each I/O to place the next one
/// (a hole when positive, backwards when negative).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RwModifier {
    pub value: i64,
    /// Where the I/Os after a random one go (random patterns with N > 1).
    #[serde(default)]
    pub sequencer: RwSequencer,
}

/// Where the I/Os that follow a random one of `rw=randread:N` go.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RwSequencer {
    /// Sequentially after it.
    #[default]
    Sequential,
    /// At the same offset again.
    Identical,
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
    /// One distribution per direction (read, write, trim).
    PerDir(Box<[Distribution; 3]>),
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

/// Strided zones: the job's offsets stay within one zone of `range` bytes at a time; after
/// `size` bytes of I/O there the next zone starts `range + skip` bytes further on, wrapping to
/// the region start at the end of the file. Random offsets cover the zone (the random map
/// starts over every `range` bytes of I/O); sequential ones go round it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StridedZones {
    /// Bytes of I/O done in a zone before moving to the next.
    pub size: u64,
    /// Length of a zone.
    pub range: u64,
    /// Gap between the end of one zone and the start of the next.
    pub skip: u64,
}
