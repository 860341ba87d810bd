//! dd's charts: the ladder of block size against rate (MB/s and IOPS), one line per direction,
//! from every dd result in the report (one dd run gives one rung).

use super::{cell_num, cell_text, line, suite_tables, Chart, Kind};
use crate::model::Source;
use iomark_engine::result::TableKind;
use std::collections::BTreeMap;

pub fn charts(sources: &[Source]) -> Vec<Chart> {
    // direction -> [(block size, MB/s, IOPS)]
    let mut by_dir: BTreeMap<String, Vec<(f64, f64, f64)>> = BTreeMap::new();
    for (_, t) in suite_tables(sources, &[TableKind::Dd]) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use iomark_engine::result::{SuiteTable, TableCell};

    fn dd(bs: f64, dir: &str, mbs: f64) -> Source {
        let mut t = SuiteTable::new(
            TableKind::Dd,
            "dd transfer",
            &[
                "block size (bytes)",
                "direction",
                "bytes",
                "seconds",
                "MB/s",
                "IOPS",
            ],
        );
        t.rows.push(vec![
            TableCell::Num(bs),
            TableCell::Text(dir.into()),
            TableCell::Num(1e6),
            TableCell::Num(1e6 / mbs / 1e6),
            TableCell::Num(mbs),
            TableCell::Num(mbs * 1e6 / bs),
        ]);
        Source {
            tables: vec![t],
            ..Default::default()
        }
    }

    #[test]
    fn the_ladder_is_sorted_by_block_size_per_direction() {
        let c = charts(&[
            dd(1048576.0, "write", 900.0),
            dd(4096.0, "write", 100.0),
            dd(65536.0, "read", 500.0),
        ]);
        assert_eq!(c.len(), 2);
        let w = c[0].traces.iter().find(|t| t.name == "write").unwrap();
        assert_eq!(w.x, [4096.0, 1048576.0]);
        assert_eq!(w.y, [100.0, 900.0]);
        assert_eq!(c[0].x_scale, crate::charts::Scale::Log);
        assert!(charts(&[Source::default()]).is_empty());
    }
}
