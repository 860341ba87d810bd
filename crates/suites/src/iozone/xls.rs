//! `-b NAME.xls`: the workbook iozone writes, one BIFF2 sheet laid out as iozone lays it out,
//! so that what reads iozone's `.xls` reads iomark's. The matrix mode: the command line, a
//! blank, "The top row is records sizes, the left column is file sizes", then per measured
//! column its title, a row of record sizes (kB) from the second column and a row per file size
//! (kB) with its figures; with `-+u` a blank row and the CPU utilization blocks, laid out
//! alike. A cell that was not measured is left empty. Throughput mode: the command line, the
//! report's title, the record size and the unit, then a row per pass, its name in the first
//! column and its figure per child count from the third; with `-+u` the CPU block likewise.

use super::biff::{Sheet, TooLarge};
use super::catalog::COLUMNS;
use super::excel::Block;
use super::plan::Plan;

/// Whether `-b`'s name asks for iozone's workbook (it ends in `.xls`, in any case).
pub fn is_xls(path: &std::path::Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("xls"))
}

/// The sheet of the matrix mode (`figures` and `cpu` are the blocks of `plan.columns`).
pub fn matrix(
    command_line: &str,
    plan: &Plan,
    figures: &[Block],
    cpu: &[Block<f64>],
) -> Result<Vec<u8>, TooLarge> {
    let mut s = Sheet::new();
    s.label(0, 0, command_line)?;
    s.label(1, 0, " ")?;
    s.label(
        2,
        0,
        "The top row is records sizes, the left column is file sizes",
    )?;
    let mut row = 3;
    for (b, &c) in figures.iter().zip(&plan.columns) {
        row = block(&mut s, row, COLUMNS[c].sheet, b, |x| *x as f64)?;
    }
    if !cpu.is_empty() {
        row += 1;
    }
    for (b, &c) in cpu.iter().zip(&plan.columns) {
        let title = COLUMNS[c].sheet.replace(
            " Report",
            " CPU utilization report (Zero values should be ignored)",
        );
        row = block(&mut s, row, &title, b, |x| *x)?;
    }
    Ok(s.finish())
}

/// One block from `row`: its title, its record sizes, its rows; the row after it.
fn block<T>(
    s: &mut Sheet,
    mut row: u32,
    title: &str,
    b: &Block<T>,
    num: impl Fn(&T) -> f64,
) -> Result<u32, TooLarge> {
    s.label(row, 0, title)?;
    row += 1;
    for (i, r) in b.records_kb.iter().enumerate() {
        s.number(row, i as u32 + 1, *r as f64)?;
    }
    row += 1;
    for (f, vals) in &b.rows {
        s.number(row, 0, *f as f64)?;
        for (i, v) in vals.iter().enumerate() {
            if let Some(x) = v {
                s.number(row, i as u32 + 1, num(x))?;
            }
        }
        row += 1;
    }
    Ok(row)
}

/// What throughput mode's sheet shows besides its rows.
pub struct ThroughputHead<'a> {
    pub command_line: &'a str,
    /// "processes" or "threads".
    pub children: &'a str,
    pub record_kb: u64,
    /// The unit as the report names it ("kBytes/sec", "ops/sec", ...).
    pub unit: &'a str,
}

/// The sheet of throughput mode: the figures' rows, then (`-+u`) the CPU rows.
pub fn throughput(
    h: &ThroughputHead<'_>,
    rows: &[(String, Vec<f64>)],
    cpu: &[(String, Vec<f64>)],
) -> Result<Vec<u8>, TooLarge> {
    let mut s = Sheet::new();
    s.label(0, 0, h.command_line)?;
    let mut row = 1;
    let title = format!(
        "Throughput report Y-axis is type of test X-axis is number of {}",
        h.children
    );
    row = tp_block(&mut s, row, h, &title, h.unit, rows)?;
    if !cpu.is_empty() {
        let title = format!(
            "CPU utilization report Y-axis is type of test X-axis is number of {}",
            h.children
        );
        tp_block(&mut s, row, h, &title, "CPU%", cpu)?;
    }
    Ok(s.finish())
}

fn tp_block(
    s: &mut Sheet,
    mut row: u32,
    h: &ThroughputHead<'_>,
    title: &str,
    unit: &str,
    rows: &[(String, Vec<f64>)],
) -> Result<u32, TooLarge> {
    s.label(row, 0, title)?;
    s.label(row + 1, 0, &format!("Record size = {} kBytes", h.record_kb))?;
    s.label(row + 2, 0, &format!("Output is in {unit}"))?;
    row += 3;
    for (name, vals) in rows {
        s.label(row, 0, &format!("{name:>15} "))?;
        for (i, v) in vals.iter().enumerate() {
            s.number(row, i as u32 + 2, *v)?;
        }
        row += 1;
    }
    Ok(row)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::iozone::biff::read_cells;
    use crate::iozone::{parse, plan};

    #[test]
    fn matrix_sheet_is_laid_out_as_iozones() {
        let a = parse(&["-i".into(), "0".into(), "-s".into(), "64k".into()]).unwrap();
        let p = plan(&a, &|_| Some(1 << 40)).unwrap();
        let b = Block {
            title: "Writer report".into(),
            records_kb: vec![4, 8],
            rows: vec![(64, vec![Some(100), None])],
        };
        let cpu = Block {
            title: String::new(),
            records_kb: vec![4],
            rows: vec![(64, vec![Some(12.5)])],
        };
        let bytes = matrix("iozone -i 0", &p, &[b.clone(), b], &[cpu]).unwrap();
        let c = read_cells(&bytes);
        let at = |r: u16, col: u16| {
            c.iter()
                .find(|x| x.0 == r && x.1 == col)
                .map(|x| x.2.clone())
        };
        assert_eq!(at(0, 0).as_deref(), Some("iozone -i 0"));
        assert_eq!(at(1, 0).as_deref(), Some(" "));
        assert_eq!(at(3, 0).as_deref(), Some("Writer Report"));
        assert_eq!((at(4, 1), at(4, 2)), (Some("4".into()), Some("8".into())));
        assert_eq!(
            (at(5, 0), at(5, 1), at(5, 2)),
            (Some("64".into()), Some("100".into()), None)
        );
        assert_eq!(at(6, 0).as_deref(), Some("Re-writer Report"));
        // A blank row, then the CPU blocks.
        assert_eq!(at(9, 0), None);
        assert_eq!(
            at(10, 0).as_deref(),
            Some("Writer CPU utilization report (Zero values should be ignored)")
        );
        assert_eq!(at(12, 1).as_deref(), Some("12.5"));
        assert_eq!(&bytes[bytes.len() - 4..], &[0x0A, 0, 0, 0]);
    }

    #[test]
    fn throughput_sheet_is_laid_out_as_iozones() {
        let h = ThroughputHead {
            command_line: "iozone -t 2",
            children: "processes",
            record_kb: 4,
            unit: "kBytes/sec",
        };
        let rows = vec![("Initial write".to_string(), vec![1.5, 2.5])];
        let c = read_cells(&throughput(&h, &rows, &rows).unwrap());
        let texts: Vec<&str> = c.iter().map(|x| x.2.as_str()).collect();
        assert_eq!(
            &texts[..7],
            [
                "iozone -t 2",
                "Throughput report Y-axis is type of test X-axis is number of processes",
                "Record size = 4 kBytes",
                "Output is in kBytes/sec",
                "  Initial write ",
                "1.5",
                "2.5"
            ]
        );
        assert_eq!((c[5].0, c[5].1, c[6].1), (4, 2, 3));
        assert_eq!(c[9].2, "Output is in CPU%");
    }
}
