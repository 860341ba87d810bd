//! The commands that read the result store: `iomark history` (the runs, filtered), `iomark
//! show @REF` (one run's facts and figures, or its whole document), `iomark store import |
//! export | prune`, and the store references (`@ID`, `@last`, `@last~N`) that `report`,
//! `compare` and `export` take wherever they take a result file (and `@tag:NAME`, the last run
//! with a tag).

mod args;
mod manage;
pub use manage::STORE_USAGE;
pub(crate) mod trend;

pub use manage::store_main;

use crate::session::{pipe, record};
use iomark_report::read::units::utc;
use iomark_store::{Figure, Reference, RunRow, Store};
use serde_json::json;

pub const HISTORY_USAGE: &str = "Usage: iomark history [--host H] [--tag T] [--command CMD] [--target PATH] [--since DATE] [--json]

The runs recorded in the result store, oldest first: id (for @ID), start time (UTC), host,
command, tags, targets and command line. --target matches a part of a target's path; --since
takes 2026-11-01, 2026-11-01T08:00 or a time ago (12h, 7d, 2w). The store is --store PATH,
else $IOMARK_STORE, else $XDG_DATA_HOME/iomark/results.db (~/.local/share/iomark/results.db).
";

pub const SHOW_USAGE: &str = "Usage: iomark show @ID|@last|@last~N|@tag:NAME [--json]

One run of the result store: its facts and figures, or with --json its whole result document
(as --result would have written it; `iomark show @last --json > r.json`).
";

/// `iomark history`.
pub fn history_main(argv: &[String]) -> i32 {
    let a = match args::parse(argv, &[], args::now_ms()) {
        Ok(a) if a.help => return pipe::print_text(HISTORY_USAGE),
        Ok(a) if a.words.is_empty() => a,
        Ok(a) => {
            return usage_error(
                "history",
                &format!("unexpected '{}'", a.words[0]),
                HISTORY_USAGE,
            )
        }
        Err(e) => return usage_error("history", &e.to_string(), HISTORY_USAGE),
    };
    let rows = match record::open().and_then(|mut s| Ok(s.history(&a.filter)?)) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("iomark history: {e}");
            return 1;
        }
    };
    if a.json {
        let v: Vec<_> = rows.iter().map(row_json).collect();
        return pipe::print_text(&serde_json::to_string_pretty(&v).unwrap_or_default());
    }
    pipe::print_text(&history_table(&rows))
}

fn usage_error(cmd: &str, e: &str, usage: &str) -> i32 {
    eprintln!("iomark {cmd}: {e}\n\n{usage}");
    2
}

fn row_json(r: &RunRow) -> serde_json::Value {
    json!({
        "id": r.id,
        "time_unix_ms": r.time_ms,
        "time": utc(r.time_ms.max(0) as u64),
        "host": r.host,
        "front_end": r.front_end,
        "command_line": r.command_line,
        "tags": r.tags,
        "targets": r.targets,
        "interrupted": r.interrupted,
        "iomark_version": r.iomark_version,
        "format": r.format,
        "document_bytes": r.document_bytes,
        "stored_bytes": r.stored_bytes,
    })
}

/// One line per run, columns aligned.
fn history_table(rows: &[RunRow]) -> String {
    if rows.is_empty() {
        return "no runs recorded (yet)".into();
    }
    let mut cells: Vec<[String; 6]> = vec![[
        "ID".into(),
        "TIME (UTC)".into(),
        "HOST".into(),
        "COMMAND".into(),
        "TAGS".into(),
        "TARGETS".into(),
    ]];
    for r in rows {
        let time = utc(r.time_ms.max(0) as u64);
        let mut fe = r.front_end.clone();
        if r.interrupted {
            fe.push_str(" (interrupted)");
        }
        cells.push([
            format!("@{}", r.id),
            time.trim_end_matches(" UTC").to_string(),
            r.host.clone(),
            fe,
            r.tags.join(","),
            r.targets.join(","),
        ]);
    }
    let widths: Vec<usize> = (0..6)
        .map(|i| {
            cells
                .iter()
                .map(|c| c[i].chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for (n, c) in cells.iter().enumerate() {
        let mut line: Vec<String> = (0..6)
            .map(|i| format!("{:w$}", c[i], w = widths[i]))
            .collect();
        line.push(if n == 0 {
            "COMMAND LINE".into()
        } else {
            rows[n - 1].command_line.clone()
        });
        out.push_str(line.join("  ").trim_end());
        out.push('\n');
    }
    out
}

/// A store reference's document and the run's id; None when `text` is not a reference.
pub fn load_ref(text: &str) -> Option<anyhow::Result<(i64, Vec<u8>)>> {
    let r = Reference::parse(text)?;
    Some((|| {
        let r = r?;
        let mut s = record::open()?;
        let id = s.resolve(r)?;
        Ok((id, s.document(id)?))
    })())
}

/// `iomark show`.
pub fn show_main(argv: &[String]) -> i32 {
    let a = match args::parse(argv, &[], args::now_ms()) {
        Ok(a) if a.help => return pipe::print_text(SHOW_USAGE),
        Ok(a) if a.words.len() == 1 => a,
        Ok(_) => {
            return usage_error(
                "show",
                "give one run: @ID, @last, @last~N or @tag:NAME",
                SHOW_USAGE,
            )
        }
        Err(e) => return usage_error("show", &e.to_string(), SHOW_USAGE),
    };
    let Some(r) = Reference::parse(&a.words[0]) else {
        return usage_error(
            "show",
            "give one run: @ID, @last, @last~N or @tag:NAME",
            SHOW_USAGE,
        );
    };
    let shown = (|| -> anyhow::Result<String> {
        let mut s = record::open()?;
        let id = s.resolve(r?)?;
        if a.json {
            return Ok(String::from_utf8_lossy(&s.document(id)?).into_owned());
        }
        show_text(&mut *s, id)
    })();
    match shown {
        Ok(t) => pipe::print_text(&t),
        Err(e) => {
            eprintln!("iomark show: {e}");
            1
        }
    }
}

/// A run's facts, then its figures one per line (a run of repetitions: their mean, and the
/// spread of the repetitions).
fn show_text(s: &mut dyn Store, id: i64) -> anyhow::Result<String> {
    let r = s.run(id)?;
    let mut t = format!(
        "run @{}\n  time:      {}\n  host:      {}\n  command:   {}{}\n  line:      {}\n  tags:      {}\n  targets:   {}\n  version:   {}\n  document:  {} ({} bytes, {} stored)\n",
        r.id,
        utc(r.time_ms.max(0) as u64),
        r.host,
        r.front_end,
        if r.interrupted { " (interrupted)" } else { "" },
        r.command_line,
        r.tags.join(", "),
        r.targets.join(", "),
        r.iomark_version,
        r.format,
        r.document_bytes,
        r.stored_bytes,
    );
    let figs = gathered(s.figures(id)?);
    if !figs.is_empty() {
        t.push_str("figures:\n");
    }
    for (f, values) in figs {
        let dir = if f.direction.is_empty() {
            String::new()
        } else {
            format!(" {}", f.direction)
        };
        let mean = values.iter().sum::<f64>() / values.len() as f64;
        let spread = if values.len() > 1 {
            let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            format!(
                " (mean of {} repetitions, {} to {})",
                values.len(),
                fmt_value(lo),
                fmt_value(hi)
            )
        } else {
            String::new()
        };
        t.push_str(&format!(
            "  {}{dir} {}: {} {}{spread}\n",
            f.job,
            f.figure,
            fmt_value(mean),
            f.unit
        ));
    }
    Ok(t)
}

/// The figures of a run, each once in the order first recorded, with its values (one per
/// repetition).
fn gathered(figs: Vec<Figure>) -> Vec<(Figure, Vec<f64>)> {
    let mut out: Vec<(Figure, Vec<f64>)> = Vec::new();
    for f in figs {
        let same =
            |g: &Figure| g.job == f.job && g.direction == f.direction && g.figure == f.figure;
        match out.iter_mut().find(|(g, _)| same(g)) {
            Some((_, v)) => v.push(f.value),
            None => {
                let v = vec![f.value];
                out.push((f, v));
            }
        }
    }
    out
}

fn fmt_value(v: f64) -> String {
    if v.abs() >= 100.0 || v == v.trunc() {
        format!("{v:.0}")
    } else {
        format!("{v:.2}")
    }
}
