//! `iomark run`: fio command lines and job files, run on the engine, with fio's outputs (normal,
//! JSON, JSON+, terse), interim reports, logs, the verify state and iomark's result file.
//! The steps in order: read the command line ([`parse`]), answer what needs no run, check
//! the targets and outputs ([`preflight`]), run with the observers ([`execute`]), then word
//! the notes and write every output ([`finish`]).

mod bad_blocks;
mod datafiles;
mod finish;
mod observers;

use crate::progress::periodic::Sink;
use crate::report_cmd;
use crate::session::{outputs, pipe, signals, Session};
use iomark_engine::runner;
use iomark_engine::RunPlan;
use iomark_fio::cmdline::{self, Action, CliRun, CliWarning};
use iomark_fio::explain;
use iomark_fio::jobfile::HostVars;
use iomark_fio::output::{self, OutputFormat};
use observers::Observers;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

pub fn run(args: &[String]) -> i32 {
    let (args, report) = match report_cmd::take_report_arg(args) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("iomark: {e}");
            return 2;
        }
    };
    // Handlers first: a job file that is a FIFO waiting for its writer still ends on SIGINT.
    let stop = Arc::new(AtomicBool::new(false));
    signals::install(stop.clone());
    let mut cli = match parse(&args, &stop) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let cli_notes = warnings(&cli);
    if let Some(code) = answer_without_running(&cli) {
        return code;
    }
    if cli.plan.jobs.is_empty() {
        eprintln!("iomark: no jobs given (start one with --name=NAME; see iomark run --help)");
        return 2;
    }
    if cli.output.parse_only {
        return parse_only(&cli);
    }
    if let Err(code) = preflight("run", &mut cli, report.as_deref()) {
        return code;
    }
    execute(Ready {
        tool: "run",
        cli,
        report,
        stop,
        cli_notes,
    })
}

/// A front end's typed `plan` run as `iomark run` runs its jobs (the same checks, status line,
/// fio's normal output on stdout, notes and exit status), its result written to `result`;
/// messages are worded for `tool`.
pub fn run_plan(tool: &'static str, plan: RunPlan, result: Option<PathBuf>) -> i32 {
    let stop = Arc::new(AtomicBool::new(false));
    signals::install(stop.clone());
    let mut cli = CliRun {
        own_targets: vec![false; plan.jobs.len()],
        plan,
        raw: Default::default(),
        output: iomark_fio::switches::OutputOpts {
            result_file: result,
            ..Default::default()
        },
        action: Action::Run,
        warnings: Vec::new(),
        job_files: Vec::new(),
        file_size: None,
    };
    if let Err(code) = preflight(tool, &mut cli, None) {
        return code;
    }
    execute(Ready {
        tool,
        cli,
        report: None,
        stop,
        cli_notes: Vec::new(),
    })
}

/// The words a message of `tool` begins with: `iomark` for `run`, else `iomark TOOL`.
pub(crate) fn lead(tool: &str) -> String {
    if tool == "run" {
        "iomark".into()
    } else {
        format!("iomark {tool}")
    }
}

/// A parsed and checked run.
struct Ready {
    /// The command the messages name (`run`, or the front end whose plan this is).
    tool: &'static str,
    cli: CliRun,
    /// `--report FILE.html`.
    report: Option<PathBuf>,
    stop: Arc<AtomicBool>,
    /// The command line's warnings, for the result's notes.
    cli_notes: Vec<String>,
}

impl Ready {
    /// Warnings and notes on stderr even when the run succeeds (`--warnings`, `--parse-only`).
    fn loud(&self) -> bool {
        self.cli.output.warnings || self.cli.output.parse_only
    }
}

/// Reads the command line and its job files; the exit status when that fails.
fn parse(args: &[String], stop: &Arc<AtomicBool>) -> Result<CliRun, i32> {
    let parsed = cmdline::parse_run_args_until(args, &HostVars, Some(stop.clone()));
    if signals::interrupted() {
        eprintln!("iomark: interrupted while reading the job files; nothing was run");
        return Err(130);
    }
    parsed.map_err(|e| {
        match e {
            // One located line per problem, then a summary.
            e @ cmdline::CliError::Diagnostics(_) => eprintln!("{e}"),
            e => eprintln!("iomark: {e}"),
        }
        2
    })
}

/// The warnings of the command line (options with no effect, ...), for the output's notes; on
/// stderr only with --warnings or --parse-only, so that a successful run keeps stderr empty as
/// fio does (they go there too when the run fails).
fn warnings(cli: &CliRun) -> Vec<String> {
    let loud = cli.output.warnings || cli.output.parse_only;
    cli.warnings
        .iter()
        .map(|w| {
            let line = match w {
                CliWarning::Located(d) => d.to_string(),
                CliWarning::Plain(m) => format!("iomark: warning: {m}"),
            };
            if loud {
                eprintln!("{line}");
            }
            line
        })
        .collect()
}

/// Help, version, printed texts and `--showcmd`: the exit status once answered.
fn answer_without_running(cli: &CliRun) -> Option<i32> {
    match &cli.action {
        Action::Help(text) | Action::CmdHelp(text) | Action::Print(text) => {
            return Some(pipe::print_text(text))
        }
        Action::Version => {
            return Some(pipe::print_text(&format!(
                "iomark-{}",
                iomark_engine::VERSION
            )));
        }
        Action::Run => {}
    }
    if cli.output.showcmd {
        println!("{}", cmdline::showcmd(&cli.raw));
        return Some(0);
    }
    None
}

/// `--parse-only`: the jobs are valid; the targets are checked too, but they may belong to
/// another machine, so what would stop a run here is a warning.
fn parse_only(cli: &CliRun) -> i32 {
    match runner::check(&cli.plan) {
        Ok(notes) => {
            for n in notes {
                eprintln!("note: {}", explain::note(&n));
            }
        }
        Err(e) => eprintln!(
            "iomark: warning: a run on this machine would be refused: {}",
            cli.run_error(&e)
        ),
    }
    0
}

/// Before any I/O: the verify state of jobs that check data back only as far as it was
/// written, the targets (a missing directory, ...) and the outputs (never a device or a job's
/// data file). The exit status when something stops the run.
fn preflight(tool: &str, cli: &mut CliRun, report: Option<&std::path::Path>) -> Result<(), i32> {
    let lead = lead(tool);
    if let Err(e) = iomark_fio::verify_state::load(&mut cli.plan, std::path::Path::new(".")) {
        eprintln!("{lead}: {e}");
        return Err(1);
    }
    if let Err(e) = runner::check(&cli.plan) {
        eprintln!("{lead}: {}", cli.run_error(&e));
        return Err(1);
    }
    if let Err(e) = iomark_engine::budget::check(&cli.plan) {
        eprintln!("{lead}: {}", explain::budget_error(&e));
        return Err(1);
    }
    if let Some((job, path, dev, why)) = iomark_engine::runner::unlink_refused(&cli.plan) {
        eprintln!(
            "{lead}: {job}: refusing to run with unlink=1: it would delete {}, the backing file of {} {why}",
            path.display(),
            dev.display()
        );
        return Err(1);
    }
    if let Err(e) = outputs::check(&cli.plan, &cli.output, report) {
        eprintln!("{lead}: {e}");
        return Err(2);
    }
    Ok(())
}

/// What comes before the results: the `--debug=random` seed lines (where fio prints them,
/// before anything else, whatever the format) and the job header lines of the normal output.
struct Head {
    debug: String,
    preamble: String,
}

impl Head {
    fn new(cli: &CliRun) -> Head {
        let debug = if cli.output.debug_random {
            iomark_fio::debug_random::seed_lines(&cli.plan, std::process::id())
        } else {
            String::new()
        };
        let preamble = if cli.output.formats.contains(&OutputFormat::Normal) {
            output::normal::preamble(&cli.plan)
        } else {
            String::new()
        };
        Head { debug, preamble }
    }
}

/// The run's controller: "Laying out IO file" goes where fio prints it, into the normal output
/// on stdout (on stderr when loud and the output goes elsewhere).
fn controller(r: &Ready) -> Session {
    let out = &r.cli.output;
    let layout_to_stdout = out.formats.contains(&OutputFormat::Normal)
        && out.file.is_none()
        && out.status_interval.is_none();
    let loud = r.loud();
    let mut ctl = crate::session::run_ctl(move |e| {
        if layout_to_stdout {
            println!("{}", explain::event(e));
            let _ = std::io::stdout().flush();
        } else if loud {
            eprintln!("{}", explain::event(e));
        }
    });
    ctl.stop = r.stop.clone();
    Session::adopt(r.tool, ctl)
}

/// Runs the checked plan with its observers, then writes the outputs; the exit status.
fn execute(mut r: Ready) -> i32 {
    let out = &r.cli.output;
    let head = Head::new(&r.cli);
    if out.file.is_none() && !(head.debug.is_empty() && head.preamble.is_empty()) {
        print!("{}{}", head.debug, head.preamble);
        let _ = std::io::stdout().flush();
    }
    // A stream of reports grows under a temporary name, put in place at the end.
    let sink = match &out.file {
        Some(p) => Sink::File(iomark_output::outfile::staging(p)),
        None => Sink::Stdout,
    };
    if out.status_interval.is_some() {
        if let Sink::File(p) = &sink {
            // Reports are appended: start the file with the job header lines (or empty).
            if let Err(e) = std::fs::write(p, format!("{}{}", head.debug, head.preamble)) {
                eprintln!("iomark: cannot write {}: {e}", p.display());
                return 1;
            }
        }
    }
    let session = controller(&r);
    let ctl = &session.ctl;
    let observers = Observers::start(&r.cli, &session, &sink);
    if r.report.is_some() {
        r.cli.plan.series_ms = Some(report_cmd::REPORT_SERIES_MS);
    }
    let res = runner::run(&r.cli.plan, ctl);
    let agg_bw = observers.stop();
    let result = match res {
        Ok(result) => result,
        Err(e) => {
            if let (Sink::File(staged), Some(p)) = (&sink, &r.cli.output.file) {
                if staged != p {
                    let _ = std::fs::remove_file(staged);
                }
            }
            eprintln!("{}: {}", lead(r.tool), r.cli.run_error(&e));
            return session.exit(true);
        }
    };
    finish::finish(
        &r,
        finish::Ran {
            result,
            agg_bw,
            head,
            sink,
        },
        &session,
    )
}
