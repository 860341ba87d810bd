//! Whole runs on the null engine for an `io_size` larger than the size: the job goes round
//! its files again, pass after pass, as fio does; the offsets are read from the job's I/O log.

use crate::job::{BlockSize, EngineKind, JobSpec, PerDir, RunPlan, RwMode, SizeSpec, TraceRecord};
use crate::runner::{run, RunCtl};
use crate::test_support::TempDir;

const M: u64 = 1 << 20;

/// The offsets `job` logs for its reads and writes, in order.
fn logged_offsets(mut job: JobSpec) -> Vec<u64> {
    let dir = TempDir::new("wrap");
    let log = dir.join("iolog");
    job.record = Some(TraceRecord {
        path: log.clone(),
        header: "fio version 3 iolog".into(),
    });
    let r = run(
        &RunPlan {
            jobs: vec![job],
            ..Default::default()
        },
        &RunCtl::quiet(),
    )
    .unwrap();
    assert_eq!(r.jobs[0].error, 0, "{:?}", r.jobs[0].failure);
    let text = std::fs::read_to_string(&log).unwrap();
    text.lines()
        .filter_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            match f.as_slice() {
                [_, _, "read" | "write", off, _] => off.parse().ok(),
                _ => None,
            }
        })
        .collect()
}

fn job(rw: RwMode, size: u64, io_size: u64) -> JobSpec {
    JobSpec {
        name: "wrap".into(),
        rw,
        filenames: vec!["/nonexistent/iomark-wrap".into()],
        size: Some(SizeSpec::Bytes(size)),
        io_size: Some(SizeSpec::Bytes(io_size)),
        bs: PerDir::all(BlockSize::Fixed(4096)),
        ioengine: EngineKind::Null,
        ..Default::default()
    }
}

#[test]
fn sequential_reads_go_round_the_file() {
    // fio 3.33, size=1m io_size=4m bs=4k rw=read: 1024 reads, 0..1 MiB four times.
    let got = logged_offsets(job(RwMode::Read, M, 4 * M));
    let pass: Vec<u64> = (0..256).map(|i| i * 4096).collect();
    assert_eq!(got, pass.repeat(4));
}

#[test]
fn a_partial_last_pass_stops_at_io_size() {
    // io_size=2.5m: two whole passes and half of a third.
    let got = logged_offsets(job(RwMode::Write, M, 2560 << 10));
    let pass: Vec<u64> = (0..256).map(|i| i * 4096).collect();
    let mut want = pass.repeat(2);
    want.extend_from_slice(&pass[..128]);
    assert_eq!(got, want);
}

#[test]
fn random_passes_cover_every_block_and_repeat_with_randrepeat() {
    let got = logged_offsets(job(RwMode::RandRead, M, 3 * M));
    assert_eq!(got.len(), 768);
    let passes: Vec<&[u64]> = got.chunks(256).collect();
    let mut first = passes[0].to_vec();
    first.sort_unstable();
    assert_eq!(first, (0..256).map(|i| i * 4096).collect::<Vec<u64>>());
    // randrepeat (the default): each pass draws the first one's offsets again, as fio
    // seeds its streams again for every pass.
    assert_eq!(passes[0], passes[1]);
    assert_eq!(passes[1], passes[2]);
}

#[test]
fn io_size_below_size_over_loops_is_one_longer_pass() {
    // fio 3.33, size=4m io_size=1m loops=2: 512 reads from 0 to 2 MiB in one pass.
    let mut j = job(RwMode::Read, 4 * M, M);
    j.loops = 2;
    let got = logged_offsets(j);
    assert_eq!(got, (0..512).map(|i| i * 4096).collect::<Vec<u64>>());
}

#[test]
fn several_files_each_go_round() {
    // nrfiles=2 sharing size=2m (1 MiB each), io_size=4m: each file read twice.
    let mut j = job(RwMode::Read, 2 * M, 4 * M);
    j.filenames = vec![
        "/nonexistent/iomark-wrap-a".into(),
        "/nonexistent/iomark-wrap-b".into(),
    ];
    j.nrfiles = 2;
    let got = logged_offsets(j);
    assert_eq!(got.len(), 1024);
}
