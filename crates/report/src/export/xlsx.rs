//! XLSX (rust_xlsxwriter): a "summary" sheet with every row of [`super::COLUMNS`] and a native
//! column chart of IOPS, then one sheet per source and job with its directions' figures, its
//! latency percentiles and native charts of both.

use super::{rows, Cell, COLUMNS};
use crate::model::{Figure, Source};
use crate::ReportError;
use iomark_engine::result::{SuiteTable, TableCell};
use rust_xlsxwriter::{Chart, ChartType, Format, Workbook, Worksheet, XlsxError};
use std::path::Path;

/// A sheet name Excel accepts (at most 31 characters, none of `[]:*?/\`), unique in `used`.
fn sheet_name(want: &str, used: &mut Vec<String>) -> String {
    let clean: String = want
        .chars()
        .map(|c| if "[]:*?/\\'".contains(c) { '_' } else { c })
        .take(28)
        .collect();
    let mut name = clean.clone();
    let mut n = 1;
    while used.iter().any(|u| u.eq_ignore_ascii_case(&name)) {
        n += 1;
        name = format!("{clean}~{n}");
    }
    used.push(name.clone());
    name
}

fn book(sources: &[Source]) -> Result<Workbook, XlsxError> {
    let mut wb = Workbook::new();
    let bold = Format::new().set_bold();
    let mut used = Vec::new();
    let summary = sheet_name("summary", &mut used);
    let ws = wb.add_worksheet();
    ws.set_name(&summary)?;
    for (c, h) in COLUMNS.iter().enumerate() {
        ws.write_string_with_format(0, c as u16, *h, &bold)?;
    }
    let all = rows(sources);
    for (r, (_, _, _, cells)) in all.iter().enumerate() {
        write_cells(ws, r as u32 + 1, cells)?;
    }
    if !all.is_empty() {
        let n = all.len() as u32;
        let mut ch = Chart::new(ChartType::Column);
        ch.title()
            .set_name("IOPS per job, direction and repetition");
        ch.add_series()
            .set_name("IOPS")
            .set_categories((summary.as_str(), 1, 1, n, 1))
            .set_values((summary.as_str(), 1, 5, n, 5));
        ws.insert_chart(n + 2, 1, &ch)?;
    }
    ws.autofit();
    for s in sources {
        for j in &s.jobs {
            let name = sheet_name(&format!("{} {}", s.label, j.name), &mut used);
            let ws = wb.add_worksheet();
            ws.set_name(&name)?;
            ws.write_string_with_format(0, 0, "direction", &bold)?;
            for (c, f) in Figure::ALL.iter().enumerate() {
                ws.write_string_with_format(0, c as u16 + 1, f.label(), &bold)?;
            }
            for (r, d) in j.dirs.iter().enumerate() {
                ws.write_string(r as u32 + 1, 0, d.dir)?;
                for (c, f) in Figure::ALL.iter().enumerate() {
                    if let Some(v) = d.figure(*f) {
                        ws.write_number(r as u32 + 1, c as u16 + 1, v)?;
                    }
                }
            }
            let nd = j.dirs.len() as u32;
            if nd > 0 {
                let mut ch = Chart::new(ChartType::Column);
                ch.title().set_name(&format!("{}: IOPS", j.name));
                ch.add_series()
                    .set_name("IOPS")
                    .set_categories((name.as_str(), 1, 0, nd, 0))
                    .set_values((name.as_str(), 1, 1, nd, 1));
                ws.insert_chart(1, 8, &ch)?;
            }
            // Latency percentiles (us) per direction.
            let top = nd + 3;
            ws.write_string_with_format(top, 0, "percentile", &bold)?;
            let mut cols = 0u16;
            let mut pct_rows = 0u32;
            for d in &j.dirs {
                let Some(l) = d.main_lat() else { continue };
                cols += 1;
                ws.write_string_with_format(top, cols, format!("{} lat (us)", d.dir), &bold)?;
                for (i, (p, v)) in l.percentiles.iter().enumerate() {
                    ws.write_number(top + 1 + i as u32, 0, *p)?;
                    ws.write_number(top + 1 + i as u32, cols, v / 1000.0)?;
                }
                pct_rows = pct_rows.max(l.percentiles.len() as u32);
            }
            if cols > 0 && pct_rows > 0 {
                let mut ch = Chart::new(ChartType::ScatterStraightWithMarkers);
                ch.title()
                    .set_name(&format!("{}: latency percentiles", j.name));
                ch.x_axis().set_name("percentile");
                ch.y_axis().set_name("latency (us)");
                for c in 1..=cols {
                    ch.add_series()
                        .set_name((name.as_str(), top, c))
                        .set_categories((name.as_str(), top + 1, 0, top + pct_rows, 0))
                        .set_values((name.as_str(), top + 1, c, top + pct_rows, c));
                }
                ws.insert_chart(top, 8, &ch)?;
            }
            ws.autofit();
        }
        for t in &s.tables {
            let name = sheet_name(&format!("{} {}", s.label, t.kind.suite()), &mut used);
            suite_sheet(wb.add_worksheet(), &name, t, &bold)?;
        }
    }
    Ok(wb)
}

/// One sheet per suite table (dd, hdparm, bonnie, sweep, ...): its columns and rows as the
/// suite shows them, with a native column chart of its first figure column.
fn suite_sheet(
    ws: &mut Worksheet,
    name: &str,
    t: &SuiteTable,
    bold: &Format,
) -> Result<(), XlsxError> {
    ws.set_name(name)?;
    for (c, h) in t.columns.iter().enumerate() {
        ws.write_string_with_format(0, c as u16, h, bold)?;
    }
    for (r, row) in t.rows.iter().enumerate() {
        for (c, cell) in row.iter().enumerate() {
            match cell {
                TableCell::Num(v) if v.is_finite() => {
                    ws.write_number(r as u32 + 1, c as u16, *v)?;
                }
                TableCell::Num(_) => {}
                TableCell::Text(s) => {
                    ws.write_string(r as u32 + 1, c as u16, s)?;
                }
            }
        }
    }
    let n = t.rows.len() as u32;
    // The first column that holds a number in every row, after the first column.
    let fig = (1..t.columns.len()).find(|&c| {
        n > 0
            && t.rows
                .iter()
                .all(|r| r.get(c).and_then(TableCell::num).is_some())
    });
    if let Some(c) = fig {
        let c = c as u16;
        let mut ch = Chart::new(ChartType::Column);
        ch.title()
            .set_name(&format!("{}: {}", t.title, t.columns[c as usize]));
        ch.add_series()
            .set_name((name, 0, c))
            .set_categories((name, 1, 0, n, 0))
            .set_values((name, 1, c, n, c));
        ws.insert_chart(n + 2, 0, &ch)?;
    }
    ws.autofit();
    Ok(())
}

fn write_cells(ws: &mut Worksheet, r: u32, cells: &[Cell]) -> Result<(), XlsxError> {
    for (c, cell) in cells.iter().enumerate() {
        match cell {
            Cell::Text(t) => {
                ws.write_string(r, c as u16, t)?;
            }
            Cell::Num(Some(v)) if v.is_finite() => {
                ws.write_number(r, c as u16, *v)?;
            }
            Cell::Num(_) => {}
        }
    }
    Ok(())
}

pub fn write(path: &Path, sources: &[Source]) -> Result<(), ReportError> {
    let err = |e: XlsxError| ReportError::Export {
        path: path.to_path_buf(),
        detail: e.to_string(),
    };
    let mut wb = book(sources).map_err(err)?;
    crate::output::write_with(path, |tmp| Ok(wb.save(tmp)?))
}
