//! `iomark store import FILES...` (iomark result files and fio JSON output join the history),
//! `iomark store export DIR` (every run's document as a file), `iomark store prune --keep N |
//! --before DATE`, `iomark store path`.

use super::args;
use crate::session::{pipe, record};
use anyhow::{anyhow, bail, Result};
use iomark_report::read;
use iomark_store::{NewRun, Store};
use serde_json::Value;
use std::path::{Path, PathBuf};

pub const STORE_USAGE: &str = "Usage: iomark store import [--tag T]... FILE...
       iomark store export DIR [--host H] [--tag T] [--command CMD] [--target PATH] [--since DATE]
       iomark store prune --keep N | --before DATE
       iomark store path

import: iomark result files (--result of any command) and fio JSON/json+ output join the store.
export: every run (of the filters) written as DIR/iomark-ID.json, as --result would have.
prune:  remove all runs but the last N, or those started before DATE (2026-11-01, 30d).
path:   print where the store is (a file, or a PostgreSQL URL without its password).
";

/// `iomark store`.
pub fn store_main(argv: &[String]) -> i32 {
    let a = match args::parse(argv, &["--keep", "--before"], args::now_ms()) {
        Ok(a) if a.help || a.words.is_empty() => return pipe::print_text(STORE_USAGE),
        Ok(a) => a,
        Err(e) => {
            eprintln!("iomark store: {e}\n\n{STORE_USAGE}");
            return 2;
        }
    };
    let done = match a.words[0].as_str() {
        "import" => import(&a),
        "export" => export(&a),
        "prune" => prune(&a),
        "path" => record::location()
            .map(|l| pipe::print_text(&l.shown()))
            .ok_or_else(|| {
                anyhow!("no result store: set IOMARK_STORE or HOME, or give --store PATH")
            }),
        w => Err(anyhow!(
            "unknown subcommand '{w}' (import, export, prune, path)"
        )),
    };
    match done {
        Ok(code) => code,
        Err(e) => {
            eprintln!("iomark store: {e}");
            1
        }
    }
}

fn import(a: &args::Args) -> Result<i32> {
    let files = &a.words[1..];
    if files.is_empty() {
        bail!("import: give the files to import");
    }
    let mut s = record::open()?;
    let mut code = 0;
    for f in files {
        match import_one(&mut *s, Path::new(f), &a.tags) {
            Ok(id) => eprintln!("iomark store: {f}: recorded as @{id}"),
            Err(e) => {
                eprintln!("iomark store: {f}: {e}");
                code = 1;
            }
        }
    }
    Ok(code)
}

/// The facts of a document: an iomark result (or a preset's or repetition's, from its first
/// run) or fio's JSON output.
struct Facts {
    time_ms: i64,
    host: String,
    front_end: String,
    command_line: String,
    targets: Vec<String>,
    interrupted: bool,
    version: String,
    format: String,
}

fn import_one(s: &mut dyn Store, path: &Path, tags: &[String]) -> Result<i64> {
    let bytes = std::fs::read(path).map_err(|e| anyhow!("cannot read it: {e}"))?;
    let src = read::parse(path, &bytes)?;
    let v = json_of(&bytes)?;
    let f = facts(&v);
    let figures = record::figures(&src);
    Ok(s.record(&NewRun {
        time_ms: f.time_ms,
        host: &f.host,
        front_end: &f.front_end,
        command_line: &f.command_line,
        tags,
        targets: &f.targets,
        interrupted: f.interrupted,
        iomark_version: &f.version,
        format: &f.format,
        document: &bytes,
        figures: &figures,
    })?)
}

/// The JSON of a document; fio may print text before it.
fn json_of(bytes: &[u8]) -> Result<Value> {
    serde_json::from_slice(bytes).or_else(|e| {
        let text = String::from_utf8_lossy(bytes);
        text.find("\n{")
            .and_then(|at| serde_json::from_str(&text[at + 1..]).ok())
            .ok_or_else(|| anyhow!("not JSON: {e}"))
    })
}

fn facts(v: &Value) -> Facts {
    let text = |v: &Value| v.as_str().unwrap_or_default().to_string();
    if let Some(format) = v.get("format").and_then(Value::as_str) {
        let run = v.get("runs").and_then(|r| r.get(0)).unwrap_or(v);
        let line: Vec<String> = run["command_line"]
            .as_array()
            .map(|a| a.iter().map(text).collect())
            .unwrap_or_default();
        // The command word (a fio command line without one is `run`).
        let front_end = match line.get(1).map(String::as_str) {
            Some("bonnie++") => "bonnie",
            Some(w) if !w.starts_with('-') && !w.contains('=') => w,
            _ => "run",
        };
        let targets = run["jobs"].as_array().into_iter().flatten();
        let targets = targets.flat_map(|j| j["targets"].as_array().into_iter().flatten());
        return Facts {
            time_ms: run["start_unix_ms"].as_i64().unwrap_or_default(),
            host: text(&run["host"]["hostname"]),
            front_end: front_end.to_string(),
            command_line: read::shell_words(&line),
            targets: unique(targets.map(|t| text(&t["path"]))),
            interrupted: run["interrupted"].as_bool().unwrap_or_default(),
            version: text(&run["iomark_version"]),
            format: format.to_string(),
        };
    }
    let time_ms = v["timestamp_ms"]
        .as_i64()
        .or_else(|| v["timestamp"].as_i64().map(|s| s * 1000))
        .unwrap_or_default();
    let jobs = v["jobs"].as_array().into_iter().flatten();
    let global = v["global options"]["filename"].as_str().map(str::to_string);
    let targets = jobs.filter_map(|j| j["job options"]["filename"].as_str().map(str::to_string));
    Facts {
        time_ms,
        host: text(&v["hostname"]),
        front_end: "fio".into(),
        command_line: String::new(),
        targets: unique(global.into_iter().chain(targets)),
        interrupted: false,
        version: text(&v["fio version"]),
        format: "fio-json".into(),
    }
}

fn unique(it: impl Iterator<Item = String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for s in it.filter(|s| !s.is_empty()) {
        if !out.contains(&s) {
            out.push(s);
        }
    }
    out
}

fn export(a: &args::Args) -> Result<i32> {
    let [_, dir] = a.words.as_slice() else {
        bail!("export: give one directory to write the runs into");
    };
    let dir = PathBuf::from(dir);
    std::fs::create_dir_all(&dir).map_err(|e| anyhow!("cannot create {}: {e}", dir.display()))?;
    let mut s = record::open()?;
    let rows = s.history(&a.filter)?;
    for r in &rows {
        let p = dir.join(format!("iomark-{}.json", r.id));
        crate::session::outputs::write(&p, &s.document(r.id)?)?;
    }
    eprintln!(
        "iomark store: {} runs written to {}",
        rows.len(),
        dir.display()
    );
    Ok(0)
}

fn prune(a: &args::Args) -> Result<i32> {
    let mut s = record::open()?;
    let removed = match a.other.as_slice() {
        [(k, v)] if k == "--keep" => {
            let n: u64 = v
                .parse()
                .map_err(|_| anyhow!("--keep {v}: expected a count"))?;
            s.prune_keep(n)?
        }
        [(k, v)] if k == "--before" => s.prune_before(args::date(v, args::now_ms())?)?,
        _ => bail!("prune: give --keep N or --before DATE"),
    };
    eprintln!("iomark store: {removed} runs removed, {} kept", s.count()?);
    Ok(0)
}
