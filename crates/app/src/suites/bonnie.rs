//! `iomark bonnie`: bonnie++'s command line on iomark's engine; its text tables (stdout, or
//! stderr with -q) and one CSV line per run (stdout).

use super::{failure, run_plan, write_result};
use crate::session::signals;
use iomark_engine::fileops::{bytewise, fileset, seeks, Phase};
use iomark_engine::job::Dir;
use iomark_engine::result::JobResult;
use iomark_engine::{RunPlan, RunResult};
use iomark_suites::bonnie::output::{self, FileLabel};
use iomark_suites::bonnie::plan::{Facts, FILE_TESTS, GETC, PUTC, REWRITE, SEEKS};
use iomark_suites::bonnie::{self, text, BonniePlan, Step};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

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
        pid: std::process::id(),
        unwritable: iomark_engine::targets::dir_writable(&a.dir)
            .err()
            .and_then(|e| e.raw_os_error()),
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
    let label = FileLabel::of(&a);
    let mut all: Option<RunResult> = None;
    let mut table = bonnie::table::table();
    let mut code = 0;
    for run in 0..a.runs {
        let r = match run_once(&p) {
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
    if let (Some(path), Some(r)) = (&a.result_file, &mut all) {
        r.tables.push(table);
        if let Err(e) = write_result("bonnie", path, r) {
            eprintln!("{e}");
            code = code.max(1);
        }
    }
    code
}

/// A phase as a job of the result; a failed phase stops the run.
fn phase_job(jobs: &mut Vec<JobResult>, p: &Phase, name: &str, op: &str, dir: Dir) -> bool {
    let j = p.job(name, op, dir);
    let ok = j.error == 0 && !p.stopped;
    jobs.push(j);
    ok
}

/// One run of every step, in order; the test file and directory are removed at the end.
fn run_once(p: &BonniePlan) -> anyhow::Result<RunResult> {
    let start = iomark_engine::sys::unix_ms();
    let stop = Arc::new(AtomicBool::new(false));
    let mut jobs: Vec<JobResult> = Vec::new();
    let mut engine_plan = RunPlan::default();
    let mut interrupted = false;
    signals::register_temp(&p.file);
    for step in &p.steps {
        if signals::interrupted() {
            interrupted = true;
            break;
        }
        signals::install(stop.clone());
        let go_on = match step {
            Step::PerCharOut { bytes } => {
                let ph = bytewise::write_bytes(&p.file, *bytes, &stop);
                let _ = std::fs::remove_file(&p.file);
                phase_job(&mut jobs, &ph, PUTC, bytewise::PUTC, Dir::Write)
            }
            Step::Engine(plan) => {
                let r = run_plan("bonnie", plan, None)?;
                engine_plan.jobs.extend(plan.jobs.iter().cloned());
                let ok = failure(&r).is_none() && !r.interrupted;
                interrupted |= r.interrupted;
                jobs.extend(r.jobs);
                ok
            }
            Step::Rewrite { chunk, opts } => {
                let ph = bytewise::rewrite(&p.file, *chunk, *opts, &stop);
                phase_job(&mut jobs, &ph, REWRITE, bytewise::REWRITE, Dir::Write)
            }
            Step::PerCharIn { bytes } => {
                let ph = bytewise::read_bytes(&p.file, *bytes, &stop);
                phase_job(&mut jobs, &ph, GETC, bytewise::GETC, Dir::Read)
            }
            Step::Seeks(o) => {
                let ph = seeks::seeks(&p.file, *o, &stop);
                let _ = std::fs::remove_file(&p.file);
                phase_job(&mut jobs, &ph, SEEKS, seeks::SEEK, Dir::Read)
            }
            Step::Files(spec) => {
                let _ = std::fs::remove_file(&p.file);
                let mut set = fileset::FileSet::new(spec.clone());
                let mut ok = true;
                for (i, test) in FILE_TESTS.iter().enumerate() {
                    let order = if i < 3 {
                        fileset::Order::Sequential
                    } else {
                        fileset::Order::Random
                    };
                    let (ph, op, dir) = match i % 3 {
                        0 => (set.create(order, &stop), fileset::CREATE, Dir::Write),
                        1 => (set.stat(order, &stop), fileset::STAT, Dir::Read),
                        _ => (set.delete(order, &stop), fileset::DELETE, Dir::Write),
                    };
                    ok = phase_job(&mut jobs, &ph, test, op, dir);
                    if !ok {
                        set.clean_up();
                        break;
                    }
                }
                ok
            }
        };
        if !go_on {
            break;
        }
    }
    interrupted |= signals::interrupted();
    let _ = std::fs::remove_file(&p.file);
    signals::clear_temp();
    let mut r = RunResult::assemble(&engine_plan, start, iomark_engine::sys::host_info(), jobs);
    r.interrupted = interrupted;
    Ok(r)
}
