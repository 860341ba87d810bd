//! `iomark run [switches] [--name=job --opt=v ...] [jobfile ...]`: fio's command-line rules.
//!
//! - `--opt=value`, `-opt=value`, `--opt value` (when the option takes a value) and bare flags.
//! - `--name=X` starts a new job; options before the first `--name` are globals for every job
//!   (also for the jobs of job files, before the file's own sections). `--name=global` opens
//!   another global section that applies to the jobs after it.
//! - Positional arguments are job files (INI: `[global]`/`[job]` sections, `;`/`#` comments,
//!   `key=value`, bare flags, `include file`, `${VAR}` expansion). Each job file after the first
//!   starts with an implicit stonewall.

use crate::build::{self, RawJob, RawPlan};
use crate::jobfile::{Diag, Entry, HostVars, Loc, Reader, Severity, Vars};
use crate::options::{self, OptKind};
use crate::values::{self, TimeUnit};
use iomark_engine::job::RunPlan;
use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputFormat {
    Normal,
    Json,
    JsonPlus,
    Terse,
}

impl OutputFormat {
    pub fn name(self) -> &'static str {
        match self {
            OutputFormat::Normal => "normal",
            OutputFormat::Json => "json",
            OutputFormat::JsonPlus => "json+",
            OutputFormat::Terse => "terse",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Eta {
    Auto,
    Always,
    Never,
}

#[derive(Clone, Debug, PartialEq)]
pub struct OutputOpts {
    pub formats: Vec<OutputFormat>,
    /// `--output=FILE` (None = stdout).
    pub file: Option<PathBuf>,
    pub terse_version: u32,
    pub eta: Eta,
    /// `--eta-newline[=t]`: end each status line with a newline (every `t` when given).
    pub eta_newline: Option<Duration>,
    pub eta_interval: Option<Duration>,
    pub status_interval: Option<Duration>,
    /// iomark's own result file (`--result=FILE`).
    pub result_file: Option<PathBuf>,
    pub parse_only: bool,
    pub showcmd: bool,
}

impl Default for OutputOpts {
    fn default() -> Self {
        OutputOpts {
            formats: vec![OutputFormat::Normal],
            file: None,
            terse_version: 3,
            eta: Eta::Auto,
            eta_newline: None,
            eta_interval: None,
            status_interval: None,
            result_file: None,
            parse_only: false,
            showcmd: false,
        }
    }
}

/// What the caller should do. Texts are ready to print.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    Run,
    Help(String),
    Version,
    CmdHelp(String),
}

#[derive(Clone, Debug, PartialEq)]
pub struct CliRun {
    pub plan: RunPlan,
    /// The options as written, before typing (for `--showcmd`).
    pub raw: RawPlan,
    pub output: OutputOpts,
    pub action: Action,
    /// For stderr: ignored options and switches.
    pub warnings: Vec<String>,
    pub job_files: Vec<PathBuf>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum CliError {
    UnknownOption {
        name: String,
        suggestion: Option<String>,
    },
    MissingValue {
        option: String,
        form: String,
    },
    InvalidValue {
        option: String,
        value: String,
        reason: String,
    },
    /// Known but not supported (yet) by iomark.
    Unsupported(String),
    /// A job file problem (file, line, message).
    JobFile {
        file: String,
        line: usize,
        message: String,
    },
    /// Typing or validating a job failed (the message names the job).
    Job(String),
    /// Every problem found in the job files and options, each located.
    Diagnostics(Vec<Diag>),
    Other(String),
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::UnknownOption { name, suggestion } => match suggestion {
                Some(s) => write!(f, "unknown option '{name}' (did you mean '{s}'?)"),
                None => write!(f, "unknown option '{name}'"),
            },
            CliError::MissingValue { option, form } => {
                write!(f, "option '{option}' needs a value: {form}")
            }
            CliError::InvalidValue {
                option,
                value,
                reason,
            } => write!(f, "invalid value '{value}' for '{option}': {reason}"),
            CliError::Unsupported(m) | CliError::Job(m) | CliError::Other(m) => f.write_str(m),
            CliError::Diagnostics(list) => {
                for d in list {
                    writeln!(f, "{d}")?;
                }
                let n = list.len();
                write!(
                    f,
                    "{n} problem{} found; nothing was run",
                    if n == 1 { "" } else { "s" }
                )
            }
            CliError::JobFile {
                file,
                line,
                message,
            } => {
                if *line > 0 {
                    write!(f, "{file}:{line}: {message}")
                } else {
                    write!(f, "{file}: {message}")
                }
            }
        }
    }
}

impl std::error::Error for CliError {}

/// Whether a switch takes a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SwitchValue {
    None,
    Required,
    Optional,
}

/// A run switch (not a job option).
#[derive(Clone, Copy, Debug)]
pub struct SwitchDef {
    pub name: &'static str,
    pub short: Option<&'static str>,
    pub value: SwitchValue,
    /// Value placeholder for help.
    pub arg: &'static str,
    pub help: &'static str,
    /// false: a fio switch iomark does not offer (an error), or ignores (a warning, see `ignored`).
    pub supported: bool,
    pub ignored: bool,
}

const fn sw(
    name: &'static str,
    value: SwitchValue,
    arg: &'static str,
    help: &'static str,
) -> SwitchDef {
    SwitchDef {
        name,
        short: None,
        value,
        arg,
        help,
        supported: true,
        ignored: false,
    }
}

const fn sw_ign(name: &'static str, value: SwitchValue, help: &'static str) -> SwitchDef {
    SwitchDef {
        name,
        short: None,
        value,
        arg: "",
        help,
        supported: true,
        ignored: true,
    }
}

const fn sw_no(name: &'static str, value: SwitchValue, help: &'static str) -> SwitchDef {
    SwitchDef {
        name,
        short: None,
        value,
        arg: "",
        help,
        supported: false,
        ignored: false,
    }
}

use SwitchValue as V;

/// Every run switch.
pub static SWITCHES: &[SwitchDef] = &[
    sw(
        "output",
        V::Required,
        "FILE",
        "Write the report to FILE instead of standard output.",
    ),
    sw(
        "output-format",
        V::Required,
        "FMT[,FMT]",
        "Report formats: normal, json, json+, terse (comma-separated).",
    ),
    sw("minimal", V::None, "", "Short for --output-format=terse."),
    sw(
        "terse-version",
        V::Required,
        "N",
        "Terse format version (2, 3, 4 or 5; default 3).",
    ),
    sw(
        "eta",
        V::Required,
        "WHEN",
        "Show the live status line: auto, always or never.",
    ),
    sw(
        "eta-newline",
        V::Optional,
        "TIME",
        "End each status line with a newline (every TIME when given).",
    ),
    sw(
        "eta-interval",
        V::Required,
        "TIME",
        "Refresh the status line this often (default 1s, bare number in ms).",
    ),
    sw(
        "status-interval",
        V::Required,
        "TIME",
        "Print a full report of the results so far every TIME (bare number in seconds). With JSON output every report, the final one included, is one line: newline-delimited JSON.",
    ),
    sw(
        "result",
        V::Required,
        "FILE",
        "Write iomark's complete result (JSON) to FILE.",
    ),
    sw(
        "readonly",
        V::None,
        "",
        "Refuse every job that writes, trims or creates files.",
    ),
    sw(
        "allow-fill",
        V::None,
        "",
        "Allow files larger than the free space of their filesystem.",
    ),
    sw(
        "force-device-write",
        V::None,
        "",
        "Allow writes to a block device that holds a filesystem or partition table.",
    ),
    sw(
        "parse-only",
        V::None,
        "",
        "Check the options and jobs, then stop without doing I/O.",
    ),
    sw(
        "showcmd",
        V::None,
        "",
        "Print the jobs as one command line and stop.",
    ),
    sw(
        "section",
        V::Required,
        "NAME",
        "Run only this section of the job files (repeatable).",
    ),
    sw(
        "override",
        V::Required,
        "KEY=VALUE",
        "Set a job option in every job after all other options, job files included (repeatable).",
    ),
    sw(
        "strict",
        V::None,
        "",
        "Treat warnings (options that have no effect in iomark) as errors.",
    ),
    SwitchDef {
        short: Some("h"),
        ..sw("help", V::None, "", "Print this help.")
    },
    SwitchDef {
        short: Some("v"),
        ..sw("version", V::None, "", "Print the version.")
    },
    sw(
        "cmdhelp",
        V::Optional,
        "OPTION",
        "Describe one job option, or all of them.",
    ),
    sw(
        "enghelp",
        V::Optional,
        "ENGINE",
        "List the I/O engines, or the options of one engine.",
    ),
    sw_ign("debug", V::Required, "fio debug categories (ignored)."),
    sw_ign("max-jobs", V::Required, "fio's job limit (ignored)."),
    sw_ign(
        "alloc-size",
        V::Required,
        "fio's shared-memory pool size (ignored).",
    ),
    sw("warnings-fatal", V::None, "", "Same as --strict."),
    sw_ign(
        "aux-path",
        V::Required,
        "Directory for fio's auxiliary files (ignored).",
    ),
    sw_no("server", V::Optional, "fio's server mode."),
    sw_no("client", V::Required, "fio's client mode."),
    sw_no(
        "daemonize",
        V::Required,
        "Run fio's server in the background.",
    ),
    sw_no("remote-config", V::Required, "Job file on the server side."),
    sw_no(
        "trigger-file",
        V::Required,
        "Run a command when a file appears.",
    ),
    sw_no(
        "trigger-timeout",
        V::Required,
        "Run a command after a delay.",
    ),
    sw_no("trigger", V::Required, "Local trigger command."),
    sw_no("trigger-remote", V::Required, "Remote trigger command."),
    sw_no("idle-prof", V::Required, "CPU idleness profiling."),
    sw_no("inflate-log", V::Required, "Decompress a compressed log."),
    sw_no("crctest", V::Optional, "Checksum speed test."),
    sw_no("cpuclock-test", V::None, "CPU clock test."),
    sw_no("bandwidth-log", V::None, "Bandwidth log for every job."),
    sw_no("merge-blktrace-only", V::None, "Merge blktraces and stop."),
];

fn norm(s: &str) -> String {
    s.to_ascii_lowercase().replace('_', "-")
}

fn find_switch(key: &str, single_dash: bool) -> Option<&'static SwitchDef> {
    let k = norm(key);
    SWITCHES.iter().find(|s| {
        s.name == k
            || (single_dash && s.short == Some(k.as_str()))
            || (s.short == Some(k.as_str()) && key.len() == 1)
    })
}

/// Parse the arguments after `run`.
pub fn parse_run_args(args: &[String]) -> Result<CliRun, CliError> {
    parse_run_args_with(args, &HostVars)
}

/// [`parse_run_args`] with the variables job files expand (`${VAR}`, `$ncpus`, ...) given.
pub fn parse_run_args_with(args: &[String], vars: &dyn Vars) -> Result<CliRun, CliError> {
    let mut output = OutputOpts::default();
    let mut warnings: Vec<String> = Vec::new();
    let mut action = Action::Run;
    let mut readonly = false;
    let mut allow_fill = false;
    let mut force_device_write = false;
    let mut sections: Vec<String> = Vec::new();
    let mut overrides: Vec<String> = Vec::new();
    let mut strict = false;
    let mut job_files: Vec<PathBuf> = Vec::new();

    // CLI globals (before the first --name, and in --name=global sections).
    let mut globals: Vec<(String, String)> = Vec::new();
    let mut jobs: Vec<RawJob> = Vec::new();
    let mut in_job = false;

    let mut i = 0;
    let mut only_files = false;
    while i < args.len() {
        let arg = &args[i];
        i += 1;
        if only_files || arg == "-" || !arg.starts_with('-') || arg.len() == 1 {
            job_files.push(PathBuf::from(arg));
            continue;
        }
        if arg == "--" {
            only_files = true;
            continue;
        }
        let single = !arg.starts_with("--");
        let body = arg.strip_prefix("--").unwrap_or(&arg[1..]);
        let (key, inline) = match body.split_once('=') {
            Some((k, v)) => (k, Some(v.to_string())),
            None => (body, None),
        };

        if let Some(s) = find_switch(key, single) {
            let value = match (s.value, inline) {
                (SwitchValue::None, Some(v)) => {
                    return Err(CliError::InvalidValue {
                        option: s.name.into(),
                        value: v,
                        reason: "this switch takes no value".into(),
                    })
                }
                (SwitchValue::None, None) => None,
                (_, Some(v)) => Some(v),
                (SwitchValue::Optional, None) => None,
                (SwitchValue::Required, None) => {
                    if i < args.len() {
                        i += 1;
                        Some(args[i - 1].clone())
                    } else {
                        return Err(CliError::MissingValue {
                            option: s.name.into(),
                            form: s.arg.into(),
                        });
                    }
                }
            };
            if !s.supported {
                return Err(CliError::Unsupported(format!(
                    "switch '--{}' ({}) is not supported by iomark",
                    s.name,
                    s.help.trim_end_matches('.')
                )));
            }
            if s.ignored {
                warnings.push(format!("switch '--{}' is ignored: {}", s.name, s.help));
                continue;
            }
            let v = value.unwrap_or_default();
            let bad = |reason: &str| CliError::InvalidValue {
                option: s.name.into(),
                value: v.clone(),
                reason: reason.into(),
            };
            match s.name {
                "output" => output.file = Some(PathBuf::from(&v)),
                "output-format" => {
                    let mut f = Vec::new();
                    for part in v.split(',').map(str::trim).filter(|p| !p.is_empty()) {
                        let fmt = match part.to_ascii_lowercase().as_str() {
                            "normal" => OutputFormat::Normal,
                            "json" => OutputFormat::Json,
                            "json+" => OutputFormat::JsonPlus,
                            "terse" => OutputFormat::Terse,
                            _ => {
                                return Err(bad(
                                    "expected normal, json, json+ or terse (comma-separated)",
                                ))
                            }
                        };
                        if !f.contains(&fmt) {
                            f.push(fmt);
                        }
                    }
                    if f.is_empty() {
                        return Err(bad(
                            "expected normal, json, json+ or terse (comma-separated)",
                        ));
                    }
                    output.formats = f;
                }
                "minimal" => output.formats = vec![OutputFormat::Terse],
                "terse-version" => {
                    output.terse_version = match v.trim() {
                        "2" => 2,
                        "3" => 3,
                        "4" => 4,
                        "5" => 5,
                        _ => return Err(bad("expected 2, 3, 4 or 5")),
                    }
                }
                "eta" => {
                    output.eta = match v.trim().to_ascii_lowercase().as_str() {
                        "auto" => Eta::Auto,
                        "always" => Eta::Always,
                        "never" => Eta::Never,
                        _ => return Err(bad("expected auto, always or never")),
                    }
                }
                "eta-newline" => {
                    output.eta_newline = Some(if v.is_empty() {
                        Duration::ZERO
                    } else {
                        values::parse_time(&v, TimeUnit::Ms).map_err(|e| bad(&e))?
                    })
                }
                "eta-interval" => {
                    let d = values::parse_time(&v, TimeUnit::Ms).map_err(|e| bad(&e))?;
                    if d < Duration::from_millis(250) {
                        return Err(bad("the minimum is 250ms"));
                    }
                    output.eta_interval = Some(d);
                }
                "status-interval" => {
                    let d = values::parse_time(&v, TimeUnit::S).map_err(|e| bad(&e))?;
                    output.status_interval = if d.is_zero() { None } else { Some(d) };
                }
                "result" => output.result_file = Some(PathBuf::from(&v)),
                "readonly" => readonly = true,
                "allow-fill" => allow_fill = true,
                "force-device-write" => force_device_write = true,
                "parse-only" => output.parse_only = true,
                "showcmd" => output.showcmd = true,
                "section" => sections.push(v),
                "override" => overrides.push(v),
                "strict" | "warnings-fatal" => strict = true,
                "help" => action = Action::Help(crate::doc::help_text()),
                "version" => action = Action::Version,
                "cmdhelp" => {
                    let name = if v.is_empty() || v == "all" {
                        None
                    } else {
                        Some(v.as_str())
                    };
                    action = Action::CmdHelp(crate::doc::cmdhelp(name).map_err(CliError::Other)?);
                }
                "enghelp" => {
                    let name = if v.is_empty() { None } else { Some(v.as_str()) };
                    action = Action::CmdHelp(crate::doc::enghelp(name).map_err(CliError::Other)?);
                }
                _ => {}
            }
            continue;
        }

        let Some(def) = options::lookup(key) else {
            let sugg = options::nearest(
                key,
                options::all_spellings().chain(SWITCHES.iter().map(|s| s.name)),
            )
            .map(String::from);
            return Err(CliError::UnknownOption {
                name: key.to_string(),
                suggestion: sugg,
            });
        };
        let value = match inline {
            Some(v) => v,
            None if def.kind.value_optional() => String::new(),
            None => {
                let next = args.get(i);
                let takes = match (def.kind, next) {
                    (_, None) => false,
                    (OptKind::Bool, Some(n)) => values::parse_bool(n).is_ok(),
                    (_, Some(n)) => {
                        !n.starts_with('-')
                            || n.len() > 1 && n[1..].starts_with(|c: char| c.is_ascii_digit())
                    }
                };
                if !takes {
                    return Err(CliError::MissingValue {
                        option: def.name.into(),
                        form: def.kind.form(),
                    });
                }
                i += 1;
                args[i - 1].clone()
            }
        };
        if def.name == "name" {
            let v = value.trim();
            if v.is_empty() {
                return Err(CliError::MissingValue {
                    option: "name".into(),
                    form: "a job name".into(),
                });
            }
            if v == "global" {
                in_job = false;
            } else {
                jobs.push(RawJob {
                    name: v.to_string(),
                    inherited: globals.clone(),
                    options: Vec::new(),
                    implicit_stonewall: false,
                    overrides: 0,
                });
                in_job = true;
            }
            continue;
        }
        if in_job {
            if let Some(j) = jobs.last_mut() {
                j.options.push((key.to_string(), value));
            }
        } else {
            globals.push((key.to_string(), value));
        }
    }

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
        let mut reader = Reader::new(vars);
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
            let mut inherited = globals.clone();
            inherited.extend(file_globals.iter().map(Entry::pair));
            let mut option_locs = vec![None; globals.len()];
            option_locs.extend(file_globals.iter().map(|e| Some(e.loc.clone())));
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
                format!("--override '{o}': expected KEY=VALUE (a job option and its value)"),
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

    if action != Action::Run {
        return Ok(CliRun {
            plan: RunPlan::default(),
            raw: RawPlan::default(),
            output,
            action,
            warnings,
            job_files,
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
        overrides: override_pairs,
    };
    let locate = |e: build::PlanError| -> Diag {
        let l = &locs[e.job];
        let at = e.option.and_then(|i| l.options.get(i).cloned().flatten());
        match at.or_else(|| l.section.clone()) {
            Some(loc) => {
                let name = &raw.jobs[e.job].name;
                let prefix = format!("job '{name}': ");
                let m = e.message.strip_prefix(&prefix).unwrap_or(&e.message);
                Diag::error(Some(loc), Some(name), m)
            }
            None => Diag::error(None, None, e.message),
        }
    };
    let mut built = None;
    if diags.iter().any(Diag::is_error) {
        // Lines were dropped: type only the jobs they do not touch, for their own problems.
        for (ji, rj) in raw.jobs.iter().enumerate() {
            if locs[ji].clean {
                if let Err((option, message)) = build::build_job_at(rj, readonly, &mut Vec::new()) {
                    diags.push(locate(build::PlanError {
                        job: ji,
                        option,
                        message,
                    }));
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
    warnings = diags
        .iter()
        .filter(|d| !d.is_error())
        .map(|d| d.to_string())
        .collect();
    warnings.extend(extra);
    let errors: Vec<Diag> = diags.into_iter().filter(Diag::is_error).collect();
    if !errors.is_empty() {
        return Err(CliError::Diagnostics(errors));
    }
    let built = built.expect("built when there is no error");
    Ok(CliRun {
        plan: built.plan,
        raw,
        output,
        action,
        warnings,
        job_files,
    })
}

/// Where the options of one job were written.
struct JobLocs {
    section: Option<Loc>,
    options: Vec<Option<Loc>>,
    /// No error was found in the lines this job uses.
    clean: bool,
}

fn quote_arg(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_=.,:/+%@^$".contains(c))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// The jobs as one `iomark run` command line (`--showcmd`) that yields the same job model:
/// options every job inherits come first (globals), then each job with the rest of what it
/// inherits and its own options; an implicit stonewall (second job file) is written out, and
/// overrides are given as `--override`.
pub fn showcmd(raw: &RawPlan) -> String {
    let mut parts = vec!["iomark".to_string(), "run".to_string()];
    let opt = |k: &str, v: &str| {
        if v.is_empty() {
            format!("--{k}")
        } else {
            quote_arg(&format!("--{k}={v}"))
        }
    };
    for (flag, on) in [
        ("--readonly", raw.readonly),
        ("--allow-fill", raw.allow_fill),
        ("--force-device-write", raw.force_device_write),
    ] {
        if on {
            parts.push(flag.to_string());
        }
    }
    for (k, v) in &raw.overrides {
        parts.push(quote_arg(&format!("--override={k}={v}")));
    }
    // The longest prefix of inherited options shared by every job.
    let common = match raw.jobs.split_first() {
        None => raw.global_options.len(),
        Some((first, rest)) => {
            let mut n = first.inherited.len();
            for j in rest {
                n = n.min(
                    first
                        .inherited
                        .iter()
                        .zip(&j.inherited)
                        .take_while(|(a, b)| a == b)
                        .count(),
                );
            }
            n
        }
    };
    let globals = match raw.jobs.first() {
        Some(j) => &j.inherited[..common],
        None => &raw.global_options[..],
    };
    for (k, v) in globals {
        parts.push(opt(k, v));
    }
    for j in &raw.jobs {
        parts.push(quote_arg(&format!("--name={}", j.name)));
        let own_end = j.options.len().saturating_sub(j.overrides);
        let mine: Vec<&(String, String)> = j.inherited[common..]
            .iter()
            .chain(&j.options[..own_end])
            .filter(|(k, _)| options::lookup(k).map(|d| d.name) != Some("name"))
            .collect();
        let says_stonewall = mine
            .iter()
            .any(|(k, _)| options::lookup(k).map(|d| d.name) == Some("stonewall"));
        if j.implicit_stonewall && !says_stonewall {
            parts.push("--stonewall".into());
        }
        for (k, v) in mine {
            parts.push(opt(k, v));
        }
    }
    parts.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use iomark_engine::job::{BlockSize, EngineKind, RwMode, SizeSpec};

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    fn run(s: &str) -> Result<CliRun, CliError> {
        parse_run_args(&args(s))
    }

    const SEED_LINES: &str = "\
fio --name=full-write-test --filename=/backups/testfile.dat --size=25G --bs=512k --rw=write --ioengine=libaio --direct=1 --time_based --runtime=600s
fio --name=merge-test --filename=/backups/testfile.dat --size=100G --bs=512k --rw=randrw --rwmixwrite=50 --direct=1 --ioengine=libaio --iodepth=4 --runtime=600 --time_based
fio --name=reverse-inc-test --filename=/tmp/testfile.dat --size=100G --bs=512k --rw=randrw --rwmixwrite=67 --direct=1 --ioengine=libaio --iodepth=4 --runtime=600 --time_based
fio --name=seq-read-test --filename=/backups/JobName/VMname.vbk --bs=512k --rw=read --ioengine=libaio --direct=1 --time_based --runtime=600
fio --name=frag-read-test --filename=/backups/JobName/VMname.vbk --bs=512k --rw=randread --ioengine=libaio --direct=1 --time_based --runtime=600s
fio --name=write_bandwidth_test --filename=/dev/rbd0 --filesize=16Gi --offset_increment=1Gi --time_based --ramp_time=2s --runtime=1m --ioengine=libaio --direct=1 --verify=0 --randrepeat=0 --bs=1M --iodepth=64 --rw=write --numjobs=16 --group_reporting
fio --name=read_bandwidth_test --filename=/dev/rbd0 --filesize=16Gi --offset_increment=1Gi --time_based --ramp_time=2s --runtime=1m --ioengine=libaio --direct=1 --verify=0 --randrepeat=0 --bs=1M --iodepth=64 --rw=read --numjobs=16 --group_reporting
fio --name=write_iops_test --filename=/dev/rbd0 --filesize=16Gi --time_based --ramp_time=2s --runtime=1m --ioengine=libaio --direct=1 --verify=0 --randrepeat=0 --bs=4K --iodepth=256 --rw=randwrite
fio --name=read_iops_test --filename=/dev/rbd0 --filesize=16Gi --time_based --ramp_time=2s --runtime=1m --ioengine=libaio --direct=1 --verify=0 --randrepeat=0 --bs=4K --iodepth=256 --rw=randread
fio --name=write_latency_test --filename=/dev/rbd0 --filesize=16Gi --time_based --ramp_time=2s --runtime=1m --ioengine=libaio --direct=1 --verify=0 --randrepeat=0 --bs=4K --iodepth=4 --rw=randwrite
fio --name=read_latency_test --filename=/dev/rbd0 --filesize=16Gi --time_based --ramp_time=2s --runtime=1m --ioengine=libaio --direct=1 --verify=0 --randrepeat=0 --bs=4K --iodepth=4 --rw=randread
fio --runtime 30 azure-fiowrite.ini
fio --runtime 30 azure-fioread.ini
fio --runtime 30 azure-fioreadwrite.ini
fio -filename=/dev/rhel/perf-test-lvm -rw=read -direct=1 -ioengine=sync -size=2g -numjobs=1 -bs=8k -name=robert_read
fio -filename=/dev/rhel/perf-test-lvm -rw=write -direct=1 -ioengine=sync -size=2g -numjobs=1 -bs=8k -name=robert_write
fio -filename=/dev/rhel/perf-test-lvm -rw=randread -direct=1 -ioengine=sync -size=128m -numjobs=1 -bs=8k -name=robert_randread
fio -filename=/dev/rhel/perf-test-lvm -rw=randwrite -direct=1 -ioengine=sync -size=128m -numjobs=1 -bs=8k -name=robert_randwrite
";

    const AZURE_WRITE: &str = "[global]\nsize=30g\ndirect=1\niodepth=256\nioengine=libaio\nbs=8k\n\n[writer1]\nrw=randwrite\ndirectory=/mnt/nocache\n[writer2]\nrw=randwrite\ndirectory=/mnt/nocache\n[writer3]\nrw=randwrite\ndirectory=/mnt/nocache\n[writer4]\nrw=randwrite\ndirectory=/mnt/nocache\n";
    const AZURE_READ: &str = "[global]\nsize=30g\ndirect=1\niodepth=256\nioengine=libaio\nbs=8k\n\n[reader1]\nrw=randread\ndirectory=/mnt/readcache\n[reader2]\nrw=randread\ndirectory=/mnt/readcache\n[reader3]\nrw=randread\ndirectory=/mnt/readcache\n[reader4]\nrw=randread\ndirectory=/mnt/readcache\n";

    fn azure_rw() -> String {
        let mut s =
            String::from("[global]\nsize=30g\ndirect=1\niodepth=128\nioengine=libaio\nbs=4k\n\n");
        for i in 1..=4 {
            s += &format!("[reader{i}]\nrw=randread\ndirectory=/mnt/readcache\n");
        }
        s += "\n";
        for i in 1..=4 {
            s += &format!("[writer{i}]\nrw=randwrite\ndirectory=/mnt/nocache\nrate_iops=12500\n");
        }
        s
    }

    use iomark_engine::test_support::TempDir;

    /// Check a few fields of a parsed seed line: (rw, bs, iodepth, numjobs, engine, direct,
    /// runtime s, time_based, ramp s, rwmixread).
    type Expect = (
        RwMode,
        u64,
        u32,
        u32,
        EngineKind,
        bool,
        Option<u64>,
        bool,
        u64,
        u32,
    );

    fn check(line: &str, j: &iomark_engine::job::JobSpec, e: Expect) {
        assert_eq!(j.rw, e.0, "{line}");
        assert_eq!(j.bs.read, BlockSize::Fixed(e.1), "{line}");
        assert_eq!(j.iodepth, e.2, "{line}");
        assert_eq!(j.numjobs, e.3, "{line}");
        assert_eq!(j.ioengine, e.4, "{line}");
        assert_eq!(j.direct, e.5, "{line}");
        assert_eq!(j.runtime.map(|d| d.as_secs()), e.6, "{line}");
        assert_eq!(j.time_based, e.7, "{line}");
        assert_eq!(j.ramp_time.as_secs(), e.8, "{line}");
        assert_eq!(j.rwmixread, e.9, "{line}");
    }

    #[test]
    fn every_seed_fio_line_parses() {
        use EngineKind::*;
        use RwMode::*;
        let dir = TempDir::new("seed");
        std::fs::write(dir.0.join("azure-fiowrite.ini"), AZURE_WRITE).unwrap();
        std::fs::write(dir.0.join("azure-fioread.ini"), AZURE_READ).unwrap();
        std::fs::write(dir.0.join("azure-fioreadwrite.ini"), azure_rw()).unwrap();
        let k = 1024u64;
        let expect: Vec<Expect> = vec![
            (Write, 512 * k, 1, 1, Libaio, true, Some(600), true, 0, 50),
            (RandRw, 512 * k, 4, 1, Libaio, true, Some(600), true, 0, 50),
            (RandRw, 512 * k, 4, 1, Libaio, true, Some(600), true, 0, 33),
            (Read, 512 * k, 1, 1, Libaio, true, Some(600), true, 0, 50),
            (
                RandRead,
                512 * k,
                1,
                1,
                Libaio,
                true,
                Some(600),
                true,
                0,
                50,
            ),
            (Write, k * k, 64, 16, Libaio, true, Some(60), true, 2, 50),
            (Read, k * k, 64, 16, Libaio, true, Some(60), true, 2, 50),
            (
                RandWrite,
                4 * k,
                256,
                1,
                Libaio,
                true,
                Some(60),
                true,
                2,
                50,
            ),
            (RandRead, 4 * k, 256, 1, Libaio, true, Some(60), true, 2, 50),
            (RandWrite, 4 * k, 4, 1, Libaio, true, Some(60), true, 2, 50),
            (RandRead, 4 * k, 4, 1, Libaio, true, Some(60), true, 2, 50),
            (
                RandWrite,
                8 * k,
                256,
                1,
                Libaio,
                true,
                Some(30),
                false,
                0,
                50,
            ),
            (
                RandRead,
                8 * k,
                256,
                1,
                Libaio,
                true,
                Some(30),
                false,
                0,
                50,
            ),
            (
                RandRead,
                4 * k,
                128,
                1,
                Libaio,
                true,
                Some(30),
                false,
                0,
                50,
            ),
            (Read, 8 * k, 1, 1, Sync, true, None, false, 0, 50),
            (Write, 8 * k, 1, 1, Sync, true, None, false, 0, 50),
            (RandRead, 8 * k, 1, 1, Sync, true, None, false, 0, 50),
            (RandWrite, 8 * k, 1, 1, Sync, true, None, false, 0, 50),
        ];
        let lines: Vec<&str> = SEED_LINES.lines().collect();
        assert_eq!(lines.len(), expect.len());
        for (line, e) in lines.iter().zip(expect) {
            let mut a = args(line.strip_prefix("fio ").unwrap());
            for x in a.iter_mut() {
                if x.ends_with(".ini") {
                    *x = dir.0.join(&*x).display().to_string();
                }
            }
            let r = parse_run_args(&a).unwrap_or_else(|e| panic!("{line}: {e}"));
            assert!(r.warnings.is_empty(), "{line}: {:?}", r.warnings);
            assert!(!r.plan.jobs.is_empty());
            for j in r
                .plan
                .jobs
                .iter()
                .filter(|j| !j.name.starts_with("writer") || !line.contains("readwrite"))
            {
                check(line, j, e);
            }
            let j = &r.plan.jobs[0];
            if line.contains("bandwidth") {
                assert_eq!(j.filesize, Some((16 << 30, 16 << 30)));
                assert_eq!(j.offset_increment, SizeSpec::Bytes(1 << 30));
                assert!(j.group_reporting);
                assert!(!j.randrepeat);
            }
            if line.contains("azure") {
                assert_eq!(r.job_files.len(), 1);
                assert_eq!(r.plan.global_options[0], ("runtime".into(), "30".into()));
                assert_eq!(j.size, Some(SizeSpec::Bytes(30 << 30)));
                assert_eq!(j.options[0], ("name".into(), j.name.clone()));
            }
            if line.contains("readwrite.ini") {
                assert_eq!(r.plan.jobs.len(), 8);
                assert_eq!(r.plan.jobs[7].rw, RandWrite);
                assert_eq!(r.plan.jobs[7].bs.write, BlockSize::Fixed(4096));
                assert_eq!(r.plan.jobs[7].rate.iops.write, 12500);
                assert_eq!(
                    r.plan.jobs[7].directories,
                    vec![PathBuf::from("/mnt/nocache")]
                );
            }
            if line.contains("robert") {
                assert_eq!(r.plan.jobs.len(), 1);
                assert!(j.name.starts_with("robert_"));
                assert_eq!(j.filenames, vec![PathBuf::from("/dev/rhel/perf-test-lvm")]);
            }
        }
    }

    #[test]
    fn globals_and_job_scoping() {
        let r = run("--bs=8k --ioengine=null --name=a --rw=write --iodepth=4 --name=b --bs=16k")
            .unwrap();
        assert_eq!(r.plan.jobs.len(), 2);
        let (a, b) = (&r.plan.jobs[0], &r.plan.jobs[1]);
        assert_eq!(a.bs.read, BlockSize::Fixed(8192));
        assert_eq!(a.rw, RwMode::Write);
        assert_eq!(a.iodepth, 4);
        assert_eq!(b.bs.read, BlockSize::Fixed(16384));
        assert_eq!(b.rw, RwMode::Read);
        assert_eq!(b.iodepth, 1);
        assert_eq!(b.ioengine, EngineKind::Null);
        assert_eq!(
            r.plan.global_options,
            vec![
                ("bs".into(), "8k".into()),
                ("ioengine".into(), "null".into())
            ]
        );
        assert_eq!(
            a.options,
            vec![
                ("name".into(), "a".into()),
                ("rw".into(), "write".into()),
                ("iodepth".into(), "4".into())
            ]
        );
    }

    #[test]
    fn value_forms() {
        let r = run(
            "--name x --runtime 30 -iodepth 8 -rw=randread --time_based --blocksize=4k --size 1g",
        )
        .unwrap();
        let j = &r.plan.jobs[0];
        assert_eq!(j.name, "x");
        assert_eq!(j.runtime, Some(Duration::from_secs(30)));
        assert_eq!(j.iodepth, 8);
        assert_eq!(j.rw, RwMode::RandRead);
        assert!(j.time_based);
        assert_eq!(j.options[5], ("bs".into(), "4k".into()));
        let r = run("--name=x --direct 1 --norandommap --offset -0").unwrap();
        assert!(r.plan.jobs[0].direct);
        assert!(r.plan.jobs[0].norandommap);
    }

    #[test]
    fn errors() {
        let e = run("--name=x --blocksiz=4k").unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown option 'blocksiz' (did you mean 'blocksize'?)"
        );
        let e = run("--name=x --iodepht=4").unwrap_err();
        assert!(e.to_string().contains("did you mean 'iodepth'"), "{e}");
        let e = run("--output-fromat=json --name=x").unwrap_err();
        assert!(
            e.to_string().contains("did you mean 'output-format'"),
            "{e}"
        );
        let e = run("--name=x --bs").unwrap_err();
        assert!(matches!(e, CliError::MissingValue { .. }), "{e}");
        assert!(e.to_string().contains("4k"), "{e}");
        let e = run("--name=x --direct --size=1m").unwrap_err();
        assert!(e.to_string().contains("'direct' needs a value"), "{e}");
        let e = run("--name=x --bs=4z").unwrap_err();
        let m = e.to_string();
        assert!(
            m.contains("job 'x'") && m.contains("'4z'") && m.contains("'bs'"),
            "{m}"
        );
        let e = run("--name=x --rw=write --verify=sha512").unwrap_err();
        assert!(
            e.to_string()
                .contains("verify=sha512' is not supported yet"),
            "{e}"
        );
        let e = run("--name=x --zonemode=zbd").unwrap_err();
        assert!(e.to_string().contains("zoned"), "{e}");
        let e = run("--rw=read").unwrap_err();
        assert!(e.to_string().contains("no jobs"), "{e}");
        let e = run("--server --name=x").unwrap_err();
        assert!(matches!(e, CliError::Unsupported(_)));
        let e = run("--output-format=xml --name=x").unwrap_err();
        assert!(e.to_string().contains("json+"), "{e}");
    }

    #[test]
    fn ignored_option_warns() {
        let r = run("--clocksource=cpu --name=x --random_generator=lfsr --name=y").unwrap();
        assert_eq!(r.warnings.len(), 2, "{:?}", r.warnings);
        assert!(r.warnings[0].contains("clocksource"));
        assert!(r.warnings[1].contains("random_generator"));
    }

    #[test]
    fn engine_option_order() {
        assert!(run("--name=x --ioengine=io_uring --fixedbufs --hipri").is_ok());
        let e = run("--name=x --fixedbufs --ioengine=io_uring").unwrap_err();
        assert!(
            e.to_string().contains("must come after ioengine=io_uring"),
            "{e}"
        );
        let e = run("--name=x --ioengine=libaio --sqthread_poll").unwrap_err();
        assert!(
            e.to_string().contains("belongs to ioengine io_uring"),
            "{e}"
        );
        assert!(run("--ioengine=io_uring --name=x --registerfiles").is_ok());
    }

    #[test]
    fn switches() {
        let r = run("--output-format=json,json+ --output=out.json --eta=never --status-interval=2 --result=r.json --readonly --parse-only --terse-version=3 --name=x").unwrap();
        assert_eq!(
            r.output.formats,
            vec![OutputFormat::Json, OutputFormat::JsonPlus]
        );
        assert_eq!(r.output.file, Some(PathBuf::from("out.json")));
        assert_eq!(r.output.eta, Eta::Never);
        assert_eq!(r.output.status_interval, Some(Duration::from_secs(2)));
        assert_eq!(r.output.result_file, Some(PathBuf::from("r.json")));
        assert!(r.output.parse_only);
        assert!(r.plan.readonly && r.plan.jobs[0].readonly);
        let r = run("--minimal --name=x").unwrap();
        assert_eq!(r.output.formats, vec![OutputFormat::Terse]);
        let e = run("--readonly --name=x --rw=randwrite").unwrap_err();
        assert!(e.to_string().contains("--readonly"), "{e}");
        assert!(matches!(run("--help").unwrap().action, Action::Help(_)));
        assert!(matches!(run("-h").unwrap().action, Action::Help(_)));
        assert_eq!(run("--version").unwrap().action, Action::Version);
        match run("--cmdhelp=bs").unwrap().action {
            Action::CmdHelp(t) => assert!(t.contains("blocksize")),
            a => panic!("{a:?}"),
        }
        assert!(run("--cmdhelp=blocksiz")
            .unwrap_err()
            .to_string()
            .contains("blocksize"));
        let r = run("--debug=io --name=x").unwrap();
        assert!(r.warnings[0].contains("debug"));
    }

    #[test]
    fn job_files() {
        let dir = TempDir::new("files");
        let f1 = dir.0.join("a.fio");
        let f2 = dir.0.join("b.fio");
        std::fs::write(dir.0.join("inc.fio"), "iodepth=7\n").unwrap();
        std::fs::write(
            &f1,
            "; comment\n# another\n[global]\nioengine=null\nbs=8k\n[one]\nrw=randread\ninclude inc.fio\n[two]\nnorandommap ; flag\nbs=${IOMARK_TEST_UNSET_VAR}16k # sixteen\nbuffer_pattern=\"a;b\"\n[global]\nbs=32k\n[three]\n",
        )
        .unwrap();
        std::fs::write(&f2, "[four]\nioengine=null\n[five]\nioengine=null\n").unwrap();
        let a = vec![
            "--runtime=5".to_string(),
            f1.display().to_string(),
            "--bs=4k".to_string(),
            f2.display().to_string(),
            "--name=cli".to_string(),
            "--ioengine=null".to_string(),
        ];
        let r = parse_run_args(&a).unwrap();
        let names: Vec<&str> = r.plan.jobs.iter().map(|j| j.name.as_str()).collect();
        assert_eq!(names, vec!["cli", "one", "two", "three", "four", "five"]);
        let j = |n: &str| r.plan.jobs.iter().find(|j| j.name == n).unwrap();
        assert_eq!(j("cli").bs.read, BlockSize::Fixed(4096));
        assert_eq!(j("one").bs.read, BlockSize::Fixed(8192));
        assert_eq!(j("one").iodepth, 7);
        assert_eq!(j("one").runtime, Some(Duration::from_secs(5)));
        assert_eq!(j("two").bs.read, BlockSize::Fixed(16384));
        assert!(j("two").norandommap);
        assert_eq!(j("two").buffers.pattern.as_deref(), Some(&b"a;b"[..]));
        assert_eq!(j("three").bs.read, BlockSize::Fixed(32768));
        assert_eq!(j("four").bs.read, BlockSize::Fixed(4096));
        let groups: Vec<u32> = r.plan.jobs.iter().map(|j| j.group_id).collect();
        assert_eq!(groups, vec![0, 0, 0, 0, 1, 1]);
        assert!(j("four").stonewall && !j("five").stonewall);

        let a = vec!["--section=two".to_string(), f1.display().to_string()];
        let r = parse_run_args(&a).unwrap();
        assert_eq!(r.plan.jobs.len(), 1);
        assert_eq!(r.plan.jobs[0].name, "two");

        let bad = dir.0.join("bad.fio");
        std::fs::write(&bad, "[x]\nioengine=null\nblocksiz=4k\n").unwrap();
        let e = parse_run_args(&[bad.display().to_string()]).unwrap_err();
        assert!(
            e.to_string().contains(
                "bad.fio:3:1: error: [x] unknown option 'blocksiz' (did you mean 'blocksize'?)"
            ),
            "{e}"
        );
        let e = parse_run_args(&[dir.0.join("missing.fio").display().to_string()]).unwrap_err();
        assert!(e.to_string().contains("cannot read"), "{e}");
    }

    #[test]
    fn global_sections_on_the_command_line() {
        let r = run("--bs=8k --name=a --name=global --iodepth=4 --name=b --name=c --iodepth=2")
            .unwrap();
        let d: Vec<(u64, u32)> = r
            .plan
            .jobs
            .iter()
            .map(|j| (j.bs.read.max(), j.iodepth))
            .collect();
        assert_eq!(d, vec![(8192, 1), (8192, 4), (8192, 2)]);
        assert_eq!(r.plan.global_options.len(), 2);
        let r = run("--enghelp=io_uring").unwrap();
        assert!(matches!(r.action, Action::CmdHelp(t) if t.contains("fixedbufs")));
        let r = run("--cmdhelp").unwrap();
        assert!(matches!(r.action, Action::CmdHelp(t) if t.contains("zonemode")));
    }

    #[test]
    fn showcmd_round_trips() {
        let r = run("--bs=8k --name=a --rw=write --time_based --runtime=1 --name=b --filename=x:y")
            .unwrap();
        let cmd = showcmd(&r.raw);
        assert_eq!(
            cmd,
            "iomark run --bs=8k --name=a --rw=write --time_based --runtime=1 --name=b --filename=x:y"
        );
        let again: Vec<String> = cmd.split_whitespace().skip(2).map(String::from).collect();
        assert_eq!(parse_run_args(&again).unwrap().plan, r.plan);
    }
}
