//! What the completion scripts offer, per command: its options, the values an option takes,
//! the words that follow a command (subcommands, preset names, shells, commands).

use crate::command::Command;
use iomark_fio::options::{OptKind, OPTIONS, RW_MODES, SUPPORTED_ENGINES};
use iomark_fio::switches::{SwitchValue, SWITCHES};

/// Everything a completion script needs, from the tables.
pub struct Words {
    /// Every command word (names and aliases).
    pub commands: Vec<&'static str>,
    /// Per command word: the options it completes (`--opt=` for those taking a value).
    pub flags: Vec<(&'static str, Vec<String>)>,
    /// Per option spelling (without dashes): the values it takes.
    pub values: Vec<(&'static str, Vec<&'static str>)>,
    /// Per command: the words after it (its subcommands, or what it names).
    pub next: Vec<(&'static str, Vec<&'static str>)>,
    /// The preset names, after `preset run` and `preset show`.
    pub presets: Vec<&'static str>,
    /// The commands that take result files (`*.json`) and store references.
    pub results: Vec<&'static str>,
    /// The commands that take store references only.
    pub refs_only: Vec<&'static str>,
}

/// The store references every script offers after `@` (the run ids come from
/// `iomark history` when the completion runs).
pub const REFERENCES: &[&str] = &["@last", "@last~1", "@last~2", "@last~3"];

/// The commands taking result files or store references, and those taking references alone.
const RESULT_COMMANDS: &[&str] = &["compare", "report", "export"];
const REFERENCE_COMMANDS: &[&str] = &["show"];

/// `iomark run`'s words: the switches, every option spelling (`--opt=`) and the switches of
/// every run (store, cluster).
fn run_words() -> Vec<String> {
    let mut w: Vec<String> = SWITCHES
        .iter()
        .filter(|s| s.supported)
        .map(|s| match s.value {
            SwitchValue::None => format!("--{}", s.name),
            _ => format!("--{}=", s.name),
        })
        .collect();
    w.extend(iomark_fio::options::all_spellings().map(|o| format!("--{o}=")));
    w.extend(run_switches());
    w
}

/// The commands whose runs go into the result store (they take its switches).
const RECORDED: &[&str] = &[
    "quick",
    "preset",
    "sweep",
    "rbd-bench",
    "iometer",
    "dd",
    "hdparm",
    "merge",
    "iozone",
    "bonnie",
    "blogbench",
];

/// The switches of the result store.
fn store_switches() -> Vec<String> {
    switch_words(&crate::session::record::SWITCHES)
}

/// The switches every run of `iomark run` takes (the result store's and the cluster's).
fn run_switches() -> Vec<String> {
    [
        switch_words(&crate::cluster::args::SWITCHES),
        store_switches(),
    ]
    .concat()
}

fn switch_words(table: &[(&str, &str)]) -> Vec<String> {
    table
        .iter()
        .map(|(s, help)| {
            if help.starts_with('=') {
                format!("{s}=")
            } else {
                s.to_string()
            }
        })
        .collect()
}

/// One flag written in a help text (`-d`, `-+u`, `--json`, `--size=SIZE`, dd's `if=FILE`),
/// as completed: `--size=` and `if=` keep their `=`.
fn flag(tok: &str) -> Option<String> {
    let tok = tok.trim_end_matches([',', '.', ';']);
    let (name, eq) = match tok.split_once('=') {
        Some((n, _)) => (n, true),
        None => (tok, false),
    };
    let word = |s: &str| {
        !s.is_empty()
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    };
    if let Some(long) = name.strip_prefix("--") {
        let ok = long.starts_with(|c: char| c.is_ascii_lowercase()) && word(long);
        return ok.then(|| format!("--{long}{}", if eq { "=" } else { "" }));
    }
    if let Some(short) = name.strip_prefix('-') {
        let short = short.strip_prefix('+').unwrap_or(short);
        let ok = short.len() == 1 && short.chars().all(|c| c.is_ascii_alphanumeric());
        return ok.then(|| name.to_string());
    }
    let operand = eq && name.chars().all(|c| c.is_ascii_lowercase());
    operand.then(|| format!("{name}="))
}

/// The flags a help text shows: those of its usage lines (up to the first blank line) and
/// those that start a line of its lists. Flags marked as refused are left out.
pub fn help_flags(help: &str) -> Vec<String> {
    let mut out = Vec::new();
    let (usage, rest) = help.split_once("\n\n").unwrap_or((help, ""));
    for tok in usage.split(|c: char| c.is_whitespace() || "[]|()".contains(c)) {
        out.extend(flag(tok));
    }
    for line in rest.lines().filter(|l| !l.contains("[refused")) {
        let indented = line.starts_with("  ");
        for tok in line.split_whitespace() {
            match flag(tok) {
                Some(f) if f.starts_with('-') || indented => out.push(f),
                // Only a line's leading flags (and the placeholder after each) count.
                _ if tok.starts_with(|c: char| c.is_ascii_uppercase() || c == '#') => continue,
                _ => break,
            }
        }
    }
    out
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v.dedup();
    v
}

impl Words {
    pub fn of(table: &[Command]) -> Words {
        let commands: Vec<&'static str> = table
            .iter()
            .flat_map(|c| std::iter::once(c.name).chain(c.aliases.iter().copied()))
            .collect();
        let mut flags = Vec::new();
        for c in table {
            let own = help_flags(&(c.help)());
            let f = match c.name {
                "run" => sorted(run_words()),
                "sweep" => sorted([run_words(), own].concat()),
                n if RECORDED.contains(&n) => sorted([own, store_switches()].concat()),
                _ => sorted(own),
            };
            for w in std::iter::once(c.name).chain(c.aliases.iter().copied()) {
                flags.push((w, f.clone()));
            }
        }
        let mut values = Vec::new();
        for d in OPTIONS {
            let v: Vec<&'static str> = match d.kind {
                OptKind::Rw => RW_MODES.to_vec(),
                OptKind::Engine => SUPPORTED_ENGINES.to_vec(),
                k => match k.words() {
                    Some(w) => w,
                    None => continue,
                },
            };
            for n in std::iter::once(d.name).chain(d.aliases.iter().copied()) {
                values.push((n, v.clone()));
            }
        }
        let names: Vec<&'static str> = table.iter().map(|c| c.name).collect();
        let next = vec![
            ("preset", vec!["list", "show", "run"]),
            ("store", vec!["import", "export", "prune", "path"]),
            ("completions", vec!["bash", "zsh", "fish"]),
            ("man", names.clone()),
        ];
        let presets = iomark_scenarios::preset::PRESETS
            .iter()
            .map(|p| p.name)
            .collect();
        let known = |list: &[&'static str]| -> Vec<&'static str> {
            list.iter().copied().filter(|c| names.contains(c)).collect()
        };
        Words {
            commands,
            flags,
            values,
            results: known(RESULT_COMMANDS),
            refs_only: known(REFERENCE_COMMANDS),
            next,
            presets,
        }
    }

    /// The options of a command word.
    #[cfg(test)]
    pub fn flags_of(&self, cmd: &str) -> &[String] {
        self.flags
            .iter()
            .find(|(c, _)| *c == cmd)
            .map_or(&[], |(_, f)| f.as_slice())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::commands::COMMANDS;

    #[test]
    fn each_command_completes_its_own_options() {
        let w = Words::of(COMMANDS);
        let has = |cmd: &str, f: &str| w.flags_of(cmd).iter().any(|x| x == f);
        assert!(has("run", "--rw=") && has("run", "--output-format="));
        assert!(has("iozone", "-i") && has("iozone", "-+u") && has("iozone", "--json"));
        assert!(!has("iozone", "-A"), "a refused flag");
        assert!(has("bonnie", "-d") && has("bonnie++", "-D") && has("bonnie", "--result-file="));
        assert!(has("dd", "if=") && has("dd", "iflag=") && has("dd", "--result-file="));
        assert!(has("blogbench", "-w") && has("blogbench", "--allow-nonempty"));
        assert!(has("quick", "--allow-write") && has("quick", "--ioengine="));
        assert!(has("sweep", "--rows=") && has("sweep", "--bs="));
        assert!(has("rbd-bench", "--io-type") && has("rados-bench", "--no-cleanup"));
        // fio's options are run's and sweep's, not every command's.
        assert!(!has("iozone", "--rwmixread=") && !has("quick", "--rwmixread="));
        assert!(!has("dd", "-i"), "no flag from the prose");
        let vals = |o: &str| w.values.iter().find(|(n, _)| *n == o).unwrap().1.clone();
        assert!(vals("rw").contains(&"randread") && vals("readwrite").contains(&"randrw"));
        assert!(vals("ioengine").contains(&"io_uring"));
        assert!(w.presets.contains(&"cloud-disk"));
    }

    /// Every command that writes a result file completes the option in both spellings.
    #[test]
    fn the_result_file_option_completes_in_both_spellings() {
        let w = Words::of(COMMANDS);
        let writers = [
            "quick",
            "preset",
            "sweep",
            "iometer",
            "run",
            "merge",
            "dd",
            "hdparm",
            "bonnie",
            "iozone",
            "blogbench",
        ];
        for cmd in writers {
            let f = w.flags_of(cmd);
            for name in ["--result", "--result-file"] {
                let has = f.iter().any(|x| x.trim_end_matches('=') == name);
                assert!(has, "{cmd} {name}: {f:?}");
            }
        }
    }

    #[test]
    fn help_flags_reads_usage_and_lists() {
        let h = "Usage: x [-a] [--b=N] [-c X | --dd]\n\nProse with -z inside.\n  -e X      the e\n  --f=Y     the f\n  g=Z       the g\n  -H        nope [refused: why]\n--k=N     at column 0\n";
        assert_eq!(
            help_flags(h),
            vec!["-a", "--b=", "-c", "--dd", "-e", "--f=", "g=", "--k="]
        );
    }
}
