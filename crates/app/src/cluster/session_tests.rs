//! The session of many ranks over the in-process transport: the preflight, the start gates and
//! the gather on rank 0, then the merge of the gathered results, without MPI.

use super::local::{world, Local};
use super::session::{Outcome, Session};
use super::Refusal;
use iomark_engine::job::{BlockSize, EngineKind, JobSpec, PerDir, RwMode, SizeSpec};
use iomark_engine::runner::RunCtl;
use iomark_engine::RunPlan;
use std::path::Path;
use std::time::Duration;

const SIZE: u64 = 1 << 20;

/// Two groups (the second behind a stonewall) of jobs on the null engine, each moving SIZE.
fn plan(dir: &Path) -> RunPlan {
    let job = |name: &str, stonewall: bool| JobSpec {
        name: name.into(),
        rw: RwMode::Write,
        filenames: vec![dir.join(name)],
        size: Some(SizeSpec::Bytes(SIZE)),
        bs: PerDir::all(BlockSize::Fixed(4096)),
        ioengine: EngineKind::Null,
        iodepth: 1,
        iodepth_low: 1,
        stonewall,
        ..Default::default()
    };
    RunPlan {
        jobs: vec![job("a", false), job("b", true)],
        ..Default::default()
    }
}

/// Runs the plan on `n` ranks, each a thread; `refuses(r)` is rank r's refusal. The outcomes
/// in rank order.
fn launch(n: usize, refuses: fn(usize) -> Option<Refusal>) -> Vec<Outcome> {
    let dir = tempfile::tempdir().unwrap();
    let plan = plan(dir.path());
    let ranks: Vec<_> = world(n)
        .into_iter()
        .enumerate()
        .map(|(r, link): (usize, Local)| {
            let plan = plan.clone();
            std::thread::spawn(move || {
                let mut s = Session {
                    link,
                    host: format!("h{r}"),
                    // Long enough never to end a slow machine's run: this checks messages, not time.
                    timeout: Duration::from_secs(600),
                    verbose: false,
                };
                s.run(&plan, refuses(r), RunCtl::quiet())
            })
        })
        .collect();
    ranks.into_iter().map(|t| t.join().unwrap()).collect()
}

#[test]
fn rank_zero_gathers_every_ranks_whole_result_in_rank_order() {
    let mut out = launch(3, |_| None);
    let rest = out.split_off(1);
    let Outcome::Gathered(ranks) = out.remove(0) else {
        panic!("rank 0 did not gather");
    };
    assert!(rest.iter().all(|o| matches!(o, Outcome::Sent(_))));
    let who: Vec<(usize, &str)> = ranks.iter().map(|r| (r.rank, r.host.as_str())).collect();
    assert_eq!(who, vec![(0, "h0"), (1, "h1"), (2, "h2")]);
    for r in &ranks {
        let moved: Vec<u64> = r
            .result
            .jobs
            .iter()
            .map(|j| j.dirs.write.io_bytes)
            .collect();
        assert_eq!(moved, vec![SIZE, SIZE], "rank {}", r.rank);
    }
    let merged = super::out::merge(ranks).unwrap();
    let moved: Vec<u64> = merged.jobs.iter().map(|j| j.dirs.write.io_bytes).collect();
    assert_eq!(moved, vec![3 * SIZE, 3 * SIZE]);
}

#[test]
fn one_refusal_stops_every_rank_before_any_io_and_names_it() {
    let out = launch(3, |r| {
        (r == 2).then(|| Refusal::failed("the target is mounted"))
    });
    let said: Vec<String> = out
        .into_iter()
        .map(|o| match o {
            Outcome::Refused(m) => m.why,
            _ => panic!("a rank ran although rank 2 refused"),
        })
        .collect();
    assert!(
        said[0].starts_with("rank 2 on h2 refuses the run: the target is mounted\n"),
        "{}",
        said[0]
    );
    assert!(said[0].ends_with("no rank did any I/O (1 of 3 refused)"));
    assert!(said.iter().all(|m| m == &said[0]));
}

#[test]
fn a_refused_result_file_gives_every_rank_the_status_of_bad_input() {
    let out = launch(3, |r| match r {
        0 => Some(Refusal::bad_input("/dev/zero is a device")),
        2 => Some(Refusal::failed("the target is mounted")),
        _ => None,
    });
    for o in out {
        let Outcome::Refused(v) = o else {
            panic!("a rank ran although two refused");
        };
        assert_eq!(v.code, crate::session::exit::BAD_INPUT, "{}", v.why);
        assert!(v
            .why
            .contains("rank 0 on h0 refuses the run: /dev/zero is a device\n"));
        assert!(v
            .why
            .contains("rank 2 on h2 refuses the run: the target is mounted\n"));
    }
    let out = launch(2, |r| (r == 1).then(|| Refusal::failed("mounted")));
    assert!(out
        .iter()
        .all(|o| matches!(o, Outcome::Refused(v) if v.code == crate::session::exit::FAILED)));
}
