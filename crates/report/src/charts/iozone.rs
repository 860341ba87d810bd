//! iozone's charts: per test (write, rewrite, read, ...) a heatmap of kB/s over file size
//! (rows) and record size (across), and a 3-D surface of the same, as iozone's own 3-D graphs
//! show them, which the report draws only when asked (`report --surface`).

use super::{matrix, suite_tables, Chart};
use crate::model::Source;
use iomark_engine::result::TableKind;

const FILE: &str = "file size (kB)";
const RECORD: &str = "record size (kB)";
const RATE: &str = "kB/s";

pub fn charts(sources: &[Source]) -> Vec<Chart> {
    let mut out = Vec::new();
    for (s, t) in suite_tables(sources, &[TableKind::Iozone]) {
        let (Some(fi), Some(ri), Some(ki)) = (t.col(FILE), t.col(RECORD), t.col(RATE)) else {
            continue;
        };
        if t.rows.is_empty() {
            continue;
        }
        out.extend(matrix::charts(
            &format!("iozone-{}-{}", s.label, t.title),
            &format!("{} / iozone", s.label),
            &format!("{} {RATE} over file size and record size", t.title),
            RECORD,
            FILE,
            matrix::trace(t, fi, ri, ki, RATE),
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::charts::Kind;
    use iomark_engine::result::{SuiteTable, TableCell};

    #[test]
    fn each_test_gives_a_heatmap_and_a_surface_of_its_cells() {
        let mut t = SuiteTable::new(
            TableKind::Iozone,
            "write",
            &[FILE, RECORD, RATE, "mean lat (us)"],
        );
        for (f, r, k) in [(64.0, 4.0, 1.0), (64.0, 8.0, 2.0), (128.0, 4.0, 3.0)] {
            t.rows.push([f, r, k, 0.5].map(TableCell::Num).to_vec());
        }
        let s = Source {
            label: "s".into(),
            tables: vec![t],
            ..Default::default()
        };
        let c = charts(std::slice::from_ref(&s));
        assert_eq!(c.len(), 2);
        assert_eq!(c[0].kind, Kind::Heatmap);
        assert_eq!(c[1].kind, Kind::Surface);
        assert_eq!(c[0].id, "iozone-s-write-Heatmap");
        let tr = &c[0].traces[0];
        assert_eq!(tr.rows, ["64", "128"]);
        assert_eq!(tr.cats, ["4", "8"]);
        assert_eq!(tr.z[0], [1.0, 2.0]);
        assert_eq!(tr.z[1][0], 3.0);
        assert!(tr.z[1][1].is_nan(), "a cell not measured stays empty");
        assert_eq!(
            (c[0].x_title.as_str(), c[0].y_title.as_str()),
            (RECORD, FILE)
        );
        // The report draws the heatmap alone unless surfaces are asked for.
        let kinds = |surfaces| {
            let opts = crate::charts::Options { surfaces };
            crate::charts::report_charts_with(std::slice::from_ref(&s), opts)
                .iter()
                .map(|c| c.kind)
                .collect::<Vec<_>>()
        };
        assert_eq!(kinds(false), [Kind::Heatmap]);
        assert_eq!(
            crate::charts::report_charts(std::slice::from_ref(&s)).len(),
            1
        );
        assert_eq!(kinds(true), [Kind::Heatmap, Kind::Surface]);
    }
}
