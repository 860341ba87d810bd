//! iometer's plans are built from typed values: the jobs' values for specs of several lines
//! and a cycle of outstanding I/Os, and each plan equal to the one fio's options for the same
//! run give (the fio front end and the sweep read option text here only as the reference).

use super::mix::{translate, Translation};
use super::plan::{plan, steps, Count, Given, Setup};
use super::spec::parse;
use crate::sweep::{args as sweep_args, axes, matrix};
use iomark_engine::job::{
    AccessLine, BlockSize, EngineKind, PerDir, RunPlan, RwMode, SizeSpec, TraceRecord,
};
use std::path::PathBuf;
use std::time::Duration;

fn setup(outstanding: &str, workers: &str, engine: &str) -> Setup {
    Setup {
        name: "spec".into(),
        path: PathBuf::from("/tmp/iomark-iometer.1.tmp"),
        size: 8 << 20,
        direct: true,
        ioengine: Given {
            value: EngineKind::from_name(engine).unwrap(),
            written: engine.into(),
        },
        outstanding: Count::parse("outstanding", outstanding).unwrap(),
        workers: Count::parse("workers", workers).unwrap(),
        runtime: Given {
            value: Duration::from_millis(500),
            written: "500ms".into(),
        },
        ramp: Given {
            value: Duration::ZERO,
            written: "0".into(),
        },
        iolog: None,
    }
}

fn typed(s: &Setup, spec: &str) -> (Translation, RunPlan) {
    let t = translate(&parse(spec).unwrap());
    let st = steps(&s.outstanding, &s.workers).unwrap();
    let p = plan(s, &t, st.as_ref());
    (t, p)
}

/// File-server's eight lines (all random, one read share) and a cycle of outstanding I/Os
/// with two workers: one stonewalled job per step with the step's depth, the spec's sizes
/// split by weight, the read share, the alignment, the time and the target.
#[test]
fn several_lines_and_a_depth_cycle_make_one_job_per_step() {
    let s = setup("1..16x4", "2", "libaio");
    let (_, p) = typed(&s, "file-server");
    let names: Vec<&str> = p.jobs.iter().map(|j| j.name.as_str()).collect();
    assert_eq!(names, ["iodepth=1", "iodepth=4", "iodepth=16"]);
    let split = vec![
        (512, 10),
        (1024, 5),
        (2048, 5),
        (4096, 60),
        (8192, 2),
        (16384, 4),
        (32768, 4),
        (65536, 10),
    ];
    for (i, (j, depth)) in p.jobs.iter().zip([1, 4, 16]).enumerate() {
        assert_eq!((j.iodepth, j.iodepth_low, j.numjobs), (depth, depth, 2));
        assert_eq!((j.group_id, j.stonewall), (i as u32, true));
        assert_eq!(j.rw, RwMode::RandRw);
        assert_eq!(j.rwmixread, 80);
        assert_eq!(j.bs, PerDir::all(BlockSize::Split(split.clone())));
        assert_eq!(j.blockalign, PerDir::all(Some(512)));
        assert!(j.access_mix.is_none() && !j.norandommap);
        assert_eq!(j.ioengine, EngineKind::Libaio);
        assert_eq!(j.runtime, Some(Duration::from_millis(500)));
        assert!(j.time_based && j.group_reporting && j.direct);
        assert_eq!(j.ramp_time, Duration::ZERO);
        assert_eq!(j.filenames, std::slice::from_ref(&s.path));
        assert_eq!(j.size, Some(SizeSpec::Bytes(8 << 20)));
    }
}

/// Lines that differ in read share, size and % random, with a transfer delay, cycling both
/// the outstanding I/Os and the workers: the jobs follow an access mix (one line per access
/// spec line), under an outline of the directions and sizes; the workers vary fastest.
#[test]
fn an_access_mix_cycles_depth_and_workers() {
    let mut s = setup("1,4", "1..2+1", "io_uring");
    s.iolog = Some(PathBuf::from("io.log"));
    let (_, p) = typed(&s, "4k,80,100@60 64k,20,50,64k,2,4@40");
    let steps: Vec<(u32, u32, &str)> = p
        .jobs
        .iter()
        .map(|j| (j.iodepth, j.numjobs, j.name.as_str()))
        .collect();
    assert_eq!(
        steps,
        [
            (1, 1, "iodepth=1,numjobs=1"),
            (1, 2, "iodepth=1,numjobs=2"),
            (4, 1, "iodepth=4,numjobs=1"),
            (4, 2, "iodepth=4,numjobs=2")
        ]
    );
    let j = &p.jobs[3];
    let mix = j.access_mix.as_ref().unwrap();
    assert_eq!(
        mix.lines[1],
        AccessLine {
            weight: 40,
            size: 65536,
            read_pct: 20,
            random_pct: 50,
            align: 65536,
            delay_ns: 2_000_000,
            burst: 4,
        }
    );
    assert_eq!((mix.lines[0].size, mix.lines[0].align), (4096, 4096));
    assert_eq!(j.rw, RwMode::RandRw);
    // 0.6 x 80 + 0.4 x 20.
    assert_eq!(j.rwmixread, 56);
    let split = vec![(4096, 60), (65536, 40)];
    assert_eq!(j.bs, PerDir::all(BlockSize::Split(split)));
    assert!(j.norandommap);
    assert_eq!(j.ioengine, EngineKind::IoUring);
    assert_eq!(
        j.record,
        Some(TraceRecord {
            path: PathBuf::from("io.log"),
            header: iomark_fio::iolog::HEADER_V3.into()
        })
    );
}

/// The arguments `iomark run` was given for the same run before plans were typed.
fn run_words(s: &Setup, t: &Translation) -> Vec<String> {
    let mut a = vec![
        format!("--name={}", s.name),
        format!("--filename={}", s.path.display()),
        format!("--size={}", s.size),
        format!("--ioengine={}", s.ioengine.written),
        format!("--iodepth={}", s.outstanding.written),
        format!("--numjobs={}", s.workers.written),
        format!("--runtime={}", s.runtime.written),
        "--time_based".into(),
        format!("--ramp_time={}", s.ramp.written),
        "--group_reporting".into(),
        format!("--direct={}", u8::from(s.direct)),
    ];
    a.extend(t.shape.shown().iter().map(|(k, v)| format!("--{k}={v}")));
    if let Some(f) = &s.iolog {
        a.push(format!("--write_iolog={}", f.display()));
    }
    a
}

/// The plan fio's front end (a cycle: the sweep's) makes of the same run, with the access mix.
fn from_words(s: &Setup, t: &Translation) -> RunPlan {
    let words = run_words(s, t);
    let mut p = if s.outstanding.cycles() || s.workers.cycles() {
        let sw: Vec<String> = words
            .iter()
            .filter(|x| !x.starts_with("--name="))
            .map(|x| match x.as_str() {
                "--time_based" | "--group_reporting" => format!("{x}=1"),
                _ => x.clone(),
            })
            .collect();
        let o = sweep_args::parse(&sw).unwrap();
        let points = axes::points(&o.axes).unwrap();
        matrix::plan(&o.axes, &points, &o.fixed).unwrap()
    } else {
        iomark_fio::cmdline::parse_run_args(&words).unwrap().plan
    };
    for j in &mut p.jobs {
        j.access_mix.clone_from(&t.mix);
    }
    p
}

#[test]
fn a_plan_is_the_one_fios_options_give_for_the_same_run() {
    let specs = [
        "4k,70,100",
        "file-server",
        "web-server",
        "workstation",
        "4k,100,0@3 64k,100,0@1",
        "4k,80,100@60;64k,20,100@40",
        "4k,100,100,4k@50;64k,0,100,64k@50",
        "4k,100,100@75;64k,100,0@25",
        "4k,50,100,4k,5,2",
        "64k,0,0,64k",
    ];
    let runs = [
        ("1", "1", "libaio"),
        ("16", "4", "psync"),
        ("1..16x4", "2", "null"),
        ("1,4", "1..2+1", "io_uring"),
        ("8", "1,3", "libaio"),
    ];
    for spec in specs {
        for (i, (out, workers, engine)) in runs.iter().enumerate() {
            let mut s = setup(out, workers, engine);
            s.direct = i % 2 == 0;
            if i == 1 {
                s.iolog = Some(PathBuf::from("io.log"));
                s.ramp = Given {
                    value: Duration::from_secs(1),
                    written: "1s".into(),
                };
            }
            let (t, p) = typed(&s, spec);
            let cycled = s.outstanding.cycles() || s.workers.cycles();
            if cycled && t.shape.shown().iter().any(|(_, v)| v.contains(',')) {
                // Per-direction values (`bssplit=R,W`) read as one more swept option by the
                // sweep's command line: one step per direction's sizes, each with those sizes
                // for both. Typed, each step keeps both directions' sizes.
                let n = steps(&s.outstanding, &s.workers)
                    .unwrap()
                    .unwrap()
                    .points
                    .len();
                assert_eq!(p.jobs.len(), n, "{spec} {out} {workers}");
                assert!(p.jobs.iter().all(|j| j.bs.read != j.bs.write), "{spec}");
                assert_ne!(from_words(&s, &t).jobs.len(), n, "{spec} {out} {workers}");
                continue;
            }
            assert_eq!(p, from_words(&s, &t), "{spec} {out} {workers} {engine}");
        }
    }
}

#[test]
fn counts_and_cycles_are_checked_before_any_plan() {
    let c = Count::parse("outstanding", "1..64x2").unwrap();
    assert_eq!(c.values, [1, 2, 4, 8, 16, 32, 64]);
    assert!(c.cycles() && !Count::one(4).cycles());
    let e = |v: &str| Count::parse("workers", v).unwrap_err();
    assert_eq!(
        e("0"),
        "--workers=0: expected a count from 1 to 65536, a list or a range"
    );
    assert_eq!(
        e("1,x"),
        "--workers=1,x: expected a count from 1 to 65536, a list or a range"
    );
    assert!(
        e("1,,2").starts_with("--workers: empty item"),
        "{}",
        e("1,,2")
    );
    assert!(
        e("8..1").contains("the start is past the end"),
        "{}",
        e("8..1")
    );
    let s = setup("1..10000+1", "1..3+1", "null");
    let m = steps(&s.outstanding, &s.workers).unwrap_err();
    assert!(
        m.starts_with("30000 points (10000 outstanding x 3 workers) is more than 10000"),
        "{m}"
    );
    assert_eq!(steps(&Count::one(4), &Count::one(2)).unwrap(), None);
}
