//! iozone's matrix as result tables (`SuiteTable`, suite `iozone`): one table per measured
//! column (write, rewrite, read, ...), titled with its key, one row per cell, so reports draw
//! each as a heatmap and a 3-D surface over file size and record size.

use super::catalog::COLUMNS;
use super::latency::summary;
use super::run::Matrix;
use iomark_engine::result::{SuiteTable, TableCell, TableKind};

pub const HEADERS: [&str; 5] = [
    "file size (kB)",
    "record size (kB)",
    "kB/s",
    "mean lat (us)",
    "p99 lat (us)",
];

/// One table per column with at least one measured cell, in iozone's column order.
pub fn tables(m: &Matrix) -> Vec<SuiteTable> {
    let mut out = Vec::new();
    for (c, col) in COLUMNS.iter().enumerate() {
        let mut t = SuiteTable::new(TableKind::Iozone, col.key, &HEADERS);
        for r in &m.rows {
            let Some(Some(v)) = r.values.get(c) else {
                continue;
            };
            let figures = [
                (r.cell.file >> 10) as f64,
                (r.cell.record >> 10) as f64,
                v.kbps(),
            ];
            // Latency not kept: its cells empty, never 0.
            let lat = match summary(v) {
                Some(l) => [l.mean_ns / 1000.0, l.p99_ns as f64 / 1000.0].map(TableCell::Num),
                None => [
                    TableCell::Text(String::new()),
                    TableCell::Text(String::new()),
                ],
            };
            t.rows
                .push(figures.map(TableCell::Num).into_iter().chain(lat).collect());
        }
        if !t.rows.is_empty() {
            out.push(t);
        }
    }
    out
}
