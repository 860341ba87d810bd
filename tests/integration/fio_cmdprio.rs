//! Per-command I/O priorities of the libaio and io_uring engines (`cmdprio_percentage`,
//! `cmdprio_class`, `cmdprio`, `cmdprio_bssplit`) with fio 3.33's per-priority statistics and
//! `log_prio`, run beside fio on the same small jobs.

use crate::util::*;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

/// The common part of the jobs: a 2 MiB file in the tool's directory, read and written at
/// random, repeatable (fio's default seed), sized so the run ends after a fixed I/O count.
fn job_args<'a>(engine: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut a = vec![
        "--name=cp",
        "--filename=cp.dat",
        "--size=2m",
        "--bs=4k",
        "--iodepth=4",
        "--group_reporting=1",
    ];
    a.push(engine);
    a.extend_from_slice(extra);
    a
}

/// Both tools' JSON+ on the same job, each in its own directory (`dirs` gives them back for
/// the logs).
fn both_plus(d: &Scratch, args: &[&str]) -> (Value, Value) {
    let (fd, id) = (d.file("fio"), d.file("iomark"));
    std::fs::create_dir_all(&fd).unwrap();
    std::fs::create_dir_all(&id).unwrap();
    let mut fa = vec!["--output-format=json+"];
    fa.extend_from_slice(args);
    let fv = fio_json(&fio_in(&fa, &fd));
    let mut ia = vec!["run", "--output-format=json+"];
    ia.extend_from_slice(args);
    let iv = json(&iomark_in(&ia, &id));
    (fv, iv)
}

/// Per priority (class/level) of one direction: its I/O count.
fn prio_counts(dir: &Value) -> BTreeMap<String, u64> {
    let mut m = BTreeMap::new();
    if let Some(a) = dir["prios"].as_array() {
        for p in a {
            let key = format!("{}/{}", u(&p["prioclass"]), u(&p["prio"]));
            let lat = if p.get("lat_ns").is_some() {
                &p["lat_ns"]
            } else {
                &p["clat_ns"]
            };
            m.insert(key, u(&lat["N"]));
        }
    }
    m
}

/// The per-priority records of a direction add up to its whole: counts, min, max, and the
/// histogram bins (JSON+).
#[track_caller]
fn adds_up(dir: &Value, key: &str) {
    let all = &dir[key];
    let prios = dir["prios"].as_array().expect("a prios array");
    let n: u64 = prios.iter().map(|p| u(&p[key]["N"])).sum();
    assert_eq!(n, u(&all["N"]), "{key}: {dir}");
    let min = prios.iter().map(|p| u(&p[key]["min"])).min().unwrap();
    let max = prios.iter().map(|p| u(&p[key]["max"])).max().unwrap();
    assert_eq!((min, max), (u(&all["min"]), u(&all["max"])), "{key}");
    if let Some(bins) = all["bins"].as_object() {
        let mut sum: BTreeMap<String, u64> = BTreeMap::new();
        for p in prios {
            for (k, v) in p[key]["bins"].as_object().unwrap() {
                *sum.entry(k.clone()).or_default() += u(v);
            }
        }
        let whole: BTreeMap<String, u64> = bins.iter().map(|(k, v)| (k.clone(), u(v))).collect();
        assert_eq!(sum, whole, "{key}: bins");
    }
}

#[test]
fn cmdprio_percentage_structure_and_counts_as_fio() {
    for engine in ["--ioengine=libaio", "--ioengine=io_uring"] {
        for (rw, lat) in [("randread", "0"), ("randrw", "1")] {
            let d = Scratch::new("cmdprio-pct");
            let rwa = format!("--rw={rw}");
            let lata = format!("--lat_percentiles={lat}");
            let args = job_args(engine, &[&rwa, &lata, "--cmdprio_percentage=30"]);
            let (fv, iv) = both_plus(&d, &args);
            let (fj, ij) = (job(&fv, 0), job(&iv, 0));
            assert_eq!(key_paths(ij), key_paths(fj), "{engine} {rw}");
            let key = if lat == "1" { "lat_ns" } else { "clat_ns" };
            for dir in ["read", "write"] {
                let (fc, ic) = (prio_counts(&fj[dir]), prio_counts(&ij[dir]));
                if rw == "randread" && dir == "write" {
                    assert!(ic.is_empty() && fc.is_empty());
                    continue;
                }
                // The draws follow fio's priority stream: the same I/Os are prioritised.
                assert_eq!(ic, fc, "{engine} {rw} {dir}");
                let total = u(&ij[dir]["total_ios"]);
                let rt = ic["1/0"];
                let share = rt as f64 / total as f64;
                assert!(
                    (0.2..0.4).contains(&share),
                    "{engine} {rw} {dir}: {rt}/{total}"
                );
                adds_up(&ij[dir], key);
            }
        }
    }
}

/// The (block size, priority column) of every line of a latency log.
fn bs_prio(path: &Path) -> Vec<(u64, String)> {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .map(|l| {
            let f: Vec<&str> = l.split(", ").collect();
            (f[3].parse().unwrap(), f[f.len() - 1].to_string())
        })
        .collect()
}

#[test]
fn cmdprio_bssplit_and_class_level_as_fio() {
    for engine in ["--ioengine=libaio", "--ioengine=io_uring"] {
        let d = Scratch::new("cmdprio-bss");
        let args = job_args(
            engine,
            &[
                "--rw=randrw",
                "--size=8m",
                "--bssplit=4k/40:16k/60",
                "--cmdprio_bssplit=4k/25/1/1:4k/75/3/2:16k/0",
                "--prio=6",
                "--write_lat_log=cp",
                "--log_prio=1",
            ],
        );
        let (fv, iv) = both_plus(&d, &args);
        let (fj, ij) = (job(&fv, 0), job(&iv, 0));
        assert_eq!(key_paths(ij), key_paths(fj), "{engine}");
        for dir in ["read", "write"] {
            let (fc, ic) = (prio_counts(&fj[dir]), prio_counts(&ij[dir]));
            // The job's own priority (best-effort 6) for 16k, RT 1 and idle 2 for 4k.
            assert_eq!(ic.keys().collect::<Vec<_>>(), fc.keys().collect::<Vec<_>>());
            assert_eq!(
                ic.keys().collect::<Vec<_>>(),
                ["1/1", "2/6", "3/2"],
                "{engine}"
            );
            adds_up(&ij[dir], "clat_ns");
            let rt = ic["1/1"] as f64 / (ic["1/1"] + ic["3/2"]) as f64;
            assert!((0.15..0.35).contains(&rt), "{engine} {dir}: {ic:?}");
        }
        // fio's rule, I/O by I/O: 4k all at one of their priorities, other sizes at the job's.
        for tool in ["fio", "iomark"] {
            let lines = bs_prio(&d.file(&format!("{tool}/cp_clat.1.log")));
            assert!(lines.len() > 500, "{tool}");
            for (bs, p) in &lines {
                // Sizes without a share (16k, and 16k I/Os shortened by the random map) carry
                // the job's priority.
                let ok = match bs {
                    4096 => p == "0x2001" || p == "0x6002",
                    _ => p == "0x4006",
                };
                assert!(ok, "{tool} {engine}: {bs} {p}");
            }
        }
        // The percentage form with a class and level per direction.
        let d = Scratch::new("cmdprio-cls");
        let args = job_args(
            engine,
            &[
                "--rw=randrw",
                "--cmdprio_percentage=20,60",
                "--cmdprio_class=2,3",
                "--cmdprio=5,1",
            ],
        );
        let (fv, iv) = both_plus(&d, &args);
        for dir in ["read", "write"] {
            let (fc, ic) = (
                prio_counts(&job(&fv, 0)[dir]),
                prio_counts(&job(&iv, 0)[dir]),
            );
            assert_eq!(ic, fc, "{engine} {dir}");
        }
        assert!(prio_counts(&job(&iv, 0)["write"]).contains_key("3/1"));
    }
}

#[test]
fn unified_and_numjobs_merge_per_priority() {
    let d = Scratch::new("cmdprio-mixed");
    let args = job_args(
        "--ioengine=libaio",
        &[
            "--rw=randrw",
            "--numjobs=2",
            "--unified_rw_reporting=1",
            "--cmdprio_percentage=50",
            "--lat_percentiles=1",
        ],
    );
    let (fv, iv) = both_plus(&d, &args);
    let (fj, ij) = (job(&fv, 0), job(&iv, 0));
    assert_eq!(key_paths(&ij["mixed"]), key_paths(&fj["mixed"]));
    assert_eq!(prio_counts(&ij["mixed"]), prio_counts(&fj["mixed"]));
    adds_up(&ij["mixed"], "lat_ns");
}

/// The priorities of the iocbs `tool` hands to io_submit (strace decodes them), in order.
fn submitted_prios(tool: &str, d: &Path, args: &[&str]) -> Vec<String> {
    let t = strace_tool(tool, "io_submit", d, args);
    let mut out = Vec::new();
    for iocb in t.split("aio_lio_opcode=").skip(1) {
        let prio = iocb
            .split_once("aio_reqprio=")
            .filter(|(before, _)| !before.contains('}'))
            .map(|(_, r)| match r.find(')') {
                Some(i) if r.starts_with("IOPRIO_PRIO_VALUE(") => r[..=i].to_string(),
                _ => r.split([',', '}']).next().unwrap_or("").to_string(),
            })
            .unwrap_or_else(|| "none".to_string());
        let flagged = iocb
            .split('}')
            .next()
            .is_some_and(|b| b.contains("IOCB_FLAG_IOPRIO"));
        out.push(format!("{prio} {flagged}"));
    }
    out
}

#[test]
fn request_priorities_reach_the_kernel_as_fio_sends_them() {
    let d = Scratch::new("cmdprio-strace");
    let args = job_args(
        "--ioengine=libaio",
        &[
            "--rw=randread",
            "--size=256k",
            "--cmdprio_percentage=40",
            "--cmdprio_class=2",
            "--cmdprio=3",
        ],
    );
    let f = submitted_prios("fio", &d.path, &args);
    let i = submitted_prios("iomark", &d.path, &args);
    assert_eq!(f.len(), 64, "{f:?}");
    assert_eq!(i, f);
    assert!(
        i.iter()
            .any(|s| s.contains("IOPRIO_CLASS_BE, 3") && s.ends_with("true")),
        "{i:?}"
    );
    assert!(i.iter().any(|s| s == "none false"), "{i:?}");
}

/// The last column of every line of a latency log, counted.
fn last_columns(path: &Path) -> BTreeMap<String, u64> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut m = BTreeMap::new();
    for l in text.lines() {
        *m.entry(l.rsplit(", ").next().unwrap().to_string())
            .or_default() += 1;
    }
    m
}

#[test]
fn log_prio_columns_as_fio() {
    for log_prio in ["0", "1"] {
        let d = Scratch::new("cmdprio-log");
        let lp = format!("--log_prio={log_prio}");
        let args = job_args(
            "--ioengine=io_uring",
            &[
                "--rw=randrw",
                "--size=512k",
                "--prioclass=2",
                "--prio=4",
                "--cmdprio_percentage=50,25",
                "--write_lat_log=cp",
                &lp,
            ],
        );
        let _ = both_plus(&d, &args);
        let f = last_columns(&d.file("fio/cp_clat.1.log"));
        let i = last_columns(&d.file("iomark/cp_clat.1.log"));
        assert_eq!(i, f, "log_prio={log_prio}");
        let want: Vec<&str> = if log_prio == "1" {
            vec!["0x2000", "0x4004"]
        } else {
            vec!["0", "1"]
        };
        assert_eq!(i.keys().map(String::as_str).collect::<Vec<_>>(), want);
    }
}

#[test]
fn bad_cmdprio_values_are_refused_by_name_before_io() {
    let d = Scratch::new("cmdprio-bad");
    let cases: &[(&str, &str)] = &[
        ("--cmdprio_percentage=101", "cmdprio_percentage"),
        ("--cmdprio_class=4", "cmdprio_class"),
        ("--cmdprio_class=0", "cmdprio_class"),
        ("--cmdprio=8", "cmdprio"),
        ("--cmdprio_bssplit=4k/10/1", "cmdprio_bssplit"),
        ("--cmdprio_bssplit=4k/60:4k/60", "cmdprio_bssplit"),
    ];
    for (bad, name) in cases {
        let args = job_args("--ioengine=libaio", &["--rw=randread", bad]);
        let mut a = vec!["run"];
        a.extend_from_slice(&args);
        let o = iomark_in(&a, &d.path);
        assert!(!o.status.success(), "{bad}");
        assert!(stderr(&o).contains(name), "{bad}: {}", stderr(&o));
        assert!(!d.file("cp.dat").exists(), "{bad}: no file laid out");
        let o = fio_in(&args, &d.path);
        assert!(!o.status.success(), "fio accepts {bad}");
        let _ = std::fs::remove_file(d.file("cp.dat"));
    }
    let args = job_args(
        "--ioengine=libaio",
        &[
            "--rw=randread",
            "--cmdprio_percentage=10",
            "--cmdprio_bssplit=4k/10",
        ],
    );
    let mut a = vec!["run"];
    a.extend_from_slice(&args);
    let o = iomark_in(&a, &d.path);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("mutually exclusive"), "{}", stderr(&o));
    // Only the engines that send request priorities take the options.
    let o = iomark_in(
        &[
            "run",
            "--name=x",
            "--ioengine=psync",
            "--size=64k",
            "--cmdprio_percentage=10",
        ],
        &d.path,
    );
    assert!(!o.status.success());
    assert!(stderr(&o).contains("cmdprio_percentage"), "{}", stderr(&o));
}
