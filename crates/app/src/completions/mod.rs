//! `iomark completions bash|zsh|fish`: shell completion scripts made from the same tables the
//! parsers read. Each command completes its own options ([`words`]): `run` and `sweep` fio's
//! options and switches, the others the flags of their help (which, for iozone, blogbench and
//! dd, comes from their flag tables); option values come from the option table (`--rw=`,
//! `--ioengine=`), preset names after `preset run|show`, result files and store references
//! (`@last`, `@last~N`, the ids of `iomark history`) after `compare`, `report`, `export` and
//! `show`.

mod bash;
mod fish;
mod words;
mod zsh;

use crate::command::Command;
pub use words::Words;

pub const USAGE: &str = "Usage: iomark completions bash|zsh|fish

Prints the completion script for the shell, made from iomark's option tables: each command
completes its own options, option values (--rw=, --ioengine=), preset names, and result files
and store references (@last, @last~N, run ids) after compare, report, export and show. Install:
  bash: iomark completions bash > ~/.local/share/bash-completion/completions/iomark
  zsh:  iomark completions zsh > ~/.zfunc/_iomark      (a directory in $fpath)
  fish: iomark completions fish > ~/.config/fish/completions/iomark.fish";

/// The script for `shell` completing the commands of `table`, or None for a shell iomark does
/// not know.
pub fn script(shell: &str, table: &[Command]) -> Option<String> {
    let w = Words::of(table);
    Some(match shell {
        "bash" => bash::script(&w),
        "zsh" => zsh::script(&w),
        "fish" => fish::script(&w),
        _ => return None,
    })
}

/// `iomark completions SHELL`: prints the script; returns the exit code.
pub fn main(args: &[String], table: &[Command]) -> i32 {
    if matches!(args.first().map(String::as_str), Some("-h" | "--help")) {
        return crate::session::pipe::print_text(USAGE);
    }
    match args.first().and_then(|shell| script(shell, table)) {
        Some(s) => crate::session::pipe::print_text(&s),
        None => {
            eprintln!("iomark completions: give a shell: bash, zsh or fish");
            2
        }
    }
}

#[cfg(test)]
mod operands_tests;
