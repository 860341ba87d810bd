//! An iozone page: the matrix charts (heat maps, surfaces) first, then a short summary of
//! each test's matrix, and the per-cell headline table folded, opened on demand.

use super::esc;
use crate::model::Source;
use iomark_engine::result::{SuiteTable, TableKind};
use std::fmt::Write as _;

const FILE: &str = "file size (kB)";
const RECORD: &str = "record size (kB)";
const RATE: &str = "kB/s";

/// Whether `s` is an iozone run: one whose charts are its matrices, not its cells.
pub fn is_matrix_source(s: &Source) -> bool {
    s.tables.iter().any(|t| t.kind == TableKind::Iozone)
}

/// Per test of `s`'s iozone tables: its cells, its highest and lowest rate and where.
pub fn summary(s: &Source) -> String {
    let mut h = String::from(
        "<table class=summary><tr><th class=l>test</th><th>cells</th><th>highest kB/s</th><th class=l>at file / record (kB)</th><th>lowest kB/s</th><th class=l>at file / record (kB)</th></tr>",
    );
    for t in s.tables.iter().filter(|t| t.kind == TableKind::Iozone) {
        let Some((hi, lo, n)) = extremes(t) else {
            continue;
        };
        let _ = write!(
            h,
            "<tr><td class=l>{}</td><td>{n}</td><td>{}</td><td class=l>{}</td><td>{}</td><td class=l>{}</td></tr>",
            esc(&t.title),
            crate::compare::fmt_num(hi.0),
            esc(&hi.1),
            crate::compare::fmt_num(lo.0),
            esc(&lo.1)
        );
    }
    h.push_str("</table>\n");
    h
}

type Cell = (f64, String);

/// The highest and lowest measured rate of `t` with their "file / record", and how many cells
/// were measured.
fn extremes(t: &SuiteTable) -> Option<(Cell, Cell, usize)> {
    let (fi, ri, ki) = (t.col(FILE)?, t.col(RECORD)?, t.col(RATE)?);
    let cells: Vec<Cell> = t
        .rows
        .iter()
        .filter_map(|r| {
            let v = r.get(ki)?.num().filter(|v| v.is_finite())?;
            let at = format!("{} / {}", r.get(fi)?.text(), r.get(ri)?.text());
            Some((v, at))
        })
        .collect();
    let hi = cells.iter().max_by(|a, b| a.0.total_cmp(&b.0))?.clone();
    let lo = cells.iter().min_by(|a, b| a.0.total_cmp(&b.0))?.clone();
    Some((hi, lo, cells.len()))
}

/// The per-cell headline table of `s`, folded under a summary line, scrolled across in its own
/// box when wider than the page.
pub fn folded_cells(table: &str, rows: usize) -> String {
    format!(
        "<details class=cells><summary>Per-cell figures ({rows} rows, opened on demand)</summary>\n<div class=scroll>{table}</div>\n</details>\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use iomark_engine::result::TableCell;

    #[test]
    fn summary_names_each_tests_highest_and_lowest_cell() {
        let mut t = SuiteTable::new(TableKind::Iozone, "write", &[FILE, RECORD, RATE]);
        for (f, r, k) in [(64.0, 4.0, 900.0), (64.0, 8.0, 1200.0), (128.0, 4.0, 300.0)] {
            t.rows.push([f, r, k].map(TableCell::Num).to_vec());
        }
        let s = Source {
            tables: vec![t],
            ..Default::default()
        };
        assert!(is_matrix_source(&s));
        let h = summary(&s);
        assert!(h.contains("<td class=l>write</td><td>3</td>"), "{h}");
        assert!(h.contains("64 / 8"), "{h}");
        assert!(h.contains("128 / 4"), "{h}");
        assert!(!is_matrix_source(&Source::default()));
    }
}
