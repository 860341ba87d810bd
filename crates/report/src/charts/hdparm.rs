//! hdparm's chart: cached against disk (buffered or O_DIRECT) read rate, per target.

use super::{bars, cell_num, cell_text, suite_tables, Chart, Kind};
use crate::model::Source;
use iomark_engine::result::TableKind;

pub fn charts(sources: &[Source]) -> Vec<Chart> {
    // (timing, [(target, MB/s)]) in first-seen order.
    let mut series: Vec<(String, Vec<(String, f64)>)> = Vec::new();
    let many = sources.len() > 1;
    for (s, t) in suite_tables(sources, &[TableKind::Hdparm]) {
        for row in &t.rows {
            let Some(rate) = cell_num(t, row, "MiB/s") else {
                continue;
            };
            let mut target = cell_text(t, row, "target");
            if many {
                target = format!("{} {target}", s.label);
            }
            let timing = cell_text(t, row, "timing");
            match series.iter_mut().find(|x| x.0 == timing) {
                Some(x) => x.1.push((target, rate)),
                None => series.push((timing, vec![(target, rate)])),
            }
        }
    }
    if series.is_empty() {
        return Vec::new();
    }
    let mut c = Chart::new(
        "hdparm-timings".into(),
        "hdparm",
        "hdparm: cached and disk reads",
        Kind::Bars,
    )
    .axes("target", "MiB/s (hdparm's \"MB/sec\")");
    for (timing, pts) in series {
        c.traces.push(bars(&timing, pts));
    }
    vec![c]
}
