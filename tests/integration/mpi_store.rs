//! Several launches of many ranks on one host at once, every one recording into the same
//! result store: rank 0 records each merged run once, with all its figures, and no launch
//! loses a run or fails on a busy store. On SQLite, and on PostgreSQL (the test server
//! scripts/test starts).

use crate::mpi::{mpirun, NULL_JOB};
use crate::store::{history, ok, with_store};
use crate::store_pg::Db;
use crate::util::{BoundedOutput, Scratch};
use serde_json::Value;
use std::collections::BTreeSet;

/// Launches at once, each of `RUNS` runs one after the other, each of `RANKS` ranks.
const LAUNCHES: usize = 2;
const RUNS: usize = 3;
const RANKS: usize = 4;
/// One rank's I/Os of the job (8 MiB in 4 KiB blocks).
const IOS: u64 = 2048;

fn job(tag: &str) -> Vec<String> {
    NULL_JOB
        .iter()
        .map(|s| s.to_string())
        .chain([format!("--tag={tag}")])
        .collect()
}

/// The figures of run `id` as (job, direction, figure), through the store's own reader.
fn figure_keys(store: &str, id: i64) -> Vec<(String, String, String)> {
    let mut s = iomark_store::open(&iomark_store::Location::parse(store)).expect("the store");
    s.figures(id)
        .expect("the run's figures")
        .into_iter()
        .map(|f| (f.job, f.direction, f.figure))
        .collect()
}

fn launches_at_once(d: &Scratch, store: &str) {
    let said = std::sync::Mutex::new(String::new());
    std::thread::scope(|sc| {
        for l in 0..LAUNCHES {
            let (d, said) = (&d, &said);
            sc.spawn(move || {
                for n in 0..RUNS {
                    let o = mpirun(RANKS, &[], &d.path)
                        .args(job(&format!("l{l}r{n}")))
                        .env("IOMARK_STORE", store)
                        .bounded_output()
                        .expect("mpirun must be installed (scripts/test installs openmpi-bin)");
                    let err = String::from_utf8_lossy(&o.stderr).into_owned();
                    said.lock().unwrap().push_str(&err);
                    assert!(o.status.success(), "launch {l} run {n}: {err}");
                }
            });
        }
    });
    let said = said.into_inner().unwrap();
    assert!(
        !said.contains("warning") && !said.contains("locked"),
        "{said}"
    );
    // Every run once: rank 0 records the merged run, the other ranks record nothing.
    let h = history(store, &d.path);
    assert_eq!(h.len(), LAUNCHES * RUNS, "{h:?}");
    let tags: BTreeSet<String> = h
        .iter()
        .map(|r| r["tags"][0].as_str().unwrap().to_string())
        .collect();
    let want: BTreeSet<String> = (0..LAUNCHES)
        .flat_map(|l| (0..RUNS).map(move |n| format!("l{l}r{n}")))
        .collect();
    assert_eq!(tags, want);
    // Each with its ranks and all its figures: the same figures for every run, none twice.
    let mut first: Option<Vec<(String, String, String)>> = None;
    for r in &h {
        let id = r["id"].as_i64().unwrap();
        let at = format!("@{id}");
        let shown = ok(&with_store(
            store,
            &["show", at.as_str(), "--json"],
            &d.path,
        ));
        let doc: Value = serde_json::from_str(&shown).unwrap();
        assert_eq!(doc["ranks"].as_array().map(Vec::len), Some(RANKS), "@{id}");
        let ios: u64 = doc["ranks"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|k| k["result"]["jobs"].as_array().unwrap())
            .map(|j| j["dirs"]["read"]["total_ios"].as_u64().unwrap())
            .sum();
        assert_eq!(ios, RANKS as u64 * IOS, "@{id}");
        assert_eq!(
            doc["jobs"][0]["dirs"]["read"]["total_ios"].as_u64(),
            Some(RANKS as u64 * IOS),
            "@{id}: the merged job"
        );
        let keys = figure_keys(store, id);
        // The job's own figures once each (the per-rank table's rows are all named after
        // the job, so its figures repeat under one key per rank).
        let own: Vec<_> = keys.iter().filter(|(j, _, _)| j == "m").collect();
        let once: BTreeSet<_> = own.iter().collect();
        assert_eq!(
            once.len(),
            own.len(),
            "@{id}: a figure recorded twice: {keys:?}"
        );
        assert!(
            own.iter().any(|(_, dir, _)| dir == "read"),
            "@{id}: {keys:?}"
        );
        match &first {
            None => first = Some(keys),
            Some(f) => assert_eq!(f, &keys, "@{id}"),
        }
    }
}

#[test]
fn launches_of_four_ranks_at_once_record_every_run_once_in_sqlite() {
    let d = Scratch::new_in("/dev/shm", "mpi-store");
    let store = d.s("results.db");
    launches_at_once(&d, &store);
}

#[test]
fn launches_of_four_ranks_at_once_record_every_run_once_in_postgres() {
    let db = Db::new();
    let d = Scratch::new_in("/dev/shm", "mpi-store-pg");
    launches_at_once(&d, &db.url);
}
