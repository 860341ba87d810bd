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
