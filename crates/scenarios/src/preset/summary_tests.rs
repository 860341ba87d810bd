//! The summary's figures, ranges, checks and "not run" from made-up results of the presets' plans.
use super::*;
use crate::preset::jobfile::Settings;
use crate::preset::limits::{targets, Wanted};
use crate::preset::plan;
use crate::preset::registry::{BACKUP_REPO, CLOUD_DISK};
use iomark_engine::result::JobResult;
use std::path::PathBuf;

/// A result of `p`'s plan in which job `i`'s every clone read `r` MiB and wrote `w` MiB in
/// 2 s, with 1 MiB I/Os.
fn result(p: &'static Preset, per_job: &[(u64, u64)]) -> RunResult {
    let s = Settings::defaults(p, PathBuf::from("/x"));
    let (plan, _) = plan::build(p, &s).unwrap();
    let mut jobs = Vec::new();
    for (i, spec) in plan.jobs.iter().enumerate() {
        for c in 0..spec.numjobs.max(1) {
            let mut j = JobResult {
                job_index: i,
                clone: c,
                name: spec.name.clone(),
                runtime_ms: 2000,
                ..Default::default()
            };
            let (r, w) = per_job[i];
            for (d, mib) in [(&mut j.dirs.read, r), (&mut j.dirs.write, w)] {
                d.io_bytes = mib << 20;
                d.total_ios = mib;
                d.runtime_ms = 2000;
                for _ in 0..mib {
                    d.lat.add(100_000);
                }
            }
            jobs.push(j);
        }
    }
    RunResult {
        plan,
        jobs,
        ..Default::default()
    }
}

#[test]
fn backup_repo_effective_speeds() {
    // active-full writes 1000 MiB, synthetic full reads 300 and writes 300, reverse
    // incremental reads 100 and writes 200, restores read 800 and 200; all in 2 s.
    let res = result(
        &BACKUP_REPO,
        &[(0, 1000), (300, 300), (100, 200), (800, 0), (200, 0)],
    );
    let s = Summary::of(&BACKUP_REPO, &[res], Agg::Mean, vec![]);
    let mib_s = |v: Option<f64>| v.unwrap() / (1 << 20) as f64;
    let got: Vec<f64> = s.figures.iter().map(|f| mib_s(f.headline)).collect();
    assert_eq!(got, [500.0, 150.0, 50.0, 400.0, 100.0]);
    let t = s.table();
    assert!(
        t.contains("restore: 104.9 MB/s from random reads to 419.4 MB/s from sequential reads (100.0 to 400.0 MiB/s)\n"),
        "{t}"
    );
    assert!(!t.contains("expected order"), "{t}");
    assert!(t.contains("I/O: direct (O_DIRECT"), "{t}");
    assert!(t.contains("engine: libaio\nqueue depth: 1 ("), "{t}");
    assert!(t.contains("effective = (read + write) / 2"));
    assert!(t.contains("effective = (read + write) / 3"));
    let line = t.lines().find(|l| l.starts_with("synthetic full")).unwrap();
    assert!(
        line.contains(" 157.3 MB/s") && line.ends_with("150.0"),
        "{line}"
    );
}

/// A cloud-disk run: the MiB each clone of each job read and wrote, the two warm-ups first.
fn cloud_disk() -> RunResult {
    result(
        &CLOUD_DISK,
        &[
            (0, 1024),
            (1024, 0),
            (0, 500),
            (1000, 0),
            (100, 0),
            (0, 50),
            (0, 200),
            (400, 0),
            (100, 100),
        ],
    )
}

#[test]
fn cloud_disk_checks_and_warmup() {
    // Warm-ups 1024 MiB each (one clone); max write IOPS job: 4 clones x 500 IOs in 2 s = 1000 IOPS.
    let res = cloud_disk();
    let w = Wanted {
        iops: Some(1500.0),
        mbps: Some(100.0),
        ..Default::default()
    };
    let s = Summary::of(
        &CLOUD_DISK,
        &[res],
        Agg::Mean,
        targets(&CLOUD_DISK, &w).unwrap(),
    );
    let v: Vec<f64> = s.figures.iter().map(|f| f.headline.unwrap()).collect();
    assert_eq!(v[0], 1000.0);
    assert_eq!(v[1], 2000.0);
    assert_eq!(v[2], 300.0);
    assert_eq!(v[3], 400.0 * 1048576.0);
    assert_eq!(s.warmups.len(), 2);
    assert_eq!(s.warmups[0].bytes, 1 << 30);
    let c = s.checks();
    assert_eq!(c[0].figure, "max write IOPS (8 KiB)");
    assert_eq!(c[0].met(), Some(false));
    assert!((c[0].shortfall() - 33.333).abs() < 0.01);
    assert!(c[1].met() == Some(true) && c[1].shortfall() == 0.0);
    assert!(s.missed());
    let t = s.table();
    assert!(
        t.contains(
            "against the expected limits:\n  max write IOPS (8 KiB): 1000 of 1500 IOPS: missed (33.3 % short)\n"
        ),
        "{t}"
    );
    assert!(
        t.contains("  max read throughput (64 KiB): 838.9 of 100.0 MB/s: met"),
        "{t}"
    );
    assert!(t.contains("warm-up warmup-write (not in the figures): 1024 MiB in 2.0 s"));
}

/// A clone that ran shorter than the others: the summary's figure is the job's own (the
/// clones' total over the longest runtime, as the fio block and the report show it), not
/// the sum of each clone's rate (1,250 IOPS here against the job's 1,000).
#[test]
fn summary_figures_are_the_jobs_own() {
    let mut res = cloud_disk();
    let i = 2;
    let name = res.plan.jobs[i].name.clone();
    let short = res.jobs.iter_mut().find(|j| j.job_index == i).unwrap();
    short.dirs.write.runtime_ms = 1000;
    short.runtime_ms = 1000;
    let f = CLOUD_DISK
        .figures
        .iter()
        .find(|f| f.metric == Metric::Iops && f.jobs == [name.as_str()])
        .unwrap();
    let job = res.job_merged(i).unwrap();
    assert_eq!(job.dirs.write.rates().0, 1000.0);
    assert_eq!(value(f, &res).unwrap() * f.divisor, 1000.0);
    let figs = crate::repeat::figures::of_run(&res);
    let iops = figs
        .iter()
        .find(|x| x.job == name && x.what == "IOPS")
        .unwrap();
    assert_eq!(iops.value, 1000.0);
}

#[test]
fn repetitions_give_statistics_and_the_noisy_flag() {
    let runs: Vec<RunResult> = [1000, 1100, 700]
        .iter()
        .map(|w| {
            result(
                &BACKUP_REPO,
                &[(0, *w), (300, 300), (100, 200), (800, 0), (200, 0)],
            )
        })
        .collect();
    let s = Summary::of(&BACKUP_REPO, &runs, Agg::Best, vec![]);
    let f = &s.figures[0];
    assert_eq!(f.samples.len(), 3);
    assert_eq!(f.headline, Some(550.0 * 1048576.0));
    assert!(f.noisy());
    assert!(!s.figures[1].noisy());
    let t = s.table();
    assert!(t.contains("3 runs, headline = best of the runs"));
    let line = t.lines().find(|l| l.starts_with("active full")).unwrap();
    assert!(line.ends_with("noisy"), "{line}");
    let j = s.to_json();
    assert_eq!(j["figures"][0]["samples"].as_array().unwrap().len(), 3);
    assert_eq!(j["figures"][0]["noisy"], true);
}

/// An interrupted run: the jobs that never started have no results; their figures are
/// "not run" in the table, the JSON and the checks, never zeros.
#[test]
fn figures_whose_jobs_did_not_run_say_so() {
    let mut res = result(
        &BACKUP_REPO,
        &[(0, 1000), (300, 300), (100, 200), (800, 0), (200, 0)],
    );
    res.jobs.retain(|j| j.job_index < 2);
    let s = Summary::of(&BACKUP_REPO, &[res], Agg::Mean, vec![]);
    assert!(s.figures[0].headline.is_some());
    assert_eq!(s.figures[2].headline, None);
    let t = s.table();
    let line = t
        .lines()
        .find(|l| l.starts_with("reverse incremental"))
        .unwrap();
    assert!(line.contains("not run") && !line.contains("0.0"), "{line}");
    assert!(t.contains("restore: not run ("), "{t}");
    assert!(t.contains("not run in every run (interrupted or failed before their jobs): reverse incremental, restore from sequential"), "{t}");
    let j = s.to_json();
    assert_eq!(j["figures"][2]["headline"], serde_json::Value::Null);
    assert_eq!(j["figures"][2]["not_run"], true);
    assert_eq!(j["figures"][0]["not_run"], false);
    // A limit on a figure not run is neither met nor missed.
    let mut cres = result(
        &CLOUD_DISK,
        &[
            (0, 1),
            (1, 0),
            (0, 500),
            (1000, 0),
            (100, 0),
            (0, 50),
            (0, 200),
            (400, 0),
            (1, 1),
        ],
    );
    cres.jobs.retain(|j| j.job_index < 3);
    let w = Wanted {
        iops: Some(1.0),
        ..Default::default()
    };
    let s = Summary::of(
        &CLOUD_DISK,
        &[cres],
        Agg::Mean,
        targets(&CLOUD_DISK, &w).unwrap(),
    );
    let c = s.checks();
    assert_eq!(c[0].met(), Some(true));
    assert_eq!(c[1].met(), None);
    assert!(!s.missed());
    assert!(s
        .table()
        .contains("  max read IOPS (8 KiB): not run (limit 1 IOPS)"));
}

/// Random restore reads faster than sequential ones: both figures named by what they
/// are, and a line saying the expected order does not hold, and why it can happen.
#[test]
fn restore_bounds_out_of_order_are_explained() {
    let res = result(
        &BACKUP_REPO,
        &[(0, 1000), (300, 300), (100, 200), (200, 0), (220, 0)],
    );
    let t = Summary::of(&BACKUP_REPO, &[res], Agg::Mean, vec![]).table();
    assert!(
        t.contains("restore: 115.3 MB/s from random reads to 104.9 MB/s from sequential reads"),
        "{t}"
    );
    assert!(t.contains("restore: the lower bound (from random reads) came out 10.0 % above the upper bound (from sequential reads): the expected order does not hold here."), "{t}");
    assert!(t.contains("seek penalty"), "{t}");
}
