//! `iomark bonnie`: bonnie++'s command line on iomark's engine; its text tables (stdout, or
//! stderr with -q) and one CSV line per run (stdout).

use super::{failure, write_result};
use crate::session::signals;
use iomark_engine::runner::steps::{self, StepRun};
use iomark_engine::runner::{RunCtl, RunError};
use iomark_engine::RunResult;
use iomark_suites::bonnie::output::{self, FileLabel};
use iomark_suites::bonnie::plan::Facts;
use iomark_suites::bonnie::{self, text, BonniePlan};

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
        return crate::session::pipe::print_text(bonnie::USAGE);
    }
    let facts = Facts {
        ram_bytes: iomark_engine::sys::mem_total(),
        free_bytes: if bonnie::plan::dir_exists(&a.dir) {
            iomark_engine::targets::free_space(&a.dir).ok()
        } else {
            None
        },
        free_files: iomark_engine::targets::free_files(&a.dir).ok().flatten(),
        pid: std::process::id(),
        unwritable: iomark_engine::targets::dir_writable(&a.dir)
            .err()
            .and_then(|e| e.raw_os_error()),
    };
    let mut p = match bonnie::plan(&a, facts) {
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
    let label = FileLabel::of(&a);
    let mut all: Option<RunResult> = None;
    let mut table = bonnie::table::table();
    let mut code = 0;
    for run in 0..a.runs {
        let r = match run_once(&mut p) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("{e}");
                return 1;
            }
        };
        if let Some(msg) = failure(&r) {
            eprintln!("iomark bonnie: {msg}");
            code = 1;
        }
        let b = output::bulk(&r);
        bonnie::table::add_run(&mut table, run as usize + 1, &b);
        let f = output::files(&r);
        let mut t = String::new();
        if p.size_mib > 0 {
            t.push_str(&text::bulk(&name, &p, &b));
        }
        if label.num > 0 {
            t.push_str(&text::files(&name, &label, &f));
        }
        if a.quiet {
            eprint!("{t}");
        } else {
            print!("{t}");
        }
        println!("{}", output::csv(&name, seed, &p, &label, &b, &f));
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
    if let Some(r) = &mut all {
        r.tables.push(table);
        if let Some(path) = &a.result_file {
            if let Err(e) = write_result("bonnie", path, r) {
                eprintln!("{e}");
                code = code.max(1);
            }
        }
        crate::session::record::record(r);
    }
    code
}

/// One run of every step, in order, in a private work directory that the run makes and removes.
fn run_once(p: &mut BonniePlan) -> anyhow::Result<RunResult> {
    let ctl = RunCtl::quiet();
    signals::install(ctl.stop.clone());
    let setup = StepRun {
        work_dir: Some(p.work_dir.clone()),
        ..Default::default()
    };
    signals::register_temp(&p.work_dir);
    let mut steps: Vec<&mut dyn steps::Step> = p.steps.iter_mut().map(|s| s.as_step()).collect();
    let out = steps::run_steps(&setup, &mut steps, &ctl);
    signals::clear_temp();
    let out = out.map_err(|e| match e {
        RunError::WorkDir { path, source } => anyhow::anyhow!(
            "iomark bonnie: cannot create {}: {source} (nothing at that path is touched)",
            path.display()
        ),
        e => anyhow::anyhow!("iomark bonnie: {e}"),
    })?;
    if let Some(e) = out.refused {
        anyhow::bail!("iomark bonnie: {e}");
    }
    let mut r = out.result;
    r.interrupted |= signals::interrupted();
    Ok(r)
}
