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

/// `--repeat` on a sweep and on a suite: the same statistics table, every run in the file.
#[test]
fn sweep_and_suite_repeat_like_run() {
    let d = Scratch::new_in("/dev/shm", "repeat-sw");
    let rf = d.s("sweep.json");
    let o = iomark_in(
        &[
            "sweep",
            "--repeat=2",
            "--bs=4k,64k",
            "--ioengine=null",
            "--size=8m",
            "--runtime=50ms",
            "--time_based",
            &format!("--result={rf}"),
        ],
        &d.path,
    );
    ok(&o);
    let s = stdout(&o);
    assert_eq!(s.matches("IOPS by bs").count(), 2, "{s}");
    assert!(s.contains("repetitions: 2 runs, headline = mean"), "{s}");
    assert!(stderr(&o).contains("run 2 of 2"), "{}", stderr(&o));
    let doc: Value = serde_json::from_slice(&std::fs::read(&rf).unwrap()).unwrap();
    assert_eq!(doc["runs"].as_array().unwrap().len(), 2);
    assert_eq!(doc["runs"][1]["jobs"].as_array().unwrap().len(), 2);
    // Both points' figures have their statistics.
    let figs = doc["repetitions"]["figures"].as_array().unwrap();
    assert!(figs.iter().any(|x| x["job"] == "bs=64k"), "{doc}");
    assert_eq!(std::fs::read_dir(&d.path).unwrap().count(), 1);

    let src = d.s("in.dat");
    std::fs::write(&src, vec![7u8; 4 << 20]).unwrap();
    let rf = d.s("dd.json");
    let o = iomark_in(
        &[
            "dd",
            &format!("if={src}"),
            "of=/dev/null",
            "bs=1M",
            "--repeat",
            "3",
            "--result-file",
            &rf,
        ],
        &d.path,
    );
    ok(&o);
    assert!(stdout(&o).contains("repetitions: 3 runs"), "{}", stdout(&o));
    let doc: Value = serde_json::from_slice(&std::fs::read(&rf).unwrap()).unwrap();
    assert_eq!(doc["runs"].as_array().unwrap().len(), 3);
}
