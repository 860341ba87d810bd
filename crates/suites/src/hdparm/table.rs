//! hdparm's timings as a result table (`SuiteTable`, suite `hdparm`): one row per target and
//! timing, cached and disk reads side by side for reports and exports.

use super::output::{cached, disk};
use super::plan::HdparmPlan;
use iomark_engine::result::{SuiteTable, TableCell, TableKind};
use iomark_engine::RunResult;
use std::path::Path;

pub const COLUMNS: [&str; 5] = ["target", "timing", "MiB", "seconds", "MiB/s"];

/// Append the rows of one target's run to `t` (made by [`table`] for the first target).
pub fn add_rows(t: &mut SuiteTable, path: &Path, p: &HdparmPlan, r: &RunResult) {
    let disk_name = if p.direct {
        "O_DIRECT disk"
    } else {
        "buffered disk"
    };
    let cached_name = if p.direct {
        "O_DIRECT cached"
    } else {
        "cached"
    };
    for (name, fig) in [(cached_name, cached(r)), (disk_name, disk(r))] {
        let Some((_, mb, secs)) = fig else { continue };
        // hdparm's "MB" are MiB: its rate is MiB/s.
        let rate = if secs > 0.0 { mb as f64 / secs } else { 0.0 };
        t.rows.push(vec![
            TableCell::Text(path.display().to_string()),
            TableCell::Text(name.to_string()),
            TableCell::Num(mb as f64),
            TableCell::Num(secs),
            TableCell::Num(rate),
        ]);
    }
}

/// An empty hdparm table.
pub fn table() -> SuiteTable {
    SuiteTable::new(TableKind::Hdparm, "hdparm read timings", &COLUMNS)
}
