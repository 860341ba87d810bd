//! `iomark merge`: result files of four runs merged as one run of four clients on two hosts:
//! counts are the sums, the "All clients" percentiles those of the merged histograms, fio's
//! client layout (client_stats with hostname and port, "All clients" last), the normal output's
//! client sections, the result file with every rank, its report with per-host charts in
//! Chromium, and compare on merged results.

use crate::report::{check_page, check_png, render};
use crate::util::*;
use iomark_engine::hist::Histogram;
use iomark_engine::RunResult;
use serde_json::Value;
use std::path::PathBuf;

/// Four null-engine runs of the same job with their own seeds and I/O counts; ranks 0 and 1
/// are made to come from host node-a, 2 and 3 from node-b.
fn four_results(d: &Scratch) -> Vec<PathBuf> {
    (0..4)
        .map(|i| {
            let path = d.file(&format!("r{i}.json"));
            let o = iomark_in(
                &[
                    "run",
                    "--name=mix",
                    &format!("--filename={}", d.s(&format!("t{i}"))),
                    "--size=4m",
                    "--rw=randrw",
                    "--bs=4k",
                    "--ioengine=null",
                    &format!("--number_ios={}", 3000 + 1000 * i),
                    &format!("--randseed={}", 11 + i),
                    "--output-format=terse",
                    &format!("--result={}", path.display()),
                ],
                &d.path,
            );
            ok(&o);
            let mut r: RunResult = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
            r.host.hostname = if i < 2 { "node-a" } else { "node-b" }.into();
            std::fs::write(&path, serde_json::to_vec(&r).unwrap()).unwrap();
            path
        })
        .collect()
}

fn read(p: &PathBuf) -> RunResult {
    serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap()
}

fn merge(d: &Scratch, files: &[PathBuf], extra: &[&str]) -> std::process::Output {
    // The ranks stop after different numbers of I/Os (number_ios), so their counts differ:
    // --force merges such different options (gates.rs tests the refusal).
    let mut args: Vec<String> = vec!["merge".into(), "--force".into()];
    args.extend(extra.iter().map(|s| s.to_string()));
    args.extend(files.iter().map(|f| f.display().to_string()));
    let a: Vec<&str> = args.iter().map(String::as_str).collect();
    iomark_in(&a, &d.path)
}

fn keys(v: &Value) -> Vec<String> {
    v.as_object().unwrap().keys().cloned().collect()
}

#[test]
fn merged_counts_percentiles_and_client_layout() {
    let d = Scratch::new("merge-json");
    let files = four_results(&d);
    let ranks: Vec<RunResult> = files.iter().map(read).collect();
    let o = merge(&d, &files, &["--output-format=json"]);
    ok(&o);
    // Only the note that --force merged the ranks' different number_ios.
    let e = stderr(&o);
    assert!(
        e.lines()
            .all(|l| l.contains("merging different workloads (--force)")),
        "{e}"
    );
    let v = json(&o);
    // fio 3.33's client JSON: these top-level keys, client_stats in place of jobs.
    for k in [
        "fio version",
        "timestamp",
        "time",
        "global options",
        "client_stats",
        "disk_util",
    ] {
        assert!(v.get(k).is_some(), "no {k}");
    }
    assert!(v.get("jobs").is_none());
    let cs = v["client_stats"].as_array().unwrap();
    assert_eq!(cs.len(), 5);
    for (i, e) in cs[..4].iter().enumerate() {
        assert_eq!(e["jobname"], "mix");
        assert_eq!(e["hostname"], if i < 2 { "node-a" } else { "node-b" });
        assert_eq!(u(&e["port"]), i as u64);
    }
    // "All clients" last, with the last client's hostname and port, as fio writes it.
    let all = &cs[4];
    assert_eq!(all["jobname"], "All clients");
    assert_eq!(
        (all["hostname"].as_str(), u(&all["port"])),
        (Some("node-b"), 3)
    );
    // Each entry: the keys of a local run's job, then hostname and port.
    let local = iomark_in(
        &[
            "run",
            "--name=mix",
            "--size=4m",
            "--rw=randrw",
            "--ioengine=null",
            "--number_ios=100",
            "--output-format=json",
            &format!("--filename={}", d.s("t0")),
        ],
        &d.path,
    );
    let local = json(&local);
    let mut want = keys(job(&local, 0));
    want.extend(["hostname".to_string(), "port".to_string()]);
    want.sort();
    for e in cs {
        let mut k = keys(e);
        k.sort();
        assert_eq!(k, want);
    }
    for dir in ["read", "write"] {
        let sum: u64 = ranks
            .iter()
            .map(|r| r.jobs[0].dirs.get(dir_of(dir)).total_ios)
            .sum();
        assert_eq!(u(&all[dir]["total_ios"]), sum, "{dir}");
        let sum_b: u64 = ranks
            .iter()
            .map(|r| r.jobs[0].dirs.get(dir_of(dir)).io_bytes)
            .sum();
        assert_eq!(u(&all[dir]["io_bytes"]), sum_b, "{dir}");
        for (i, e) in cs[..4].iter().enumerate() {
            assert_eq!(
                u(&e[dir]["total_ios"]),
                ranks[i].jobs[0].dirs.get(dir_of(dir)).total_ios
            );
        }
        // Percentiles of all clients: those of the four histograms added, never averaged.
        let mut h = Histogram::default();
        for r in &ranks {
            h.merge(&r.jobs[0].dirs.get(dir_of(dir)).clat.hist);
        }
        assert_eq!(h.count(), sum);
        let pct = all[dir]["clat_ns"]["percentile"]
            .as_object()
            .expect("All clients percentiles");
        assert!(pct.len() >= 10);
        for (k, val) in pct {
            let p: f64 = k.parse().unwrap();
            assert_eq!(val.as_u64(), Some(h.percentile(p)), "{dir} p{k}");
        }
        // the slowest rank's runtime
        let slowest = ranks
            .iter()
            .map(|r| r.jobs[0].dirs.get(dir_of(dir)).runtime_ms)
            .max();
        assert_eq!(Some(u(&all[dir]["runtime"])), slowest);
    }
    // The cluster figures, labelled.
    let c = &v["iomark"]["cluster"];
    assert_eq!(u(&c["ranks"]), 4);
    assert_eq!(c["hosts"], serde_json::json!(["node-a", "node-b"]));
    let rd = &c["jobs"][0]["read"];
    let sw = &rd["stonewall"];
    let ad = &rd["all_done"];
    assert!(u(&sw["runtime_ms"]) <= u(&ad["runtime_ms"]));
    assert_eq!(u(&rd["total_ios"]), u(&all["read"]["total_ios"]));
    assert!(f(&sw["bw_bytes"]) >= f(&ad["bw_bytes"]) * 0.999);
    assert_eq!(c["jobs"][0]["slowest"].as_array().unwrap().len(), 3);
    assert_eq!(c["jobs"][0]["hosts"].as_array().unwrap().len(), 2);
    let du = v["disk_util"].as_array().unwrap();
    assert!(du
        .iter()
        .all(|x| x.get("hostname").is_some() && x.get("port").is_some()));
}

fn dir_of(name: &str) -> iomark_engine::job::Dir {
    iomark_engine::job::Dir::ALL
        .into_iter()
        .find(|d| d.name() == name)
        .unwrap()
}

#[test]
fn normal_and_terse_outputs_of_a_merge() {
    let d = Scratch::new("merge-normal");
    let files = four_results(&d);
    let o = merge(&d, &files, &[]);
    ok(&o);
    let s = stdout(&o);
    for (i, label) in ["<node-a#0>", "<node-a#1>", "<node-b#2>", "<node-b#3>"]
        .iter()
        .enumerate()
    {
        let at = s
            .find(&format!("{label} mix: (groupid=0, jobs=1)"))
            .unwrap_or_else(|| panic!("{label}:\n{s}"));
        if i > 0 {
            assert!(s.find(&format!("{label} ")).unwrap() == at);
        }
        assert!(s.contains(&format!("{label} Run status group 0 (all jobs):")));
    }
    let all = s.find("\nAll clients: (groupid=0, jobs=4)").expect(&s);
    assert!(s.find("<node-b#3>").unwrap() < all);
    let tail = &s[all..];
    assert!(tail.contains("clat percentiles"), "{tail}");
    assert!(
        tail.contains("Cluster: 4 ranks on 2 hosts (node-a, node-b)"),
        "{tail}"
    );
    assert!(tail.contains("mix: read: stonewall: IOPS="), "{tail}");
    assert!(tail.contains("mix: read: all done : IOPS="), "{tail}");
    assert!(tail.contains("mix: slowest ranks: rank "), "{tail}");
    assert!(
        tail.contains("mix: per host: <node-a> ranks 0,1: IOPS="),
        "{tail}"
    );
    // terse: one line per client, then All clients
    let o = merge(&d, &files, &["--output-format=terse"]);
    ok(&o);
    let lines: Vec<String> = stdout(&o).lines().map(str::to_string).collect();
    assert_eq!(lines.len(), 5);
    assert_eq!(lines[4].split(';').nth(2), Some("All clients"));
}

#[test]
fn merged_result_file_reports_per_host_and_compares() {
    let d = Scratch::new("merge-report");
    let files = four_results(&d);
    let merged = d.file("merged.json");
    let dir = d.file("rep");
    let o = merge(
        &d,
        &files,
        &[
            "--output-format=json",
            &format!("--output={}", d.s("out.json")),
            &format!("--result={}", merged.display()),
            &format!("--report={}", dir.display()),
        ],
    );
    ok(&o);
    assert!(stdout(&o).is_empty(), "{}", stdout(&o));
    let out: Value = serde_json::from_slice(&std::fs::read(d.file("out.json")).unwrap()).unwrap();
    assert_eq!(out["client_stats"].as_array().unwrap().len(), 5);
    // The result file keeps every rank and the merged jobs.
    let r = read(&merged);
    assert_eq!(r.ranks.len(), 4);
    assert_eq!(
        r.ranks.iter().map(|x| x.host.as_str()).collect::<Vec<_>>(),
        ["node-a", "node-a", "node-b", "node-b"]
    );
    let sum: u64 = r
        .ranks
        .iter()
        .map(|x| x.result.jobs[0].dirs.read.total_ios)
        .sum();
    assert_eq!(r.jobs[0].dirs.read.total_ios, sum);
    // Its report (written by merge): per-rank and per-host charts, in Chromium, and as PNGs.
    let page = dir.join("report.html");
    let rendered = render(&page);
    check_page(&page, &rendered, 10);
    for want in [
        "MB/s per rank",
        "IOPS per host",
        "latency percentiles per host and of all clients",
        "stonewall (all ranks running) against all done",
        "rank 3 (node-b)",
    ] {
        assert!(rendered.dom.contains(want), "{want} not in the page");
    }
    let pngs: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.to_string_lossy().contains("cluster-host")
                && p.extension().is_some_and(|x| x == "png")
        })
        .collect();
    assert!(!pngs.is_empty());
    for p in &pngs {
        check_png(p);
    }
    // iomark report reads the merged file the same way.
    let page2 = d.file("again.html");
    let o = iomark_in(
        &[
            "report",
            &merged.display().to_string(),
            "-o",
            &page2.display().to_string(),
        ],
        &d.path,
    );
    ok(&o);
    let html = std::fs::read_to_string(&page2).unwrap();
    assert!(html.contains("4 ranks on 2 hosts (node-a, node-b)"));
    assert!(html.contains("per host"));
    // compare: merged against one rank's own result, jobs matched by name.
    let o = iomark_in(
        &[
            "compare",
            &files[0].display().to_string(),
            &merged.display().to_string(),
        ],
        &d.path,
    );
    ok(&o);
    assert!(stdout(&o).contains("mix"), "{}", stdout(&o));
    // A merged file merges again as its ranks.
    let o = merge(
        &d,
        &[merged.clone(), files[0].clone()],
        &["--output-format=json"],
    );
    ok(&o);
    assert_eq!(json(&o)["client_stats"].as_array().unwrap().len(), 6);
}

#[test]
fn merge_refuses_bad_input_by_name() {
    let d = Scratch::new("merge-bad");
    let o = iomark_in(&["merge"], &d.path);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no result files given"));
    let o = iomark_in(&["merge", "--outptu=x", "a.json"], &d.path);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("did you mean '--output'"),
        "{}",
        stderr(&o)
    );
    let o = iomark_in(&["merge", "--output-format=xml", "a.json"], &d.path);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("json+"), "{}", stderr(&o));
    std::fs::write(d.file("junk.json"), "{\"x\":1}").unwrap();
    let o = iomark_in(&["merge", &d.s("junk.json")], &d.path);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("junk.json"), "{}", stderr(&o));
    // Ranks that ran other jobs: refused, naming the rank and its host.
    let files = four_results(&d);
    let mut r = read(&files[2]);
    r.plan.jobs[0].name = "other".into();
    std::fs::write(&files[2], serde_json::to_vec(&r).unwrap()).unwrap();
    let o = merge(&d, &files, &[&format!("--result={}", d.s("m.json"))]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("rank 2 on node-b"), "{}", stderr(&o));
    assert!(!d.file("m.json").exists());
    // Outputs that would destroy something are refused before anything is written.
    let o = merge(
        &d,
        &files[..2],
        &[&format!("--output={}", d.path.display())],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stdout(&o).is_empty());
    let o = iomark_in(&["merge", "--help"], &d.path);
    ok(&o);
    assert!(stdout(&o).contains("stonewall"));
}
