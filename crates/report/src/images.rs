//! Static images of the charts (PNG or SVG) drawn with plotters, no browser needed. Text uses a
//! bundled font (DejaVu Sans), so nothing depends on the fonts installed on the machine.
//! Logarithmic axes are drawn in log10 space with the labels in the original unit; 3-D surfaces
//! are drawn in 3-D, each patch coloured by its value and shaded by its slope.

use crate::charts::{Chart, Kind, Scale};
use crate::ReportError;
use categories::CatAxis;
pub(crate) use font::{font, fonts};
use plotters::coord::cartesian::Cartesian3d;
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;
use std::path::Path;
use ticked::Ticked;

mod bars;
mod categories;
mod font;
mod grid;
mod heatmap;
mod ticked;
mod typeset;

use typeset::Typeset;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Png,
    Svg,
}

impl Format {
    pub fn ext(self) -> &'static str {
        match self {
            Format::Png => "png",
            Format::Svg => "svg",
        }
    }
}

const W: u32 = 1000;
const H: u32 = 560;

fn color(i: usize) -> RGBColor {
    const P: [RGBColor; 8] = [
        RGBColor(31, 119, 180),
        RGBColor(255, 127, 14),
        RGBColor(44, 160, 44),
        RGBColor(214, 39, 40),
        RGBColor(148, 103, 189),
        RGBColor(140, 86, 75),
        RGBColor(227, 119, 194),
        RGBColor(127, 127, 127),
    ];
    P[i % P.len()]
}

fn short(v: f64) -> String {
    let a = v.abs();
    if a >= 1e6 {
        format!("{:.1}M", v / 1e6)
    } else if a >= 1e4 {
        format!("{:.0}k", v / 1e3)
    } else if a >= 100.0 || v.fract() == 0.0 {
        format!("{v:.0}")
    } else if a >= 1.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.3}")
    }
}

type DrawErr = Box<dyn std::error::Error>;

/// The size of a chart's title (px).
const TITLE_PX: u32 = 22;

/// The canvas every image is drawn on: all of `backend`, white, the bundled font ready.
fn canvas<DB: DrawingBackend>(backend: DB) -> Result<DrawingArea<DB, Shift>, DrawErr>
where
    DB::ErrorType: 'static,
{
    fonts();
    let root = backend.into_drawing_area();
    root.fill(&WHITE)?;
    Ok(root)
}

/// The bitmap of a PNG image of `W` x `H` pixels at `path`, its text set glyph by glyph.
fn bitmap(path: &Path) -> Typeset<BitMapBackend<'_>> {
    Typeset(BitMapBackend::new(path, (W, H)))
}

/// The frame of a chart with axes: its title above, a margin around.
fn frame<'a, 'b, DB: DrawingBackend>(
    root: &'a DrawingArea<DB, Shift>,
    c: &'b Chart,
) -> ChartBuilder<'a, 'b, DB> {
    let mut b = ChartBuilder::on(root);
    b.caption(&c.title, font(TITLE_PX)).margin(12);
    b
}

/// Draw one chart on a canvas of `backend`, as its kind asks.
fn draw<DB: DrawingBackend>(backend: DB, c: &Chart) -> Result<(), DrawErr>
where
    DB::ErrorType: 'static,
{
    let root = canvas(backend)?;
    match c.kind {
        Kind::Lines
            if c.traces
                .first()
                .is_some_and(|t| t.x.is_empty() && !t.cats.is_empty()) =>
        {
            draw_cat_lines(&root, c)?
        }
        Kind::Lines | Kind::Histogram => draw_xy(&root, c)?,
        Kind::Bars => bars::draw(&root, c)?,
        Kind::Surface => {
            if let Some(t) = c.traces.first() {
                surface(&root, c, t)?;
            }
        }
        Kind::Heatmap => {
            let Some(t) = c.traces.first() else {
                return Ok(());
            };
            heatmap::draw(&root, c, t)?;
        }
        Kind::Grid => {
            if let Some(t) = c.traces.first() {
                grid::draw(&root, c, t)?;
            }
        }
    }
    root.present()?;
    Ok(())
}

/// Lines or histogram bars over a numeric x axis, each axis on its chart's scale with ticks
/// from [`Scale::ticks`], one colour and legend entry per trace.
fn draw_xy<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, c: &Chart) -> Result<(), DrawErr>
where
    DB::ErrorType: 'static,
{
    let (sx, sy) = (c.x_scale, c.y_scale);
    let at = |t: &crate::charts::Trace| -> Vec<(f64, f64)> {
        t.x.iter()
            .zip(&t.y)
            .map(|(&x, &y)| (sx.to_axis(x), sy.to_axis(y)))
            .filter(|p| p.0.is_finite() && p.1.is_finite())
            .collect()
    };
    let pts: Vec<(f64, f64)> = c.traces.iter().flat_map(at).collect();
    let (x0, x1) = bounds(pts.iter().map(|p| p.0));
    let (y0, y1) = match sy {
        Scale::Linear => {
            let (_, hi) = bounds(pts.iter().map(|p| p.1).chain([0.0]));
            (0.0, hi * 1.05)
        }
        _ => {
            let (lo, hi) = bounds(pts.iter().map(|p| p.1));
            let pad = (hi - lo) * 0.05;
            (lo - pad, hi + pad)
        }
    };
    let (kx, ky) = (sx.ticks(x0, x1), sy.ticks(y0, y1));
    // The last x label is centred on the plot's right edge (99.99 on a nines axis): the
    // right margin holds its half.
    let mut ch = frame(root, c)
        .margin_right(40)
        .x_label_area_size(45)
        .y_label_area_size(70)
        .build_cartesian_2d(Ticked::new(x0, x1, kx), Ticked::new(y0, y1, ky))?;
    ch.configure_mesh()
        .x_desc(c.x_title.as_str())
        .y_desc(c.y_title.as_str())
        .x_label_formatter(&|v| sx.label(*v))
        .y_label_formatter(&|v| sy.label(*v))
        .bold_line_style(BLACK.mix(0.12))
        .draw()?;
    for (i, t) in c.traces.iter().enumerate() {
        let col = color(i);
        let pts = at(t);
        if c.kind == Kind::Histogram {
            let w = pts
                .windows(2)
                .map(|p| p[1].0 - p[0].0)
                .fold(f64::INFINITY, f64::min)
                .min((x1 - x0) / 50.0)
                .max((x1 - x0) / 2000.0);
            ch.draw_series(pts.iter().map(|&(x, y)| {
                Rectangle::new([(x - w / 2.0, y0), (x + w / 2.0, y)], col.filled())
            }))?
            .label(&t.name)
            .legend(move |(x, y)| Rectangle::new([(x, y - 4), (x + 12, y + 4)], col.filled()));
        } else {
            ch.draw_series(LineSeries::new(pts, col.stroke_width(2)))?
                .label(&t.name)
                .legend(move |(x, y)| PathElement::new([(x, y), (x + 16, y)], col.stroke_width(2)));
        }
    }
    if c.traces.len() > 1 {
        // Rising curves (percentiles, CDFs) leave their upper left empty.
        let at = if sx == Scale::Linear {
            SeriesLabelPosition::MiddleRight
        } else {
            SeriesLabelPosition::UpperLeft
        };
        ch.configure_series_labels()
            .position(at)
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()?;
    }
    Ok(())
}

/// The label of category axis position `v`: the category at a whole position, else nothing.
fn cat_label(cats: &[String], v: f64) -> String {
    let i = v.round();
    if (v - i).abs() < 1e-6 && i >= 0.0 {
        cats.get(i as usize).cloned().unwrap_or_default()
    } else {
        String::new()
    }
}

/// The frame of a chart over categories: its title and label areas, the x labels laid out
/// by [`categories::layout`].
fn category_chart<'a, 'b, DB: DrawingBackend>(
    root: &'a DrawingArea<DB, Shift>,
    c: &'b Chart,
    axis: &CatAxis,
) -> ChartBuilder<'a, 'b, DB> {
    let mut b = frame(root, c);
    b.x_label_area_size(axis.area).y_label_area_size(70);
    b
}

/// The category axis of chart `c` (the first trace's categories).
fn cat_axis<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, c: &Chart) -> CatAxis {
    let cats: Vec<String> = c.traces.first().map(|t| t.cats.clone()).unwrap_or_default();
    categories::layout(root, &cats, W - 100)
}

/// Lines over categories (a figure across runs): the first trace as a line with its spread
/// as whiskers, the others as marks on the categories they name.
fn draw_cat_lines<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    c: &Chart,
) -> Result<(), DrawErr>
where
    DB::ErrorType: 'static,
{
    let cats: Vec<String> = c.traces.first().map(|t| t.cats.clone()).unwrap_or_default();
    let axis = cat_axis(root, c);
    let n = cats.len().max(1);
    let (_, y1) = bounds(
        c.traces
            .iter()
            .flat_map(|t| t.y.iter().copied().chain(t.spread.iter().map(|s| s.1)))
            .filter(|v| v.is_finite())
            .chain([0.0]),
    );
    let mut ch = category_chart(root, c, &axis)
        .build_cartesian_2d(-0.5..(n as f64 - 0.5), 0.0..y1 * 1.05)?;
    let fmt = |v: &f64| axis.mesh_label(*v);
    ch.configure_mesh()
        .x_labels(n.min(12))
        .x_label_style(axis.style())
        .axis_desc_style(axis.style())
        .x_desc(c.x_title.as_str())
        .y_desc(c.y_title.as_str())
        .x_label_formatter(&fmt)
        .y_label_formatter(&|v| short(*v))
        .disable_x_mesh()
        .draw()?;
    axis.draw_upright(root, |i| ch.backend_coord(&(i as f64, 0.0)))?;
    let at = |cat: &String| cats.iter().position(|c| c == cat).map(|i| i as f64);
    for (i, t) in c.traces.iter().enumerate() {
        let col = color(i);
        let pts: Vec<(f64, f64)> = t
            .cats
            .iter()
            .zip(&t.y)
            .filter_map(|(cat, &y)| Some((at(cat)?, y)))
            .filter(|p| p.1.is_finite())
            .collect();
        if i == 0 {
            ch.draw_series(LineSeries::new(pts.clone(), col.stroke_width(2)))?
                .label(&t.name)
                .legend(move |(x, y)| PathElement::new([(x, y), (x + 16, y)], col.stroke_width(2)));
            ch.draw_series(pts.iter().map(|&p| Circle::new(p, 4, col.filled())))?;
            ch.draw_series(pts.iter().zip(&t.spread).map(|(&(x, _), &(lo, hi))| {
                PathElement::new([(x, lo), (x, hi)], BLACK.stroke_width(1))
            }))?;
        } else {
            ch.draw_series(pts.iter().map(|&p| Cross::new(p, 7, col.stroke_width(3))))?
                .label(&t.name)
                .legend(move |(x, y)| Cross::new((x + 6, y), 5, col.stroke_width(3)));
        }
    }
    if c.traces.len() > 1 {
        ch.configure_series_labels()
            .position(SeriesLabelPosition::LowerRight)
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()?;
    }
    Ok(())
}

/// The colour of `v` on the `z0..z1` scale (blue low, red high), `shade` darker (0 to 1).
fn scale(v: f64, z0: f64, z1: f64, shade: f64) -> HSLColor {
    let f = if z1 > z0 { (v - z0) / (z1 - z0) } else { 0.5 };
    HSLColor(
        0.66 * (1.0 - f.clamp(0.0, 1.0)),
        0.8,
        0.5 * (1.0 - 0.45 * shade),
    )
}

/// The coordinates of a 3-D surface: categories across, values up, rows deep.
type Coords3d = Cartesian3d<RangedCoordf64, RangedCoordf64, RangedCoordf64>;

/// One patch of a surface: its projected depth, corners, mean value and slope (0 to 1).
type Quad = (i32, Vec<(f64, f64, f64)>, f64, f64);

/// A 3-D surface: one quadrilateral per four neighbouring cells, coloured by its mean value and
/// shaded by its slope, drawn back to front; categories (x) and rows (depth) are evenly spaced
/// and labelled with their values, the height is the value. A single row or column is drawn as
/// a ribbon one step deep.
fn surface<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    c: &Chart,
    t: &crate::charts::Trace,
) -> Result<(), DrawErr>
where
    DB::ErrorType: 'static,
{
    let g = surface_grid(t);
    let ny = g.len();
    let nx = g.iter().map(Vec::len).max().unwrap_or(0);
    if nx < 2 {
        return Ok(());
    }
    let (z0, z1) = bounds(g.iter().flatten().copied().filter(|v| v.is_finite()));
    let span = (z1 - z0).abs().max(1e-12);
    let base = if z0 >= 0.0 { 0.0 } else { z0 };
    let mut ch = frame(root, c).margin(20).build_cartesian_3d(
        0.0..(nx - 1) as f64,
        base..z1 + span * 0.05,
        0.0..(ny - 1) as f64,
    )?;
    ch.with_projection(|mut p| {
        p.yaw = 0.6;
        p.pitch = 0.45;
        p.scale = 0.75;
        p.into_matrix()
    });
    surface_axes(&mut ch, t, nx, ny)?;
    let mut quads = surface_quads(ch.as_coord_spec(), &g, span);
    // Farthest (smallest projected depth) first, so nearer patches cover them.
    quads.sort_by_key(|q| q.0);
    for (_, pts, mean, slope) in &quads {
        ch.draw_series([Polygon::new(
            pts.clone(),
            scale(*mean, z0, z1, *slope).filled(),
        )])?;
        let mut ring = pts.clone();
        ring.push(pts[0]);
        ch.draw_series([PathElement::new(ring, BLACK.mix(0.4))])?;
    }
    let style = font(14).color(&BLACK);
    let (_, h) = root.dim_in_pixel();
    root.draw_text(
        &format!(
            "across: {}; deep: {}; height: {}",
            c.x_title, c.y_title, t.name
        ),
        &style,
        (12, h as i32 - 22),
    )?;
    Ok(())
}

/// The surface's values, a single column or row repeated so that it has patches to draw.
fn surface_grid(t: &crate::charts::Trace) -> Vec<Vec<f64>> {
    let mut g: Vec<Vec<f64>> = t.z.clone();
    for row in &mut g {
        if row.len() == 1 {
            row.push(row[0]);
        }
    }
    if g.len() == 1 {
        g.push(g[0].clone());
    }
    g
}

/// Draw the surface's axes: categories across and rows deep, labelled with their names.
fn surface_axes<DB: DrawingBackend>(
    ch: &mut ChartContext<'_, DB, Coords3d>,
    t: &crate::charts::Trace,
    nx: usize,
    ny: usize,
) -> Result<(), DrawErr>
where
    DB::ErrorType: 'static,
{
    let label = |names: &[String], v: f64| {
        let i = v.round();
        if (v - i).abs() < 1e-6 && i >= 0.0 {
            names.get(i as usize).cloned().unwrap_or_default()
        } else {
            String::new()
        }
    };
    let xl = |v: &f64| label(&t.cats, *v);
    let zl = |v: &f64| label(&t.rows, *v);
    ch.configure_axes()
        .x_labels(nx)
        .z_labels(ny)
        .x_formatter(&xl)
        .z_formatter(&zl)
        .y_formatter(&|v| short(*v))
        .label_style(font(12))
        .draw()?;
    Ok(())
}

/// The patches of the surface `g`, one per four neighbouring cells all measured, unsorted.
fn surface_quads(coords: &Coords3d, g: &[Vec<f64>], span: f64) -> Vec<Quad> {
    let ny = g.len();
    let nx = g.iter().map(Vec::len).max().unwrap_or(0);
    let mut quads: Vec<Quad> = Vec::new();
    for r in 0..ny - 1 {
        for x in 0..nx - 1 {
            let corners = [(r, x), (r, x + 1), (r + 1, x + 1), (r + 1, x)];
            let vals: Vec<f64> = corners
                .iter()
                .filter_map(|&(a, b)| g[a].get(b).copied().filter(|v| v.is_finite()))
                .collect();
            if vals.len() < 4 {
                continue;
            }
            let pts: Vec<(f64, f64, f64)> = corners
                .iter()
                .zip(&vals)
                .map(|(&(a, b), &v)| (b as f64, v, a as f64))
                .collect();
            let mean = vals.iter().sum::<f64>() / 4.0;
            // Light from above: the steeper the patch, the darker.
            let slope = ((vals[1] - vals[0]).abs() + (vals[3] - vals[0]).abs()) / (2.0 * span);
            let depth = coords.projected_depth(&(x as f64 + 0.5), &mean, &(r as f64 + 0.5));
            quads.push((depth, pts, mean, slope.min(1.0)));
        }
    }
    quads
}

fn bounds(it: impl Iterator<Item = f64>) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for v in it {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if !lo.is_finite() {
        return (0.0, 1.0);
    }
    if hi <= lo {
        return (lo - 0.5, hi + 0.5);
    }
    (lo, hi)
}

/// Draw one chart into `path`.
pub fn write_chart(path: &Path, c: &Chart, f: Format) -> Result<(), ReportError> {
    crate::output::write_with(path, |tmp| {
        let res = match f {
            Format::Png => draw(bitmap(tmp), c),
            Format::Svg => draw(SVGBackend::new(tmp, (W, H)), c),
        };
        res.map_err(|e| e.to_string().into())
    })
}

/// Draw every chart into `dir` (created if missing) as `<id>.<ext>`; returns how many.
pub fn write_all(dir: &Path, charts: &[Chart], f: Format) -> Result<usize, ReportError> {
    std::fs::create_dir_all(dir).map_err(|source| ReportError::Write {
        path: dir.to_path_buf(),
        source,
    })?;
    for c in charts {
        write_chart(&dir.join(format!("{}.{}", c.id, f.ext())), c, f)?;
    }
    Ok(charts.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::charts::Trace;

    /// `c` drawn as SVG.
    pub(super) fn svg_of(c: &Chart) -> String {
        fonts();
        let mut svg = String::new();
        draw(SVGBackend::with_string(&mut svg, (W, H)), c).unwrap();
        svg
    }

    /// The texts an SVG writes, trimmed, in order.
    pub(super) fn texts_of(svg: &str) -> Vec<String> {
        svg.split("<text")
            .skip(1)
            .filter_map(|t| Some(t.split('>').nth(1)?.split('<').next()?.trim().to_string()))
            .collect()
    }

    /// A surface is drawn as shaded 3-D patches, one per four neighbouring cells, in more than
    /// one colour (by value), not as a flat grid of cells.
    #[test]
    fn surfaces_are_shaded_patches_coloured_by_value() {
        fonts();
        let mut c = Chart::new("s".into(), "x", "surface", Kind::Surface).axes("record", "file");
        c.traces.push(Trace {
            name: "kB/s".into(),
            cats: ["4", "8", "16", "32"].map(String::from).to_vec(),
            rows: ["64", "128", "256"].map(String::from).to_vec(),
            z: vec![
                vec![1.0, 2.0, 3.0, 4.0],
                vec![2.0, 4.0, 6.0, 8.0],
                vec![3.0, 6.0, 9.0, f64::NAN],
            ],
            ..Default::default()
        });
        let svg = svg_of(&c);
        // The three axis panels, then 3 x 2 patches less the one touching the cell not
        // measured.
        assert_eq!(svg.matches("<polygon").count(), 3 + 5, "{svg}");
        let fills: std::collections::HashSet<&str> = svg
            .split("<polygon")
            .skip(4)
            .filter_map(|p| p.split("fill=\"").nth(1)?.split('"').next())
            .collect();
        assert!(fills.len() >= 4, "{fills:?}");
        assert!(svg.contains("across: record; deep: file; height: kB/s"));
    }

    /// The last tick label of a nines axis (99.99) is drawn whole inside the image.
    #[test]
    fn the_last_x_label_stays_inside_the_image() {
        fonts();
        let c = Chart::new("p".into(), "s", "percentiles", Kind::Lines)
            .axes("percentile", "latency (us)")
            .nines_x()
            .log_y();
        let mut c = c;
        c.traces.push(crate::charts::line(
            "read",
            [(50.0, 10.0), (99.0, 40.0), (99.99, 900.0)],
        ));
        let svg = svg_of(&c);
        let tag = svg
            .split("<text")
            .find(|t| {
                t.split('>')
                    .nth(1)
                    .and_then(|r| r.split('<').next())
                    .map(str::trim)
                    == Some("99.99")
            })
            .unwrap_or_else(|| panic!("no 99.99 label: {svg}"));
        let attr = |name: &str| -> f64 {
            tag.split(&format!(" {name}=\""))
                .nth(1)
                .and_then(|r| r.split('"').next())
                .and_then(|v| v.trim_end_matches("px").parse().ok())
                .unwrap_or_else(|| panic!("no {name} in {tag}"))
        };
        let (x, size) = (attr("x"), attr("font-size"));
        // Centred on x; DejaVu Sans digits are 0.64 em wide, the point 0.32 em.
        let half = (4.0 * 0.64 + 0.32) * size / 2.0;
        assert!(x + half <= f64::from(W), "x {x}, half width {half}");
    }

    /// A heat map has one label per row and column (none doubled), each cell's value written
    /// in it, and a colour bar titled with the figure.
    #[test]
    fn heatmaps_label_each_cell_once_and_carry_a_colour_bar() {
        fonts();
        let mut c = Chart::new("h".into(), "s", "IOPS over bs and iodepth", Kind::Heatmap)
            .axes("iodepth", "bs");
        c.traces.push(Trace {
            name: "IOPS".into(),
            cats: ["1", "4", "16", "64"].map(String::from).to_vec(),
            rows: ["4k", "64k", "1m"].map(String::from).to_vec(),
            z: vec![
                vec![7326.0, 29641.0, 27678.0, 36136.0],
                vec![6954.0, 29953.0, 33399.0, 37610.0],
                vec![7372.0, 28239.0, 34119.0, 36341.0],
            ],
            ..Default::default()
        });
        let svg = svg_of(&c);
        let texts = texts_of(&svg);
        let count = |s: &str| texts.iter().filter(|t| *t == s).count();
        for label in ["4k", "64k", "1m", "16", "64"] {
            assert_eq!(count(label), 1, "{label}: {texts:?}");
        }
        for value in ["7326", "30k", "38k"] {
            assert!(count(value) >= 1, "{value}: {texts:?}");
        }
        assert_eq!(count("IOPS"), 1, "{texts:?}");
        assert_eq!(count("IOPS over bs and iodepth"), 1);
        // One cell is drawn too (a sweep of one point).
        c.traces[0].cats.truncate(1);
        c.traces[0].rows.truncate(1);
        c.traces[0].z = vec![vec![5.0]];
        let one = texts_of(&svg_of(&c));
        for s in ["1", "4k", "5"] {
            assert!(one.iter().any(|t| t == s), "{s}: {one:?}");
        }
    }
}
