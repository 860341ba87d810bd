//! `iomark run [switches] [--name=job --opt=v ...] [jobfile ...]`: fio's command-line rules.
//!
//! - `--opt=value`, `-opt=value`, `--opt value` (when the option takes a value) and bare flags.
//! - `--name=X` starts a new job; options before the first `--name` are globals for every job
//!   (also for the jobs of job files, before the file's own sections). `--name=global` opens
//!   another global section that applies to the jobs after it.
//! - Positional arguments are job files (INI: `[global]`/`[job]` sections, `;`/`#` comments,
//!   `key=value`, bare flags, `include file`, `${VAR}` expansion). Each job file after the first
//!   starts with an implicit stonewall.

mod error;
mod scan;
mod showcmd;
pub use crate::switches::{Eta, OutputFormat, OutputOpts, SwitchDef, SwitchValue, SWITCHES};
pub use error::CliError;
pub use showcmd::showcmd;

use crate::build::{self, RawJob, RawPlan};
use crate::jobfile::{Diag, Entry, HostVars, Loc, Reader, Severity, Vars};
use crate::options;
use crate::switches::{Request, Switches};
use iomark_engine::job::RunPlan;
use scan::{scan, Scanned};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// What the caller should do. Texts are ready to print.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Action {
    #[default]
    Run,
    Help(String),
    Version,
    CmdHelp(String),
    /// Text to print as it is (an inflated log).
    Print(String),
}

impl Action {
    /// Answer a help or version request (texts come from the tables, through `doc`).
    fn answer(r: Request) -> Result<Action, CliError> {
        Ok(match r {
            Request::Help => Action::Help(crate::doc::help_text()),
            Request::Version => Action::Version,
            Request::CmdHelp(name) => Action::CmdHelp(
                crate::doc::cmdhelp(name.as_deref()).map_err(|e| CliError::Other(e.to_string()))?,
            ),
            Request::InflateLog(path) => Action::Print(
                crate::output::compressed_log::inflate_file(&path)
                    .map_err(|e| CliError::Other(e.to_string()))?,
            ),
            Request::EngHelp(name) => Action::CmdHelp(
                crate::doc::enghelp(name.as_deref()).map_err(|e| CliError::Other(e.to_string()))?,
            ),
        })
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct CliRun {
    pub plan: RunPlan,
    /// The options as written, before typing (for `--showcmd`).
    pub raw: RawPlan,
    pub output: OutputOpts,
    pub action: Action,
    /// For stderr: ignored options and switches.
    pub warnings: Vec<CliWarning>,
    pub job_files: Vec<PathBuf>,
    /// Per job: its target options name `$rank` or `$hostname` (each process of a run of many
    /// has its own files); false when every process uses the same target.
    pub own_targets: Vec<bool>,
}

/// A warning of a parsed run, for stderr.
#[derive(Clone, Debug, PartialEq)]
pub enum CliWarning {
    /// Where it was written is known (a job file line or the command line); shown as is.
    Located(Diag),
    /// A bare message (an ignored switch or option); the caller prefixes it.
    Plain(String),
}

impl std::fmt::Display for CliWarning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CliWarning::Located(d) => d.fmt(f),
            CliWarning::Plain(m) => f.write_str(m),
        }
    }
}

/// Parse the arguments after `run`.
pub fn parse_run_args(args: &[String]) -> Result<CliRun, CliError> {
    parse_run_args_with(args, &HostVars)
}

/// [`parse_run_args`] with the variables job files expand (`${VAR}`, `$ncpus`, ...) given:
/// scan the arguments, read the job files, apply the overrides, then type every job.
pub fn parse_run_args_with(args: &[String], vars: &dyn Vars) -> Result<CliRun, CliError> {
    parse_run_args_until(args, vars, None)
}

/// [`parse_run_args_with`] that gives up reading job files when `stop` is raised (SIGINT).
pub fn parse_run_args_until(
    args: &[String],
    vars: &dyn Vars,
    stop: Option<Arc<AtomicBool>>,
) -> Result<CliRun, CliError> {
    let Scanned {
        switches,
        action,
        mut warnings,
        job_files,
        globals,
        mut jobs,
    } = scan(args)?;
    let Switches {
        output,
        readonly,
        allow_fill,
        force_device_write,
        allow_unlink_existing,
        dump_dir,
        sections,
        overrides,
        strict,
        ..
    } = switches;
    let mut global_options = globals.clone();
    // Where each job's options were written: (section header, one entry per inherited-then-own
    // option), and whether the reader found errors in its lines or in the globals it inherits.
    let mut locs: Vec<JobLocs> = jobs
        .iter()
        .map(|j| JobLocs {
            section: None,
            options: vec![None; j.inherited.len() + j.options.len()],
            clean: true,
        })
        .collect();
    let mut diags: Vec<Diag> = Vec::new();
    let mut seen_sections: Vec<String> = Vec::new();
    for (fi, path) in job_files.iter().enumerate() {
        let mut reader = Reader::new(vars).with_stop(stop.clone());
        reader.read_file(path);
        diags.append(&mut reader.diags);
        let mut file_globals: Vec<Entry> = Vec::new();
        let mut globals_clean = true;
        let mut first = true;
        for sec in reader.sections {
            if sec.name == "global" {
                global_options.extend(sec.entries.iter().map(Entry::pair));
                file_globals.extend(sec.entries);
                globals_clean &= sec.errors == 0;
                continue;
            }
            seen_sections.push(sec.name.clone());
            if !sections.is_empty() && !sections.contains(&sec.name) {
                continue;
            }
            // A section names its job: a name= of [global] is only the default, never used.
            let file_globals_here: Vec<&Entry> = file_globals
                .iter()
                .filter(|e| options::lookup(&e.key).map(|d| d.name) != Some("name"))
                .collect();
            let mut inherited = globals.clone();
            inherited.extend(file_globals_here.iter().map(|e| e.pair()));
            let mut option_locs = vec![None; globals.len()];
            option_locs.extend(file_globals_here.iter().map(|e| Some(e.loc.clone())));
            option_locs.extend(sec.entries.iter().map(|e| Some(e.loc.clone())));
            jobs.push(RawJob {
                name: sec.name.clone(),
                inherited,
                options: sec.entries.iter().map(Entry::pair).collect(),
                implicit_stonewall: fi > 0 && first,
                overrides: 0,
            });
            locs.push(JobLocs {
                section: Some(sec.loc),
                options: option_locs,
                clean: globals_clean && sec.errors == 0,
            });
            first = false;
        }
    }
    for wanted in &sections {
        if !seen_sections.contains(wanted) {
            let have = if seen_sections.is_empty() {
                "the job files have no job sections".to_string()
            } else {
                format!("sections: {}", seen_sections.join(", "))
            };
            let hint = options::nearest(wanted, seen_sections.iter().map(String::as_str))
                .map(|n| format!(" (did you mean '{n}'?)"))
                .unwrap_or_default();
            diags.push(Diag::error(
                None,
                None,
                format!("--section={wanted} names no section of the job files{hint}; {have}"),
            ));
        }
    }

    // --override KEY=VALUE: checked, then applied to every job after everything else.
    let mut override_pairs: Vec<(String, String)> = Vec::new();
    for o in &overrides {
        let Some((k, v)) = o.split_once('=') else {
            diags.push(Diag::error(
                None,
                None,
                format!(
                    "--override {q_o}: expected KEY=VALUE (a job option and its value)",
                    q_o = iomark_engine::echo::quote(o)
                ),
            ));
            continue;
        };
        let (k, v) = (k.trim(), v.trim());
        let def = match options::lookup(k) {
            Some(d) if d.name == "name" => {
                diags.push(Diag::error(
                    None,
                    None,
                    "--override cannot rename jobs (name=...)",
                ));
                continue;
            }
            Some(d) => d,
            None => {
                diags.push(Diag::error(
                    None,
                    None,
                    format!("--override: {}", build::unknown_option_message(k)),
                ));
                continue;
            }
        };
        if let Err(e) = build::check_option(def, v, 1024) {
            diags.push(Diag::error(None, None, format!("--override: {e}")));
            continue;
        }
        override_pairs.push((k.to_string(), v.to_string()));
    }
    for (j, l) in jobs.iter_mut().zip(locs.iter_mut()) {
        j.options.extend(override_pairs.iter().cloned());
        j.overrides = override_pairs.len();
        l.options.extend(override_pairs.iter().map(|_| None));
    }
    let place = vars.place();
    let own_targets: Vec<bool> = jobs
        .iter_mut()
        .map(|j| crate::cluster_words::apply(j, &place))
        .collect();

    if action != Action::Run {
        return Ok(CliRun {
            plan: RunPlan::default(),
            raw: RawPlan::default(),
            output,
            action,
            warnings: warnings.into_iter().map(CliWarning::Plain).collect(),
            job_files,
            own_targets,
        });
    }
    if jobs.is_empty() && !diags.iter().any(Diag::is_error) {
        return Err(CliError::Other(
            "no jobs defined: give --name=NAME followed by its options, or a job file (see iomark run --help)"
                .into(),
        ));
    }
    let raw = RawPlan {
        global_options,
        jobs,
        readonly,
        allow_fill,
        force_device_write,
        allow_unlink_existing,
        overrides: override_pairs,
    };
    let locate = |e: build::PlanError| -> Diag {
        let l = &locs[e.job_index()];
        let at = e.option().and_then(|i| l.options.get(i).cloned().flatten());
        match at.or_else(|| l.section.clone()) {
            // Placed in the job: the message without the job's name.
            Some(loc) => Diag::error(Some(loc), Some(&raw.jobs[e.job_index()].name), e.cause()),
            None => Diag::error(None, None, e.to_string()),
        }
    };
    let mut built = None;
    if diags.iter().any(Diag::is_error) {
        // Lines were dropped: type only the jobs they do not touch, for their own problems.
        for (ji, rj) in raw.jobs.iter().enumerate() {
            if locs[ji].clean {
                if let Err(error) = build::build_job(rj, readonly, &mut Vec::new()) {
                    diags.push(locate(build::PlanError::Job { index: ji, error }));
                }
            }
        }
    } else {
        match build::build_plan_all(&raw) {
            Ok(b) => built = Some(b),
            Err(errs) => diags.extend(errs.into_iter().map(locate)),
        }
    }

    // Warnings: the located ones from the files, then the rest (command-line options, switches).
    let mut extra: Vec<String> = std::mem::take(&mut warnings);
    if let Some(b) = &built {
        for w in &b.warnings {
            if !diags.iter().any(|d| !d.is_error() && &d.message == w) && !extra.contains(w) {
                extra.push(w.clone());
            }
        }
    }
    if strict {
        // Every warning becomes an error, where it was written.
        diags.extend(extra.drain(..).map(|w| Diag::warning(None, None, w)));
        for d in diags.iter_mut().filter(|d| !d.is_error()) {
            d.severity = Severity::Error;
            d.message.push_str(" (--strict)");
        }
    }
    let (errors, located): (Vec<Diag>, Vec<Diag>) = diags.into_iter().partition(Diag::is_error);
    let warnings: Vec<CliWarning> = located
        .into_iter()
        .map(CliWarning::Located)
        .chain(extra.into_iter().map(CliWarning::Plain))
        .collect();
    if !errors.is_empty() {
        return Err(CliError::Diagnostics(errors));
    }
    let built = built.expect("built when there is no error");
    let mut plan = built.plan;
    // verify_dump files of a device go where the report goes (never beside the device node).
    let fallback = output.file.as_ref().and_then(|f| f.parent()).map(|p| {
        if p.as_os_str().is_empty() {
            std::path::PathBuf::from(".")
        } else {
            p.to_path_buf()
        }
    });
    for v in plan.jobs.iter_mut().filter_map(|j| j.verify.as_mut()) {
        v.dump_dir.clone_from(&dump_dir);
        v.dump_fallback_dir.clone_from(&fallback);
    }
    Ok(CliRun {
        plan,
        raw,
        output,
        action,
        warnings,
        job_files,
        own_targets,
    })
}

/// Where the options of one job were written.
struct JobLocs {
    section: Option<Loc>,
    options: Vec<Option<Loc>>,
    /// No error was found in the lines this job uses.
    clean: bool,
}

#[cfg(test)]
mod tests;
