//! `iomark iometer`: an Iometer access specification run as one iomark job (workers ×
//! outstanding I/Os on one target), through `iomark run` so the output is the usual one.

use crate::session::signals;
use iomark_engine::job::RunPlan;
use iomark_engine::result::RunResult;
use iomark_output::result_option;
use iomark_scenarios::iometer::{csv, mix, spec, spec_file};
use iomark_scenarios::preset::target;
use std::path::PathBuf;

pub const USAGE: &str = "\
Usage: iomark iometer [TARGET] (--spec SPEC | --spec-file F.toml) [--outstanding N] [--workers N] [--size SIZE]
                      [--runtime TIME] [--ramp TIME] [--ioengine NAME] [--allow-write]
                      [--result FILE] [--csv FILE] [--write-iolog FILE]
       iomark iometer --list

SPEC is a named spec (see --list) or access-specification lines separated by ';' or spaces:
  SIZE,READ%,RANDOM%[,ALIGN[,DELAY_MS[,BURST]]][@WEIGHT]   e.g. --spec 4k,70,100@100
Each burst of I/Os (BURST, default 1) picks a line by weight, after waiting the line's
DELAY_MS (I/Os in flight complete meanwhile); each I/O of it reads or writes by the line's
% read and goes to a random offset or sequentially after the previous I/O by its % random,
at offsets that are multiples of ALIGN (default: the spec's smallest size).
--spec-file F.toml reads a spec from a TOML file: a name, then one [[line]] table
per line with size, read, random and optionally weight, align, delay_ms, burst.
--outstanding is the I/Os in flight per worker (default 1), --workers the workers (default 1);
either may cycle: a list (1,4,16) or a range (1..64x2 exponential, 1..64+8 linear) runs one
point per value (a sweep, with its matrix table);
--ramp is excluded from the figures (default 0). TARGET is a directory for a temporary file
(default: the current one) or a file or device, written only with --allow-write.
--csv FILE writes Iometer's main result columns (IOps, MBps, response times in ms, errors,
bytes and I/Os per direction, % CPU) and its latency buckets (I/Os per response-time range,
0 to 50 uS ... >= 10 s) for all workers: one row, or one per step of a cycle.
--write-iolog FILE records every I/O issued (fio's iolog version 3) to check the pattern.
--result-file FILE is the same option as --result FILE (iomark's result file).
";

struct Opts {
    target: Option<PathBuf>,
    spec: String,
    spec_file: Option<String>,
    outstanding: String,
    workers: String,
    size: Option<String>,
    runtime: String,
    ramp: String,
    ioengine: String,
    allow_write: bool,
    result: Option<String>,
    csv: Option<String>,
    iolog: Option<String>,
}

fn parse(a: &[String]) -> anyhow::Result<Option<Opts>> {
    let mut o = Opts {
        target: None,
        spec: String::new(),
        spec_file: None,
        outstanding: "1".into(),
        workers: "1".into(),
        size: None,
        runtime: "10s".into(),
        ramp: "0".into(),
        ioengine: "libaio".into(),
        allow_write: false,
        result: None,
        csv: None,
        iolog: None,
    };
    let mut it = a.iter();
    while let Some(arg) = it.next() {
        if !arg.starts_with("--") {
            if o.target.is_some() {
                anyhow::bail!("iometer: a second target '{arg}'");
            }
            o.target = Some(PathBuf::from(arg));
            continue;
        }
        let (k, inline) = match arg.split_once('=') {
            Some((k, v)) => (k, Some(v.to_string())),
            None => (arg.as_str(), None),
        };
        match k {
            "--help" => return Ok(None),
            "--list" => {
                let mut s = String::new();
                for (n, lines, from) in spec::NAMED {
                    s.push_str(&format!("{n:<16} {lines}\n{:<16} from {from}\n", ""));
                }
                crate::session::pipe::print_text(&s);
                return Ok(None);
            }
            "--allow-write" => {
                o.allow_write = true;
                continue;
            }
            _ => {}
        }
        let v = match inline.or_else(|| it.next().cloned()) {
            Some(v) => v,
            None => anyhow::bail!("iometer: {k} needs a value"),
        };
        // A list or range cycles the value (checked by the sweep that runs it).
        let count = |v: String| {
            if cycled(&v) {
                return Ok(v);
            }
            v.parse::<u32>()
                .ok()
                .filter(|n| (1..=65536).contains(n))
                .map(|_| v.clone())
                .ok_or_else(|| {
                    anyhow::anyhow!(
                        "iometer: {k}={v}: expected a count from 1 to 65536, a list or a range"
                    )
                })
        };
        match k {
            "--spec" => o.spec = v,
            "--spec-file" => o.spec_file = Some(v),
            "--outstanding" => o.outstanding = count(v)?,
            "--workers" => o.workers = count(v)?,
            "--size" => o.size = Some(v),
            "--runtime" => o.runtime = v,
            "--ramp" => o.ramp = v,
            "--ioengine" => o.ioengine = v,
            k if k.strip_prefix("--").is_some_and(result_option::names) => o.result = Some(v),
            "--csv" => o.csv = Some(v),
            "--write-iolog" => o.iolog = Some(v),
            _ => {
                anyhow::bail!(
                    "iometer: unknown option {k} (known: --spec --spec-file --outstanding --workers --size --runtime --ramp --ioengine --allow-write --result (or --result-file) --csv --write-iolog --list)"
                )
            }
        }
    }
    match (o.spec.is_empty(), &o.spec_file) {
        (true, None) => {
            anyhow::bail!(
                "iometer: give an access specification with --spec (see --list) or --spec-file"
            )
        }
        (false, Some(_)) => anyhow::bail!("iometer: give --spec or --spec-file, not both"),
        _ => {}
    }
    Ok(Some(o))
}

/// A list (`1,4,16`) or a range (`1..64x2` exponential, `1..64+8` linear) of values to cycle.
fn cycled(v: &str) -> bool {
    v.contains(',') || v.contains("..")
}

/// `iomark run ARGS` with a change to the plan before it runs.
pub type Run = fn(&[String], &dyn Fn(&mut RunPlan)) -> i32;

/// `iomark iometer ARGS`; `run` is `iomark run`. Returns the exit code. Cycled outstanding
/// I/Os or workers run as a sweep over iodepth and numjobs, one point per value. A spec that
/// job options cannot express runs as an access mix added to every job of the plan.
pub fn main(a: &[String], run: Run) -> i32 {
    let o = match options(a) {
        Ok(o) => o,
        Err(code) => return code,
    };
    let spec = match read_spec(&o) {
        Ok(s) => s,
        Err(code) => return code,
    };
    // Every output checked before any I/O: never the target, a device, a missing directory.
    // The result file is the run's (or the sweep's), written and recorded by its session;
    // it is checked here too, before the temporary target is made.
    let target: Vec<PathBuf> = o.target.iter().cloned().collect();
    let result = o.result.as_deref().map(std::path::Path::new);
    if let Err(code) = crate::session::ResultFile::take("iometer", result, &target) {
        return code;
    }
    for p in [&o.csv, &o.iolog].into_iter().flatten() {
        if let Err(e) = iomark_output::outfile::check_output(std::path::Path::new(p), &target) {
            eprintln!("iomark iometer: {e}");
            return 2;
        }
    }
    let t = match choose_target(&o) {
        Ok(t) => t,
        Err(code) => return code,
    };
    if t.direct {
        let lbs = iomark_engine::targets::probe(&t.path).map_or(512, |p| p.logical_block_size);
        if let Err(e) = spec::check_direct(&spec.lines, lbs) {
            eprintln!("iomark iometer: {e}");
            return 2;
        }
    }
    let mut args = run_args(&o, &t, &spec);
    let access = spec.tr.mix.clone();
    let prepare = move |plan: &mut RunPlan| {
        for j in &mut plan.jobs {
            j.access_mix.clone_from(&access);
        }
    };
    let tmp_dir = match crate::session::private_temp_dir("iomark iometer", "iomark-iometer.") {
        Ok(d) => d,
        Err(e) => {
            eprintln!("{e}");
            return 1;
        }
    };
    let tmp = tmp_dir.path().join("result.json");
    let result = result_path(&o, &tmp);
    if let Some(r) = &result {
        args.push(format!("--result={}", r.display()));
    }
    let mut code = run_or_sweep(&o, &t, &args, &prepare, run);
    if let (Some(c), Some(r)) = (&o.csv, &result) {
        if !write_csv(c, r, &spec.name) {
            code = code.max(1);
        }
    }
    drop(tmp_dir);
    code
}

/// The options of the command line; the exit status once help or the list is printed, or
/// when they are refused.
fn options(a: &[String]) -> Result<Opts, i32> {
    match parse(a) {
        Ok(Some(o)) => Ok(o),
        Ok(None) => {
            if a.iter().any(|x| x == "--list") {
                return Err(0);
            }
            Err(crate::session::pipe::print_text(USAGE))
        }
        Err(e) => {
            eprintln!("iomark {e}");
            Err(2)
        }
    }
}

/// The access specification to run: its name (the job's and the CSV's) and its translation.
struct Spec {
    name: String,
    lines: Vec<spec::Line>,
    tr: mix::Translation,
}

/// Reads the spec of `--spec` or `--spec-file` and translates it; exit status 2 when invalid.
fn read_spec(o: &Opts) -> Result<Spec, i32> {
    let from_file = match &o.spec_file {
        Some(f) => match spec_file::read(f) {
            Ok(x) => Some(x),
            Err(e) => {
                eprintln!("iomark iometer: {e}");
                return Err(2);
            }
        },
        None => None,
    };
    let lines = match &from_file {
        Some(f) => Ok(f.lines.clone()),
        None => spec::parse(&o.spec),
    };
    let lines = match lines {
        Ok(x) => x,
        Err(e) => {
            eprintln!("iomark iometer: {e}");
            return Err(2);
        }
    };
    Ok(Spec {
        name: spec_name(o, from_file.as_ref()),
        tr: mix::translate(&lines),
        lines,
    })
}

/// The spec's name: the spec file's own (else the file's name without its extension), the
/// named spec's, or "iometer" for lines given on the command line.
fn spec_name(o: &Opts, from_file: Option<&spec_file::FileSpec>) -> String {
    match &o.spec_file {
        Some(f) => from_file.and_then(|s| s.name.clone()).unwrap_or_else(|| {
            std::path::Path::new(f)
                .file_stem()
                .map_or("iometer".into(), |s| s.to_string_lossy().into_owned())
        }),
        None => spec::NAMED
            .iter()
            .find(|n| n.0 == o.spec)
            .map_or("iometer", |n| n.0)
            .to_string(),
    }
}

/// The target of `--size` (default 256 MiB), its notices said; exit status 2 when refused.
fn choose_target(o: &Opts) -> Result<target::Target, i32> {
    let size = match &o.size {
        Some(v) => match iomark_fio::values::parse_size(v, 1024) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("iomark iometer: --size={v}: {e}");
                return Err(2);
            }
        },
        None => 256 << 20,
    };
    let t = match target::choose(
        "iometer",
        o.target.as_deref(),
        o.allow_write,
        size,
        o.size.is_some(),
    ) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("iomark iometer: {e}");
            return Err(2);
        }
    };
    for n in &t.notices {
        eprintln!("iomark iometer: {n}");
    }
    Ok(t)
}

/// `iomark run`'s arguments for the spec on the target (all but `--result`).
fn run_args(o: &Opts, t: &target::Target, spec: &Spec) -> Vec<String> {
    let mut args: Vec<String> = vec![
        format!("--name={}", spec.name),
        format!("--filename={}", t.path.display()),
        format!("--size={}", t.size),
        format!("--ioengine={}", o.ioengine),
        format!("--iodepth={}", o.outstanding),
        format!("--numjobs={}", o.workers),
        format!("--runtime={}", o.runtime),
        "--time_based".into(),
        format!("--ramp_time={}", o.ramp),
        "--group_reporting".into(),
        format!("--direct={}", u8::from(t.direct)),
    ];
    args.extend(spec.tr.options.iter().map(|(k, v)| format!("--{k}={v}")));
    if let Some(f) = &o.iolog {
        args.push(format!("--write_iolog={f}"));
    }
    args
}

/// Where the run writes its result: `--result`, else `tmp` (the temporary result the CSV is
/// made from) when `--csv` needs one.
fn result_path(o: &Opts, tmp: &std::path::Path) -> Option<PathBuf> {
    match (&o.result, &o.csv) {
        (Some(r), _) => Some(PathBuf::from(r)),
        (None, Some(_)) => Some(tmp.to_path_buf()),
        _ => None,
    }
}

/// Runs `args` (a sweep when the outstanding I/Os or the workers cycle), with a temporary
/// target file removed after, even on SIGINT; the exit status.
fn run_or_sweep(
    o: &Opts,
    t: &target::Target,
    args: &[String],
    prepare: &dyn Fn(&mut RunPlan),
    run: Run,
) -> i32 {
    if t.temp {
        signals::register_temp(&t.path);
    }
    let cycle = cycled(&o.outstanding) || cycled(&o.workers);
    let code = if cycle {
        crate::sweep::main_with("iometer", &sweep_args(args, t), prepare)
    } else {
        run(args, prepare)
    };
    if t.temp {
        let _ = std::fs::remove_file(&t.path);
        signals::clear_temp();
    }
    code
}

/// `iomark sweep`'s arguments for `args`: the sweep names its points and takes every option
/// as KEY=VALUE; the target was checked already (a temporary file, or --allow-write given).
fn sweep_args(args: &[String], t: &target::Target) -> Vec<String> {
    let mut sw: Vec<String> = args
        .iter()
        .filter(|x| !x.starts_with("--name="))
        .map(|x| match x.as_str() {
            "--time_based" | "--group_reporting" => format!("{x}=1"),
            _ => x.clone(),
        })
        .collect();
    if !t.temp {
        sw.push("--allow-write".into());
    }
    sw
}

/// `--csv FILE`: Iometer's columns made from the result at `r`; false once the failure is said.
fn write_csv(c: &str, r: &std::path::Path, name: &str) -> bool {
    let read = std::fs::read(r)
        .map_err(|e| e.to_string())
        .and_then(|b| RunResult::from_json(&b).map_err(|e| e.to_string()));
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    let written = read.and_then(|res| {
        crate::session::outputs::write_after(
            std::path::Path::new(c),
            csv::csv(&res, name, cpus).as_bytes(),
            [&res.plan],
        )
        .map_err(|e| e.to_string())
    });
    if let Err(e) = written {
        eprintln!("iomark iometer: --csv {c}: {e}");
        return false;
    }
    true
}
