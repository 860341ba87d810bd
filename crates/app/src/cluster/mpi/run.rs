//! `iomark run` and `iomark preset run` as one rank of many: the same parse and checks as a
//! run of one process, on this rank's targets; the session runs the plan on every rank at once;
//! rank 0 writes the outputs.

use super::{regions, Outcome, RankVars, Session};
use crate::cluster::transport::Transport;
use crate::cluster::Refusal;
use crate::session::{exit, signals, ResultFile};
use iomark_engine::result::RunResult;
use iomark_engine::runner::{self, RunCtl};
use iomark_engine::RunPlan;
use iomark_fio::cluster_words::{self, Place};
use iomark_fio::cmdline;
use iomark_fio::explain;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// Switches of a local run that a run of many ranks does not take (yet), with the reason.
const NOT_HERE: [(&str, &str); 2] = [
    (
        "--status-interval",
        "rank 0 writes one report, at the end; the ranks' interim figures are not gathered",
    ),
    ("--write_", "logs stay on each rank's host; use --result"),
];

fn not_here(args: &[String]) -> Option<String> {
    args.iter().find_map(|a| {
        NOT_HERE.iter().find_map(|(s, why)| {
            a.starts_with(s)
                .then(|| format!("{s}... is not supported yet in a run of many ranks ({why})"))
        })
    })
}

/// A quiet control of the run that stops with `stop`.
fn ctl(stop: &Arc<AtomicBool>) -> RunCtl {
    let mut c = crate::session::run_ctl(|_| {});
    c.stop = stop.clone();
    c
}

/// The exit code of a rank other than 0 after the session.
fn member_code(out: &Outcome) -> i32 {
    match out {
        Outcome::Sent(r) => exit::of(
            r.interrupted || signals::interrupted(),
            r.jobs.iter().any(|j| j.error != 0),
        ),
        _ => exit::of_run(true),
    }
}

/// Rank 0's outputs refused before any I/O as a run of one process refuses them (exit status
/// 2): the result file by the session's own check, then the report and log files.
fn outputs_refusal(cli: &cmdline::CliRun, report: Option<&Path>) -> Option<Refusal> {
    let targets = iomark_output::outfile::plan_targets(&cli.plan);
    ResultFile::check("", cli.output.result_file.as_deref(), &targets)
        .err()
        .map(|e| e.to_string())
        .or_else(|| {
            crate::session::outputs::check(&cli.plan, &cli.output, report)
                .err()
                .map(|e| e.to_string())
        })
        .map(Refusal::bad_input)
}

/// `iomark run ARGS` on this rank.
pub fn run(args: &[String], s: &mut Session, place: &Place) -> i32 {
    let stop = Arc::new(AtomicBool::new(false));
    signals::install(stop.clone());
    let rank = place.rank;
    let mut plan = RunPlan::default();
    let mut output = None;
    // `--report`: every rank keeps the interval series the charts draw (in its result, no
    // log file); rank 0 writes the report of the merged run.
    let (args, report, report_refused) = match crate::report_cmd::take_report_arg(args) {
        Ok((a, r)) => (a, r, None),
        Err(e) => (args.to_vec(), None, Some(e.to_string())),
    };
    let args = &args[..];
    let refusal = match report_refused.or_else(|| not_here(args)) {
        Some(m) => Some(Refusal::failed(m)),
        None => {
            match cmdline::parse_run_args_until(args, &RankVars(place.clone()), Some(stop.clone()))
            {
                Err(e) => Some(Refusal::failed(e.to_string())),
                Ok(cli) if cli.plan.jobs.is_empty() => Some(Refusal::failed(
                    "no jobs given (start one with --name=NAME; see iomark run --help)",
                )),
                Ok(mut cli) => {
                    let warnings = regions::apply(&mut cli.plan, &cli.own_targets, rank);
                    if rank == 0 {
                        for w in warnings {
                            eprintln!("iomark: warning: {w}");
                        }
                    }
                    if report.is_some() {
                        cli.plan.series_ms = Some(crate::report_cmd::REPORT_SERIES_MS);
                    }
                    // In the order of a run of one process: the targets, then the outputs.
                    let checked = runner::check(&cli.plan)
                        .err()
                        .map(|e| Refusal::failed(explain::run_error(&e)))
                        .or_else(|| {
                            (rank == 0)
                                .then(|| outputs_refusal(&cli, report.as_deref()))
                                .flatten()
                        });
                    plan = cli.plan;
                    output = Some(cli.output);
                    checked
                }
            }
        }
    };
    let out = s.run(&plan, refusal, ctl(&stop));
    match (out, output) {
        (Outcome::Gathered(ranks), Some(o)) => {
            let outputs = crate::cluster::out::ClusterOutputs {
                report,
                ..crate::cluster::out::ClusterOutputs::from_switches(&o)
            };
            crate::cluster::out::finish_cluster(ranks, &outputs)
        }
        (Outcome::Refused(v), _) => {
            if rank == 0 {
                eprintln!("iomark: {v}");
            }
            v.code
        }
        (Outcome::Stopped(m), _) if rank == 0 => {
            eprintln!("iomark: {m}");
            exit::FAILED
        }
        (o, _) => member_code(&o),
    }
}

/// The preset's plans run on every rank; rank 0 shows the merged runs.
pub struct PresetRuns<'a> {
    pub session: &'a mut Session,
}

impl crate::preset::Runs for PresetRuns<'_> {
    fn shows(&self) -> bool {
        self.session.link.rank() == 0
    }
    fn refuse(&mut self, why: &str) {
        let _ = self.session.run(
            &RunPlan::default(),
            Some(Refusal::failed(why)),
            RunCtl::quiet(),
        );
    }
    fn run(&mut self, plan: &RunPlan, ctl: &Arc<RunCtl>) -> anyhow::Result<Option<RunResult>> {
        let refusal = runner::check(plan)
            .err()
            .map(|e| Refusal::failed(explain::run_error(&e)));
        match self.session.run(plan, refusal, self::ctl(&ctl.stop)) {
            Outcome::Gathered(ranks) => crate::cluster::out::merge(ranks).map(Some),
            Outcome::Sent(_) => Ok(None),
            Outcome::Refused(v) if self.shows() => Err(anyhow::Error::msg(v.why)),
            Outcome::Stopped(m) if self.shows() => Err(anyhow::Error::msg(m)),
            Outcome::Refused(_) | Outcome::Stopped(_) => Err(anyhow::Error::msg(String::new())),
        }
    }
}

/// `iomark preset ARGS` on this rank: `$rank`, `$nranks` and `$hostname` in the target.
pub fn preset(args: &[String], s: &mut Session, place: &Place) -> i32 {
    let args: Vec<String> = args
        .iter()
        .map(|a| cluster_words::expand("filename", a, place).0)
        .collect();
    crate::preset::main_with(&args, &mut PresetRuns { session: s })
}
