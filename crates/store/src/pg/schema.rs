//! The PostgreSQL store's schema and its versions: the SQLite store's tables with PostgreSQL's
//! types, version for version ([`MIGRATIONS`]`[n]` takes a database from version `n` to
//! `n + 1`, as [`crate::sqlite::schema::MIGRATIONS`]`[n]` does a file). Targets and figures
//! carry an id of their own, which keeps the order they were recorded in (SQLite's rowid).

use crate::{Result, StoreError};
use postgres::GenericClient;

/// Each step from one version to the next.
pub const MIGRATIONS: &[&str] = &[
    // 0 -> 1: runs, their documents, tags, targets and figures.
    "CREATE TABLE runs (
        id BIGSERIAL PRIMARY KEY,
        time_ms BIGINT NOT NULL,
        host TEXT NOT NULL,
        front_end TEXT NOT NULL,
        command_line TEXT NOT NULL,
        interrupted BOOLEAN NOT NULL,
        iomark_version TEXT NOT NULL,
        format TEXT NOT NULL,
        document_bytes BIGINT NOT NULL,
        stored_bytes BIGINT NOT NULL
    );
    CREATE TABLE documents (
        run_id BIGINT PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
        document BYTEA NOT NULL
    );
    CREATE INDEX runs_time ON runs(time_ms);
    CREATE INDEX runs_host ON runs(host, time_ms);
    CREATE TABLE tags (
        run_id BIGINT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        tag TEXT NOT NULL,
        PRIMARY KEY (run_id, tag)
    );
    CREATE INDEX tags_tag ON tags(tag);
    CREATE TABLE targets (
        id BIGSERIAL PRIMARY KEY,
        run_id BIGINT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        target TEXT NOT NULL
    );
    CREATE INDEX targets_run ON targets(run_id);
    CREATE INDEX targets_target ON targets(target);
    CREATE TABLE figures (
        id BIGSERIAL PRIMARY KEY,
        run_id BIGINT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        job TEXT NOT NULL,
        direction TEXT NOT NULL,
        figure TEXT NOT NULL,
        value DOUBLE PRECISION NOT NULL,
        unit TEXT NOT NULL
    );
    CREATE INDEX figures_run ON figures(run_id);
    CREATE INDEX figures_key ON figures(job, direction, figure);",
];

/// The version this build writes (the SQLite store's).
pub const VERSION: i64 = MIGRATIONS.len() as i64;

/// The key of the advisory lock a migration holds ("iomark" in ASCII).
const LOCK: i64 = 0x696f_6d61_726b;

/// The version of the database behind `c` (0 for one iomark never wrote).
pub fn version(c: &mut impl GenericClient) -> std::result::Result<i64, postgres::Error> {
    let has: bool = c
        .query_one("SELECT to_regclass('schema_version') IS NOT NULL", &[])?
        .get(0);
    if !has {
        return Ok(0);
    }
    let v: Option<i64> = c
        .query_one("SELECT max(version) FROM schema_version", &[])?
        .get(0);
    Ok(v.unwrap_or_default())
}

/// Brings the database up to [`VERSION`] (to `upto` in the tests of earlier versions), in one
/// transaction under an advisory lock, so that clients opening it at once migrate it once.
pub fn migrate_to(c: &mut postgres::Client, at: &str, upto: i64) -> Result<()> {
    let e = |source| StoreError::Postgres {
        at: at.to_string(),
        source,
    };
    if version(c).map_err(e)? >= upto {
        return check_newer(c, at);
    }
    let mut tx = c.transaction().map_err(e)?;
    tx.query("SELECT pg_advisory_xact_lock($1)", &[&LOCK])
        .map_err(e)?;
    tx.batch_execute("CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)")
        .map_err(e)?;
    let from = version(&mut tx).map_err(e)?;
    for (n, step) in MIGRATIONS
        .iter()
        .enumerate()
        .take(upto as usize)
        .skip(from as usize)
    {
        tx.batch_execute(step).map_err(e)?;
        tx.execute("DELETE FROM schema_version", &[]).map_err(e)?;
        tx.execute(
            "INSERT INTO schema_version (version) VALUES ($1)",
            &[&(n as i64 + 1)],
        )
        .map_err(e)?;
    }
    tx.commit().map_err(e)?;
    check_newer(c, at)
}

/// Migrates to the current version.
pub fn migrate(c: &mut postgres::Client, at: &str) -> Result<()> {
    migrate_to(c, at, VERSION)
}

fn check_newer(c: &mut postgres::Client, at: &str) -> Result<()> {
    let found = version(c).map_err(|source| StoreError::Postgres {
        at: at.to_string(),
        source,
    })?;
    if found > VERSION {
        return Err(StoreError::Newer {
            at: at.to_string(),
            found,
            known: VERSION,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    /// Both backends are at the same version: a new version is a step in each.
    #[test]
    fn the_backends_keep_one_schema_version() {
        assert_eq!(
            super::MIGRATIONS.len(),
            crate::sqlite::schema::MIGRATIONS.len()
        );
    }
}
