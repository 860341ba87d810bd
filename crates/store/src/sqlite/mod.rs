//! The SQLite backend: one file, written by many processes at once (two shells, the ranks of
//! a launch on one host). It runs in WAL mode with a busy timeout, and every record is one
//! immediate transaction. [`schema`] migrates a store of any earlier version when it is opened.

mod read;
pub mod schema;
mod write;

use crate::{Result, StoreError, BUSY_TIMEOUT};
use rusqlite::Connection;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// An open SQLite store.
pub struct SqliteStore {
    conn: Connection,
    path: PathBuf,
}

impl SqliteStore {
    /// Opens the store at `path`, creating it (and its directory) when missing, and migrates
    /// it to the current schema.
    ///
    /// Opening a store another process is creating or checkpointing may meet a lock that
    /// SQLite's busy handler does not wait for (switching to WAL needs the file alone): such
    /// an open is tried again until [`BUSY_TIMEOUT`].
    pub fn open(path: &Path) -> Result<SqliteStore> {
        let start = std::time::Instant::now();
        let mut pause = Duration::from_millis(2);
        loop {
            match SqliteStore::open_once(path) {
                Err(e) if busy(&e) && start.elapsed() < BUSY_TIMEOUT => {
                    std::thread::sleep(pause);
                    pause = (pause * 2).min(Duration::from_millis(100));
                }
                r => return r,
            }
        }
    }

    fn open_once(path: &Path) -> Result<SqliteStore> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|source| StoreError::Dir {
                path: dir.to_path_buf(),
                source,
            })?;
        }
        let conn = Connection::open(path).map_err(|e| sql_err(path, e))?;
        let mut s = SqliteStore {
            conn,
            path: path.to_path_buf(),
        };
        s.setup().map_err(|e| s.err(e))?;
        schema::migrate(&mut s.conn, path)?;
        Ok(s)
    }

    fn setup(&self) -> rusqlite::Result<()> {
        self.conn.busy_timeout(BUSY_TIMEOUT)?;
        // An error here is a file that is not a database; the switch to WAL is made once.
        let mode: String = self
            .conn
            .query_row("PRAGMA journal_mode", [], |r| r.get(0))?;
        if !mode.eq_ignore_ascii_case("wal") {
            let _: String = self
                .conn
                .query_row("PRAGMA journal_mode=WAL", [], |r| r.get(0))?;
        }
        self.conn.pragma_update(None, "synchronous", "NORMAL")?;
        // No checkpoint when the connection closes: with it every run paid two syncs (the log
        // and the database, milliseconds on a virtual disk) on its way out. A run folds the log
        // into the database when it has grown past a few MiB (see `record`); until then the
        // latest runs are read from beside it (`results.db-wal`).
        self.conn.set_db_config(
            rusqlite::config::DbConfig::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE,
            true,
        )?;
        self.conn.pragma_update(None, "foreign_keys", "ON")
    }

    /// The file of the store.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The open connection (for the tests of earlier versions and of the store's contents).
    pub fn connection(&self) -> &Connection {
        &self.conn
    }

    fn err(&self, e: rusqlite::Error) -> StoreError {
        sql_err(&self.path, e)
    }
}

impl crate::Store for SqliteStore {
    fn location(&self) -> String {
        self.path.display().to_string()
    }
    fn schema_version(&mut self) -> Result<i64> {
        schema::version(&self.conn).map_err(|e| self.err(e))
    }
    fn record(&mut self, run: &crate::NewRun) -> Result<i64> {
        SqliteStore::record(self, run)
    }
    fn history(&mut self, f: &crate::Filter) -> Result<Vec<crate::RunRow>> {
        SqliteStore::history(self, f)
    }
    fn count(&mut self) -> Result<i64> {
        SqliteStore::count(self)
    }
    fn resolve(&mut self, r: crate::Reference) -> Result<i64> {
        SqliteStore::resolve(self, r)
    }
    fn run(&mut self, id: i64) -> Result<crate::RunRow> {
        SqliteStore::run(self, id)
    }
    fn document(&mut self, id: i64) -> Result<Vec<u8>> {
        SqliteStore::document(self, id)
    }
    fn figures(&mut self, id: i64) -> Result<Vec<crate::Figure>> {
        SqliteStore::figures(self, id)
    }
    fn values(&mut self, k: &crate::FigureKey) -> Result<crate::Values> {
        SqliteStore::values(self, k)
    }
    fn prune_keep(&mut self, keep: u64) -> Result<usize> {
        SqliteStore::prune_keep(self, keep)
    }
    fn prune_before(&mut self, ms: i64) -> Result<usize> {
        SqliteStore::prune_before(self, ms)
    }
}

/// Whether `e` is a lock another connection holds.
fn busy(e: &StoreError) -> bool {
    use rusqlite::ErrorCode::{DatabaseBusy, DatabaseLocked};
    match e {
        StoreError::Sqlite {
            source: rusqlite::Error::SqliteFailure(f, _),
            ..
        } => matches!(f.code, DatabaseBusy | DatabaseLocked),
        _ => false,
    }
}

fn sql_err(path: &Path, source: rusqlite::Error) -> StoreError {
    StoreError::Sqlite {
        at: path.display().to_string(),
        source,
    }
}

#[cfg(test)]
mod tests;
