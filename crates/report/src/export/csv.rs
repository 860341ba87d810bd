//! CSV: a header of [`super::COLUMNS`], then one row per source, job, direction and repetition.
//! Fields holding a comma, quote or line break are quoted (RFC 4180).

use super::{num_text, rows, Cell, COLUMNS};
use crate::model::Source;
use crate::ReportError;
use std::path::Path;

fn field(s: &str) -> String {
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
    fn quoting() {
        assert_eq!(field("a,b"), "\"a,b\"");
        assert_eq!(field("say \"x\""), "\"say \"\"x\"\"\"");
        assert_eq!(field("plain"), "plain");
    }
}
