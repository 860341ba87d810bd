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
    // The temporary file is gone; only the result is left.
    assert_eq!(std::fs::read_dir(&d.path).unwrap().count(), 1);

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
