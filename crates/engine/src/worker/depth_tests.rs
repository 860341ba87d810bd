//! Whole runs on the null engine's modelled device (one I/O at a time, a fixed service time:
//! at queue depth d an I/O takes about d service times) for the latency limit and the depth
//! search under a latency target.

use crate::depth_search::DepthSearchSpec;
use crate::failure::JobFailure;
use crate::job::{BlockSize, EngineKind, JobSpec, PerDir, RunPlan, RwMode, SizeSpec};
use crate::result::JobResult;
use crate::runner::{run, RunCtl};
use std::path::PathBuf;
use std::time::Duration;

const MS: Duration = Duration::from_millis(1);

/// A random-read job of `depth` on a device serving one I/O per `service`, for up to 20 s.
fn modelled(depth: u32, service: Duration) -> JobSpec {
    let mut j = JobSpec {
        name: "lat".into(),
        rw: RwMode::RandRead,
        filenames: vec![PathBuf::from("/nonexistent/iomark-depth-search")],
        size: Some(SizeSpec::Bytes(64 << 20)),
        bs: PerDir::all(BlockSize::Fixed(4096)),
        ioengine: EngineKind::Null,
        iodepth: depth,
        iodepth_batch_complete_max: 0,
        runtime: Some(Duration::from_secs(20)),
        time_based: true,
        ..Default::default()
    };
    j.engine_options.null_service_ns = service.as_nanos() as u64;
    j
}

fn run_one(j: JobSpec) -> JobResult {
    let plan = RunPlan {
        jobs: vec![j],
        ..Default::default()
    };
    run(&plan, &RunCtl::quiet()).unwrap().jobs.remove(0)
}

fn search(target: Duration, percentile: f64, keep: bool) -> DepthSearchSpec {
    DepthSearchSpec {
        target,
        window: 100 * MS,
        percentile,
        keep_adjusting: keep,
    }
}

#[test]
fn the_search_settles_at_the_deepest_queue_within_the_target_and_ends() {
    // 1 ms per I/O, 3.5 ms allowed to 90% of the I/O: depth 3 (4 ms at depth 4).
    let mut j = modelled(16, MS);
    j.depth_search = search(3 * MS + MS / 2, 90.0, false);
    let r = run_one(j);
    assert_eq!(r.error, 0, "{:?}", r.failure);
    let d = r.search_depth.unwrap();
    // On a busy machine a window at 3 may miss and settle one lower.
    assert!((2..=3).contains(&d), "settled at {d}");
    // The job ended once settled, long before its runtime, and its figures are those of the
    // final window alone: about 100 ms of a device serving one I/O per millisecond.
    assert!((100..2000).contains(&r.runtime_ms), "{}", r.runtime_ms);
    let ios = r.dirs.read.total_ios;
    assert!((31..=110).contains(&ios), "{ios} I/Os in the final window");
    assert_eq!(r.issued.read, ios);
}

#[test]
fn keep_adjusting_runs_the_whole_runtime_near_the_target() {
    let mut j = modelled(16, MS);
    j.runtime = Some(Duration::from_millis(1500));
    j.depth_search = search(3 * MS + MS / 2, 90.0, true);
    let r = run_one(j);
    assert_eq!(r.error, 0, "{:?}", r.failure);
    assert!(r.runtime_ms >= 1500, "{}", r.runtime_ms);
    let d = r.search_depth.unwrap();
    assert!((2..=4).contains(&d), "ended at {d}");
}

#[test]
fn a_target_missed_at_depth_one_ends_the_job_or_keeps_depth_one() {
    // Every I/O takes 2 ms; the target is 1 ms.
    let mut j = modelled(8, 2 * MS);
    j.depth_search = search(MS, 100.0, false);
    let r = run_one(j);
    assert_eq!(r.error, libc::ETIMEDOUT);
    match r.failure {
        Some(JobFailure::Latency {
            target: true,
            limit_ns: 1_000_000,
            latency_ns,
            len: 4096,
            ..
        }) => assert!(latency_ns > 1_000_000),
        f => panic!("{f:?}"),
    }
    // With a share below 100% the job goes on at depth 1 until its runtime.
    let mut j = modelled(8, 2 * MS);
    j.runtime = Some(Duration::from_millis(500));
    j.depth_search = search(MS, 50.0, false);
    let r = run_one(j);
    assert_eq!(r.error, 0, "{:?}", r.failure);
    assert_eq!(r.search_depth, Some(1));
    assert_eq!(r.depth.level[1..].iter().sum::<u64>(), 0, "{:?}", r.depth);
}

#[test]
fn the_latency_limit_ends_the_job_with_etimedout() {
    let mut j = modelled(1, 2 * MS);
    j.latency_limit.read = MS;
    let r = run_one(j);
    assert_eq!(r.error, libc::ETIMEDOUT);
    assert!(
        matches!(
            r.failure,
            Some(JobFailure::Latency {
                target: false,
                limit_ns: 1_000_000,
                ..
            })
        ),
        "{:?}",
        r.failure
    );
    // A limit of another direction, or one above the latency, changes nothing.
    for (dir_limit, read_limit) in [(MS, Duration::ZERO), (Duration::ZERO, 50 * MS)] {
        let mut j = modelled(1, 2 * MS);
        j.runtime = Some(Duration::from_millis(200));
        j.latency_limit.write = dir_limit;
        j.latency_limit.read = read_limit;
        let r = run_one(j);
        assert_eq!(r.error, 0, "{:?}", r.failure);
    }
}
