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
mod file_size;
mod scan;
mod showcmd;
pub use crate::switches::{Eta, OutputFormat, OutputOpts, SwitchDef, SwitchValue, SWITCHES};
pub use error::CliError;
pub use file_size::FileSize;
pub use showcmd::showcmd;

use crate::job_builder::{self, Built, RawJob, RawPlan};
use crate::jobfile::{Diag, Entry, HostVars, Loc, Reader, Section, Severity, Vars};
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
    /// The first job whose size a job file sets (for the refusal when it does not fit).
    pub file_size: Option<FileSize>,
}

impl CliRun {
    /// A refused run in fio terms, naming the job file's `size=` when the files do not fit.
    pub fn run_error(&self, e: &iomark_engine::runner::RunError) -> String {
        use iomark_engine::runner::RunError;
        match (e, &self.file_size) {
            (RunError::NoSpace { needed, free, .. }, Some(fs)) => format!(
                "{e}. {}. Otherwise point the jobs elsewhere (directory=, filename=), or pass --allow-fill to fill it on purpose",
                fs.no_space_hint(*needed, *free)
            ),
            _ => crate::explain::run_error(e),
        }
    }
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
        warnings,
        job_files,
        globals,
        jobs,
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
    let mut gathered = Gathered::from_command_line(&globals, jobs);
    let seen_sections = gathered.read_job_files(&job_files, vars, &stop, &globals, &sections);
    check_sections(&sections, &seen_sections, &mut gathered.diags);
    // --override KEY=VALUE: checked, then applied to every job after everything else.
    let override_pairs = check_overrides(&overrides, &mut gathered.diags);
    gathered.apply_overrides(&override_pairs);
    let file_size = FileSize::find(&gathered.jobs, &gathered.locs, &globals);
    let Gathered {
        global_options,
        mut jobs,
        locs,
        mut diags,
    } = gathered;
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
            file_size,
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
    let built = type_jobs(&raw, &locs, &mut diags);
    let warnings = sort_diagnostics(warnings, built.as_ref(), diags, strict)?;
    let mut plan = built.expect("built when there is no error").plan;
    set_dump_dirs(&mut plan, &output, &dump_dir);
    Ok(CliRun {
        plan,
        raw,
        output,
        action,
        warnings,
        job_files,
        own_targets,
        file_size,
    })
}

/// The jobs of the command line and of the job files, with where each was written.
struct Gathered {
    /// The global options: the command line's, then those of every file's `[global]`.
    global_options: Vec<(String, String)>,
    jobs: Vec<RawJob>,
    /// Where each job's options were written: (section header, one entry per
    /// inherited-then-own option), and whether the reader found errors in its lines or in the
    /// globals it inherits.
    locs: Vec<JobLocs>,
    /// The problems found so far, in the order met.
    diags: Vec<Diag>,
}

impl Gathered {
    /// Start from the command line's globals and jobs (whose options have no file place).
    fn from_command_line(globals: &[(String, String)], jobs: Vec<RawJob>) -> Self {
        let locs = jobs
            .iter()
            .map(|j| JobLocs {
                section: None,
                options: vec![None; j.inherited.len() + j.options.len()],
                clean: true,
            })
            .collect();
        Gathered {
            global_options: globals.to_vec(),
            jobs,
            locs,
            diags: Vec::new(),
        }
    }

    /// Read the job files in order and add their jobs (only the `--section` ones when some are
    /// named); returns the names of every job section seen.
    fn read_job_files(
        &mut self,
        job_files: &[PathBuf],
        vars: &dyn Vars,
        stop: &Option<Arc<AtomicBool>>,
        cli_globals: &[(String, String)],
        sections: &[String],
    ) -> Vec<String> {
        let mut seen_sections: Vec<String> = Vec::new();
        for (fi, path) in job_files.iter().enumerate() {
            let mut reader = Reader::new(vars).with_stop(stop.clone());
            reader.read_file(path);
            self.diags.append(&mut reader.diags);
            let mut file_globals: Vec<Entry> = Vec::new();
            let mut globals_clean = true;
            let mut first = true;
            for sec in reader.sections {
                if sec.name == "global" {
                    self.global_options
                        .extend(sec.entries.iter().map(Entry::pair));
                    file_globals.extend(sec.entries);
                    globals_clean &= sec.errors == 0;
                    continue;
                }
                seen_sections.push(sec.name.clone());
                if !sections.is_empty() && !sections.contains(&sec.name) {
                    continue;
                }
                let file = FileGlobals {
                    entries: &file_globals,
                    clean: globals_clean,
                };
                self.add_section(sec, cli_globals, file, fi > 0 && first);
                first = false;
            }
        }
        seen_sections
    }

    /// Add the job of one section of a job file, which inherits the command line's globals and
    /// the `[global]` entries of its file read so far.
    fn add_section(
        &mut self,
        sec: Section,
        cli_globals: &[(String, String)],
        file_globals: FileGlobals<'_>,
        implicit_stonewall: bool,
    ) {
        // A section names its job: a name= of [global] is only the default, never used.
        let file_globals_here: Vec<&Entry> = file_globals
            .entries
            .iter()
            .filter(|e| options::lookup(&e.key).map(|d| d.name) != Some("name"))
            .collect();
        let mut inherited = cli_globals.to_vec();
        inherited.extend(file_globals_here.iter().map(|e| e.pair()));
        let mut option_locs = vec![None; cli_globals.len()];
        option_locs.extend(file_globals_here.iter().map(|e| Some(e.loc.clone())));
        option_locs.extend(sec.entries.iter().map(|e| Some(e.loc.clone())));
        self.jobs.push(RawJob {
            name: sec.name.clone(),
            inherited,
            options: sec.entries.iter().map(Entry::pair).collect(),
            implicit_stonewall,
            overrides: 0,
        });
        self.locs.push(JobLocs {
            section: Some(sec.loc),
            options: option_locs,
            clean: file_globals.clean && sec.errors == 0,
        });
    }

    /// Append the checked `--override` pairs to every job's options (they have no file place).
    fn apply_overrides(&mut self, override_pairs: &[(String, String)]) {
        for (j, l) in self.jobs.iter_mut().zip(self.locs.iter_mut()) {
            j.options.extend(override_pairs.iter().cloned());
            j.overrides = override_pairs.len();
            l.options.extend(override_pairs.iter().map(|_| None));
        }
    }
}

/// The `[global]` entries of a job file read so far, and whether their lines had no error.
struct FileGlobals<'a> {
    entries: &'a [Entry],
    clean: bool,
}

/// An error for each `--section` that names no job section of the job files.
fn check_sections(sections: &[String], seen_sections: &[String], diags: &mut Vec<Diag>) {
    for wanted in sections {
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
}

/// The `--override KEY=VALUE` pairs that check out (trimmed); an error for each other one.
fn check_overrides(overrides: &[String], diags: &mut Vec<Diag>) -> Vec<(String, String)> {
    let mut override_pairs: Vec<(String, String)> = Vec::new();
    for o in overrides {
        match check_override(o) {
            Ok(pair) => override_pairs.push(pair),
            Err(d) => diags.push(d),
        }
    }
    override_pairs
}

/// Check one `--override KEY=VALUE`: a known job option other than `name`, with a valid value.
fn check_override(o: &str) -> Result<(String, String), Diag> {
    let Some((k, v)) = o.split_once('=') else {
        return Err(Diag::error(
            None,
            None,
            format!(
                "--override {q_o}: expected KEY=VALUE (a job option and its value)",
                q_o = iomark_output::echo::quote(o)
            ),
        ));
    };
    let (k, v) = (k.trim(), v.trim());
    let def = match options::lookup(k) {
        Some(d) if d.name == "name" => {
            return Err(Diag::error(
                None,
                None,
                "--override cannot rename jobs (name=...)",
            ));
        }
        Some(d) => d,
        None => {
            return Err(Diag::error(
                None,
                None,
                format!("--override: {}", job_builder::unknown_option_message(k)),
            ));
        }
    };
    if let Err(e) = job_builder::check_option(def, v, 1024) {
        return Err(Diag::error(None, None, format!("--override: {e}")));
    }
    Ok((k.to_string(), v.to_string()))
}

/// Type the jobs, adding their problems to `diags` where they were written; the built plan when
/// no line was dropped and every job typed.
fn type_jobs(raw: &RawPlan, locs: &[JobLocs], diags: &mut Vec<Diag>) -> Option<Built> {
    if diags.iter().any(Diag::is_error) {
        // Lines were dropped: type only the jobs they do not touch, for their own problems.
        for (ji, rj) in raw.jobs.iter().enumerate() {
            if locs[ji].clean {
                if let Err(error) = job_builder::build_job(rj, raw.readonly, &mut Vec::new()) {
                    diags.push(locate(
                        raw,
                        locs,
                        job_builder::PlanError::Job { index: ji, error },
                    ));
                }
            }
        }
        None
    } else {
        match job_builder::build_plan_all(raw) {
            Ok(b) => Some(b),
            Err(errs) => {
                diags.extend(errs.into_iter().map(|e| locate(raw, locs, e)));
                None
            }
        }
    }
}

/// A plan error as a diagnostic at the line of the option (or else the section) it is about.
fn locate(raw: &RawPlan, locs: &[JobLocs], e: job_builder::PlanError) -> Diag {
    let l = &locs[e.job_index()];
    let at = e.option().and_then(|i| l.options.get(i).cloned().flatten());
    match at.or_else(|| l.section.clone()) {
        // Placed in the job: the message without the job's name.
        Some(loc) => Diag::error(Some(loc), Some(&raw.jobs[e.job_index()].name), e.cause()),
        None => Diag::error(None, None, e.to_string()),
    }
}

/// The warnings to print, or the errors when there is one (with `--strict` every warning is
/// one).
fn sort_diagnostics(
    warnings: Vec<String>,
    built: Option<&Built>,
    mut diags: Vec<Diag>,
    strict: bool,
) -> Result<Vec<CliWarning>, CliError> {
    // Warnings: the located ones from the files, then the rest (command-line options, switches).
    let mut extra: Vec<String> = warnings;
    if let Some(b) = built {
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
    if !errors.is_empty() {
        return Err(CliError::Diagnostics(errors));
    }
    Ok(located
        .into_iter()
        .map(CliWarning::Located)
        .chain(extra.into_iter().map(CliWarning::Plain))
        .collect())
}

/// Tell each verifying job where its verify_dump files go.
fn set_dump_dirs(plan: &mut RunPlan, output: &OutputOpts, dump_dir: &Option<PathBuf>) {
    // verify_dump files of a device go where the report goes (never beside the device node).
    let fallback = output.file.as_ref().and_then(|f| f.parent()).map(|p| {
        if p.as_os_str().is_empty() {
            std::path::PathBuf::from(".")
        } else {
            p.to_path_buf()
        }
    });
    for v in plan.jobs.iter_mut().filter_map(|j| j.verify.as_mut()) {
        v.dump_dir.clone_from(dump_dir);
        v.dump_fallback_dir.clone_from(&fallback);
    }
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
