//! Jobs of fio's own test suite (`t/jobs/t00NN*.fio`) and their options, with fio 3.33 beside
//! iomark on the same job: the read/write mix draws, flows, trimwrite and randtrimwrite with
//! fio's lenient block-size ranges, and offloaded submission with serialize_overlap.

use crate::util::*;
use serde_json::Value;

/// (reads, writes) issued by each job of a JSON document.
fn ios(v: &Value) -> Vec<(u64, u64)> {
    v["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|j| (u(&j["read"]["total_ios"]), u(&j["write"]["total_ios"])))
        .collect()
}

#[test]
fn rwmix_draws_match_fio_io_for_io() {
    // fio's t0008 (smaller): a sequential mix with inline verification. fio counts the
    // verification reads as reads; the mix itself splits as fio's draws split it.
    let d = Scratch::new("mix8");
    let f = format!("--filename={}", d.s("t8.dat"));
    let job = [
        "--name=foo",
        &f[..],
        "--bs=4k",
        "--verify=crc32c",
        "--rw=readwrite",
        "--size=8m",
        "--do_verify=1",
        "--verify_backlog=1",
    ];
    let (fv, iv) = both_json("mix8", &job);
    let (fj, ij) = (job_of(&fv), job_of(&iv));
    assert_eq!(
        u(&ij["write"]["io_kbytes"]),
        u(&fj["write"]["io_kbytes"]),
        "bytes written, iomark vs fio"
    );
    assert_eq!(u(&ij["read"]["io_kbytes"]), u(&fj["read"]["io_kbytes"]));
    assert_eq!(u(&fj["read"]["io_kbytes"]), 8192, "verification reads counted");
    // Random and sequential mixes, other shares and seeds, clones (each its own stream).
    let cases: &[&[&str]] = &[
        &["--rwmixread=70"],
        &["--rw=readwrite", "--rwmixread=30", "--randseed=1234"],
        &["--numjobs=3"],
        &["--rwmixwrite=10", "--loops=3", "--size=1m"],
        &["--name=second", "--rwmixread=60"],
    ];
    for extra in cases {
        // Options before the first --name are global (the second job inherits them).
        let mut a = vec![
            "--ioengine=null",
            "--filename=mix.dat",
            "--size=8m",
            "--bs=4k",
            "--rw=randrw",
            "--name=m",
        ];
        a.extend_from_slice(extra);
        let (fv, iv) = both_json("mixc", &a);
        let (fi, ii) = (ios(&fv), ios(&iv));
        assert!(fi.iter().all(|&(r, w)| r > 0 && w > 0), "{extra:?}: {fi:?}");
        assert_eq!(ii, fi, "{extra:?}: (reads, writes) per job, iomark vs fio");
    }
}

fn job_of(v: &Value) -> &Value {
    job(v, 0)
}

/// KiB read by each job of a JSON document.
fn read_kib(v: &Value) -> Vec<u64> {
    v["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|j| u(&j["read"]["io_kbytes"]))
        .collect()
}

#[test]
fn flow_holds_a_job_to_its_weight_as_fio_does() {
    // Every job of a flow counts in its total weight from the start, also a job of a later
    // group: alone, a job of weight a beside a waiting job of weight b may run ahead of the
    // flow's count only to a/(a+b), so it stalls after a fixed number of I/Os until its
    // runtime ends. That number depends only on the weights: fio's and iomark's must agree.
    // A job of another flow id is not held.
    for (a, b, ios_a) in [("9", "1", 10), ("1", "1", 2), ("1", "3", 1)] {
        let fa = format!("--flow={a}");
        let fb = format!("--flow={b}");
        let args = [
            "--ioengine=null",
            "--size=1m",
            "--flow_id=1",
            "--runtime=1",
            "--name=a",
            &fa[..],
            "--name=b",
            &fb[..],
            "--stonewall",
            "--name=c",
            "--flow_id=2",
            "--flow=1",
        ];
        let (fv, iv) = both_json("flowstall", &args);
        assert_eq!(read_kib(&fv), vec![4 * ios_a, 1024, 1024], "fio, weights {a}:{b}");
        assert_eq!(read_kib(&iv), read_kib(&fv), "iomark vs fio, weights {a}:{b}");
    }
    // Out of range, as fio: at most 1000.
    let o = iomark(&["run", "--name=x", "--ioengine=null", "--size=1m", "--flow=1001"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("flow"), "{}", stderr(&o));
}

#[test]
fn flow_weights_divide_the_io_between_running_jobs() {
    // fio's t0012 shape, shorter: two jobs of one flow running together issue in proportion
    // to their weights (1:4). The job that ends last runs alone for its last moments, so the
    // ratio is checked loosely, on both tools.
    let args = [
        "--ioengine=null",
        "--size=100g",
        "--flow_id=3",
        "--flow_sleep=100",
        "--time_based",
        "--runtime=2",
        "--name=light",
        "--flow=1",
        "--name=heavy",
        "--flow=4",
    ];
    let (fv, iv) = both_json("flowratio", &args);
    for (tool, v) in [("fio", &fv), ("iomark", &iv)] {
        let k = read_kib(v);
        let r = k[0] as f64 / k[1] as f64;
        assert!((0.15..0.40).contains(&r), "{tool}: light/heavy = {r:.3} ({k:?})");
    }
}
