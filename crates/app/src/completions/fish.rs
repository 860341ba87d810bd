//! The fish completion script: one `complete` line per command and option, fish's own
//! conditions choosing by the command word.

use super::Words;
use iomark_output::echo::quote;
use std::fmt::Write;

pub fn script(w: &Words) -> String {
    let mut s = String::from("# fish completion for iomark (iomark completions fish)\n");
    let cmds = w.commands.join(" ");
    let _ = writeln!(
        s,
        "complete -c iomark -n '__fish_use_subcommand' -f -a '{cmds}'"
    );
    for (cmd, flags) in &w.flags {
        // A fio command line without a command word is run's.
        let cond = if *cmd == "run" {
            "__fish_use_subcommand; or __fish_seen_subcommand_from run".to_string()
        } else {
            format!("__fish_seen_subcommand_from {cmd}")
        };
        for f in flags {
            let takes = f.ends_with('=');
            let name = f.trim_end_matches('=');
            let spec = if let Some(long) = name.strip_prefix("--") {
                format!("-l {}", quote(long))
            } else if let Some(short) = name.strip_prefix('-') {
                // fish's -s takes one character; -+u is an old-style option.
                if short.len() == 1 {
                    format!("-s {}", quote(short))
                } else {
                    format!("-o {}", quote(short))
                }
            } else {
                // dd's operands: words of their own.
                let _ = writeln!(s, "complete -c iomark -n '{cond}' -f -a '{name}='");
                continue;
            };
            let vals = w
                .values
                .iter()
                .find(|(o, _)| *o == name.trim_start_matches('-'))
                .map(|(_, v)| format!(" -f -a '{}'", v.join(" ")))
                .unwrap_or_default();
            let r = if takes { " -r" } else { "" };
            let _ = writeln!(s, "complete -c iomark -n '{cond}' {spec}{r}{vals}");
        }
    }
    for (cmd, words) in &w.next {
        let _ = writeln!(
            s,
            "complete -c iomark -n '__fish_seen_subcommand_from {cmd}; and test (count (commandline -opc)) -eq 2' -f -a '{}'",
            words.join(" ")
        );
    }
    let _ = writeln!(
        s,
        "complete -c iomark -n '__fish_seen_subcommand_from preset; and __fish_seen_subcommand_from run show; and test (count (commandline -opc)) -eq 3' -f -a '{}'",
        w.presets.join(" ")
    );
    // Result files and the store's references (`@last`, `@last~N`, the ids of `iomark
    // history`).
    let _ = writeln!(
        s,
        "function __iomark_refs\n    printf '%s\\n' {}\n    iomark history 2>/dev/null | string match -r '^@[0-9]+'\nend",
        super::words::REFERENCES.join(" ")
    );
    let results = w.results.join(" ");
    let any = [w.results.clone(), w.refs_only.clone()].concat().join(" ");
    let _ = writeln!(
        s,
        "complete -c iomark -n '__fish_seen_subcommand_from {results}' -k -a '(__fish_complete_suffix .json)'"
    );
    let _ = writeln!(
        s,
        "complete -c iomark -n '__fish_seen_subcommand_from {any}; and string match -q -- \"@*\" (commandline -ct)' -f -a '(__iomark_refs)'"
    );
    let _ = writeln!(
        s,
        "complete -c iomark -n '__fish_seen_subcommand_from {}' -f -a '(__iomark_refs)'",
        w.refs_only.join(" ")
    );
    s
}
