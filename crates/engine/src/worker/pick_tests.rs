//! Whole runs on the null engine for the choices `pick` makes: the read/write mix drawn as fio
//! draws it, trim-then-write pairs, and flow control between jobs.

use crate::job::{BlockSize, EngineKind, FlowSpec, JobSpec, PerDir, RunPlan, RwMode, SizeSpec};
use crate::runner::{run, RunCtl};
use crate::RunResult;
use std::path::PathBuf;
use std::time::Duration;

fn null_job(name: &str, rw: RwMode, bytes: u64) -> JobSpec {
    JobSpec {
        name: name.into(),
        rw,
        filenames: vec![PathBuf::from(format!("/nonexistent/iomark-pick-{name}"))],
        size: Some(SizeSpec::Bytes(bytes)),
        bs: PerDir::all(BlockSize::Fixed(4096)),
        ioengine: EngineKind::Null,
        ..Default::default()
    }
}

fn run_jobs(jobs: Vec<JobSpec>) -> RunResult {
    let r = run(
        &RunPlan {
            jobs,
            ..Default::default()
        },
        &RunCtl::quiet(),
    )
    .unwrap();
    for j in &r.jobs {
        assert_eq!(j.error, 0, "{}: {:?}", j.name, j.failure);
    }
    r
}

#[test]
fn mixed_job_splits_as_fio() {
    // fio 3.33: rw=readwrite, 32 MiB of 4 KiB, default seed, first job: 4142 writes.
    let r = run_jobs(vec![null_job("mix", RwMode::ReadWrite, 32 << 20)]);
    let d = &r.jobs[0].dirs;
    assert_eq!((d.read.total_ios, d.write.total_ios), (4050, 4142));
}

#[test]
fn every_trim_is_followed_by_its_write() {
    for rw in [RwMode::TrimWrite, RwMode::RandTrimWrite] {
        let mut j = null_job("tw", rw, 1 << 20);
        j.bs = PerDir::all(BlockSize::Range {
            min: 512,
            max: 4096,
        });
        let r = run_jobs(vec![j]);
        let d = &r.jobs[0].dirs;
        // Each byte trimmed once and written once: the pair counts once in the amount.
        assert_eq!(d.trim.io_bytes, 1 << 20, "{rw:?}");
        assert_eq!(d.write.io_bytes, 1 << 20, "{rw:?}");
        assert_eq!(d.trim.total_ios, d.write.total_ios, "{rw:?}");
        assert!(d.trim.total_ios > 256, "{rw:?}: mixed sizes");
    }
}

#[test]
fn flow_stalls_a_job_whose_partner_waits() {
    // Weights 9 and 1, the second job in a later group: the first may issue while its count
    // over the flow's (starting at 1) stays at most 9/10, i.e. 10 I/Os, then waits out its
    // runtime. The second then runs alone and does its whole size.
    let flow = |weight| FlowSpec {
        id: 1,
        weight,
        sleep: Duration::from_micros(100),
    };
    let mut a = null_job("a", RwMode::Read, 1 << 20);
    a.flow = flow(9);
    a.runtime = Some(Duration::from_millis(300));
    let mut b = null_job("b", RwMode::Read, 1 << 20);
    b.flow = flow(1);
    b.stonewall = true;
    b.group_id = 1;
    let r = run_jobs(vec![a, b]);
    assert_eq!(r.jobs[0].dirs.read.total_ios, 10);
    assert_eq!(r.jobs[1].dirs.read.total_ios, 256);
}
