//! `iomark run --repeat N`: N runs, statistics per figure, every run kept in the result file.

use crate::util::*;
use serde_json::Value;

#[test]
fn run_repeat_keeps_every_run_and_tabulates() {
    let d = Scratch::new_in("/dev/shm", "repeat");
    let rf = d.s("r.json");
    let file = d.s("t");
    let o = iomark(&[
        "run",
        "--repeat=3",
        "--repeat-agg",
        "median",
        "--name=rr",
        &format!("--filename={file}"),
        "--size=8m",
        "--rw=randread",
        "--bs=4k",
        "--runtime=150ms",
        "--time_based",
        &format!("--result={rf}"),
    ]);
    ok(&o);
    let s = stdout(&o);
    assert_eq!(s.matches("Run status group 0").count(), 3, "{s}");
    assert!(
        s.contains("repetitions: 3 runs, headline = median of the runs"),
        "{s}"
    );
    let line = s.lines().find(|l| l.contains(" IOPS ")).unwrap();
    assert!(line.starts_with("rr"), "{line}");
    let doc: Value = serde_json::from_slice(&std::fs::read(&rf).unwrap()).unwrap();
    let runs = doc["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 3);
    let iops = doc["repetitions"]["figures"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["figure"] == "IOPS")
        .unwrap();
    let samples: Vec<f64> = iops["samples"].as_array().unwrap().iter().map(f).collect();
    for (run, got) in runs.iter().zip(&samples) {
        let r = &run["jobs"][0]["dirs"]["read"];
        let want = f(&r["total_ios"]) * 1000.0 / f(&r["runtime_ms"]);
        assert!((want - got).abs() < 1e-6 * want, "{want} {got}");
    }
    let mut sorted = samples.clone();
    sorted.sort_by(f64::total_cmp);
    assert_eq!(f(&iops["headline"]), sorted[1]);
    let o = iomark(&["run", "--repeat=0", "--name=x"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--repeat=0: expected a count from 1 to 1000"));
}
