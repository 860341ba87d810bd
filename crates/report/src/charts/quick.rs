//! The grid of a `quick` run (rows SEQ1M Q8T1 ... RND4K Q1T1, a read and a write column) as
//! data: what the page's grid, the grid image and the XLSX grid sheet all show.

use super::{Chart, Kind, Trace};
use crate::model::{Figure, Source};

/// One cell's figures; a cell of a direction that did not run is None in [`GridRow::cells`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cell {
    pub mbps: f64,
    pub iops: f64,
    /// Mean latency (total, else completion), µs, when measured.
    pub mean_us: Option<f64>,
}

/// One test of the grid: its label and its read and write cells.
#[derive(Clone, Debug, PartialEq)]
pub struct GridRow {
    pub test: String,
    pub cells: [Option<Cell>; 2],
}

/// The column headings of the grid, in the order of [`GridRow::cells`].
pub const COLUMNS: [&str; 2] = ["Read", "Write"];

/// The test name of a quick job (`SEQ1M-Q8T1-read` is test `SEQ1M Q8T1`, direction read),
/// None for a job of another kind.
pub fn test_of(job: &str) -> Option<(String, &str)> {
    let (test, dir) = job.rsplit_once('-')?;
    let (kind, depth) = test.split_once('-')?;
    let known = (kind.starts_with("SEQ") || kind.starts_with("RND"))
        && depth.starts_with('Q')
        && depth.contains('T')
        && matches!(dir, "read" | "write");
    known.then(|| (format!("{kind} {depth}"), dir))
}

/// The grid of `s` when its jobs are a quick run's (all of them named as quick names its
/// tests), else None.
pub fn grid(s: &Source) -> Option<Vec<GridRow>> {
    let mut rows: Vec<GridRow> = Vec::new();
    for j in &s.jobs {
        let (test, dir) = test_of(&j.name)?;
        let k = usize::from(dir == "write");
        let i = match rows.iter().position(|r| r.test == test) {
            Some(i) => i,
            None => {
                rows.push(GridRow {
                    test,
                    cells: [None, None],
                });
                rows.len() - 1
            }
        };
        // A direction that did not run (quick's JSON of a refused write) stays empty.
        let Some(d) = j.dir(dir) else {
            continue;
        };
        rows[i].cells[k] = Some(Cell {
            mbps: d.figure(Figure::MBps).unwrap_or(0.0),
            iops: d.figure(Figure::Iops).unwrap_or(0.0),
            mean_us: [&d.lat, &d.clat]
                .into_iter()
                .flatten()
                .find(|l| l.n > 0)
                .map(|l| l.mean_ns / 1000.0),
        });
    }
    (!rows.is_empty()).then_some(rows)
}

/// The grid of each quick source as a chart: MB/s in the cells (NaN where a test did not
/// run), each cell's IOPS and mean latency as its note.
pub fn charts(sources: &[Source]) -> Vec<Chart> {
    let mut out = Vec::new();
    for s in sources {
        let Some(rows) = grid(s) else {
            continue;
        };
        let title = if sources.len() > 1 {
            format!("{}: quick (MB/s)", s.label)
        } else {
            "quick (MB/s)".to_string()
        };
        let mut c = Chart::new(
            format!("quick-grid-{}", s.label),
            &s.label,
            &title,
            Kind::Grid,
        );
        let cells = rows.iter().flat_map(|r| r.cells.iter());
        c.traces.push(Trace {
            name: "MB/s".into(),
            cats: COLUMNS.map(String::from).to_vec(),
            rows: rows.iter().map(|r| r.test.clone()).collect(),
            z: rows
                .iter()
                .map(|r| r.cells.map(|c| c.map_or(f64::NAN, |c| c.mbps)).to_vec())
                .collect(),
            notes: cells
                .map(|c| match c {
                    Some(c) => match c.mean_us {
                        Some(us) => format!("{:.0} IOPS, mean {us:.1} µs", c.iops),
                        None => format!("{:.0} IOPS", c.iops),
                    },
                    None => "not run".into(),
                })
                .collect(),
            ..Default::default()
        });
        out.push(c);
    }
    out
}

/// `v` with `places` decimals and thousands separated.
pub fn grouped(v: f64, places: usize) -> String {
    let s = format!("{v:.places$}");
    let (int, frac) = s.split_once('.').unwrap_or((&s, ""));
    let (sign, digits) = int.strip_prefix('-').map_or(("", int), |d| ("-", d));
    let mut out = String::new();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(ch);
    }
    if frac.is_empty() {
        format!("{sign}{out}")
    } else {
        format!("{sign}{out}.{frac}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_have_thousands_separated() {
        assert_eq!(grouped(687012.0, 2), "687,012.00");
        assert_eq!(grouped(3.157, 3), "3.157");
        assert_eq!(grouped(999.0, 0), "999");
        assert_eq!(grouped(-1234.5, 1), "-1,234.5");
    }

    #[test]
    fn quick_job_names_are_tests_and_directions() {
        assert_eq!(
            test_of("SEQ1M-Q8T1-read"),
            Some(("SEQ1M Q8T1".to_string(), "read"))
        );
        assert_eq!(
            test_of("RND4K-Q32T1-write"),
            Some(("RND4K Q32T1".to_string(), "write"))
        );
        assert_eq!(test_of("randread"), None);
        assert_eq!(test_of("seq-read-check-read"), None);
    }
}
