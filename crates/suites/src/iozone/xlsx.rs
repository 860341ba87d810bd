//! `-b FILE` for a name that does not end in `.xls` (which gets iozone's own workbook, see
//! `xls`): an XLSX workbook. The first sheet carries the command line, the host and the units; then one
//! sheet per measured column with the matrix (record sizes in kB across, file sizes in kB
//! down, unmeasured cells empty) and a native line chart: one line per file size over the
//! record sizes, where the caches' crossovers show as steps.

use super::excel::Block;
use iomark_engine::result::HostInfo;
use rust_xlsxwriter::{Chart, ChartType, Format, Workbook, XlsxError};
use std::path::Path;

/// Sheet names: at most 31 characters, none of `[]:*?/\`.
fn sheet_name(title: &str) -> String {
    title
        .chars()
        .filter(|c| !"[]:*?/\\".contains(*c))
        .take(31)
        .collect()
}

/// What follows the first sheet.
pub enum Sheets<'a> {
    /// One sheet per measured column, then (`-+u`) one per CPU utilization block.
    Matrix {
        figures: &'a [Block],
        cpu: &'a [Block<f64>],
    },
    /// Throughput mode: one sheet, a row per pass, a column per child count.
    Throughput {
        counts: &'a [u32],
        rows: &'a [(String, Vec<f64>)],
    },
}

fn book(
    command_line: &str,
    host: &HostInfo,
    unit: &str,
    sheets: &Sheets<'_>,
) -> Result<Workbook, XlsxError> {
    let mut wb = Workbook::new();
    let bold = Format::new().set_bold();
    let ws = wb.add_worksheet();
    ws.set_name("iozone")?;
    ws.write_string_with_format(0, 0, "Command line", &bold)?;
    ws.write_string(0, 1, command_line)?;
    let facts = [
        ("Host", host.hostname.clone()),
        ("Kernel", host.kernel.clone()),
        ("CPUs", host.cpus.to_string()),
        ("Memory (MiB)", (host.mem_bytes >> 20).to_string()),
        ("Measured by", format!("iomark {}", iomark_engine::VERSION)),
        ("Units", format!("{unit} (kB = 1024 bytes)")),
        (
            "Layout",
            "The top row is records sizes, the left column is file sizes (kB)".to_string(),
        ),
        (
            "Empty cells",
            "not measured (iozone wrote 0 there)".to_string(),
        ),
    ];
    for (i, (k, v)) in facts.iter().enumerate() {
        ws.write_string_with_format(i as u32 + 1, 0, *k, &bold)?;
        ws.write_string(i as u32 + 1, 1, v)?;
    }
    ws.autofit();
    let (figures, cpu) = match sheets {
        Sheets::Matrix { figures, cpu } => (*figures, *cpu),
        Sheets::Throughput { counts, rows } => {
            throughput_sheet(&mut wb, unit, counts, rows)?;
            return Ok(wb);
        }
    };
    for b in figures {
        matrix_sheet(&mut wb, &sheet_name(&b.title), b, unit, |x| *x as f64)?;
    }
    for b in cpu {
        let name = format!("{} CPU", b.title.split(" CPU").next().unwrap_or_default());
        matrix_sheet(&mut wb, &sheet_name(&name), b, "CPU %", |x| *x)?;
    }
    Ok(wb)
}

/// One matrix sheet: the title, record sizes across, file sizes down, and its line chart.
fn matrix_sheet<T>(
    wb: &mut Workbook,
    name: &str,
    b: &Block<T>,
    unit: &str,
    num: impl Fn(&T) -> f64,
) -> Result<(), XlsxError> {
    let bold = Format::new().set_bold();
    let name = name.to_string();
    let ws = wb.add_worksheet();
    ws.set_name(&name)?;
    ws.write_string_with_format(0, 0, format!("{} ({unit})", b.title), &bold)?;
    ws.write_string_with_format(1, 0, "file kB \\ record kB", &bold)?;
    for (c, r) in b.records_kb.iter().enumerate() {
        ws.write_number_with_format(1, c as u16 + 1, *r as f64, &bold)?;
    }
    for (i, (f, vals)) in b.rows.iter().enumerate() {
        let row = i as u32 + 2;
        ws.write_number_with_format(row, 0, *f as f64, &bold)?;
        for (c, v) in vals.iter().enumerate() {
            if let Some(x) = v {
                ws.write_number(row, c as u16 + 1, num(x))?;
            }
        }
    }
    if !b.rows.is_empty() && !b.records_kb.is_empty() {
        let last_col = b.records_kb.len() as u16;
        let mut ch = Chart::new(ChartType::Line);
        ch.title().set_name(&b.title);
        ch.x_axis().set_name("record size (kB)");
        ch.y_axis().set_name(unit);
        for i in 0..b.rows.len() as u32 {
            ch.add_series()
                .set_name((name.as_str(), i + 2, 0))
                .set_categories((name.as_str(), 1, 1, 1, last_col))
                .set_values((name.as_str(), i + 2, 1, i + 2, last_col));
        }
        ws.insert_chart(b.rows.len() as u32 + 3, 1, &ch)?;
    }
    Ok(())
}

fn throughput_sheet(
    wb: &mut Workbook,
    unit: &str,
    counts: &[u32],
    rows: &[(String, Vec<f64>)],
) -> Result<(), XlsxError> {
    let bold = Format::new().set_bold();
    let name = "Throughput report";
    let ws = wb.add_worksheet();
    ws.set_name(name)?;
    ws.write_string_with_format(0, 0, format!("Children see throughput ({unit})"), &bold)?;
    ws.write_string_with_format(1, 0, "test \\ threads", &bold)?;
    for (c, n) in counts.iter().enumerate() {
        ws.write_number_with_format(1, c as u16 + 1, *n as f64, &bold)?;
    }
    for (i, (label, vals)) in rows.iter().enumerate() {
        ws.write_string_with_format(i as u32 + 2, 0, label, &bold)?;
        for (c, v) in vals.iter().enumerate() {
            ws.write_number(i as u32 + 2, c as u16 + 1, *v)?;
        }
    }
    if !rows.is_empty() && !counts.is_empty() {
        let last = counts.len() as u16;
        let mut ch = Chart::new(ChartType::Column);
        ch.title().set_name(name);
        ch.x_axis().set_name("threads");
        ch.y_axis().set_name(unit);
        for i in 0..rows.len() as u32 {
            ch.add_series()
                .set_name((name, i + 2, 0))
                .set_categories((name, 1, 1, 1, last))
                .set_values((name, i + 2, 1, i + 2, last));
        }
        ws.insert_chart(rows.len() as u32 + 3, 1, &ch)?;
    }
    Ok(())
}

/// Why the workbook was not written.
#[derive(Debug, thiserror::Error)]
pub enum WorkbookError {
    /// The workbook could not be put together.
    #[error("{0}")]
    Build(#[from] XlsxError),
    #[error("{}: {source}", path.display())]
    Save {
        path: std::path::PathBuf,
        source: XlsxError,
    },
    #[error("{}: {source}", path.display())]
    Rename {
        path: std::path::PathBuf,
        source: std::io::Error,
    },
}

/// Write the workbook to `path` (through a temporary file beside it, renamed when complete).
pub fn write(
    path: &Path,
    command_line: &str,
    host: &HostInfo,
    unit: &str,
    sheets: &Sheets<'_>,
) -> Result<(), WorkbookError> {
    let mut wb = book(command_line, host, unit, sheets)?;
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".iomark-tmp");
    let tmp = std::path::PathBuf::from(tmp);
    wb.save(&tmp).map_err(|source| {
        let _ = std::fs::remove_file(&tmp);
        WorkbookError::Save {
            path: path.to_path_buf(),
            source,
        }
    })?;
    std::fs::rename(&tmp, path).map_err(|source| {
        let _ = std::fs::remove_file(&tmp);
        WorkbookError::Rename {
            path: path.to_path_buf(),
            source,
        }
    })
}
