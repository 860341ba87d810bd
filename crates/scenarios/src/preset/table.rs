//! A preset's summary as result tables (`SuiteTable`, suite `preset`): its figures (headline,
//! lowest and highest repetition, noisy or not; "not run" for a figure whose jobs did not run)
//! and, per set of limits given, each check against them with pass, fail or not run, for
//! reports and exports.

use super::limits::GIVEN;
use super::summary::{shown, unit, Summary};
use iomark_engine::result::{SuiteTable, TableCell, TableKind};

pub const FIGURE_COLUMNS: [&str; 6] = ["figure", "unit", "headline", "lowest", "highest", "noisy"];
pub const CHECK_COLUMNS: [&str; 5] = ["figure", "measured", "expected", "result", "shortfall (%)"];

const NOT_RUN: &str = "not run";

pub fn tables(s: &Summary) -> Vec<SuiteTable> {
    let mut figs = SuiteTable::new(
        TableKind::PresetSummary,
        &format!("{} summary", s.preset.name),
        &FIGURE_COLUMNS,
    );
    for f in &s.figures {
        let m = f.metric;
        let num = |v: Option<f64>| match v {
            Some(v) => TableCell::Num(shown(m, v)),
            None => TableCell::Text(NOT_RUN.to_string()),
        };
        let st = f.stats.as_ref();
        figs.rows.push(vec![
            TableCell::Text(f.label.to_string()),
            TableCell::Text(unit(m).to_string()),
            num(f.headline),
            num(st.map(|s| s.min)),
            num(st.map(|s| s.max)),
            TableCell::Text(
                if st.is_some_and(|s| s.noisy()) {
                    "noisy"
                } else {
                    ""
                }
                .to_string(),
            ),
        ]);
    }
    let mut out = vec![figs];
    let checks = s.checks();
    for target in &s.targets {
        // The limits given on the command line keep the title reports know.
        let title = if target.name == GIVEN {
            format!("{} against the expected limits", s.preset.name)
        } else {
            format!("{} against {}", s.preset.name, target.name)
        };
        let mut t = SuiteTable::new(TableKind::PresetChecks, &title, &CHECK_COLUMNS);
        for c in checks.iter().filter(|c| c.target == target.name) {
            t.rows.push(vec![
                TableCell::Text(c.figure.to_string()),
                match c.measured {
                    Some(m) => TableCell::Num(m),
                    None => TableCell::Text(NOT_RUN.to_string()),
                },
                TableCell::Num(c.limit),
                TableCell::Text(
                    match c.met() {
                        Some(true) => "pass",
                        Some(false) => "fail",
                        None => NOT_RUN,
                    }
                    .to_string(),
                ),
                TableCell::Num(c.shortfall()),
            ]);
        }
        out.push(t);
    }
    out
}
