//! dd's figures as a result table (`SuiteTable`, suite `dd`): one row with the block size, so
//! several dd results draw a ladder of block size against rate.

use super::output::totals;
use super::plan::DdPlan;
use iomark_engine::result::{SuiteTable, TableCell, TableKind};
use iomark_engine::RunResult;

pub const COLUMNS: [&str; 6] = [
    "block size (bytes)",
    "direction",
    "bytes",
    "seconds",
    "MB/s",
    "IOPS",
];

pub fn table(p: &DdPlan, r: &RunResult) -> SuiteTable {
    let t = totals(p, r);
    let per_sec = |v: f64| if t.secs > 0.0 { v / t.secs } else { 0.0 };
    let mut s = SuiteTable::new(TableKind::Dd, "dd transfer", &COLUMNS);
    s.rows.push(vec![
        TableCell::Num(p.ibs.max(p.obs) as f64),
        TableCell::Text(p.dir.name().to_string()),
        TableCell::Num(t.bytes as f64),
        TableCell::Num(t.secs),
        TableCell::Num(per_sec(t.bytes as f64) / 1e6),
        TableCell::Num(per_sec(t.ios as f64)),
    ]);
    s
}
