//! Reading the store: the history of runs under filters, references to one run (`@ID`,
//! `@last`, `@last~N`), a run's document and figures, and pruning.

use crate::{codec, Figure, Result, Store, StoreError};
use rusqlite::types::Value;
use rusqlite::{params, params_from_iter, Row};

/// Which runs a query covers; every field given must match.
#[derive(Clone, Debug, Default)]
pub struct Filter {
    pub host: Option<String>,
    pub tag: Option<String>,
    pub front_end: Option<String>,
    /// A target path, or a part of one.
    pub target: Option<String>,
    /// Runs that started at or after this time (ms since the epoch).
    pub since_ms: Option<i64>,
    /// Runs that started before this time.
    pub before_ms: Option<i64>,
}

/// One recorded run's facts.
#[derive(Clone, Debug, PartialEq)]
pub struct RunRow {
    pub id: i64,
    pub time_ms: i64,
    pub host: String,
    pub front_end: String,
    pub command_line: String,
    pub interrupted: bool,
    pub iomark_version: String,
    pub format: String,
    /// The document's size, and what it takes deflated in the store.
    pub document_bytes: i64,
    pub stored_bytes: i64,
    pub tags: Vec<String>,
    pub targets: Vec<String>,
}

/// A reference to one run, as written on a command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reference {
    Id(i64),
    /// The last run recorded but this many.
    Last(u32),
    /// The last run with this tag (a kept baseline: `@tag:before`).
    Tag(String),
}

impl Reference {
    /// `@12`, `@last`, `@last~2`, `@tag:NAME`; None when `s` does not start with `@` (a file
    /// name).
    pub fn parse(s: &str) -> Option<Result<Reference>> {
        let body = s.strip_prefix('@')?;
        let bad = || StoreError::BadReference(s.to_string());
        let r = if body == "last" {
            Ok(Reference::Last(0))
        } else if let Some(n) = body.strip_prefix("last~") {
            n.parse().map(Reference::Last).map_err(|_| bad())
        } else if let Some(t) = body.strip_prefix("tag:").filter(|t| !t.is_empty()) {
            Ok(Reference::Tag(t.to_string()))
        } else {
            body.parse().map(Reference::Id).map_err(|_| bad())
        };
        Some(r)
    }
}

const SEP: &str = "\u{1f}";

const ROW: &str = "SELECT r.id, r.time_ms, r.host, r.front_end, r.command_line, r.interrupted,
    r.iomark_version, r.format, r.document_bytes, r.stored_bytes,
    (SELECT group_concat(tag, char(31)) FROM tags WHERE run_id = r.id),
    (SELECT group_concat(target, char(31)) FROM targets WHERE run_id = r.id)
    FROM runs r";

fn split(s: Option<String>) -> Vec<String> {
    s.map(|s| s.split(SEP).map(str::to_string).collect())
        .unwrap_or_default()
}

fn run_row(r: &Row) -> rusqlite::Result<RunRow> {
    Ok(RunRow {
        id: r.get(0)?,
        time_ms: r.get(1)?,
        host: r.get(2)?,
        front_end: r.get(3)?,
        command_line: r.get(4)?,
        interrupted: r.get(5)?,
        iomark_version: r.get(6)?,
        format: r.get(7)?,
        document_bytes: r.get(8)?,
        stored_bytes: r.get(9)?,
        tags: split(r.get(10)?),
        targets: split(r.get(11)?),
    })
}

/// The WHERE clause of `f` and its values.
fn clause(f: &Filter) -> (String, Vec<Value>) {
    let mut w: Vec<&str> = Vec::new();
    let mut v: Vec<Value> = Vec::new();
    if let Some(h) = &f.host {
        w.push("r.host = ?");
        v.push(Value::Text(h.clone()));
    }
    if let Some(t) = &f.tag {
        w.push("EXISTS (SELECT 1 FROM tags t WHERE t.run_id = r.id AND t.tag = ?)");
        v.push(Value::Text(t.clone()));
    }
    if let Some(fe) = &f.front_end {
        w.push("r.front_end = ?");
        v.push(Value::Text(fe.clone()));
    }
    if let Some(t) = &f.target {
        w.push("EXISTS (SELECT 1 FROM targets t WHERE t.run_id = r.id AND instr(t.target, ?) > 0)");
        v.push(Value::Text(t.clone()));
    }
    if let Some(s) = f.since_ms {
        w.push("r.time_ms >= ?");
        v.push(Value::Integer(s));
    }
    if let Some(b) = f.before_ms {
        w.push("r.time_ms < ?");
        v.push(Value::Integer(b));
    }
    let sql = if w.is_empty() {
        String::new()
    } else {
        format!(" WHERE {}", w.join(" AND "))
    };
    (sql, v)
}

impl Store {
    /// The runs `f` selects, oldest first.
    pub fn history(&self, f: &Filter) -> Result<Vec<RunRow>> {
        let (w, v) = clause(f);
        let sql = format!("{ROW}{w} ORDER BY r.id");
        let q = || -> rusqlite::Result<Vec<RunRow>> {
            let mut st = self.conn.prepare(&sql)?;
            let rows = st.query_map(params_from_iter(v.iter()), run_row)?;
            rows.collect()
        };
        q().map_err(|e| self.err(e))
    }

    /// How many runs the store holds.
    pub fn count(&self) -> Result<i64> {
        self.conn
            .query_row("SELECT count(*) FROM runs", [], |r| r.get(0))
            .map_err(|e| self.err(e))
    }

    /// The id `r` stands for.
    pub fn resolve(&self, r: Reference) -> Result<i64> {
        use rusqlite::types::Value::{Integer, Text};
        let (sql, arg, text) = match r {
            Reference::Id(id) => (
                "SELECT id FROM runs WHERE id = ?1",
                Integer(id),
                format!("@{id}"),
            ),
            Reference::Last(n) => (
                "SELECT id FROM runs ORDER BY id DESC LIMIT 1 OFFSET ?1",
                Integer(i64::from(n)),
                if n == 0 {
                    "@last".into()
                } else {
                    format!("@last~{n}")
                },
            ),
            Reference::Tag(t) => (
                "SELECT max(run_id) FROM tags WHERE tag = ?1 HAVING count(*) > 0",
                Text(t.clone()),
                format!("@tag:{t}"),
            ),
        };
        match self.conn.query_row(sql, [arg], |r| r.get(0)) {
            Ok(id) => Ok(id),
            Err(rusqlite::Error::QueryReturnedNoRows) => Err(StoreError::NoSuchRun(text)),
            Err(e) => Err(self.err(e)),
        }
    }

    /// Run `id`'s facts.
    pub fn run(&self, id: i64) -> Result<RunRow> {
        let sql = format!("{ROW} WHERE r.id = ?1");
        match self.conn.query_row(&sql, [id], run_row) {
            Ok(r) => Ok(r),
            Err(rusqlite::Error::QueryReturnedNoRows) => {
                Err(StoreError::NoSuchRun(format!("@{id}")))
            }
            Err(e) => Err(self.err(e)),
        }
    }

    /// Run `id`'s whole document.
    pub fn document(&self, id: i64) -> Result<Vec<u8>> {
        let blob: Vec<u8> = match self.conn.query_row(
            "SELECT document FROM documents WHERE run_id = ?1",
            [id],
            |r| r.get(0),
        ) {
            Ok(b) => b,
            Err(rusqlite::Error::QueryReturnedNoRows) => {
                return Err(StoreError::NoSuchRun(format!("@{id}")))
            }
            Err(e) => return Err(self.err(e)),
        };
        codec::decompress(&blob).map_err(|source| StoreError::Document { id, source })
    }

    /// Run `id`'s figures, in the order they were recorded.
    pub fn figures(&self, id: i64) -> Result<Vec<Figure>> {
        let q = || -> rusqlite::Result<Vec<Figure>> {
            let mut st = self.conn.prepare(
                "SELECT job, direction, figure, value, unit FROM figures
                 WHERE run_id = ?1 ORDER BY rowid",
            )?;
            let rows = st.query_map(params![id], |r| {
                Ok(Figure {
                    job: r.get(0)?,
                    direction: r.get(1)?,
                    figure: r.get(2)?,
                    value: r.get(3)?,
                    unit: r.get(4)?,
                })
            })?;
            rows.collect()
        };
        q().map_err(|e| self.err(e))
    }

    /// Deletes every run but the last `keep`; how many were deleted.
    pub fn prune_keep(&mut self, keep: u64) -> Result<usize> {
        self.conn
            .execute(
                "DELETE FROM runs WHERE id NOT IN
                 (SELECT id FROM runs ORDER BY id DESC LIMIT ?1)",
                [keep as i64],
            )
            .map_err(|e| self.err(e))
    }

    /// Deletes the runs that started before `ms`; how many were deleted.
    pub fn prune_before(&mut self, ms: i64) -> Result<usize> {
        self.conn
            .execute("DELETE FROM runs WHERE time_ms < ?1", [ms])
            .map_err(|e| self.err(e))
    }
}
