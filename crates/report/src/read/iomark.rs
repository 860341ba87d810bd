//! iomark's own result files (`--result FILE`, format `iomark-result/N`): read through the
//! engine's result model, clones of a job merged exactly (histograms add).

use super::resample::{resample, Combine, Sample};
use crate::model::{CloneFigures, DirFigures, DirSeries, Job, Lat, Signature, Source};
use crate::read::units::utc;
use crate::ReportError;
use iomark_engine::hist::Histogram;
use iomark_engine::job::{BlockSize, Dir, JobSpec};
use iomark_engine::result::{JobResult, LatRecord, LogEntry, RunResult, RESULT_FORMAT};
use std::collections::BTreeMap;
use std::path::Path;

pub(super) fn read(
    path: &Path,
    bytes: &[u8],
    v: &serde_json::Value,
) -> Result<Source, ReportError> {
    let format = v.get("format").and_then(|f| f.as_str()).unwrap_or("");
    let bad = |detail: String| ReportError::BadResult {
        path: path.to_path_buf(),
        detail,
    };
    if WRAPPERS.contains(&format) {
        return wrapped(path, bytes);
    }
    if format != RESULT_FORMAT {
        let newer = format
            .strip_prefix("iomark-result/")
            .and_then(|n| n.parse::<u32>().ok())
            .is_some_and(|n| n > 1);
        let what = if newer {
            "written by a newer iomark"
        } else {
            "an unknown format"
        };
        return Err(bad(format!(
            "{what}: format '{}' (this iomark reads '{RESULT_FORMAT}')",
            format.chars().take(40).collect::<String>()
        )));
    }
    let r = RunResult::from_json(bytes).map_err(|e| bad(e.to_string()))?;
    Ok(from_result(&r))
}

/// Files that hold whole results under `runs`: a preset's (`--result` of `preset run`) and a
/// repeated run's (`run --repeat`).
const WRAPPERS: [&str; 2] = ["iomark-preset/1", "iomark-repeat/1"];

/// A preset's or repeated run's file: its first run, the others as repetitions.
fn wrapped(path: &Path, bytes: &[u8]) -> Result<Source, ReportError> {
    // Straight from the bytes: the runs hold 128-bit sums a serde_json::Value cannot.
    #[derive(serde::Deserialize)]
    struct Doc {
        runs: Vec<RunResult>,
    }
    let d: Doc = serde_json::from_slice(bytes).map_err(|e| ReportError::BadResult {
        path: path.to_path_buf(),
        detail: e.to_string(),
    })?;
    let mut runs = d.runs.iter();
    let Some(first) = runs.next() else {
        return Err(ReportError::BadResult {
            path: path.to_path_buf(),
            detail: "it holds no runs".into(),
        });
    };
    let mut s = from_result(first);
    for r in runs {
        super::add_repetition(&mut s, from_result(r));
    }
    if s.repetitions > 1 {
        s.notes.push(format!(
            "figures are the mean of the {} runs in the file",
            s.repetitions
        ));
    }
    Ok(s)
}

/// The facts of the system under a target: driver, firmware, queue, cache, mount, layers.
fn system_parts(t: &iomark_engine::result::TargetInfo) -> Vec<String> {
    let mut parts = Vec::new();
    if let Some(d) = &t.driver {
        parts.push(format!("driver {d}"));
    }
    if let Some(fw) = &t.firmware {
        parts.push(format!("firmware {fw}"));
    }
    if let Some(n) = t.nr_requests {
        parts.push(format!("nr_requests {n}"));
    }
    if let Some(c) = &t.write_cache {
        parts.push(format!("cache {c}"));
    }
    if let Some(o) = &t.mount_options {
        parts.push(format!("mounted {o}"));
    }
    if let Some(b) = t.free_bytes {
        parts.push(format!("{:.1} GiB free", b as f64 / (1u64 << 30) as f64));
    }
    parts.extend(t.layers.iter().cloned());
    parts
}

/// The facts of the host a run ran on: name, kernel, distribution, CPU, machine,
/// virtualization, cloud, CPUs and memory (those recorded).
pub(super) fn host_facts(h: &iomark_engine::result::HostInfo, f: &mut Vec<(String, String)>) {
    f.push(("host".into(), h.hostname.clone()));
    f.push(("kernel".into(), h.kernel.clone()));
    for (k, v) in [
        ("distribution", &h.os),
        ("CPU model", &h.cpu_model),
        ("machine", &h.machine),
        ("virtualization", &h.virtualization),
        ("cloud", &h.cloud),
    ] {
        if !v.is_empty() {
            f.push((k.into(), v.clone()));
        }
    }
    f.push(("CPUs".into(), h.cpus.to_string()));
    f.push((
        "memory".into(),
        format!("{:.1} GiB", h.mem_bytes as f64 / (1u64 << 30) as f64),
    ));
}

/// A [`Source`] from a run's result (what `--report` on a run draws): the facts of the run,
/// its host and its targets, its notes and tables, then its jobs, one repetition after the
/// other.
pub fn from_result(r: &RunResult) -> Source {
    let mut s = Source {
        tool: format!("iomark-{}", r.iomark_version),
        repetitions: 1,
        ..Default::default()
    };
    s.facts = run_facts(r, &s.tool);
    s.facts.extend(target_facts(r));
    // Reports word the engine's notes in its own neutral terms.
    s.notes = r.notes.iter().map(|n| n.to_string()).collect();
    s.tables = r.tables.clone();
    if let Some((tables, fact)) = super::cluster::tables(r) {
        s.facts.push(("ranks".into(), fact));
        s.tables.extend(tables);
    }
    if r.interrupted {
        s.notes
            .push("the run was interrupted: figures cover the time before".into());
    }
    s.disk_util = r
        .disk_util
        .iter()
        .map(|d| (d.name.clone(), d.util))
        .collect();
    add_jobs(&mut s, r);
    s
}

/// The facts of the run and of its host: command line, tool, date, the system, the global
/// options.
fn run_facts(r: &RunResult, tool: &str) -> Vec<(String, String)> {
    let mut f = Vec::new();
    if !r.command_line.is_empty() {
        f.push(("command line".into(), shell_words(&r.command_line)));
    }
    f.push(("tool".into(), tool.to_string()));
    f.push(("date".into(), utc(r.start_unix_ms)));
    host_facts(&r.host, &mut f);
    if !r.plan.shown_global_options.is_empty() {
        f.push(("global options".into(), opts(&r.plan.shown_global_options)));
    }
    f
}

/// One fact per target of the run's jobs (each once): its kind, device, model, file system,
/// logical block, scheduler, rotation and system.
fn target_facts(r: &RunResult) -> Vec<(String, String)> {
    let mut f = Vec::new();
    let mut targets = Vec::new();
    for j in &r.jobs {
        for t in &j.targets {
            if !targets
                .iter()
                .any(|x: &&iomark_engine::result::TargetInfo| x.path == t.path)
            {
                targets.push(t);
            }
        }
    }
    for t in targets {
        let mut parts = vec![t.kind.clone()];
        if let Some(d) = &t.device {
            parts.push(format!("device {d}"));
        }
        if let Some(m) = &t.device_model {
            parts.push(format!("model {m}"));
        }
        if let Some(fs) = &t.fs_type {
            parts.push(format!("filesystem {fs}"));
        }
        parts.push(format!("logical block {} B", t.logical_block_size));
        if let Some(sch) = &t.scheduler {
            parts.push(format!("scheduler {sch}"));
        }
        if let Some(rot) = t.rotational {
            parts.push(if rot { "rotational" } else { "non-rotational" }.into());
        }
        parts.extend(system_parts(t));
        f.push((format!("target {}", t.path), parts.join(", ")));
    }
    f
}

/// The run's jobs into `s`, clones of a job together: the first repetition's as its jobs,
/// each later one as a repetition of them.
fn add_jobs(s: &mut Source, r: &RunResult) {
    let reps = repetitions(r);
    let n = reps.len();
    for (k, rep) in reps.into_iter().enumerate() {
        let mut part = Source {
            repetitions: 1,
            ..Default::default()
        };
        for clones in rep {
            // A suite's steps each number their jobs from 0: the plan's job of that name.
            let name = &clones[0].name;
            let spec = r
                .plan
                .jobs
                .get(clones[0].job_index)
                .filter(|p| &p.name == name)
                .or_else(|| r.plan.jobs.iter().find(|p| &p.name == name));
            for n in clones.iter().flat_map(|c| &c.notes) {
                s.add_note(n.to_string());
            }
            part.jobs.push(job(spec, &clones));
        }
        if k == 0 {
            s.jobs = part.jobs;
        } else {
            super::add_repetition(s, part);
        }
    }
    if n > 1 {
        s.notes.push(format!(
            "figures are the mean of the {n} runs of every test in the file"
        ));
    }
}

/// The jobs of a result, clones of one job together (same plan index and name), in the order
/// they ran, per repetition: a suite that runs its tests several times into one result
/// (`bonnie -x 3`) numbers every test's job from 0 again, so a clone number seen again starts
/// the next repetition.
fn repetitions(r: &RunResult) -> Vec<Vec<Vec<&JobResult>>> {
    let mut reps: Vec<Vec<Vec<&JobResult>>> = Vec::new();
    for j in r.jobs.iter().filter(|j| j.ran) {
        let same = |c: &Vec<&JobResult>| c[0].job_index == j.job_index && c[0].name == j.name;
        // The first repetition without this clone of this job.
        let free = reps.iter_mut().find(|rep| {
            !rep.iter()
                .find(|c| same(c))
                .is_some_and(|g| g.iter().any(|c| c.clone == j.clone))
        });
        let rep = match free {
            Some(rep) => rep,
            None => {
                reps.push(Vec::new());
                reps.last_mut().expect("just pushed")
            }
        };
        match rep.iter_mut().find(|c| same(c)) {
            Some(g) => g.push(j),
            None => rep.push(vec![j]),
        }
    }
    reps
}

/// A command line as a shell would take it back: words with anything but letters, digits and
/// `-_=.,/:+@%` in single quotes.
pub fn shell_words(args: &[String]) -> String {
    args.iter()
        .map(|a| {
            let plain = !a.is_empty()
                && a.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_=.,/:+@%".contains(c));
            if plain {
                a.clone()
            } else {
                format!("'{}'", a.replace('\'', "'\\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn opts(o: &[(String, String)]) -> String {
    o.iter()
        .map(|(k, v)| {
            if v.is_empty() {
                k.clone()
            } else {
                format!("{k}={v}")
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn signature(spec: &JobSpec) -> Signature {
    let d = if spec.rw.has_read() {
        &spec.bs.read
    } else {
        &spec.bs.write
    };
    Signature {
        rw: spec.rw.fio_name().to_string(),
        bs: match d {
            BlockSize::Fixed(b) => *b,
            _ => 0,
        },
        iodepth: spec.iodepth,
        numjobs: spec.numjobs,
        rwmixread: if spec.rw.has_read() && !spec.rw.has_write() {
            100
        } else if !spec.rw.has_read() {
            0
        } else {
            spec.rwmixread
        },
    }
}

/// The workload of a job the plan does not describe (a suite's step): the directions it
/// moved data in and its block size when every I/O had the same.
fn measured_signature(m: &JobResult, clones: usize) -> Signature {
    let (r, w) = (&m.dirs[Dir::Read], &m.dirs[Dir::Write]);
    let rw = match (r.total_ios > 0, w.total_ios > 0) {
        (true, true) => "rw",
        (true, false) => "read",
        _ => "write",
    };
    let d = if r.total_ios > 0 { r } else { w };
    Signature {
        rw: rw.into(),
        bs: if d.total_ios > 0 && d.io_bytes % d.total_ios == 0 {
            d.io_bytes / d.total_ios
        } else {
            0
        },
        iodepth: 1,
        numjobs: clones as u32,
        rwmixread: if rw == "read" { 100 } else { 0 },
    }
}

pub(crate) fn lat(r: &LatRecord) -> Option<Lat> {
    if r.stat.n == 0 {
        return None;
    }
    const PS: [f64; 17] = [
        1.0, 5.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0, 90.0, 95.0, 99.0, 99.5, 99.9,
        99.95, 99.99,
    ];
    Some(Lat {
        n: r.stat.n,
        min_ns: r.stat.min_or_zero() as f64,
        max_ns: r.stat.max_or_zero() as f64,
        mean_ns: r.stat.mean(),
        stddev_ns: r.stat.stddev(),
        percentiles: r
            .hist
            .percentiles(&PS)
            .into_iter()
            .map(|(p, v)| (p, v as f64))
            .collect(),
        bins: r
            .hist
            .bins()
            .into_iter()
            .map(|(v, c)| (v as f64, c))
            .collect(),
    })
}

fn job(spec: Option<&JobSpec>, clones: &[&JobResult]) -> Job {
    let mut m = clones[0].stats_only();
    for c in &clones[1..] {
        m.merge_stats(c);
    }
    let mut job = Job {
        name: m.name.clone(),
        signature: spec.map_or_else(|| measured_signature(&m, clones.len()), signature),
        sync: lat(&m.sync),
        error: (m.error != 0).then(|| {
            m.failure
                .as_ref()
                .map_or(format!("error {}", m.error), |f| f.to_string())
        }),
        ..Default::default()
    };
    if m.runtime_ms > 0 {
        let us = m.runtime_ms as f64 * 1000.0;
        job.usr_cpu_pct = Some(m.cpu.usr_us as f64 / us * 100.0);
        job.sys_cpu_pct = Some(m.cpu.sys_us as f64 / us * 100.0);
    }
    for d in Dir::ALL {
        let r = &m.dirs[d];
        if r.total_ios == 0 {
            continue;
        }
        let mut f = DirFigures {
            dir: d.name(),
            io_bytes: r.io_bytes,
            total_ios: r.total_ios,
            runtime_ms: r.runtime_ms,
            // The job's microseconds, when they are this direction's milliseconds.
            runtime_us: if m.runtime_us.abs_diff(r.runtime_ms * 1000) < 1000 {
                m.runtime_us
            } else {
                0
            },
            slat: lat(&r.slat),
            clat: lat(&r.clat),
            lat: lat(&r.lat),
            series: series(clones, d),
            reps: Vec::new(),
            dist_first_only: false,
        };
        f.reps.push(f.headline());
        job.dirs.push(f);
    }
    if clones.len() > 1 {
        for c in clones {
            let mut cf = CloneFigures {
                label: format!("{} #{}", c.name, c.clone),
                ..Default::default()
            };
            for d in &job.dirs {
                let dir = Dir::ALL
                    .into_iter()
                    .find(|x| x.name() == d.dir)
                    .unwrap_or(Dir::Read);
                let r = &c.dirs[dir];
                let secs = r.runtime_ms.max(1) as f64 / 1000.0;
                cf.iops.push(r.total_ios as f64 / secs);
                cf.bw.push(r.io_bytes as f64 / secs);
            }
            job.clones.push(cf);
        }
    }
    job
}

/// Interval series of direction `d` over all clones, on one grid of windows (see
/// [`super::resample`]): bandwidth and IOPS add across clones, latency averages, per-interval
/// histograms add (at 100 ms resolution).
fn series(clones: &[&JobResult], d: Dir) -> DirSeries {
    let ddir = d.idx() as u8;
    let key = |t: u64| (t + 50) / 100;
    let sum = |get: fn(&JobResult) -> &Vec<LogEntry>, kind: u8| {
        let per_io = clones
            .iter()
            .any(|c| get(c).iter().any(|e| e.ddir == ddir && e.bs != 0));
        let srcs: Vec<Vec<Sample>> = clones
            .iter()
            .map(|c| {
                get(c)
                    .iter()
                    .filter(|e| e.ddir == ddir)
                    .map(|e| {
                        let v = match (per_io, kind) {
                            (true, 0) => e.bs as f64 / 1024.0,
                            (true, 1) => 1.0,
                            _ => e.value as f64,
                        };
                        (e.t_ms, v)
                    })
                    .collect()
            })
            .collect();
        let how = if kind == 2 {
            Combine::Mean
        } else {
            Combine::Add
        };
        resample(&srcs, per_io, how)
    };
    let mut hists: BTreeMap<u64, Histogram> = BTreeMap::new();
    for c in clones {
        for h in c.series.hist.iter().filter(|h| h.ddir == ddir) {
            hists.entry(key(h.t_ms)).or_default().merge(&h.hist);
        }
    }
    DirSeries {
        bw_kib: sum(|c| &c.series.bw, 0),
        iops: sum(|c| &c.series.iops, 1),
        lat_ns: sum(|c| &c.series.clat, 2),
        pct_ns: hists
            .into_iter()
            .filter(|(_, h)| !h.is_empty())
            .map(|(k, h)| {
                let p = h.percentiles(&[50.0, 99.0, 99.9]);
                (k as f64 / 10.0, p[0].1 as f64, p[1].1 as f64, p[2].1 as f64)
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::resample::time_weighted_mean;
    use super::*;

    fn e(t_ms: u64, value: u64, bs: u64) -> LogEntry {
        LogEntry {
            t_ms,
            value,
            ddir: 1,
            bs,
            ..Default::default()
        }
    }

    /// A suite's result (bonnie -x 2): every test's job numbered 0, the tests run twice. Each
    /// test is a job of its own with two repetitions, not clones of the first test.
    #[test]
    fn suite_tests_are_jobs_of_their_own() {
        let mut r = RunResult::default();
        r.plan.jobs = ["block-output", "block-input"]
            .map(|n| JobSpec {
                name: n.into(),
                ..Default::default()
            })
            .to_vec();
        for ios in [100, 300] {
            for n in ["per-char-output", "block-output", "random-seeks"] {
                let mut j = JobResult {
                    name: n.into(),
                    ran: true,
                    ..Default::default()
                };
                j.dirs.read.total_ios = ios;
                j.dirs.read.runtime_ms = 1000;
                r.jobs.push(j);
            }
        }
        let s = from_result(&r);
        let names: Vec<&str> = s.jobs.iter().map(|j| j.name.as_str()).collect();
        assert_eq!(names, ["per-char-output", "block-output", "random-seeks"]);
        for j in &s.jobs {
            assert_eq!(
                j.dirs[0].samples(crate::model::Figure::Iops),
                [100.0, 300.0]
            );
        }
        assert_eq!(s.repetitions, 2);
        assert_eq!(
            s.jobs[2].signature.rw, "read",
            "the plan's first job is not every test's"
        );
        // Runs shorter than a millisecond have rates from their microseconds (iozone's small
        // cells read 0 or whole-millisecond multiples from milliseconds alone).
        let mut r = RunResult::default();
        let mut j = JobResult {
            name: "cell".into(),
            ran: true,
            runtime_ms: 0,
            runtime_us: 160,
            ..Default::default()
        };
        j.dirs.write.total_ios = 16;
        j.dirs.write.io_bytes = 16 * 8192;
        j.dirs.write.runtime_ms = 0;
        r.jobs.push(j);
        let s = from_result(&r);
        let iops = s.jobs[0].dirs[0].figure(crate::model::Figure::Iops);
        assert_eq!(iops, Some(100_000.0));
        // Clones of one job (numjobs=2) stay one job of one run.
        let mut r = RunResult::default();
        for c in 0..2 {
            let mut j = JobResult {
                name: "x".into(),
                clone: c,
                ran: true,
                ..Default::default()
            };
            j.dirs.read.total_ios = 100;
            j.dirs.read.runtime_ms = 1000;
            r.jobs.push(j);
        }
        let s = from_result(&r);
        assert_eq!(s.jobs.len(), 1);
        assert_eq!(
            s.jobs[0].dirs[0].samples(crate::model::Figure::Iops),
            [200.0]
        );
    }

    /// The last window's entry at the time of the one before it (9,616 then 64,364 IOPS at
    /// 1,500 ms) is not added into a spike; per-I/O entries give IOPS per second.
    #[test]
    fn series_have_the_jobs_mean_and_no_end_spike() {
        let mut c = JobResult::default();
        c.series.iops = vec![
            e(500, 25_000, 0),
            e(1000, 25_000, 0),
            e(1500, 24_000, 0),
            e(1500, 64_364, 0),
        ];
        let s = series(&[&c], Dir::Write);
        assert!(s.iops.iter().all(|p| p.1 <= 25_000.0), "{:?}", s.iops);
        let m = time_weighted_mean(&s.iops);
        assert!((m - 24_666.7).abs() < 0.02 * 24_666.7, "{m}");
        let mut io = JobResult::default();
        io.series.iops = (0..2500u64).map(|k| e(k * 1000 / 2500, 1, 4096)).collect();
        io.series.bw = io.series.iops.clone();
        let s = series(&[&io], Dir::Write);
        let m = time_weighted_mean(&s.iops);
        assert!((m - 2500.0).abs() < 50.0, "{m}: {:?}", s.iops);
        let bw = time_weighted_mean(&s.bw_kib);
        assert!((bw - 10_000.0).abs() < 200.0, "{bw}");
    }
}
