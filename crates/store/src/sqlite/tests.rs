//! The SQLite backend passes the store suite, and the tests only a file has: a file that is
//! not a store, the cost of 10,000 runs.

use super::*;
use crate::suite::{all_store_tests, fig, Backend, Fresh};
use crate::{Figure, Filter, Location, NewRun};

struct Sqlite;

fn file(loc: &Location) -> &Path {
    match loc {
        Location::File(p) => p,
        Location::Postgres(_) => unreachable!("a SQLite location"),
    }
}

impl Backend for Sqlite {
    fn fresh(&self) -> Fresh {
        let (d, p) = temp();
        Fresh {
            loc: Location::File(p),
            _keep: Box::new(d),
        }
    }
    fn migrate_to(&self, loc: &Location, v: i64) {
        let p = file(loc);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        let mut c = rusqlite::Connection::open(p).unwrap();
        schema::migrate_to(&mut c, p, v).unwrap();
        assert_eq!(schema::version(&c).unwrap(), v);
    }
    fn execute(&self, loc: &Location, sql: &str) {
        rusqlite::Connection::open(file(loc))
            .unwrap()
            .execute_batch(sql)
            .unwrap();
    }
    fn rows(&self, loc: &Location, table: &str) -> i64 {
        let c = rusqlite::Connection::open(file(loc)).unwrap();
        c.query_row(&format!("SELECT count(*) FROM {table}"), [], |r| r.get(0))
            .unwrap()
    }
    fn version(&self) -> i64 {
        schema::VERSION
    }
}

all_store_tests!(Sqlite);

fn temp() -> (tempfile::TempDir, std::path::PathBuf) {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("sub/results.db");
    (d, p)
}

#[test]
fn a_file_that_is_not_a_store_is_an_error() {
    let (_d, p) = temp();
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(&p, vec![0x5a; 8192]).unwrap();
    let e = SqliteStore::open(&p).err().unwrap().to_string();
    assert!(e.contains("not a database"), "{e}");
}

/// The store's cost: `IOMARK_COST_DOC=result.json cargo test -p iomark-store --release --
/// --ignored --nocapture cost` (each run opens the store, as each run of iomark does).
#[test]
#[ignore]
fn cost_of_10000_runs() {
    let (_d, p) = temp();
    let doc = std::fs::read(std::env::var("IOMARK_COST_DOC").unwrap_or_default())
        .unwrap_or_else(|_| b"{\"format\":\"iomark-result/1\"}".to_vec());
    // As many figures as quick's: 8 tests of one direction, 5 figures each.
    let figs: Vec<Figure> = (0..40)
        .map(|i| fig(&format!("j{}", i / 5), "read", "iops", 1.0))
        .collect();
    drop(SqliteStore::open(&p).unwrap());
    let t = std::time::Instant::now();
    for i in 0..10_000 {
        let mut s = SqliteStore::open(&p).unwrap();
        crate::Store::record(
            &mut s,
            &NewRun {
                time_ms: i,
                host: "h",
                front_end: "quick",
                command_line: "iomark quick",
                tags: &["nightly".into()],
                targets: &["/tmp/x".into()],
                document: &doc,
                figures: &figs,
                ..NewRun::default()
            },
        )
        .unwrap();
    }
    let per_run = t.elapsed().as_secs_f64() * 1000.0 / 10_000.0;
    let t = std::time::Instant::now();
    let s = SqliteStore::open(&p).unwrap();
    let n = s.history(&Filter::default()).unwrap().len();
    let history_ms = t.elapsed().as_secs_f64() * 1000.0;
    let t = std::time::Instant::now();
    let tagged = s
        .history(&Filter {
            tag: Some("nightly".into()),
            since_ms: Some(5000),
            ..Filter::default()
        })
        .unwrap()
        .len();
    let filtered_ms = t.elapsed().as_secs_f64() * 1000.0;
    drop(s);
    let size = std::fs::metadata(&p).unwrap().len();
    println!(
        "document {} bytes; {per_run:.2} ms per run; history of {n} runs {history_ms:.1} ms, \
         {tagged} filtered {filtered_ms:.1} ms; file {} bytes, {} bytes per run",
        doc.len(),
        size,
        size / 10_000
    );
}
