//! The XLSX sheet of a quick run's grid: the tests down, read and write across, once per unit
//! (MB/s, IOPS, mean latency in µs), each number formatted, and a column chart of the MB/s.

use super::sheet::sheet_name;
use crate::charts::quick::{GridRow, COLUMNS};
use rust_xlsxwriter::{Chart, ChartType, Format, Workbook, XlsxError};

/// The units of the sheet's column pairs: heading unit, number format, and the figure.
type Unit = (
    &'static str,
    &'static str,
    fn(&crate::charts::quick::Cell) -> Option<f64>,
);
const UNITS: [Unit; 3] = [
    ("MB/s", "#,##0.00", |c| Some(c.mbps)),
    ("IOPS", "#,##0", |c| Some(c.iops)),
    ("mean lat, µs", "#,##0.0", |c| c.mean_us),
];

/// Adds the grid sheet of source `label` to `wb`.
pub(super) fn grid_sheet(
    wb: &mut Workbook,
    label: &str,
    rows: &[GridRow],
    bold: &Format,
    used: &mut Vec<String>,
) -> Result<(), XlsxError> {
    let name = sheet_name(&format!("{label} quick"), used);
    let ws = wb.add_worksheet();
    ws.set_name(&name)?;
    ws.write_string_with_format(0, 0, "test", bold)?;
    for (u, (unit, fmt, figure)) in UNITS.iter().enumerate() {
        let format = Format::new().set_num_format(*fmt);
        for (k, dir) in COLUMNS.iter().enumerate() {
            let col = (1 + u * COLUMNS.len() + k) as u16;
            ws.write_string_with_format(0, col, format!("{dir} ({unit})"), bold)?;
            for (r, row) in rows.iter().enumerate() {
                let r = r as u32 + 1;
                match row.cells[k].as_ref() {
                    Some(c) => {
                        if let Some(v) = figure(c).filter(|v| v.is_finite()) {
                            ws.write_number_with_format(r, col, v, &format)?;
                        }
                    }
                    None => {
                        ws.write_string(r, col, "not run")?;
                    }
                }
            }
        }
    }
    for (r, row) in rows.iter().enumerate() {
        ws.write_string_with_format(r as u32 + 1, 0, &row.test, bold)?;
    }
    let n = rows.len() as u32;
    let mut ch = Chart::new(ChartType::Column);
    ch.title().set_name("quick: MB/s by test");
    ch.x_axis().set_name("test");
    ch.y_axis().set_name("MB/s");
    for k in 0..COLUMNS.len() as u16 {
        ch.add_series()
            .set_name((name.as_str(), 0, 1 + k))
            .set_categories((name.as_str(), 1, 0, n, 0))
            .set_values((name.as_str(), 1, 1 + k, n, 1 + k));
    }
    ws.insert_chart(n + 2, 0, &ch)?;
    ws.autofit();
    Ok(())
}
