//! What can go wrong on the command line, as printed.

use crate::jobfile::Diag;
use std::fmt;

#[derive(Clone, Debug, PartialEq)]
pub enum CliError {
    UnknownOption {
        name: String,
        suggestion: Option<String>,
    },
    MissingValue {
        option: String,
        form: String,
    },
    InvalidValue {
        option: String,
        value: String,
        reason: crate::options::Reason,
    },
    /// Known but not supported (yet) by iomark.
    Unsupported(String),
    /// A job file problem (file, line, message).
    JobFile {
        file: String,
        line: usize,
        message: String,
    },
    /// Typing or validating a job failed (the message names the job).
    Job(String),
    /// Every problem found in the job files and options, each located.
    Diagnostics(Vec<Diag>),
    Other(String),
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::UnknownOption { name, suggestion } => f.write_str(
                &crate::job_builder::unknown_option_words(name, suggestion.as_deref()),
            ),
            CliError::MissingValue { option, form } => {
                write!(f, "option '{option}' needs a value: {form}")
            }
            CliError::InvalidValue {
                option,
                value,
                reason,
            } => write!(
                f,
                "invalid value {q_value} for '{option}': {reason}",
                q_value = iomark_output::echo::quote(value)
            ),
            CliError::Unsupported(m) | CliError::Job(m) | CliError::Other(m) => f.write_str(m),
            CliError::Diagnostics(list) => {
                for d in list {
                    writeln!(f, "{d}")?;
                }
                let n = list.len();
                write!(
                    f,
                    "{n} problem{} found; nothing was run",
                    if n == 1 { "" } else { "s" }
                )
            }
            CliError::JobFile {
                file,
                line,
                message,
            } => {
                if *line > 0 {
                    write!(f, "{file}:{line}: {message}")
                } else {
                    write!(f, "{file}: {message}")
                }
            }
        }
    }
}

impl std::error::Error for CliError {}
