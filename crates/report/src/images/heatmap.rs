//! A heat map as a static image: equal cells over categorical axes (one tick label per row and
//! column, at its centre), each cell coloured on the Viridis scale and carrying its value, and
//! a colour bar on the right titled with the figure, as the HTML page draws it.

use super::{bounds, font, frame, short, DrawErr};
use crate::charts::{Chart, Trace};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// Width of the colour bar and the room for its labels and title (px).
const BAR_W: u32 = 18;
const BAR_ROOM: u32 = 110;

/// Draw `t` (values `z` per row, then per category) as a heat map on `root`.
pub(super) fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    c: &Chart,
    t: &Trace,
) -> Result<(), DrawErr>
where
    DB::ErrorType: 'static,
{
    let (nx, ny) = (t.cats.len().max(1), t.rows.len().max(1));
    let (z0, z1) = bounds(t.z.iter().flatten().copied().filter(|v| v.is_finite()));
    let (w, _) = root.dim_in_pixel();
    let (plot, bar) = root.split_horizontally(w.saturating_sub(BAR_ROOM));
    let mut ch = frame(&plot, c)
        .x_label_area_size(50)
        .y_label_area_size(80)
        .build_cartesian_2d(0.0..nx as f64, 0.0..ny as f64)?;
    // The mesh's own labels would fall on round numbers, not on the cells: none of them, and
    // one label per column and row at its centre instead.
    ch.configure_mesh()
        .disable_mesh()
        .x_labels(0)
        .y_labels(0)
        .x_desc(c.x_title.as_str())
        .y_desc(c.y_title.as_str())
        .draw()?;
    let label = font(12).color(&BLACK);
    for (i, name) in t.cats.iter().enumerate() {
        let (px, py) = ch.backend_coord(&(i as f64 + 0.5, 0.0));
        plot.draw(&Text::new(
            name.clone(),
            (px, py + 8),
            label.clone().pos(Pos::new(HPos::Center, VPos::Top)),
        ))?;
    }
    for (i, name) in t.rows.iter().enumerate() {
        let (px, py) = ch.backend_coord(&(0.0, i as f64 + 0.5));
        plot.draw(&Text::new(
            name.clone(),
            (px - 8, py),
            label.clone().pos(Pos::new(HPos::Right, VPos::Center)),
        ))?;
    }
    let cells: Vec<(f64, f64, f64)> =
        t.z.iter()
            .enumerate()
            .flat_map(|(r, row)| {
                row.iter()
                    .enumerate()
                    .filter(|(_, v)| v.is_finite())
                    .map(move |(k, &v)| (k as f64, r as f64, v))
            })
            .collect();
    ch.draw_series(cells.iter().map(|&(x, y, v)| {
        Rectangle::new(
            [(x, y), (x + 1.0, y + 1.0)],
            viridis(fraction(v, z0, z1)).filled(),
        )
    }))?;
    let centred = Pos::new(HPos::Center, VPos::Center);
    ch.draw_series(cells.iter().map(|&(x, y, v)| {
        let ink = if fraction(v, z0, z1) > 0.6 {
            BLACK
        } else {
            WHITE
        };
        Text::new(
            short(v),
            (x + 0.5, y + 0.5),
            font(14).color(&ink).pos(centred),
        )
    }))?;
    let (top, bottom) = (
        ch.plotting_area().get_pixel_range().1.start,
        ch.plotting_area().get_pixel_range().1.end,
    );
    colour_bar(&bar, &t.name, (z0, z1), (top, bottom))
}

/// The colour bar: the scale from `z.0` (bottom) to `z.1` (top) between pixel rows `rows`,
/// five labelled ticks, titled with the figure.
fn colour_bar<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    title: &str,
    z: (f64, f64),
    rows: (i32, i32),
) -> Result<(), DrawErr>
where
    DB::ErrorType: 'static,
{
    let (top, bottom) = rows;
    let h = (bottom - top).max(1);
    let x0 = 8;
    for py in top..bottom {
        let f = f64::from(bottom - py) / f64::from(h);
        area.draw(&Rectangle::new(
            [(x0, py), (x0 + BAR_W as i32, py + 1)],
            viridis(f).filled(),
        ))?;
    }
    area.draw(&Rectangle::new(
        [(x0, top), (x0 + BAR_W as i32, bottom)],
        BLACK.stroke_width(1),
    ))?;
    let font = font(12);
    for i in 0..=4 {
        let f = f64::from(i) / 4.0;
        let py = bottom - (f * f64::from(h)).round() as i32;
        let right = x0 + BAR_W as i32;
        area.draw(&PathElement::new(vec![(right, py), (right + 4, py)], BLACK))?;
        area.draw(&Text::new(
            short(z.0 + f * (z.1 - z.0)),
            (right + 7, py),
            font.clone()
                .color(&BLACK)
                .pos(Pos::new(HPos::Left, VPos::Center)),
        ))?;
    }
    area.draw(&Text::new(
        title.to_string(),
        (x0, top - 10),
        font.color(&BLACK).pos(Pos::new(HPos::Left, VPos::Bottom)),
    ))?;
    Ok(())
}

/// Where `v` sits between `z0` and `z1`, from 0 to 1.
fn fraction(v: f64, z0: f64, z1: f64) -> f64 {
    if z1 > z0 {
        ((v - z0) / (z1 - z0)).clamp(0.0, 1.0)
    } else {
        0.5
    }
}

/// The Viridis colour at `f` (0 dark purple, 1 yellow), from its published stops.
pub(super) fn viridis(f: f64) -> RGBColor {
    const STOPS: [(f64, f64, f64); 5] = [
        (68.0, 1.0, 84.0),
        (59.0, 82.0, 139.0),
        (33.0, 145.0, 140.0),
        (94.0, 201.0, 98.0),
        (253.0, 231.0, 37.0),
    ];
    let p = f.clamp(0.0, 1.0) * (STOPS.len() - 1) as f64;
    let i = (p.floor() as usize).min(STOPS.len() - 2);
    let k = p - i as f64;
    let (a, b) = (STOPS[i], STOPS[i + 1]);
    let mix = |x: f64, y: f64| (x + (y - x) * k).round() as u8;
    RGBColor(mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}
