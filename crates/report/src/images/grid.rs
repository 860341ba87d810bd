//! A grid chart as a static image: a table with the tests down the left, one column per
//! category (Read, Write), each cell holding its value large and its note small beneath, as
//! the page's quick grid shows it.

use super::{font, DrawErr, TITLE_PX};
use crate::charts::quick::grouped;
use crate::charts::{Chart, Trace};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// Room between the title and the table, and for the row labels on its left (px).
const TOP: i32 = 20;
const LEFT: i32 = 200;
const HEAD: i32 = 40;
const MARGIN: i32 = 20;

/// Draw `t` (values `z` per row, then per category, notes row by row) as a table on `root`.
pub(super) fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    c: &Chart,
    t: &Trace,
) -> Result<(), DrawErr>
where
    DB::ErrorType: 'static,
{
    // The title as a chart's frame sets it, the table below.
    let root = &root.margin(12, 0, 0, 0).titled(&c.title, font(TITLE_PX))?;
    let (w, h) = root.dim_in_pixel();
    let (w, h) = (w as i32, h as i32);
    let (nx, ny) = (t.cats.len().max(1) as i32, t.rows.len().max(1) as i32);
    let cell_w = (w - LEFT - MARGIN) / nx;
    let cell_h = (h - TOP - HEAD - MARGIN) / ny;
    let head = font(18).color(&BLACK);
    for (i, name) in t.cats.iter().enumerate() {
        let x = LEFT + cell_w * i as i32 + cell_w / 2;
        root.draw(&Text::new(
            format!("{name} ({})", t.name),
            (x, TOP + HEAD / 2),
            head.clone().pos(Pos::new(HPos::Center, VPos::Center)),
        ))?;
    }
    let big = font(30).color(&BLACK);
    let small = font(14).color(&RGBColor(70, 70, 70));
    let grey = font(18).color(&RGBColor(120, 120, 120));
    for (r, name) in t.rows.iter().enumerate() {
        let y0 = TOP + HEAD + cell_h * r as i32;
        root.draw(&Text::new(
            name.clone(),
            (LEFT - 14, y0 + cell_h / 2),
            head.clone().pos(Pos::new(HPos::Right, VPos::Center)),
        ))?;
        for i in 0..t.cats.len() {
            let x0 = LEFT + cell_w * i as i32;
            let v = t.z.get(r).and_then(|row| row.get(i)).copied();
            let ran = v.is_some_and(f64::is_finite);
            let fill = if ran {
                RGBColor(232, 240, 250)
            } else {
                RGBColor(240, 240, 240)
            };
            let (a, b) = ((x0 + 3, y0 + 3), (x0 + cell_w - 3, y0 + cell_h - 3));
            root.draw(&Rectangle::new([a, b], fill.filled()))?;
            root.draw(&Rectangle::new([a, b], RGBColor(160, 170, 190)))?;
            let mid = (x0 + cell_w / 2, y0 + cell_h / 2);
            let centre = Pos::new(HPos::Center, VPos::Center);
            let note = t.notes.get(r * t.cats.len() + i).cloned();
            match v.filter(|v| v.is_finite()) {
                Some(v) => {
                    root.draw(&Text::new(
                        grouped(v, 2),
                        (mid.0, mid.1 - 10),
                        big.clone().pos(centre),
                    ))?;
                    if let Some(n) = note.filter(|n| !n.is_empty()) {
                        root.draw(&Text::new(
                            n,
                            (mid.0, mid.1 + 22),
                            small.clone().pos(centre),
                        ))?;
                    }
                }
                None => root.draw(&Text::new(
                    note.unwrap_or_else(|| "not run".into()),
                    mid,
                    grey.clone().pos(centre),
                ))?,
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::tests::{svg_of, texts_of};
    use crate::charts::quick::charts;
    use crate::charts::quick_jobs::job;
    use crate::model::Source;

    /// A quick run's grid image: one heading per column with its unit, one label per test,
    /// each value written once with its IOPS and mean latency beneath, a test that did not
    /// run said so.
    #[test]
    fn the_grid_image_writes_every_cell() {
        let s = Source {
            label: "q".into(),
            jobs: vec![
                job("SEQ1M-Q8T1-read", "read", 3010.0, 3_157_000_000.0),
                job("SEQ1M-Q8T1-write", "write", 1000.0, 1_048_576_000.0),
                job("RND4K-Q1T1-read", "read", 243_472.0, 997_260_000.0),
            ],
            ..Default::default()
        };
        let c = charts(std::slice::from_ref(&s));
        assert_eq!(c.len(), 1);
        let texts = texts_of(&svg_of(&c[0]));
        for want in [
            "quick (MB/s)",
            "Read (MB/s)",
            "Write (MB/s)",
            "SEQ1M Q8T1",
            "RND4K Q1T1",
            "3,157.00",
            "1,048.58",
            "997.26",
            "243472 IOPS, mean 2.5 µs",
            "not run",
        ] {
            assert_eq!(
                texts.iter().filter(|t| t.as_str() == want).count(),
                1,
                "{want} in {texts:?}"
            );
        }
    }
}
