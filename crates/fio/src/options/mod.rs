//! The one option table: every fio option iomark knows, defined once. The command-line parser,
//! the job-file reader, `--help`, `--cmdhelp`, the man page, validation messages and "did you
//! mean" suggestions all read it, and each row carries the setter that applies its value to the
//! job model, so that adding an option is one row, one model field and the behaviour.

mod apply;
mod choice;
mod errors;
mod kind;
mod names;
mod numa;
mod prio_setters;
mod setters;
mod table;
mod words;
mod zones;

pub use apply::{set_per_dir, Ctx, OptionError, Pending, Reason, SetFn, Setter};
pub use choice::{did_you_mean, or_list, Choice, Choices, Words};
pub use kind::OptKind;
pub use names::{NOT_YET_ENGINES, RW_MODES, SUPPORTED_ENGINES};
pub use setters::VERIFY_METHODS;
pub use table::OPTIONS;
pub use words::{name_template, verify_kind};
pub use zones::{ZoneField, ZoneOpts};

use iomark_engine::engines::EngineOption;

/// Which layer reads the option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layer {
    /// The job model (workload, files, timing, stats).
    Job,
    /// I/O-engine-specific options.
    Engine,
    /// Output formatting.
    Output,
    /// Run-wide behaviour.
    Run,
}

/// Whether iomark implements the option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Support {
    Supported,
    /// Accepted with a warning: it tunes fio internals and has no effect in iomark.
    Ignored(&'static str),
    /// A real fio option that changes what is measured; iomark rejects it for now (unless it is
    /// given its default value, which is then a no-op).
    NotYet(&'static str),
}

#[derive(Clone, Copy, Debug)]
pub struct OptDef {
    pub name: &'static str,
    pub aliases: &'static [&'static str],
    pub kind: OptKind,
    /// fio's default as text ("" if none).
    pub default: &'static str,
    pub help: &'static str,
    pub category: &'static str,
    pub layer: Layer,
    pub support: Support,
    /// For engine options: the engines that define them. For the options the engines
    /// implement, the engines' own declarations (`OptDef::reads`).
    pub engines: &'static [&'static str],
    /// The engine option the row sets, as the engines declare it (None for the others).
    pub engine_option: Option<EngineOption>,
    /// Engines fio defines the option for that do not apply it in iomark: accepted there (a
    /// fio job runs unchanged), with a warning that it has no effect.
    pub inert_with: &'static [&'static str],
    /// How the value reaches the job model.
    pub set: Setter,
}

/// A row: an option that is checked against its kind; `.set()` gives it a setter. An enumerated
/// option's words carry their values and setter (see [`Choices`]).
const fn o(
    name: &'static str,
    kind: OptKind,
    default: &'static str,
    category: &'static str,
    help: &'static str,
) -> OptDef {
    OptDef {
        name,
        aliases: &[],
        kind,
        default,
        help,
        category,
        layer: Layer::Job,
        support: Support::Supported,
        engines: &[],
        engine_option: None,
        inert_with: &[],
        set: match kind {
            OptKind::Enum(_) => Setter::Choice,
            _ => Setter::Check,
        },
    }
}

impl OptDef {
    const fn al(mut self, aliases: &'static [&'static str]) -> Self {
        self.aliases = aliases;
        self
    }
    const fn layer(mut self, layer: Layer) -> Self {
        self.layer = layer;
        self
    }
    const fn ign(mut self, why: &'static str) -> Self {
        self.support = Support::Ignored(why);
        self
    }
    const fn ny(mut self, why: &'static str) -> Self {
        self.support = Support::NotYet(why);
        self
    }
    /// The setter that stores the value.
    const fn set(mut self, f: SetFn) -> Self {
        self.set = Setter::Set(f);
        self
    }
    /// A setter applied before the job's other options (see [`Setter::First`]).
    const fn first(mut self, f: SetFn) -> Self {
        self.set = Setter::First(f);
        self
    }
    const fn eng(mut self, engines: &'static [&'static str]) -> Self {
        self.engines = engines;
        self.layer = Layer::Engine;
        self
    }
    /// An option the engines implement: its owners are the engines that declare `opt`.
    const fn reads(mut self, opt: EngineOption) -> Self {
        self.engine_option = Some(opt);
        self.eng(iomark_engine::engines::reader_list(opt))
    }
    /// Engines fio defines the option for, where iomark accepts it without effect.
    const fn inert_with(mut self, engines: &'static [&'static str]) -> Self {
        self.inert_with = engines;
        self
    }

    pub fn is_supported(&self) -> bool {
        self.support == Support::Supported
    }
    pub fn is_engine_option(&self) -> bool {
        !self.engines.is_empty()
    }
}

/// Normalise an option name: lower case, `-` and `_` equivalent.
fn norm(s: &str) -> String {
    s.trim().to_ascii_lowercase().replace('-', "_")
}

/// Find an option by name or alias (`-`/`_` and case do not matter).
pub fn lookup(name: &str) -> Option<&'static OptDef> {
    let n = name.trim();
    OPTIONS
        .iter()
        .find(|d| same_name(n, d.name) || d.aliases.iter().any(|a| same_name(n, a)))
}

/// `a == b` ignoring ASCII case and `-` versus `_`, without allocating.
fn same_name(a: &str, b: &str) -> bool {
    let fold = |c: u8| match c {
        b'-' => b'_',
        c => c.to_ascii_lowercase(),
    };
    a.len() == b.len() && a.bytes().zip(b.bytes()).all(|(x, y)| fold(x) == fold(y))
}

/// Every spelling (names and aliases).
pub fn all_spellings() -> impl Iterator<Item = &'static str> {
    OPTIONS
        .iter()
        .flat_map(|d| std::iter::once(d.name).chain(d.aliases.iter().copied()))
}

/// Edit distance (with adjacent transpositions counting as one edit).
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let (n, m) = (a.len(), b.len());
    let mut d = vec![vec![0usize; m + 1]; n + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=n {
        for j in 1..=m {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = v;
        }
    }
    d[n][m]
}

/// The closest candidate within a distance that still looks like a typo.
pub fn nearest<'a>(name: &str, candidates: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let n = norm(name);
    let len = n.chars().count();
    let limit = match len {
        0..=3 => 1,
        4..=8 => 2,
        _ => 3,
    };
    candidates
        // The length difference bounds the edit distance from below: skipping far lengths
        // keeps a hostile 100 000-character name from costing seconds per candidate.
        .filter(|c| len.abs_diff(c.chars().count()) <= limit)
        .map(|c| (edit_distance(&n, &norm(c)), c))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// Nearest option name or alias, for "did you mean" messages.
pub fn suggest(name: &str) -> Option<&'static str> {
    nearest(name, all_spellings())
}

/// Whether `value` is the option's default (so a not-yet-supported option is a no-op).
pub fn is_default_value(def: &OptDef, value: &str) -> bool {
    let v = value.trim();
    let d = def.default;
    if v.eq_ignore_ascii_case(d) {
        return true;
    }
    match def.kind {
        OptKind::Bool | OptKind::Flag => {
            let dv = crate::values::parse_bool(if d.is_empty() { "0" } else { d });
            let vv = if v.is_empty() {
                Ok(true)
            } else {
                crate::values::parse_bool(v)
            };
            matches!((dv, vv), (Ok(a), Ok(b)) if a == b)
        }
        OptKind::Str | OptKind::Enum(_) if d == "0" || d == "none" => {
            matches!(v.to_ascii_lowercase().as_str(), "0" | "none" | "off")
        }
        OptKind::Int | OptKind::Size | OptKind::Float | OptKind::Time(_) => {
            let dn = if d.is_empty() { "0" } else { d };
            match (v.parse::<f64>(), dn.parse::<f64>()) {
                (Ok(a), Ok(b)) => a == b,
                _ => false,
            }
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn table_has_no_duplicate_spellings() {
        let mut seen = HashSet::new();
        for s in all_spellings() {
            assert!(seen.insert(norm(s)), "duplicate option spelling {s}");
        }
    }

    #[test]
    fn table_entries_are_complete() {
        for d in OPTIONS {
            assert!(!d.help.is_empty(), "{} has no help", d.name);
            assert!(!d.category.is_empty(), "{} has no category", d.name);
            if let Some(v) = d.kind.words() {
                if !d.default.is_empty() {
                    assert!(
                        v.contains(&d.default),
                        "{} default not in its values",
                        d.name
                    );
                }
            }
        }
    }

    #[test]
    fn lookup_accepts_aliases_and_spellings() {
        assert_eq!(lookup("bs").unwrap().name, "bs");
        assert_eq!(lookup("blocksize").unwrap().name, "bs");
        assert_eq!(lookup("readwrite").unwrap().name, "rw");
        assert_eq!(lookup("timeout").unwrap().name, "runtime");
        assert_eq!(lookup("io-size").unwrap().name, "io_size");
        assert_eq!(lookup("hugepage_size").unwrap().name, "hugepage-size");
        assert_eq!(lookup("wait_for_previous").unwrap().name, "stonewall");
        assert_eq!(
            lookup("iodepth_batch_submit").unwrap().name,
            "iodepth_batch"
        );
        assert!(lookup("blocksiz").is_none());
    }

    #[test]
    fn suggestions() {
        assert_eq!(suggest("blocksiz"), Some("blocksize"));
        assert_eq!(suggest("iodepht"), Some("iodepth"));
        assert_eq!(suggest("runtim"), Some("runtime"));
        assert_eq!(suggest("time-base"), Some("time_based"));
        assert_eq!(suggest("completely_unrelated_words"), None);
    }

    #[test]
    fn supported_engines_match_the_engine_model() {
        for e in SUPPORTED_ENGINES {
            assert!(
                iomark_engine::job::EngineKind::from_name(e).is_some(),
                "{e}"
            );
        }
        assert_eq!(
            SUPPORTED_ENGINES.len(),
            iomark_engine::job::EngineKind::ALL.len()
        );
    }

    #[test]
    fn defaults_count_as_no_ops() {
        let v = lookup("verify").unwrap();
        assert!(is_default_value(v, "0"));
        assert!(is_default_value(v, "none"));
        assert!(!is_default_value(v, "md5"));
        let z = lookup("zonemode").unwrap();
        assert!(is_default_value(z, "none"));
        assert!(!is_default_value(z, "zbd"));
        let d = lookup("do_verify").unwrap();
        assert!(is_default_value(d, "1"));
        assert!(!is_default_value(d, "0"));
        let f = lookup("fill_device").unwrap();
        assert!(is_default_value(f, "0"));
        assert!(!is_default_value(f, "1"));
    }
}
