//! iomark's result store: every run's facts (time, host, front end, command line, tags,
//! targets, whether it was interrupted, iomark's version), its whole result document (kept
//! deflated) and the figures people query (job, direction, figure, value, unit) as indexed
//! rows, in one SQLite file.
//!
//! The store is written by many processes at once (two shells, the ranks of a launch on one
//! host): it runs in WAL mode with a busy timeout, and every record is one immediate
//! transaction. Its schema carries a version; [`schema`] migrates a store of any earlier
//! version when it is opened.
//!
//! The store knows nothing of the result model: callers give it the facts, the document bytes
//! and the figures, and get them back.

mod codec;
mod query;
mod record;
pub mod schema;
mod series;

pub use query::{Filter, Reference, RunRow};
pub use record::{Figure, NewRun};
pub use series::{FigureKey, Point};

use rusqlite::Connection;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How long a writer waits for another one before giving up.
pub const BUSY_TIMEOUT: Duration = Duration::from_secs(30);

/// What went wrong with the store.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("{path}: {source}")]
    Sqlite {
        path: PathBuf,
        source: rusqlite::Error,
    },
    #[error("cannot create {path}: {source}")]
    Dir {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}: the store was written by a newer iomark (schema version {found}, this one knows up to {known})")]
    Newer {
        path: PathBuf,
        found: i64,
        known: i64,
    },
    #[error("no run {0} in the store")]
    NoSuchRun(String),
    #[error("bad store reference '{0}' (expected @ID, @last, @last~N or @tag:NAME)")]
    BadReference(String),
    #[error("run {id}: its document cannot be read: {source}")]
    Document { id: i64, source: std::io::Error },
}

pub type Result<T> = std::result::Result<T, StoreError>;

/// An open store.
pub struct Store {
    conn: Connection,
    path: PathBuf,
}

impl Store {
    /// Opens the store at `path`, creating it (and its directory) when missing, and migrates
    /// it to the current schema.
    ///
    /// Opening a store another process is creating or checkpointing may meet a lock that
    /// SQLite's busy handler does not wait for (switching to WAL needs the file alone): such
    /// an open is tried again until [`BUSY_TIMEOUT`].
    pub fn open(path: &Path) -> Result<Store> {
        let start = std::time::Instant::now();
        let mut pause = Duration::from_millis(2);
        loop {
            match Store::open_once(path) {
                Err(e) if busy(&e) && start.elapsed() < BUSY_TIMEOUT => {
                    std::thread::sleep(pause);
                    pause = (pause * 2).min(Duration::from_millis(100));
                }
                r => return r,
            }
        }
    }

    fn open_once(path: &Path) -> Result<Store> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|source| StoreError::Dir {
                path: dir.to_path_buf(),
                source,
            })?;
        }
        let conn = Connection::open(path).map_err(|e| sql_err(path, e))?;
        let mut s = Store {
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

    fn err(&self, e: rusqlite::Error) -> StoreError {
        sql_err(&self.path, e)
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
        path: path.to_path_buf(),
        source,
    }
}

#[cfg(test)]
mod tests;
