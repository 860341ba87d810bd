//! Steady-state detection beside fio 3.33 on the same jobs: a loose criterion ends both runs
//! early with the same `steadystate` block, an unreachable one runs both to their runtime; a
//! reporting group (`group_reporting` over clones) is judged as one window of summed samples.

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

/// A job file with the settings of fio 3.33's `examples/steadystate.fio` (four clones reporting
/// as one group, a write job then a random-read job in a new group), shrunk: a short window
/// and ramp, each clone held at 100 IOPS so the group's samples are steady and known (400).
fn group_job(d: &Scratch, read_criterion: &str, runtime: u32) -> String {
    let text = format!(
        "[global]\nthreads=1\ngroup_reporting\ntime_based\nsize=8m\nrate_iops=100\n\
         runtime={runtime}\nnumjobs=4\n\
         [ss-write]\nfilename=/dev/null\nrw=write\nbs=128k\nss=iops:10%\nss_dur=3s\nss_ramp=1s\n\
         [ss-read]\nnew_group\nstonewall\nfilename=/dev/zero\nrw=randread\nbs=4k\n\
         ss={read_criterion}\nss_dur=2s\nss_ramp=1s\n"
    );
    std::fs::write(d.file("ss.fio"), text).unwrap();
    d.s("ss.fio")
}

#[test]
fn a_reporting_group_is_judged_as_one_as_fio() {
    let d = Scratch::new("ss-group");
    let runtime = 12;
    let (fv, iv) = both_json("ss-group-run", &[&group_job(&d, "bw_slope:5%", runtime)]);
    for (i, (name, n)) in [("ss-write", 3), ("ss-read", 2)].into_iter().enumerate() {
        let (fj, ij) = (job(&fv, i), job(&iv, i));
        assert_eq!(ij["jobname"], name);
        let (fs, is) = (&fj["steadystate"], &ij["steadystate"]);
        assert_eq!(key_paths(is), key_paths(fs), "{name}: the block's keys");
        assert_eq!(is["ss"], fs["ss"], "{name}");
        assert_eq!(is["duration"], fs["duration"], "{name}");
        assert_eq!(u(&fs["attained"]), 1, "{name}: fio: {fs}");
        assert_eq!(u(&is["attained"]), 1, "{name}: iomark: {is}");
        // The window holds the group's sums: four clones at 100 IOPS each.
        for (tool, s) in [("fio", fs), ("iomark", is)] {
            let iops = s["data"]["iops"].as_array().unwrap();
            assert_eq!(iops.len(), n, "{name} {tool}: {s}");
            assert!(
                iops.iter().all(|x| (300..=500).contains(&u(x))),
                "{name} {tool}: {s}"
            );
        }
        // All four clones stop once the group is steady, well before their runtime.
        let (fr, ir) = (u(&fj["job_runtime"]), u(&ij["job_runtime"]));
        let limit = 4 * 1000 * runtime as u64;
        assert!(
            ir * 4 < limit * 3 && fr * 4 < limit * 3,
            "{name}: fio {fr} ms, iomark {ir} ms"
        );
        let ratio = ir as f64 / fr.max(1) as f64;
        assert!(
            (0.5..2.0).contains(&ratio),
            "{name}: fio {fr} ms, iomark {ir} ms"
        );
    }
}

#[test]
fn a_group_that_never_settles_runs_to_the_runtime_as_fio() {
    let d = Scratch::new("ss-group-never");
    let (fv, iv) = both_json("ss-group-never-run", &[&group_job(&d, "bw_slope:0", 3)]);
    let (fj, ij) = (job(&fv, 1), job(&iv, 1));
    assert_eq!(
        u(&fj["steadystate"]["attained"]),
        0,
        "{}",
        fj["steadystate"]
    );
    assert_eq!(
        u(&ij["steadystate"]["attained"]),
        0,
        "{}",
        ij["steadystate"]
    );
    let (fr, ir) = (u(&fj["job_runtime"]), u(&ij["job_runtime"]));
    let ratio = ir as f64 / fr.max(1) as f64;
    assert!((0.8..1.25).contains(&ratio), "fio {fr} ms, iomark {ir} ms");
}

#[test]
fn jobs_of_one_group_with_other_criteria_are_refused() {
    let d = Scratch::new("ss-group-mismatch");
    let text = "[global]\ngroup_reporting\nfilename=/dev/null\nsize=1m\nss_dur=2\n\
                [a]\nss=iops:5%\n[b]\nss=iops:10%\n";
    std::fs::write(d.file("m.fio"), text).unwrap();
    let o = iomark(&["run", "--parse-only", &d.s("m.fio")]);
    assert!(!o.status.success());
    let e = stderr(&o);
    assert!(e.contains("reporting group") && e.contains("'a'"), "{e}");
}
