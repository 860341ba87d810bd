//! The latency percentiles of a job's sheet and their chart on the "nines" scale the page
//! uses: a percentile p sits at x = -log10(1 - p/100), so 90, 99, 99.9 and 99.99 % are evenly
//! spaced and labelled with the percentile (a helper series carries the labels under the
//! axis); latency on a log axis when it spans more than a decade.

use crate::model::DirFigures;
use rust_xlsxwriter::{
    Chart, ChartAxisLabelPosition, ChartDataLabel, ChartDataLabelPosition, ChartFormat,
    ChartMarker, ChartType, Format, Worksheet, XlsxError,
};

/// Where a percentile sits on the nines scale.
pub(super) fn nines(p: f64) -> f64 {
    -(1.0 - p / 100.0).log10()
}

/// The percentiles labelled on the axis, as far as the data reaches.
const LABELS: [(f64, &str); 5] = [
    (0.0, "0 %"),
    (90.0, "90 %"),
    (99.0, "99 %"),
    (99.9, "99.9 %"),
    (99.99, "99.99 %"),
];

/// Writes the percentile table of `dirs` at row `top` of sheet `name` (percentile, its place
/// on the nines scale, one latency column per direction, the axis labels' places) and
/// inserts its chart at (`chart_row`, `chart_col`). Nothing when no direction has
/// percentiles.
pub(super) fn percentiles(
    ws: &mut Worksheet,
    name: &str,
    job: &str,
    dirs: &[DirFigures],
    (top, chart_row, chart_col): (u32, u32, u16),
    bold: &Format,
) -> Result<(), XlsxError> {
    let lats: Vec<_> = dirs
        .iter()
        .filter_map(|d| Some((d.dir, d.main_lat()?)))
        .collect();
    let mut ps: Vec<f64> = lats
        .iter()
        .flat_map(|(_, l)| l.percentiles.iter().map(|p| p.0))
        .filter(|p| *p < 100.0)
        .collect();
    ps.sort_by(f64::total_cmp);
    ps.dedup();
    if ps.is_empty() {
        return Ok(());
    }
    let us = Format::new().set_num_format("#,##0.0");
    ws.write_string_with_format(top, 0, "percentile (%)", bold)?;
    ws.write_string_with_format(top, 1, "nines: -log10(1 - p)", bold)?;
    let (mut lo, mut hi) = (f64::INFINITY, 0.0f64);
    for (i, p) in ps.iter().enumerate() {
        let r = top + 1 + i as u32;
        ws.write_number(r, 0, *p)?;
        ws.write_number_with_format(r, 1, nines(*p), &Format::new().set_num_format("0.000"))?;
        for (c, (_, l)) in lats.iter().enumerate() {
            if let Some((_, ns)) = l.percentiles.iter().find(|x| x.0 == *p) {
                let v = ns / 1000.0;
                ws.write_number_with_format(r, 2 + c as u16, v, &us)?;
                if v > 0.0 {
                    lo = lo.min(v);
                }
                hi = hi.max(v);
            }
        }
    }
    let last = top + ps.len() as u32;
    let mut ch = Chart::new(ChartType::ScatterStraightWithMarkers);
    ch.title().set_name(&format!("{job}: latency percentiles"));
    ch.x_axis()
        .set_name("percentile (nines scale)")
        .set_min(0.0)
        .set_major_unit(1.0)
        .set_label_position(ChartAxisLabelPosition::None);
    let log = lo.is_finite() && hi > lo * 10.0;
    let floor = if log {
        10f64.powf(lo.log10().floor())
    } else {
        0.0
    };
    ch.y_axis().set_name("latency (µs)").set_min(floor);
    if log {
        ch.y_axis().set_log_base(10);
    }
    for (c, (dir, _)) in lats.iter().enumerate() {
        let col = 2 + c as u16;
        ws.write_string_with_format(top, col, format!("{dir} lat (µs)"), bold)?;
        ch.add_series()
            .set_name((name, top, col))
            .set_categories((name, top + 1, 1, last, 1))
            .set_values((name, top + 1, col, last, col));
    }
    let reach = nines(ps[ps.len() - 1]);
    let col = 2 + lats.len() as u16;
    axis_labels(ws, &mut ch, (name, top, col), reach, floor, bold)?;
    ch.legend().delete_entries(&[lats.len()]);
    ws.insert_chart(chart_row, chart_col, &ch)?;
    Ok(())
}

/// The nines axis's labels: a series of points at the labelled percentiles the data reaches
/// (up to `reach`), on the latency axis's floor, each carrying its percentile as its label;
/// their places are written at (`top`, `col`) of sheet `name`.
fn axis_labels(
    ws: &mut Worksheet,
    ch: &mut Chart,
    (name, top, col): (&str, u32, u16),
    reach: f64,
    floor: f64,
    bold: &Format,
) -> Result<(), XlsxError> {
    // The axis labels: points at the labelled percentiles the data reaches, on the floor.
    let marks: Vec<_> = LABELS
        .iter()
        .filter(|l| nines(l.0) <= reach + 1e-9)
        .collect();
    ws.write_string_with_format(top, col, "axis label at", bold)?;
    ws.write_string_with_format(top, col + 1, "on latency", bold)?;
    for (i, (p, _)) in marks.iter().enumerate() {
        ws.write_number(top + 1 + i as u32, col, nines(*p))?;
        ws.write_number(top + 1 + i as u32, col + 1, floor)?;
    }
    let labels: Vec<ChartDataLabel> = marks
        .iter()
        .map(|(_, text)| {
            ChartDataLabel::new()
                .set_value(*text)
                .set_position(ChartDataLabelPosition::Below)
                .to_custom()
        })
        .collect();
    let n = marks.len() as u32;
    ch.add_series()
        .set_name("percentile")
        .set_categories((name, top + 1, col, top + n, col))
        .set_values((name, top + 1, col + 1, top + n, col + 1))
        .set_format(ChartFormat::new().set_no_line())
        .set_marker(ChartMarker::new().set_none())
        .set_custom_data_labels(&labels);
    Ok(())
}
