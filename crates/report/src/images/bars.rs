//! Bars per category (the first trace's categories), the traces side by side in each; lines
//! of a second unit (`Trace::y2`, a sweep's latency over its IOPS bars) drawn over them
//! against their own axis on the right, titled with that unit. With more than one series the
//! legend stands in a strip right of the chart, outside the data.

use super::{bounds, cat_axis, category_chart, color, font, short, DrawErr};
use crate::charts::Chart;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// The width of the legend strip (px).
const LEGEND_W: u32 = 190;

pub(super) fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    c: &Chart,
) -> Result<(), DrawErr>
where
    DB::ErrorType: 'static,
{
    let bars: Vec<_> = c.traces.iter().filter(|t| !t.y2).collect();
    let lines: Vec<_> = c
        .traces
        .iter()
        .filter(|t| t.y2 && !c.y2_title.is_empty())
        .collect();
    let legend = bars.len() + lines.len() > 1;
    let (w, _) = root.dim_in_pixel();
    let (plot, strip) = if legend {
        root.split_horizontally(w.saturating_sub(LEGEND_W))
    } else {
        root.split_horizontally(w)
    };
    let axis = cat_axis(&plot, c);
    let n = axis.labels.len().max(1);
    let (_, y1) = bounds(
        bars.iter()
            .flat_map(|t| t.y.iter().copied())
            .filter(|v| v.is_finite())
            .chain([0.0]),
    );
    let (_, l1) = bounds(
        lines
            .iter()
            .flat_map(|t| t.y.iter().copied())
            .filter(|v| v.is_finite())
            .chain([0.0]),
    );
    let x_range = -0.5..(n as f64 - 0.5);
    let mut b = category_chart(&plot, c, &axis);
    if !lines.is_empty() {
        b.right_y_label_area_size(80);
    }
    let mut ch = b
        .build_cartesian_2d(x_range.clone(), 0.0..y1 * 1.05)?
        .set_secondary_coord(x_range, 0.0..l1 * 1.1);
    let fmt = |v: &f64| axis.mesh_label(*v);
    ch.configure_mesh()
        .x_labels(n)
        .x_label_style(axis.style())
        .axis_desc_style(axis.style())
        .x_desc(c.x_title.as_str())
        .y_desc(c.y_title.as_str())
        .x_label_formatter(&fmt)
        .y_label_formatter(&|v| short(*v))
        .disable_x_mesh()
        .light_line_style(RGBColor(235, 235, 235))
        .draw()?;
    axis.draw_upright(&plot, |i| ch.backend_coord(&(i as f64, 0.0)))?;
    let k = bars.len().max(1) as f64;
    let bw = 0.8 / k;
    let mut keys: Vec<(String, RGBColor, bool)> = Vec::new();
    for (i, t) in bars.iter().enumerate() {
        let col = color(i);
        ch.draw_series(
            t.y.iter()
                .enumerate()
                .filter(|(_, y)| y.is_finite())
                .map(|(j, &y)| {
                    let x = j as f64 - 0.4 + bw * i as f64;
                    Rectangle::new([(x, 0.0), (x + bw * 0.95, y)], col.filled())
                }),
        )?;
        keys.push((t.name.clone(), col, false));
    }
    if !lines.is_empty() {
        ch.configure_secondary_axes()
            .y_desc(c.y2_title.as_str())
            .y_label_formatter(&|v| short(*v))
            .draw()?;
    }
    for (i, t) in lines.iter().enumerate() {
        // Dark shades of their own, so a line never takes a bar's colour.
        let col = line_color(i);
        let pts: Vec<(f64, f64)> =
            t.y.iter()
                .enumerate()
                .filter(|(_, y)| y.is_finite())
                .map(|(j, &y)| (j as f64, y))
                .collect();
        ch.draw_secondary_series(LineSeries::new(pts.clone(), col.stroke_width(2)))?;
        ch.draw_secondary_series(pts.iter().map(|&p| Circle::new(p, 4, col.filled())))?;
        keys.push((t.name.clone(), col, true));
    }
    if legend {
        legend_strip(&strip, &keys)?;
    }
    Ok(())
}

/// The colour of the `i`th latency line.
fn line_color(i: usize) -> RGBColor {
    const P: [RGBColor; 4] = [
        RGBColor(0, 0, 0),
        RGBColor(120, 30, 30),
        RGBColor(30, 90, 30),
        RGBColor(60, 40, 120),
    ];
    P[i % P.len()]
}

/// One legend entry per series, a swatch (bar) or a short line with a dot (line) and its
/// name, top down from where the plots start.
fn legend_strip<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    keys: &[(String, RGBColor, bool)],
) -> Result<(), DrawErr>
where
    DB::ErrorType: 'static,
{
    let font = font(12).color(&BLACK);
    for (i, (name, col, line)) in keys.iter().enumerate() {
        let y = 60 + 22 * i as i32;
        if *line {
            area.draw(&PathElement::new(
                vec![(6, y), (26, y)],
                col.stroke_width(2),
            ))?;
            area.draw(&Circle::new((16, y), 4, col.filled()))?;
        } else {
            area.draw(&Rectangle::new([(8, y - 6), (24, y + 6)], col.filled()))?;
        }
        area.draw(&Text::new(
            name.clone(),
            (32, y),
            font.clone().pos(Pos::new(HPos::Left, VPos::Center)),
        ))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::tests::{svg_of, texts_of};
    use crate::charts::{bars, Chart, Kind, Trace};
    use plotters::style::RGBColor;

    /// The points of the first latency line (in the first line colour) of an SVG.
    fn line_points(svg: &str) -> Vec<(f64, f64)> {
        let line = svg
            .split("<polyline")
            .skip(1)
            .find(|p| p.contains("stroke=\"#000000\"") && p.contains("stroke-width=\"2\""))
            .expect("the latency line");
        let pts = line.split("points=\"").nth(1).unwrap().split('"').next();
        pts.unwrap()
            .split_whitespace()
            .map(|p| {
                let (x, y) = p.split_once(',').unwrap();
                (x.parse().unwrap(), y.parse().unwrap())
            })
            .collect()
    }

    /// A sweep's IOPS bars with its latency as lines on a second axis: the axis titled with
    /// its unit on the right, the lines drawn, and every series named in the strip right of
    /// the data.
    #[test]
    fn sweep_bars_carry_their_latency_line_on_a_second_axis() {
        let cats = ["1", "4", "16", "64"].map(String::from);
        let mut c =
            Chart::new("s".into(), "s", "IOPS by iodepth", Kind::Bars).axes("iodepth", "IOPS");
        c.y2_title = "mean latency (us)".into();
        c.traces.push(bars(
            "IOPS",
            cats.iter().cloned().zip([1000.0, 3500.0, 9000.0, 12000.0]),
        ));
        c.traces.push(Trace {
            name: "mean latency".into(),
            cats: cats.to_vec(),
            y: vec![90.0, 110.0, 170.0, 520.0],
            y2: true,
            ..Default::default()
        });
        let svg = svg_of(&c);
        let texts = texts_of(&svg);
        assert!(texts.iter().any(|t| t == "mean latency (us)"), "{texts:?}");
        assert!(texts.iter().any(|t| t == "IOPS"), "{texts:?}");
        // The line: one path through the four depths, in the first line colour.
        let pts = line_points(&svg);
        assert_eq!(pts.len(), 4, "{pts:?}");
    }

    /// The legend of a sweep's chart stands right of the plot: its names and swatches start
    /// where the data (bars, latency line, right axis) has ended.
    #[test]
    fn sweep_legend_stands_right_of_the_data() {
        let cats = ["4k", "64k", "1m"].map(String::from);
        let mut c = Chart::new("s".into(), "s", "IOPS by bs", Kind::Bars).axes("bs", "IOPS");
        c.y2_title = "mean latency (us)".into();
        for (i, name) in ["iodepth=1", "iodepth=16"].into_iter().enumerate() {
            let k = (i + 1) as f64;
            c.traces.push(bars(
                name,
                cats.iter()
                    .cloned()
                    .zip([9000.0 * k, 4000.0 * k, 900.0 * k]),
            ));
        }
        c.traces.push(Trace {
            name: "mean latency".into(),
            cats: cats.to_vec(),
            y: vec![90.0, 210.0, 1700.0],
            y2: true,
            ..Default::default()
        });
        let svg = svg_of(&c);
        let num = |el: &str, attr: &str| -> f64 {
            let at = format!(" {attr}=\"");
            el.split(&at)
                .nth(1)
                .unwrap()
                .split('"')
                .next()
                .unwrap()
                .parse()
                .unwrap()
        };
        let edge = f64::from(super::super::W - super::LEGEND_W);
        // The legend's names: each series once, right of the edge.
        for name in ["iodepth=1", "iodepth=16", "mean latency"] {
            let xs: Vec<f64> = svg
                .split("<text")
                .skip(1)
                .filter(|t| {
                    t.split('>')
                        .nth(1)
                        .and_then(|v| v.split('<').next())
                        .map(str::trim)
                        == Some(name)
                })
                .map(|t| num(t, "x"))
                .collect();
            assert_eq!(xs.len(), 1, "{name}: {xs:?}");
            assert!(xs[0] > edge, "{name} at x {} left of {edge}", xs[0]);
        }
        // The data: the latency line's points and the bars (all but the legend's swatches,
        // which are the rightmost rectangles of each colour) end left of the edge.
        for (x, _) in line_points(&svg) {
            assert!(x < edge, "a latency point at x {x}");
        }
        for i in 0..2 {
            let RGBColor(r, g, b) = super::super::color(i);
            let fill = format!("fill=\"#{r:02X}{g:02X}{b:02X}\"");
            let mut right: Vec<(f64, f64)> = svg
                .split("<rect")
                .skip(1)
                .filter(|r| r.split('>').next().unwrap().contains(&fill))
                .map(|r| (num(r, "x"), num(r, "x") + num(r, "width")))
                .collect();
            right.sort_by(|a, b| a.0.total_cmp(&b.0));
            let swatch = right.pop().expect("the legend's swatch");
            assert!(swatch.0 > edge, "swatch {i} at {swatch:?}");
            assert_eq!(right.len(), 3, "series {i}: {right:?}");
            assert!(right.iter().all(|r| r.1 < edge), "series {i}: {right:?}");
        }
    }
}
