//! A preset's charts: its summary figures (headline with the lowest and highest repetition),
//! one chart per unit, and the checks against the expected limits (measured against expected,
//! pass or fail in each label).

use super::{bars, cell_num, cell_text, suite_tables, Chart, Kind};
use crate::model::Source;
use iomark_engine::result::TableKind;

pub fn charts(sources: &[Source]) -> Vec<Chart> {
    let mut out = Vec::new();
    for (s, t) in suite_tables(
        sources,
        &[TableKind::PresetSummary, TableKind::PresetChecks],
    ) {
        let sec = format!("{} / {}", s.label, t.title);
        if t.kind == TableKind::PresetSummary {
            let mut units: Vec<String> = Vec::new();
            for r in &t.rows {
                let u = cell_text(t, r, "unit");
                if !units.contains(&u) {
                    units.push(u);
                }
            }
            for u in units {
                let rows: Vec<_> = t
                    .rows
                    .iter()
                    .filter(|r| cell_text(t, r, "unit") == u)
                    .collect();
                let mut c = Chart::new(
                    format!("preset-{}-{u}", s.label),
                    &sec,
                    &format!("{} ({u})", t.title),
                    Kind::Bars,
                )
                .axes("figure", &u);
                for (name, col) in [
                    ("headline", "headline"),
                    ("lowest run", "lowest"),
                    ("highest run", "highest"),
                ] {
                    c.traces.push(bars(
                        name,
                        rows.iter().map(|r| {
                            let mut label = cell_text(t, r, "figure");
                            if cell_text(t, r, "noisy") == "noisy" {
                                label.push_str(" (noisy)");
                            }
                            (label, cell_num(t, r, col).unwrap_or(f64::NAN))
                        }),
                    ));
                }
                out.push(c);
            }
        } else {
            let label = |r: &[iomark_engine::result::TableCell]| {
                format!(
                    "{}: {}",
                    cell_text(t, r, "figure"),
                    cell_text(t, r, "result")
                )
            };
            let mut c = Chart::new(
                format!("preset-{}-checks", s.label),
                &sec,
                &t.title,
                Kind::Bars,
            )
            .axes("figure: pass or fail", "value (IOPS; MB/s)");
            for (name, col) in [("measured", "measured"), ("expected limit", "expected")] {
                c.traces.push(bars(
                    name,
                    t.rows
                        .iter()
                        .map(|r| (label(r), cell_num(t, r, col).unwrap_or(f64::NAN))),
                ));
            }
            out.push(c);
        }
    }
    out
}
