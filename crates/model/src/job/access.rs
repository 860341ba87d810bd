//! An access mix: a list of weighted lines, each with its own transfer size, share of reads,
//! share of random offsets, alignment, and delay before each burst of I/Os. For every burst the
//! worker picks one line by weight; each I/O of the burst then picks its direction by the line's
//! read share and random or sequential by its random share. A sequential I/O continues where
//! the worker's previous I/O in that file ended (whatever line, direction or kind it was).

use serde::{Deserialize, Serialize};

/// One line of an [`AccessMix`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AccessLine {
    /// Relative weight (the line's share is its weight over the sum of all weights); > 0.
    pub weight: u32,
    /// Transfer size in bytes; > 0.
    pub size: u64,
    /// Percent of the line's I/Os that read (the rest write).
    pub read_pct: u32,
    /// Percent of the line's I/Os at random offsets (the rest sequential).
    pub random_pct: u32,
    /// Offsets are multiples of this many bytes; > 0.
    pub align: u64,
    /// Pause before each burst of this line, in ns (0: none). Completions are still reaped
    /// during the pause; no new I/O is issued.
    pub delay_ns: u64,
    /// I/Os per burst (at least 1): how many I/Os in a row use the line once it is picked.
    pub burst: u32,
}

/// A job's access mix (see the module documentation).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AccessMix {
    pub lines: Vec<AccessLine>,
}

impl AccessMix {
    /// Whether any line reads / writes.
    pub fn reads(&self) -> bool {
        self.lines.iter().any(|l| l.read_pct > 0)
    }
    pub fn writes(&self) -> bool {
        self.lines.iter().any(|l| l.read_pct < 100)
    }
    /// The largest transfer size.
    pub fn max_size(&self) -> u64 {
        self.lines.iter().map(|l| l.size).max().unwrap_or(0)
    }
}
