//! A sweep's charts: each figure (IOPS, MB/s, mean and p99 latency) against the last swept
//! option, one series per value of the others; with two swept options also a heatmap and a
//! 3-D surface of IOPS.

use super::{matrix, suite_tables, Chart, Kind, Trace};
use crate::model::Source;
use iomark_engine::result::TableKind;

/// The figure columns a sweep table ends with.
const FIGURES: [&str; 4] = ["IOPS", "MB/s", "mean lat (us)", "p99 lat (us)"];

pub fn charts(sources: &[Source]) -> Vec<Chart> {
    let mut out = Vec::new();
    for (s, t) in suite_tables(sources, &[TableKind::Sweep]) {
        let naxes = t
            .columns
            .iter()
            .position(|c| FIGURES.contains(&c.as_str()))
            .unwrap_or(0);
        if naxes == 0 || t.rows.is_empty() {
            continue;
        }
        let x_axis = &t.columns[naxes - 1];
        let sec = format!("{} / sweep", s.label);
        let text = |r: &[iomark_engine::result::TableCell], i: usize| {
            r.get(i).map(|c| c.text()).unwrap_or_default()
        };
        for fig in FIGURES {
            let Some(fi) = t.col(fig) else { continue };
            let mut c = Chart::new(
                format!("sweep-{}-{fig}", s.label),
                &sec,
                &format!("{fig} by {x_axis}"),
                Kind::Bars,
            )
            .axes(x_axis, fig);
            for row in &t.rows {
                let group = (0..naxes - 1)
                    .map(|i| format!("{}={}", t.columns[i], text(row, i)))
                    .collect::<Vec<_>>()
                    .join(",");
                let group = if group.is_empty() {
                    fig.to_string()
                } else {
                    group
                };
                let y = row.get(fi).and_then(|c| c.num()).unwrap_or(f64::NAN);
                let tr = match c.traces.iter_mut().position(|t| t.name == group) {
                    Some(i) => &mut c.traces[i],
                    None => {
                        c.traces.push(Trace {
                            name: group,
                            ..Default::default()
                        });
                        c.traces.last_mut().expect("pushed")
                    }
                };
                tr.cats.push(text(row, naxes - 1));
                tr.y.push(y);
            }
            out.push(c);
        }
        if naxes == 2 {
            if let Some(fi) = t.col("IOPS") {
                out.extend(matrix::charts(
                    &format!("sweep-{}-iops", s.label),
                    &sec,
                    &format!("IOPS over {} and {}", t.columns[0], t.columns[1]),
                    &t.columns[1],
                    &t.columns[0],
                    matrix::trace(t, 0, 1, fi, "IOPS"),
                ));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use iomark_engine::result::{SuiteTable, TableCell};

    #[test]
    fn two_axes_give_bars_per_figure_and_a_matrix_in_place() {
        let mut t = SuiteTable::new(
            TableKind::Sweep,
            "sweep points",
            &[
                "bs",
                "iodepth",
                "IOPS",
                "MB/s",
                "mean lat (us)",
                "p99 lat (us)",
            ],
        );
        for (bs, qd, iops) in [
            ("4k", "1", 10.0),
            ("4k", "8", 80.0),
            ("64k", "1", 5.0),
            ("64k", "8", 20.0),
        ] {
            let mut row = vec![TableCell::Text(bs.into()), TableCell::Text(qd.into())];
            row.extend([iops, iops / 10.0, 1.0, 2.0].map(TableCell::Num));
            t.rows.push(row);
        }
        let s = Source {
            label: "s".into(),
            tables: vec![t],
            ..Default::default()
        };
        let c = charts(&[s]);
        assert_eq!(c.len(), 6, "four figures, heatmap, surface");
        assert_eq!(c[0].title, "IOPS by iodepth");
        assert_eq!(c[0].traces.len(), 2);
        assert_eq!(c[0].traces[1].name, "bs=64k");
        assert_eq!(c[0].traces[1].cats, ["1", "8"]);
        assert_eq!(c[0].traces[1].y, [5.0, 20.0]);
        let hm = &c[4];
        assert_eq!(hm.kind, Kind::Heatmap);
        assert_eq!(hm.traces[0].rows, ["4k", "64k"]);
        assert_eq!(hm.traces[0].z, [vec![10.0, 80.0], vec![5.0, 20.0]]);
        assert_eq!(c[5].kind, Kind::Surface);
    }
}
