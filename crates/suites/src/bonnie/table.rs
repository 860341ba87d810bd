//! bonnie's bulk figures as a result table (`SuiteTable`, suite `bonnie`): one row per run
//! (`-x N` gives N rows), so reports show the mean and spread of each test.

use super::output::Bulk;
use iomark_engine::result::{SuiteTable, TableCell, TableKind};

/// The tests iomark measures, as (column, index in [`Bulk`]).
pub const TESTS: [(&str, usize); 3] = [
    ("block out (KiB/s)", 1),
    ("block in (KiB/s)", 4),
    ("seeks (/s)", 5),
];

/// An empty bonnie table: the run number, then each test's rate.
pub fn table() -> SuiteTable {
    let mut cols = vec!["run"];
    cols.extend(TESTS.iter().map(|t| t.0));
    SuiteTable::new(TableKind::Bonnie, "bonnie++ bulk tests per run", &cols)
}

/// Append run `n`'s figures (a test not measured is an empty text cell, never 0).
pub fn add_run(t: &mut SuiteTable, n: usize, b: &Bulk) {
    let mut row = vec![TableCell::Num(n as f64)];
    for (_, i) in TESTS {
        row.push(match b[i] {
            Some(f) => TableCell::Num(f.rate),
            None => TableCell::Text(String::new()),
        });
    }
    t.rows.push(row);
}
