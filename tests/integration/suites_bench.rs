//! `scripts/bench-vs-peers --quick`: the side-by-side comparison with GNU dd and hdparm keeps
//! working (no thresholds: only the table's shape and numbers are checked).

use crate::blockdev::root_required;
use crate::util::*;
use std::path::PathBuf;
use std::process::Command;

#[test]
fn bench_vs_peers_quick_prints_every_figure() {
    assert!(root_required());
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scripts/bench-vs-peers");
    let d = Scratch::new("bench-peers");
    let o = Command::new(&script)
        .args(["--quick", "--iomark"])
        .arg(bin())
        .arg("--dir")
        .arg(&d.path)
        .bounded_output()
        .expect("run scripts/bench-vs-peers (needs python3)");
    ok(&o);
    let out = stdout(&o);
    let rows: Vec<Vec<&str>> = out
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| figure"))
        .map(|l| l.trim_matches('|').split(" | ").map(str::trim).collect())
        .collect();
    let mut labels = Vec::new();
    for bs in ["1K", "8K", "1M", "8M"] {
        labels.push(format!("dir dd write {bs}"));
        labels.push(format!("dir dd read {bs}"));
    }
    for h in ["hdparm -T", "hdparm -t", "hdparm -t --direct"] {
        labels.push(format!("loop {h}"));
    }
    for l in &labels {
        let row = rows
            .iter()
            .find(|r| r[0] == l)
            .unwrap_or_else(|| panic!("no row {l}:\n{out}"));
        for i in 1..=3 {
            let v: f64 = row[i].parse().unwrap_or_else(|_| panic!("{row:?}"));
            assert!(v > 0.0, "{row:?}");
        }
        let (lo, hi) = row[4].split_once('-').expect("min-max");
        assert!(
            lo.parse::<f64>().unwrap() <= hi.parse::<f64>().unwrap(),
            "{row:?}"
        );
        // CPU time per unit, iomark over the original ("-" when a process used less than the
        // kernel's accounting step).
        assert!(
            row[5] == "-" || row[5].parse::<f64>().unwrap() > 0.0,
            "{row:?}"
        );
    }
    // bonnie++'s figures are there; at --quick sizes they may be +++++ (under 500 ms).
    for f in [
        "block out",
        "rewrite",
        "block in",
        "seeks",
        "per-char out",
        "per-char in",
        "seq create",
        "random create",
    ] {
        let l = format!("dir bonnie++ {f}");
        let row = rows
            .iter()
            .find(|r| r[0] == l)
            .unwrap_or_else(|| panic!("no row {l}:\n{out}"));
        assert!(
            row[1] == "-" || row[1].parse::<f64>().unwrap() > 0.0,
            "{row:?}"
        );
    }
    assert_eq!(
        std::fs::read_dir(&d.path).unwrap().count(),
        0,
        "bench-vs-peers left files behind"
    );
}
