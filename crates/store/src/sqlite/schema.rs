//! The SQLite store's schema and its versions. `schema_version` holds one row, the version the file
//! was migrated to; [`MIGRATIONS`]`[n]` takes a store from version `n` to `n + 1`. A new
//! version is one more entry at the end (never an edit of an earlier one), and the tests open
//! a store left at every earlier version.

use super::sql_err;
use crate::{Result, StoreError};
use rusqlite::{Connection, TransactionBehavior};
use std::path::Path;

/// Each step from one version to the next.
pub const MIGRATIONS: &[&str] = &[
    // 0 -> 1: runs, their documents (apart, so that a scan of the runs stays small), tags,
    // targets and figures.
    "CREATE TABLE runs (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        time_ms INTEGER NOT NULL,
        host TEXT NOT NULL,
        front_end TEXT NOT NULL,
        command_line TEXT NOT NULL,
        interrupted INTEGER NOT NULL,
        iomark_version TEXT NOT NULL,
        format TEXT NOT NULL,
        document_bytes INTEGER NOT NULL,
        stored_bytes INTEGER NOT NULL
    );
    CREATE TABLE documents (
        run_id INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
        document BLOB NOT NULL
    );
    CREATE INDEX runs_time ON runs(time_ms);
    CREATE INDEX runs_host ON runs(host, time_ms);
    CREATE TABLE tags (
        run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        tag TEXT NOT NULL,
        PRIMARY KEY (run_id, tag)
    );
    CREATE INDEX tags_tag ON tags(tag);
    CREATE TABLE targets (
        run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        target TEXT NOT NULL
    );
    CREATE INDEX targets_run ON targets(run_id);
    CREATE INDEX targets_target ON targets(target);
    CREATE TABLE figures (
        run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        job TEXT NOT NULL,
        direction TEXT NOT NULL,
        figure TEXT NOT NULL,
        value REAL NOT NULL,
        unit TEXT NOT NULL
    );
    CREATE INDEX figures_run ON figures(run_id);
    CREATE INDEX figures_key ON figures(job, direction, figure);",
];

/// The version this build writes.
pub const VERSION: i64 = MIGRATIONS.len() as i64;

/// The version of the store behind `conn` (0 for a new, empty file).
pub fn version(conn: &Connection) -> rusqlite::Result<i64> {
    let has: bool = conn.query_row(
        "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'",
        [],
        |r| r.get::<_, i64>(0).map(|n| n > 0),
    )?;
    if !has {
        return Ok(0);
    }
    conn.query_row("SELECT max(version) FROM schema_version", [], |r| {
        r.get::<_, Option<i64>>(0).map(Option::unwrap_or_default)
    })
}

/// Brings the store up to [`VERSION`] (to `upto` in the tests of earlier versions), in one
/// immediate transaction so two processes opening a new store at once migrate it once.
pub fn migrate_to(conn: &mut Connection, path: &Path, upto: i64) -> Result<()> {
    let e = |e| sql_err(path, e);
    if version(conn).map_err(e)? >= upto {
        return check_newer(conn, path);
    }
    let tx = conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(e)?;
    tx.execute_batch("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        .map_err(e)?;
    let from = version(&tx).map_err(e)?;
    for (n, step) in MIGRATIONS
        .iter()
        .enumerate()
        .take(upto as usize)
        .skip(from as usize)
    {
        tx.execute_batch(step).map_err(e)?;
        tx.execute("DELETE FROM schema_version", []).map_err(e)?;
        tx.execute(
            "INSERT INTO schema_version (version) VALUES (?1)",
            [n as i64 + 1],
        )
        .map_err(e)?;
    }
    tx.commit().map_err(e)?;
    check_newer(conn, path)
}

/// Migrates to the current version.
pub fn migrate(conn: &mut Connection, path: &Path) -> Result<()> {
    migrate_to(conn, path, VERSION)
}

fn check_newer(conn: &Connection, path: &Path) -> Result<()> {
    let found = version(conn).map_err(|e| sql_err(path, e))?;
    if found > VERSION {
        return Err(StoreError::Newer {
            at: path.display().to_string(),
            found,
            known: VERSION,
        });
    }
    Ok(())
}
