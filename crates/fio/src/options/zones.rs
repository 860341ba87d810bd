//! The zone options of a job as given (`zonemode`, `zonesize`, `zonerange`, `zoneskip`), before
//! the job is built with fio's rules for them.

/// The zone options as given.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ZoneOpts {
    /// `zonemode` as given (None = fio's default, none).
    pub mode: Option<String>,
    pub size: u64,
    pub range: u64,
    pub skip: u64,
    /// zonemode=zbd: `zonecapacity`, `max_open_zones`, `job_max_open_zones`,
    /// `zone_reset_threshold`, `zone_reset_frequency`, `read_beyond_wp`.
    pub capacity: u64,
    pub max_open: u32,
    pub job_max_open: u32,
    pub reset_threshold: f64,
    pub reset_frequency: f64,
    pub read_beyond_wp: bool,
    /// Values given in zones (`4z`, fio's zone suffix), settled once the zone size is known.
    pub counts: Vec<(ZoneField, u64)>,
}

/// An option that takes a count of zones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ZoneField {
    Size,
    IoSize,
    Offset,
    OffsetIncrement,
    Skip,
}
