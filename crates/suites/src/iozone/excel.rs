//! The `-R` report: "Excel output is below:", then one block per column measured, each a quoted
//! title, a header row of quoted record sizes (kB) and one row per file size (kB, quoted) with
//! the figures. Rows are ragged where the record would exceed the file, as iozone's are. A
//! cell that was not measured (a small record of a large file in `-a`, a test cut short) is
//! `""`, never 0: iozone prints 0 there, which reads as a measurement.

use super::catalog::COLUMNS;
use super::plan::Plan;
use super::run::{Matrix, Unit};

/// One block: its title, its record sizes (kB) and its rows (file kB, a figure per record).
#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    pub title: String,
    pub records_kb: Vec<u64>,
    pub rows: Vec<(u64, Vec<Option<u64>>)>,
}

/// The blocks of the measured columns, in iozone's order.
pub fn blocks(plan: &Plan, m: &Matrix, unit: Unit) -> Vec<Block> {
    let mut files: Vec<u64> = Vec::new();
    for r in &m.rows {
        if !files.contains(&r.cell.file) {
            files.push(r.cell.file);
        }
    }
    plan.columns
        .iter()
        .map(|&c| Block {
            title: COLUMNS[c].title.to_string(),
            records_kb: plan.record_axis.iter().map(|r| r >> 10).collect(),
            rows: files
                .iter()
                .map(|&f| {
                    let vals = plan
                        .record_axis
                        .iter()
                        .take_while(|&&rec| rec <= f)
                        .map(|&rec| {
                            m.rows
                                .iter()
                                .find(|r| r.cell.file == f && r.cell.record == rec)
                                .and_then(|r| r.values[c].as_ref())
                                .map(|v| v.value(unit))
                        })
                        .collect();
                    (f >> 10, vals)
                })
                .collect(),
        })
        .collect()
}

/// The report as printed after "iozone test complete.".
pub fn render(blocks: &[Block]) -> String {
    let mut s = String::from("Excel output is below:\n");
    for b in blocks {
        s.push_str(&format!("\n\"{}\"\n      ", b.title));
        for r in &b.records_kb {
            s.push_str(&format!("  \"{r}\""));
        }
        s.push('\n');
        for (f, vals) in &b.rows {
            s.push_str(&format!("\"{f}\"  "));
            for v in vals {
                match v {
                    Some(x) => s.push_str(&format!(" {x} ")),
                    None => s.push_str(" \"\" "),
                }
            }
            s.push('\n');
        }
    }
    s
}

/// Read a report back (what a spreadsheet import or a script sees).
pub fn parse(text: &str) -> Vec<Block> {
    let mut out: Vec<Block> = Vec::new();
    let mut lines = text
        .lines()
        .skip_while(|l| !l.starts_with("Excel output is below:"));
    lines.next();
    let unq = |w: &str| w.trim_matches('"').to_string();
    for l in lines {
        let t = l.trim();
        if t.is_empty() {
            continue;
        }
        let words: Vec<&str> = t.split_whitespace().collect();
        if l.starts_with(' ') {
            if let Some(b) = out.last_mut() {
                b.records_kb = words.iter().filter_map(|w| unq(w).parse().ok()).collect();
            }
            continue;
        }
        let title = unq(t);
        if t.ends_with('"') && t.matches('"').count() == 2 && title.parse::<u64>().is_err() {
            out.push(Block {
                title,
                records_kb: Vec::new(),
                rows: Vec::new(),
            });
            continue;
        }
        let (Some(b), Some(f)) = (out.last_mut(), unq(words[0]).parse().ok()) else {
            continue;
        };
        let vals = words[1..]
            .iter()
            .map(|w| if *w == "\"\"" { None } else { w.parse().ok() })
            .collect();
        b.rows.push((f, vals));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn render_and_parse_back() {
        let b = vec![
            Block {
                title: "Writer report".into(),
                records_kb: vec![4, 8, 64],
                rows: vec![
                    (8, vec![Some(100), Some(200)]),
                    (65536, vec![None, None, Some(300)]),
                ],
            },
            Block {
                title: "Re-writer report".into(),
                records_kb: vec![4, 8, 64],
                rows: vec![(8, vec![Some(1), Some(2)])],
            },
        ];
        let s = render(&b);
        assert!(s.starts_with("Excel output is below:\n\n\"Writer report\"\n      "));
        assert!(s.contains("\"65536\"   \"\"  \"\"  300 \n"), "{s}");
        assert_eq!(parse(&format!("iozone test complete.\n{s}")), b);
    }
}
