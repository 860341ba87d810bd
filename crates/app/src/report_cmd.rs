//! `iomark report`, `iomark compare` and `iomark export`, and `--report FILE.html` on `run` and
//! `quick`: argument handling and messages; the work is done by iomark-report.

use iomark_engine::RunResult;
use iomark_report::charts;
use iomark_report::compare::{self, Rule};
use iomark_report::html::{self, Page};
use iomark_report::{export, images, read, ReportError, Source};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// One option of `iomark report`: its spellings, the value it takes (empty: a switch) and
/// what it does. The parser accepts these and no others, and `--help` (so the manual page and
/// the completions) lists them from here.
struct ReportOption {
    flags: &'static [&'static str],
    value: &'static str,
    help: &'static str,
}

const REPORT_OPTIONS: &[ReportOption] = &[
    ReportOption {
        flags: &["-o", "--output"],
        value: "FILE.html",
        help: "the page (default: report.html; none when only --png/--svg are given)",
    },
    ReportOption {
        flags: &["--label"],
        value: "NAME",
        help: "a RESULT's name in the page (once per RESULT, in their order)",
    },
    ReportOption {
        flags: &["--png"],
        value: "DIR",
        help: "every chart as a PNG image in DIR",
    },
    ReportOption {
        flags: &["--svg"],
        value: "DIR",
        help: "every chart as an SVG image in DIR",
    },
    ReportOption {
        flags: &["--js"],
        value: "inline|external",
        help: "external writes plotly.min.js once beside the page, which loads it from there (a
    smaller page; a directory of reports shares the file; still no network access); inline (the
    default) keeps the page one self-contained file",
    },
    ReportOption {
        flags: &["--surface"],
        value: "",
        help: "a 3-D surface after each matrix's heatmap (iozone's file size x record size, a
    sweep over two options), on the page and as images; by default the heatmaps alone, each
    with its colour bar and the value written in every cell",
    },
];

/// `iomark report --help`, its options from [`REPORT_OPTIONS`].
pub fn report_usage() -> String {
    let mut h = String::from(
        "Usage: iomark report RESULT... [-o FILE.html] [--label NAME]... [--png DIR] [--svg DIR]
                     [--js=inline|external] [--surface]

Draws iomark result files (--result FILE) and fio JSON/json+ output as one self-contained HTML
page (no network access when opened) with interactive charts and a table of each one's data; a
directory stands for repetitions of one run; @ID, @last and @last~N name runs of the result
store (iomark history).

",
    );
    for o in REPORT_OPTIONS {
        let flags = o.flags.join(", ");
        let _ = match o.value {
            "" => writeln!(h, "{flags}\n    {}", o.help),
            v => writeln!(h, "{flags} {v}\n    {}", o.help),
        };
    }
    h.push_str(
        "
iomark report --trend JOB.DIRECTION.FIGURE [--tag T] [--host H] ... draws one figure across the
runs kept in the result store instead (iomark report --trend --help).
",
    );
    h
}

/// The options of `iomark report`, every spelling.
fn report_flags() -> Vec<&'static str> {
    REPORT_OPTIONS
        .iter()
        .flat_map(|o| o.flags)
        .copied()
        .collect()
}

/// Whether `flag` is one of [`REPORT_OPTIONS`] that takes no value.
fn is_switch(flag: &str) -> bool {
    REPORT_OPTIONS
        .iter()
        .any(|o| o.value.is_empty() && o.flags.contains(&flag))
}

pub const COMPARE_USAGE: &str =
    "Usage: iomark compare A B [C...] [--label NAME]... [--fail-if RULE]... [--alpha P] [--report FILE.html]
       iomark compare --baseline A [B...] [--fail-if RULE]...

Compares results (iomark result files, fio JSON/json+ of any 3.x or 2.x version, or directories
of repetitions, or runs of the result store: @ID, @last, @last~N, @tag:NAME for the last run with
a tag) against the first one. Jobs are matched by name, else by workload. For every job,
direction and figure (IOPS, MB/s, p50/p99/p99.9 latency): the values, the change, and whether
the change is larger than the repetitions' spread (Welch's t-test) or untested (single runs).
--fail-if 'iops<-10%' (or 'read.p99>+20%') exits 1 when a change breaks the rule; with
repetitions on both sides only a significant change breaks it (Welch's p below --alpha, 0.05 by
default; --alpha 1 counts every change). A rule that matches no figure, or a job or figure
missing from a source, is an error (exit 2).
--baseline A names the result to compare against (a kept run: --baseline @tag:before); without
other results it is compared with the store's last run (@last).
Exit codes: 0 fine, 1 a --fail-if rule was broken, 2 bad input, usage, or a rule that cannot be
checked.
";

pub const EXPORT_USAGE: &str = "Usage: iomark export RESULT... [--csv FILE] [--xlsx FILE] [--markdown [FILE]] [--label NAME]...

--csv: one row per source, job, direction and repetition; every column named with its unit.
--xlsx: a summary sheet and one sheet per job with native charts.
--markdown: tables for issues and wikis (to stdout without FILE, or with FILE '-').
A RESULT is a file, a directory of repetitions, or a run of the result store (@ID, @last~N).
";

/// Split `--report FILE` / `--report=FILE` out of a command's arguments.
pub fn take_report_arg(args: &[String]) -> anyhow::Result<(Vec<String>, Option<PathBuf>)> {
    let mut rest = Vec::new();
    let mut report = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a == "--report" {
            match it.next() {
                Some(f) => report = Some(PathBuf::from(f)),
                None => anyhow::bail!("--report needs a file name (FILE.html)"),
            }
        } else if let Some(f) = a.strip_prefix("--report=") {
            report = Some(PathBuf::from(f));
        } else {
            rest.push(a.clone());
        }
    }
    Ok((rest, report))
}

/// How often a report's interval series are sampled (bandwidth, IOPS, latency, histograms),
/// for the jobs that keep no log of their own (`RunPlan::series_ms`).
pub const REPORT_SERIES_MS: u64 = 500;

fn command_line() -> String {
    read::shell_words(&crate::session::command_line())
}

/// Write the HTML report of a run that just ended (`--report` on run/quick). Returns false
/// (after saying why) when it could not be written.
pub fn report_run(result: &RunResult, path: &Path, title: &str) -> bool {
    report_run_to(result, path, title, None)
}

/// [`report_run`], with every chart also written as a PNG image into `png` when given.
pub fn report_run_to(result: &RunResult, path: &Path, title: &str, png: Option<&Path>) -> bool {
    let mut src = read::from_result(result);
    src.label = "run".into();
    src.paths = vec!["(this run)".into()];
    let sources = [src];
    let charts = charts::report_charts(&sources);
    let page = Page {
        title: title.to_string(),
        command: Some(command_line()),
        sources: &sources,
        comparison: None,
        charts: charts.clone(),
    };
    // A run that went well says nothing more: the report is where it was asked to be.
    if let Err(e) = html::write(path, &page) {
        eprintln!("iomark: {e}");
        return false;
    }
    if let Some(d) = png {
        match images::write_all(d, &charts, images::Format::Png) {
            Ok(_) => {}
            Err(e) => {
                eprintln!("iomark: {e}");
                return false;
            }
        }
    }
    true
}

/// Inputs and the options common to the three commands.
struct Args {
    inputs: Vec<PathBuf>,
    labels: Vec<String>,
    out: Option<PathBuf>,
    report: Option<PathBuf>,
    png: Option<PathBuf>,
    svg: Option<PathBuf>,
    csv: Option<PathBuf>,
    xlsx: Option<PathBuf>,
    markdown: Option<PathBuf>,
    rules: Vec<String>,
    /// `compare --baseline REF`: the result the others are compared against.
    baseline: Option<PathBuf>,
    alpha: Option<String>,
    /// `report --js=inline|external`.
    js: html::Js,
    /// `report --surface`.
    surface: bool,
    help: bool,
}

fn parse(args: &[String], allowed: &[&str]) -> anyhow::Result<Args> {
    let mut a = Args {
        inputs: Vec::new(),
        labels: Vec::new(),
        out: None,
        report: None,
        png: None,
        svg: None,
        csv: None,
        xlsx: None,
        markdown: None,
        rules: Vec::new(),
        baseline: None,
        alpha: None,
        js: html::Js::Inline,
        surface: false,
        help: false,
    };
    let mut i = 0;
    while i < args.len() {
        let arg = &args[i];
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_string(), Some(v.to_string())),
            _ => (arg.clone(), None),
        };
        if flag == "-h" || flag == "--help" {
            a.help = true;
            i += 1;
            continue;
        }
        if !flag.starts_with('-') || flag == "-" {
            a.inputs.push(PathBuf::from(arg));
            i += 1;
            continue;
        }
        if !allowed.contains(&flag.as_str()) {
            anyhow::bail!(
                "unknown option {q_flag}",
                q_flag = iomark_output::echo::quote(&flag)
            );
        }
        // --markdown takes an optional FILE; a switch takes none.
        let value = match inline {
            Some(_) if is_switch(&flag) => anyhow::bail!("{flag} takes no value"),
            None if is_switch(&flag) => None,
            Some(v) => Some(v),
            None if flag == "--markdown" => match args.get(i + 1) {
                Some(v) if v == "-" || v.ends_with(".md") || v.ends_with(".markdown") => {
                    i += 1;
                    Some(v.clone())
                }
                _ => Some("-".into()),
            },
            None => {
                i += 1;
                Some(
                    args.get(i)
                        .cloned()
                        .ok_or_else(|| anyhow::anyhow!("{flag} needs a value"))?,
                )
            }
        };
        let v = value.unwrap_or_default();
        match flag.as_str() {
            "-o" | "--output" => a.out = Some(v.into()),
            "--label" => a.labels.push(v),
            "--report" => a.report = Some(v.into()),
            "--png" => a.png = Some(v.into()),
            "--svg" => a.svg = Some(v.into()),
            "--csv" => a.csv = Some(v.into()),
            "--xlsx" => a.xlsx = Some(v.into()),
            "--markdown" => a.markdown = Some(v.into()),
            "--fail-if" => a.rules.push(v),
            "--baseline" => a.baseline = Some(v.into()),
            "--alpha" => a.alpha = Some(v),
            "--surface" => a.surface = true,
            "--js" => {
                a.js = html::Js::parse(&v).ok_or_else(|| {
                    anyhow::anyhow!(
                        "--js takes inline or external, not {}",
                        iomark_output::echo::quote(&v)
                    )
                })?
            }
            _ => {
                anyhow::bail!(
                    "unknown option {q_flag}",
                    q_flag = iomark_output::echo::quote(&flag)
                )
            }
        }
        i += 1;
    }
    Ok(a)
}

/// Every output `a` asks for, checked before any input is read (never one of the inputs).
fn check_outputs(a: &Args) -> anyhow::Result<()> {
    let md = a.markdown.as_deref().filter(|p| p.as_os_str() != "-");
    let files: Vec<&Path> = [a.out.as_deref(), a.report.as_deref(), a.csv.as_deref()]
        .into_iter()
        .chain([a.xlsx.as_deref(), md])
        .flatten()
        .collect();
    let dirs: Vec<&Path> = [a.png.as_deref(), a.svg.as_deref()]
        .into_iter()
        .flatten()
        .collect();
    crate::session::outputs::check_tool(&a.inputs, &files, &dirs)
}

/// One input: a file or directory, or a run of the result store (`@ID`, `@last`, `@last~N`,
/// labelled `@ID` unless `--label` names it).
fn load_one(p: &Path, label: Option<&str>) -> anyhow::Result<Source> {
    let text = p.to_string_lossy();
    match crate::store_cmd::load_ref(&text) {
        None => Ok(read::load(p, label)?),
        Some(r) => {
            let (id, bytes) = r?;
            let mut src = read::parse(p, &bytes)?;
            src.label = label.map_or_else(|| format!("@{id}"), str::to_string);
            Ok(src)
        }
    }
}

fn load_all(a: &Args) -> anyhow::Result<Vec<Source>> {
    a.inputs
        .iter()
        .enumerate()
        .map(|(i, p)| load_one(p, a.labels.get(i).map(String::as_str)))
        .collect::<anyhow::Result<Vec<_>>>()
        .map(|mut v| {
            // Labels must tell sources apart.
            for i in 1..v.len() {
                if v[..i].iter().any(|s| s.label == v[i].label) {
                    v[i].label = format!("{} ({})", v[i].label, i + 1);
                }
            }
            v
        })
}

fn write_images(a: &Args, charts: &[charts::Chart]) -> Result<(), ReportError> {
    if let Some(d) = &a.png {
        let n = images::write_all(d, charts, images::Format::Png)?;
        eprintln!("iomark: {n} PNG images written to {}", d.display());
    }
    if let Some(d) = &a.svg {
        let n = images::write_all(d, charts, images::Format::Svg)?;
        eprintln!("iomark: {n} SVG images written to {}", d.display());
    }
    Ok(())
}

/// `iomark report`.
pub fn report_main(args: &[String]) -> i32 {
    if args
        .iter()
        .any(|a| a == "--trend" || a.starts_with("--trend="))
    {
        return crate::store_cmd::trend::main(args);
    }
    let a = match parse(args, &report_flags()) {
        Ok(a) if a.help => {
            return crate::session::pipe::print_text(&report_usage());
        }
        Ok(a) if a.inputs.is_empty() => {
            eprintln!("iomark report: no result files given\n\n{}", report_usage());
            return 2;
        }
        Ok(a) => a,
        Err(e) => {
            eprintln!("iomark report: {e}\n\n{}", report_usage());
            return 2;
        }
    };
    let mut a = a;
    // The page is written when asked for (-o) or when nothing else is: images alone are
    // images alone.
    if a.out.is_none() && a.png.is_none() && a.svg.is_none() {
        a.out = Some(PathBuf::from("report.html"));
    }
    if let Err(e) = check_outputs(&a) {
        eprintln!("iomark report: {e}");
        return 2;
    }
    let sources = match load_all(&a) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("iomark report: {e}");
            return 2;
        }
    };
    let opts = charts::Options {
        surfaces: a.surface,
    };
    let charts = charts::report_charts_with(&sources, opts);
    let title = format!(
        "iomark report: {}",
        sources
            .iter()
            .map(|s| s.label.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    );
    let page = Page {
        title,
        command: Some(command_line()),
        sources: &sources,
        comparison: None,
        charts: charts.clone(),
    };
    if let Some(out) = &a.out {
        if let Err(e) = html::write_with(out, &page, a.js) {
            eprintln!("iomark report: {e}");
            return 1;
        }
        eprintln!(
            "iomark report: {} charts written to {}",
            charts.len(),
            out.display()
        );
    }
    if let Err(e) = write_images(&a, &charts) {
        eprintln!("iomark report: {e}");
        return 1;
    }
    0
}

/// `--baseline REF` comes first among the results; alone, it is compared with the last run of
/// the store (`@last`), as a gate in a nightly job does.
fn with_baseline(mut a: Args) -> Args {
    if let Some(b) = a.baseline.take() {
        if a.inputs.is_empty() {
            a.inputs.push(PathBuf::from("@last"));
        }
        a.inputs.insert(0, b);
    }
    a
}

/// `iomark compare`'s arguments, its `--fail-if` rules and its `--alpha`; the exit status
/// (2) once a refusal is said.
fn compare_args(args: &[String]) -> Result<(Args, Vec<Rule>, f64), i32> {
    let a = match parse(
        args,
        &[
            "--label",
            "--fail-if",
            "--alpha",
            "--report",
            "--png",
            "--svg",
            "--baseline",
        ],
    )
    .map(with_baseline)
    {
        Ok(a) if a.help => {
            return Err(crate::session::pipe::print_text(COMPARE_USAGE));
        }
        Ok(a) if a.inputs.len() < 2 => {
            eprintln!("iomark compare: give at least two results to compare\n\n{COMPARE_USAGE}");
            return Err(2);
        }
        Ok(a) => a,
        Err(e) => {
            eprintln!("iomark compare: {e}\n\n{COMPARE_USAGE}");
            return Err(2);
        }
    };
    let rules = match a
        .rules
        .iter()
        .map(|r| Rule::parse(r))
        .collect::<Result<Vec<_>, _>>()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("iomark compare: {e}");
            return Err(2);
        }
    };
    let alpha = match a.alpha.as_deref().map(str::parse::<f64>) {
        None => compare::ALPHA,
        Some(Ok(v)) if v > 0.0 && v <= 1.0 => v,
        Some(_) => {
            eprintln!("iomark compare: --alpha takes a significance level above 0 and at most 1, e.g. 0.05");
            return Err(2);
        }
    };
    Ok((a, rules, alpha))
}

/// `iomark compare`: the arguments, the outputs checked, the sources read and compared, the
/// table on stdout, the report and images, then the `--fail-if` rules.
pub fn compare_main(args: &[String]) -> i32 {
    let (a, rules, alpha) = match compare_args(args) {
        Ok(x) => x,
        Err(code) => return code,
    };
    if let Err(e) = check_outputs(&a) {
        eprintln!("iomark compare: {e}");
        return 2;
    }
    let sources = match load_all(&a) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("iomark compare: {e}");
            return 2;
        }
    };
    let c = compare::compare(&sources);
    print!("{}", compare::table(&c));
    let code = compare_outputs(&a, &sources, &c);
    check_rules(&rules, &c, alpha, code)
}

/// `--report`, `--png` and `--svg` of a comparison; the exit status (2 once one could not be
/// written, said on stderr).
fn compare_outputs(a: &Args, sources: &[Source], c: &compare::Comparison<'_>) -> i32 {
    let mut code = 0;
    if a.report.is_some() || a.png.is_some() || a.svg.is_some() {
        let charts = charts::compare::charts(c);
        if let Some(out) = &a.report {
            let page = Page {
                title: format!("iomark compare: {}", c.labels.join(" vs ")),
                command: Some(command_line()),
                sources,
                comparison: Some(c),
                charts: charts.clone(),
            };
            match html::write(out, &page) {
                Ok(()) => eprintln!("iomark compare: report written to {}", out.display()),
                Err(e) => {
                    eprintln!("iomark compare: {e}");
                    code = 2;
                }
            }
        }
        if let Err(e) = write_images(a, &charts) {
            eprintln!("iomark compare: {e}");
            code = 2;
        }
    }
    code
}

/// The `--fail-if` rules checked on the comparison: a rule that cannot be checked is status
/// 2, a figure that breaks one status 1 (unless `code` is already set).
fn check_rules(rules: &[Rule], c: &compare::Comparison<'_>, alpha: f64, mut code: i32) -> i32 {
    for r in rules {
        for why in r.unchecked(c) {
            eprintln!(
                "iomark compare: --fail-if '{}' cannot be checked: {why}",
                r.text
            );
            code = 2;
        }
        for (row, i, pct) in r.violations(c, alpha) {
            eprintln!(
                "iomark compare: {}: {} {} {}: {pct:+.1}% breaks --fail-if '{}'",
                c.labels[i],
                row.job,
                row.dir,
                row.label(),
                r.text
            );
            if code == 0 {
                code = 1;
            }
        }
    }
    code
}

/// `iomark export`.
pub fn export_main(args: &[String]) -> i32 {
    let a = match parse(args, &["--label", "--csv", "--xlsx", "--markdown"]) {
        Ok(a) if a.help => {
            return crate::session::pipe::print_text(EXPORT_USAGE);
        }
        Ok(a) if a.inputs.is_empty() => {
            eprintln!("iomark export: no result files given\n\n{EXPORT_USAGE}");
            return 2;
        }
        Ok(a) if a.csv.is_none() && a.xlsx.is_none() && a.markdown.is_none() => {
            eprintln!(
                "iomark export: choose --csv FILE, --xlsx FILE or --markdown\n\n{EXPORT_USAGE}"
            );
            return 2;
        }
        Ok(a) => a,
        Err(e) => {
            eprintln!("iomark export: {e}\n\n{EXPORT_USAGE}");
            return 2;
        }
    };
    if let Err(e) = check_outputs(&a) {
        eprintln!("iomark export: {e}");
        return 2;
    }
    let sources = match load_all(&a) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("iomark export: {e}");
            return 2;
        }
    };
    let res = (|| -> Result<(), ReportError> {
        if let Some(p) = &a.csv {
            export::csv::write(p, &sources)?;
        }
        if let Some(p) = &a.xlsx {
            export::xlsx::write(p, &sources)?;
        }
        if let Some(p) = &a.markdown {
            let md = export::markdown::render(&sources);
            if p.as_os_str() == "-" {
                print!("{md}");
            } else {
                iomark_report::output::write_atomic(p, md.as_bytes())?;
            }
        }
        Ok(())
    })();
    match res {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("iomark export: {e}");
            1
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(v: &[&str]) -> anyhow::Result<Args> {
        let v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
        parse(&v, &report_flags())
    }

    /// Every option of the table is in the usage lines and has its help below them; the
    /// parser takes exactly those, a switch without a value.
    #[test]
    fn report_options_come_from_one_table() {
        let help = report_usage();
        let (usage, rest) = help.split_once("\n\n").unwrap();
        for o in REPORT_OPTIONS {
            let long = o.flags.last().unwrap();
            assert!(
                o.flags.iter().any(|f| usage.contains(&format!("[{f}"))),
                "{long} not in the usage:\n{usage}"
            );
            assert!(
                rest.lines().any(|l| l.starts_with(&o.flags.join(", "))),
                "{long} has no help line:\n{rest}"
            );
        }
        let a = args(&["r.json", "--surface", "--js=external", "-o", "x.html"]).unwrap();
        assert!(a.surface && a.js == html::Js::External);
        assert_eq!(a.inputs, [PathBuf::from("r.json")]);
        assert_eq!(a.out, Some(PathBuf::from("x.html")));
        assert!(!args(&["r.json"]).unwrap().surface);
        let e = args(&["r.json", "--surface=yes"]).err().unwrap();
        assert_eq!(e.to_string(), "--surface takes no value");
        assert!(args(&["r.json", "--fail-if", "iops<-1%"]).is_err());
    }
}
