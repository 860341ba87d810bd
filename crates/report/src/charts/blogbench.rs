//! blogbench's charts: the articles, pictures and comments read and written in each iteration
//! (reads and writes apart: readers outnumber writers a hundred to one), and the final scores.

use super::{bars, cell_num, cell_text, line, suite_tables, Chart, Kind};
use crate::model::Source;
use iomark_engine::result::{SuiteTable, TableKind};

const TIME: &str = "time (s)";

/// A line chart of `cols` of the iterations table over time.
fn per_iteration(s: &Source, t: &SuiteTable, what: &str, cols: &[&str]) -> Chart {
    let mut c = Chart::new(
        format!("blogbench-{}-{what}", s.label),
        &format!("{} / blogbench", s.label),
        &format!("blogbench: {what} per iteration"),
        Kind::Lines,
    )
    .axes("time (s)", &format!("{what} in the iteration"));
    for col in cols {
        let pts: Vec<(f64, f64)> = t
            .rows
            .iter()
            .filter_map(|r| Some((cell_num(t, r, TIME)?, cell_num(t, r, col)?)))
            .collect();
        c.traces.push(line(col, pts));
    }
    c
}

pub fn charts(sources: &[Source]) -> Vec<Chart> {
    let mut out = Vec::new();
    for (s, t) in suite_tables(
        sources,
        &[TableKind::BlogbenchIterations, TableKind::BlogbenchScores],
    ) {
        match t.kind {
            TableKind::BlogbenchIterations => {
                out.push(per_iteration(
                    s,
                    t,
                    "reads",
                    &["articles read", "pictures read", "comments read"],
                ));
                out.push(per_iteration(
                    s,
                    t,
                    "writes",
                    &[
                        "articles written",
                        "pictures written",
                        "comments written",
                        "blogs written (total)",
                    ],
                ));
            }
            TableKind::BlogbenchScores => {
                let mut c = Chart::new(
                    format!("blogbench-{}-scores", s.label),
                    &format!("{} / blogbench", s.label),
                    "blogbench: final scores (blogs written and read)",
                    Kind::Bars,
                )
                .axes("score", "blogs");
                c.traces.push(bars(
                    "score",
                    t.rows
                        .iter()
                        .filter_map(|r| Some((cell_text(t, r, "score"), cell_num(t, r, "blogs")?))),
                ));
                out.push(c);
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use iomark_engine::result::table::BLOGBENCH_SCORES as SCORES;
    use iomark_engine::result::TableCell;

    const INTERVALS: &str = "blogbench iterations";

    #[test]
    fn iterations_and_scores_are_charted() {
        let mut it = SuiteTable::new(
            TableKind::BlogbenchIterations,
            INTERVALS,
            &[
                "iteration",
                TIME,
                "blogs written (total)",
                "articles read",
                "articles written",
                "pictures read",
                "pictures written",
                "comments read",
                "comments written",
            ],
        );
        for i in 1..=3 {
            let v = [
                i as f64,
                i as f64,
                2.0 * i as f64,
                100.0,
                5.0,
                80.0,
                4.0,
                60.0,
                3.0,
            ];
            it.rows.push(v.map(TableCell::Num).to_vec());
        }
        let mut sc = SuiteTable::new(TableKind::BlogbenchScores, SCORES, &["score", "blogs"]);
        sc.rows
            .push(vec![TableCell::Text("writes".into()), TableCell::Num(6.0)]);
        sc.rows
            .push(vec![TableCell::Text("reads".into()), TableCell::Num(40.0)]);
        let s = Source {
            label: "b".into(),
            tables: vec![it, sc],
            ..Default::default()
        };
        let c = charts(&[s]);
        assert_eq!(c.len(), 3);
        assert_eq!(c[0].id, "blogbench-b-reads");
        assert_eq!(c[0].traces.len(), 3);
        assert_eq!(c[0].traces[0].x, [1.0, 2.0, 3.0]);
        assert_eq!(c[1].traces[3].y, [2.0, 4.0, 6.0]);
        assert_eq!(c[2].kind, Kind::Bars);
        assert_eq!(c[2].traces[0].cats, ["writes", "reads"]);
        assert_eq!(c[2].traces[0].y, [6.0, 40.0]);
    }
}
