//! `iomark sweep`: the binary's side (iomark-scenarios parses, plans and tabulates): the target,
//! the run, the output and the latency-target search's measurements; a front end's typed plan
//! of points (iometer's cycles) runs here too, in its own session.

use crate::progress::steps;
use crate::session::{exit, signals, Session};
use iomark_engine::job::{Dir, RunPlan};
use iomark_engine::result::{LatRecord, RunResult};
use iomark_engine::runner;
use iomark_fio::output;
use iomark_scenarios::preset::target;
use iomark_scenarios::sweep::args::{self, SweepOpts};
use iomark_scenarios::sweep::axes::{self, Axis};
use iomark_scenarios::sweep::{matrix, search};
use std::path::PathBuf;

/// `iomark sweep ARGS...`; returns the exit code.
pub fn main(a: &[String]) -> i32 {
    let mut o = match args::parse(a) {
        Ok(o) if o.help => {
            return crate::session::pipe::print_text(args::USAGE);
        }
        Ok(o) => o,
        Err(e) => {
            eprintln!("iomark {e}");
            return 2;
        }
    };
    let has = |o: &SweepOpts, k: &str| o.fixed.iter().any(|(x, _)| x == k);
    // The result file is checked before any I/O (never the target, a device, a missing
    // directory).
    let targets: Vec<PathBuf> = o
        .fixed
        .iter()
        .filter(|(k, _)| k == "filename")
        .flat_map(|(_, v)| v.split(':').map(PathBuf::from).collect::<Vec<_>>())
        .collect();
    let mut session = Session::said("sweep");
    if let Err(code) = session.result_file(o.result.as_deref(), &targets) {
        return code;
    }
    let mut temp: Option<PathBuf> = None;
    if !has(&o, "filename") && !has(&o, "directory") {
        let size = o
            .fixed
            .iter()
            .find(|(k, _)| k == "size")
            .map(|(_, v)| v.clone());
        let bytes = match &size {
            Some(v) => match iomark_fio::values::parse_size(v, 1024) {
                Ok(b) => b,
                Err(e) => {
                    eprintln!("iomark sweep: --size={v}: {e}");
                    return 2;
                }
            },
            None => 256 << 20,
        };
        let t = match target::choose("sweep", None, false, bytes, size.is_some()) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("iomark sweep: {e}");
                return 1;
            }
        };
        for n in &t.notices {
            eprintln!("iomark sweep: {n}");
        }
        o.fixed.retain(|(k, _)| k != "size");
        o.fixed
            .push(("filename".into(), t.path.display().to_string()));
        o.fixed.push(("size".into(), t.size.to_string()));
        temp = Some(t.path);
    } else if let Some((_, f)) = o.fixed.iter().find(|(k, _)| k == "filename") {
        let p = PathBuf::from(f);
        if p.exists() && !o.allow_write {
            eprintln!(
                "iomark sweep: {f} already exists; the sweep may write to it, destroying its data: pass --allow-write to do that"
            );
            return 2;
        }
    }
    if !has(&o, "runtime") {
        o.fixed.push(("runtime".into(), "5s".into()));
        o.fixed.push(("time_based".into(), "1".into()));
    }
    if let Some(t) = &temp {
        signals::register_temp(t);
    }
    let code = match o.latency_target.clone() {
        Some(t) => latency_search(&o, &t, &session),
        None => sweep(&o, &session),
    };
    if let Some(t) = &temp {
        let _ = std::fs::remove_file(t);
        signals::clear_temp();
    }
    if session.interrupted() {
        return exit::INTERRUPTED;
    }
    code
}

fn sweep(o: &SweepOpts, session: &Session) -> i32 {
    let points = match axes::points(&o.axes) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("iomark {e}");
            return 2;
        }
    };
    let plan = match matrix::plan(&o.axes, &points, &o.fixed) {
        Ok(p) => modelled(p, o),
        Err(e) => {
            eprintln!("iomark sweep: {e}");
            return 2;
        }
    };
    let table = Table {
        axes: &o.axes,
        points: &points,
        rows: o.rows.as_deref(),
        cols: o.cols.as_deref(),
        show: o.show,
    };
    run_points(&plan, &table, session)
}

/// A sweep's points and how its matrix shows them.
pub struct Table<'a> {
    pub axes: &'a [Axis],
    /// One value per axis for each job of the plan, in order.
    pub points: &'a [Vec<String>],
    pub rows: Option<&'a str>,
    pub cols: Option<&'a str>,
    pub show: matrix::Show,
}

/// A front end's typed plan of points (one stonewalled job per point, see `table`) run as
/// `iomark sweep` runs its points, in the session of `tool` with its result file taken from
/// `result`. The exit status.
pub fn run_typed(
    tool: &str,
    plan: &RunPlan,
    table: &Table,
    result: Option<&std::path::Path>,
) -> i32 {
    let mut session = Session::said(tool);
    let targets: Vec<PathBuf> = plan
        .jobs
        .iter()
        .flat_map(|j| j.filenames.iter().cloned())
        .collect();
    if let Err(code) = session.result_file(result, &targets) {
        return code;
    }
    let code = run_points(plan, table, &session);
    if session.interrupted() {
        return exit::INTERRUPTED;
    }
    code
}

/// Runs the points of `plan`, then prints fio's normal output and the matrix, and keeps the
/// result (with the points' table); the exit status.
fn run_points(plan: &RunPlan, t: &Table, session: &Session) -> i32 {
    let tool = session.tool();
    eprintln!(
        "iomark {tool}: {} points, in this order: {} (the last varies fastest)",
        t.points.len(),
        t.axes
            .iter()
            .map(|a| a.option.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    );
    let level = steps::by_jobs("point", t.points.len());
    let watch = session.watch(Vec::new(), false);
    let res = runner::run(plan, &session.ctl);
    watch.stop();
    drop(level);
    let mut res = match res {
        Ok(r) => r,
        Err(e) => {
            eprintln!("iomark {tool}: {e}");
            return 1;
        }
    };
    session.mark(&mut res);
    res.tables.push(iomark_scenarios::sweep::table::table(
        t.axes, t.points, &res,
    ));
    print!("{}", output::normal::preamble(plan));
    print!("{}", output::normal::render(&res));
    let values: Vec<f64> = (0..t.points.len())
        .map(|i| matrix::figure(&res, i, t.show))
        .collect();
    print!(
        "{}",
        matrix::table(t.axes, t.points, &values, t.rows, t.cols, t.show)
    );
    let kept = session.keep(&res);
    session.exit(!kept || res.jobs.iter().any(|j| j.error != 0))
}

fn latency(res: &RunResult, pct: Option<f64>) -> f64 {
    let mut lat = LatRecord::default();
    for j in &res.jobs {
        for d in Dir::ALL {
            lat.merge(&j.dirs[d].lat);
        }
    }
    match pct {
        Some(p) => lat.hist.percentile(p) as f64 / 1000.0,
        None => lat.stat.mean() / 1000.0,
    }
}

/// `plan` with the null engine's modelled service time (`--null-service-time`) on every job.
fn modelled(mut plan: RunPlan, o: &SweepOpts) -> RunPlan {
    if let Some(s) = o.null_service {
        for j in &mut plan.jobs {
            j.engine_options.null_service_ns = s.as_nanos() as u64;
        }
    }
    plan
}

/// The options a latency-target search can climb (latency grows with each).
const SEARCHABLE: &[&str] = &["iodepth", "rate_iops", "numjobs"];

fn latency_search(o: &SweepOpts, target: &str, session: &Session) -> i32 {
    let (pct, target_us) = match search::parse_target(target) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("iomark sweep: {e}");
            return 2;
        }
    };
    let axis = match o.axes.as_slice() {
        [] => axes::parse_axis("iodepth", "1..256x2").expect("a valid range"),
        [a] if SEARCHABLE.contains(&a.option.as_str()) => a.clone(),
        _ => {
            eprintln!("iomark sweep: --latency-target searches one of --iodepth, --rate_iops or --numjobs: give it as a LIST or RANGE and no other swept option");
            return 2;
        }
    };
    let name = axis.option.as_str();
    let mut depths: Vec<u64> = Vec::new();
    for v in &axis.values {
        match v.parse::<u64>() {
            Ok(d) if d > 0 => depths.push(d),
            _ => {
                eprintln!("iomark sweep: --{name}={v}: expected a positive number");
                return 2;
            }
        }
    }
    depths.sort_unstable();
    depths.dedup();
    let mut failed = None;
    let (curve, answer) = search::highest_under(&depths, target_us, |d| {
        if failed.is_some() || signals::interrupted() {
            return f64::INFINITY;
        }
        let one = Axis {
            option: name.into(),
            values: vec![d.to_string()],
        };
        let plan = match matrix::plan(std::slice::from_ref(&one), &[vec![d.to_string()]], &o.fixed)
        {
            Ok(p) => modelled(p, o),
            Err(e) => {
                failed = Some(e.to_string());
                return f64::INFINITY;
            }
        };
        let watch = session.watch(Vec::new(), false);
        let res = runner::run(&plan, &session.ctl);
        watch.stop();
        match res {
            Ok(r) => {
                let l = latency(&r, pct);
                eprintln!("iomark sweep: {name}={d}: {l:.1} µs");
                l
            }
            Err(e) => {
                failed = Some(e.to_string());
                f64::INFINITY
            }
        }
    });
    if let Some(e) = failed {
        eprintln!("iomark sweep: {e}");
        return 1;
    }
    let what = pct.map_or("mean".to_string(), |p| format!("p{p}"));
    println!("{name}  {what} latency (µs)");
    let w = name.len();
    for (d, l) in &curve {
        println!(
            "{d:>w$}  {l:>12.1}{}",
            if *l <= target_us { "" } else { "  over" }
        );
    }
    match answer {
        Some(d) => {
            println!("highest {name} with {what} latency under {target_us:.0} µs: {d}");
            0
        }
        None => {
            println!(
                "no {name} keeps the {what} latency under {target_us:.0} µs ({name} {} measured {:.1} µs)",
                depths[0],
                curve.first().map_or(0.0, |p| p.1)
            );
            1
        }
    }
}
