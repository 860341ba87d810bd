//! The `-R` report: "Excel output is below:", then one block per column measured, each a quoted
//! title, a header row of quoted record sizes (kB) and one row per file size (kB, quoted) with
//! the figures. Rows are ragged where the record would exceed the file, as iozone's are. A
//! cell that was not measured (a small record of a large file in `-a`, a test cut short) is
//! `0`, as iozone prints it, so that scripts reading every cell as a number keep working; the
//! result file, the workbook and the reports keep such a cell absent. With `-+u` the CPU
//! utilization blocks follow, one per column, in percent with two decimals.

use super::catalog::COLUMNS;
use super::plan::Plan;
use super::run::{Matrix, Measure, Unit};

/// One block: its title, its record sizes (kB) and its rows (file kB, a figure per record).
#[derive(Clone, Debug, PartialEq)]
pub struct Block<T = u64> {
    pub title: String,
    pub records_kb: Vec<u64>,
    pub rows: Vec<(u64, Vec<Option<T>>)>,
}

/// The blocks of the measured columns, in iozone's order.
pub fn blocks(plan: &Plan, m: &Matrix, unit: Unit) -> Vec<Block> {
    blocks_of(plan, m, |t| t.to_string(), |v| v.value(unit))
}

/// The CPU utilization blocks (`-+u`): CPU time over wall time of each pass, in percent,
/// titled as iozone titles them.
pub fn cpu_blocks(plan: &Plan, m: &Matrix) -> Vec<Block<f64>> {
    blocks_of(
        plan,
        m,
        |t| {
            t.replace(
                " report",
                " CPU utilization report (Zero values should be ignored)",
            )
        },
        Measure::cpu_util,
    )
}

fn blocks_of<T>(
    plan: &Plan,
    m: &Matrix,
    title: impl Fn(&str) -> String,
    value: impl Fn(&Measure) -> T,
) -> Vec<Block<T>> {
    let mut files: Vec<u64> = Vec::new();
    for r in &m.rows {
        if !files.contains(&r.cell.file) {
            files.push(r.cell.file);
        }
    }
    plan.columns
        .iter()
        .map(|&c| Block {
            title: title(COLUMNS[c].title),
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
                                .map(&value)
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
    render_blocks(&mut s, blocks, |x| format!(" {x} "));
    s
}

/// The CPU utilization blocks, as printed after the report.
pub fn render_cpu(blocks: &[Block<f64>]) -> String {
    let mut s = String::new();
    render_blocks(&mut s, blocks, |x| format!(" {x:6.2}"));
    s
}

/// A cell that was not measured prints `0`, as iozone prints it (scripts read every cell as a
/// number); the result file keeps it absent.
fn render_blocks<T: Default>(s: &mut String, blocks: &[Block<T>], cell: impl Fn(&T) -> String) {
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
                    Some(x) => s.push_str(&cell(x)),
                    None => s.push_str(&cell(&T::default())),
                }
            }
            s.push('\n');
        }
    }
}

/// Read a report back (what a spreadsheet import or a script sees).
pub fn parse(text: &str) -> Vec<Block> {
    parse_as(text)
}

/// Read a report back with figures of type `T` (`f64` reads the CPU blocks too).
pub fn parse_as<T: std::str::FromStr>(text: &str) -> Vec<Block<T>> {
    let mut out: Vec<Block<T>> = Vec::new();
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
        assert!(s.contains("\"65536\"   0  0  300 \n"), "{s}");
        // Read back, an unmeasured cell is iozone's 0.
        let mut zeros = b.clone();
        zeros[0].rows[1].1 = vec![Some(0), Some(0), Some(300)];
        assert_eq!(parse(&format!("iozone test complete.\n{s}")), zeros);
        let c = vec![Block {
            title: "Writer CPU utilization report (Zero values should be ignored)".into(),
            records_kb: vec![4, 8],
            rows: vec![(8, vec![Some(12.5), None])],
        }];
        let t = render_cpu(&c);
        assert!(t.contains("\"8\"    12.50   0.00\n"), "{t}");
        let back = parse_as::<f64>(&format!("{s}{t}"));
        assert_eq!(back[2].rows, vec![(8, vec![Some(12.5), Some(0.0)])]);
    }
}
