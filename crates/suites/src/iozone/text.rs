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
    let mut line = |t: String| s.push_str(&format!("\t{t}\n"));
    if a.auto {
        line("Auto Mode".into());
    }
    if a.all_records {
        line("Cross over of record size disabled.".into());
    }
    if a.fsync_timed {
        line("Include fsync in write timing".into());
    }
    if a.close_timed {
        line("Include close in write timing".into());
    }
    if a.direct {
        line("O_DIRECT feature enabled".into());
    }
    if a.osync {
        line("SYNC Mode. ".into());
    }
    if a.dsync {
        line("O_DSYNC mode enabled.".into());
    }
    if a.rsync {
        line("Read & Write sync mode active.".into());
    }
    if a.no_retest {
        line("No retest option selected".into());
    }
    if a.mmap {
        line("Using mmap files".into());
    }
    if a.msync_async {
        line("Using msync(MS_ASYNC) on mmap files".into());
    }
    if a.msync_sync {
        line("Using msync(MS_SYNC) on mmap files".into());
    }
    if let Some(m) = a.madvise {
        line(format!("Madvise enabled: {m}"));
    }
    if a.diag {
        line(">>> I/O Diagnostic mode enabled. <<<".into());
        line("Every record written is stamped and every record read is verified (inside the timing).".into());
    }
    if let Some(p) = a.pct_read {
        line(format!("Percent read in mix test is {p}"));
    }
    if a.seq_mix {
        line(">>> Sequential Mixed workload. <<<".into());
    }
    if let Some(c) = a.cpu {
        line(format!("Binding of processors beginning with {c} "));
    }
    if a.cpu_util {
        line(format!(
            "CPU utilization Resolution = {:8.6} seconds.",
            iomark_engine::sys::cpu_time_resolution_ns() as f64 / 1e9
        ));
        line("CPU utilization Excel chart enabled".into());
    }
    if let Some(n) = a.min_file {
        line(format!("Using minimum file size of {} kilobytes.", n >> 10));
    }
    if let Some(g) = a.max_file {
        line(format!("Using maximum file size of {} kilobytes.", g >> 10));
    }
    if let Some(y) = a.min_record {
        line(format!("Using Minimum Record Size {} kB", y >> 10));
    }
    if let Some(q) = a.max_record {
        line(format!("Using Maximum Record Size {} kB", q >> 10));
    }
    for &f in &a.sizes {
        line(format!("File size set to {} kB", f >> 10));
    }
    for &r in &a.records {
        line(format!("Record Size {} kB", r >> 10));
    }
    if a.excel {
        line("Excel chart generation enabled".into());
    }
    if let Some(t) = &plan.throughput {
        if !t.stonewall {
            line("Stonewall disabled".into());
        }
    }
    line(format!("Command line used: {}", a.command_line));
    line(format!("Output is in {}", unit(a).words()));
    line("Time Resolution = 0.000001 seconds.".into());
    line(format!(
        "File stride size set to {} * record size.",
        plan.timing.stride
    ));
    if let Some(t) = &plan.throughput {
        let port = "threads";
        if t.counts.len() > 1 {
            line(format!("Min {port} = {} ", t.counts[0]));
            line(format!("Max {port} = {} ", t.counts[t.counts.len() - 1]));
        } else {
            line(format!("Throughput test with {} {port}", t.counts[0]));
        }
        line(format!(
            "Each {} writes a {} kByte file in {} kByte records",
            "thread",
            plan.cells.first().map_or(0, |c| c.file >> 10),
            plan.cells.first().map_or(0, |c| c.record >> 10)
        ));
    }
    s
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
