//! The run switches (`--output-format`, `--override`, ...): one table row per switch, each with
//! the setter that stores its value in [`Switches`], the command line's own options. The
//! command-line parser, `--help` and the man page read this table.

use crate::options::{Choice, Choices};
use crate::values::{self, TimeUnit};
use iomark_output::result_option;
use std::path::PathBuf;
use std::time::Duration;
use thiserror::Error;

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
    /// `--warnings`: print warnings and notes on stderr too (they are always in the output).
    pub warnings: bool,
    /// `--bandwidth-log`: write the run's aggregate bandwidth logs.
    pub bandwidth_log: bool,
    /// `--debug=random`: print the seed lines of every job clone before the run.
    pub debug_random: bool,
    /// `--debug` classes that print nothing in iomark (a warning each).
    pub debug_ignored: Vec<String>,
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
            warnings: false,
            bandwidth_log: false,
            debug_random: false,
            debug_ignored: Vec::new(),
        }
    }
}

/// A request that ends the run before any job is built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    Help,
    Version,
    /// `--cmdhelp[=OPTION]` (None: every option).
    CmdHelp(Option<String>),
    /// `--enghelp[=ENGINE]` (None: every engine).
    EngHelp(Option<String>),
    /// `--inflate-log=FILE`.
    InflateLog(String),
}

/// What the switches set: the command line's options besides the jobs.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Switches {
    pub output: OutputOpts,
    /// The last help/version request, not yet answered.
    pub request: Option<Request>,
    pub readonly: bool,
    pub allow_fill: bool,
    pub force_device_write: bool,
    pub allow_unlink_existing: bool,
    /// `--dump-dir`: where `verify_dump` writes the blocks of every target.
    pub dump_dir: Option<PathBuf>,
    /// `--section` (repeatable).
    pub sections: Vec<String>,
    /// `--override KEY=VALUE` as written (repeatable).
    pub overrides: Vec<String>,
    pub strict: bool,
}

/// Why a switch's value was refused (the reason shown after the value).
#[derive(Clone, Debug, Error, PartialEq)]
#[error("{0}")]
pub struct SwitchError(pub crate::options::Reason);

/// A switch's setter: its value (empty when none was given) into [`Switches`].
pub type SwitchSet = fn(&mut Switches, &str) -> Result<(), SwitchError>;

/// Whether a switch takes a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SwitchValue {
    None,
    Required,
    Optional,
}

/// A run switch (not a job option).
#[derive(Clone, Copy)]
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
    /// How the value is stored (None for switches that are refused or ignored).
    pub set: Option<SwitchSet>,
}

const fn sw(
    name: &'static str,
    value: SwitchValue,
    arg: &'static str,
    help: &'static str,
    set: SwitchSet,
) -> SwitchDef {
    SwitchDef {
        name,
        short: None,
        value,
        arg,
        help,
        supported: true,
        ignored: false,
        set: Some(set),
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
        set: None,
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
        set: None,
    }
}

impl SwitchDef {
    const fn short(mut self, short: &'static str) -> Self {
        self.short = Some(short);
        self
    }
}

/// fio 3.33's debug classes.
const DEBUG_CLASSES: &[&str] = &[
    "process",
    "file",
    "io",
    "mem",
    "blktrace",
    "verify",
    "random",
    "parse",
    "diskutil",
    "job",
    "mutex",
    "profile",
    "time",
    "net",
    "rate",
    "compress",
    "steadystate",
    "helperthread",
    "zbd",
    "all",
];

fn set_debug(s: &mut Switches, v: &str) -> Result<(), SwitchError> {
    for class in v.split(',').map(str::trim).filter(|c| !c.is_empty()) {
        if !DEBUG_CLASSES.contains(&class) {
            return Err(SwitchError(
                format!(
                    "no debug class '{class}': expected {}",
                    crate::options::or_list(DEBUG_CLASSES)
                )
                .into(),
            ));
        }
        if class == "random" || class == "all" {
            s.output.debug_random = true;
        }
        if class != "random" {
            s.output.debug_ignored.push(class.to_string());
        }
    }
    Ok(())
}

/// Store the word's value through `choice`, or say which words are allowed.
fn choose<T>(choice: &dyn Choice<T>, target: &mut T, v: &str) -> Result<(), SwitchError> {
    let w = v.trim().to_ascii_lowercase();
    if choice.apply(target, &w) {
        Ok(())
    } else {
        Err(SwitchError(
            format!("expected {}", crate::options::or_list(&choice.words())).into(),
        ))
    }
}

static FORMATS: Choices<OutputFormat, Vec<OutputFormat>> = Choices {
    words: &[
        ("normal", OutputFormat::Normal),
        ("json", OutputFormat::Json),
        ("json+", OutputFormat::JsonPlus),
        ("terse", OutputFormat::Terse),
    ],
    set: |list, f| {
        if !list.contains(&f) {
            list.push(f)
        }
    },
};

/// `--output-format=FMT[,FMT]`.
fn output_format(s: &mut Switches, v: &str) -> Result<(), SwitchError> {
    s.output.formats = parse_output_formats(v)?;
    Ok(())
}

/// The formats of an `--output-format` value (`normal`, `json`, `json+`, `terse`, comma
/// separated), in order and each once.
pub fn parse_output_formats(v: &str) -> Result<Vec<OutputFormat>, SwitchError> {
    let bad = || {
        SwitchError(
            format!(
                "expected {} (comma-separated)",
                crate::options::or_list(&FORMATS.words())
            )
            .into(),
        )
    };
    let mut list = Vec::new();
    for part in v.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        choose(&FORMATS, &mut list, part).map_err(|_| bad())?;
    }
    if list.is_empty() {
        return Err(bad());
    }
    Ok(list)
}

fn time(v: &str, unit: TimeUnit) -> Result<Duration, SwitchError> {
    values::parse_time(v, unit).map_err(|e| SwitchError(e.into()))
}

fn set_result(s: &mut Switches, v: &str) -> Result<(), SwitchError> {
    s.output.result_file = Some(PathBuf::from(v));
    Ok(())
}

fn optional(v: &str) -> Option<String> {
    if v.is_empty() {
        None
    } else {
        Some(v.to_string())
    }
}

use SwitchValue as V;

/// Every run switch.
#[rustfmt::skip]
pub static SWITCHES: &[SwitchDef] = &[
    sw("output", V::Required, "FILE", "Write the report to FILE instead of standard output.", |s, v| { s.output.file = Some(PathBuf::from(v)); Ok(()) }),
    sw("output-format", V::Required, "FMT[,FMT]", "Report formats: normal, json, json+, terse (comma-separated).", output_format),
    sw("minimal", V::None, "", "Short for --output-format=terse.", |s, _| { s.output.formats = vec![OutputFormat::Terse]; Ok(()) }),
    sw("terse-version", V::Required, "N", "Terse format version (2, 3, 4 or 5; default 3).", |s, v| choose(&Choices::<u32, OutputOpts> { words: &[("2", 2), ("3", 3), ("4", 4), ("5", 5)], set: |o, n| o.terse_version = n }, &mut s.output, v)),
    sw("eta", V::Required, "WHEN", "Show the live status line: auto, always or never.", |s, v| choose(&Choices::<Eta, OutputOpts> { words: &[("auto", Eta::Auto), ("always", Eta::Always), ("never", Eta::Never)], set: |o, e| o.eta = e }, &mut s.output, v)),
    sw("eta-newline", V::Optional, "TIME", "End each status line with a newline (every TIME when given).", |s, v| { s.output.eta_newline = Some(if v.is_empty() { Duration::ZERO } else { time(v, TimeUnit::Ms)? }); Ok(()) }),
    sw("eta-interval", V::Required, "TIME", "Refresh the status line this often (default 1s, bare number in ms).", |s, v| {
        let d = time(v, TimeUnit::Ms)?;
        if d < Duration::from_millis(250) {
            return Err(SwitchError("the minimum is 250ms".into()));
        }
        s.output.eta_interval = Some(d);
        Ok(())
    }),
    sw("status-interval", V::Required, "TIME", "Print a full report of the results so far every TIME (bare number in seconds). With JSON output every report, the final one included, is one line: newline-delimited JSON.", |s, v| {
        let d = time(v, TimeUnit::S)?;
        s.output.status_interval = if d.is_zero() { None } else { Some(d) };
        Ok(())
    }),
    sw(result_option::NAME, V::Required, "FILE", "Write iomark's complete result (JSON) to FILE.", set_result),
    sw(result_option::ALIAS, V::Required, "FILE", "Same as --result.", set_result),
    sw("readonly", V::None, "", "Refuse every job that writes, trims, creates or deletes files (unlink). iomark then writes only the outputs named (--output, --result, --report, write_*_log files), never over a job's target or a device.", |s, _| { s.readonly = true; Ok(()) }),
    sw("allow-fill", V::None, "", "Allow files larger than the free space of their filesystem.", |s, _| { s.allow_fill = true; Ok(()) }),
    sw("force-device-write", V::None, "", "Allow writes to a block device that holds a filesystem, partition table, RAID, LVM, LUKS or swap signature (anything blkid -p finds).", |s, _| { s.force_device_write = true; Ok(()) }),
    sw("allow-unlink-existing", V::None, "", "Let unlink=1 delete files that existed before the run (by default it deletes only files the run created; fio deletes both).", |s, _| { s.allow_unlink_existing = true; Ok(()) }),
    sw("dump-dir", V::Required, "DIR", "Write verify_dump files to DIR (by default beside a regular file target; for a device, in the directory of --output or else the working directory, never in /dev).", |s, v| { s.dump_dir = Some(PathBuf::from(v)); Ok(()) }),
    sw("parse-only", V::None, "", "Check the options and jobs, then stop without doing I/O.", |s, _| { s.output.parse_only = true; Ok(()) }),
    sw("bandwidth-log", V::None, "", "Write the run's aggregate bandwidth (all jobs, KiB/s, one sample per bwavgtime) to agg-read_bw.log, agg-write_bw.log and agg-trim_bw.log in the working directory.", |s, _| { s.output.bandwidth_log = true; Ok(()) }).short("b"),
    sw("showcmd", V::None, "", "Print the jobs as one command line and stop.", |s, _| { s.output.showcmd = true; Ok(()) }),
    sw("section", V::Required, "NAME", "Run only this section of the job files (repeatable).", |s, v| { s.sections.push(v.to_string()); Ok(()) }),
    sw("override", V::Required, "KEY=VALUE", "Set a job option in every job after all other options, job files included (repeatable).", |s, v| { s.overrides.push(v.to_string()); Ok(()) }),
    sw("warnings", V::None, "", "Also print warnings (options and switches that have no effect) and notes on stderr; a successful run otherwise keeps stderr empty, as fio does, and puts them in the output (Notes:, the JSON's notes).", |s, _| { s.output.warnings = true; Ok(()) }),
    sw("strict", V::None, "", "Treat warnings (options that have no effect in iomark) as errors.", |s, _| { s.strict = true; Ok(()) }),
    sw("help", V::None, "", "Print this help.", |s, _| { s.request = Some(Request::Help); Ok(()) }).short("h"),
    sw("version", V::None, "", "Print the version.", |s, _| { s.request = Some(Request::Version); Ok(()) }).short("v"),
    sw("cmdhelp", V::Optional, "OPTION", "Describe one job option, or all of them.", |s, v| { s.request = Some(Request::CmdHelp(optional(v).filter(|v| v != "all"))); Ok(()) }),
    sw("enghelp", V::Optional, "ENGINE", "List the I/O engines, or the options of one engine.", |s, v| { s.request = Some(Request::EngHelp(optional(v))); Ok(()) }),
    sw("debug", V::Required, "CLASS,...", "fio's debug classes; 'random' prints the random seeds of every job clone before the run (FIO_RAND_NR_OFFS=N, rand_seeds[i]=S), the others are accepted and print nothing.", set_debug),
    sw_ign("max-jobs", V::Required, "fio's job limit (ignored)."),
    sw_ign("alloc-size", V::Required, "fio's shared-memory pool size (ignored)."),
    sw("warnings-fatal", V::None, "", "Same as --strict.", |s, _| { s.strict = true; Ok(()) }),
    sw_ign("aux-path", V::Required, "Directory for fio's auxiliary files (ignored)."),
    sw_no("server", V::Optional, "fio's server mode."),
    sw_no("client", V::Required, "fio's client mode."),
    sw_no("daemonize", V::Required, "Run fio's server in the background."),
    sw_no("remote-config", V::Required, "Job file on the server side."),
    sw_no("trigger-file", V::Required, "Run a command when a file appears."),
    sw_no("trigger-timeout", V::Required, "Run a command after a delay."),
    sw_no("trigger", V::Required, "Local trigger command."),
    sw_no("trigger-remote", V::Required, "Remote trigger command."),
    sw_no("idle-prof", V::Required, "CPU idleness profiling."),
    sw("inflate-log", V::Required, "FILE", "Print the text of a compressed log (log_store_compressed).", |s, v| { s.request = Some(Request::InflateLog(v.to_string())); Ok(()) }),
    sw_no("crctest", V::Optional, "Checksum speed test."),
    sw_no("cpuclock-test", V::None, "CPU clock test."),

    sw_no("merge-blktrace-only", V::None, "Merge blktraces and stop."),
];

fn norm(s: &str) -> String {
    s.to_ascii_lowercase().replace('_', "-")
}

/// The switch `key` names (`-h` and `-v` as short forms).
pub fn find_switch(key: &str, single_dash: bool) -> Option<&'static SwitchDef> {
    let k = norm(key);
    SWITCHES.iter().find(|s| {
        s.name == k
            || (single_dash && s.short == Some(k.as_str()))
            || (s.short == Some(k.as_str()) && key.len() == 1)
    })
}
