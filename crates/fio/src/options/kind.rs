//! What kind of value an option takes: how it is shown in help and named in errors.

use super::choice::Choice;
use super::names::{RW_MODES, SUPPORTED_ENGINES};
use crate::values::TimeUnit;
use iomark_engine::job::JobSpec;

/// The value an option takes.
#[derive(Clone, Copy, Debug)]
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
    /// One of a fixed set of words, each standing for a typed value of the job model.
    Enum(&'static dyn Choice<JobSpec>),
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
    /// The words of an enumerated option.
    pub fn words(self) -> Option<Vec<&'static str>> {
        match self {
            OptKind::Enum(c) => Some(c.words()),
            _ => None,
        }
    }

    /// The unit of a bare number, for time options.
    pub fn time_unit(self) -> Option<TimeUnit> {
        match self {
            OptKind::Time(u) | OptKind::TimeRange(u) => Some(u),
            _ => None,
        }
    }

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
            OptKind::Enum(v) => format!("one of: {}", v.words().join(", ")),
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
            OptKind::Enum(v) => format!("one of {}", v.words().join(", ")),
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
