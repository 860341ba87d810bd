//! An iometer run's plan, built from typed values: the spec's job on one target (workers ×
//! outstanding I/Os, ramp and run time), or, when the outstanding I/Os or the workers cycle,
//! one such job per step of the cycle, each waiting for the one before (a sweep's points, with
//! its matrix table).

use super::mix::Translation;
use crate::sweep::axes::{self, Axis};
use crate::sweep::matrix::point_name;
use iomark_engine::job::{EngineKind, JobSpec, RunPlan, SizeSpec, TraceRecord};
use std::path::PathBuf;
use std::time::Duration;

/// A value as typed and as it was written (shown again with the job's options).
#[derive(Clone, Debug, PartialEq)]
pub struct Given<T> {
    pub value: T,
    pub written: String,
}

/// The most outstanding I/Os or workers.
pub const MAX_COUNT: u32 = 65536;

/// Iometer's "# of Outstanding I/Os" or its number of workers: one count, or a cycle of them
/// (a list `1,4,16`, or a range `1..64x2` exponential / `1..64+8` linear).
#[derive(Clone, Debug, PartialEq)]
pub struct Count {
    pub values: Vec<u32>,
    pub written: String,
}

impl Count {
    /// `v` of option `--{what}`; the error is worded for the user.
    pub fn parse(what: &str, v: &str) -> Result<Count, String> {
        let bad =
            || format!("--{what}={v}: expected a count from 1 to {MAX_COUNT}, a list or a range");
        let items = if cycled(v) {
            axes::parse_axis(what, v)
                .map_err(|e| strip_sweep(&e.to_string()))?
                .values
        } else {
            vec![v.to_string()]
        };
        let values = items
            .iter()
            .map(|x| {
                x.parse::<u32>()
                    .ok()
                    .filter(|n| (1..=MAX_COUNT).contains(n))
                    .ok_or_else(bad)
            })
            .collect::<Result<Vec<u32>, String>>()?;
        Ok(Count {
            values,
            written: v.to_string(),
        })
    }

    /// One count.
    pub fn one(n: u32) -> Count {
        Count {
            values: vec![n],
            written: n.to_string(),
        }
    }

    /// Whether the count cycles (one step per value).
    pub fn cycles(&self) -> bool {
        cycled(&self.written)
    }
}

/// A list or a range of values to cycle.
fn cycled(v: &str) -> bool {
    v.contains(',') || v.contains("..")
}

/// A sweep's message without its command's name.
fn strip_sweep(m: &str) -> String {
    m.strip_prefix("sweep: ").unwrap_or(m).to_string()
}

/// What runs the spec: the target and Iometer's Test Setup.
#[derive(Clone, Debug, PartialEq)]
pub struct Setup {
    /// The spec's name: the job's.
    pub name: String,
    /// The file or device, and the bytes of it the job covers.
    pub path: PathBuf,
    pub size: u64,
    pub direct: bool,
    pub ioengine: Given<EngineKind>,
    pub outstanding: Count,
    pub workers: Count,
    pub runtime: Given<Duration>,
    pub ramp: Given<Duration>,
    /// Record every I/O issued (fio's iolog version 3).
    pub iolog: Option<PathBuf>,
}

/// The steps of a cycle: the cycled options (`iodepth`, `numjobs`) and one value of each per
/// step, the last varying fastest, as the sweep's table names them; and each step's outstanding
/// I/Os and workers.
#[derive(Clone, Debug, PartialEq)]
pub struct Steps {
    pub axes: Vec<Axis>,
    pub points: Vec<Vec<String>>,
    /// (outstanding I/Os, workers) per step, in the order of `points`.
    pub counts: Vec<(u32, u32)>,
}

/// The steps when the outstanding I/Os or the workers cycle; None for one run. Refused (worded
/// for the user) past a sweep's most points.
pub fn steps(outstanding: &Count, workers: &Count) -> Result<Option<Steps>, String> {
    // Named as the command line names them for the refusal, as the job options for the table.
    let mut axes: Vec<Axis> = [("outstanding", outstanding), ("workers", workers)]
        .into_iter()
        .filter(|(_, c)| c.cycles())
        .map(|(option, c)| Axis {
            option: option.into(),
            values: c.values.iter().map(u32::to_string).collect(),
        })
        .collect();
    if axes.is_empty() {
        return Ok(None);
    }
    let points = axes::points(&axes).map_err(|e| strip_sweep(&e.to_string()))?;
    for a in &mut axes {
        a.option = if a.option == "outstanding" {
            "iodepth"
        } else {
            "numjobs"
        }
        .into();
    }
    let counts = outstanding
        .values
        .iter()
        .flat_map(|&d| workers.values.iter().map(move |&w| (d, w)))
        .collect();
    Ok(Some(Steps {
        axes,
        points,
        counts,
    }))
}

/// The options every job of the plan shares, in fio's words (shown again, never read back).
fn shown(s: &Setup, t: &Translation, cycled: bool) -> Vec<(String, String)> {
    let flag = if cycled { "1" } else { "" };
    let mut o: Vec<(String, String)> = vec![
        ("filename".into(), s.path.display().to_string()),
        ("size".into(), s.size.to_string()),
        ("ioengine".into(), s.ioengine.written.clone()),
    ];
    for (k, c) in [("iodepth", &s.outstanding), ("numjobs", &s.workers)] {
        if !(cycled && c.cycles()) {
            o.push((k.into(), c.written.clone()));
        }
    }
    o.extend([
        ("runtime".into(), s.runtime.written.clone()),
        ("time_based".into(), flag.into()),
        ("ramp_time".into(), s.ramp.written.clone()),
        ("group_reporting".into(), flag.into()),
        ("direct".into(), u8::from(s.direct).to_string()),
    ]);
    o.extend(t.shape.shown());
    if let Some(f) = &s.iolog {
        o.push(("write_iolog".into(), f.display().to_string()));
    }
    o
}

/// The job of one step: `depth` I/Os outstanding per worker, `workers` workers.
fn job(s: &Setup, t: &Translation, depth: u32, workers: u32) -> JobSpec {
    let mut j = JobSpec {
        name: s.name.clone(),
        filenames: vec![s.path.clone()],
        size: Some(SizeSpec::Bytes(s.size)).filter(|_| s.size > 0),
        ioengine: s.ioengine.value,
        iodepth: depth,
        iodepth_low: depth,
        numjobs: workers,
        runtime: Some(s.runtime.value).filter(|r| !r.is_zero()),
        time_based: true,
        ramp_time: s.ramp.value,
        group_reporting: true,
        direct: s.direct,
        record: s.iolog.as_ref().map(|p| TraceRecord {
            path: p.clone(),
            header: iomark_fio::iolog::HEADER_V3.to_string(),
        }),
        access_mix: t.mix.clone(),
        ..Default::default()
    };
    // As fio's jobs have it (no log is kept; a log would be per clone).
    j.logs.per_job_logs = true;
    t.shape.apply(&mut j);
    j
}

/// The plan of `s` for the spec translated as `t`: one job, or one per step of `steps` (see
/// [`steps`]), each waiting for the one before.
pub fn plan(s: &Setup, t: &Translation, steps: Option<&Steps>) -> RunPlan {
    let Some(st) = steps else {
        let mut j = job(s, t, s.outstanding.values[0], s.workers.values[0]);
        let mut own = vec![("name".to_string(), s.name.clone())];
        own.extend(shown(s, t, false));
        j.shown_options = own.into();
        return RunPlan {
            jobs: vec![j],
            ..Default::default()
        };
    };
    let jobs = st
        .points
        .iter()
        .enumerate()
        .zip(&st.counts)
        .map(|((i, p), &(depth, workers))| {
            let mut j = job(s, t, depth, workers);
            j.name = point_name(&st.axes, p);
            j.group_id = i as u32;
            j.stonewall = true;
            let mut own = vec![("name".to_string(), j.name.clone())];
            own.extend(
                st.axes
                    .iter()
                    .zip(p)
                    .map(|(a, v)| (a.option.clone(), v.clone())),
            );
            own.push(("stonewall".into(), "1".into()));
            j.shown_options = own.into();
            j
        })
        .collect();
    RunPlan {
        jobs,
        shown_global_options: shown(s, t, true).into(),
        ..Default::default()
    }
}
