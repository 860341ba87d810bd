//! `iomark bonnie`: bonnie++'s command line on iomark's engine; its text tables (stdout, or
//! stderr with -q) and one CSV line per run (stdout).

use super::failure;
use crate::progress::steps::{self, Labelled};
use crate::session::{exit, signals, Session};
use iomark_engine::runner::steps::{self as engine_steps, StepRun};
use iomark_engine::runner::RunError;
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
    let mut code = exit::OK;
    let mut session = Session::quiet("bonnie");
    if let Err(code) = session.result_file(a.result_file.as_deref(), &[]) {
        return code;
    }
    let runs = (a.runs > 1).then(|| steps::enter("run", a.runs as usize));
    for run in 0..a.runs {
        if let Some(l) = &runs {
            l.at(run as usize + 1, "");
        }
        let r = match run_once(&mut p, &session) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("{e}");
                return exit::of_run(true);
            }
        };
        if let Some(msg) = failure(&r) {
            eprintln!("iomark bonnie: {msg}");
            code = exit::FAILED;
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
            code = exit::INTERRUPTED;
            break;
        }
    }
    if let Some(r) = &mut all {
        r.tables.push(table);
        if !session.keep(r) {
            code = code.max(exit::FAILED);
        }
    }
    code
}

/// One run of every step, in order, in a private work directory that the run makes and removes.
fn run_once(p: &mut BonniePlan, session: &Session) -> anyhow::Result<RunResult> {
    let setup = StepRun {
        work_dir: Some(p.work_dir.clone()),
        ..Default::default()
    };
    signals::register_temp(&p.work_dir);
    let level = steps::enter("test", p.steps.len());
    let mut labelled: Vec<Labelled> = p
        .steps
        .iter_mut()
        .enumerate()
        .map(|(i, s)| {
            let name = test_name(s);
            Labelled {
                inner: s.as_step(),
                level: &level,
                i: i + 1,
                name,
            }
        })
        .collect();
    let mut each: Vec<&mut dyn engine_steps::Step> = labelled
        .iter_mut()
        .map(|s| s as &mut dyn engine_steps::Step)
        .collect();
    let watch = session.watch(Vec::new(), false);
    let out = engine_steps::run_steps(&setup, &mut each, &session.ctl);
    watch.stop();
    drop(each);
    drop(labelled);
    drop(level);
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

/// A test's name on the step line: its own, its jobs' (block output), or "files".
fn test_name(s: &bonnie::plan::Step) -> String {
    match s {
        bonnie::plan::Step::File(f) => f.name.clone(),
        bonnie::plan::Step::Engine(g) => {
            g.0.jobs
                .iter()
                .map(|j| j.name.as_str())
                .collect::<Vec<_>>()
                .join("+")
        }
        bonnie::plan::Step::Files(_) => "file creation/stat/deletion".to_string(),
    }
}
