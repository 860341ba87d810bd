//! Zoned-block-device mode (`zonemode=zbd`) on a target that is not zoned: the target is cut
//! into zones of `size` bytes from its start, each with a write pointer; writes go only to a
//! write pointer, reads (unless `read_beyond_wp`) only below one.

use serde::{Deserialize, Serialize};

/// The zones a job emulates on a regular file or a block device that is not zoned.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ZbdZones {
    /// Length of a zone (`zonesize`).
    pub size: u64,
    /// Bytes of a zone that can be written (`zonecapacity`; the zone size when not given).
    pub capacity: u64,
    /// Zones open for writing at once on the target, shared by every job on it (0: no limit).
    pub max_open_zones: u32,
    /// Zones one job clone may hold open at once (0: no limit).
    pub job_max_open_zones: u32,
    /// Share of the job's region holding data above which zones are reset (0 to 1).
    pub reset_threshold: f64,
    /// Share of writes, once above the threshold, that reset their zone first (0: never).
    pub reset_frequency: f64,
    /// Reads may go beyond the write pointer (else they read only written data).
    pub read_beyond_wp: bool,
}
