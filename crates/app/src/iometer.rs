//! `iomark iometer`: an Iometer access specification run as one iomark job (workers ×
//! outstanding I/Os on one target), through `iomark run` so the output is the usual one.

use crate::session::signals;
use iomark_engine::job::RunPlan;
use iomark_engine::result::RunResult;
use iomark_scenarios::iometer::{csv, mix, spec, spec_file};
use iomark_scenarios::preset::target;
use std::path::PathBuf;

pub const USAGE: &str = "\
usage: iomark iometer [TARGET] (--spec SPEC | --spec-file F.toml) [--outstanding N] [--workers N] [--size SIZE]
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
            "--result" => o.result = Some(v),
            "--csv" => o.csv = Some(v),
            "--write-iolog" => o.iolog = Some(v),
            _ => {
                anyhow::bail!(
                    "iometer: unknown option {k} (known: --spec --spec-file --outstanding --workers --size --runtime --ramp --ioengine --allow-write --result --csv --write-iolog --list)"
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
    let o = match parse(a) {
        Ok(Some(o)) => o,
        Ok(None) => {
            if a.iter().any(|x| x == "--list") {
                return 0;
            }
            return crate::session::pipe::print_text(USAGE);
        }
        Err(e) => {
            eprintln!("iomark {e}");
            return 2;
        }
    };
    let from_file = match &o.spec_file {
        Some(f) => match spec_file::read(f) {
            Ok(x) => Some(x),
            Err(e) => {
                eprintln!("iomark iometer: {e}");
                return 2;
            }
        },
        None => None,
    };
    let lines = match &from_file {
        Some(f) => Ok(f.lines.clone()),
        None => spec::parse(&o.spec),
    };
    let tr = match lines.map(|l| mix::translate(&l)) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("iomark iometer: {e}");
            return 2;
        }
    };
    let size = match &o.size {
        Some(v) => match iomark_fio::values::parse_size(v, 1024) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("iomark iometer: --size={v}: {e}");
                return 2;
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
            return 2;
        }
    };
    for n in &t.notices {
        eprintln!("iomark iometer: {n}");
    }
    let file_name = o.spec_file.as_ref().map(|f| {
        from_file
            .as_ref()
            .and_then(|s| s.name.clone())
            .unwrap_or_else(|| {
                std::path::Path::new(f)
                    .file_stem()
                    .map_or("iometer".into(), |s| s.to_string_lossy().into_owned())
            })
    });
    let name: &str = match &file_name {
        Some(n) => n,
        None => spec::NAMED
            .iter()
            .find(|n| n.0 == o.spec)
            .map_or("iometer", |n| n.0),
    };
    let mut args: Vec<String> = vec![
        format!("--name={name}"),
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
    args.extend(tr.options.iter().map(|(k, v)| format!("--{k}={v}")));
    if let Some(f) = &o.iolog {
        args.push(format!("--write_iolog={f}"));
    }
    let access = tr.mix.clone();
    let prepare = move |plan: &mut RunPlan| {
        for j in &mut plan.jobs {
            j.access_mix.clone_from(&access);
        }
    };
    // The CSV is made from the result: a temporary one when no --result is kept.
    let tmp = std::env::temp_dir().join(format!("iomark-iometer.{}.json", std::process::id()));
    let result = match (&o.result, &o.csv) {
        (Some(r), _) => Some(PathBuf::from(r)),
        (None, Some(_)) => Some(tmp.clone()),
        _ => None,
    };
    if let Some(r) = &result {
        args.push(format!("--result={}", r.display()));
    }
    if t.temp {
        signals::register_temp(&t.path);
    }
    let cycle = cycled(&o.outstanding) || cycled(&o.workers);
    let mut code = if cycle {
        // The sweep names its points and takes every option as KEY=VALUE; the target was
        // checked above (a temporary file, or --allow-write given).
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
        crate::sweep::main_with(&sw, &prepare)
    } else {
        run(&args, &prepare)
    };
    if t.temp {
        let _ = std::fs::remove_file(&t.path);
        signals::clear_temp();
    }
    if let (Some(c), Some(r)) = (&o.csv, &result) {
        let read = std::fs::read(r)
            .map_err(|e| e.to_string())
            .and_then(|b| RunResult::from_json(&b).map_err(|e| e.to_string()));
        let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
        let written = read.and_then(|res| {
            std::fs::write(c, csv::csv(&res, name, cpus)).map_err(|e| e.to_string())
        });
        if let Err(e) = written {
            eprintln!("iomark iometer: --csv {c}: {e}");
            code = code.max(1);
        }
    }
    if o.result.is_none() {
        let _ = std::fs::remove_file(&tmp);
    }
    code
}
