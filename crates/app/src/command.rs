//! One command of the binary: the row type of the command table (`commands.rs`), which the
//! dispatcher, the usage, the manual pages and the shell completions read.

use crate::cluster::Role;

/// One command of the binary.
pub struct Command {
    /// The word after `iomark`.
    pub name: &'static str,
    /// Other words for it (`bonnie++`).
    pub aliases: &'static [&'static str],
    /// Its lines in the usage, indented and aligned as printed.
    pub usage: &'static str,
    /// One sentence for the manual pages (roff).
    pub summary: &'static str,
    /// Its help: the text `iomark NAME --help` prints, from the tables its parser reads. Its
    /// manual page and its completions are made from it.
    pub help: fn() -> String,
    /// Its role under a launcher, from its arguments (after the command word).
    pub role: fn(&[String]) -> Role,
    /// Runs it with the arguments after the command word; returns the exit status.
    pub run: fn(&[String]) -> i32,
}

impl Command {
    /// Whether `word` names this command (its name or an alias).
    pub fn is(&self, word: &str) -> bool {
        self.name == word || self.aliases.contains(&word)
    }
}
