//! iomark's result store: every run's facts (time, host, front end, command line, tags,
//! targets, whether it was interrupted, iomark's version), its whole result document (kept
//! deflated) and the figures people query (job, direction, figure, value, unit) as indexed
//! rows.
//!
//! Two backends keep the same schema behind one trait, [`Store`]: a SQLite file (the default,
//! compiled in) and a PostgreSQL database shared by a team (`postgres://...`). Both are written
//! by many processes at once and record every run in one transaction; both carry a schema
//! version and migrate a store of any earlier version when it is opened.
//!
//! The store knows nothing of the result model: callers give it the facts, the document bytes
//! and the figures, and get them back.

mod codec;
mod filter;
mod location;
pub mod pg;
mod reference;
mod run;
mod series;
pub mod sqlite;

pub use filter::Filter;
pub use location::Location;
pub use reference::Reference;
pub use run::{Figure, NewRun, RunRow};
pub use series::{FigureKey, Point};

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

/// How long a writer waits for another one before giving up.
pub const BUSY_TIMEOUT: Duration = Duration::from_secs(30);

/// What went wrong with the store. `at` names the store: a file, or a PostgreSQL URL without
/// its password.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("{at}: {source}")]
    Sqlite { at: String, source: rusqlite::Error },
    #[error("{at}: {}", pg::describe(source))]
    Postgres { at: String, source: postgres::Error },
    #[error("cannot create {path}: {source}")]
    Dir {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{at}: the store was written by a newer iomark (schema version {found}, this one knows up to {known})")]
    Newer { at: String, found: i64, known: i64 },
    #[error("no run {0} in the store")]
    NoSuchRun(String),
    #[error("bad store reference '{0}' (expected @ID, @last, @last~N or @tag:NAME)")]
    BadReference(String),
    #[error("run {id}: its document cannot be read: {source}")]
    Document { id: i64, source: std::io::Error },
}

pub type Result<T> = std::result::Result<T, StoreError>;

/// Every run's values of one figure, by run id: the values in the order recorded (several for
/// a run of repetitions) and their unit.
pub type Values = BTreeMap<i64, (Vec<f64>, String)>;

/// A result store, whichever its backend.
pub trait Store {
    /// Where the store is, as it may be shown (a file, a URL without its password).
    fn location(&self) -> String;
    /// The schema version of the store (the current one once opened).
    fn schema_version(&mut self) -> Result<i64>;
    /// Records `run`; its id.
    fn record(&mut self, run: &NewRun) -> Result<i64>;
    /// The runs `f` selects, oldest first.
    fn history(&mut self, f: &Filter) -> Result<Vec<RunRow>>;
    /// How many runs the store holds.
    fn count(&mut self) -> Result<i64>;
    /// The id `r` stands for.
    fn resolve(&mut self, r: Reference) -> Result<i64>;
    /// Run `id`'s facts.
    fn run(&mut self, id: i64) -> Result<RunRow>;
    /// Run `id`'s whole document.
    fn document(&mut self, id: i64) -> Result<Vec<u8>>;
    /// Run `id`'s figures, in the order they were recorded.
    fn figures(&mut self, id: i64) -> Result<Vec<Figure>>;
    /// Every run's values of figure `k`.
    fn values(&mut self, k: &FigureKey) -> Result<Values>;
    /// Deletes every run but the last `keep`; how many were deleted.
    fn prune_keep(&mut self, keep: u64) -> Result<usize>;
    /// Deletes the runs that started before `ms`; how many were deleted.
    fn prune_before(&mut self, ms: i64) -> Result<usize>;

    /// The runs `f` selects that hold figure `k`, in the order they started (an imported run
    /// takes its place by its time), with its values.
    fn series(&mut self, f: &Filter, k: &FigureKey) -> Result<Vec<Point>> {
        let values = self.values(k)?;
        if values.is_empty() {
            return Ok(Vec::new());
        }
        Ok(series::points(self.history(f)?, values))
    }
}

/// Opens the store at `loc` (creating a SQLite file and its directory when missing) and
/// migrates it to the current schema.
pub fn open(loc: &Location) -> Result<Box<dyn Store>> {
    Ok(match loc {
        Location::File(p) => Box::new(sqlite::SqliteStore::open(p)?),
        Location::Postgres(url) => Box::new(pg::PgStore::open(url)?),
    })
}

#[cfg(test)]
mod suite;
