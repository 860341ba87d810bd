//! CSV: a header of [`super::COLUMNS`], then one row per source, job, direction and repetition.
//! Fields holding a comma, quote or line break are quoted (RFC 4180). A text field that a
//! spreadsheet would take for a formula (first character `=`, `+`, `-`, `@`, tab or carriage
//! return) gets a leading `'`, so opening the file never runs anything; numbers are written
//! as numbers.

use super::{num_text, rows, Cell, COLUMNS};
use crate::model::Source;
use crate::ReportError;
use std::path::Path;

fn field(s: &str) -> String {
    let neutral;
    let s = if s.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        neutral = format!("'{s}");
        neutral.as_str()
    } else {
        s
    };
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

pub fn render(sources: &[Source]) -> String {
    let mut out = COLUMNS.join(",");
    out.push('\n');
    for (_, _, _, cells) in rows(sources) {
        let line: Vec<String> = cells
            .iter()
            .map(|c| match c {
                Cell::Text(t) => field(t),
                Cell::Num(v) => v.map(num_text).unwrap_or_default(),
            })
            .collect();
        out.push_str(&line.join(","));
        out.push('\n');
    }
    out
}

pub fn write(path: &Path, sources: &[Source]) -> Result<(), ReportError> {
    crate::output::write_atomic(path, render(sources).as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formula_cells_are_neutralised() {
        assert_eq!(field("=HYPERLINK(\"x\")"), "\"'=HYPERLINK(\"\"x\"\")\"");
        assert_eq!(field("+1"), "'+1");
        assert_eq!(field("-cmd"), "'-cmd");
        assert_eq!(field("@SUM(A1)"), "'@SUM(A1)");
        assert_eq!(field("job-1"), "job-1");
    }

    #[test]
    fn quoting() {
        assert_eq!(field("a,b"), "\"a,b\"");
        assert_eq!(field("say \"x\""), "\"say \"\"x\"\"\"");
        assert_eq!(field("plain"), "plain");
    }
}
