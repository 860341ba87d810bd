//! The PostgreSQL backend passes the store suite against a server: the throw-away cluster
//! scripts/test starts (scripts/pg-cluster), named by `IOMARK_TEST_POSTGRES` (a URL of a
//! database on which the test user may create databases). Each test gets a database of its own,
//! dropped after. Unreachable servers and bad credentials are errors naming the URL, never its
//! password.

use super::*;
use crate::suite::{all_store_tests, Backend, Fresh};
use crate::Location;
use std::sync::atomic::{AtomicU32, Ordering};

/// The test server's URL; fails (never skips) when it is not given.
fn server() -> String {
    match std::env::var("IOMARK_TEST_POSTGRES") {
        Ok(u) if !u.is_empty() => u,
        _ => panic!(
            "the PostgreSQL store tests need a server: run them through scripts/test, which \
             starts one, or start one with `scripts/pg-cluster start DIR` and export the \
             IOMARK_TEST_POSTGRES it prints (stop it with `scripts/pg-cluster stop DIR`)"
        ),
    }
}

/// `url` with its database replaced by `db`.
fn with_db(url: &str, db: &str) -> String {
    let (head, query) = match url.split_once('?') {
        Some((h, q)) => (h, format!("?{q}")),
        None => (url, String::new()),
    };
    let (scheme, rest) = head.split_once("://").expect("a URL");
    let host = rest.split('/').next().unwrap_or_default();
    format!("{scheme}://{host}/{db}{query}")
}

fn admin() -> postgres::Client {
    PgStore::connect(&server()).unwrap().client
}

/// A database of one test, dropped when the test ends.
struct Database(String);

impl Drop for Database {
    fn drop(&mut self) {
        let _ = admin().batch_execute(&format!("DROP DATABASE IF EXISTS {} WITH (FORCE)", self.0));
    }
}

static DATABASES: AtomicU32 = AtomicU32::new(0);

fn url(loc: &Location) -> &str {
    match loc {
        Location::Postgres(u) => u,
        Location::File(_) => unreachable!("a PostgreSQL location"),
    }
}

struct Pg;

impl Backend for Pg {
    fn fresh(&self) -> Fresh {
        let n = DATABASES.fetch_add(1, Ordering::Relaxed);
        let db = format!("iomark_test_{}_{n}", std::process::id());
        admin()
            .batch_execute(&format!("CREATE DATABASE {db}"))
            .unwrap();
        Fresh {
            loc: Location::Postgres(with_db(&server(), &db)),
            _keep: Box::new(Database(db)),
        }
    }
    fn migrate_to(&self, loc: &Location, v: i64) {
        let mut c = PgStore::connect(url(loc)).unwrap();
        schema::migrate_to(&mut c.client, "test", v).unwrap();
        assert_eq!(schema::version(&mut c.client).unwrap(), v);
    }
    fn execute(&self, loc: &Location, sql: &str) {
        PgStore::connect(url(loc))
            .unwrap()
            .client
            .batch_execute(sql)
            .unwrap();
    }
    fn rows(&self, loc: &Location, table: &str) -> i64 {
        let mut c = PgStore::connect(url(loc)).unwrap();
        c.client
            .query_one(&format!("SELECT count(*) FROM {table}"), &[])
            .unwrap()
            .get(0)
    }
    fn version(&self) -> i64 {
        schema::VERSION
    }
}

all_store_tests!(Pg);

#[test]
fn urls_name_other_databases() {
    assert_eq!(
        with_db("postgresql:///postgres?host=/tmp/x&user=u", "t1"),
        "postgresql:///t1?host=/tmp/x&user=u"
    );
    assert_eq!(with_db("postgres://u@h:5/db", "t2"), "postgres://u@h:5/t2");
}

/// A server that is not there: an error naming the URL, soon.
#[test]
fn an_unreachable_server_is_an_error_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let u = format!(
        "postgresql://iomark:s3cret@{}/db",
        dir.path().display().to_string().replace('/', "%2F")
    );
    let e = crate::open(&Location::parse(&u)).err().unwrap().to_string();
    assert!(e.starts_with("postgresql://iomark@"), "{e}");
    assert!(e.contains("error connecting"), "{e}");
    assert!(!e.contains("s3cret"), "{e}");
}

/// A wrong password (the test cluster asks the user `locked` for one): the server's refusal,
/// the URL without the password.
#[test]
fn bad_credentials_are_an_error_without_the_password() {
    let base = with_db(&server(), "locked");
    assert!(base.contains("user=iomark"), "{base}");
    let u = base.replace("user=iomark", "user=locked&password=wrong-s3cret");
    let e = crate::open(&Location::parse(&u)).err().unwrap().to_string();
    assert!(e.contains("password authentication failed"), "{e}");
    assert!(e.contains("password=..."), "{e}");
    assert!(!e.contains("s3cret"), "{e}");
    // The right one opens it.
    let ok = u.replace("wrong-s3cret", "locked-pass");
    let mut s = crate::open(&Location::parse(&ok)).unwrap();
    assert!(s.location().contains("user=locked"));
    let _ = s.count();
}
