//! How an option's value reaches the job model: the setter each table row carries, the context it
//! runs in, and the errors it reports.

use super::choice::did_you_mean;
use super::OptDef;
use crate::values::{self, TimeUnit, ValueError};
use iomark_engine::job::{Dir, JobSpec, PerDir, SizeSpec, VerifySpec};
use iomark_engine::steady::SteadyMetric;
use std::borrow::Cow;
use std::time::Duration;
use thiserror::Error;

/// How a row's value is applied.
#[derive(Clone, Copy)]
pub enum Setter {
    /// Nothing to store: the value is checked against the row's kind only (ignored and
    /// not-yet-supported options).
    Check,
    /// An enumerated option: the chosen word's value is stored by the row's [`Choice`]
    /// (see `OptKind::Enum`).
    ///
    /// [`Choice`]: super::choice::Choice
    Choice,
    /// Parses the value and stores it.
    Set(SetFn),
    /// Applied before every other option of the job, because it changes how they are read
    /// (`kb_base`); in the job's own order it only checks nothing further.
    First(SetFn),
}

/// A setter: the value as written, into the job model.
pub type SetFn = fn(&mut Ctx<'_>, &str) -> Result<(), OptionError>;

impl std::fmt::Debug for Setter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Setter::Check => "Check",
            Setter::Choice => "Choice",
            Setter::Set(_) => "Set",
            Setter::First(_) => "First",
        })
    }
}

/// What the job's options settle only once all of them are in (read by the job builder).
#[derive(Default)]
pub struct Pending {
    /// `kb_base`: the base of k/m/g in this job's values.
    pub kb_base: u32,
    /// Some `ioengine=` was given.
    pub engine_set: bool,
    /// `bssplit` per direction (it wins over `bs` whatever the order).
    pub bssplit: PerDir<Option<Vec<(u64, u32)>>>,
    pub batch_complete_max_set: bool,
    pub iodepth_low_set: bool,
    /// `randseed` was given: as in fio it turns `randrepeat` off (the streams still derive
    /// from it, but are not seeded again at each loop).
    pub randseed_set: bool,
    /// Engine options given, checked against the final engine.
    pub engine_opts: Vec<&'static OptDef>,
    /// `verify=` as given (canonical fio name, "" for off), None = not given.
    pub verify_method: Option<String>,
    /// Warnings of this job's options (printed as the ignored options' are).
    pub warnings: Vec<String>,
    pub verify: VerifySpec,
    /// `verify_state_save=0` (fio saves by default), `verify_state_load`.
    pub verify_state_no_save: bool,
    pub verify_state_load: bool,
    /// `new_group` was given (starts a reporting group).
    pub new_group: bool,
    /// Index of the option that set `wait_for` (to point at it).
    pub wait_for_at: Option<usize>,
    /// `read_iolog`: the log (or `:`-separated logs) to replay.
    pub read_iolog: Option<String>,
    /// The `replay_*` options.
    pub replay: crate::iolog::ReplayOpts,
    /// `steadystate`: (measure, slope, percent, limit).
    pub steady_crit: Option<(SteadyMetric, bool, bool, f64)>,
    pub steady_dur: Duration,
    pub steady_ramp: Duration,
    /// `zonemode`, `zonesize`, `zonerange`, `zoneskip`.
    pub zones: super::ZoneOpts,
    /// `log_compression` (bytes, 0 = not given) and `log_store_compressed`.
    pub log_compression: u64,
    pub log_store_compressed: bool,
}

impl Pending {
    pub fn new(kb_base: u32) -> Pending {
        Pending {
            kb_base,
            ..Pending::default()
        }
    }
}

/// Where a setter runs: the job model, what is settled later, and the option at hand.
pub struct Ctx<'a> {
    pub spec: &'a mut JobSpec,
    pub pending: &'a mut Pending,
    pub def: &'static OptDef,
    /// Index of the option among the job's inherited-then-own options.
    pub index: usize,
    /// The option comes from `--override` (it replaces where fio's own options add up).
    pub overriding: bool,
}

/// Why a value is not one an option (or a switch) accepts.
#[derive(Clone, Debug, Error, PartialEq)]
pub enum Reason {
    /// The value does not parse as the option's kind of value.
    #[error(transparent)]
    Value(#[from] ValueError),
    /// The value parses, but the option accepts only what these words say
    /// (`expected 1024 or 1000`).
    #[error("{0}")]
    Rule(Cow<'static, str>),
}

impl From<&'static str> for Reason {
    fn from(s: &'static str) -> Reason {
        Reason::Rule(Cow::Borrowed(s))
    }
}

impl From<String> for Reason {
    fn from(s: String) -> Reason {
        Reason::Rule(Cow::Owned(s))
    }
}

/// Why an option's value was refused. The messages are the ones users see.
#[derive(Clone, Debug, Error, PartialEq)]
pub enum OptionError {
    #[error("invalid value {q_value} for option '{option}': {reason}", q_value = iomark_output::echo::quote(.value))]
    Invalid {
        option: &'static str,
        value: String,
        reason: Reason,
    },
    /// A real fio option or value iomark does not implement yet.
    #[error("option {q_shown} is not supported yet: {why}", q_shown = iomark_output::echo::quote(.shown))]
    NotYet { shown: String, why: String },
    #[error("option '{0}' needs a value")]
    NeedsValue(&'static str),
    #[error("{0} must be at least 1")]
    AtLeastOne(&'static str),
    #[error("ioengine={name} is not supported by iomark yet: {why} (supported: {supported})")]
    EngineNotYet {
        name: String,
        why: &'static str,
        supported: String,
    },
    #[error("option '{option}' must come after ioengine={engine} (engine options are defined by their engine)")]
    EngineAfter {
        option: &'static str,
        engine: String,
    },
    #[error("option '{option}' belongs to ioengine {owners}; give ioengine= before it")]
    EngineFirst {
        option: &'static str,
        owners: String,
    },
    #[error("option '{option}' belongs to ioengine {owners}, not ioengine={engine}")]
    EngineOther {
        option: &'static str,
        owners: String,
        engine: &'static str,
    },
}

impl Ctx<'_> {
    pub fn kb(&self) -> u32 {
        self.pending.kb_base
    }

    /// `invalid value 'v' for option 'name': why`.
    pub fn invalid(&self, v: &str, why: impl Into<Reason>) -> OptionError {
        OptionError::Invalid {
            option: self.def.name,
            value: v.to_string(),
            reason: why.into(),
        }
    }

    /// `option 'name=v' is not supported yet: why`.
    pub fn not_yet(&self, v: &str, why: impl Into<String>) -> OptionError {
        OptionError::NotYet {
            shown: format!("{}={v}", self.def.name),
            why: why.into(),
        }
    }

    pub fn size(&self, v: &str) -> Result<u64, OptionError> {
        values::parse_size(v, self.kb()).map_err(|e| self.invalid(v, e))
    }
    pub fn size_pct(&self, v: &str) -> Result<SizeSpec, OptionError> {
        values::parse_size_or_percent(v, self.kb()).map_err(|e| self.invalid(v, e))
    }
    pub fn uint(&self, v: &str) -> Result<u64, OptionError> {
        values::parse_uint(v, self.kb()).map_err(|e| self.invalid(v, e))
    }
    pub fn u32(&self, v: &str) -> Result<u32, OptionError> {
        let n = self.uint(v)?;
        u32::try_from(n).map_err(|_| self.invalid(v, "number too large"))
    }
    /// A count that must be at least 1.
    pub fn count(&self, v: &str) -> Result<u32, OptionError> {
        match self.u32(v)? {
            0 => Err(OptionError::AtLeastOne(self.def.name)),
            n => Ok(n),
        }
    }
    pub fn pct(&self, v: &str) -> Result<u32, OptionError> {
        let n = self.u32(v)?;
        if n > 100 {
            return Err(self.invalid(v, "expected a percentage from 0 to 100"));
        }
        Ok(n)
    }
    /// 0/1 (true/false, yes/no, on/off).
    pub fn boolean(&self, v: &str) -> Result<bool, OptionError> {
        values::parse_bool(v).map_err(|e| self.invalid(v, e))
    }
    /// A flag: alone it means true.
    pub fn flag(&self, v: &str) -> Result<bool, OptionError> {
        if v.trim().is_empty() {
            return Ok(true);
        }
        self.boolean(v)
    }
    /// A duration; a bare number is in the row's unit.
    pub fn time(&self, v: &str) -> Result<Duration, OptionError> {
        let unit = self.def.kind.time_unit().unwrap_or(TimeUnit::S);
        values::parse_time(v, unit).map_err(|e| self.invalid(v, e))
    }
    /// One of the row's words (lower case), with a suggestion when it is none of them.
    pub fn word(&self, v: &str) -> Result<String, OptionError> {
        let lv = v.trim().to_ascii_lowercase();
        let Some(allowed) = self.def.kind.words() else {
            return Ok(lv);
        };
        if allowed.contains(&lv.as_str()) {
            return Ok(lv);
        }
        Err(self.invalid(
            v,
            format!(
                "expected one of {}{}",
                allowed.join(", "),
                did_you_mean(&lv, &allowed)
            ),
        ))
    }
    /// Per-direction values: each given direction replaces the job's.
    pub fn per_dir<T, E: Into<Reason>>(
        &self,
        v: &str,
        one: impl Fn(&str) -> Result<T, E>,
    ) -> Result<PerDir<Option<T>>, OptionError> {
        values::parse_per_dir(v, |s| one(s).map_err(Into::<Reason>::into))
            .map_err(|e| self.invalid(v, e))
    }
}

/// Each direction given in `src` replaces the one in `dst`.
pub fn set_per_dir<T: Clone>(dst: &mut PerDir<T>, src: PerDir<Option<T>>) {
    for d in Dir::ALL {
        if let Some(v) = src.get(d) {
            dst[d] = v.clone();
        }
    }
}
