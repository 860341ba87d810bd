//! `iomark preset list | show NAME | run NAME [TARGET]`: the binary's side of the presets
//! (iomark-scenarios holds them as data, builds their plans and summaries): the target's
//! lifetime, signals, the runs, and where the output goes.

use crate::session::signals;
use iomark_engine::result::RunResult;
use iomark_engine::runner::{self, RunCtl};
use iomark_engine::RunPlan;
use iomark_fio::output;
use iomark_scenarios::preset::args::{self, Command, RunOpts};
use iomark_scenarios::preset::jobfile::{self, Settings};
use iomark_scenarios::preset::summary::{Expected, Summary};
use iomark_scenarios::preset::{plan, target, Preset};
use std::io::Write;
use std::path::PathBuf;
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

fn run(p: &'static Preset, o: &RunOpts, exec: &mut dyn Runs) -> i32 {
    let shows = exec.shows();
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
            return match e {
                target::TargetError::Missing(_) | target::TargetError::NeedsAllowWrite { .. } => 2,
                _ => 1,
            };
        }
    };
    for n in &t.notices {
        eprintln!("iomark preset: {n}");
    }
    let s = settings(p, o, t.path.clone(), Some(t.size), t.direct);
    let (plan, _) = match plan::build(p, &s) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("iomark {e}");
            exec.refuse(&e.to_string());
            return 2;
        }
    };
    let loops = o.repeat.unwrap_or(p.loops);
    let agg = o.agg.unwrap_or(p.agg);
    if !o.json && shows {
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
    let ctl = Arc::new(RunCtl::new(|m| eprintln!("{m}")));
    signals::install(ctl.stop.clone());
    if t.temp {
        signals::register_temp(&t.path);
    }
    let mut runs: Vec<RunResult> = Vec::new();
    let mut outputs: Vec<String> = Vec::new();
    let mut code = 0;
    for i in 0..loops {
        if i > 0 && !o.repeat_pause.is_zero() {
            std::thread::sleep(o.repeat_pause);
        }
        if signals::interrupted() {
            break;
        }
        let res = match exec.run(&plan, &ctl) {
            Ok(Some(r)) => r,
            // Shown elsewhere (rank 0 of a launch).
            Ok(None) => continue,
            Err(e) => {
                if !e.to_string().is_empty() {
                    eprintln!("iomark preset {}: {e}", p.name);
                }
                code = 1;
                break;
            }
        };
        let mut text = String::new();
        if loops > 1 {
            text.push_str(&format!("run {} of {loops}\n", i + 1));
        }
        text.push_str(&output::normal::preamble(&plan));
        text.push_str(&output::normal::render(&res));
        if !o.json {
            print!("{text}");
            let _ = std::io::stdout().flush();
        }
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
            code = 1;
        }
        outputs.push(text);
        let stop = res.interrupted || signals::interrupted();
        runs.push(res);
        if stop {
            break;
        }
    }
    if t.temp {
        let _ = std::fs::remove_file(&t.path);
        signals::clear_temp();
    }
    if !shows {
        return if signals::interrupted() { 130 } else { code };
    }
    if runs.is_empty() {
        return if signals::interrupted() {
            130
        } else {
            code.max(1)
        };
    }
    let summary = Summary::of(
        p,
        &runs,
        agg,
        Expected {
            iops: o.expect_iops,
            mbps: o.expect_mbps,
        },
    );
    if o.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&summary.to_json()).unwrap_or_default()
        );
    } else {
        print!("{}", summary.table());
    }
    if let Some(rf) = &o.result {
        if let Some(first) = runs.first_mut() {
            first.tables = iomark_scenarios::preset::table::tables(&summary);
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
            job_file: jobfile::render(p, &s),
            summary: summary.to_json(),
            summary_text: summary.table(),
            outputs: &outputs,
            runs: &runs,
        };
        let bytes = serde_json::to_vec_pretty(&doc).unwrap_or_default();
        if let Err(e) =
            crate::session::outputs::write_after(rf, &bytes, runs.iter().map(|r| &r.plan))
        {
            eprintln!("iomark preset: {e}");
            code = 1;
        }
    }
    if signals::interrupted() {
        eprintln!(
            "iomark preset: interrupted; the summary covers the runs before the interruption"
        );
        return 130;
    }
    if code == 0 && summary.checks().iter().any(|c| !c.3) {
        return 3;
    }
    code
}
