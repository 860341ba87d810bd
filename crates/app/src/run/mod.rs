//! `iomark run`: fio command lines and job files, run on the engine, with fio's outputs (normal,
//! JSON, JSON+, terse), interim reports, logs, the verify state and iomark's result file.

mod datafiles;

use crate::progress::{agg_bw, periodic, status};
use crate::report_cmd;
use crate::session::{outputs, pipe, signals};
use iomark_engine::note::Note;
use iomark_engine::runner::{self, RunCtl};
use iomark_fio::cmdline::{self, Action, CliRun, CliWarning, Eta};
use iomark_fio::explain;
use iomark_fio::jobfile::HostVars;
use iomark_fio::output::{self, OutputFormat};
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

pub fn run(args: &[String]) -> i32 {
    run_with(args, &|_| {})
}

/// `iomark run ARGS`, with `prepare` applied to the plan the arguments make (a front end's
/// typed additions to the job model, such as an access mix).
pub fn run_with(args: &[String], prepare: &dyn Fn(&mut iomark_engine::job::RunPlan)) -> i32 {
    let (args, report) = match report_cmd::take_report_arg(args) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("iomark: {e}");
            return 2;
        }
    };
    let args = &args[..];
    // Handlers first: a job file that is a FIFO waiting for its writer still ends on SIGINT.
    let stop = Arc::new(AtomicBool::new(false));
    signals::install(stop.clone());
    let parsed = cmdline::parse_run_args_until(args, &HostVars, Some(stop.clone()));
    if signals::interrupted() {
        eprintln!("iomark: interrupted while reading the job files; nothing was run");
        return 130;
    }
    let mut cli: CliRun = match parsed {
        Ok(c) => c,
        Err(e @ cmdline::CliError::Diagnostics(_)) => {
            // One located line per problem, then a summary.
            eprintln!("{e}");
            return 2;
        }
        Err(e) => {
            eprintln!("iomark: {e}");
            return 2;
        }
    };
    // Warnings (options with no effect, ...) go into the output's notes; on stderr only with
    // --warnings, --parse-only or when the run fails, so that a successful run keeps stderr
    // empty as fio does.
    let loud = cli.output.warnings || cli.output.parse_only;
    let mut cli_notes = Vec::new();
    for w in &cli.warnings {
        let line = match w {
            CliWarning::Located(d) => d.to_string(),
            CliWarning::Plain(m) => format!("iomark: warning: {m}"),
        };
        if loud {
            eprintln!("{line}");
        }
        cli_notes.push(line);
    }
    match &cli.action {
        Action::Help(text) | Action::CmdHelp(text) | Action::Print(text) => {
            return pipe::print_text(text)
        }
        Action::Version => {
            return pipe::print_text(&format!("iomark-{}", iomark_engine::VERSION));
        }
        Action::Run => {}
    }
    let out = &cli.output;
    if out.showcmd {
        println!("{}", cmdline::showcmd(&cli.raw));
        return 0;
    }
    prepare(&mut cli.plan);
    if cli.plan.jobs.is_empty() {
        eprintln!("iomark: no jobs given (start one with --name=NAME; see iomark run --help)");
        return 2;
    }
    if out.parse_only {
        return match runner::check(&cli.plan) {
            Ok(notes) => {
                for n in notes {
                    eprintln!("note: {}", explain::note(&n));
                }
                0
            }
            // The jobs are valid; the targets are checked too, but they may belong to another
            // machine, so what would stop a run here is a warning.
            Err(e) => {
                eprintln!(
                    "iomark: warning: a run on this machine would be refused: {}",
                    explain::run_error(&e)
                );
                0
            }
        };
    }
    // The verify state files of jobs that check data back only as far as it was written.
    if let Err(e) = iomark_fio::verify_state::load(&mut cli.plan, std::path::Path::new(".")) {
        eprintln!("iomark: {e}");
        return 1;
    }
    // Targets that cannot be used (a missing directory, ...) stop the run before its header.
    if let Err(e) = runner::check(&cli.plan) {
        eprintln!("iomark: {}", explain::run_error(&e));
        return 1;
    }
    // Outputs that would destroy something (a device, a job's data file) are refused up front.
    if let Err(e) = outputs::check(&cli.plan, &cli.output, report.as_deref()) {
        eprintln!("iomark: {e}");
        return 2;
    }
    let normal = out.formats.contains(&OutputFormat::Normal);
    let to_stdout = out.file.is_none();
    // `--debug=random`: the seed lines, where fio prints them (before anything else, into
    // the output, whatever its format).
    let debug = if out.debug_random {
        iomark_fio::debug_random::seed_lines(&cli.plan, std::process::id())
    } else {
        String::new()
    };
    // The job header lines go where the normal output goes.
    let mut preamble = String::new();
    if normal {
        preamble = output::normal::preamble(&cli.plan);
    }
    if to_stdout && !(debug.is_empty() && preamble.is_empty()) {
        print!("{debug}{preamble}");
        let _ = std::io::stdout().flush();
    }
    // "Laying out IO file" goes where fio prints it: into the normal output on stdout.
    let layout_to_stdout = normal && to_stdout && out.status_interval.is_none();
    let mut ctl = RunCtl::new(move |e| {
        if layout_to_stdout {
            println!("{}", explain::event(e));
            let _ = std::io::stdout().flush();
        } else if loud {
            eprintln!("{}", explain::event(e));
        }
    });
    ctl.stop = stop;
    let ctl = Arc::new(ctl);
    let tty = status::stderr_is_tty();
    let show_status = match out.eta {
        Eta::Always => true,
        Eta::Never => false,
        Eta::Auto => tty,
    };
    let done = Arc::new(AtomicBool::new(false));
    let status = show_status.then(|| status::spawn(ctl.clone(), done.clone()));
    // A stream of reports grows under a temporary name, put in place at the end.
    let sink = match &out.file {
        Some(p) => periodic::Sink::File(iomark_engine::outfile::staging(p)),
        None => periodic::Sink::Stdout,
    };
    let ndjson = out.status_interval.is_some();
    if ndjson {
        if let periodic::Sink::File(p) = &sink {
            // Reports are appended: start the file with the job header lines (or empty).
            let head = format!("{debug}{}", if normal { preamble.as_str() } else { "" });
            if let Err(e) = std::fs::write(p, head) {
                eprintln!("iomark: cannot write {}: {e}", p.display());
                return 1;
            }
        }
    }
    // Always running: SIGUSR1 asks for an interim report at any time, as with fio.
    let reporter = Some(periodic::spawn(
        periodic::Reporter {
            plan: cli.plan.clone(),
            formats: out.formats.clone(),
            terse_version: out.terse_version,
            every: out.status_interval,
            ndjson,
            // Without a stream of reports, an interim one goes to stdout (the file named by
            // --output is written once, at the end).
            sink: if ndjson {
                sink.clone()
            } else {
                periodic::Sink::Stdout
            },
            wait: signals::wait_report_request,
        },
        ctl.clone(),
        done.clone(),
    ));
    let saved_logs = report
        .as_ref()
        .map(|_| report_cmd::collect_series(&mut cli.plan));
    let agg_bw = out
        .bandwidth_log
        .then(|| agg_bw::spawn(&cli.plan, ctl.clone(), done.clone()));
    let res = runner::run(&cli.plan, &ctl);
    done.store(true, Ordering::Relaxed);
    let agg_bw = agg_bw.and_then(|h| {
        h.thread().unpark();
        h.join().ok()
    });
    signals::wake_reporter();
    if let Some(h) = status {
        let _ = h.join();
    }
    if let Some(h) = reporter {
        let _ = h.join();
    }
    let mut result = match res {
        Ok(r) => r,
        Err(e) => {
            if let (periodic::Sink::File(staged), Some(p)) = (&sink, &out.file) {
                if staged != p {
                    let _ = std::fs::remove_file(staged);
                }
            }
            eprintln!("iomark: {}", explain::run_error(&e));
            return if signals::interrupted() { 130 } else { 1 };
        }
    };
    if signals::interrupted() {
        result.interrupted = true;
    }
    let mut report_failed = false;
    if let (Some(path), Some(saved)) = (&report, saved_logs) {
        report_failed = !report_cmd::report_run(&result, path, "iomark run");
        // Log files only for the logs that were asked for.
        report_cmd::restore_logs(&mut result.plan, saved);
    }
    // Notes fio does not print go into the output; on stderr too when asked or when the run
    // did not succeed.
    let failed = result.interrupted || result.jobs.iter().any(|j| j.error != 0);
    let notes_loud = loud || failed;
    for n in &result.notes {
        match n {
            // Every error of a job that asked for them (error_dump), as fio prints them.
            Note::IoError { .. } => eprintln!("{}", explain::note(n)),
            // Errors tolerated are counted in the output, as fio does; on stderr when loud.
            Note::Tolerated { .. } if !notes_loud => {}
            // What happened in a job (a device found full) stays on stderr too.
            _ if notes_loud || result.jobs.iter().any(|j| j.notes.contains(n)) => {
                eprintln!("note: {}", explain::note(n))
            }
            _ => {}
        }
    }
    for n in datafiles::notes(&result) {
        if notes_loud {
            eprintln!("{n}");
        }
        result.notes.push(Note::Text(
            n.strip_prefix("iomark: ").unwrap_or(&n).to_string(),
        ));
    }
    let cli_notes = cli_notes
        .iter()
        .map(|n| Note::Text(n.strip_prefix("iomark: ").unwrap_or(n).to_string()));
    result.notes.splice(0..0, cli_notes);
    for j in result.jobs.iter().filter(|j| j.error != 0) {
        eprintln!(
            "iomark: job {} failed: {}",
            j.name,
            j.failure
                .as_ref()
                .map_or_else(|| format!("error {}", j.error), explain::failure)
        );
    }
    report_bad_blocks(&result);
    let mut text = String::new();
    if !to_stdout && !ndjson {
        text.push_str(&debug);
        if normal {
            text.push_str(&preamble);
        }
    }
    text.push_str(&periodic::render_all(
        &result,
        &out.formats,
        out.terse_version,
        ndjson,
    ));
    let mut code = i32::from(report_failed);
    match &out.file {
        Some(path) if !ndjson => {
            if let Err(e) = outputs::write(path, text.as_bytes()) {
                eprintln!("iomark: {e}");
                code = 1;
            }
        }
        _ => {
            if let Err(e) = sink.write(&text) {
                eprintln!("iomark: cannot write the report: {e}");
                code = 1;
            }
            if let (periodic::Sink::File(staged), Some(p)) = (&sink, &out.file) {
                if let Err(e) = iomark_engine::outfile::commit(staged, p) {
                    eprintln!("iomark: cannot write {}: {e}", p.display());
                    code = 1;
                }
            }
        }
    }
    if let Some(a) = &agg_bw {
        if let Err(e) = a.write(std::path::Path::new(".")) {
            eprintln!("iomark: writing the aggregate bandwidth logs failed: {e}");
            code = 1;
        }
    }
    if let Err(e) = iomark_fio::verify_state::save(&result, std::path::Path::new(".")) {
        eprintln!("iomark: {e}");
        code = 1;
    }
    if let Err(e) = output::logs::write_logs(&result, std::path::Path::new(".")) {
        eprintln!("iomark: writing logs failed: {e}");
        code = 1;
    }
    if let Some(rf) = &out.result_file {
        match serde_json::to_vec_pretty(&result) {
            Ok(bytes) => {
                if let Err(e) = outputs::write(rf, &bytes) {
                    eprintln!("iomark: {e}");
                    code = 1;
                }
            }
            Err(e) => {
                eprintln!("iomark: cannot encode the result: {e}");
                code = 1;
            }
        }
    }
    if result.interrupted {
        eprintln!("iomark: interrupted; the results above cover the time before the interruption");
        return 130;
    }
    if result.jobs.iter().any(|j| j.error != 0) {
        return 1;
    }
    code
}

/// Every bad block verification found, one line each on stderr: file, offset, the check that
/// failed, and the expected and found headers.
fn report_bad_blocks(result: &iomark_engine::RunResult) {
    use iomark_engine::result::BlockHeader;
    fn hdr(h: &BlockHeader) -> String {
        let mut s = format!("offset={} len={}", h.offset, h.len);
        if let Some(m) = h.magic {
            s = format!("magic={m:#010x} {s}");
        }
        if let Some(j) = h.job {
            s.push_str(&format!(" job={j:#010x}"));
        }
        if let Some(x) = h.seed {
            s.push_str(&format!(" seed={x:#x}"));
        }
        match (h.generation, h.min_generation) {
            (Some(g), _) => s.push_str(&format!(" gen={g}")),
            (None, Some(g)) => s.push_str(&format!(" gen>={g}")),
            _ => {}
        }
        s
    }
    for j in &result.jobs {
        let Some(v) = &j.verify else { continue };
        for f in &v.failures {
            let mut line = format!(
                "iomark: {}: bad block in {} at offset {} (len {}): check {} failed: {}",
                j.name, f.file, f.offset, f.len, f.check, f.message
            );
            if let Some(e) = &f.expected {
                line.push_str(&format!("; expected header [{}]", hdr(e)));
            }
            if let Some(x) = &f.found {
                line.push_str(&format!("; found header [{}]", hdr(x)));
            }
            eprintln!("{line}");
        }
        if v.bad_blocks > v.failures.len() as u64 {
            eprintln!(
                "iomark: {}: {} more bad block(s) not listed",
                j.name,
                v.bad_blocks - v.failures.len() as u64
            );
        }
    }
}
