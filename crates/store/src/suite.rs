//! The tests every backend passes, written once: a backend gives fresh, empty stores and a
//! way to run SQL on one; [`store_suite!`] makes a test of each function for it.

use crate::{open, Figure, FigureKey, Filter, Location, NewRun, Reference, Store, StoreError};

/// A new, empty store; whatever keeps it alive (a directory, a database dropped after).
pub(crate) struct Fresh {
    pub loc: Location,
    pub _keep: Box<dyn std::any::Any + Send>,
}

/// What the suite needs of a backend beyond the [`Store`] trait.
pub(crate) trait Backend: Sync {
    fn fresh(&self) -> Fresh;
    /// Migrates the store at `loc`, which no one has opened yet, to version `v` only.
    fn migrate_to(&self, loc: &Location, v: i64);
    /// Runs `sql` on the store at `loc`.
    fn execute(&self, loc: &Location, sql: &str);
    /// How many rows `table` holds.
    fn rows(&self, loc: &Location, table: &str) -> i64;
    /// The version this build writes.
    fn version(&self) -> i64;
}

/// Makes a test of each suite function for the backend `$b`.
macro_rules! store_suite {
    ($b:expr; $($name:ident),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                crate::suite::$name(&$b);
            }
        )*
    };
}
pub(crate) use store_suite;

/// The whole suite for `$b`.
macro_rules! all_store_tests {
    ($b:expr) => {
        crate::suite::store_suite!($b;
            a_run_comes_back_whole, references_name_runs, filters_select_runs,
            prune_keeps_the_last_or_the_recent, every_earlier_version_migrates,
            a_newer_store_is_refused, concurrent_writers_lose_nothing,
            concurrent_creators_lose_nothing, a_figure_across_runs,
            repetitions_are_one_run_with_their_spread);
    };
}
pub(crate) use all_store_tests;

pub(crate) fn fig(job: &str, dir: &str, figure: &str, value: f64) -> Figure {
    Figure {
        job: job.into(),
        direction: dir.into(),
        figure: figure.into(),
        value,
        unit: "IOPS".into(),
    }
}

pub(crate) fn add(s: &mut dyn Store, time_ms: i64, host: &str, tags: &[&str], target: &str) -> i64 {
    let tags: Vec<String> = tags.iter().map(|t| t.to_string()).collect();
    let doc = format!("{{\"format\":\"iomark-result/1\",\"t\":{time_ms}}}");
    s.record(&NewRun {
        time_ms,
        host,
        front_end: "run",
        command_line: "iomark run --name=a",
        tags: &tags,
        targets: &[target.to_string()],
        interrupted: false,
        iomark_version: "0.1.0",
        format: "iomark-result/1",
        document: doc.as_bytes(),
        figures: &[fig("a", "read", "iops", 1000.0 + time_ms as f64)],
    })
    .unwrap()
}

fn opened(f: &Fresh) -> Box<dyn Store> {
    open(&f.loc).unwrap()
}

pub(crate) fn a_run_comes_back_whole(b: &dyn Backend) {
    let f = b.fresh();
    let mut s = opened(&f);
    let big = "{\"x\":\"".to_string() + &"abc".repeat(10_000) + "\"}";
    let figs = [fig("a", "read", "iops", 5.0), fig("a", "write", "p99", 7.5)];
    let tags = ["nightly".to_string(), "ssd".to_string()];
    let id = s
        .record(&NewRun {
            time_ms: 1_700_000_000_000,
            host: "h1",
            front_end: "quick",
            command_line: "iomark quick /tmp",
            tags: &tags,
            targets: &["/tmp/f".into(), "/tmp/e".into()],
            interrupted: true,
            iomark_version: "0.1.0",
            format: "iomark-result/1",
            document: big.as_bytes(),
            figures: &figs,
        })
        .unwrap();
    drop(s);
    let mut s = opened(&f);
    assert_eq!(s.document(id).unwrap(), big.as_bytes());
    assert_eq!(s.figures(id).unwrap(), figs);
    let r = s.run(id).unwrap();
    assert_eq!(r.tags, tags);
    assert_eq!(r.targets, ["/tmp/f", "/tmp/e"]);
    assert!(r.interrupted);
    assert_eq!(r.time_ms, 1_700_000_000_000);
    assert_eq!(r.document_bytes, big.len() as i64);
    assert!(r.stored_bytes < r.document_bytes / 10, "{r:?}");
    assert!(matches!(s.run(id + 1), Err(StoreError::NoSuchRun(_))));
    assert!(matches!(s.document(id + 1), Err(StoreError::NoSuchRun(_))));
}

pub(crate) fn references_name_runs(b: &dyn Backend) {
    let f = b.fresh();
    let mut s = opened(&f);
    assert!(matches!(
        s.resolve(Reference::Last(0)),
        Err(StoreError::NoSuchRun(t)) if t == "@last"
    ));
    let ids: Vec<i64> = (0..3)
        .map(|i| add(&mut *s, i, "h", if i < 2 { &["base"] } else { &[] }, "/x"))
        .collect();
    let mut r = |t: &str| s.resolve(Reference::parse(t).unwrap().unwrap()).unwrap();
    assert_eq!(r("@last"), ids[2]);
    assert_eq!(r("@last~1"), ids[1]);
    assert_eq!(r(&format!("@{}", ids[0])), ids[0]);
    assert_eq!(r("@tag:base"), ids[1]);
    assert!(s.resolve(Reference::Last(3)).is_err());
    assert!(matches!(
        s.resolve(Reference::Tag("none".into())),
        Err(StoreError::NoSuchRun(t)) if t == "@tag:none"
    ));
    assert!(matches!(
        s.resolve(Reference::Id(ids[2] + 1)),
        Err(StoreError::NoSuchRun(_))
    ));
    assert!(Reference::parse("file.json").is_none());
    for bad in ["@", "@lats", "@last~x", "@-x", "@tag:"] {
        assert!(Reference::parse(bad).unwrap().is_err(), "{bad}");
    }
}

pub(crate) fn filters_select_runs(b: &dyn Backend) {
    let f = b.fresh();
    let mut s = opened(&f);
    add(&mut *s, 100, "a", &["nightly"], "/dev/vdb");
    add(&mut *s, 200, "b", &["nightly", "x"], "/data/f");
    add(&mut *s, 300, "a", &[], "/data/g");
    let mut times =
        |f: Filter| -> Vec<i64> { s.history(&f).unwrap().iter().map(|r| r.time_ms).collect() };
    assert_eq!(times(Filter::default()), [100, 200, 300]);
    let host = |h: &str| Filter {
        host: Some(h.into()),
        ..Filter::default()
    };
    assert_eq!(times(host("a")), [100, 300]);
    let tag = Filter {
        tag: Some("nightly".into()),
        ..Filter::default()
    };
    assert_eq!(times(tag.clone()), [100, 200]);
    assert_eq!(
        times(Filter {
            host: Some("b".into()),
            ..tag
        }),
        [200]
    );
    let target = Filter {
        target: Some("/data".into()),
        since_ms: Some(250),
        ..Filter::default()
    };
    assert_eq!(times(target), [300]);
    let before = Filter {
        before_ms: Some(200),
        ..Filter::default()
    };
    assert_eq!(times(before), [100]);
    let fe = Filter {
        front_end: Some("dd".into()),
        ..Filter::default()
    };
    assert!(times(fe).is_empty());
}

pub(crate) fn prune_keeps_the_last_or_the_recent(b: &dyn Backend) {
    let f = b.fresh();
    let mut s = opened(&f);
    let ids: Vec<i64> = (0..5)
        .map(|i| add(&mut *s, i * 10, "h", &["t"], "/x"))
        .collect();
    assert_eq!(s.prune_before(20).unwrap(), 2);
    assert_eq!(s.prune_keep(2).unwrap(), 1);
    let left: Vec<i64> = s
        .history(&Filter::default())
        .unwrap()
        .iter()
        .map(|r| r.id)
        .collect();
    assert_eq!(left, ids[3..]);
    // Their documents, tags, targets and figures went with them.
    for table in ["documents", "figures", "tags", "targets"] {
        assert_eq!(b.rows(&f.loc, table), 2, "{table}");
    }
}

/// A store left at every earlier schema version opens, migrates and records.
pub(crate) fn every_earlier_version_migrates(b: &dyn Backend) {
    for from in 0..b.version() {
        let f = b.fresh();
        b.migrate_to(&f.loc, from);
        let mut s = opened(&f);
        assert_eq!(s.schema_version().unwrap(), b.version(), "from {from}");
        add(&mut *s, 1, "h", &["t"], "/x");
        assert_eq!(s.count().unwrap(), 1);
    }
}

pub(crate) fn a_newer_store_is_refused(b: &dyn Backend) {
    let f = b.fresh();
    drop(opened(&f));
    let newer = b.version() + 1;
    b.execute(
        &f.loc,
        &format!("UPDATE schema_version SET version = {newer}"),
    );
    match open(&f.loc) {
        Err(e @ StoreError::Newer { .. }) => {
            assert!(e.to_string().contains("newer iomark"), "{e}")
        }
        Err(e) => panic!("{e}"),
        Ok(_) => panic!("a newer store opened"),
    }
}

/// Writers in several threads, each with its own connection (as processes have), lose nothing.
pub(crate) fn concurrent_writers_lose_nothing(b: &dyn Backend) {
    let f = b.fresh();
    drop(opened(&f));
    std::thread::scope(|sc| {
        for t in 0..4 {
            let loc = &f.loc;
            sc.spawn(move || {
                let mut s = open(loc).unwrap();
                for i in 0..25 {
                    add(&mut *s, t * 100 + i, &format!("h{t}"), &["c"], "/x");
                }
            });
        }
    });
    let mut s = opened(&f);
    assert_eq!(s.count().unwrap(), 100);
    let c = Filter {
        tag: Some("c".into()),
        ..Filter::default()
    };
    assert_eq!(s.history(&c).unwrap().len(), 100);
}

/// Writers that open a store no one has created yet, all at once, lose nothing (and create
/// its tables once).
pub(crate) fn concurrent_creators_lose_nothing(b: &dyn Backend) {
    for _ in 0..5 {
        let f = b.fresh();
        std::thread::scope(|sc| {
            for t in 0..6 {
                let loc = &f.loc;
                sc.spawn(move || {
                    for i in 0..3 {
                        let mut s = open(loc).unwrap();
                        add(&mut *s, t * 10 + i, "h", &[], "/x");
                    }
                });
            }
        });
        assert_eq!(opened(&f).count().unwrap(), 18);
        assert_eq!(b.rows(&f.loc, "schema_version"), 1);
    }
}

pub(crate) fn a_figure_across_runs(b: &dyn Backend) {
    let f = b.fresh();
    let mut s = opened(&f);
    let a = add(&mut *s, 3, "h", &["nightly"], "/dev/sdb");
    let _other = add(&mut *s, 2, "h", &[], "/dev/sdb");
    // Recorded later, started earlier (an import): it comes first.
    let c = add(&mut *s, 1, "h", &["nightly"], "/dev/sdb");
    let key = FigureKey::parse("a.read.iops").unwrap();
    let nightly = Filter {
        tag: Some("nightly".into()),
        ..Filter::default()
    };
    let pts = s.series(&nightly, &key).unwrap();
    let ids: Vec<i64> = pts.iter().map(|p| p.run.id).collect();
    assert_eq!(ids, [c, a]);
    assert_eq!(pts[0].values, [1001.0]);
    assert_eq!(pts[0].unit, "IOPS");
    let none = FigureKey::parse("zz.read.iops").unwrap();
    assert!(s.series(&nightly, &none).unwrap().is_empty());
}

/// A run of repetitions is one run whose figure has a value per repetition, in their order.
pub(crate) fn repetitions_are_one_run_with_their_spread(b: &dyn Backend) {
    let f = b.fresh();
    let mut s = opened(&f);
    let reps = [
        fig("a", "read", "iops", 9.0),
        fig("a", "read", "iops", 7.0),
        fig("a", "read", "iops", 8.0),
    ];
    let id = s
        .record(&NewRun {
            time_ms: 5,
            host: "h",
            front_end: "run",
            command_line: "iomark run --repeat=3",
            format: "iomark-repeat/1",
            document: b"{}",
            figures: &reps,
            ..NewRun::default()
        })
        .unwrap();
    let pts = s
        .series(
            &Filter::default(),
            &FigureKey::parse("a.read.iops").unwrap(),
        )
        .unwrap();
    assert_eq!(pts.len(), 1);
    assert_eq!(pts[0].run.id, id);
    assert_eq!(pts[0].values, [9.0, 7.0, 8.0]);
    assert_eq!(s.figures(id).unwrap(), reps);
}
