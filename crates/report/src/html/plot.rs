//! One chart as a Plotly figure: categories on category axes (1, 4, 16, 64 equally spaced),
//! heatmaps with their colour bar and each cell's value written in it, a second y axis on the
//! right for a line of another unit over bars, error bars from repetitions, notes over bars.

use crate::charts::scale::pct_label;
use crate::charts::{Chart, Kind, Scale, Trace};
use crate::model::fmt_num;
use plotly::common::{
    Anchor, AxisSide, ColorBar, ColorScale, ColorScalePalette, Font, Orientation, TextPosition,
};
use plotly::common::{ErrorData, ErrorType, Marker, MarkerSymbol, Mode, TickMode, Title};
use plotly::layout::{
    Annotation, Axis, AxisType, BarMode, Camera, Layout, LayoutScene, Legend, RangeMode,
};
use plotly::{Bar, HeatMap, Plot, Scatter, Surface};

/// Text Plotly draws as it is: Plotly reads `<a href>`, `<b>` and other tags in names, labels
/// and titles, so a job named like a link would become one. Its `&`, `<` and `>` are written as
/// entities, which Plotly shows as the characters (the tables below the charts decode them).
fn plain(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

fn plain_all(v: &[String]) -> Vec<String> {
    v.iter().map(|s| plain(s)).collect()
}

/// The spread of a trace's points as error bars (none when it has no spread).
fn error_bars(t: &Trace) -> Option<ErrorData> {
    if t.spread.is_empty() || t.spread.len() != t.y.len() {
        return None;
    }
    let plus = t.spread.iter().zip(&t.y).map(|(s, y)| s.1 - y).collect();
    let minus = t.spread.iter().zip(&t.y).map(|(s, y)| y - s.0).collect();
    Some(
        ErrorData::new(ErrorType::Data)
            .symmetric(false)
            .array(plus)
            .array_minus(minus),
    )
}

/// An axis on `scale`: Plotly's log type, or the nines ticks placed and labelled here (the
/// traces carry their x on that scale already).
fn scaled(a: Axis, scale: Scale, values: impl Iterator<Item = f64>) -> Axis {
    match scale {
        Scale::Linear => a,
        Scale::Log => {
            // Labels at 1, 10, 100 ... only (Plotly's 2 and 5 between them crowd the axis),
            // when the values span a decade or more.
            let (lo, hi) = values
                .filter(|v| v.is_finite() && *v > 0.0)
                .fold((f64::INFINITY, 0.0_f64), |(a, b), v| (a.min(v), b.max(v)));
            let a = a.type_(AxisType::Log);
            if hi >= 10.0 * lo {
                a.dtick(1.0)
            } else {
                a
            }
        }
        Scale::Nines => {
            let hi = values
                .map(|p| scale.to_axis(p))
                .filter(|a| a.is_finite())
                .fold(1.0, f64::max);
            let ticks = scale.ticks(0.0, hi);
            a.tick_mode(TickMode::Array)
                .tick_text(ticks.iter().map(|&t| scale.label(t)).collect())
                .tick_values(ticks)
        }
    }
}

/// One chart as a Plotly figure.
/// Trace `i` of chart `c`, drawn as the chart's kind asks.
fn add_trace(p: &mut Plot, c: &Chart, i: usize, t: &Trace) {
    let t = &Trace {
        name: plain(&t.name),
        cats: plain_all(&t.cats),
        rows: plain_all(&t.rows),
        ..t.clone()
    };
    match c.kind {
        Kind::Lines if t.x.is_empty() && !t.cats.is_empty() => {
            let sc = Scatter::new(t.cats.clone(), t.y.clone()).name(&t.name);
            let sc = if i == 0 {
                sc.mode(Mode::LinesMarkers)
            } else {
                // Marks on the first series (a trend's changed runs): no line.
                sc.mode(Mode::Markers)
                    .marker(Marker::new().size(14).symbol(MarkerSymbol::X))
            };
            p.add_trace(match error_bars(t) {
                Some(e) => sc.error_y(e),
                None => sc,
            })
        }
        Kind::Lines => {
            let mode = if t.x.len() > 60 {
                Mode::Lines
            } else {
                Mode::LinesMarkers
            };
            let sc = if c.x_scale == Scale::Nines {
                // Placed on the nines scale; hover names the percentile.
                let x = t.x.iter().map(|&p| Scale::Nines.to_axis(p)).collect();
                let text = t.x.iter().map(|&p| format!("p{}", pct_label(p))).collect();
                Scatter::new(x, t.y.clone())
                    .text_array(text)
                    .hover_template("%{text}: %{y:.4g}")
            } else {
                Scatter::new(t.x.clone(), t.y.clone())
            };
            p.add_trace(sc.name(&t.name).mode(mode))
        }
        Kind::Bars if t.y2 => p.add_trace(
            Scatter::new(t.cats.clone(), t.y.clone())
                .name(&t.name)
                .mode(Mode::LinesMarkers)
                .y_axis("y2"),
        ),
        Kind::Bars => {
            let mut b = Bar::new(t.cats.clone(), t.y.clone()).name(&t.name);
            if t.notes.len() == t.y.len() && t.notes.iter().any(|n| !n.is_empty()) {
                b = b
                    .text_array(plain_all(&t.notes))
                    .text_position(TextPosition::Outside);
            }
            p.add_trace(match error_bars(t) {
                Some(e) => b.error_y(e),
                None => b,
            })
        }
        Kind::Histogram => p.add_trace(Bar::new(t.x.clone(), t.y.clone()).name(&t.name)),
        // Cells at their index (Plotly spaces a heatmap's numeric-looking labels by value
        // even on a category axis), labelled with the categories by the axes' ticks.
        Kind::Heatmap => p.add_trace(
            HeatMap::new(index(&t.cats), index(&t.rows), t.z.clone())
                .name(&t.name)
                .hover_text_matrix(
                    t.rows
                        .iter()
                        .map(|r| t.cats.iter().map(|c| format!("{r}, {c}")).collect())
                        .collect(),
                )
                .hover_template("%{hovertext}: %{z}<extra></extra>")
                .color_scale(ColorScale::Palette(ColorScalePalette::Viridis))
                .color_bar(ColorBar::new().title(Title::with_text(&t.name))),
        ),
        // At their index too, labelled by the scene's axes (see `scene`).
        Kind::Surface => p.add_trace(
            Surface::new(t.z.clone())
                .x(index(&t.cats))
                .y(index(&t.rows))
                .name(&t.name),
        ),
        // The page writes a grid as a table of its own (html/grid.rs), never as a plot.
        Kind::Grid => {}
    }
}

pub fn plot(c: &Chart) -> Plot {
    let mut p = Plot::new();
    for (i, t) in c.traces.iter().enumerate() {
        add_trace(&mut p, c, i, t);
    }
    let mut x = scaled(
        Axis::new().title(Title::with_text(plain(&c.x_title))),
        c.x_scale,
        c.traces.iter().flat_map(|t| t.x.iter().copied()),
    );
    let mut y = scaled(
        Axis::new().title(Title::with_text(plain(&c.y_title))),
        c.y_scale,
        c.traces.iter().flat_map(|t| t.y.iter().copied()),
    );
    if let (Kind::Heatmap, Some(t)) = (c.kind, c.traces.first()) {
        x = labelled(x, &t.cats);
        y = labelled(y, &t.rows);
    } else if on_categories(c) {
        // Categories equally spaced in their order, also when they read as numbers (queue
        // depths 1, 4, 16, 64; block sizes): never placed on a numeric scale.
        x = x.type_(AxisType::Category);
    }
    if c.kind == Kind::Lines && c.traces.first().is_some_and(|t| t.x.is_empty()) {
        // A figure across runs starts at zero, so a change looks as large as it is.
        y = y.range_mode(RangeMode::ToZero);
    }
    // Long category labels are turned by Plotly: the margin grows to hold them and the axis
    // title is set below them, and the figure grows by as much so the plot keeps its height.
    let longest = c
        .traces
        .iter()
        .flat_map(|t| t.cats.iter())
        .map(|s| s.chars().count())
        .max()
        .unwrap_or(0);
    let mut layout = Layout::new()
        .title(Title::with_text(plain(&c.title)))
        .x_axis(x.auto_margin(true))
        .y_axis(y.auto_margin(true))
        .height(420 + 4 * longest.min(80));
    if c.kind == Kind::Bars {
        layout = layout.bar_mode(BarMode::Group);
    }
    if c.traces.iter().any(|t| t.y2) {
        layout = layout.y_axis2(
            Axis::new()
                .title(Title::with_text(plain(&c.y2_title)))
                .overlaying("y")
                .side(AxisSide::Right)
                .range_mode(RangeMode::ToZero)
                .show_grid(false)
                .auto_margin(true),
        );
    }
    if c.kind == Kind::Heatmap {
        layout = layout.annotations(cell_values(c));
    }
    if c.traces.len() > 1 {
        // Above the plot, in one row: never over the data nor cut off at the page's edge.
        layout = layout.legend(
            Legend::new()
                .orientation(Orientation::Horizontal)
                .x(0.0)
                .x_anchor(Anchor::Left)
                .y(1.0)
                .y_anchor(Anchor::Bottom),
        );
    }
    if let (Kind::Surface, Some(t)) = (c.kind, c.traces.first()) {
        layout = layout.scene(scene(c, t)).height(560);
    }
    p.set_layout(layout);
    p
}

/// Whether the chart's x axis holds categories (bars, heatmaps, figures across runs).
fn on_categories(c: &Chart) -> bool {
    match c.kind {
        Kind::Bars => true,
        Kind::Lines => c
            .traces
            .first()
            .is_some_and(|t| t.x.is_empty() && !t.cats.is_empty()),
        Kind::Histogram | Kind::Heatmap | Kind::Surface | Kind::Grid => false,
    }
}

/// A surface's scene: x and y titled as the chart's axes, each category and row at its
/// index, labelled with it (equally spaced, as on the heatmap); z titled with the figure.
fn scene(c: &Chart, t: &Trace) -> LayoutScene {
    let ticks = |title: &str, labels: &[String]| {
        Axis::new()
            .title(Title::with_text(plain(title)))
            .tick_mode(TickMode::Array)
            .tick_values(index(labels))
            .tick_text(plain_all(labels))
    };
    // Seen from a little further than Plotly's default, so that the tick labels and axis
    // titles in front stay inside the scene.
    LayoutScene::new()
        .camera(Camera::new().eye((1.7, 1.7, 1.1).into()))
        .x_axis(ticks(&c.x_title, &t.cats))
        .y_axis(ticks(&c.y_title, &t.rows))
        .z_axis(Axis::new().title(Title::with_text(plain(&t.name))))
}

/// Positions 0, 1, 2 ... of `labels`.
fn index(labels: &[String]) -> Vec<f64> {
    (0..labels.len()).map(|i| i as f64).collect()
}

/// An axis of positions 0, 1, 2 ... each labelled with its category (all of them shown).
fn labelled(a: Axis, labels: &[String]) -> Axis {
    a.tick_mode(TickMode::Array)
        .tick_values(index(labels))
        .tick_text(plain_all(labels))
        .zero_line(false)
        .show_grid(false)
}

/// A value short enough for a heatmap's cell: three significant digits and k, M or G from
/// 10,000 up (2.85M for 2,845,061), as [`fmt_num`] below that. The chart's table and its
/// hover give every digit.
fn cell_text(v: f64) -> String {
    let a = v.abs();
    if a.is_nan() || a < 10_000.0 {
        return fmt_num(v);
    }
    let (div, unit) = [(1e9, "G"), (1e6, "M"), (1e3, "k")]
        .into_iter()
        .find(|(d, _)| a >= *d * 0.9995)
        .unwrap_or((1e3, "k"));
    let m = v / div;
    let digits = if m.abs() >= 99.95 {
        0
    } else if m.abs() >= 9.995 {
        1
    } else {
        2
    };
    format!("{m:.digits$}{unit}")
}

/// Each heatmap cell's value written in it (cells without one stay blank), dark on the light
/// upper end of the colour scale, light on the rest.
fn cell_values(c: &Chart) -> Vec<Annotation> {
    let mut out = Vec::new();
    for t in &c.traces {
        let (lo, hi) =
            t.z.iter()
                .flatten()
                .filter(|v| v.is_finite())
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| {
                    (a.min(v), b.max(v))
                });
        for (ri, zs) in t.z.iter().enumerate().take(t.rows.len()) {
            for (ci, &v) in zs.iter().enumerate().take(t.cats.len()) {
                if v.is_finite() {
                    out.push(
                        Annotation::new()
                            .x(ci as f64)
                            .y(ri as f64)
                            .text(cell_text(v))
                            .show_arrow(false)
                            .font(Font::new().color(if (v - lo) > 0.6 * (hi - lo) {
                                "#222222"
                            } else {
                                "#ffffff"
                            })),
                    );
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    fn json(c: &Chart) -> Value {
        serde_json::from_str(&plot(c).to_json()).unwrap()
    }

    /// Queue depths 1, 4, 16, 64 read as numbers: they are still categories, equally spaced.
    #[test]
    fn bars_over_numbers_are_on_a_category_axis() {
        let mut c = Chart::new("b".into(), "s", "IOPS by iodepth", Kind::Bars);
        c.traces.push(crate::charts::bars(
            "bs=4k",
            ["1", "4", "16", "64"].map(|q| (q.to_string(), 1.0)),
        ));
        let j = json(&c);
        assert_eq!(j["layout"]["xaxis"]["type"], "category");
        assert!(
            j["layout"].get("yaxis2").is_none(),
            "no second axis unasked"
        );
    }

    /// A log axis spanning decades is labelled at 1, 10, 100 ... only; within one decade
    /// Plotly's own ticks are kept (a decade tick alone would leave it bare).
    #[test]
    fn log_axes_label_the_decades() {
        let chart = |ys: [f64; 3]| {
            let mut c = Chart::new("l".into(), "s", "cdf", Kind::Lines).log_x();
            c.traces.push(crate::charts::line(
                "r",
                ys.into_iter().map(|x| (x, x / 1000.0)),
            ));
            json(&c)
        };
        let j = chart([3.0, 40.0, 5000.0]);
        assert_eq!(j["layout"]["xaxis"]["type"], "log");
        assert_eq!(j["layout"]["xaxis"]["dtick"], 1.0);
        let j = chart([30.0, 40.0, 50.0]);
        assert!(j["layout"]["xaxis"].get("dtick").is_none());
    }

    #[test]
    fn heatmaps_have_a_colour_bar_and_each_value_in_its_cell() {
        let mut c = Chart::new("h".into(), "s", "IOPS", Kind::Heatmap).axes("iodepth", "bs");
        c.traces.push(Trace {
            name: "IOPS".into(),
            cats: vec!["1".into(), "8".into()],
            rows: vec!["4k".into(), "64k".into()],
            z: vec![vec![10.0, 80.0], vec![5.0, f64::NAN]],
            ..Default::default()
        });
        let j = json(&c);
        // One cell per category, equally spaced whatever the labels read as.
        assert_eq!(j["data"][0]["x"], serde_json::json!([0.0, 1.0]));
        assert_eq!(
            j["layout"]["xaxis"]["tickvals"],
            serde_json::json!([0.0, 1.0])
        );
        assert_eq!(
            j["layout"]["xaxis"]["ticktext"],
            serde_json::json!(["1", "8"])
        );
        assert_eq!(
            j["layout"]["yaxis"]["ticktext"],
            serde_json::json!(["4k", "64k"])
        );
        assert_eq!(j["data"][0]["colorbar"]["title"]["text"], "IOPS");
        let notes = j["layout"]["annotations"].as_array().unwrap();
        let cells: Vec<(f64, f64, &str)> = notes
            .iter()
            .map(|a| {
                (
                    a["x"].as_f64().unwrap(),
                    a["y"].as_f64().unwrap(),
                    a["text"].as_str().unwrap(),
                )
            })
            .collect();
        assert_eq!(
            cells,
            [(0.0, 0.0, "10.00"), (1.0, 0.0, "80.00"), (0.0, 1.0, "5.00")],
            "the missing cell stays blank"
        );
        assert!(notes.iter().all(|a| a["showarrow"] == false));
    }

    /// A surface's axes are titled as the chart's, not x/y/z, its categories equally spaced.
    #[test]
    fn surfaces_title_their_axes() {
        let mut c = Chart::new("s".into(), "s", "kB/s", Kind::Surface)
            .axes("record size (kB)", "file size (kB)");
        c.traces.push(Trace {
            name: "kB/s".into(),
            cats: vec!["4".into(), "1024".into()],
            rows: vec!["64".into()],
            z: vec![vec![1.0, 2.0]],
            ..Default::default()
        });
        let j = json(&c);
        let sc = &j["layout"]["scene"];
        assert_eq!(sc["xaxis"]["title"]["text"], "record size (kB)");
        assert_eq!(sc["yaxis"]["title"]["text"], "file size (kB)");
        assert_eq!(sc["zaxis"]["title"]["text"], "kB/s");
        assert_eq!(sc["xaxis"]["ticktext"], serde_json::json!(["4", "1024"]));
        assert_eq!(j["data"][0]["x"], serde_json::json!([0.0, 1.0]));
    }

    /// Large values fit their cells: three significant digits and a unit prefix.
    #[test]
    fn large_cell_values_are_written_short() {
        let got: Vec<String> = [
            2_845_061.0,
            17_758_047.0,
            973_123.0,
            12_345.0,
            9_999.0,
            999_999.0,
            -25_000.0,
            3.2e9,
        ]
        .map(cell_text)
        .to_vec();
        assert_eq!(
            got,
            ["2.85M", "17.8M", "973k", "12.3k", "9999", "1.00M", "-25.0k", "3.20G"]
        );
    }

    /// A line of another unit over bars is drawn against a second axis on the right.
    #[test]
    fn a_second_unit_gets_its_own_axis() {
        let mut c = Chart::new("b".into(), "s", "IOPS and latency", Kind::Bars).axes("qd", "IOPS");
        c.y2_title = "mean latency (us)".into();
        c.traces
            .push(crate::charts::bars("IOPS", [("1".to_string(), 100.0)]));
        let mut lat = crate::charts::bars("lat", [("1".to_string(), 12.0)]);
        lat.y2 = true;
        c.traces.push(lat);
        let j = json(&c);
        assert_eq!(j["data"][0]["type"], "bar");
        assert!(j["data"][0].get("yaxis").is_none());
        assert_eq!(j["data"][1]["type"], "scatter");
        assert_eq!(j["data"][1]["yaxis"], "y2");
        let y2 = &j["layout"]["yaxis2"];
        assert_eq!(y2["overlaying"], "y");
        assert_eq!(y2["side"], "right");
        assert_eq!(y2["title"]["text"], "mean latency (us)");
    }

    #[test]
    fn notes_are_written_over_their_bars_with_the_spread_as_error_bars() {
        let mut c = Chart::new("b".into(), "s", "IOPS", Kind::Bars);
        let mut t = crate::charts::bars("b", [("a read".to_string(), 100.0)]);
        t.notes = vec!["-3.0 % p=0.020".into()];
        t.spread = vec![(90.0, 120.0)];
        c.traces.push(t);
        let j = json(&c);
        assert_eq!(j["data"][0]["text"][0], "-3.0 % p=0.020");
        assert_eq!(j["data"][0]["textposition"], "outside");
        assert_eq!(j["data"][0]["error_y"]["array"][0], 20.0);
        assert_eq!(j["data"][0]["error_y"]["arrayminus"][0], 10.0);
    }
}
