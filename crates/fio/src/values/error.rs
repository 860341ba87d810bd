//! Why a value did not parse: each variant carries the facts (the value or the part of it at
//! fault, the limit it broke) and words them naming the accepted form, so the caller only has to
//! prefix the option name and the value.

use super::TimeUnit;
use iomark_output::echo::quote;
use thiserror::Error;

/// The forms a value may take, as the messages name them ("expected ...").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    Size,
    Integer,
    /// A time; a bare number is in this unit.
    Time(TimeUnit),
    Decimal,
    /// A single size where a range was also possible.
    SizeOrRange,
    Bssplit,
    FloatList,
    CpuList,
    Pattern,
    Distribution,
}

/// The accepted size form, as help and messages show it.
pub const SIZE_FORM: &str =
    "a size such as 4096, 4k, 1m, 16g, 0x1000 or (2*4k) (k/m/g/t/p suffixes; kb_base sets their base)";

impl std::fmt::Display for Form {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Form::Size => write!(f, "expected {SIZE_FORM}"),
            Form::Integer => f.write_str("expected an integer such as 8, 1k or 0x10"),
            Form::Time(unit) => write!(
                f,
                "expected a time such as 30 (in {}), 500ms, 10s, 2m, 1h (suffixes d h m s ms us)",
                unit.name()
            ),
            Form::Decimal => f.write_str("expected a decimal number such as 1.5"),
            Form::SizeOrRange => f.write_str("or a range such as 4k-64k"),
            Form::Bssplit => {
                f.write_str("expected size/percent entries separated by ':', e.g. 4k/10:64k/90")
            }
            Form::FloatList => f.write_str("expected ':'-separated numbers such as 99:99.9"),
            Form::CpuList => f.write_str("expected CPU numbers and ranges such as 0,5,8-15"),
            Form::Pattern => f.write_str(
                "expected 0xHEX, \"text\", 'file', %o or a decimal number, or a sequence of these",
            ),
            Form::Distribution => f.write_str("expected random, zipf:THETA[:CENTER], pareto:H[:CENTER], normal:SIGMA%[:CENTER], zoned:ACCESS%/REGION%:... or zoned_abs:ACCESS%/SIZE:..."),
        }
    }
}

/// What a suffix was meant to scale.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quantity {
    Size,
    Time,
}

impl std::fmt::Display for Quantity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Quantity::Size => "size",
            Quantity::Time => "time",
        })
    }
}

/// A value (or part of one) that does not parse.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum ValueError {
    /// An error followed by the form the value should take.
    #[error("{error}; {form}")]
    Expected { error: Box<ValueError>, form: Form },
    /// An error in one entry of a list (`4k/x` in a `bssplit`).
    #[error("{q}: {error}", q = quote(.item))]
    Item {
        item: String,
        error: Box<ValueError>,
    },
    /// An error in one zone of `zoned:`.
    #[error("zone {q}: {error}", q = quote(.zone))]
    Zone {
        zone: String,
        error: Box<ValueError>,
    },

    #[error("empty value")]
    Empty,
    #[error("{q} is not a number", q = quote(.0))]
    NotANumber(String),
    #[error("{q}: {reason}", q = quote(.value))]
    HexOverflow { value: String, reason: String },
    #[error("unknown {quantity} suffix {q}", q = quote(.suffix))]
    UnknownSuffix { quantity: Quantity, suffix: String },
    #[error("negative size; {}", Form::Size)]
    NegativeSize,
    #[error("{q} is too large: the largest size is 2^64-1 bytes (16 EiB)", q = quote(.0))]
    SizeTooLarge(String),
    #[error("{q} is not a whole number", q = quote(.0))]
    NotWhole(String),
    #[error("{q} is too large: integers run from -2^63 to 2^63-1", q = quote(.0))]
    IntTooLarge(String),
    #[error("{q} is negative; expected a number >= 0", q = quote(.0))]
    Negative(String),
    #[error("{q}: expected a percentage such as 50% or {SIZE_FORM}", q = quote(.0))]
    NotAPercentage(String),
    #[error("{q}: a percentage must be between 0% and 100%", q = quote(.0))]
    PercentOutOfRange(String),
    #[error("{q}: a time cannot be negative", q = quote(.0))]
    NegativeTime(String),
    #[error("{q} is not a boolean; expected 0 or 1 (or true/false, yes/no, on/off)", q = quote(.0))]
    NotABoolean(String),
    #[error("{q} has more than three comma-separated entries; expected read[,write[,trim]]", q = quote(.0))]
    TooManyDirections(String),

    #[error("empty entry in {q}; {}", Form::Bssplit, q = quote(.0))]
    EmptyEntry(String),
    #[error("{q}: block size 0; {}", Form::Bssplit, q = quote(.0))]
    ZeroBlockSize(String),
    #[error("{q_item}: {q_pct} is not a whole percentage; {}", Form::Bssplit, q_item = quote(.item), q_pct = quote(.pct))]
    NotAWholePercentage { item: String, pct: String },
    #[error("{q}: expected block size/percentage or block size/percentage/class/level", q = quote(.0))]
    PrioSplitForm(String),
    #[error("{q} has more than 64 entries", q = quote(.0))]
    TooManyEntries(String),
    #[error("percentages in {q} add up to {given}%, more than 100%", q = quote(.value))]
    SplitOver100 { value: String, given: u32 },
    #[error("percentages in {q} add up to {given}%, they must add up to 100%", q = quote(.value))]
    SplitNot100 { value: String, given: u32 },

    #[error("{q} is outside (0, 100]", q = quote(.0))]
    NotAPercentile(String),
    #[error("empty list; {}", Form::FloatList)]
    EmptyList,
    #[error("{given} values given, at most {max} allowed")]
    TooManyValues { given: usize, max: usize },

    #[error("{q} is not a CPU number; {}", Form::CpuList, q = quote(.0))]
    NotACpu(String),
    #[error("{q}: range start above its end; {}", Form::CpuList, q = quote(.0))]
    CpuRangeReversed(String),
    #[error("{q}: range too large", q = quote(.0))]
    CpuRangeTooLarge(String),
    #[error("empty CPU list; {}", Form::CpuList)]
    EmptyCpuList,

    #[error("{q}: %o (the I/O's offset) is read in verify_pattern only; fio 3.33 refuses formats in buffer_pattern too", q = quote(.0))]
    OffsetInPattern(String),
    #[error("unterminated {what} in {q}; {}", Form::Pattern, q = quote(.value))]
    Unterminated { what: &'static str, value: String },
    #[error("cannot read the pattern file {q}: {reason}", q = quote(.path))]
    PatternFile { path: String, reason: String },
    #[error("{q}: empty hex number; {}", Form::Pattern, q = quote(.0))]
    EmptyHex(String),
    #[error("unexpected {q_c} in {q}; {}", Form::Pattern, q_c = quote(.found), q = quote(.value))]
    UnexpectedInPattern { found: String, value: String },
    #[error("empty pattern; {}", Form::Pattern)]
    EmptyPattern,
    #[error("the pattern is {0} bytes long; at most {max}", max = super::MAX_PATTERN)]
    PatternTooLong(usize),

    #[error("{q} needs a value; {}", Form::Distribution, q = quote(.0))]
    NeedsParameter(String),
    #[error("center {0} is outside [0, 1]")]
    Center(f64),
    #[error("zipf theta {0}: must be above 0 and not 1")]
    ZipfTheta(f64),
    #[error("pareto h {0}: must be between 0 and 1")]
    ParetoH(f64),
    #[error("normal sigma {0}%: must be between 0 and 100")]
    NormalSigma(f64),
    #[error("{q} needs zones; {}", Form::Distribution, q = quote(.0))]
    NeedsZones(String),
    #[error("{q} is not a distribution; {}", Form::Distribution, q = quote(.0))]
    NotADistribution(String),
    #[error("{q}: at most three lists (read,write,trim)", q = quote(.0))]
    TooManyZoneLists(String),
    #[error("zone percentages add up to more than 100% (access {access}%, region {region}%)")]
    ZonesOver100 { access: u64, region: u64 },
    #[error("zone access percentages add up to {0}%, they must add up to 100%")]
    ZoneAccessNot100(u64),

    #[error("unknown skip type {0:?}; expected read, write, trim or sync, comma separated")]
    SkipType(String),

    #[error("unexpected {q_rest} in expression {q}", q_rest = quote(.rest), q = quote(.expr))]
    ExprTrailing { rest: String, expr: String },
    #[error("expression {q} does not give a finite number", q = quote(.0))]
    ExprNotFinite(String),
    #[error("expression nested more than {max} levels deep in {q}", q = quote(.expr))]
    ExprTooDeep { max: u32, expr: String },
    #[error("division by zero in {q}", q = quote(.0))]
    DivisionByZero(String),
    #[error("missing ')' in {q}", q = quote(.0))]
    MissingParen(String),
    #[error("expected a number in {q}", q = quote(.0))]
    ExprNeedsNumber(String),
}

impl ValueError {
    /// This error followed by the form the value should take.
    pub fn expected(self, form: Form) -> ValueError {
        ValueError::Expected {
            error: Box::new(self),
            form,
        }
    }
    /// This error, in the zone `zone` of a `zoned:` distribution.
    pub fn in_zone(self, zone: &str) -> ValueError {
        ValueError::Zone {
            zone: zone.to_string(),
            error: Box::new(self),
        }
    }
    /// This error, in the list entry `item`.
    pub fn in_item(self, item: &str) -> ValueError {
        ValueError::Item {
            item: item.to_string(),
            error: Box::new(self),
        }
    }
}
