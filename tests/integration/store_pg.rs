//! The result store on PostgreSQL, through iomark's commands: runs of several processes land in
//! one database, `history`, `show`, `compare @last~1 @last`, `report --trend`, import, export
//! and prune read it as they read a file; a server that cannot be reached, or refuses the
//! credentials, costs the run one warning naming the URL (never the password), not its outputs.
//! Against the throw-away cluster scripts/test starts (scripts/pg-cluster).

use crate::store::{
    cat, history, ok, one_warning, own, run_args, run_keeping_outputs, with_store, writers_at_once,
};
use crate::util::*;
use serde_json::Value;
use std::sync::atomic::{AtomicU32, Ordering};

/// The test server's URL; fails (never skips) when it is not running.
fn server() -> String {
    match std::env::var("IOMARK_TEST_POSTGRES") {
        Ok(u) if !u.is_empty() => u,
        _ => panic!(
            "the PostgreSQL store tests need the test server: run them through scripts/test, \
             which starts it, or start one with `scripts/pg-cluster start DIR` and export the \
             IOMARK_TEST_POSTGRES it prints (stop it with `scripts/pg-cluster stop DIR`)"
        ),
    }
}

/// `url` naming database `db` instead.
fn with_db(url: &str, db: &str) -> String {
    let (head, query) = url.split_once('?').unwrap_or((url, ""));
    let (scheme, rest) = head.split_once("://").expect("a URL");
    let host = rest.split('/').next().unwrap_or_default();
    format!("{scheme}://{host}/{db}?{query}")
}

fn admin(sql: &str) {
    let mut s = iomark_store::pg::PgStore::connect(&server()).expect("the test server");
    s.client().batch_execute(sql).expect(sql);
}

/// A database of one test, dropped after it.
pub(crate) struct Db {
    name: String,
    pub(crate) url: String,
}

static DBS: AtomicU32 = AtomicU32::new(0);

impl Db {
    pub(crate) fn new() -> Db {
        let name = format!(
            "iomark_it_{}_{}",
            std::process::id(),
            DBS.fetch_add(1, Ordering::SeqCst)
        );
        admin(&format!("CREATE DATABASE {name}"));
        let url = with_db(&server(), &name);
        Db { name, url }
    }
}

impl Drop for Db {
    fn drop(&mut self) {
        let mut s = iomark_store::pg::PgStore::connect(&server()).expect("the test server");
        let _ = s.client().batch_execute(&format!(
            "DROP DATABASE IF EXISTS {} WITH (FORCE)",
            self.name
        ));
    }
}

#[test]
fn postgres_store_history_show_compare_trend() {
    let db = Db::new();
    let d = Scratch::new_in("/dev/shm", "pg-store");
    for r in ["r1.json", "r2.json"] {
        let a = cat(&run_args(&d.s("f"), &d.s(r)), &["--tag", "nightly"]);
        ok(&with_store(&db.url, &a, &d.path));
    }
    let h = history(&db.url, &d.path);
    assert_eq!(h.len(), 2);
    assert_eq!(h[1]["tags"][0], "nightly");
    assert_eq!(h[1]["targets"][0], d.s("f").as_str());
    let doc: Value = serde_json::from_str(&ok(&with_store(
        &db.url,
        &["show", "@last", "--json"],
        &d.path,
    )))
    .unwrap();
    let file: Value = serde_json::from_slice(&std::fs::read(d.file("r2.json")).unwrap()).unwrap();
    assert_eq!(doc, file);
    let labels = ["--label", "one", "--label", "two"];
    let refs = cat(&own(&["compare", "@last~1", "@last"]), &labels);
    let files = cat(
        &own(&["compare", &d.s("r1.json"), &d.s("r2.json")]),
        &labels,
    );
    assert_eq!(
        ok(&with_store(&db.url, &refs, &d.path)),
        ok(&with_store(&db.url, &files, &d.path))
    );
    let t = [
        "report",
        "--trend",
        "r.read.iops",
        "--tag",
        "nightly",
        "-o",
        &d.s("t.html"),
    ];
    let o = with_store(&db.url, &t, &d.path);
    ok(&o);
    assert!(stderr(&o).contains("over 2 runs"), "{}", stderr(&o));
    let html = std::fs::read_to_string(d.file("t.html")).unwrap();
    assert!(html.contains("\"x\":[\"@1 "), "runs as categories");
    // Import, export, prune; `store path` shows the URL.
    let fixture = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/fio-3.33-output/fio-json-plus.json"
    );
    let o = with_store(&db.url, &["store", "import", fixture], &d.path);
    ok(&o);
    assert!(stderr(&o).contains("recorded as @3"), "{}", stderr(&o));
    ok(&with_store(
        &db.url,
        &["store", "export", &d.s("out")],
        &d.path,
    ));
    assert_eq!(
        std::fs::read(d.file("out/iomark-3.json")).unwrap(),
        std::fs::read(fixture).unwrap()
    );
    let shown = ok(&with_store(&db.url, &["store", "path"], &d.path));
    assert_eq!(shown.trim(), db.url);
    ok(&with_store(
        &db.url,
        &["store", "prune", "--keep", "1"],
        &d.path,
    ));
    let h = history(&db.url, &d.path);
    assert_eq!(h.len(), 1);
    assert_eq!(h[0]["front_end"], "fio");
}

#[test]
fn postgres_two_processes_writing_at_once_lose_nothing() {
    let db = Db::new();
    let d = Scratch::new_in("/dev/shm", "pg-two");
    writers_at_once(&d, &db.url);
}

/// The run's outputs whatever the store does, and the one warning it printed.
fn run_with_store(d: &Scratch, store: &str) -> String {
    let (_, err) = run_keeping_outputs(d, store);
    one_warning(&err);
    err
}

#[test]
fn an_unreachable_or_refusing_server_keeps_the_runs_outputs() {
    let d = Scratch::new_in("/dev/shm", "pg-down");
    // No server at that socket.
    let gone = format!(
        "postgresql://iomark:s3cret@{}/db",
        d.s("nothing-here").replace('/', "%2F")
    );
    let err = run_with_store(&d, &gone);
    assert!(err.contains("postgresql://iomark@"), "{err}");
    assert!(err.contains("error connecting"), "{err}");
    assert!(!err.contains("s3cret"), "{err}");
    // The test server, a wrong password.
    let base = with_db(&server(), "locked");
    let wrong = base.replace("user=iomark", "user=locked&password=wrong-s3cret");
    assert_ne!(wrong, base);
    let err = run_with_store(&d, &wrong);
    assert!(err.contains("password authentication failed"), "{err}");
    assert!(!err.contains("s3cret"), "{err}");
    // Reading it is an error that says so.
    let o = with_store(&wrong, &["history"], &d.path);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("password authentication failed"));
}
