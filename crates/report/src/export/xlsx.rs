//! XLSX (rust_xlsxwriter): a "summary" sheet with every row of [`super::COLUMNS`] and a native
//! column chart of IOPS, then one sheet per source and job with its directions' figures, its
//! latency percentiles and native charts of both, one unit per chart, stacked beside the
//! tables without covering one another; a sweep over two options keeps its dimensions: a
//! sheet per figure with the first option down and the second across, and a chart of it.

use super::sheet::sheet_name;
use super::{rows, Cell, COLUMNS};
use crate::charts::matrix;
use crate::model::{Figure, Source};
use crate::ReportError;
use iomark_engine::result::{SuiteTable, TableCell, TableKind};
use rust_xlsxwriter::{Chart, ChartType, Format, Workbook, Worksheet, XlsxError};
use std::path::Path;

/// Rows a chart covers at its default size (288 px over 20 px rows, and a gap).
const CHART_ROWS: u32 = 16;

/// A number's format: thousands grouped, whole above 1000, two decimals below.
fn num_format(v: f64) -> Format {
    Format::new().set_num_format(if v.abs() >= 1000.0 {
        "#,##0"
    } else {
        "#,##0.00"
    })
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
    // Rows of one block size together, so that each gets an IOPS chart of its own.
    let mut all = rows(sources);
    all.sort_by_key(|(_, j, _, _)| j.signature.bs);
    for (r, (_, _, _, cells)) in all.iter().enumerate() {
        write_cells(ws, r as u32 + 1, cells)?;
    }
    let n = all.len() as u32;
    let mut first = 0;
    for (k, group) in all
        .chunk_by(|a, b| a.1.signature.bs == b.1.signature.bs)
        .enumerate()
    {
        let bs = match group[0].1.signature.bs {
            0 => "block size not recorded".to_string(),
            b => format!("bs={}", crate::model::human_bytes(b)),
        };
        let last = first + group.len() as u32;
        let mut ch = Chart::new(ChartType::Column);
        ch.title()
            .set_name(&format!("IOPS per job, direction and repetition, {bs}"));
        ch.add_series()
            .set_name(&format!("IOPS ({bs})"))
            .set_categories((summary.as_str(), first + 1, 1, last, 1))
            .set_values((summary.as_str(), first + 1, 5, last, 5));
        ws.insert_chart(n + 2 + k as u32 * CHART_ROWS, 1, &ch)?;
        first = last;
    }
    ws.autofit();
    for s in sources {
        if let Some(rows) = crate::charts::quick::grid(s) {
            super::xlsx_grid::grid_sheet(&mut wb, &s.label, &rows, &bold, &mut used)?;
        }
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
            // Latency percentiles per direction; their chart below the IOPS one.
            let at = (nd + 3, 1 + CHART_ROWS, 8);
            super::xlsx_pct::percentiles(ws, &name, &j.name, &j.dirs, at, &bold)?;
            ws.autofit();
        }
        for t in &s.tables {
            let name = sheet_name(&format!("{} {}", s.label, t.kind.suite()), &mut used);
            suite_sheet(wb.add_worksheet(), &name, t, &bold)?;
            if t.kind == TableKind::Sweep {
                sweep_sheets(&mut wb, &s.label, t, &bold, &mut used)?;
            }
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
                    ws.write_number_with_format(r as u32 + 1, c as u16, *v, &num_format(*v))?;
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

/// The figures of a sweep over two options, one sheet each: the first option's values down,
/// the second's across, and a column chart of it (one series per row, one unit).
fn sweep_sheets(
    wb: &mut Workbook,
    label: &str,
    t: &SuiteTable,
    bold: &Format,
    used: &mut Vec<String>,
) -> Result<(), XlsxError> {
    let figures = ["IOPS", "MB/s", "mean lat (us)", "p99 lat (us)"];
    if t.col(figures[0]) != Some(2) || t.columns.len() < 3 {
        return Ok(());
    }
    let (down, across) = (&t.columns[0], &t.columns[1]);
    for fig in figures {
        let Some(fi) = t.col(fig) else { continue };
        let m = matrix::trace(t, 0, 1, fi, fig);
        let name = sheet_name(&format!("{label} {fig}"), used);
        let ws = wb.add_worksheet();
        ws.set_name(&name)?;
        ws.write_string_with_format(0, 0, format!("{fig}: {down} \\ {across}"), bold)?;
        for (c, cat) in m.cats.iter().enumerate() {
            ws.write_string_with_format(0, c as u16 + 1, cat, bold)?;
        }
        for (r, (row, zs)) in m.rows.iter().zip(&m.z).enumerate() {
            let r = r as u32 + 1;
            ws.write_string_with_format(r, 0, row, bold)?;
            for (c, v) in zs.iter().enumerate() {
                if v.is_finite() {
                    ws.write_number_with_format(r, c as u16 + 1, *v, &num_format(*v))?;
                }
            }
        }
        let (nr, nc) = (m.rows.len() as u32, m.cats.len() as u16);
        let mut ch = Chart::new(ChartType::Column);
        ch.title()
            .set_name(&format!("{fig} by {across} and {down}"));
        ch.x_axis().set_name(across.as_str());
        ch.y_axis().set_name(fig);
        for r in 1..=nr {
            ch.add_series()
                .set_name((name.as_str(), r, 0))
                .set_categories((name.as_str(), 0, 1, 0, nc))
                .set_values((name.as_str(), r, 1, r, nc));
        }
        ws.insert_chart(nr + 2, 0, &ch)?;
        ws.autofit();
    }
    Ok(())
}

fn write_cells(ws: &mut Worksheet, r: u32, cells: &[Cell]) -> Result<(), XlsxError> {
    for (c, cell) in cells.iter().enumerate() {
        match cell {
            Cell::Text(t) => {
                ws.write_string(r, c as u16, t)?;
            }
            Cell::Num(Some(v)) if v.is_finite() => {
                ws.write_number_with_format(r, c as u16, *v, &num_format(*v))?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{DirFigures, Headline, Job, Lat};
    use std::io::Read;

    fn source() -> Source {
        let dir = |dir: &'static str| DirFigures {
            dir,
            reps: vec![Headline {
                iops: 1000.0,
                bw: 4096e3,
                ..Default::default()
            }],
            lat: Some(Lat {
                n: 10,
                percentiles: vec![(50.0, 1000.0), (99.0, 5000.0), (99.99, 50_000.0)],
                ..Default::default()
            }),
            ..Default::default()
        };
        let t = crate::charts::sweep::tests::sample_table();
        Source {
            label: "s".into(),
            jobs: vec![Job {
                name: "j".into(),
                dirs: vec![dir("read"), dir("write")],
                ..Default::default()
            }],
            tables: vec![t],
            ..Default::default()
        }
    }

    /// A fresh directory named after `tag` and the process, and a workbook path in it.
    fn scratch(tag: &str) -> (std::path::PathBuf, std::path::PathBuf) {
        let dir = std::env::temp_dir().join(format!("{tag}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.xlsx");
        (dir, path)
    }

    /// Every part of the saved workbook whose name starts with `prefix`, by name.
    fn parts(path: &Path, prefix: &str) -> Vec<(String, String)> {
        let mut z = zip::ZipArchive::new(std::fs::File::open(path).unwrap()).unwrap();
        let mut out = Vec::new();
        for i in 0..z.len() {
            let mut f = z.by_index(i).unwrap();
            if f.name().starts_with(prefix) {
                let mut s = String::new();
                f.read_to_string(&mut s).unwrap();
                out.push((f.name().to_string(), s));
            }
        }
        out.sort();
        out
    }

    /// The number written after the first `open` in `s`.
    fn num_after<T: std::str::FromStr>(s: &str, open: &str) -> T {
        let text = s.split(open).nth(1).unwrap().split('<').next().unwrap();
        text.parse()
            .unwrap_or_else(|_| panic!("not a number: {text}"))
    }

    /// The (from, to) cells of each chart anchored in a drawing: (column, row) pairs.
    fn anchors(xml: &str) -> Vec<((u32, u32), (u32, u32))> {
        let num = |s: &str, tag: &str| -> u32 { num_after(s, &format!("<xdr:{tag}>")) };
        let cell = |s: &str| (num(s, "col"), num(s, "row"));
        xml.split("<xdr:twoCellAnchor")
            .skip(1)
            .map(|a| {
                let from = a.split("<xdr:from>").nth(1).unwrap();
                let to = a.split("<xdr:to>").nth(1).unwrap();
                (cell(from), cell(to))
            })
            .collect()
    }

    /// No chart covers another on any sheet, and a two-option sweep gets a sheet per figure
    /// with the first option down, the second across and a number format per cell.
    #[test]
    fn charts_never_overlap_and_a_sweep_keeps_its_dimensions() {
        let (dir, path) = scratch("iomark-xlsx");
        write(&path, &[source()]).unwrap();
        let drawings = parts(&path, "xl/drawings/drawing");
        assert!(drawings.len() >= 3, "{drawings:?}");
        let mut two = false;
        for (name, xml) in &drawings {
            let a = anchors(xml);
            two |= a.len() > 1;
            for (i, p) in a.iter().enumerate() {
                for q in &a[i + 1..] {
                    let apart = p.1 .0 <= q.0 .0
                        || q.1 .0 <= p.0 .0
                        || p.1 .1 <= q.0 .1
                        || q.1 .1 <= p.0 .1;
                    assert!(apart, "{name}: {p:?} and {q:?} overlap");
                }
            }
        }
        assert!(two, "the job's sheet has two charts");
        let book = parts(&path, "xl/workbook.xml").remove(0).1;
        assert!(book.contains("name=\"s IOPS\""), "{book}");
        assert!(book.contains("name=\"s p99 lat (us)\""), "{book}");
        let strings = parts(&path, "xl/sharedStrings.xml").remove(0).1;
        assert!(strings.contains("IOPS: bs \\ iodepth"), "{strings}");
        let styles = parts(&path, "xl/styles.xml").remove(0).1;
        assert!(styles.contains("#,##0.00"), "{styles}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Jobs of different block sizes never share the summary's IOPS axis: one chart per block
    /// size, its title and series naming it, over the rows of that block size only.
    #[test]
    fn summary_iops_charts_keep_block_sizes_apart() {
        let (dir, path) = scratch("iomark-xlsx-bs");
        let mut s = source();
        s.tables.clear();
        let job = |name: &str, bs: u64| {
            let mut j = s.jobs[0].clone();
            j.name = name.into();
            j.signature.bs = bs;
            j
        };
        s.jobs = vec![
            job("big1", 1 << 20),
            job("small", 4096),
            job("big2", 1 << 20),
        ];
        write(&path, &[s]).unwrap();
        let sheet = parts(&path, "xl/worksheets/sheet1.xml").remove(0).1;
        let strings = parts(&path, "xl/sharedStrings.xml").remove(0).1;
        let strings: Vec<&str> = strings
            .split("<t>")
            .skip(1)
            .filter_map(|t| t.split("</t>").next())
            .collect();
        // The workload text of summary row `r` (column C).
        let workload = |r: u32| -> String {
            let at = format!("<c r=\"C{r}\"");
            let c = sheet.split(&at).nth(1).unwrap();
            strings[num_after::<usize>(c, "<v>")].to_string()
        };
        let mut seen = Vec::new();
        for (_, xml) in parts(&path, "xl/charts/chart") {
            if !xml.contains("IOPS per job") {
                continue;
            }
            let bs = xml
                .split("bs=")
                .nth(1)
                .unwrap()
                .split('<')
                .next()
                .unwrap()
                .to_string();
            let vals = xml.split("<c:val>").nth(1).unwrap();
            let f = vals
                .split("<c:f>")
                .nth(1)
                .unwrap()
                .split("</c:f>")
                .next()
                .unwrap();
            let (a, b) = f.rsplit_once(":").unwrap();
            let row = |x: &str| -> u32 { x.rsplit('$').next().unwrap().parse().unwrap() };
            for r in row(a)..=row(b) {
                let w = workload(r);
                assert!(
                    w.contains(&format!("bs={bs} ")),
                    "chart bs={bs}, row {r}: {w}"
                );
            }
            seen.push((bs, row(b) - row(a) + 1));
        }
        seen.sort();
        // Two jobs of 1 MiB and one of 4 KiB, two directions each.
        assert_eq!(seen, [("1m".to_string(), 4), ("4k".to_string(), 2)]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// The percentile chart's x axis is the nines scale (no linear 0-100): percentiles at
    /// -log10(1-p), labelled 90 %, 99 %, 99.9 %, 99.99 % by the helper series, the axis's own
    /// numbers hidden; latency spanning decades on a log axis. A quick source gets its grid
    /// sheet with a unit in every heading.
    #[test]
    fn percentiles_sit_on_the_nines_scale_and_quick_gets_its_grid() {
        let (dir, path) = scratch("iomark-xlsx-pct");
        let mut quick = source();
        quick.label = "q".into();
        quick.tables.clear();
        quick.jobs[0].name = "SEQ1M-Q8T1-read".into();
        quick.jobs[0].dirs.truncate(1);
        write(&path, &[source(), quick]).unwrap();
        let charts = parts(&path, "xl/charts/chart");
        let (_, pct) = charts
            .iter()
            .find(|(_, x)| x.contains("j: latency percentiles"))
            .expect("the percentile chart");
        let x_axis = pct.split("<c:valAx>").nth(1).unwrap();
        assert!(x_axis.contains("<c:tickLblPos val=\"none\"/>"), "{x_axis}");
        assert!(x_axis.contains("<c:min val=\"0\"/>"), "{x_axis}");
        assert!(!x_axis.contains("<c:max val=\"100\"/>"));
        let y_axis = pct.split("<c:valAx>").nth(2).unwrap();
        assert!(y_axis.contains("<c:logBase val=\"10\"/>"), "{y_axis}");
        for label in ["0 %", "90 %", "99 %", "99.9 %", "99.99 %"] {
            assert!(
                pct.contains(&format!("<a:t>{label}</a:t>")),
                "{label}: {pct}"
            );
        }
        let cells = parts(&path, "xl/worksheets/sheet").remove(1).1;
        // The nines of 99.99 % is 4.
        assert!(
            cells.contains("<v>4</v>") || cells.contains("<v>3.99"),
            "{cells}"
        );
        let book = parts(&path, "xl/workbook.xml").remove(0).1;
        assert!(book.contains("name=\"q quick\""), "{book}");
        let strings = parts(&path, "xl/sharedStrings.xml").remove(0).1;
        for h in [
            "Read (MB/s)",
            "Write (IOPS)",
            "Read (mean lat, µs)",
            "SEQ1M Q8T1",
            "not run",
        ] {
            assert!(strings.contains(h), "{h}: {strings}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
