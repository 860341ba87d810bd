//! Reading the PostgreSQL store: the same queries as the SQLite store's.

use super::PgStore;
use crate::filter::{Arg, Dialect};
use crate::run::split;
use crate::{codec, Figure, FigureKey, Filter, Reference, Result, RunRow, StoreError, Values};
use postgres::types::ToSql;
use postgres::Row;

const ROW: &str = "SELECT r.id, r.time_ms, r.host, r.front_end, r.command_line, r.interrupted,
    r.iomark_version, r.format, r.document_bytes, r.stored_bytes,
    (SELECT string_agg(tag, chr(31) ORDER BY tag) FROM tags WHERE run_id = r.id),
    (SELECT string_agg(target, chr(31) ORDER BY id) FROM targets WHERE run_id = r.id)
    FROM runs r";

fn run_row(r: &Row) -> RunRow {
    RunRow {
        id: r.get(0),
        time_ms: r.get(1),
        host: r.get(2),
        front_end: r.get(3),
        command_line: r.get(4),
        interrupted: r.get(5),
        iomark_version: r.get(6),
        format: r.get(7),
        document_bytes: r.get(8),
        stored_bytes: r.get(9),
        tags: split(r.get(10)),
        targets: split(r.get(11)),
    }
}

fn boxed(a: Arg) -> Box<dyn ToSql + Sync> {
    match a {
        Arg::Text(t) => Box::new(t),
        Arg::Int(i) => Box::new(i),
    }
}

impl PgStore {
    pub(crate) fn history(&mut self, f: &Filter) -> Result<Vec<RunRow>> {
        let (w, v) = f.clause(Dialect::Postgres);
        let sql = format!("{ROW}{w} ORDER BY r.id");
        let args: Vec<Box<dyn ToSql + Sync>> = v.into_iter().map(boxed).collect();
        let refs: Vec<&(dyn ToSql + Sync)> = args.iter().map(|a| a.as_ref()).collect();
        let rows = self.client.query(&sql, &refs).map_err(|e| self.err(e))?;
        Ok(rows.iter().map(run_row).collect())
    }

    pub(crate) fn count(&mut self) -> Result<i64> {
        let r = self.client.query_one("SELECT count(*) FROM runs", &[]);
        r.map(|r| r.get(0)).map_err(|e| self.err(e))
    }

    pub(crate) fn resolve(&mut self, r: Reference) -> Result<i64> {
        let sql = Dialect::Postgres.placeholders(r.query());
        let arg = boxed(r.arg());
        match self.client.query_opt(&sql, &[arg.as_ref()]) {
            Ok(Some(row)) => Ok(row.get(0)),
            Ok(None) => Err(StoreError::NoSuchRun(r.text())),
            Err(e) => Err(self.err(e)),
        }
    }

    pub(crate) fn run(&mut self, id: i64) -> Result<RunRow> {
        let sql = format!("{ROW} WHERE r.id = $1");
        match self.client.query_opt(&sql, &[&id]) {
            Ok(Some(r)) => Ok(run_row(&r)),
            Ok(None) => Err(StoreError::NoSuchRun(format!("@{id}"))),
            Err(e) => Err(self.err(e)),
        }
    }

    pub(crate) fn document(&mut self, id: i64) -> Result<Vec<u8>> {
        let blob: Vec<u8> = match self
            .client
            .query_opt("SELECT document FROM documents WHERE run_id = $1", &[&id])
        {
            Ok(Some(r)) => r.get(0),
            Ok(None) => return Err(StoreError::NoSuchRun(format!("@{id}"))),
            Err(e) => return Err(self.err(e)),
        };
        codec::decompress(&blob).map_err(|source| StoreError::Document { id, source })
    }

    pub(crate) fn figures(&mut self, id: i64) -> Result<Vec<Figure>> {
        let rows = self
            .client
            .query(
                "SELECT job, direction, figure, value, unit FROM figures
                 WHERE run_id = $1 ORDER BY id",
                &[&id],
            )
            .map_err(|e| self.err(e))?;
        Ok(rows
            .iter()
            .map(|r| Figure {
                job: r.get(0),
                direction: r.get(1),
                figure: r.get(2),
                value: r.get(3),
                unit: r.get(4),
            })
            .collect())
    }

    pub(crate) fn values(&mut self, k: &FigureKey) -> Result<Values> {
        let rows = self
            .client
            .query(
                "SELECT run_id, value, unit FROM figures
                 WHERE job = $1 AND direction = $2 AND figure = $3 ORDER BY run_id, id",
                &[&k.job, &k.direction, &k.figure],
            )
            .map_err(|e| self.err(e))?;
        let mut out = Values::new();
        for r in rows {
            out.entry(r.get::<_, i64>(0))
                .or_insert_with(|| (Vec::new(), r.get(2)))
                .0
                .push(r.get(1));
        }
        Ok(out)
    }
}
