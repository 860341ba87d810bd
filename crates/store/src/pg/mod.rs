//! The PostgreSQL backend, for a store a team shares: the results of many hosts in one
//! database, named by a URL (`postgres://USER@HOST/DB`, or over a unix socket
//! `postgresql:///DB?host=/run/postgresql`). The schema is the SQLite store's, table for
//! table; every record is one transaction, and a migration holds an advisory lock so that the
//! hosts that meet a new or older database at once migrate it once.
//!
//! The connection is plain (the server is reached on a trusted network or a unix socket); a
//! connection attempt gives up after 10 s unless the URL says otherwise (`connect_timeout=`).

mod read;
pub mod schema;
mod write;

use crate::location::redact;
use crate::{Result, StoreError};
use postgres::{Client, Config, NoTls};
use std::str::FromStr;
use std::time::Duration;

/// How long a connection attempt waits when the URL gives no `connect_timeout`.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// An open PostgreSQL store.
pub struct PgStore {
    client: Client,
    /// The URL without its password.
    at: String,
}

impl PgStore {
    /// Connects to the database of `url` and migrates it to the current schema.
    pub fn open(url: &str) -> Result<PgStore> {
        let mut c = PgStore::connect(url)?;
        schema::migrate(&mut c.client, &c.at)?;
        Ok(c)
    }

    /// Connects without migrating (the tests of earlier versions start here).
    pub fn connect(url: &str) -> Result<PgStore> {
        let at = redact(url);
        let err = |source| StoreError::Postgres {
            at: at.clone(),
            source,
        };
        let mut config = Config::from_str(url).map_err(err)?;
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(CONNECT_TIMEOUT);
        }
        if config.get_application_name().is_none() {
            config.application_name("iomark");
        }
        let client = config.connect(NoTls).map_err(err)?;
        Ok(PgStore { client, at })
    }

    /// The connection (for the tests of earlier versions and of the store's contents).
    pub fn client(&mut self) -> &mut Client {
        &mut self.client
    }

    fn err(&self, source: postgres::Error) -> StoreError {
        StoreError::Postgres {
            at: self.at.clone(),
            source,
        }
    }
}

/// An error of the server or the connection in one line: the server's own message when it
/// sent one (`FATAL: password authentication failed for user "x"`), else the client's.
pub(crate) fn describe(e: &postgres::Error) -> String {
    match e.as_db_error() {
        Some(db) => format!("{}: {}", db.severity(), db.message()),
        None => e.to_string(),
    }
}

impl crate::Store for PgStore {
    fn location(&self) -> String {
        self.at.clone()
    }
    fn schema_version(&mut self) -> Result<i64> {
        schema::version(&mut self.client).map_err(|e| self.err(e))
    }
    fn record(&mut self, run: &crate::NewRun) -> Result<i64> {
        PgStore::record(self, run)
    }
    fn history(&mut self, f: &crate::Filter) -> Result<Vec<crate::RunRow>> {
        PgStore::history(self, f)
    }
    fn count(&mut self) -> Result<i64> {
        PgStore::count(self)
    }
    fn resolve(&mut self, r: crate::Reference) -> Result<i64> {
        PgStore::resolve(self, r)
    }
    fn run(&mut self, id: i64) -> Result<crate::RunRow> {
        PgStore::run(self, id)
    }
    fn document(&mut self, id: i64) -> Result<Vec<u8>> {
        PgStore::document(self, id)
    }
    fn figures(&mut self, id: i64) -> Result<Vec<crate::Figure>> {
        PgStore::figures(self, id)
    }
    fn values(&mut self, k: &crate::FigureKey) -> Result<crate::Values> {
        PgStore::values(self, k)
    }
    fn prune_keep(&mut self, keep: u64) -> Result<usize> {
        PgStore::prune_keep(self, keep)
    }
    fn prune_before(&mut self, ms: i64) -> Result<usize> {
        PgStore::prune_before(self, ms)
    }
}

#[cfg(all(test, feature = "end-to-end"))]
mod tests;
