//! `iomark iozone`: iozone's command line on iomark's engine; iozone's text output as the
//! matrix grows, its `-R` report, the `-b` workbook, throughput mode, and iomark's result.

use crate::signals;
use iomark_suites::iozone::{self, excel, record, run, text, throughput, xlsx};
use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

fn out(s: &str, quiet: bool) {
    if !quiet {
        print!("{s}");
        let _ = std::io::stdout().flush();
    }
}

pub fn main(args: &[String]) -> i32 {
    let (args, html) = match crate::report_cmd::take_report_arg(args) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("iomark iozone: {e}");
            return 2;
        }
    };
    let a = match iozone::parse(&args) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("iomark iozone: {e}\nTry 'iomark iozone --help' for the flags.");
            return 2;
        }
    };
    if a.help {
        return crate::pipe::print_text(&iozone::usage());
    }
    if a.version {
        println!("iomark iozone {}", iomark_engine::VERSION);
        return 0;
    }
    let free = |d: &std::path::Path| {
        if d.is_dir() {
            iomark_engine::target::free_space(d).ok()
        } else {
            None
        }
    };
    let p = match iozone::plan(&a, &free) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("iomark iozone: {e}");
            return 1;
        }
    };
    let existing = match iozone::plan::check_files(&p, &iomark_suites::common::probe::Probe::of) {
        Ok(n) => n,
        Err(e) => {
            eprintln!("iomark iozone: {e}");
            return 1;
        }
    };
    if let Err(e) = check_paths(&p, &a, html.as_deref()) {
        eprintln!("iomark iozone: {e}");
        return 1;
    }
    for n in p.notes.iter().chain(&existing) {
        eprintln!("iomark iozone: note: {n}");
    }
    if let Some(cpu) = a.cpu {
        if let Err(e) = iomark_engine::sys::set_affinity(&[cpu]) {
            eprintln!("iomark iozone: -P {cpu}: {e}");
            return 1;
        }
    }
    let quiet = a.json;
    let host = iomark_engine::sys::host_info();
    if let Some(n) = text::cache_note(&p, a.direct, host.mem_bytes) {
        eprintln!("iomark iozone: note: {n}");
    }
    let start_ms = iomark_engine::sys::unix_ms();
    let began = iomark_fio::output::fmt::ctime((start_ms / 1000) as i64);
    let uname = a
        .uname
        .then(|| format!("Linux {} {}", host.hostname, host.kernel));
    out(&text::header(&a, &p, &began, uname.as_deref()), quiet);
    let stop = Arc::new(AtomicBool::new(false));
    signals::install(stop.clone());
    let unit = text::unit(&a);
    let mut code = 0;
    let mut matrix = run::Matrix::default();
    let mut figs = Vec::new();
    let mut report = String::new();
    if let Some(tp) = &p.throughput {
        out("\n", quiet);
        for &n in &tp.counts {
            let mut show = |f: &throughput::TpFigure| {
                out(
                    &throughput::block(f, unit, a.child_bytes, a.cpu_util),
                    quiet,
                );
            };
            match throughput::run_count(&p, n, a.keep, &stop, &mut show) {
                Ok(v) => figs.extend(v),
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
        let rec = p.cells.first().map_or(0, |c| c.record);
        if a.excel {
            report = throughput::excel(&figs, rec, unit);
            if a.cpu_util {
                report.push_str(&throughput::cpu_excel(&figs, rec));
            }
        }
        if let Some(path) = &a.workbook {
            let (counts, rows) = throughput::table(&figs, unit);
            let sheets = xlsx::Sheets::Throughput {
                counts: &counts,
                rows: &rows,
            };
            if let Err(e) = xlsx::write(path, &a.command_line, &host, unit.words(), &sheets) {
                eprintln!("iomark iozone: -b {e}");
                code = code.max(1);
            }
        }
    } else {
        out(&text::matrix_head(&p), quiet);
        signals::register_temp(&p.file);
        let mut show = |r: &run::Row| out(&text::row_line(&p, r, unit), quiet);
        let (m, err) = run::run_matrix(&p, a.keep, a.test_delay_s, &stop, &mut show);
        signals::clear_temp();
        if let Some(e) = err {
            eprintln!("iomark iozone: {e}");
            code = 1;
        }
        if m.interrupted {
            out(&text::interrupted_note(&p, m.rows.len(), a.keep), quiet);
        }
        let blocks = excel::blocks(&p, &m, unit);
        let cpu = if a.cpu_util {
            excel::cpu_blocks(&p, &m)
        } else {
            Vec::new()
        };
        if a.excel {
            report = excel::render(&blocks);
            report.push_str(&excel::render_cpu(&cpu));
        }
        if let Some(path) = &a.workbook {
            let sheets = xlsx::Sheets::Matrix {
                figures: &blocks,
                cpu: &cpu,
            };
            if let Err(e) = xlsx::write(path, &a.command_line, &host, unit.words(), &sheets) {
                eprintln!("iomark iozone: -b {e}");
                code = code.max(1);
            }
        }
        matrix = m;
    }
    if signals::interrupted() {
        if p.throughput.is_some() {
            out("\niozone: interrupted\n", quiet);
        }
        matrix.interrupted = true;
        code = 130;
    }
    if !matrix.interrupted {
        out(text::COMPLETE, quiet);
    }
    out(&report, quiet);
    if a.json || a.result.is_some() || html.is_some() {
        let r = record::build(&a.command_line, host, start_ms, unit, &matrix, &figs);
        if let Some(path) = &html {
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
        if let Some(path) = &a.result {
            if let Err(e) = crate::outputs::write(path, &bytes) {
                eprintln!("iomark iozone: {e}");
                code = code.max(1);
            }
        }
    }
    code
}

/// Before any I/O: the test files are not paths under `/dev` that do not exist (iozone would
/// create a regular file on the device filesystem), and no output (`-b`, `--result`,
/// `--report`) would overwrite a device, a directory or one of the test files.
fn check_paths(
    p: &iozone::Plan,
    a: &iozone::IozoneArgs,
    html: Option<&std::path::Path>,
) -> Result<(), String> {
    let files: Vec<std::path::PathBuf> = match &p.throughput {
        Some(t) => t.files.clone(),
        None => vec![p.file.clone()],
    };
    if let Some(f) = files
        .iter()
        .find(|f| iomark_engine::target::missing_device_path(f))
    {
        return Err(format!(
            "no such device {} (not mapped or not attached?); iomark creates no files on the device filesystem",
            f.display()
        ));
    }
    for out in [a.workbook.as_deref(), a.result.as_deref(), html]
        .into_iter()
        .flatten()
    {
        iomark_engine::outfile::check_output(out, &files).map_err(|e| e.to_string())?;
    }
    Ok(())
}
