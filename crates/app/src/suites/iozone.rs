//! `iomark iozone`: iozone's command line on iomark's engine; iozone's text output as the
//! matrix grows, its `-R` report, the `-b` workbook, throughput mode, and iomark's result.

use crate::progress::steps;
use crate::session::{exit, signals, ResultFile, Session};
use anyhow::{anyhow, Result};
use iomark_engine::result::JobResult;
use iomark_suites::iozone::{self, excel, record, run, text, throughput, xls, xlsx};
use std::io::Write;
use std::path::PathBuf;

pub fn out(s: &str, quiet: bool) {
    if !quiet {
        crate::progress::steps::before_output();
        print!("{s}");
        let _ = std::io::stdout().flush();
    }
}

/// How a command line ends before any I/O: help or version printed (status), or refused
/// (status, message without the "iomark iozone: " prefix).
pub enum Early {
    Done(i32),
    Refused(i32, String),
}

/// The command line parsed (help and version answered), and `--report`'s path.
pub fn parse_args(args: &[String]) -> Result<(iozone::IozoneArgs, Option<PathBuf>), Early> {
    let (args, html) =
        crate::report_cmd::take_report_arg(args).map_err(|e| Early::Refused(2, e.to_string()))?;
    let mut a = iozone::parse(&args).map_err(|e| {
        Early::Refused(2, format!("{e}\nTry 'iomark iozone --help' for the flags."))
    })?;
    // The report charts every pass's latency: keep it, as -+z does.
    a.latency_hist |= html.is_some();
    if a.help {
        return Err(Early::Done(crate::session::pipe::print_text(
            &iozone::usage(),
        )));
    }
    if a.version {
        println!("iomark iozone {}", iomark_engine::VERSION);
        return Err(Early::Done(0));
    }
    Ok((a, html))
}

/// The plan of the command line (sizes, files, free space).
pub fn make_plan(a: &iozone::IozoneArgs) -> Result<iozone::Plan> {
    let free = |d: &std::path::Path| {
        if d.is_dir() {
            iomark_engine::targets::free_space(d).ok()
        } else {
            None
        }
    };
    Ok(iozone::plan(a, &free)?)
}

/// The checks before any I/O (test files, outputs, `-P`); the notes to say.
pub fn check(
    p: &iozone::Plan,
    a: &iozone::IozoneArgs,
    html: Option<&std::path::Path>,
) -> Result<Vec<String>> {
    let existing = iozone::plan::check_files(p, &iomark_suites::common::probe::Probe::of)?;
    check_paths(p, a, html)?;
    iozone::plan::refuse_existing_throughput_files(p, &iomark_suites::common::probe::Probe::of)?;
    if let Some(cpu) = a.cpu {
        iomark_engine::sys::set_affinity(&[cpu]).map_err(|e| anyhow!("-P {cpu}: {e}"))?;
    }
    Ok(p.notes.iter().chain(&existing).cloned().collect())
}

/// `iomark iozone ARGS`: the checks, iozone's header, the runs of either mode, then the end
/// (the `-R` report and the results); returns the exit status.
pub fn main(args: &[String]) -> i32 {
    let (a, html, p, kept) = match prepare(args) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let host = iomark_engine::sys::host_info();
    if let Some(n) = text::cache_note(&p, a.direct, host.mem_bytes) {
        eprintln!("iomark iozone: note: {n}");
    }
    let start_ms = iomark_engine::sys::unix_ms();
    out(&header(&a, &p, &host, start_ms), a.json);
    let session = Session::quiet("iozone");
    let ran = match &p.throughput {
        Some(tp) => throughput_mode(&a, &p, tp, &host, &session),
        None => matrix_mode(&a, &p, &host, &session),
    };
    let end = End {
        html: html.as_deref(),
        host,
        start_ms,
        report: ran.report,
        places: test_files(&p),
    };
    finish(
        &a,
        p.throughput.is_some(),
        end,
        (ran.matrix, ran.jobs),
        &ran.figs,
        (ran.code, &kept),
    )
}

/// The command line parsed, its plan made and checked, the notes said; the exit status when
/// it ends there (help, version, or refused).
fn prepare(args: &[String]) -> Result<Prepared, i32> {
    let refused = |code: i32, e: String| {
        eprintln!("iomark iozone: {e}");
        code
    };
    let (a, html) = match parse_args(args) {
        Ok(x) => x,
        Err(Early::Done(code)) => return Err(code),
        Err(Early::Refused(code, e)) => return Err(refused(code, e)),
    };
    let p = match make_plan(&a) {
        Ok(p) => p,
        Err(e) => return Err(refused(1, e.to_string())),
    };
    let kept = ResultFile::take("iozone", a.result.as_deref(), &test_files(&p))?;
    match check(&p, &a, html.as_deref()) {
        Ok(notes) => {
            for n in notes {
                eprintln!("iomark iozone: note: {n}");
            }
        }
        Err(e) => return Err(refused(1, e.to_string())),
    }
    Ok((a, html, p, kept))
}

/// The command line, its `--report` page, its plan and its result file, checked.
type Prepared = (
    iozone::IozoneArgs,
    Option<PathBuf>,
    iozone::Plan,
    ResultFile,
);

/// The files the runs of `p` write.
pub fn test_files(p: &iozone::Plan) -> Vec<PathBuf> {
    match &p.throughput {
        Some(t) => t.files.clone(),
        None => vec![p.file.clone()],
    }
}

/// What the runs of either mode leave for [`finish`].
struct Ran {
    /// The matrix mode's rows (empty in throughput mode).
    matrix: run::Matrix,
    /// The run's jobs as the step runner gave them: a job per measured pass of the matrix, or
    /// per child of each throughput pass.
    jobs: Vec<JobResult>,
    /// Throughput mode's figures (none in the matrix mode).
    figs: Vec<throughput::TpFigure>,
    /// The `-R` report, printed last.
    report: String,
    /// The exit status so far.
    code: i32,
}

/// Throughput mode (`-t N`, `-l N -u M`): each child count in turn, each figure's block printed
/// as it comes, until the last, an error or SIGINT; then the `-R` report and the `-b` workbook.
fn throughput_mode(
    a: &iozone::IozoneArgs,
    p: &iozone::Plan,
    tp: &iozone::plan::Throughput,
    host: &iomark_engine::result::HostInfo,
    session: &Session,
) -> Ran {
    let quiet = a.json;
    let unit = text::unit(a);
    let mut code = 0;
    let mut figs = Vec::new();
    let mut jobs = Vec::new();
    out("\n", quiet);
    let level = steps::enter("run", tp.counts.len());
    for (i, &n) in tp.counts.iter().enumerate() {
        level.at(i + 1, &format!("{n} processes"));
        let mut show = |f: &throughput::TpFigure| {
            out(
                &throughput::block_per(
                    f,
                    unit,
                    a.child_bytes,
                    a.cpu_util,
                    throughput::child_word(a.threads, false),
                ),
                quiet,
            );
        };
        let watch = session.watch(Vec::new(), false);
        let ran = throughput::run_count(p, n, a.keep, &session.ctl.stop, &mut show);
        watch.stop();
        match ran {
            Ok(v) => {
                figs.extend(v.figures);
                jobs.extend(v.jobs);
            }
            Err(e) => {
                eprintln!("iomark iozone: {e}");
                code = 1;
                break;
            }
        }
        if signals::interrupted() {
            break;
        }
    }
    let report = throughput_reports(a, p, &figs, host, &mut code);
    Ran {
        matrix: run::Matrix::default(),
        jobs,
        figs,
        report,
        code,
    }
}

/// The matrix mode: every cell, each row printed as it ends, the test file removed on SIGINT;
/// then the `-R` report and the `-b` workbook.
fn matrix_mode(
    a: &iozone::IozoneArgs,
    p: &iozone::Plan,
    host: &iomark_engine::result::HostInfo,
    session: &Session,
) -> Ran {
    let quiet = a.json;
    let unit = text::unit(a);
    let mut code = 0;
    let layout = text::Layout::of(a, p);
    out(&text::matrix_head(&layout), quiet);
    // A second Ctrl-C removes the test file, unless it is kept: -w, or it was there before.
    let existed = std::fs::symlink_metadata(&p.file).is_ok();
    let kept = a.keep || existed;
    if !kept {
        signals::register_temp(&p.file);
    }
    let level = steps::enter("cell", p.cells.len());
    level.at(1, "");
    let mut rows = 0;
    let mut show = |r: &run::Row| {
        out(&text::row_line(&layout, r, unit), quiet);
        rows += 1;
        level.at(rows + 1, "");
    };
    let watch = session.watch(Vec::new(), false);
    let ran = run::run_matrix(p, a.keep, a.test_delay_s, &session.ctl, &mut show);
    watch.stop();
    drop(level);
    signals::clear_temp();
    let (m, err, jobs) = match ran {
        Ok(r) => (r.matrix, r.error, r.result.jobs),
        Err(e) => (run::Matrix::default(), Some(e.to_string()), Vec::new()),
    };
    if let Some(e) = err {
        eprintln!("iomark iozone: {e}");
        code = 1;
    }
    if m.interrupted {
        out(&text::interrupted_note(p, m.rows.len(), kept), quiet);
    }
    let report = matrix_reports(a, p, &m, host, &mut code);
    Ran {
        matrix: m,
        jobs,
        figs: Vec::new(),
        report,
        code,
    }
}

/// The `-R` report (returned, to print after the run) and the `-b` workbook of the matrix mode.
fn matrix_reports(
    a: &iozone::IozoneArgs,
    p: &iozone::Plan,
    m: &run::Matrix,
    host: &iomark_engine::result::HostInfo,
    code: &mut i32,
) -> String {
    let unit = text::unit(a);
    let blocks = excel::blocks(p, m, unit);
    let cpu = if a.cpu_util {
        excel::cpu_blocks(p, m)
    } else {
        Vec::new()
    };
    let mut report = String::new();
    if a.excel {
        report = excel::render(&blocks);
        report.push_str(&excel::render_cpu(&cpu));
    }
    if let Some(path) = &a.workbook {
        let sheets = xlsx::Sheets::Matrix {
            figures: &blocks,
            cpu: &cpu,
        };
        let biff = || xls::matrix(&a.command_line, p, &blocks, &cpu);
        write_workbook(path, a, host, unit, (&sheets, &biff), code);
    }
    report
}

/// `-b FILE`: iozone's BIFF workbook when the name ends in `.xls`, else an XLSX workbook
/// with charts; a failure is said and makes the status at least 1.
fn write_workbook(
    path: &std::path::Path,
    a: &iozone::IozoneArgs,
    host: &iomark_engine::result::HostInfo,
    unit: run::Unit,
    (sheets, biff): (&xlsx::Sheets<'_>, &BiffSheet<'_>),
    code: &mut i32,
) {
    let written = if xls::is_xls(path) {
        biff()
            .map_err(|e| anyhow!("{}: {e}", path.display()))
            .and_then(|b| crate::session::outputs::write(path, &b))
    } else {
        xlsx::write(path, &a.command_line, host, unit.words(), sheets).map_err(|e| anyhow!(e))
    };
    if let Err(e) = written {
        eprintln!("iomark iozone: -b {e}");
        *code = (*code).max(1);
    }
}

/// The BIFF sheet of a run, made only when the workbook's name asks for one.
type BiffSheet<'a> = dyn Fn() -> Result<Vec<u8>, iozone::biff::TooLarge> + 'a;

/// iozone's header: the command line, the options in words, when the run began.
pub fn header(
    a: &iozone::IozoneArgs,
    p: &iozone::Plan,
    host: &iomark_engine::result::HostInfo,
    start_ms: u64,
) -> String {
    let began = iomark_fio::output::fmt::ctime((start_ms / 1000) as i64);
    let uname = a.uname.then(|| uname_a(host));
    text::header(a, p, &began, uname.as_deref())
}

/// What `uname -a` prints (its first line), which iozone's `-M` shows; when it cannot be run,
/// the kernel's own fields in the order `uname -a` prints them (system, host name, release,
/// version, machine).
fn uname_a(host: &iomark_engine::result::HostInfo) -> String {
    let out = std::process::Command::new("uname")
        .arg("-a")
        .stderr(std::process::Stdio::null())
        .output();
    if let Ok(o) = out {
        let text = String::from_utf8_lossy(&o.stdout);
        let line = text.lines().next().unwrap_or("").trim_end();
        if o.status.success() && !line.is_empty() {
            return line.to_string();
        }
    }
    uname_fields().unwrap_or_else(|| format!("Linux {} {}", host.hostname, host.kernel))
}

/// uname(2)'s system name, host name, release, version and machine, separated by spaces.
fn uname_fields() -> Option<String> {
    // SAFETY: a zeroed utsname is a valid out value; uname fills it.
    let mut u: libc::utsname = unsafe { std::mem::zeroed() };
    // SAFETY: u is a valid out pointer.
    if unsafe { libc::uname(&mut u) } != 0 {
        return None;
    }
    let field = |f: &[libc::c_char]| {
        let b: Vec<u8> = f
            .iter()
            .take_while(|&&c| c != 0)
            .map(|&c| c as u8)
            .collect();
        String::from_utf8_lossy(&b).into_owned()
    };
    Some(
        [
            &u.sysname[..],
            &u.nodename,
            &u.release,
            &u.version,
            &u.machine,
        ]
        .map(field)
        .join(" "),
    )
}

/// The `-R` report (returned, to print after the run) and the `-b` workbook of throughput mode.
pub fn throughput_reports(
    a: &iozone::IozoneArgs,
    p: &iozone::Plan,
    figs: &[throughput::TpFigure],
    host: &iomark_engine::result::HostInfo,
    code: &mut i32,
) -> String {
    let unit = text::unit(a);
    let rec = p.cells.first().map_or(0, |c| c.record);
    let mut report = String::new();
    if a.excel {
        report = throughput::excel(figs, rec, unit, a.threads);
        if a.cpu_util {
            report.push_str(&throughput::cpu_excel(figs, rec, a.threads));
        }
    }
    if let Some(path) = &a.workbook {
        let (counts, rows) = throughput::table(figs, unit);
        let sheets = xlsx::Sheets::Throughput {
            counts: &counts,
            rows: &rows,
        };
        let biff = || {
            let head = xls::ThroughputHead {
                command_line: &a.command_line,
                children: throughput::child_word(a.threads, true),
                record_kb: rec >> 10,
                unit: throughput::unit_label(unit),
            };
            let cpu = if a.cpu_util {
                throughput::cpu_table(figs).1
            } else {
                Vec::new()
            };
            xls::throughput(&head, &rows, &cpu)
        };
        write_workbook(path, a, host, unit, (&sheets, &biff), code);
    }
    report
}

/// What the end of a run writes besides the figures.
pub struct End<'a> {
    pub html: Option<&'a std::path::Path>,
    pub host: iomark_engine::result::HostInfo,
    pub start_ms: u64,
    /// The `-R` report, printed last.
    pub report: String,
    /// The test files, the run's targets in the result store.
    pub places: Vec<PathBuf>,
}

/// The end of a run: the interruption or completion line, the `-R` report, and the result
/// (`--json`, `--result`, `--report`). Returns the exit status.
pub fn finish(
    a: &iozone::IozoneArgs,
    throughput: bool,
    end: End<'_>,
    (mut matrix, jobs): (run::Matrix, Vec<JobResult>),
    figs: &[throughput::TpFigure],
    (mut code, kept): (i32, &ResultFile),
) -> i32 {
    let quiet = a.json;
    if signals::interrupted() {
        if throughput {
            out("\niozone: interrupted\n", quiet);
        }
        matrix.interrupted = true;
        code = exit::INTERRUPTED;
    }
    if !matrix.interrupted {
        out(text::COMPLETE, quiet);
        if let Some(record) = matrix.poor_resolution() {
            out(&iozone::clock::poor_resolution_lines(record), quiet);
        }
    }
    out(&end.report, quiet);
    let unit = text::unit(a);
    let mut r = record::build(
        &a.command_line,
        end.host,
        end.start_ms,
        unit,
        (&matrix, jobs),
        figs,
    );
    r.run.command_line = crate::session::command_line();
    crate::session::record::place_targets(&mut r.run, &end.places);
    if let Some(path) = end.html {
        if !crate::report_cmd::report_run(&r.run, path, "iomark iozone") {
            code = code.max(1);
        }
    }
    let bytes = match serde_json::to_vec_pretty(&r) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("iomark iozone: encoding the result: {e}");
            return 1;
        }
    };
    if a.json {
        let mut o = std::io::stdout().lock();
        let _ = o.write_all(&bytes);
        let _ = o.write_all(b"\n");
    }
    // The stored document keeps the iozone table beside the run.
    let src = iomark_report::read::from_result(&r.run);
    if !kept.keep_document(&bytes, std::slice::from_ref(&r.run), &src) {
        code = code.max(1);
    }
    code
}

/// Before any I/O: the test files pass the gate of files a run writes (not paths under `/dev`
/// that do not exist, where iozone would create a regular file on the device filesystem, nor
/// the backing file of a loop device), and no output (`-b`, `--report`) would overwrite a
/// device, a directory or one of the test files (`--result` is the session's: [`ResultFile`]).
fn check_paths(
    p: &iozone::Plan,
    a: &iozone::IozoneArgs,
    html: Option<&std::path::Path>,
) -> Result<()> {
    let files = test_files(p);
    for f in &files {
        // The gate of every run that writes files a user named: no device, FIFO, directory,
        // missing device path, nor the backing file of an attached loop device.
        iomark_engine::runner::steps::check_named_file(f).map_err(|e| match e {
            iomark_engine::runner::RunError::NoSuchDevice { .. } => anyhow!(
                "no such device {} (not mapped or not attached?); iomark creates no files on the device filesystem",
                f.display()
            ),
            e => anyhow!("{e}"),
        })?;
    }
    for out in [a.workbook.as_deref(), html].into_iter().flatten() {
        iomark_output::outfile::check_output(out, &files)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `-M`'s fallback has the kernel's fields in `uname -a`'s order: system, host name,
    /// release, then the version string (which has spaces of its own), then the machine.
    #[test]
    fn uname_fields_in_uname_a_order() {
        let line = uname_fields().expect("uname(2) failed");
        let release = std::fs::read_to_string("/proc/sys/kernel/osrelease").unwrap();
        let version = std::fs::read_to_string("/proc/sys/kernel/version").unwrap();
        let host = std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap();
        let want = format!(
            "Linux {} {} {} ",
            host.trim(),
            release.trim(),
            version.trim()
        );
        assert!(
            line.starts_with(&want),
            "{line:?} does not start with {want:?}"
        );
        let machine = line[want.len()..].to_string();
        assert!(
            !machine.is_empty() && !machine.contains(' '),
            "machine field {machine:?} in {line:?}"
        );
    }
}
