//! iomark: one binary for storage benchmarks. `iomark run` takes fio command lines and writes
//! fio-compatible output; `iomark quick` is the embedded default benchmark.

mod periodic;
mod quick;
mod quick_words;
mod signals;
mod status;

use iomark_engine::runner::{self, RunCtl};
use iomark_fio::cmdline::{self, Action, CliRun, Eta};
use iomark_fio::explain;
use iomark_fio::output::{self, OutputFormat};
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

const USAGE: &str = "iomark: measure storage, run fio workloads, compare results

Usage:
  iomark quick [PATH] [--json]           quick benchmark (SEQ1M/RND4K, read and write) of a
                                         temporary file in PATH (default: current directory)
  iomark run [SWITCHES] [--name=JOB --OPTION=VALUE ...]
                                         run fio-style jobs given as command-line options
  iomark run --help                      the switches and every job option
  iomark run --cmdhelp=OPTION            help for one option
  iomark man                             print the manual page (roff)
  iomark --version

A fio command line runs unchanged with `iomark run` in place of `fio`:
  iomark run --name=rr --filename=/data/t --size=1g --rw=randread --bs=4k \\
             --ioengine=io_uring --iodepth=32 --direct=1 --runtime=30 --time_based
";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let code = match args.first().map(String::as_str) {
        None | Some("-h") | Some("--help") | Some("help") => {
            print!("{USAGE}");
            0
        }
        Some("--version") | Some("-V") | Some("version") => {
            println!("iomark-{}", iomark_engine::VERSION);
            0
        }
        Some("man") => {
            print!("{}", iomark_fio::doc::man_page());
            0
        }
        Some("quick") => quick::main(&args[1..]),
        Some("run") => run(&args[1..]),
        // fio style without a subcommand: `iomark --name=x --rw=read ...`
        Some(a) if a.starts_with('-') => run(&args),
        Some(other) => {
            eprintln!("iomark: unknown command '{other}'\n\n{USAGE}");
            2
        }
    };
    std::process::exit(code);
}

fn run(args: &[String]) -> i32 {
    let cli: CliRun = match cmdline::parse_run_args(args) {
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
    for w in &cli.warnings {
        if w.contains(": warning: ") {
            eprintln!("{w}");
        } else {
            eprintln!("iomark: warning: {w}");
        }
    }
    match &cli.action {
        Action::Help(text) | Action::CmdHelp(text) => {
            print!("{text}");
            if !text.ends_with('\n') {
                println!();
            }
            return 0;
        }
        Action::Version => {
            println!("iomark-{}", iomark_engine::VERSION);
            return 0;
        }
        Action::Run => {}
    }
    let out = &cli.output;
    if out.showcmd {
        println!("{}", cmdline::showcmd(&cli.raw));
        return 0;
    }
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
    let normal = out.formats.contains(&OutputFormat::Normal);
    let to_stdout = out.file.is_none();
    // The job header lines go where the normal output goes.
    let mut preamble = String::new();
    if normal {
        preamble = output::normal::preamble(&cli.plan);
        if to_stdout {
            print!("{preamble}");
            let _ = std::io::stdout().flush();
        }
    }
    let ctl = Arc::new(
        RunCtl::new(|e| eprintln!("{}", explain::event(e))).with_note_words(explain::note),
    );
    signals::install(ctl.stop.clone());
    let tty = status::stderr_is_tty();
    let show_status = match out.eta {
        Eta::Always => true,
        Eta::Never => false,
        Eta::Auto => tty,
    };
    let done = Arc::new(AtomicBool::new(false));
    let status = show_status.then(|| status::spawn(ctl.clone(), done.clone()));
    let sink = match &out.file {
        Some(p) => periodic::Sink::File(p.clone()),
        None => periodic::Sink::Stdout,
    };
    let ndjson = out.status_interval.is_some();
    if ndjson {
        if let periodic::Sink::File(p) = &sink {
            // Reports are appended: start the file with the job header lines (or empty).
            let head = if normal { preamble.as_str() } else { "" };
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
            asked: signals::take_report_request,
        },
        ctl.clone(),
        done.clone(),
    ));
    let res = runner::run(&cli.plan, &ctl);
    done.store(true, Ordering::Relaxed);
    if let Some(h) = status {
        let _ = h.join();
    }
    if let Some(h) = reporter {
        let _ = h.join();
    }
    let mut result = match res {
        Ok(r) => r,
        Err(e) => {
            eprintln!("iomark: {}", explain::run_error(&e));
            return if signals::interrupted() { 130 } else { 1 };
        }
    };
    if signals::interrupted() {
        result.interrupted = true;
    }
    for n in &result.notes {
        eprintln!("note: {n}");
    }
    for j in result.jobs.iter().filter(|j| j.error != 0) {
        eprintln!(
            "iomark: job {} failed: {}",
            j.name,
            j.error_msg
                .clone()
                .unwrap_or_else(|| format!("error {}", j.error))
        );
    }
    report_bad_blocks(&result);
    let mut text = String::new();
    if normal && !to_stdout && !ndjson {
        text.push_str(&preamble);
    }
    text.push_str(&periodic::render_all(
        &result,
        &out.formats,
        out.terse_version,
        ndjson,
    ));
    let mut code = 0;
    match &out.file {
        Some(path) if !ndjson => {
            if let Err(e) = std::fs::write(path, &text) {
                eprintln!("iomark: cannot write {}: {e}", path.display());
                code = 1;
            }
        }
        _ => {
            if let Err(e) = sink.write(&text) {
                eprintln!("iomark: cannot write the report: {e}");
                code = 1;
            }
        }
    }
    if let Err(e) = output::logs::write_logs(&result, std::path::Path::new(".")) {
        eprintln!("iomark: writing logs failed: {e}");
        code = 1;
    }
    if let Some(rf) = &out.result_file {
        match serde_json::to_vec_pretty(&result) {
            Ok(bytes) => {
                if let Err(e) = std::fs::write(rf, bytes) {
                    eprintln!("iomark: cannot write {}: {e}", rf.display());
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
