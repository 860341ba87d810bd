//! `iomark preset list | show NAME | run NAME [TARGET]`: the binary's side of the presets
//! (iomark-scenarios holds them as data, builds their plans and summaries): the target's
//! lifetime, signals, the runs, and where the output goes.

use crate::progress::steps;
use crate::session::{exit, signals, Session};
use iomark_engine::result::RunResult;
use iomark_engine::runner::{self, RunCtl};
use iomark_engine::RunPlan;
use iomark_fio::output;
use iomark_scenarios::preset::args::{self, Command, RunOpts};
use iomark_scenarios::preset::jobfile::{self, Settings};
use iomark_scenarios::preset::summary::Summary;
use iomark_scenarios::preset::{plan, target, Preset};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// How a preset's plans run: here, or (feature `mpi`) on every rank of a launch at once.
pub trait Runs {
    /// This process shows the results (false on the ranks other than 0).
    fn shows(&self) -> bool;
    /// The preset cannot run here (its target): the other processes are told.
    fn refuse(&mut self, why: &str);
    /// Runs one plan; `None` where the results are not shown. An empty error was said elsewhere.
    fn run(&mut self, plan: &RunPlan, ctl: &Arc<RunCtl>) -> anyhow::Result<Option<RunResult>>;
}

/// The plans run by this process alone.
struct Local;

impl Runs for Local {
    fn shows(&self) -> bool {
        true
    }
    fn refuse(&mut self, _: &str) {}
    fn run(&mut self, plan: &RunPlan, ctl: &Arc<RunCtl>) -> anyhow::Result<Option<RunResult>> {
        Ok(runner::run(plan, ctl).map(Some)?)
    }
}

/// `iomark preset ARGS...`; returns the exit code.
pub fn main(a: &[String]) -> i32 {
    main_with(a, &mut Local)
}

/// [`main`] with the plans run by `runs`.
pub fn main_with(a: &[String], exec: &mut dyn Runs) -> i32 {
    match args::parse(a) {
        Ok(Command::Help) => crate::session::pipe::print_text(args::USAGE),
        Ok(Command::List) => {
            print!("{}", args::list());
            0
        }
        Ok(Command::Disks) => {
            print!("{}", iomark_scenarios::preset::disks::list());
            0
        }
        Ok(Command::Show(p, o)) => {
            let path = o
                .target
                .clone()
                .unwrap_or_else(|| PathBuf::from(format!("iomark-{}.tmp", p.name)));
            print!("{}", jobfile::render(p, &settings(p, &o, path, None, true)));
            0
        }
        Ok(Command::Run(p, o)) => run(p, &o, exec),
        Err(e) => {
            eprintln!("iomark {e}");
            2
        }
    }
}

/// The preset's settings with the user's choices applied.
fn settings(p: &Preset, o: &RunOpts, path: PathBuf, size: Option<u64>, direct: bool) -> Settings {
    let mut s = Settings::defaults(p, path);
    if let Some(sz) = size.or(o.size) {
        s.size = sz;
    }
    if let Some(r) = o.runtime {
        s.runtime = r;
    }
    if let Some(w) = o.warmup {
        s.warmup = w;
        if !p.jobs.iter().any(|j| j.warmup) {
            s.ramp = w;
        }
    }
    s.direct = direct;
    s
}

/// `iomark preset run NAME`: the target, the plan, the runs, then the summary and `--result`.
fn run(p: &'static Preset, o: &RunOpts, exec: &mut dyn Runs) -> i32 {
    let shows = exec.shows();
    let t = match choose_target(p, o, exec) {
        Ok(t) => t,
        Err(code) => return code,
    };
    let s = settings(p, o, t.path.clone(), Some(t.size), t.direct);
    let plan = match build_plan(p, &s, exec) {
        Ok(plan) => plan,
        Err(code) => return code,
    };
    if shows && target::rbd_image(&t.path).is_some() {
        say_shared_image(&plan);
    }
    // The result file is checked before any I/O (never the target, a device, a missing
    // directory); rank 0 of a launch writes it.
    let mut session = Session::said("preset");
    let targets = iomark_output::outfile::plan_targets(&plan);
    if let Err(code) = session.result_file(o.result.as_deref().filter(|_| shows), &targets) {
        if t.temp {
            let _ = std::fs::remove_file(&t.path);
        }
        return code;
    }
    let loops = o.repeat.unwrap_or(p.loops);
    if !o.json && shows {
        announce(p, &t, loops);
    }
    if t.temp {
        signals::register_temp(&t.path);
    }
    let done = run_loops(p, o, &plan, loops, &session, exec);
    if t.temp {
        let _ = std::fs::remove_file(&t.path);
        signals::clear_temp();
    }
    if !shows {
        return session.exit(done.code != 0);
    }
    if done.runs.is_empty() {
        return exit::of_run(true);
    }
    summarize(p, o, &s, done, &session)
}

/// The preset's target, its notices said; the exit status when it cannot run there (the
/// other processes are told).
fn choose_target(p: &Preset, o: &RunOpts, exec: &mut dyn Runs) -> Result<target::Target, i32> {
    let image = match o.target.as_deref() {
        Some(t) => target::rbd_image(t),
        None => None,
    };
    if let Some((pool, image)) = image {
        return match rbd_target(p, o, &pool, &image) {
            Ok(t) => {
                for n in &t.notices {
                    eprintln!("iomark preset: {n}");
                }
                Ok(t)
            }
            Err((e, code)) => {
                eprintln!("iomark preset: {e}");
                exec.refuse(&e);
                Err(code)
            }
        };
    }
    let t = match target::choose(
        p.name,
        o.target.as_deref(),
        o.allow_write,
        o.size.unwrap_or(p.size),
        o.size.is_some(),
    ) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("iomark preset: {e}");
            exec.refuse(&e.to_string());
            return Err(match e {
                target::TargetError::Missing(_) | target::TargetError::NeedsAllowWrite { .. } => 2,
                _ => 1,
            });
        }
    };
    for n in &t.notices {
        eprintln!("iomark preset: {n}");
    }
    Ok(t)
}

/// An RBD image as the target: written only with `--allow-write`, as an existing device is
/// (watchers and signatures are then checked by the run, as for any rbd job); the size is the
/// preset's, shrunk to the image's when it is smaller. An error and its exit status otherwise.
fn rbd_target(
    p: &Preset,
    o: &RunOpts,
    pool: &str,
    image: &str,
) -> Result<target::Target, (String, i32)> {
    let spec = format!("rbd:{pool}/{image}");
    if !o.allow_write {
        return Err((format!("{spec} is an existing RBD image; the test writes to it, destroying its data: pass --allow-write to do that"), 2));
    }
    let img_size = image_size(pool, image).map_err(|e| (format!("{spec}: {e}"), 1))?;
    let mut notices = Vec::new();
    let size = match o.size {
        Some(s) if s > img_size => {
            return Err((
                format!(
                    "{spec} holds {} MiB, less than --size={} MiB",
                    img_size >> 20,
                    s >> 20
                ),
                2,
            ))
        }
        Some(s) => s,
        None if p.size > img_size => {
            notices.push(format!(
                "using the whole image {spec}: {} MiB, smaller than the preset's {} MiB",
                img_size >> 20,
                p.size >> 20
            ));
            img_size
        }
        None => p.size,
    };
    Ok(target::Target {
        path: PathBuf::from(spec),
        temp: false,
        size,
        direct: true,
        notices,
    })
}

/// Says which jobs have several clients writing the one image (each clone is a client).
fn say_shared_image(plan: &RunPlan) {
    for j in plan.jobs.iter().filter(|j| j.numjobs > 1 && j.writes()) {
        eprintln!(
            "iomark preset: {}: {} jobs write one image: they take its exclusive lock in turn, which measures the lock more than the cluster",
            j.name, j.numjobs
        );
    }
}

/// The size of image `pool/image` (client and configuration as the `rbd` command finds them).
fn image_size(pool: &str, image: &str) -> Result<u64, iomark_ceph::CephError> {
    use iomark_ceph::{Cluster, ConnectOptions, Image, Pool};
    let cluster = Arc::new(Cluster::connect(&ConnectOptions::default())?);
    let pool = Arc::new(Pool::open(cluster, pool)?);
    Image::open(pool, image, true)?.size()
}

/// The plan of the preset with settings `s`; exit status 2 when it cannot be made (the other
/// processes are told).
fn build_plan(p: &Preset, s: &Settings, exec: &mut dyn Runs) -> Result<RunPlan, i32> {
    match plan::build(p, s) {
        Ok((plan, _)) => Ok(plan),
        Err(e) => {
            eprintln!("iomark {e}");
            exec.refuse(&e.to_string());
            Err(2)
        }
    }
}

/// Says on stderr what is about to run: the preset, the target, its size, the I/O and the runs.
fn announce(p: &Preset, t: &target::Target, loops: u32) {
    eprintln!(
        "iomark preset {}: {} on {} ({} MiB, {}, {} run{})",
        p.name,
        p.title,
        t.path.display(),
        t.size >> 20,
        if t.direct {
            "direct I/O"
        } else {
            "buffered I/O"
        },
        loops,
        if loops == 1 { "" } else { "s" }
    );
}

/// What the runs of a preset left for the summary.
struct Done {
    /// The results shown here, in order.
    runs: Vec<RunResult>,
    /// Each run's text as printed (or as it would be without `--json`).
    outputs: Vec<String>,
    /// The exit status so far: 1 once a run or a job failed.
    code: i32,
}

/// Runs the plan `loops` times, pausing between runs, until the last, a failure or SIGINT.
fn run_loops(
    p: &Preset,
    o: &RunOpts,
    plan: &RunPlan,
    loops: u32,
    session: &Session,
    exec: &mut dyn Runs,
) -> Done {
    let repetitions = (loops > 1).then(|| steps::enter("run", loops as usize));
    let jobs = steps::by_jobs("job", plan.jobs.len());
    let mut done = Done {
        runs: Vec::new(),
        outputs: Vec::new(),
        code: 0,
    };
    for i in 0..loops {
        if i > 0 && !o.repeat_pause.is_zero() {
            std::thread::sleep(o.repeat_pause);
        }
        if signals::interrupted() {
            break;
        }
        if let Some(r) = &repetitions {
            r.at(i as usize + 1, "");
        }
        let watch = session.watch(Vec::new(), !exec.shows());
        let res = exec.run(plan, &session.ctl);
        watch.stop();
        let mut res = match res {
            Ok(Some(r)) => r,
            // Shown elsewhere (rank 0 of a launch).
            Ok(None) => continue,
            Err(e) => {
                if !e.to_string().is_empty() {
                    eprintln!("iomark preset {}: {e}", p.name);
                }
                done.code = 1;
                break;
            }
        };
        session.mark(&mut res);
        let text = show_run(plan, &res, i, loops, o.json);
        if say_failed_jobs(p, &res) {
            done.code = 1;
        }
        done.outputs.push(text);
        let stop = res.interrupted || signals::interrupted();
        done.runs.push(res);
        if stop {
            break;
        }
    }
    drop(jobs);
    done
}

/// Run `i`'s text in fio's normal output, printed on stdout unless `json`.
fn show_run(plan: &RunPlan, res: &RunResult, i: u32, loops: u32, json: bool) -> String {
    let mut text = String::new();
    if loops > 1 {
        text.push_str(&format!("run {} of {loops}\n", i + 1));
    }
    text.push_str(&output::normal::preamble(plan));
    text.push_str(&output::normal::render(res));
    if !json {
        print!("{text}");
        let _ = std::io::stdout().flush();
    }
    text
}

/// Says on stderr each job of the run that failed; true when one did.
fn say_failed_jobs(p: &Preset, res: &RunResult) -> bool {
    let mut failed = false;
    for j in res.jobs.iter().filter(|j| j.error != 0) {
        eprintln!(
            "iomark preset {}: job {} failed: {}",
            p.name,
            j.name,
            j.failure
                .as_ref()
                .map(|f| f.to_string())
                .unwrap_or_default()
        );
        failed = true;
    }
    failed
}

/// The summary of the runs on stdout (table or JSON), then `--result`; the exit status (1
/// when a figure misses its expected value, as when a job fails).
fn summarize(p: &'static Preset, o: &RunOpts, s: &Settings, done: Done, session: &Session) -> i32 {
    let Done {
        mut runs,
        outputs,
        mut code,
    } = done;
    // The limits were checked against the preset when the arguments were read.
    let targets = iomark_scenarios::preset::limits::targets(p, &o.limits).unwrap_or_default();
    let summary = Summary::of(p, &runs, o.agg.unwrap_or(p.agg), targets);
    if o.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&summary.to_json()).unwrap_or_default()
        );
    } else {
        print!("{}", summary.table());
    }
    let doc = document(p, s, &summary, &mut runs, &outputs);
    // The stored figures are the document's (the summary's tables too), else the first run's.
    let src = iomark_report::read::parse(Path::new(p.name), &doc).unwrap_or_else(|_| {
        runs.first()
            .map(iomark_report::read::from_result)
            .unwrap_or_default()
    });
    if !session.keep_document(&doc, &runs, &src) {
        code = 1;
    }
    if signals::interrupted() {
        eprintln!(
            "iomark preset: interrupted; the summary covers the runs before the interruption"
        );
    }
    exit::of_run(code != 0 || summary.missed())
}

/// The document of `--result FILE` and of the store: the preset's job file, summary, printed
/// texts and runs (the first holding the summary's tables).
fn document(
    p: &Preset,
    s: &Settings,
    summary: &Summary,
    runs: &mut [RunResult],
    outputs: &[String],
) -> Vec<u8> {
    if let Some(first) = runs.first_mut() {
        first.tables = iomark_scenarios::preset::table::tables(summary);
    }
    // Serialised directly: the runs hold 128-bit sums a serde_json::Value cannot.
    #[derive(serde::Serialize)]
    struct Doc<'a> {
        format: &'static str,
        preset: &'static str,
        job_file: String,
        summary: serde_json::Value,
        summary_text: String,
        outputs: &'a [String],
        runs: &'a [RunResult],
    }
    let doc = Doc {
        format: "iomark-preset/1",
        preset: p.name,
        job_file: jobfile::render(p, s),
        summary: summary.to_json(),
        summary_text: summary.table(),
        outputs,
        runs,
    };
    serde_json::to_vec_pretty(&doc).unwrap_or_default()
}
