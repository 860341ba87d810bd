//! Access specifications in a TOML file (`iomark iometer --spec-file F.toml`): a name and one
//! `[[line]]` table per access-specification line, in Iometer's terms:
//!
//! ```toml
//! name = "oltp-mix"          # the spec's name in the output and the CSV (default: the file's)
//! [[line]]
//! size = "8k"                # transfer request size
//! read = 70                  # % read (the rest writes)
//! random = 100               # % random (the rest sequential)
//! weight = 90                # % of access specification (default 100)
//! align = "8k"               # align I/Os on (default: the transfer size)
//! delay_ms = 0               # transfer delay before each burst (default 0)
//! burst = 1                  # burst length in I/Os (default 1)
//! [[line]]
//! size = "64k"
//! read = 0
//! random = 0
//! weight = 10
//! ```
//!
//! An unknown key is refused naming it, the keys allowed and where it is.

use super::spec::{self, Line};
use serde::Deserialize;

/// A size as a number of bytes or with a suffix (`"4k"`).
#[derive(Deserialize)]
#[serde(untagged)]
enum Size {
    Bytes(u64),
    Text(String),
}

impl Size {
    fn text(&self) -> String {
        match self {
            Size::Bytes(b) => b.to_string(),
            Size::Text(t) => t.clone(),
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileLine {
    size: Size,
    read: u64,
    random: u64,
    #[serde(default)]
    weight: Option<u64>,
    #[serde(default)]
    align: Option<Size>,
    #[serde(default)]
    delay_ms: Option<u64>,
    #[serde(default)]
    burst: Option<u64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    line: Vec<FileLine>,
}

/// A spec read from a file: its name and lines.
#[derive(Clone, Debug, PartialEq)]
pub struct FileSpec {
    pub name: Option<String>,
    pub lines: Vec<Line>,
}

/// Why a spec file was refused; each names the file.
#[derive(Debug, thiserror::Error)]
pub enum SpecFileError {
    #[error("--spec-file {path}: {error}")]
    Read { path: String, error: std::io::Error },
    /// Not TOML, or keys that are not a spec's (the parser's words name the key and place).
    #[error("--spec-file {path}: {error}")]
    Toml {
        path: String,
        error: basic_toml::Error,
    },
    #[error("--spec-file {0}: no [[line]] table (each needs size, read and random)")]
    NoLines(String),
    /// The `index`th `[[line]]` (from 1) is not a valid line.
    #[error("--spec-file {path}: [[line]] {index}: {error}")]
    Line {
        path: String,
        index: usize,
        error: spec::LineError,
    },
}

/// The largest spec file read (1 MiB): a spec is a few lines; a device or runaway file is an
/// error, not endless memory.
pub const MAX_SPEC_FILE_BYTES: u64 = 1 << 20;

/// Read and parse the spec file at `path`: a regular file of at most [`MAX_SPEC_FILE_BYTES`].
pub fn read(path: &str) -> Result<FileSpec, SpecFileError> {
    let read = |p: &str| {
        let b = iomark_output::outfile::read_input(
            std::path::Path::new(p),
            MAX_SPEC_FILE_BYTES,
            "a spec file",
        )?;
        String::from_utf8(b).map_err(|_| {
            std::io::Error::new(std::io::ErrorKind::InvalidData, "not text (invalid UTF-8)")
        })
    };
    let text = read(path).map_err(|error| SpecFileError::Read {
        path: path.to_string(),
        error,
    })?;
    parse(path, &text)
}

/// Parse the text of a spec file; `path` names it in errors.
pub fn parse(path: &str, text: &str) -> Result<FileSpec, SpecFileError> {
    let f: File = basic_toml::from_str(text).map_err(|error| SpecFileError::Toml {
        path: path.to_string(),
        error,
    })?;
    if f.line.is_empty() {
        return Err(SpecFileError::NoLines(path.to_string()));
    }
    let mut lines = Vec::new();
    for (i, l) in f.line.iter().enumerate() {
        // The same checks as a line on the command line.
        let text = format!(
            "{},{},{},{},{},{}@{}",
            l.size.text(),
            l.read,
            l.random,
            l.align.as_ref().map_or("0".into(), Size::text),
            l.delay_ms.unwrap_or(0),
            l.burst.unwrap_or(1),
            l.weight.unwrap_or(100)
        );
        let line = spec::parse_line(&text).map_err(|error| SpecFileError::Line {
            path: path.to_string(),
            index: i + 1,
            error,
        })?;
        lines.push(line);
    }
    Ok(FileSpec {
        name: f.name,
        lines,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_gives_the_same_lines_as_the_command_line() {
        let f = parse(
            "s.toml",
            "name = \"mix\"\n[[line]]\nsize = \"4k\"\nread = 80\nrandom = 100\nweight = 60\n[[line]]\nsize = 65536\nread = 20\nrandom = 100\nweight = 40\n",
        )
        .unwrap();
        assert_eq!(f.name.as_deref(), Some("mix"));
        assert_eq!(f.lines, spec::parse("4k,80,100@60;64k,20,100@40").unwrap());
        let f = parse(
            "s.toml",
            "[[line]]\nsize = \"64k\"\nread = 0\nrandom = 50\nalign = \"4k\"\ndelay_ms = 10\nburst = 8\n",
        )
        .unwrap();
        assert_eq!(f.lines, spec::parse("64k,0,50,4k,10,8").unwrap());
    }

    #[test]
    fn unknown_keys_and_bad_values_are_named() {
        let e = parse(
            "s.toml",
            "[[line]]\nsize = \"4k\"\nread = 70\nrandom = 100\nwieght = 5\n",
        )
        .unwrap_err()
        .to_string();
        assert!(e.starts_with("--spec-file s.toml: "), "{e}");
        assert!(e.contains("unknown field `wieght`"), "{e}");
        assert!(e.contains("`weight`"), "{e}");
        let e = parse("s.toml", "nmae = \"x\"\n").unwrap_err().to_string();
        assert!(e.contains("unknown field `nmae`"), "{e}");
        let e = parse(
            "s.toml",
            "[[line]]\nsize = \"4k\"\nread = 170\nrandom = 100\n",
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("[[line]] 1: "), "{e}");
        assert!(e.contains("% read '170' is over 100"), "{e}");
        let e = parse("s.toml", "name = \"x\"\n").unwrap_err().to_string();
        assert!(e.contains("no [[line]] table"), "{e}");
    }
}
