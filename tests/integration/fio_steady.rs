//! Steady-state detection beside fio 3.33 on the same jobs: a loose criterion ends both runs
//! early with the same `steadystate` block, an unreachable one runs both to their runtime.

use crate::util::*;
use serde_json::Value;

fn steady_job(tag: &str, criterion: &str) -> (Value, Value) {
    let d = Scratch::new_in("/dev/shm", tag);
    let f = format!("--filename={}", d.s("ss.dat"));
    let c = format!("--steadystate={criterion}");
    both_json(
        tag,
        &[
            "--name=ss",
            &f,
            "--size=8m",
            "--rw=randread",
            "--bs=4k",
            "--time_based",
            "--runtime=4",
            &c,
            "--ss_dur=2",
        ],
    )
}

#[test]
fn loose_criterion_ends_the_job_early_as_fio() {
    let (fv, iv) = steady_job("ss-loose", "iops:50%");
    let (fj, ij) = (job(&fv, 0), job(&iv, 0));
    let (fs, is) = (&fj["steadystate"], &ij["steadystate"]);
    assert_eq!(key_paths(is), key_paths(fs), "the block's keys");
    assert_eq!(is["ss"], fs["ss"]);
    assert_eq!(is["ss"], "iops:50.000000%");
    assert_eq!(u(&is["duration"]), 2);
    assert_eq!(u(&fs["attained"]), 1, "fio: {fs}");
    assert_eq!(u(&is["attained"]), 1, "iomark: {is}");
    assert!(is["criterion"].as_str().unwrap().ends_with('%'));
    assert_eq!(is["data"]["iops"].as_array().unwrap().len(), 2);
    // Both stop at about two samples, well before the 4 s runtime.
    let (fr, ir) = (u(&fj["job_runtime"]), u(&ij["job_runtime"]));
    assert!(ir < 3500 && fr < 3500, "fio {fr} ms, iomark {ir} ms");
    let ratio = ir as f64 / fr.max(1) as f64;
    assert!((0.5..2.0).contains(&ratio), "fio {fr} ms, iomark {ir} ms");
    // The window's means are those of its samples.
    let iops: Vec<u64> = is["data"]["iops"]
        .as_array()
        .unwrap()
        .iter()
        .map(u)
        .collect();
    assert_eq!(u(&is["data"]["iops_mean"]), iops.iter().sum::<u64>() / 2);
}

#[test]
fn unreachable_criterion_runs_to_the_runtime_as_fio() {
    let (fv, iv) = steady_job("ss-never", "bw_slope:0");
    let (fj, ij) = (job(&fv, 0), job(&iv, 0));
    assert_eq!(u(&fj["steadystate"]["attained"]), 0);
    assert_eq!(u(&ij["steadystate"]["attained"]), 0);
    assert_eq!(ij["steadystate"]["ss"], fj["steadystate"]["ss"]);
    let (fr, ir) = (u(&fj["job_runtime"]), u(&ij["job_runtime"]));
    let ratio = ir as f64 / fr.max(1) as f64;
    assert!((0.8..1.25).contains(&ratio), "fio {fr} ms, iomark {ir} ms");
}

#[test]
fn bad_criterion_is_refused_by_name() {
    let o = iomark(&[
        "run",
        "--name=ss",
        "--filename=/dev/null",
        "--size=1m",
        "--steadystate=iopz:1%",
        "--ss_dur=2",
    ]);
    assert!(!o.status.success());
    let e = stderr(&o);
    assert!(e.contains("steadystate") && e.contains("iops_slope"), "{e}");
}
