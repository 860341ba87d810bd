//! Reading the SQLite store: the history of runs under filters, references to one run, a
//! run's document and figures, one figure across runs.

use super::SqliteStore;
use crate::filter::{Arg, Dialect};
use crate::run::split;
use crate::{codec, Figure, FigureKey, Filter, Reference, Result, RunRow, StoreError, Values};
use rusqlite::types::Value;
use rusqlite::{params, params_from_iter, Row};

const ROW: &str = "SELECT r.id, r.time_ms, r.host, r.front_end, r.command_line, r.interrupted,
    r.iomark_version, r.format, r.document_bytes, r.stored_bytes,
    (SELECT group_concat(tag, char(31)) FROM tags WHERE run_id = r.id),
    (SELECT group_concat(target, char(31)) FROM targets WHERE run_id = r.id)
    FROM runs r";

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

fn value(a: Arg) -> Value {
    match a {
        Arg::Text(t) => Value::Text(t),
        Arg::Int(i) => Value::Integer(i),
    }
}

impl SqliteStore {
    pub(crate) fn history(&self, f: &Filter) -> Result<Vec<RunRow>> {
        let (w, v) = f.clause(Dialect::Sqlite);
        let sql = format!("{ROW}{w} ORDER BY r.id");
        let q = || -> rusqlite::Result<Vec<RunRow>> {
            let mut st = self.conn.prepare(&sql)?;
            let rows = st.query_map(params_from_iter(v.into_iter().map(value)), run_row)?;
            rows.collect()
        };
        q().map_err(|e| self.err(e))
    }

    pub(crate) fn count(&self) -> Result<i64> {
        self.conn
            .query_row("SELECT count(*) FROM runs", [], |r| r.get(0))
            .map_err(|e| self.err(e))
    }

    pub(crate) fn resolve(&self, r: Reference) -> Result<i64> {
        match self
            .conn
            .query_row(r.query(), [value(r.arg())], |row| row.get(0))
        {
            Ok(id) => Ok(id),
            Err(rusqlite::Error::QueryReturnedNoRows) => Err(StoreError::NoSuchRun(r.text())),
            Err(e) => Err(self.err(e)),
        }
    }

    pub(crate) fn run(&self, id: i64) -> Result<RunRow> {
        let sql = format!("{ROW} WHERE r.id = ?1");
        match self.conn.query_row(&sql, [id], run_row) {
            Ok(r) => Ok(r),
            Err(rusqlite::Error::QueryReturnedNoRows) => {
                Err(StoreError::NoSuchRun(format!("@{id}")))
            }
            Err(e) => Err(self.err(e)),
        }
    }

    pub(crate) fn document(&self, id: i64) -> Result<Vec<u8>> {
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

    pub(crate) fn figures(&self, id: i64) -> Result<Vec<Figure>> {
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

    pub(crate) fn values(&self, k: &FigureKey) -> Result<Values> {
        let q = || -> rusqlite::Result<Values> {
            let mut st = self.conn.prepare(
                "SELECT run_id, value, unit FROM figures
                 WHERE job = ?1 AND direction = ?2 AND figure = ?3 ORDER BY run_id, rowid",
            )?;
            let mut out = Values::new();
            let rows = st.query_map([&k.job, &k.direction, &k.figure], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, f64>(1)?,
                    r.get::<_, String>(2)?,
                ))
            })?;
            for row in rows {
                let (id, v, unit) = row?;
                out.entry(id)
                    .or_insert_with(|| (Vec::new(), unit))
                    .0
                    .push(v);
            }
            Ok(out)
        };
        q().map_err(|e| self.err(e))
    }
}
