//! `iomark bonnie`: bonnie++'s command line on iomark's engine; its text table (stdout, or
//! stderr with -q) and one CSV line per run (stdout).

use super::{failure, run_plan, write_result};
use crate::signals;
use iomark_engine::RunResult;
use iomark_suites::bonnie::{self, output, plan::Facts};

pub fn main(args: &[String]) -> i32 {
    let a = match bonnie::parse(args) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("iomark bonnie: {e}\n\n{}", bonnie::USAGE);
            return 2;
        }
    };
    if a.help {
        // A reader that stops early (`| head -1`) ends it quietly, status 0.
        return crate::pipe::print_text(bonnie::USAGE);
    }
    let facts = Facts {
        ram_bytes: iomark_engine::sys::mem_total(),
        free_bytes: if bonnie::plan::dir_exists(&a.dir) {
            iomark_engine::target::free_space(&a.dir).ok()
        } else {
            None
        },
        pid: std::process::id(),
    };
    let p = match bonnie::plan(&a, facts) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("iomark bonnie: {e}");
            return 1;
        }
    };
    for n in &p.notes {
        eprintln!("iomark bonnie: note: {n}");
    }
    let name = a
        .machine
        .clone()
        .unwrap_or_else(|| iomark_engine::sys::host_info().hostname);
    let seed = a.seed.unwrap_or(0x89);
    let mut all: Option<RunResult> = None;
    let mut table = bonnie::table::table();
    let mut code = 0;
    for run in 0..a.runs {
        if let Some(j) = p.run.jobs.first() {
            signals::register_temp(&j.filenames[0]);
        }
        let r = match run_plan("bonnie", &p.run, None) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("{e}");
                return 1;
            }
        };
        if let Some(j) = p.run.jobs.first() {
            let _ = std::fs::remove_file(&j.filenames[0]);
            signals::clear_temp();
        }
        if let Some(msg) = failure(&r) {
            eprintln!("iomark bonnie: {msg}");
            code = 1;
        }
        let b = output::bulk(&r);
        bonnie::table::add_run(&mut table, run as usize + 1, &b);
        let text = output::text(&name, &p, &b);
        if a.quiet {
            eprint!("{text}");
        } else {
            print!("{text}");
        }
        println!("{}", output::csv(&name, seed, &p, &a.file_spec, &b));
        let interrupted = r.interrupted;
        match &mut all {
            None => all = Some(r),
            Some(x) => x.jobs.extend(r.jobs),
        }
        if interrupted {
            code = 130;
            break;
        }
    }
    if let (Some(path), Some(r)) = (&a.result_file, &mut all) {
        r.tables.push(table);
        if let Err(e) = write_result("bonnie", path, r) {
            eprintln!("{e}");
            code = code.max(1);
        }
    }
    code
}
