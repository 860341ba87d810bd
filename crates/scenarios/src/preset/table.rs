//! A preset's summary as result tables (`SuiteTable`, suite `preset`): its figures (headline,
//! lowest and highest repetition, noisy or not) and, when limits were given, each check against
//! them with pass or fail, for reports and exports.

use super::summary::{shown, unit, Summary};
use iomark_engine::result::{SuiteTable, TableCell, TableKind};

pub const FIGURE_COLUMNS: [&str; 6] = ["figure", "unit", "headline", "lowest", "highest", "noisy"];
pub const CHECK_COLUMNS: [&str; 5] = ["figure", "measured", "expected", "result", "shortfall (%)"];

pub fn tables(s: &Summary) -> Vec<SuiteTable> {
    let mut figs = SuiteTable::new(
        TableKind::PresetSummary,
        &format!("{} summary", s.preset.name),
        &FIGURE_COLUMNS,
    );
    for f in &s.figures {
        let m = f.metric;
        figs.rows.push(vec![
            TableCell::Text(f.label.to_string()),
            TableCell::Text(unit(m).to_string()),
            TableCell::Num(shown(m, f.headline)),
            TableCell::Num(shown(m, f.stats.min)),
            TableCell::Num(shown(m, f.stats.max)),
            TableCell::Text(if f.stats.noisy() { "noisy" } else { "" }.to_string()),
        ]);
    }
    let mut out = vec![figs];
    let checks = s.checks();
    if !checks.is_empty() {
        let mut t = SuiteTable::new(
            TableKind::PresetChecks,
            &format!("{} against the expected limits", s.preset.name),
            &CHECK_COLUMNS,
        );
        for (label, got, want, pass, short) in checks {
            t.rows.push(vec![
                TableCell::Text(label.to_string()),
                TableCell::Num(got),
                TableCell::Num(want),
                TableCell::Text(if pass { "pass" } else { "fail" }.to_string()),
                TableCell::Num(short),
            ]);
        }
        out.push(t);
    }
    out
}
