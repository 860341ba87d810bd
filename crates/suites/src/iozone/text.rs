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

/// The columns of the text matrix: iozone prints every test's column (the extension tests
/// with -E or when one of them is selected); tests not run stay blank.
pub fn text_columns(plan: &Plan) -> usize {
    if plan.tests.iter().any(|&t| t >= 9) {
        COLUMNS.len()
    } else {
        13
    }
}

/// The block before the matrix. `began` is the start time as the user's locale shows it.
pub fn header(a: &IozoneArgs, plan: &Plan, began: &str, uname: Option<&str>) -> String {
    let mut s = format!(
        "\tIozone: Performance Test of File I/O\n\t        iomark iozone {} (iozone's tests on iomark's engine)\n\n",
        iomark_engine::VERSION
    );
    if let Some(u) = uname {
        s.push_str(&format!("\tMachine = {u}\n"));
    }
    s.push_str(&format!("\tRun began: {began}\n\n"));
    let lines = [
        timing_lines(a),
        workload_lines(a),
        size_lines(a),
        run_lines(a, plan),
    ];
    for t in lines.concat() {
        s.push_str(&format!("\t{t}\n"));
    }
    s
}

/// The header lines of the modes that change how files are opened, timed and moved (`-a`,
/// `-z`, `-e`, `-c`, `-I`, `-o`, `-+D`, `-+r`, `-+n`, `-B`, `-D`, `-G`, `-+A`).
fn timing_lines(a: &IozoneArgs) -> Vec<String> {
    let mut v: Vec<String> = Vec::new();
    let mut line = |on: bool, t: &str| {
        if on {
            v.push(t.into());
        }
    };
    line(a.auto, "Auto Mode");
    line(a.all_records, "Cross over of record size disabled.");
    line(a.fsync_timed, "Include fsync in write timing");
    line(a.close_timed, "Include close in write timing");
    line(a.direct, "O_DIRECT feature enabled");
    line(a.osync, "SYNC Mode. ");
    line(a.dsync, "O_DSYNC mode enabled.");
    line(a.rsync, "Read & Write sync mode active.");
    line(a.no_retest, "No retest option selected");
    line(a.mmap, "Using mmap files");
    line(a.msync_async, "Using msync(MS_ASYNC) on mmap files");
    line(a.msync_sync, "Using msync(MS_SYNC) on mmap files");
    if let Some(m) = a.madvise {
        v.push(format!("Madvise enabled: {m}"));
    }
    v
}

/// The header lines of what the tests do besides timing: `-+d` verification, the mix (`-+p`,
/// `-+B`), `-P` binding and `-+u` CPU utilization.
fn workload_lines(a: &IozoneArgs) -> Vec<String> {
    let mut v: Vec<String> = Vec::new();
    if a.diag {
        v.push(">>> I/O Diagnostic mode enabled. <<<".into());
        v.push("Every record written is stamped and every record read is verified (inside the timing).".into());
    }
    if let Some(p) = a.pct_read {
        v.push(format!("Percent read in mix test is {p}"));
    }
    if a.seq_mix {
        v.push(">>> Sequential Mixed workload. <<<".into());
    }
    if let Some(c) = a.cpu {
        v.push(format!("Binding of processors beginning with {c} "));
    }
    if a.cpu_util {
        v.push(format!(
            "CPU utilization Resolution = {:8.6} seconds.",
            iomark_engine::sys::cpu_time_resolution_ns() as f64 / 1e9
        ));
        v.push("CPU utilization Excel chart enabled".into());
    }
    v
}

/// The header lines of the matrix's sizes (`-n`, `-g`, `-y`, `-q`, every `-s` and `-r`) and
/// `-R`.
fn size_lines(a: &IozoneArgs) -> Vec<String> {
    let mut v: Vec<String> = Vec::new();
    if let Some(n) = a.min_file {
        v.push(format!("Using minimum file size of {} kilobytes.", n >> 10));
    }
    if let Some(g) = a.max_file {
        v.push(format!("Using maximum file size of {} kilobytes.", g >> 10));
    }
    if let Some(y) = a.min_record {
        v.push(format!("Using Minimum Record Size {} kB", y >> 10));
    }
    if let Some(q) = a.max_record {
        v.push(format!("Using Maximum Record Size {} kB", q >> 10));
    }
    for &f in &a.sizes {
        v.push(format!("File size set to {} kB", f >> 10));
    }
    for &r in &a.records {
        v.push(format!("Record Size {} kB", r >> 10));
    }
    if a.excel {
        v.push("Excel chart generation enabled".into());
    }
    v
}

/// The header lines that close the block: `-x`, the command line, the unit, the timer, the
/// stride and, in throughput mode, the children and their files.
fn run_lines(a: &IozoneArgs, plan: &Plan) -> Vec<String> {
    let mut v: Vec<String> = Vec::new();
    if let Some(t) = &plan.throughput {
        if !t.stonewall {
            v.push("Stonewall disabled".into());
        }
    }
    v.push(format!("Command line used: {}", a.command_line));
    v.push(format!("Output is in {}", unit(a).words()));
    v.push("Time Resolution = 0.000001 seconds.".into());
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

/// The two header lines of the matrix.
pub fn matrix_head(plan: &Plan) -> String {
    let n = text_columns(plan);
    let mut top = format!("{:>16}{:>8}", "", "");
    let mut head = format!("{:>16}{:>8}", "kB", "reclen");
    for c in &COLUMNS[..n] {
        top.push_str(&format!("{:>10}", c.top));
        head.push_str(&format!("{:>10}", c.head));
    }
    format!("{}\n{head}\n", top.trim_end())
}

/// One line of the matrix: file size and record in kB, then a figure per column (blank when
/// the test was not run).
pub fn row_line(plan: &Plan, row: &Row, unit: Unit) -> String {
    let mut s = format!("{:>16}{:>8}", row.cell.file >> 10, row.cell.record >> 10);
    for v in &row.values[..text_columns(plan)] {
        match v {
            Some(m) => s.push_str(&format!("{:>10}", m.value(unit))),
            None => s.push_str(&format!("{:>10}", "")),
        }
    }
    format!("{}\n", s.trim_end())
}

/// The closing line.
pub const COMPLETE: &str = "\niozone test complete.\n";

/// Shown when the matrix was cut short.
pub fn interrupted_note(plan: &Plan, rows: usize, keep: bool) -> String {
    format!(
        "\niozone: interrupted after {rows} of {} cells; {}\n",
        plan.cells.len(),
        if keep {
            format!("{} is kept (-w)", plan.file.display())
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
            h.contains(
                "\tTime Resolution = 0.000001 seconds.\n\
                 \tProcessor cache size set to 1024 kBytes.\n\
                 \tProcessor cache line size set to 32 bytes.\n\
                 \tFile stride size set to 17 * record size.\n"
            ),
            "{h}"
        );
        let head = matrix_head(&p);
        assert!(head
            .lines()
            .nth(1)
            .unwrap()
            .trim_start()
            .starts_with("kB  reclen     write"));
        assert!(cache_note(&p, false, 1 << 30).is_some());
        assert!(cache_note(&p, true, 1 << 30).is_none());
        assert!(cache_note(&p, false, 1 << 20).is_none());
    }
}
