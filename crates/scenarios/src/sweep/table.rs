//! A sweep's figures as a result table (`SuiteTable`, suite `sweep`): one row per point, the
//! swept options first, then IOPS, MB/s, mean and p99 latency, for reports and exports.

use super::axes::Axis;
use super::matrix::{figure, Show};
use iomark_engine::result::{RunResult, SuiteTable, TableCell, TableKind};

/// The figures after the swept options, with their units.
pub const FIGURES: [(Show, &str); 4] = [
    (Show::Iops, "IOPS"),
    (Show::Bw, "MB/s"),
    (Show::Mean, "mean lat (us)"),
    (Show::P99, "p99 lat (us)"),
];

pub fn table(axes: &[Axis], points: &[Vec<String>], res: &RunResult) -> SuiteTable {
    let mut cols: Vec<&str> = axes.iter().map(|a| a.option.as_str()).collect();
    cols.extend(FIGURES.iter().map(|f| f.1));
    let mut t = SuiteTable::new(TableKind::Sweep, "sweep points", &cols);
    for (i, p) in points.iter().enumerate() {
        let mut row: Vec<TableCell> = p.iter().map(|v| TableCell::Text(v.clone())).collect();
        row.extend(
            FIGURES
                .iter()
                .map(|(s, _)| TableCell::Num(figure(res, i, *s))),
        );
        t.rows.push(row);
    }
    t
}
