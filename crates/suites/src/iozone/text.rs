//! iozone's text output: the header block (the options in effect, the command line, the
//! units), the two header lines of the matrix, one line per cell as it finishes, and
//! "iozone test complete.".

use super::args::IozoneArgs;
use super::catalog::COLUMNS;
use super::plan::Plan;
use super::run::{Row, Unit};

/// The unit the command line asks for.
pub fn unit(a: &IozoneArgs) -> Unit {
    if a.ops_per_sec {
        Unit::OpsPerSec
    } else if a.us_per_op {
        Unit::MicrosPerOp
    } else {
        Unit::KiBps
    }
}

/// The block before the matrix. `began` is the start time as the user's locale shows it;
/// `uname` is what `-M` shows.
pub fn header(a: &IozoneArgs, plan: &Plan, began: &str, uname: Option<&str>) -> String {
    let mut s = format!(
        "\tIozone: Performance Test of File I/O\n\t        iomark iozone {} (iozone's tests on iomark's engine)\n\n",
        iomark_engine::VERSION
    );
    s.push_str(&format!("\tRun began: {began}\n\n"));
    s.push_str(&super::option_lines::lines(a, uname));
    for t in run_lines(a, plan) {
        s.push_str(&format!("\t{t}\n"));
    }
    s
}

/// The header lines that close the block: the command line, the unit, the timer, the
/// stride and, in throughput mode, the children and their files.
fn run_lines(a: &IozoneArgs, plan: &Plan) -> Vec<String> {
    let mut v: Vec<String> = Vec::new();
    v.push(format!("Command line used: {}", a.command_line));
    // -O and -N said their unit with their flag.
    if unit(a) == Unit::KiBps {
        v.push(format!("Output is in {}", unit(a).words()));
    }
    v.push(format!(
        "Time Resolution = {:1.6} seconds.",
        super::clock::resolution_ns() as f64 / 1e9
    ));
    // iozone's defaults (-S and -L, which change them, only tune -p, which is refused).
    v.push("Processor cache size set to 1024 kBytes.".into());
    v.push("Processor cache line size set to 32 bytes.".into());
    v.push(format!(
        "File stride size set to {} * record size.",
        plan.timing.stride
    ));
    if let Some(t) = &plan.throughput {
        // As iozone words it: "thread(s)" with -T, else "process(es)"; plural only for a
        // throughput test of more than one.
        let port = super::throughput::child_word(a.threads, false);
        if t.counts.len() > 1 {
            v.push(format!("Min {port} = {} ", t.counts[0]));
            v.push(format!("Max {port} = {} ", t.counts[t.counts.len() - 1]));
        } else {
            let n = t.counts[0];
            let ports = super::throughput::child_word(a.threads, n > 1);
            v.push(format!("Throughput test with {n} {ports}"));
        }
        v.push(format!(
            "Each {port} writes a {} kByte file in {} kByte records",
            plan.cells.first().map_or(0, |c| c.file >> 10),
            plan.cells.first().map_or(0, |c| c.record >> 10)
        ));
    }
    v
}

/// How iozone lays out the matrix of a run: the columns its header names (the extension
/// tests' with -E or when one of them runs), whether the header names the stream tests (not
/// with -B alone), the tests a line has a slot for, and the tests selected with -i (every
/// test when none was).
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    columns: usize,
    streams: bool,
    slots: u32,
    selected: Option<Vec<u32>>,
}

/// Per test (`-i` number), the printf widths of its figures on a matrix line and the blank
/// iozone prints in its place when it was not selected (record rewrite and stride read put a
/// space before their figure; the blanks are a little narrower than the figures).
const SLOTS: [(&[usize], usize); 13] = [
    (&[10, 10], 18),
    (&[10, 10], 18),
    (&[10, 10], 18),
    (&[10], 9),
    (&[11], 10),
    (&[11], 10),
    (&[10, 10], 18),
    (&[10, 10], 17),
    (&[], 0),
    (&[10, 10], 18),
    (&[10, 10], 18),
    (&[10, 10], 18),
    (&[10, 10], 18),
];

/// The widths of the header's fields (file size, record size, then each column's), iozone's
/// `%16s%8s%9s%11s%10s%10s%10s %9s%10s %10s %10s%10s...`.
const HEAD_WIDTHS: [usize; 15] = [16, 8, 9, 11, 10, 10, 10, 10, 10, 11, 11, 10, 10, 10, 10];

impl Layout {
    /// The layout of `plan` run from the command line `a`.
    pub fn of(a: &IozoneArgs, plan: &Plan) -> Layout {
        let extension = a.extension || plan.tests.iter().any(|&t| t >= 9);
        let vectored = plan.tests.iter().any(|&t| t >= 11);
        // iozone's test count: 0 to 8 (the mix prints nothing in this mode), 0 to 10 with
        // -E; mapped files drop the last two (and -E's); never fewer than the tests run.
        let mut slots = match (a.mmap, extension, vectored) {
            (true, _, _) => 7,
            (_, true, true) => 13,
            (_, true, false) => 11,
            _ => 9,
        };
        slots = slots.max(plan.tests.iter().max().map_or(0, |t| t + 1));
        Layout {
            columns: match (extension, vectored) {
                (true, true) => 21,
                (true, false) => 17,
                _ => 13,
            },
            streams: extension || !a.mmap,
            slots,
            selected: (!a.tests.is_empty()).then(|| plan.tests.clone()),
        }
    }
}

/// The two header lines of the matrix, as iozone pads them (trailing blanks included).
pub fn matrix_head(l: &Layout) -> String {
    let width = |i: usize| HEAD_WIDTHS.get(i).copied().unwrap_or(10);
    let mut top = format!("{:>16}{:>8}", "", "");
    let mut head = format!("{:>16}{:>8}", "kB", "reclen");
    for (i, c) in COLUMNS[..l.columns].iter().enumerate() {
        let w = width(i + 2);
        let name = if !l.streams && (6..=7).contains(&c.test) {
            ""
        } else {
            c.head
        };
        top.push_str(&format!("{:>w$}", c.top));
        head.push_str(&format!("{name:>w$}"));
    }
    format!("{top}\n{head}\n")
}

/// One line of the matrix: file size and record in kB, then each test's figures at iozone's
/// widths (0 where a figure was not measured), or its blank when it was not selected.
pub fn row_line(l: &Layout, row: &Row, unit: Unit) -> String {
    let mut s = format!("{:>16}{:>8}", row.cell.file >> 10, row.cell.record >> 10);
    for t in 0..l.slots {
        let (widths, blank) = SLOTS[t as usize];
        if l.selected.as_ref().is_some_and(|sel| !sel.contains(&t)) {
            s.push_str(&" ".repeat(blank));
            continue;
        }
        let cols = COLUMNS.iter().enumerate().filter(|(_, c)| c.test == t);
        for ((i, _), &w) in cols.zip(widths) {
            match row.values.get(i).and_then(|v| v.as_ref()) {
                Some(m) => s.push_str(&format!("{:>w$}", m.value(unit))),
                // As iozone prints a figure it did not measure (-+n's retests): scripts
                // split the line on blanks; the result file leaves it out.
                None => s.push_str(&format!("{:>w$}", 0)),
            }
        }
    }
    format!("{s}\n")
}

/// The closing line.
pub const COMPLETE: &str = "\niozone test complete.\n";

/// Shown when the matrix was cut short.
/// The line of an interrupted matrix run: how far it went, and whether the test file stays
/// (`keep`: -w, or it was there before the run).
pub fn interrupted_note(plan: &Plan, rows: usize, keep: bool) -> String {
    format!(
        "\niozone: interrupted after {rows} of {} cells; {}\n",
        plan.cells.len(),
        if keep {
            format!("{} is kept", plan.file.display())
        } else {
            format!("{} is removed", plan.file.display())
        }
    )
}

/// The honesty note for buffered runs whose files all fit in memory: the figures then show the
/// page cache (and the CPU caches below them), not the device.
pub fn cache_note(plan: &Plan, direct: bool, mem_bytes: u64) -> Option<String> {
    let largest = plan.cells.iter().map(|c| c.file).max()?;
    let files = plan.throughput.as_ref().map_or(1, |t| t.files.len() as u64);
    if direct || largest.saturating_mul(files) >= mem_bytes / 2 {
        return None;
    }
    Some(format!(
        "every file fits in the page cache ({} MiB of RAM): the figures show the caches, not the device (-I measures the device)",
        mem_bytes >> 20
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::iozone::{parse, plan};

    #[test]
    fn header_rows_and_cache_note() {
        let a = parse(&[
            "-s".into(),
            "1m".into(),
            "-i".into(),
            "0".into(),
            "-e".into(),
        ])
        .unwrap();
        let p = plan(&a, &|_| Some(1 << 40)).unwrap();
        let h = header(&a, &p, "now", None);
        assert!(h.contains("\tInclude fsync in write timing\n"), "{h}");
        assert!(
            h.contains("\tCommand line used: iozone -s 1m -i 0 -e\n"),
            "{h}"
        );
        // iozone's lines from "Time Resolution" on, in its order.
        assert!(
            h.contains(&format!(
                "\tTime Resolution = {:1.6} seconds.\n\
                     \tProcessor cache size set to 1024 kBytes.\n\
                     \tProcessor cache line size set to 32 bytes.\n\
                     \tFile stride size set to 17 * record size.\n",
                crate::iozone::clock::resolution_ns() as f64 / 1e9
            )),
            "{h}"
        );
        let head = matrix_head(&Layout::of(&a, &p));
        assert!(head
            .lines()
            .nth(1)
            .unwrap()
            .trim_start()
            .starts_with("kB  reclen    write    rewrite"));
        assert!(cache_note(&p, false, 1 << 30).is_some());
        assert!(cache_note(&p, true, 1 << 30).is_none());
        assert!(cache_note(&p, false, 1 << 20).is_none());
    }
}
