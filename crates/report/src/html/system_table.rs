//! The system table at the head of a report, for every kind of result file iomark writes
//! (a run, quick's two files, a sweep, a preset, a repeated run, bonnie, blogbench, iozone,
//! dd, hdparm): the host and target facts the file records, each shown; and for fio's JSON,
//! which records none, where the figures came from and nothing made up.

use super::{render, Page};
use crate::charts::report_charts;
use crate::read::parse;
use iomark_engine::job::JobSpec;
use iomark_engine::job::RunPlan;
use iomark_engine::result::{
    HostInfo, JobResult, RunResult, SuiteTable, TableCell, TableKind, TargetInfo,
};
use std::path::Path;

fn host() -> HostInfo {
    HostInfo {
        hostname: "stor-07".into(),
        kernel: "6.8.0-45-generic".into(),
        cpus: 16,
        mem_bytes: 64 << 30,
        os: "Ubuntu 24.04.1 LTS".into(),
        cpu_model: "AMD EPYC 7313P 16-Core Processor".into(),
        machine: "Supermicro H12SSL-i".into(),
        virtualization: "kvm".into(),
        cloud: String::new(),
    }
}

fn target(path: &str) -> TargetInfo {
    TargetInfo {
        path: path.into(),
        kind: "file".into(),
        size_bytes: 1 << 30,
        logical_block_size: 512,
        physical_block_size: 4096,
        fs_type: Some("xfs".into()),
        device: Some("nvme0n1".into()),
        device_model: Some("Samsung SSD 980 PRO 1TB".into()),
        scheduler: Some("none".into()),
        rotational: Some(false),
        mount_options: Some("rw,noatime,attr2,inode64".into()),
        ..Default::default()
    }
}

/// A run of jobs `names` on one target, with `tables`, as the runner writes it.
fn run(names: &[&str], tables: Vec<SuiteTable>) -> RunResult {
    let plan = RunPlan {
        jobs: names
            .iter()
            .map(|n| JobSpec {
                name: n.to_string(),
                ..Default::default()
            })
            .collect(),
        ..Default::default()
    };
    let jobs = names
        .iter()
        .enumerate()
        .map(|(i, n)| {
            let mut j = JobResult {
                name: n.to_string(),
                job_index: i,
                runtime_ms: 1000,
                ran: true,
                targets: vec![target("/srv/bench/f")],
                ..Default::default()
            };
            let d = &mut j.dirs.read;
            for k in 0..100u64 {
                d.clat.add(50_000 + k * 100);
            }
            (d.total_ios, d.io_bytes, d.runtime_ms) = (100, 100 * 4096, 1000);
            j
        })
        .collect();
    let mut r = RunResult::assemble(&plan, 1_764_000_000_000, host(), jobs);
    r.command_line = vec!["iomark".into(), "run".into()];
    r.tables = tables;
    r
}

/// A table of `kind` with one row.
fn table(kind: TableKind, title: &str, columns: &[&str]) -> SuiteTable {
    let mut t = SuiteTable::new(kind, title, columns);
    t.rows.push(
        (0..columns.len())
            .map(|i| TableCell::Num(i as f64 + 1.0))
            .collect(),
    );
    t
}

fn json(r: &RunResult) -> Vec<u8> {
    serde_json::to_vec(r).unwrap()
}

/// A file holding `runs` under `format` (a preset's, a repeated run's).
fn wrapped(format: &str, runs: &[RunResult]) -> Vec<u8> {
    #[derive(serde::Serialize)]
    struct Doc<'a> {
        format: &'a str,
        runs: &'a [RunResult],
    }
    serde_json::to_vec(&Doc { format, runs }).unwrap()
}

/// Quick's JSON output (`quick --json`), its host recorded.
fn quick_json() -> Vec<u8> {
    let doc = serde_json::json!({
        "iomark_version": "0.1.0", "unix_ms": 1_764_000_000_000u64,
        "host": serde_json::to_value(host()).unwrap(),
        "target": "/srv/bench", "ioengine": "io_uring", "direct": true,
        "size_bytes": 1u64 << 30,
        "tests": [{"test": "SEQ1M Q8T1", "direction": "read", "MB/s": 3100.5,
                   "IOPS": 2957.0, "mean_latency_us": 2700.0}]
    });
    serde_json::to_vec(&doc).unwrap()
}

/// Every kind of iomark result file: (kind, bytes), as each command writes it.
fn kinds() -> Vec<(&'static str, Vec<u8>)> {
    let quick = ["SEQ1M-Q8T1-read", "SEQ1M-Q8T1-write", "RND4K-Q32T1-read"];
    let preset = table(TableKind::PresetSummary, "cloud-disk summary", &["IOPS"]);
    vec![
        ("run", json(&run(&["randread"], vec![]))),
        ("quick --result", json(&run(&quick, vec![]))),
        ("quick --json", quick_json()),
        (
            "sweep",
            json(&run(
                &["bs=4k,iodepth=1"],
                vec![table(TableKind::Sweep, "sweep", &["bs", "iodepth", "IOPS"])],
            )),
        ),
        (
            "preset",
            wrapped(
                "iomark-preset/1",
                &[run(&["max-iops"], vec![preset]), run(&["max-iops"], vec![])],
            ),
        ),
        (
            "run --repeat",
            wrapped(
                "iomark-repeat/1",
                &[run(&["w"], vec![]), run(&["w"], vec![])],
            ),
        ),
        (
            "bonnie",
            json(&run(
                &["bonnie-block-output"],
                vec![table(TableKind::Bonnie, "bonnie++", &["block out (KiB/s)"])],
            )),
        ),
        (
            "blogbench",
            json(&run(
                &["blogbench-writers"],
                vec![
                    table(TableKind::BlogbenchIterations, "blogbench", &["reads"]),
                    table(TableKind::BlogbenchScores, "blogbench final scores", &["w"]),
                ],
            )),
        ),
        (
            "iozone",
            json(&run(
                &["iozone-write"],
                vec![table(
                    TableKind::Iozone,
                    "iozone write",
                    &["file (kB)", "4"],
                )],
            )),
        ),
        (
            "dd",
            json(&run(
                &["dd"],
                vec![table(TableKind::Dd, "dd", &["bytes", "seconds", "MB/s"])],
            )),
        ),
        (
            "hdparm",
            json(&run(
                &["hdparm-disk"],
                vec![table(TableKind::Hdparm, "hdparm", &["MB/s"])],
            )),
        ),
    ]
}

/// The report's system table (the facts at the head of the first source) as rows.
fn system_rows(bytes: &[u8]) -> Vec<(String, String)> {
    let sources = [parse(Path::new("r.json"), bytes).unwrap()];
    let page = Page {
        title: "t".into(),
        command: None,
        sources: &sources,
        comparison: None,
        charts: report_charts(&sources),
    };
    let h = render(&page);
    let at = h.find("<table class=facts>").expect("a system table");
    let t = &h[at..];
    let t = &t[..t.find("</table>").unwrap()];
    t.split("<tr><th class=l>")
        .skip(1)
        .filter_map(|r| {
            let (k, v) = r.split_once("</th><td>")?;
            Some((k.to_string(), v.split("</td>").next()?.to_string()))
        })
        .collect()
}

/// A report of every kind of iomark result shows the system it ran on as the file records
/// it: host, kernel, distribution, CPU, CPUs, memory, machine, virtualization, and (where the
/// file records its targets) the target's device, model, file system, mount options and
/// scheduler.
#[test]
fn every_kind_of_result_shows_its_system() {
    for (kind, bytes) in kinds() {
        let rows = system_rows(&bytes);
        let get = |k: &str| {
            rows.iter()
                .find(|r| r.0 == k)
                .map(|r| r.1.as_str())
                .unwrap_or_else(|| panic!("{kind}: no '{k}' in {rows:?}"))
        };
        for (k, v) in [
            ("host", "stor-07"),
            ("kernel", "6.8.0-45-generic"),
            ("distribution", "Ubuntu 24.04.1 LTS"),
            ("CPU model", "AMD EPYC 7313P 16-Core Processor"),
            ("machine", "Supermicro H12SSL-i"),
            ("virtualization", "kvm"),
            ("CPUs", "16"),
            ("memory", "64.0 GiB"),
            ("date", "2025-11-24 16:00:00 UTC"),
        ] {
            assert_eq!(get(k), v, "{kind}: {k}");
        }
        if kind == "quick --json" {
            // Quick's JSON names its target only.
            assert_eq!(get("target"), "/srv/bench", "{kind}");
            continue;
        }
        let t = get("target /srv/bench/f");
        for part in [
            "device nvme0n1",
            "model Samsung SSD 980 PRO 1TB",
            "filesystem xfs",
            "scheduler none",
            "mounted rw,noatime,attr2,inode64",
            "non-rotational",
        ] {
            assert!(t.contains(part), "{kind}: '{part}' in '{t}'");
        }
    }
}

/// fio's JSON records no system: its report names the file and the fio that wrote it, says
/// the system was not recorded, and shows no host, kernel or target of its own making.
#[test]
fn a_fio_report_names_its_source_and_invents_no_system() {
    let bytes = br#"{"fio version": "fio-3.33", "timestamp_ms": 1764000000000,
        "global options": {"ioengine": "libaio"},
        "jobs": [{"jobname": "r", "groupid": 0, "error": 0, "job_runtime": 1000,
          "read": {"io_bytes": 409600, "bw_bytes": 409600, "iops": 100.0, "runtime": 1000,
                   "total_ios": 100, "clat_ns": {"min": 1, "max": 2, "mean": 1.5}}}]}"#;
    let rows = system_rows(bytes);
    let keys: Vec<&str> = rows.iter().map(|r| r.0.as_str()).collect();
    assert_eq!(keys[..2], ["file", "tool"], "{rows:?}");
    assert_eq!(rows[0].1, "r.json");
    assert_eq!(rows[1].1, "fio-3.33");
    let system = rows.iter().find(|r| r.0 == "system").map(|r| r.1.as_str());
    assert_eq!(
        system,
        Some("not recorded: fio's JSON output holds no host or target facts"),
        "{rows:?}"
    );
    for k in [
        "host",
        "kernel",
        "CPU model",
        "CPUs",
        "memory",
        "virtualization",
    ] {
        assert!(!keys.contains(&k), "{k} made up: {rows:?}");
    }
    assert!(!keys.iter().any(|k| k.starts_with("target")), "{rows:?}");
}
