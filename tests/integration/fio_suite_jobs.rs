//! Jobs of fio's own test suite (`t/jobs/t00NN*.fio`) and their options, with fio 3.33 beside
//! iomark on the same job: the read/write mix draws, flows, trimwrite and randtrimwrite with
//! fio's lenient block-size ranges, and offloaded submission with serialize_overlap.

use crate::util::*;
use serde_json::Value;

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
    assert_eq!(
        u(&fj["read"]["io_kbytes"]),
        8192,
        "verification reads counted"
    );
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
        let (fi, ii) = (job_ios(&fv), job_ios(&iv));
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
        assert_eq!(
            read_kib(&fv),
            vec![4 * ios_a, 1024, 1024],
            "fio, weights {a}:{b}"
        );
        assert_eq!(
            read_kib(&iv),
            read_kib(&fv),
            "iomark vs fio, weights {a}:{b}"
        );
    }
    // Out of range, as fio: at most 1000.
    let o = iomark(&[
        "run",
        "--name=x",
        "--ioengine=null",
        "--size=1m",
        "--flow=1001",
    ]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("flow"), "{}", stderr(&o));
}

#[test]
fn flow_weights_divide_the_io_between_running_jobs() {
    // fio's t0012 shape, shorter: two jobs of one flow running together issue in proportion
    // to their weights (1:4). Each job's runtime starts with its own thread, so on a busy
    // machine one may run alone for some moments at the start or the end; a rate cap on both
    // (which the heavy job's share stays under) bounds what such moments add, so the ratio
    // is the flow's and not the machine's. Checked loosely, on both tools.
    let args = [
        "--ioengine=null",
        "--size=100g",
        "--flow_id=3",
        "--flow_sleep=100",
        "--rate_iops=5000",
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
        assert!(
            (0.15..0.40).contains(&r),
            "{tool}: light/heavy = {r:.3} ({k:?})"
        );
    }
}

/// (direction, length, offset) of every I/O of a per-I/O bandwidth log (`log_offset=1`).
fn bw_log_ios(path: &std::path::Path) -> Vec<(u8, u64, u64)> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let w: Vec<&str> = l.split(',').map(str::trim).collect();
            (
                w[2].parse().unwrap(),
                w[3].parse().unwrap(),
                w[4].parse().unwrap(),
            )
        })
        .collect()
}

/// Runs a trimwrite job under `tool` on the null engine; its I/Os in issue order. Each run
/// gets a directory of its own (fio appends to a log shared by jobs, `per_job_logs=0`).
fn trimwrite_ios(tool: &str, rw: &str, extra: &[&str]) -> Vec<(u8, u64, u64)> {
    let d = Scratch::new("trimwrite");
    let dir = d.file(tool);
    std::fs::create_dir_all(&dir).unwrap();
    let rw = format!("--rw={rw}");
    let mut a = vec![
        "--name=tw",
        "--ioengine=null",
        "--filesize=1M",
        &rw[..],
        "--log_offset=1",
        "--per_job_logs=0",
        "--write_bw_log=tw",
        "--output-format=json",
    ];
    a.extend_from_slice(extra);
    ok(&run_tool(tool, &a, &dir));
    bw_log_ios(&dir.join("tw_bw.log"))
}

/// Every write follows a trim of the same offset and length; returns the sectors (of
/// `sector` bytes) touched.
#[track_caller]
fn check_pairs(what: &str, ios: &[(u8, u64, u64)], sector: u64) -> usize {
    assert!(
        !ios.is_empty() && ios.len() % 2 == 0,
        "{what}: {} I/Os",
        ios.len()
    );
    let mut touched = std::collections::BTreeSet::new();
    for p in ios.chunks(2) {
        assert_eq!(
            (p[0].0, p[1].0),
            (2, 1),
            "{what}: a trim then a write: {p:?}"
        );
        assert_eq!(
            (p[0].1, p[0].2),
            (p[1].1, p[1].2),
            "{what}: same block: {p:?}"
        );
        assert_eq!(p[0].2 % sector, 0, "{what}: {p:?}");
        touched.extend((p[0].2 / sector)..(p[0].2 + p[0].1).div_ceil(sector));
    }
    touched.len()
}

#[test]
fn randtrimwrite_and_trimwrite_pair_each_trim_with_its_write_as_fio() {
    // fio's t0023 and t0024 jobs, each on both tools.
    let sectors = |s: u64| (1 << 20) / s as usize;
    let cases: &[(&str, &[&str], u64, bool)] = &[
        ("randtrimwrite", &[], 4096, true),
        ("randtrimwrite", &["--bs=8k,8k,8k"], 8192, true),
        ("randtrimwrite", &["--bsrange=512-4k"], 512, true),
        (
            "randtrimwrite",
            &["--bsrange=512/25:1k:25:2k:25:4k/25"],
            512,
            true,
        ),
        ("randtrimwrite", &["--norandommap=1"], 4096, false),
        (
            "randtrimwrite",
            &["--bs=4k,4k,8k", "--norandommap=1"],
            4096,
            false,
        ),
        (
            "randtrimwrite",
            &["--bsrange=512-4k", "--norandommap=1"],
            512,
            false,
        ),
        ("trimwrite", &[], 4096, true),
        ("trimwrite", &["--bs=8k,8k,8k"], 8192, true),
        ("trimwrite", &["--bsrange=512-4k"], 512, true),
        (
            "trimwrite",
            &["--bsrange=512/25:1k:25:2k:25:4k/25"],
            512,
            true,
        ),
    ];
    for &(rw, extra, sector, all) in cases {
        let f = trimwrite_ios("fio", rw, extra);
        let i = trimwrite_ios("iomark", rw, extra);
        let what = format!("{rw} {extra:?}");
        let (tf, ti) = (
            check_pairs(&format!("fio {what}"), &f, sector),
            check_pairs(&format!("iomark {what}"), &i, sector),
        );
        if all {
            assert_eq!(tf, sectors(sector), "fio {what}: every sector once");
            assert_eq!(ti, sectors(sector), "iomark {what}: every sector once");
        }
        // With one block size the I/O count is fio's; with a range, the sizes lie in the
        // same range (fio reads 512/25:1k:... as 512-1k).
        let sizes = |v: &[(u8, u64, u64)]| {
            (
                v.iter().map(|x| x.1).min().unwrap(),
                v.iter().map(|x| x.1).max().unwrap(),
            )
        };
        if extra.iter().any(|e| e.starts_with("--bsrange")) {
            let upper = if extra.iter().any(|e| e.contains("/25")) {
                1024
            } else {
                4096
            };
            for (tool, (lo, hi)) in [("fio", sizes(&f)), ("iomark", sizes(&i))] {
                assert!(
                    lo >= 512 && hi <= upper && lo < hi,
                    "{tool} {what}: sizes {lo}-{hi}"
                );
            }
        } else {
            assert_eq!(i.len(), f.len(), "{what}: I/O count, iomark vs fio");
            assert_eq!(sizes(&i), sizes(&f), "{what}");
        }
    }
}
