//! dd's charts: the ladder of block size against rate (MB/s and IOPS), one line per direction,
//! from every dd result in the report (one dd run gives one rung).

use super::{cell_num, cell_text, line, suite_tables, Chart, Kind};
use crate::model::Source;
use std::collections::BTreeMap;

pub fn charts(sources: &[Source]) -> Vec<Chart> {
    // direction -> [(block size, MB/s, IOPS)]
    let mut by_dir: BTreeMap<String, Vec<(f64, f64, f64)>> = BTreeMap::new();
    for (_, t) in suite_tables(sources, "dd") {
        for row in &t.rows {
            let (Some(bs), Some(mbs)) = (
                cell_num(t, row, "block size (bytes)"),
                cell_num(t, row, "MB/s"),
            ) else {
                continue;
            };
            let iops = cell_num(t, row, "IOPS").unwrap_or(f64::NAN);
            by_dir
                .entry(cell_text(t, row, "direction"))
                .or_default()
                .push((bs, mbs, iops));
        }
    }
    if by_dir.is_empty() {
        return Vec::new();
    }
    let mut rate = Chart::new(
        "dd-ladder-mbs".into(),
        "dd",
        "dd: rate by block size",
        Kind::Lines,
    )
    .axes("block size (bytes)", "MB/s")
    .log_x();
    let mut iops = Chart::new(
        "dd-ladder-iops".into(),
        "dd",
        "dd: IOPS by block size",
        Kind::Lines,
    )
    .axes("block size (bytes)", "IOPS")
    .log_x();
    for (dir, mut pts) in by_dir {
        pts.sort_by(|a, b| a.0.total_cmp(&b.0));
        rate.traces.push(line(&dir, pts.iter().map(|p| (p.0, p.1))));
        iops.traces.push(line(
            &dir,
            pts.iter().filter(|p| p.2.is_finite()).map(|p| (p.0, p.2)),
        ));
    }
    vec![rate, iops]
}
