use super::*;
use crate::schema::{migrate_to, version, MIGRATIONS, VERSION};

fn fig(job: &str, dir: &str, figure: &str, value: f64) -> Figure {
    Figure {
        job: job.into(),
        direction: dir.into(),
        figure: figure.into(),
        value,
        unit: "IOPS".into(),
    }
}

fn add(s: &mut Store, time_ms: i64, host: &str, tags: &[&str], target: &str) -> i64 {
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

fn temp() -> (tempfile::TempDir, std::path::PathBuf) {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("sub/results.db");
    (d, p)
}

#[test]
fn a_run_comes_back_whole() {
    let (_d, p) = temp();
    let mut s = Store::open(&p).unwrap();
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
            targets: &["/tmp/f".into()],
            interrupted: true,
            iomark_version: "0.1.0",
            format: "iomark-result/1",
            document: big.as_bytes(),
            figures: &figs,
        })
        .unwrap();
    drop(s);
    let s = Store::open(&p).unwrap();
    assert_eq!(s.document(id).unwrap(), big.as_bytes());
    assert_eq!(s.figures(id).unwrap(), figs);
    let r = s.run(id).unwrap();
    assert_eq!(r.tags, tags);
    assert_eq!(r.targets, ["/tmp/f"]);
    assert!(r.interrupted);
    assert_eq!(r.document_bytes, big.len() as i64);
    assert!(r.stored_bytes < r.document_bytes / 10, "{r:?}");
    assert!(matches!(s.run(id + 1), Err(StoreError::NoSuchRun(_))));
}

#[test]
fn references_name_runs() {
    let (_d, p) = temp();
    let mut s = Store::open(&p).unwrap();
    assert!(matches!(
        s.resolve(Reference::Last(0)),
        Err(StoreError::NoSuchRun(t)) if t == "@last"
    ));
    let ids: Vec<i64> = (0..3)
        .map(|i| add(&mut s, i, "h", if i < 2 { &["base"] } else { &[] }, "/x"))
        .collect();
    let r = |t: &str| s.resolve(Reference::parse(t).unwrap().unwrap()).unwrap();
    assert_eq!(r("@last"), ids[2]);
    assert_eq!(r("@last~1"), ids[1]);
    assert_eq!(r(&format!("@{}", ids[0])), ids[0]);
    assert!(s.resolve(Reference::Last(3)).is_err());
    assert_eq!(r("@tag:base"), ids[1]);
    assert!(matches!(
        s.resolve(Reference::Tag("none".into())),
        Err(StoreError::NoSuchRun(t)) if t == "@tag:none"
    ));
    assert!(Reference::parse("file.json").is_none());
    for bad in ["@", "@lats", "@last~x", "@-x", "@tag:"] {
        assert!(Reference::parse(bad).unwrap().is_err(), "{bad}");
    }
}

#[test]
fn filters_select_runs() {
    let (_d, p) = temp();
    let mut s = Store::open(&p).unwrap();
    add(&mut s, 100, "a", &["nightly"], "/dev/vdb");
    add(&mut s, 200, "b", &["nightly", "x"], "/data/f");
    add(&mut s, 300, "a", &[], "/data/g");
    let ids =
        |f: Filter| -> Vec<i64> { s.history(&f).unwrap().iter().map(|r| r.time_ms).collect() };
    assert_eq!(ids(Filter::default()), [100, 200, 300]);
    let host = |h: &str| Filter {
        host: Some(h.into()),
        ..Filter::default()
    };
    assert_eq!(ids(host("a")), [100, 300]);
    let tag = Filter {
        tag: Some("nightly".into()),
        ..Filter::default()
    };
    assert_eq!(ids(tag.clone()), [100, 200]);
    assert_eq!(
        ids(Filter {
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
    assert_eq!(ids(target), [300]);
    let fe = Filter {
        front_end: Some("dd".into()),
        ..Filter::default()
    };
    assert!(ids(fe).is_empty());
}

#[test]
fn prune_keeps_the_last_or_the_recent() {
    let (_d, p) = temp();
    let mut s = Store::open(&p).unwrap();
    let ids: Vec<i64> = (0..5)
        .map(|i| add(&mut s, i * 10, "h", &["t"], "/x"))
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
    // Their tags and figures went with them.
    let n: i64 = s
        .conn
        .query_row("SELECT count(*) FROM figures", [], |r| r.get(0))
        .unwrap();
    assert_eq!(n, 2);
    let n: i64 = s
        .conn
        .query_row("SELECT count(*) FROM tags", [], |r| r.get(0))
        .unwrap();
    assert_eq!(n, 2);
}

/// A store left at every earlier schema version opens, migrates and records.
#[test]
fn every_earlier_version_migrates() {
    for from in 0..VERSION {
        let (_d, p) = temp();
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        let mut c = rusqlite::Connection::open(&p).unwrap();
        migrate_to(&mut c, &p, from).unwrap();
        assert_eq!(version(&c).unwrap(), from);
        drop(c);
        let mut s = Store::open(&p).unwrap();
        assert_eq!(version(&s.conn).unwrap(), VERSION, "from {from}");
        add(&mut s, 1, "h", &["t"], "/x");
        assert_eq!(s.count().unwrap(), 1);
    }
    assert_eq!(VERSION as usize, MIGRATIONS.len());
}

#[test]
fn a_newer_store_is_refused() {
    let (_d, p) = temp();
    drop(Store::open(&p).unwrap());
    let c = rusqlite::Connection::open(&p).unwrap();
    c.execute("UPDATE schema_version SET version = ?1", [VERSION + 1])
        .unwrap();
    drop(c);
    assert!(matches!(Store::open(&p), Err(StoreError::Newer { .. })));
}

#[test]
fn a_file_that_is_not_a_store_is_an_error() {
    let (_d, p) = temp();
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(&p, vec![0x5a; 8192]).unwrap();
    let e = Store::open(&p).err().unwrap().to_string();
    assert!(e.contains("not a database"), "{e}");
}

/// Writers in several threads, each with its own connection (as processes have), lose nothing.
#[test]
fn concurrent_writers_lose_nothing() {
    let (_d, p) = temp();
    drop(Store::open(&p).unwrap());
    let threads: Vec<_> = (0..4)
        .map(|t| {
            let p = p.clone();
            std::thread::spawn(move || {
                let mut s = Store::open(&p).unwrap();
                for i in 0..25 {
                    add(&mut s, t * 100 + i, &format!("h{t}"), &["c"], "/x");
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    let s = Store::open(&p).unwrap();
    assert_eq!(s.count().unwrap(), 100);
}

/// Writers that open a store that does not exist yet, all at once, lose nothing.
#[test]
fn concurrent_creators_lose_nothing() {
    for _ in 0..10 {
        let (_d, p) = temp();
        let threads: Vec<_> = (0..6)
            .map(|t| {
                let p = p.clone();
                std::thread::spawn(move || {
                    for i in 0..3 {
                        let mut s = Store::open(&p).unwrap();
                        add(&mut s, t * 10 + i, "h", &[], "/x");
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        assert_eq!(Store::open(&p).unwrap().count().unwrap(), 18);
    }
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
    drop(Store::open(&p).unwrap());
    let t = std::time::Instant::now();
    for i in 0..10_000 {
        let mut s = Store::open(&p).unwrap();
        s.record(&NewRun {
            time_ms: i,
            host: "h",
            front_end: "quick",
            command_line: "iomark quick",
            tags: &["nightly".into()],
            targets: &["/tmp/x".into()],
            document: &doc,
            figures: &figs,
            ..NewRun::default()
        })
        .unwrap();
    }
    let per_run = t.elapsed().as_secs_f64() * 1000.0 / 10_000.0;
    let t = std::time::Instant::now();
    let s = Store::open(&p).unwrap();
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

#[test]
fn a_figure_across_runs() {
    let (_d, p) = temp();
    let mut s = Store::open(&p).unwrap();
    let a = add(&mut s, 1, "h", &["nightly"], "/dev/sdb");
    let _other = add(&mut s, 2, "h", &[], "/dev/sdb");
    let b = add(&mut s, 3, "h", &["nightly"], "/dev/sdb");
    let key = crate::FigureKey::parse("a.read.iops").unwrap();
    let f = Filter {
        tag: Some("nightly".into()),
        ..Filter::default()
    };
    let pts = s.series(&f, &key).unwrap();
    let ids: Vec<i64> = pts.iter().map(|p| p.run.id).collect();
    assert_eq!(ids, [a, b]);
    assert_eq!(pts[0].values.len(), 1);
    assert_eq!(pts[0].unit, "IOPS");
    let none = crate::FigureKey::parse("zz.read.iops").unwrap();
    assert!(s.series(&f, &none).unwrap().is_empty());
}
