//! A table's figure over two of its columns as a matrix: a heatmap and a 3-D surface (the
//! sweep's two options, iozone's file size × record size).

use super::{Chart, Kind, Trace};
use iomark_engine::result::SuiteTable;

/// Column `fig` of `t` laid out with the values of column `row` down and `cat` across (first
/// seen order); cells no row gives are NaN.
pub fn trace(t: &SuiteTable, row: usize, cat: usize, fig: usize, name: &str) -> Trace {
    let text = |r: &[iomark_engine::result::TableCell], i: usize| {
        r.get(i).map(|c| c.text()).unwrap_or_default()
    };
    let mut rows: Vec<String> = Vec::new();
    let mut cats: Vec<String> = Vec::new();
    for r in &t.rows {
        for (v, list) in [(text(r, row), &mut rows), (text(r, cat), &mut cats)] {
            if !list.contains(&v) {
                list.push(v);
            }
        }
    }
    let mut z = vec![vec![f64::NAN; cats.len()]; rows.len()];
    for r in &t.rows {
        let ri = rows.iter().position(|x| *x == text(r, row)).unwrap_or(0);
        let ci = cats.iter().position(|x| *x == text(r, cat)).unwrap_or(0);
        z[ri][ci] = r.get(fig).and_then(|c| c.num()).unwrap_or(f64::NAN);
    }
    Trace {
        name: name.to_string(),
        cats,
        rows,
        z,
        ..Default::default()
    }
}

/// A heatmap and a 3-D surface of `tr`, ids `{id}-Heatmap` and `{id}-Surface`; `x` titles the
/// categories, `y` the rows.
pub fn charts(id: &str, section: &str, title: &str, x: &str, y: &str, tr: Trace) -> Vec<Chart> {
    [Kind::Heatmap, Kind::Surface]
        .into_iter()
        .map(|kind| {
            let mut c = Chart::new(format!("{id}-{kind:?}"), section, title, kind).axes(x, y);
            c.traces.push(tr.clone());
            c
        })
        .collect()
}
