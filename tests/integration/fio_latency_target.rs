//! `latency_target`, `latency_window`, `latency_percentile`, `latency_run` and `max_latency`:
//! fio 3.33 beside iomark on the same jobs. Timings differ on a busy machine; what is compared
//! is where the depth search ends, which fields say so, and how a job over its latency ends.

use crate::util::*;
use serde_json::Value;
use std::process::Output;

/// The JSON document of a run that may have failed (fio prints a line before it then).
fn doc(o: &Output) -> Value {
    let s = stdout(o);
    let start = s
        .find("{\n")
        .unwrap_or_else(|| panic!("no JSON:\n{s}\n{}", stderr(o)));
    serde_json::from_str(&s[start..]).unwrap_or_else(|e| panic!("{e}:\n{s}"))
}

/// The four fields fio adds to every job for the latency target.
fn lat_fields(j: &Value) -> (u64, u64, f64, u64) {
    (
        u(&j["latency_depth"]),
        u(&j["latency_target"]),
        f(&j["latency_percentile"]),
        u(&j["latency_window"]),
    )
}

/// A generous target on the null engine: the depth doubles to iodepth (1, 2, 4, 8), a window
/// at 8 settles it, and one more window at 8 from fresh figures ends the job long before its
/// runtime: its figures are those of the final window alone.
#[test]
fn an_easy_target_settles_at_iodepth_and_ends_after_one_more_window_as_fio() {
    let d = Scratch::new("lat-easy");
    let args = [
        "--name=lt",
        "--ioengine=null",
        "--rw=randread",
        "--bs=4k",
        "--size=1g",
        "--time_based",
        "--runtime=30",
        "--iodepth=8",
        "--latency_target=1s",
        "--latency_window=200ms",
        "--output-format=json",
    ];
    for tool in ["fio", "iomark"] {
        let o = run_tool(tool, &args, &d.path);
        ok(&o);
        let v = doc(&o);
        let j = job(&v, 0);
        assert_eq!(lat_fields(j), (8, 1_000_000_000, 100.0, 200_000), "{tool}");
        assert_eq!(u(&j["error"]), 0, "{tool}");
        // The final window: about 200 ms of figures, not the 30 s runtime nor the search.
        let rt = u(&j["job_runtime"]);
        assert!((190..3000).contains(&rt), "{tool}: job_runtime {rt}");
        assert!(u(&j["read"]["total_ios"]) > 0, "{tool}");
    }
    // The normal output's line for it, the same on both sides.
    let mut lines = Vec::new();
    for tool in ["fio", "iomark"] {
        let o = run_tool(tool, &args[..args.len() - 1], &d.path);
        ok(&o);
        let line = stdout(&o)
            .lines()
            .find(|l| l.trim_start().starts_with("latency   :"))
            .unwrap_or_else(|| panic!("{tool}: no latency line"))
            .to_string();
        lines.push(line);
    }
    assert_eq!(lines[0], lines[1]);
    assert_eq!(
        lines[0].trim(),
        "latency   : target=1000000000, window=200000, percentile=100.00%, depth=8"
    );
}

/// 1 MiB reads from tmpfs take far longer than a 1 µs target. Every I/O must meet it (the
/// default share): the first one, at depth 1, ends the job with ETIMEDOUT and fio's message.
/// Half of them must: every window misses, the depth stays at 1 and the job runs its runtime.
#[test]
fn a_target_no_depth_meets_ends_the_job_or_holds_depth_one_as_fio() {
    let d = Scratch::new_in("/dev/shm", "lat-miss");
    let base = [
        "--name=m",
        "--filename=f.dat",
        "--rw=read",
        "--bs=1m",
        "--size=16m",
        "--iodepth=8",
        "--latency_target=1",
        "--output-format=json",
    ];
    for tool in ["fio", "iomark"] {
        let o = run_tool(tool, &base, &d.path);
        assert_eq!(o.status.code(), Some(1), "{tool}: {}", stderr(&o));
        let err = stderr(&o);
        let msg = err
            .lines()
            .find_map(|l| l.split_once("fio: latency of ").map(|x| x.1))
            .unwrap_or_else(|| panic!("{tool}: {err}"));
        let (ns, rest) = msg
            .split_once(" nsec exceeds specified max (1000 nsec): ")
            .unwrap();
        assert!(ns.parse::<u64>().unwrap() > 1000, "{tool}: {msg}");
        assert!(rest.ends_with("f.dat read 0 1048576"), "{tool}: {msg}");
        let v = doc(&o);
        assert_eq!(u(&job(&v, 0)["error"]), 110, "{tool}");
        assert_eq!(lat_fields(job(&v, 0)), (1, 1000, 100.0, 0), "{tool}");
    }
    let mut args = base.to_vec();
    args.extend(["--latency_percentile=50", "--time_based", "--runtime=1"]);
    for tool in ["fio", "iomark"] {
        let o = run_tool(tool, &args, &d.path);
        ok(&o);
        let v = doc(&o);
        let j = job(&v, 0);
        assert_eq!(lat_fields(j), (1, 1000, 50.0, 0), "{tool}");
        assert_eq!(u(&j["error"]), 0, "{tool}");
        assert!(u(&j["job_runtime"]) >= 900, "{tool}: ran its runtime");
    }
}

/// `max_latency`: an I/O over it ends the job with ETIMEDOUT and fio's message; per direction,
/// a limit on writes leaves a read job alone.
#[test]
fn max_latency_ends_the_job_with_fios_error_and_status() {
    let d = Scratch::new_in("/dev/shm", "lat-max");
    for (limit, rw, fails) in [
        ("1", "read", true),
        ("10s,1", "read", false),
        ("10s,1", "write", true),
    ] {
        let lim = format!("--max_latency={limit}");
        let rw_arg = format!("--rw={rw}");
        let args = [
            "--name=x",
            "--filename=x.dat",
            rw_arg.as_str(),
            "--bs=1m",
            "--size=8m",
            lim.as_str(),
            "--output-format=json",
        ];
        for tool in ["fio", "iomark"] {
            let o = run_tool(tool, &args, &d.path);
            let what = format!("{tool} {limit} {rw}");
            let v = doc(&o);
            let j = job(&v, 0);
            if fails {
                assert_eq!(o.status.code(), Some(1), "{what}");
                assert_eq!(u(&j["error"]), 110, "{what}");
                let err = stderr(&o);
                let line = err
                    .lines()
                    .find(|l| l.contains("fio: latency of "))
                    .unwrap_or_else(|| panic!("{what}: {err}"));
                assert!(
                    line.contains(" nsec exceeds specified max (1000 nsec): ")
                        && line.ends_with(&format!("x.dat {rw} 0 1048576")),
                    "{what}: {line}"
                );
            } else {
                ok(&o);
                assert_eq!(u(&j["error"]), 0, "{what}");
                assert_eq!(u(&j["read"]["io_bytes"]), 8 << 20, "{what}");
            }
        }
    }
}

/// Values fio refuses are refused before any I/O, naming the option and the value.
#[test]
fn bad_values_are_refused_before_any_io() {
    let d = Scratch::new("lat-bad");
    for bad in [
        "--latency_percentile=101",
        "--latency_percentile=-1",
        "--latency_percentile=abc",
        "--latency_target=abc",
        "--latency_window=abc",
        "--max_latency=abc",
        "--latency_run=maybe",
    ] {
        let args = [
            "--name=b",
            "--filename=b.dat",
            "--rw=write",
            "--size=64k",
            "--latency_target=10ms",
            bad,
        ];
        for tool in ["fio", "iomark"] {
            let o = run_tool(tool, &args, &d.path);
            assert!(!o.status.success(), "{tool} {bad}");
            assert!(!d.file("b.dat").exists(), "{tool} {bad}: did I/O");
        }
        let o = run_tool("iomark", &args, &d.path);
        let (name, value) = bad.trim_start_matches("--").split_once('=').unwrap();
        let err = stderr(&o);
        assert!(err.contains(name) && err.contains(value), "{bad}: {err}");
    }
}
