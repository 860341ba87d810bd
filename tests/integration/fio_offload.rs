//! `io_submit_mode=offload` and `serialize_overlap`, beside fio 3.33 on the same jobs: fio's
//! suite jobs t0010 and t0013 (shrunk) do the same I/O, the I/O runs on submit threads (seen
//! under strace), overlapping I/O is never in flight together (seen under strace), and bad
//! values are refused by name.

use crate::util::*;
use serde_json::Value;
use std::collections::HashMap;
use std::process::Command;

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
fn fio_suite_offload_jobs_do_fios_io() {
    // t0010 with 64 MiB instead of 10 GiB; t0013 with 4 jobs and a loop count instead of 8
    // jobs and a runtime (so the counts are fixed); and a sync engine on a file.
    let d = Scratch::new("offload-counts");
    let file = format!("--filename={}", d.s("w.dat"));
    let cases: &[&[&str]] = &[
        &[
            "--name=test",
            "--ioengine=null",
            "--size=64m",
            "--io_submit_mode=offload",
            "--iodepth=16",
        ],
        &[
            "--name=test",
            "--ioengine=null",
            "--thread=1",
            "--size=4K",
            "--blocksize=4K",
            "--io_submit_mode=offload",
            "--iodepth=1",
            "--serialize_overlap=1",
            "--numjobs=4",
            "--loops=500",
        ],
        &[
            "--name=w",
            &file,
            "--rw=randwrite",
            "--size=1m",
            "--ioengine=psync",
            "--iodepth=8",
            "--io_submit_mode=offload",
        ],
    ];
    let want: [&[(u64, u64)]; 3] = [&[(16384, 0)], &[(500, 0); 4], &[(0, 256)]];
    for (args, want) in cases.iter().zip(want) {
        let (fv, iv) = both_json("offload", args);
        assert_eq!(ios(&fv), want, "fio {args:?}");
        assert_eq!(ios(&iv), ios(&fv), "{args:?}");
        for (fj, ij) in fv["jobs"]
            .as_array()
            .unwrap()
            .iter()
            .zip(iv["jobs"].as_array().unwrap())
        {
            for dir in ["read", "write"] {
                assert_eq!(
                    u(&ij[dir]["io_bytes"]),
                    u(&fj[dir]["io_bytes"]),
                    "{args:?} {dir}"
                );
                // A sync engine has no submission stage, offloaded or not; null has one.
                let slat = |j: &Value| u(&j[dir]["slat_ns"]["N"]) > 0;
                assert_eq!(slat(ij), slat(fj), "{args:?} {dir}: slat recorded");
            }
        }
    }
}

/// The trace of `fio ARGS` or `iomark run ARGS` under `strace -f` (file opens and positional
/// I/O, data left out).
fn traced(tool: &str, d: &Scratch, args: &[&str]) -> String {
    let trace = d.file(&format!("{tool}.trace"));
    let mut cmd = Command::new("strace");
    cmd.args([
        "-f",
        "-qq",
        "-s",
        "0",
        "-e",
        "trace=openat,pread64,pwrite64",
        "-o",
    ])
    .arg(&trace);
    if tool == "fio" {
        cmd.arg("fio");
    } else {
        cmd.arg(bin()).arg("run");
    }
    let o = cmd
        .arg("--output=/dev/null")
        .args(args)
        .current_dir(&d.path)
        .output()
        .expect("strace must be installed (scripts/test installs it)");
    ok(&o);
    std::fs::read_to_string(&trace).unwrap()
}

/// One positional I/O call of a trace line: the thread, and (offset, length) when the line
/// shows the call's start.
enum Call {
    Start {
        tid: u32,
        range: (u64, u64),
        done: bool,
    },
    Resumed {
        tid: u32,
    },
}

fn call(line: &str) -> Option<Call> {
    let (tid, rest) = line.split_once(' ')?;
    let tid = tid.parse().ok()?;
    let rest = rest.trim_start();
    if rest.starts_with("<... pread64 resumed>") || rest.starts_with("<... pwrite64 resumed>") {
        return Some(Call::Resumed { tid });
    }
    let args = rest
        .strip_prefix("pread64(")
        .or_else(|| rest.strip_prefix("pwrite64("))?;
    let done = !args.contains("<unfinished");
    let args = args.split(['<', ')']).next()?;
    let nums: Vec<u64> = args
        .split(',')
        .filter_map(|a| a.trim().parse().ok())
        .collect();
    // fd, then the length and the offset (the buffer is not a number).
    let (len, off) = (nums[nums.len() - 2], nums[nums.len() - 1]);
    Some(Call::Start {
        tid,
        range: (off, off + len),
        done,
    })
}

/// The threads that did positional I/O, and the thread that opened `path` last before it.
fn io_threads(trace: &str, path: &str) -> (Vec<u32>, Option<u32>) {
    let mut opener = None;
    let mut tids = Vec::new();
    for line in trace.lines() {
        match call(line) {
            Some(Call::Start { tid, .. }) if !tids.contains(&tid) => tids.push(tid),
            Some(_) => {}
            None if tids.is_empty() && line.contains("openat(") && line.contains(path) => {
                opener = line.split_once(' ').and_then(|(t, _)| t.parse().ok());
            }
            None => {}
        }
    }
    (tids, opener)
}

/// How many I/O calls started while a call on an overlapping range was in flight.
fn overlaps_in_flight(trace: &str) -> (usize, usize) {
    let mut live: HashMap<u32, (u64, u64)> = HashMap::new();
    let (mut calls, mut overlaps) = (0, 0);
    for line in trace.lines() {
        match call(line) {
            Some(Call::Start { tid, range, done }) => {
                calls += 1;
                if live.values().any(|&(s, e)| range.0 < e && s < range.1) {
                    overlaps += 1;
                }
                if !done {
                    live.insert(tid, range);
                }
            }
            Some(Call::Resumed { tid }) => {
                live.remove(&tid);
            }
            None => {}
        }
    }
    (calls, overlaps)
}

#[test]
fn offloaded_io_runs_on_submit_threads_as_fios() {
    let d = Scratch::new("offload-threads");
    let path = d.s("r.dat");
    std::fs::write(&path, vec![7u8; 256 << 10]).unwrap();
    let file = format!("--filename={path}");
    let job = |mode: &'static str| {
        [
            "--name=r".to_string(),
            file.clone(),
            "--rw=randread".into(),
            "--size=256k".into(),
            "--ioengine=psync".into(),
            "--iodepth=4".into(),
            format!("--io_submit_mode={mode}"),
        ]
    };
    for tool in ["fio", "iomark"] {
        let args = job("offload");
        let args: Vec<&str> = args.iter().map(|s| s.as_str()).collect();
        let (tids, opener) = io_threads(&traced(tool, &d, &args), &path);
        let opener = opener.unwrap_or_else(|| panic!("{tool}: no open of {path}"));
        assert!(!tids.is_empty(), "{tool}: no I/O traced");
        assert!(
            !tids.contains(&opener),
            "{tool}: the job's thread {opener} did I/O itself: {tids:?}"
        );
    }
    // Inline, the job's own thread does every I/O.
    let args = job("inline");
    let args: Vec<&str> = args.iter().map(|s| s.as_str()).collect();
    let (tids, opener) = io_threads(&traced("iomark", &d, &args), &path);
    assert_eq!(tids, vec![opener.unwrap()]);
}

#[test]
fn serialize_overlap_keeps_overlapping_io_apart_across_jobs_as_fio() {
    // Four jobs of two submit threads each write the same 16 KiB: with serialize_overlap no
    // write starts while one to the same block is in flight, in any job.
    let d = Scratch::new("offload-overlap");
    let file = format!("--filename={}", d.s("o.dat"));
    let job = |serialize: &'static str| {
        vec![
            "--name=o".to_string(),
            file.clone(),
            "--rw=randwrite".into(),
            "--size=16k".into(),
            "--ioengine=psync".into(),
            "--iodepth=2".into(),
            "--numjobs=4".into(),
            "--loops=40".into(),
            "--io_submit_mode=offload".into(),
            format!("--serialize_overlap={serialize}"),
        ]
    };
    let args = job("1");
    let args: Vec<&str> = args.iter().map(|s| s.as_str()).collect();
    for tool in ["fio", "iomark"] {
        let (calls, overlaps) = overlaps_in_flight(&traced(tool, &d, &args));
        assert!(calls >= 4 * 4 * 40, "{tool}: {calls} writes traced");
        assert_eq!(overlaps, 0, "{tool}: overlapping writes in flight together");
    }
    // The check sees overlaps when nothing prevents them.
    let args = job("0");
    let args: Vec<&str> = args.iter().map(|s| s.as_str()).collect();
    let (calls, overlaps) = overlaps_in_flight(&traced("iomark", &d, &args));
    assert!(
        calls >= 4 * 4 * 40 && overlaps > 0,
        "{calls} writes, {overlaps} overlaps"
    );
}

#[test]
fn bad_offload_values_are_refused_by_name() {
    let d = Scratch::new("offload-bad");
    let base = ["--name=b", "--ioengine=null", "--size=64k"];
    for bad in ["--io_submit_mode=sideways", "--serialize_overlap=perhaps"] {
        let args = [&base[..], &[bad]].concat();
        let o = run_tool("iomark", &args, &d.path);
        assert!(!o.status.success(), "{bad}");
        let (name, value) = bad[2..].split_once('=').unwrap();
        let err = stderr(&o);
        assert!(err.contains(name) && err.contains(value), "{bad}: {err}");
        assert!(
            !run_tool("fio", &args, &d.path).status.success(),
            "fio {bad}"
        );
    }
    // io_uring cannot submit from several threads: fio refuses it, before any I/O.
    let args = [
        "--name=b",
        "--ioengine=io_uring",
        "--size=64k",
        "--io_submit_mode=offload",
    ];
    let o = run_tool("iomark", &args, &d.path);
    assert!(!o.status.success());
    let err = stderr(&o);
    assert!(
        err.contains("io_submit_mode=offload") && err.contains("io_uring"),
        "{err}"
    );
}
