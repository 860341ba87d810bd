use super::*;
use crate::job::{Dir, JobSpec, RunPlan};
use crate::result::{HostInfo, JobResult, LatRecord, RunResult};

/// A deterministic spread of latencies (ns) with a slow tail, different per seed.
fn lat(i: u64, base: u64) -> u64 {
    let x = i.wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(17);
    base + x % (base / 2 + 1) + if i % 97 == 0 { base * 20 } else { 0 }
}

/// A clone of job `idx` that read `ios` 4 KiB blocks in `ms`; its latencies are pushed to
/// `all` too.
fn clone(
    idx: usize,
    clone: u32,
    ios: u64,
    ms: u64,
    base: u64,
    seed: u64,
    all: &mut Vec<u64>,
) -> JobResult {
    let mut j = JobResult {
        name: format!("job{idx}"),
        job_index: idx,
        clone,
        thread_number: clone + 1,
        start_unix_ms: 1_700_000_000_000 + seed,
        runtime_ms: ms,
        elapsed_ms: ms + 5,
        ran: true,
        ..Default::default()
    };
    let d = &mut j.dirs.read;
    for i in 0..ios {
        let v = lat(i + seed * 10_000, base);
        d.clat.add(v);
        d.lat.add(v + 50);
        all.push(v);
    }
    d.total_ios = ios;
    d.io_bytes = ios * 4096;
    d.runtime_ms = ms;
    j.issued.read = ios;
    j
}

fn plan() -> RunPlan {
    RunPlan {
        jobs: (0..2)
            .map(|i| JobSpec {
                name: format!("job{i}"),
                ..Default::default()
            })
            .collect(),
        ..Default::default()
    }
}

/// Rank `rank` on `host`: job0 with two clones, job1 with one; runtimes grow with the rank.
fn rank(rank: usize, host: &str, all: &mut [Vec<u64>; 2]) -> RankResult {
    let s = rank as u64;
    let ms = 1000 + 500 * s;
    let jobs = vec![
        clone(
            0,
            0,
            1000 + 100 * s,
            ms,
            50_000 + 10_000 * s,
            s * 3,
            &mut all[0],
        ),
        clone(0, 1, 700, ms - 100, 80_000, s * 3 + 1, &mut all[0]),
        clone(1, 0, 2000 - 300 * s, 1000, 20_000, s * 3 + 2, &mut all[1]),
    ];
    RankResult {
        rank,
        host: host.to_string(),
        result: RunResult {
            format: crate::result::RESULT_FORMAT.into(),
            host: HostInfo {
                hostname: host.into(),
                cpus: 2,
                mem_bytes: 1 << 30,
                ..Default::default()
            },
            plan: plan(),
            start_unix_ms: 1_700_000_000_000 + s,
            jobs,
            notes: vec![crate::note::Note::Text(format!("note of {host}"))],
            ..Default::default()
        },
    }
}

fn four() -> (Vec<RankResult>, [Vec<u64>; 2]) {
    let mut all = [Vec::new(), Vec::new()];
    let ranks = vec![
        rank(0, "a", &mut all),
        rank(1, "a", &mut all),
        rank(2, "b", &mut all),
        rank(3, "c", &mut all),
    ];
    (ranks, all)
}

const PS: [f64; 8] = [1.0, 10.0, 50.0, 90.0, 99.0, 99.9, 99.99, 100.0];

#[test]
fn counts_add_exactly_and_percentiles_are_those_of_all_samples() {
    let (ranks, all) = four();
    let c = merge(ranks.clone()).unwrap();
    assert_eq!(c.jobs.len(), 2);
    for (cj, samples) in c.jobs.iter().zip(&all) {
        let r = &cj.all.dirs.read;
        let want_ios: u64 = ranks
            .iter()
            .flat_map(|r| &r.result.jobs)
            .filter(|j| j.job_index == cj.job_index)
            .map(|j| j.dirs.read.total_ios)
            .sum();
        assert_eq!(r.total_ios, want_ios);
        assert_eq!(r.total_ios, samples.len() as u64);
        assert_eq!(r.io_bytes, want_ios * 4096);
        assert_eq!(cj.all.issued.read, want_ios);
        let mut every = LatRecord::default();
        for &v in samples {
            every.add(v);
        }
        assert_eq!(r.clat.hist.percentiles(&PS), every.hist.percentiles(&PS));
        assert_eq!(r.clat.stat, every.stat);
        // the slowest rank's runtime
        assert_eq!(
            r.runtime_ms,
            cj.ranks
                .iter()
                .map(|x| x.job.dirs.read.runtime_ms)
                .max()
                .unwrap()
        );
    }
    // per-rank: its two clones of job0
    let r0 = &c.jobs[0].ranks[0];
    assert_eq!((r0.rank, r0.host.as_str()), (0, "a"));
    assert_eq!(r0.job.dirs.read.total_ios, 1000 + 700);
}

#[test]
fn hosts_merge_their_ranks() {
    let (ranks, _) = four();
    let c = merge(ranks).unwrap();
    assert_eq!(c.hosts, ["a", "b", "c"]);
    let j = &c.jobs[0];
    let hosts: Vec<(&str, &[usize])> = j
        .hosts
        .iter()
        .map(|h| (h.host.as_str(), h.ranks.as_slice()))
        .collect();
    assert_eq!(
        hosts,
        [("a", &[0, 1][..]), ("b", &[2][..]), ("c", &[3][..])]
    );
    let a = &j.hosts[0].job.dirs.read;
    assert_eq!(
        a.total_ios,
        j.ranks[0].job.dirs.read.total_ios + j.ranks[1].job.dirs.read.total_ios
    );
    let sum: u64 = j.hosts.iter().map(|h| h.job.dirs.read.total_ios).sum();
    assert_eq!(sum, j.all.dirs.read.total_ios);
    assert_eq!(c.rank_label(0), "a#0");
    assert_eq!(c.rank_label(2), "b");
}

#[test]
fn stonewall_and_all_done() {
    let (ranks, _) = four();
    let c = merge(ranks).unwrap();
    let f = &c.jobs[0].flow.read;
    // rank r ran 1000 + 500 r ms (its longer clone); rank 0 is first done, rank 3 last.
    assert_eq!((f.stonewall_ms, f.first_rank), (1000, 0));
    assert_eq!((f.all_done_ms, f.last_rank), (2500, 3));
    assert_eq!(f.ranks, 4);
    assert_eq!(f.estimated_ranks, 3);
    let mut sw_ios = 0;
    let mut sum_iops = 0.0;
    for r in 0..4u64 {
        let ios = 1000 + 100 * r + 700;
        let ms = 1000 + 500 * r;
        sw_ios += ios * 1000 / ms;
        sum_iops += ios as f64 * 1000.0 / ms as f64;
    }
    assert_eq!(f.stonewall_ios, sw_ios);
    assert!((f.sum_rate_iops - sum_iops).abs() < 1e-6);
    assert_eq!(f.total_ios, c.jobs[0].all.dirs.read.total_ios);
    assert!((f.all_done_iops() - f.total_ios as f64 / 2.5).abs() < 1e-9);
    assert!(f.stonewall_iops() > f.all_done_iops());
    assert!(f.stonewall_bw() > f.all_done_bw());
    // job1: every rank ran 1000 ms, so the two figures agree and nothing is estimated.
    let f = &c.jobs[1].flow.read;
    assert_eq!(f.estimated_ranks, 0);
    assert_eq!(f.stonewall_bytes, f.io_bytes);
    assert_eq!(f.stonewall_bw(), f.all_done_bw());
    assert!(c.jobs[0].flow.write.is_empty());
}

#[test]
fn the_slowest_ranks_are_named() {
    let (ranks, _) = four();
    let c = merge(ranks).unwrap();
    // job1: rank r did 2000 - 300 r I/Os in 1000 ms: rank 3 is slowest, then 2, then 1.
    let s: Vec<(usize, &str)> = c.jobs[1]
        .slowest
        .iter()
        .map(|s| (s.rank, s.host.as_str()))
        .collect();
    assert_eq!(s, [(3, "c"), (2, "b"), (1, "a")]);
    let median = (1700.0 + 1400.0) / 2.0;
    assert!((c.jobs[1].slowest[0].iops - 1100.0).abs() < 1e-9);
    assert!((c.jobs[1].slowest[0].vs_median_pct - (1100.0 / median - 1.0) * 100.0).abs() < 1e-9);
    let one = merge(vec![four().0.remove(0)]).unwrap();
    assert!(one.jobs[0].slowest.is_empty());
}

#[test]
fn refused_merges_name_the_rank() {
    assert_eq!(merge(Vec::new()), Err(ClusterError::NoRanks));
    let (mut ranks, _) = four();
    ranks[2].result.plan.jobs[1].name = "other".into();
    let e = merge(ranks).unwrap_err().to_string();
    assert!(e.contains("rank 2 on b") && e.contains("other"), "{e}");
    let (mut ranks, _) = four();
    ranks[3].rank = 1;
    let e = merge(ranks).unwrap_err().to_string();
    assert!(e.contains("rank 1 appears twice"), "{e}");
}

#[test]
fn the_result_file_keeps_every_rank_and_reads_back() {
    let (ranks, _) = four();
    let c = merge(ranks.clone()).unwrap();
    let r = c.to_run_result();
    assert_eq!(r.ranks, ranks);
    assert_eq!(r.host.hostname, "a,b,c");
    assert_eq!(r.host.cpus, 6);
    assert_eq!(r.jobs.len(), 2);
    assert_eq!(r.jobs[0].name, "job0");
    assert_eq!(r.jobs[0].dirs, c.jobs[0].all.dirs);
    assert_eq!(r.notes.len(), 3);
    // to_value cannot take the 128-bit sums; bytes can.
    let bytes = serde_json::to_vec(&r).unwrap();
    let back = RunResult::from_json(&bytes).unwrap();
    assert_eq!(back, r);
    // merging the file's ranks again gives the same jobs
    let again = merge(back.ranks.clone()).unwrap().to_run_result();
    assert_eq!(again.jobs, r.jobs);
    // a result of one host has no ranks in its file
    let plain = serde_json::to_string(&ranks[0].result).unwrap();
    assert!(!plain.contains("\"ranks\""));
}

#[test]
fn a_rank_without_a_job_counts_as_idle() {
    let (mut ranks, _) = four();
    ranks[1].result.jobs.retain(|j| j.job_index != 1);
    let c = merge(ranks).unwrap();
    let j = &c.jobs[1];
    assert_eq!(j.ranks[1].job.dirs.read.total_ios, 0);
    assert_eq!(j.ranks[1].job.name, "job1");
    assert_eq!(j.flow.read.ranks, 3);
    for d in Dir::ALL {
        assert_eq!(
            j.all.dirs[d].total_ios,
            j.ranks.iter().map(|r| r.job.dirs[d].total_ios).sum::<u64>()
        );
    }
}

#[test]
fn the_stonewall_share_of_a_running_rank_comes_from_its_bandwidth_log() {
    use crate::result::LogEntry;
    let (mut ranks, _) = four();
    // Rank 3 (2500 ms) did 3/4 of its bytes in its first second: 3 units/s then 1 unit/s.
    for j in ranks[3].result.jobs.iter_mut().filter(|j| j.job_index == 0) {
        j.series.bw = [
            (500, 3000),
            (1000, 3000),
            (1500, 1000),
            (2000, 1000),
            (2500, 1000),
        ]
        .iter()
        .map(|&(t_ms, value)| LogEntry {
            t_ms,
            value,
            ..Default::default()
        })
        .collect();
        // the clone that ran 2400 ms logs up to then
        if j.clone == 1 {
            j.series.bw.pop();
        }
    }
    let c = merge(ranks.clone()).unwrap();
    let f = &c.jobs[0].flow.read;
    assert_eq!((f.logged_ranks, f.estimated_ranks), (1, 2));
    let r3: Vec<&JobResult> = ranks[3]
        .result
        .jobs
        .iter()
        .filter(|j| j.job_index == 0)
        .collect();
    // by 1000 ms: two thirds of what clone 0 logged (3+3 of 3+3+1+1+1 per 500 ms), three
    // quarters of clone 1's (3+3 of 3+3+1+1)
    let want = (r3[0].dirs.read.total_ios as f64 * 2.0 / 3.0).round() as u64
        + (r3[1].dirs.read.total_ios as f64 * 0.75).round() as u64;
    let mut est = 0;
    for r in 1..3u64 {
        est += (1000 + 100 * r + 700) * 1000 / (1000 + 500 * r);
    }
    let r0 = 1000 + 700;
    assert_eq!(f.stonewall_ios, r0 + est + want);
    // higher than the mean-rate estimate of rank 3 (its rate fell after the first second)
    assert!(want > (1000 + 300 + 700) * 1000 / 2500);
}
