//! `iomark iometer`: an access specification runs on a temporary file with its read share
//! honoured, the named specs are listed, and bad specs are refused naming the field.

use crate::util::*;
use serde_json::Value;

#[test]
fn iometer_spec_runs_with_its_mix_and_leaves_only_the_result() {
    let d = Scratch::new_in("/dev/shm", "iometer");
    let rf = d.s("r.json");
    let o = iomark_in(
        &[
            "iometer",
            "--spec",
            "4k,70,100@100",
            "--outstanding",
            "4",
            "--workers",
            "2",
            "--size",
            "8m",
            "--runtime",
            "500ms",
            "--result",
            &rf,
            "--csv",
            &d.s("r.csv"),
        ],
        &d.path,
    );
    ok(&o);
    assert!(
        stdout(&o).contains("rw=randrw, bs=(R) 4096B-4096B"),
        "{}",
        stdout(&o)
    );
    let v: Value = serde_json::from_slice(&std::fs::read(&rf).unwrap()).unwrap();
    let j = &v["jobs"];
    let (mut r, mut w) = (0.0, 0.0);
    for k in 0..j.as_array().unwrap().len() {
        r += f(&j[k]["dirs"]["read"]["total_ios"]);
        w += f(&j[k]["dirs"]["write"]["total_ios"]);
    }
    assert!(r + w > 10_000.0, "{r} {w}");
    let share = r / (r + w) * 100.0;
    assert!((67.0..73.0).contains(&share), "{share}");
    // The CSV's row agrees with the result.
    let csv = std::fs::read_to_string(d.file("r.csv")).unwrap();
    let rows: Vec<Vec<&str>> = csv.lines().map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 2, "{csv}");
    let col = |name: &str| rows[0].iter().position(|c| *c == name).unwrap();
    assert_eq!(rows[1][col("Read I/Os")], format!("{r}"), "{csv}");
    assert_eq!(rows[1][col("Write I/Os")], format!("{w}"), "{csv}");
    assert_eq!(rows[1][col("# Workers")], "2");
    assert_eq!(rows[1][col("Errors")], "0");
    let iops: f64 = rows[1][col("IOps")].parse().unwrap();
    let mbps: f64 = rows[1][col("MBps (Binary)")].parse().unwrap();
    assert!(
        (iops * 4096.0 / 1048576.0 - mbps).abs() < 0.02 * mbps + 0.01,
        "{csv}"
    );
    // The temporary file is gone; only the result and the CSV are left.
    assert_eq!(std::fs::read_dir(&d.path).unwrap().count(), 2);

    let o = iomark(&["iometer", "--list"]);
    ok(&o);
    assert!(
        stdout(&o).contains("iometer-default  2k,67,100"),
        "{}",
        stdout(&o)
    );
    let o = iomark(&["iometer", "--spec", "4k,70,random"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("% random 'random' is not a whole number"));
    assert!(stderr(&o).contains("file-server"));
    let o = iomark(&["iometer", "--spec", "4k,70,100", "--outstandin", "4"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("unknown option --outstandin"));
}

/// Cycled outstanding I/Os and workers run one point per value, as a sweep.
#[test]
fn iometer_cycles_outstanding_ios_and_workers() {
    let d = Scratch::new_in("/dev/shm", "iometer-cycle");
    let o = iomark_in(
        &[
            "iometer",
            "--spec=database",
            "--outstanding=1..16x4",
            "--workers=1,2",
            "--size=8m",
            "--runtime=100ms",
            "--ioengine=null",
        ],
        &d.path,
    );
    ok(&o);
    let s = stdout(&o);
    let table: Vec<&str> = s.lines().skip_while(|l| *l != "IOPS by numjobs").collect();
    assert_eq!(table.len(), 5, "{s}");
    assert!(
        table[1].contains("numjobs=1") && table[1].contains("numjobs=2"),
        "{s}"
    );
    assert!(table[4].starts_with("iodepth=16"), "{s}");
    assert!(stderr(&o).contains("6 points"), "{}", stderr(&o));
    assert_eq!(std::fs::read_dir(&d.path).unwrap().count(), 0);
    let o = iomark(&[
        "iometer",
        "--spec=database",
        "--outstanding=1,2",
        "--csv=x.csv",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--csv with cycled"), "{}", stderr(&o));
}
