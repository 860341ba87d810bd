//! Tests of the result model: merging, summaries, serialization.

use super::*;
use crate::job::Dir;

/// A deterministic spread of latencies (ns) with a slow tail.
fn lat(i: u64, base: u64) -> u64 {
    let x = i.wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(17);
    base + x % (base / 2 + 1) + if i % 97 == 0 { base * 20 } else { 0 }
}

fn job(seed: u64, ios: u64, runtime_ms: u64, base: u64) -> (JobResult, Vec<u64>) {
    let mut j = JobResult {
        name: format!("j{seed}"),
        thread_number: seed as u32,
        runtime_ms,
        runtime_us: runtime_ms * 1000 + seed,
        elapsed_ms: runtime_ms + 10,
        ran: true,
        ..Default::default()
    };
    let mut samples = Vec::new();
    let d = &mut j.dirs.read;
    for i in 0..ios {
        let v = lat(i + seed * 1000, base);
        d.clat.add(v);
        d.lat.add(v + 100);
        samples.push(v);
    }
    d.total_ios = ios;
    d.io_bytes = ios * 4096;
    d.runtime_ms = runtime_ms;
    d.bw_samples.add((ios * 4) as f64);
    j.issued.read = ios;
    j.cpu = CpuUsage {
        usr_us: seed * 10,
        sys_us: seed * 30,
        ctx: 5,
        majf: 0,
        minf: 1,
    };
    j.depth.level[0] = ios;
    j.targets.push(TargetInfo {
        path: format!("/t/{}", seed % 2),
        ..Default::default()
    });
    j.notes.push(Note::Text("cached".into()));
    j.series.bw.push(LogEntry {
        t_ms: 500 * seed,
        value: seed,
        ..Default::default()
    });
    (j, samples)
}

fn merged(parts: &[&JobResult]) -> JobResult {
    let mut m = parts[0].clone();
    for p in &parts[1..] {
        m.merge(p);
    }
    m
}

#[test]
fn merge_adds_counts_and_keeps_the_first_identity() {
    let (a, _) = job(1, 1000, 1000, 50_000);
    let (b, _) = job(2, 3000, 1200, 40_000);
    let m = merged(&[&a, &b]);
    assert_eq!(m.name, "j1");
    assert_eq!(m.thread_number, 1);
    let r = &m.dirs.read;
    assert_eq!(r.total_ios, 4000);
    assert_eq!(r.io_bytes, 4000 * 4096);
    assert_eq!(r.runtime_ms, 1200);
    assert_eq!(m.runtime_ms, 1200);
    assert_eq!(m.runtime_us, 1_200_002);
    assert_eq!(m.elapsed_ms, 1210);
    assert_eq!(m.issued.read, 4000);
    assert_eq!(m.cpu.usr_us, 30);
    assert_eq!(m.cpu.ctx, 10);
    assert_eq!(m.depth.level[0], 4000);
    assert_eq!(r.clat.hist.count(), 4000);
    assert_eq!(r.clat.stat.n, 4000);
    assert_eq!(
        r.clat.stat.min,
        a.dirs.read.clat.stat.min.min(b.dirs.read.clat.stat.min)
    );
    assert_eq!(
        r.clat.stat.max,
        a.dirs.read.clat.stat.max.max(b.dirs.read.clat.stat.max)
    );
    // bandwidth samples of parallel jobs add ("pure sum")
    assert_eq!(r.bw_samples.mean, 16_000.0);
    assert_eq!(m.targets.len(), 2);
    assert_eq!(m.notes, vec![Note::Text("cached".into())]);
    assert_eq!(m.series.bw.len(), 2);
    assert!(m.ran);
}

#[test]
fn merged_percentiles_are_those_of_all_samples() {
    let (a, sa) = job(1, 5000, 1000, 20_000);
    let (b, sb) = job(2, 500, 1000, 3_000_000);
    let (c, sc) = job(3, 2000, 900, 200_000);
    let m = merged(&[&a, &b, &c]);
    let mut all = LatRecord::default();
    for v in sa.iter().chain(&sb).chain(&sc) {
        all.add(*v);
    }
    let ps = [1.0, 50.0, 90.0, 99.0, 99.9, 100.0];
    assert_eq!(
        m.dirs.read.clat.hist.percentiles(&ps),
        all.hist.percentiles(&ps)
    );
    assert_eq!(m.dirs.read.clat.stat, all.stat);
}

#[test]
fn merge_is_commutative_and_associative_in_its_measurements() {
    let (a, _) = job(1, 1000, 1000, 50_000);
    let (b, _) = job(2, 3000, 1200, 40_000);
    let (c, _) = job(3, 700, 800, 900_000);
    let abc = merged(&[&a, &b, &c]);
    let cab = merged(&[&c, &a, &b]);
    let mut bc = b.clone();
    bc.merge(&c);
    let a_bc = merged(&[&a, &bc]);
    for m in [&cab, &a_bc] {
        for d in Dir::ALL {
            assert_eq!(m.dirs[d].total_ios, abc.dirs[d].total_ios);
            assert_eq!(m.dirs[d].io_bytes, abc.dirs[d].io_bytes);
            assert_eq!(m.dirs[d].runtime_ms, abc.dirs[d].runtime_ms);
            assert_eq!(m.dirs[d].clat, abc.dirs[d].clat);
            assert_eq!(m.dirs[d].lat, abc.dirs[d].lat);
        }
        assert_eq!(m.cpu, abc.cpu);
        assert_eq!(m.depth, abc.depth);
        assert_eq!(m.issued, abc.issued);
        assert_eq!(m.runtime_ms, abc.runtime_ms);
        // series entries are all kept, in time order
        assert_eq!(m.series, abc.series);
    }
    assert_eq!(
        abc.series.bw.iter().map(|e| e.t_ms).collect::<Vec<_>>(),
        [500, 1000, 1500]
    );
    // merging into an empty result copies the measurements
    let mut e = JobResult::default();
    e.merge(&abc);
    assert_eq!(e.dirs, abc.dirs);
    assert_eq!(e.series, abc.series);
}

#[test]
fn merge_stats_leaves_series_and_verification_alone() {
    let (mut a, _) = job(1, 10, 100, 1000);
    let (mut b, _) = job(2, 10, 100, 1000);
    b.error = 5;
    b.failure = Some(JobFailure::Submit { errno: libc::EIO });
    b.first_error = 5;
    b.total_err = 2;
    b.verify = Some(VerifyResult {
        method: "crc32c".into(),
        blocks_checked: 10,
        ..Default::default()
    });
    let mut s = a.stats_only();
    assert!(s.series.is_empty());
    s.merge_stats(&b);
    assert!(s.series.is_empty() && s.verify.is_none());
    assert_eq!((s.error, s.first_error, s.total_err), (5, 5, 2));
    assert_eq!(s.failure, Some(JobFailure::Submit { errno: libc::EIO }));
    a.verify = Some(VerifyResult {
        method: "crc32c".into(),
        blocks_checked: 4,
        bad_blocks: 1,
        failures: vec![VerifyReport::default()],
        ..Default::default()
    });
    a.merge(&b);
    let v = a.verify.unwrap();
    assert_eq!(
        (v.blocks_checked, v.bad_blocks, v.failures.len()),
        (14, 1, 1)
    );
}

#[test]
fn verify_failures_stay_capped() {
    let full = VerifyResult {
        method: "md5".into(),
        blocks_checked: 200,
        bad_blocks: 150,
        failures: vec![VerifyReport::default(); VerifyResult::MAX_FAILURES],
        ..Default::default()
    };
    let mut m = full.clone();
    m.merge(&full);
    assert_eq!(m.bad_blocks, 300);
    assert_eq!(m.failures.len(), VerifyResult::MAX_FAILURES);
}

#[test]
fn result_files_with_text_notes_and_error_messages_still_read() {
    let mut r = RunResult::assemble(&RunPlan::default(), 0, HostInfo::default(), vec![]);
    r.jobs.push(JobResult {
        error: libc::EIO,
        failure: Some(JobFailure::Submit { errno: libc::EIO }),
        notes: vec![Note::StoppedDuringLayout],
        ..Default::default()
    });
    let mut v = serde_json::to_value(&r).unwrap();
    assert_eq!(v["jobs"][0]["error_msg"]["kind"], "submit");
    // As written before notes and failures were typed: their words.
    v["notes"] = serde_json::json!(["the run was short"]);
    v["jobs"][0]["notes"] = serde_json::json!(["j: cached"]);
    v["jobs"][0]["error_msg"] = serde_json::json!("j: read error");
    let old = RunResult::from_json(v.to_string().as_bytes()).unwrap();
    assert_eq!(old.notes, [Note::Text("the run was short".into())]);
    assert_eq!(old.jobs[0].notes, [Note::Text("j: cached".into())]);
    assert_eq!(
        old.jobs[0]
            .failure
            .as_ref()
            .map(|f| f.to_string())
            .as_deref(),
        Some("j: read error")
    );
}
