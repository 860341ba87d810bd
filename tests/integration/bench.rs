//! `scripts/bench-vs-fio --quick` and `scripts/bench-report`: the benchmarks keep working (no
//! thresholds: the CI machine is noisy, so only the tables' shape and numbers are checked).

use crate::util::*;
use std::path::PathBuf;
use std::process::Command;

const ROWS: [&str; 11] = ["1", "2", "3", "4", "5", "6", "7r", "7w", "8", "9a", "9b"];

/// "7.42M", "649k", "633MiB/s", "3ms", "118ns", "1.3us", "21.1MiB" → the leading number.
fn number(cell: &str) -> f64 {
    let end = cell
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(cell.len());
    cell[..end]
        .parse()
        .unwrap_or_else(|_| panic!("not a number: {cell:?}"))
}

#[test]
fn bench_vs_fio_quick_prints_every_workload() {
    let fio = Command::new("fio").arg("--version").bounded_output();
    assert!(
        fio.is_ok_and(|o| o.status.success()),
        "fio is needed by scripts/bench-vs-fio and was not found on PATH: install fio (scripts/test does it as root)"
    );
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scripts/bench-vs-fio");
    let d = Scratch::new("bench");
    let o = Command::new(&script)
        .args(["--quick", "--iomark"])
        .arg(bin())
        .arg("--dir")
        .arg(&d.path)
        .bounded_output()
        .expect("run scripts/bench-vs-fio (needs python3)");
    ok(&o);
    let out = stdout(&o);
    let rows: Vec<Vec<&str>> = out
        .lines()
        .filter(|l| l.starts_with("| "))
        .map(|l| l.trim_matches('|').split(" | ").map(str::trim).collect())
        .collect();
    assert_eq!(rows[0][0], "#", "header row:\n{out}");
    assert_eq!(rows[0].len(), 15, "{out}");
    for id in ROWS {
        let row = rows
            .iter()
            .find(|r| r[0] == id)
            .unwrap_or_else(|| panic!("no row for workload {id}:\n{out}"));
        assert_eq!(row.len(), 15, "{row:?}");
        // iomark, fio, ratio, cpu/IO both, RSS both.
        for i in [2, 3, 4, 6, 7, 9, 10] {
            assert!(number(row[i]) > 0.0, "workload {id} column {i}: {row:?}");
        }
        let (lo, hi) = row[5].split_once('-').expect("min-max");
        assert!(number(lo) <= number(hi), "{row:?}");
        if matches!(id, "4" | "5" | "6" | "7r" | "7w") {
            assert!(number(row[11]) > 0.0 && number(row[12]) > 0.0, "{row:?}");
        }
    }
    // The script removes its own directory (and so its 64 MiB file).
    assert_eq!(
        std::fs::read_dir(&d.path).unwrap().count(),
        0,
        "bench-vs-fio left files behind"
    );
}

/// `scripts/bench-report`: the report benchmark prints its row (no thresholds) and cleans up.
#[test]
fn bench_report_prints_its_row() {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scripts/bench-report");
    let d = Scratch::new("benchreport");
    let o = Command::new(&script)
        .args(["--ios", "20000", "--reps", "1", "--iomark"])
        .arg(bin())
        .arg("--dir")
        .arg(&d.path)
        .bounded_output()
        .expect("run scripts/bench-report (needs python3)");
    ok(&o);
    let out = stdout(&o);
    let row: Vec<&str> = out
        .lines()
        .find(|l| l.starts_with("| report"))
        .unwrap_or_else(|| panic!("no report row:\n{out}"))
        .trim_matches('|')
        .split(" | ")
        .map(str::trim)
        .collect();
    assert_eq!(row.len(), 8, "{row:?}");
    assert_eq!(row[1], "20000", "{row:?}");
    // Logs, wall, CPU, peak RSS and the page's size were measured.
    for i in 2..7 {
        assert!(number(row[i]) > 0.0, "column {i}: {row:?}");
    }
    assert_eq!(
        std::fs::read_dir(&d.path).unwrap().count(),
        0,
        "bench-report left files behind"
    );
}
