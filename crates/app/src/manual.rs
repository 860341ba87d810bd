//! `iomark man [COMMAND]`: the manual pages, `iomark(1)` and one page per command
//! (`iomark-run(1)`, `iomark-iozone(1)`, ...), made from the command table and from each
//! command's help, the text its parser prints for `--help` (for `run`, the switch and option
//! tables themselves).

use crate::command::Command;
use iomark_fio::doc::{man_sections, roff_escape};
use std::fmt::Write;

pub const USAGE: &str = "Usage: iomark man [COMMAND]
       iomark man --list

Prints a manual page (roff) on stdout: iomark(1) without COMMAND, else the command's own page,
iomark-COMMAND(1), made from the same tables as the command's parser. Read one with
`iomark man run | man -l -`. --list names every command that has a page.
";

/// The page of the original tool a command stands in for, for SEE ALSO.
const ORIGINALS: &[(&str, &str)] = &[
    ("run", "fio (1)"),
    ("sweep", "fio (1)"),
    ("dd", "dd (1)"),
    ("hdparm", "hdparm (8)"),
    ("bonnie", "bonnie++ (8)"),
    ("iozone", "iozone (1)"),
    ("blogbench", "blogbench (8)"),
    ("rbd-bench", "rbd (8)"),
    ("rados-bench", "rados (8)"),
];

fn head(s: &mut String, title: &str) {
    let _ = writeln!(
        s,
        ".TH {} 1 \"\" \"iomark {}\" \"User Commands\"",
        title.to_uppercase().replace('-', "\\-"),
        iomark_engine::VERSION
    );
}

/// Lines of text kept as they are (aligned columns), escaped for roff.
fn verbatim(s: &mut String, text: &str) {
    s.push_str(".nf\n");
    for line in text.lines() {
        let _ = writeln!(s, "{}", roff_escape(line));
    }
    s.push_str(".fi\n");
}

/// A help text's usage lines (up to the first blank line, "Usage: " dropped) and the rest.
fn split_help(help: &str) -> (String, String) {
    let (usage, rest) = help.split_once("\n\n").unwrap_or((help, ""));
    let usage: Vec<&str> = usage
        .lines()
        .map(|l| {
            let l = l.trim_start();
            l.strip_prefix("Usage: ")
                .or_else(|| l.strip_prefix("usage: "))
                .unwrap_or(l)
        })
        .collect();
    (usage.join("\n"), rest.trim_end().to_string())
}

fn see_also(s: &mut String, name: &str) {
    s.push_str(".SH SEE ALSO\n.BR iomark (1)");
    if let Some((_, page)) = ORIGINALS.iter().find(|(n, _)| *n == name) {
        let _ = write!(s, ",\n.BR {page}");
    }
    s.push('\n');
}

/// `iomark-NAME(1)`.
pub fn page(c: &Command) -> String {
    let mut s = String::new();
    head(&mut s, &format!("iomark-{}", c.name));
    let _ = writeln!(
        s,
        ".SH NAME\niomark\\-{} \\- {}",
        roff_escape(c.name),
        c.summary
    );
    let help = (c.help)();
    let (usage, rest) = split_help(&help);
    s.push_str(".SH SYNOPSIS\n");
    verbatim(&mut s, &usage);
    s.push_str(".SH DESCRIPTION\n");
    if !c.aliases.is_empty() {
        let _ = writeln!(
            s,
            "Also called \\fBiomark {}\\fR.\n.PP",
            roff_escape(&c.aliases.join(", "))
        );
    }
    if c.name == "run" {
        // The switches and options come from their tables, with every option's details.
        let intro = rest.split("\nSwitches:").next().unwrap_or("");
        verbatim(&mut s, intro);
        s.push_str(&man_sections());
    } else {
        verbatim(&mut s, &rest);
    }
    exit_status(&mut s);
    see_also(&mut s, c.name);
    s
}

/// `iomark(1)`: every command with its summary, the switches every command takes, the exit
/// statuses and the environment.
pub fn overview(table: &[Command]) -> String {
    let mut s = String::new();
    head(&mut s, "iomark");
    s.push_str(".SH NAME\niomark \\- measure storage: fio jobs, the classic benchmark tools, reports and comparisons\n");
    s.push_str(".SH SYNOPSIS\n.nf\n");
    for c in table {
        let (usage, _) = split_help(&(c.help)());
        for line in usage.lines() {
            let _ = writeln!(s, "{}", roff_escape(line));
        }
    }
    s.push_str(".fi\n.SH DESCRIPTION\niomark runs fio command lines and job files unchanged and writes fio's outputs; it also takes the command lines of iozone, bonnie++, blogbench, dd, hdparm, rbd bench, rados bench and Iometer, runs ready\\-made benchmarks, and draws reports, comparisons and trends from the runs it keeps. Each command has its own page, \\fBiomark man\\fR \\fICOMMAND\\fR.\n");
    s.push_str(".SH COMMANDS\n");
    for c in table {
        let _ = writeln!(
            s,
            ".TP\n.BR iomark\\-{} (1)\n{}",
            roff_escape(c.name),
            c.summary
        );
    }
    s.push_str(".SH SWITCHES OF EVERY RUN\n");
    for (sw, help) in crate::session::record::SWITCHES
        .iter()
        .chain(&crate::cluster::args::SWITCHES)
        .chain(&crate::progress::steps::SWITCHES)
    {
        let (arg, help) = match help.strip_prefix('=') {
            Some(h) => h.split_once(": ").unwrap_or(("VALUE", h)),
            None => ("", *help),
        };
        let arg = if arg.is_empty() {
            String::new()
        } else {
            format!("=\\fI{arg}\\fR")
        };
        let _ = writeln!(
            s,
            ".TP\n\\fB{}\\fR{arg}\n{}",
            roff_escape(sw),
            roff_escape(help)
        );
    }
    exit_status(&mut s);
    s.push_str(".SH ENVIRONMENT\n.TP\n.B IOMARK_STORE\nThe result store, a file or a postgres:// URL (default \\fB$XDG_DATA_HOME/iomark/results.db\\fR, else \\fB~/.local/share/iomark/results.db\\fR).\n.TP\n.B CEPH_CONF\nThe Ceph configuration the rbd and rados engines read.\n");
    s.push_str(".SH SEE ALSO\n");
    let pages: Vec<String> = table
        .iter()
        .map(|c| format!(".BR iomark\\-{} (1)", roff_escape(c.name)))
        .collect();
    let _ = writeln!(s, "{},\n.BR fio (1)", pages.join(",\n"));
    s
}

/// `iomark man ARGS`: prints a page, the list or the help; returns the exit status.
pub fn main(args: &[String], table: &[Command]) -> i32 {
    let print = crate::session::pipe::print_text;
    match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        [] => print(&overview(table)),
        ["-h" | "--help"] => print(USAGE),
        ["--list"] => {
            let names: Vec<&str> = table.iter().map(|c| c.name).collect();
            print(&names.join("\n"))
        }
        [word] if !word.starts_with('-') => match table.iter().find(|c| c.is(word)) {
            Some(c) => print(&page(c)),
            None => {
                let names: Vec<&str> = table.iter().map(|c| c.name).collect();
                eprintln!(
                    "iomark man: no command {} (commands: {})",
                    iomark_output::echo::quote(word),
                    names.join(", ")
                );
                2
            }
        },
        _ => {
            eprintln!("iomark man: give one command, or nothing for iomark(1)\n\n{USAGE}");
            2
        }
    }
}

/// The EXIT STATUS section, the same on every page.
fn exit_status(s: &mut String) {
    let _ = writeln!(s, ".SH EXIT STATUS\n{}", crate::session::exit::MANUAL);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::commands::COMMANDS;

    /// Every command has a page with its own synopsis and text, and the overview names them.
    #[test]
    fn every_command_has_a_page_from_its_help() {
        let all = overview(COMMANDS);
        assert!(all.starts_with(".TH IOMARK 1"));
        for c in COMMANDS {
            let p = page(c);
            let title = format!(
                ".TH IOMARK\\-{} 1",
                c.name.to_uppercase().replace('-', "\\-")
            );
            assert!(p.starts_with(&title), "{}: {}", c.name, &p[..60]);
            for sec in [
                ".SH NAME",
                ".SH SYNOPSIS",
                ".SH DESCRIPTION",
                ".SH SEE ALSO",
            ] {
                assert!(p.contains(sec), "{} lacks {sec}", c.name);
            }
            assert!(
                p.contains(&format!("iomark {}", roff_escape(c.name))),
                "{}: its synopsis",
                c.name
            );
            assert!(p.lines().all(|l| !l.starts_with('\'')), "{}", c.name);
            assert!(all.contains(&format!(".BR iomark\\-{} (1)", roff_escape(c.name))));
        }
        let run = page(COMMANDS.iter().find(|c| c.name == "run").unwrap());
        assert!(run.contains(".SH OPTIONS") && run.contains("\\fB\\-\\-rwmixread=N\\fR"));
        let iozone = page(COMMANDS.iter().find(|c| c.name == "iozone").unwrap());
        for (flag, meaning) in [("\\-a", "auto mode"), ("\\-+u", "CPU")] {
            assert!(iozone.contains(flag) && iozone.contains(meaning), "{flag}");
        }
        assert!(iozone.contains(".BR iozone (1)"));
        let bonnie = page(COMMANDS.iter().find(|c| c.name == "bonnie").unwrap());
        assert!(bonnie.contains("iomark bonnie++"));
        assert!(
            all.contains("\\fB\\-\\-store\\fR=\\fIPATH|URL\\fR"),
            "{all}"
        );
    }
}
