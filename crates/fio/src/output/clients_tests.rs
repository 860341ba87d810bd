use super::*;
use crate::output::group::tests as fx;
use iomark_engine::cluster::RankResult;
use iomark_engine::job::{EngineKind, PerDir, RunPlan, RwMode};
use iomark_engine::result::DirResult;

/// Three ranks (two on host `a`) of one randrw job, each with its own numbers.
fn cluster_result() -> RunResult {
    let ranks: Vec<RankResult> = [("a", 1000u64, 2000u64), ("a", 1500, 2100), ("b", 900, 1400)]
        .iter()
        .enumerate()
        .map(|(i, &(host, ios, ms))| {
            let mut sp = fx::spec("mix", RwMode::RandRw, EngineKind::Libaio, 8);
            sp.rwmixread = 70;
            let dirs = PerDir {
                read: fx::dir(ios, 4096, ms, 60_000 + 20_000 * i as u64, true, i as u64),
                write: fx::dir(ios / 2, 4096, ms, 80_000, true, 50 + i as u64),
                trim: DirResult::default(),
            };
            let mut r = fx::run(
                RunPlan {
                    jobs: vec![sp],
                    ..Default::default()
                },
                vec![fx::job("mix", 0, 0, 0, dirs)],
            );
            r.host.hostname = host.into();
            RankResult {
                rank: i,
                host: host.into(),
                result: r,
            }
        })
        .collect();
    cluster::merge(ranks).unwrap().to_run_result()
}

fn keys(v: &serde_json::Value) -> std::collections::BTreeSet<String> {
    v.as_object().unwrap().keys().cloned().collect()
}

#[test]
fn json_has_client_stats_with_all_clients_last() {
    let r = cluster_result();
    let text = crate::output::render(&r, OutputFormat::Json, 3);
    let v: serde_json::Value = serde_json::from_str(&text).expect(&text);
    assert!(v.get("jobs").is_none(), "client_stats replaces jobs");
    let cs = v["client_stats"].as_array().unwrap();
    assert_eq!(cs.len(), 4);
    let who: Vec<(&str, u64, &str)> = cs
        .iter()
        .map(|e| {
            (
                e["jobname"].as_str().unwrap(),
                e["port"].as_u64().unwrap(),
                e["hostname"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        who,
        [
            ("mix", 0, "a"),
            ("mix", 1, "a"),
            ("mix", 2, "b"),
            ("All clients", 2, "b")
        ]
    );
    // Every entry has a local run's keys plus hostname and port, the last two keys.
    let local: serde_json::Value =
        serde_json::from_str(&crate::output::json::render(&r.ranks[0].result, false)).unwrap();
    let mut want = keys(&local["jobs"][0]);
    want.insert("hostname".into());
    want.insert("port".into());
    for e in cs {
        assert_eq!(keys(e), want);
    }
    // as fio adds them: after everything else of the entry
    assert!(text.contains("  },\n      \"hostname\" : \"b\",\n      \"port\" : 2\n    }\n  ]"));
    // All clients: counts are the sums, percentiles those of the merged histograms.
    let all = &cs[3];
    for d in ["read", "write"] {
        let sum: u64 = cs[..3]
            .iter()
            .map(|e| e[d]["total_ios"].as_u64().unwrap())
            .sum();
        assert_eq!(all[d]["total_ios"].as_u64(), Some(sum));
    }
    let mut h = iomark_engine::hist::Histogram::default();
    for rr in &r.ranks {
        h.merge(&rr.result.jobs[0].dirs.read.clat.hist);
    }
    let p = &all["read"]["clat_ns"]["percentile"];
    for (pct, val) in h.percentiles(&[50.0, 99.0, 99.9]) {
        assert_eq!(
            p[&crate::output::fmt::pct_key(pct)].as_u64(),
            Some(val),
            "{pct}"
        );
    }
    // All clients runs as long as the slowest rank: its bandwidth is the all-done figure.
    assert_eq!(all["read"]["runtime"].as_u64(), Some(2100));
    let cl = &v["iomark"]["cluster"];
    assert_eq!(cl["ranks"].as_u64(), Some(3));
    let rd = &cl["jobs"][0]["read"];
    assert_eq!(rd["stonewall"]["runtime_ms"].as_u64(), Some(1400));
    assert_eq!(rd["stonewall"]["first_rank"].as_u64(), Some(2));
    assert_eq!(rd["all_done"]["last_rank"].as_u64(), Some(1));
    let bw = rd["all_done"]["bw_bytes"].as_f64().unwrap();
    assert!((bw - all["read"]["bw_bytes"].as_f64().unwrap()).abs() <= 1.0);
    // rank 0 did 1500 I/Os in 2 s, the slowest rate
    assert_eq!(cl["jobs"][0]["slowest"][0]["rank"].as_u64(), Some(0));
    // disk_util entries name their client
    let du = v["disk_util"].as_array().unwrap();
    assert_eq!(du.len(), 3);
    assert_eq!(du[2]["hostname"].as_str(), Some("b"));
}

#[test]
fn normal_has_a_section_per_client_then_all_clients() {
    let r = cluster_result();
    let s = crate::output::render(&r, OutputFormat::Normal, 3);
    for label in [
        "<a#0> mix: (groupid=0",
        "<a#1> mix: (groupid=0",
        "<b> mix: (groupid=0",
    ] {
        assert!(s.contains(label), "{label}:\n{s}");
    }
    assert!(s.contains("<b>   read: IOPS="), "{s}");
    assert!(s.contains("<b> Run status group 0 (all jobs):"), "{s}");
    let all = s.find("\nAll clients: (groupid=0, jobs=3)").expect(&s);
    assert!(s.find("<b> mix").unwrap() < all);
    let tail = &s[all..];
    assert!(tail.contains("clat percentiles"), "{tail}");
    assert!(tail.contains("\nRun status group 0 (all jobs):"));
    assert!(
        tail.contains("Cluster: 3 ranks on 2 hosts (a, b)"),
        "{tail}"
    );
    assert!(tail.contains("mix: read: stonewall: IOPS="), "{tail}");
    assert!(tail.contains("while all 3 ranks ran (first done: rank 2 <b>)"));
    assert!(tail.contains("mix: read: all done : IOPS="));
    assert!(tail.contains("the slowest rank's time (rank 1 <a#1>)"));
    assert!(
        tail.contains("mix: slowest ranks: rank 0 <a#0> IOPS=750, "),
        "{tail}"
    );
    assert!(
        tail.contains("mix: per host: <a> ranks 0,1: IOPS="),
        "{tail}"
    );
    assert!(
        tail.contains("Disk stats (read/write):\n  a:vda:"),
        "{tail}"
    );
}

#[test]
fn terse_has_every_client_then_all_clients() {
    let r = cluster_result();
    let s = crate::output::render(&r, OutputFormat::Terse, 3);
    let lines: Vec<&str> = s.lines().collect();
    assert_eq!(lines.len(), 4, "{s}");
    let names: Vec<&str> = lines.iter().map(|l| l.split(';').nth(2).unwrap()).collect();
    assert_eq!(names, ["mix", "mix", "mix", "All clients"]);
    let fields = |l: &str| l.split(';').count();
    assert_eq!(fields(lines[0]), fields(lines[1]));
}

#[test]
fn json_key_layout_matches_fio_3_33_client_output() {
    // fio 3.33, two servers on 127.0.0.1 (ports 18765 and 18766), the same job on each.
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/fio-3.33-output/fio-client.json"
    ))
    .expect("the fio reference output in tests/fixtures");
    let theirs: serde_json::Value = serde_json::from_str(&text).unwrap();
    let ours: serde_json::Value = serde_json::from_str(&crate::output::render(
        &cluster_result(),
        OutputFormat::Json,
        3,
    ))
    .unwrap();
    let (mut a, mut b) = Default::default();
    crate::output::json::tests::keys(&theirs, &mut a, "");
    crate::output::json::tests::keys(&ours, &mut b, "");
    let a: std::collections::BTreeSet<String> = a;
    let missing: Vec<&String> = a
        .difference(&b)
        .filter(|k| !k.contains("job options."))
        .collect();
    assert!(missing.is_empty(), "missing keys: {missing:?}");
    // fio's facts: the last entry is "All clients" with the last client's hostname and port;
    // 3.33 gives it no percentiles (3.39+ and iomark do).
    let cs = theirs["client_stats"].as_array().unwrap();
    let (last, prev) = (&cs[cs.len() - 1], &cs[cs.len() - 2]);
    assert_eq!(last["jobname"], "All clients");
    assert_eq!(last["port"], prev["port"]);
    assert!(last["read"]["clat_ns"].get("percentile").is_none());
    assert!(cs[0]["read"]["clat_ns"].get("percentile").is_some());
    let ours_last = ours["client_stats"]
        .as_array()
        .unwrap()
        .last()
        .unwrap()
        .clone();
    assert!(ours_last["read"]["clat_ns"].get("percentile").is_some());
    // the client keys come last in fio's entries as in ours
    let tail = text.split("\"latency_window\" : 0,").nth(1).unwrap();
    assert!(tail.trim_start().starts_with("\"hostname\""), "{tail}");
}
