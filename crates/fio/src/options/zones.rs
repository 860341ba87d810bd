//! The zone options of a job as given (`zonemode`, `zonesize`, `zonerange`, `zoneskip`), before
//! the job is built with fio's rules for them.

/// The zone options as given.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ZoneOpts {
    /// `zonemode` as given (None = fio's default, none).
    pub mode: Option<String>,
    pub size: u64,
    pub range: u64,
    pub skip: u64,
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
