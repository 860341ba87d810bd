//! Passes on tmpfs and on the real file system: bytes, operations and calls of each shape;
//! groups with and without stonewalling.

use super::group::{run_group, GroupOptions};
use super::*;
use crate::test_support::temp_dirs;

fn spec(path: PathBuf, op: PassOp, order: Order, calls: Calls) -> PassSpec {
    PassSpec {
        path,
        op,
        order,
        calls,
        record: 4096,
        file_records: 64,
        ops: 64,
        open: OpenFlags::default(),
        create: false,
        fsync_timed: false,
        close_timed: false,
        latency: true,
        seed: 1,
    }
}

#[test]
fn write_then_every_shape_reads_it_back() {
    let stop = AtomicBool::new(false);
    for d in temp_dirs("pass") {
        let p = d.join("f");
        let w = PassSpec {
            create: true,
            fsync_timed: true,
            close_timed: true,
            ..spec(p.clone(), PassOp::Write, Order::Forward, Calls::Plain)
        };
        let r = run_pass(&w, &stop).unwrap();
        assert_eq!(
            (r.bytes, r.ops, r.calls.writes, r.calls.seeks),
            (64 * 4096, 64, 64, 0)
        );
        assert_eq!(r.calls.syncs, 1);
        assert_eq!(r.lat.hist.count(), 64);
        assert!(r.timed_ns > 0 && !r.cut);
        assert_eq!(std::fs::metadata(&p).unwrap().len(), 64 * 4096);
        let cases = [
            (Order::Forward, Calls::Plain, 64, 0),
            (Order::Backward, Calls::Plain, 64, 64),
            (Order::Stride { stride: 17 }, Calls::Plain, 64, 63),
            (Order::Shuffled { seed: 0 }, Calls::Positional, 64, 0),
            (Order::Forward, Calls::Vectored { pieces: 4 }, 64, 0),
            (Order::Forward, Calls::Stream { buffer: 65536 }, 4, 0),
        ];
        for (order, calls, reads, seeks) in cases {
            let r = run_pass(&spec(p.clone(), PassOp::Read, order, calls), &stop).unwrap();
            assert_eq!(r.bytes, 64 * 4096, "{order:?} {calls:?}");
            assert_eq!(r.calls.reads, reads, "{order:?} {calls:?}");
            assert!(r.calls.seeks <= seeks, "{order:?} {calls:?} {:?}", r.calls);
        }
        // The hot record: 64 writes at offset 0, the file keeps its size.
        let r = run_pass(
            &spec(p.clone(), PassOp::Write, Order::SameRecord, Calls::Plain),
            &stop,
        )
        .unwrap();
        assert_eq!((r.calls.writes, r.calls.seeks), (64, 63));
        assert_eq!(std::fs::metadata(&p).unwrap().len(), 64 * 4096);
        // A stop flag that is set cuts the pass before its first record.
        let set = AtomicBool::new(true);
        let r = run_pass(
            &spec(p.clone(), PassOp::Read, Order::Forward, Calls::Plain),
            &set,
        )
        .unwrap();
        assert!(r.cut && r.ops == 0);
    }
}

#[test]
fn a_missing_file_names_itself() {
    let d = crate::test_support::TempDir::new("pass-missing");
    let p = d.join("nope");
    let stop = AtomicBool::new(false);
    let e = run_pass(&spec(p, PassOp::Read, Order::Forward, Calls::Plain), &stop).unwrap_err();
    assert!(e.to_string().contains("nope"), "{e}");
}

#[test]
fn group_released_together_and_stonewalled() {
    let stop = AtomicBool::new(false);
    for d in temp_dirs("pass-group") {
        // Three long children and one short one: with the stonewall the short one's end cuts
        // the others; without it all finish.
        let specs: Vec<PassSpec> = (0..4)
            .map(|i| {
                let n = if i == 0 { 16 } else { 4096 };
                PassSpec {
                    create: true,
                    file_records: n,
                    ops: n,
                    latency: false,
                    ..spec(
                        d.join(format!("c{i}")),
                        PassOp::Write,
                        Order::Forward,
                        Calls::Plain,
                    )
                }
            })
            .collect();
        let g = run_group(
            &specs,
            GroupOptions {
                stonewall: true,
                ..Default::default()
            },
            &stop,
        );
        let rs: Vec<PassResult> = g.children.into_iter().map(|r| r.unwrap()).collect();
        // The short child usually finishes first and cuts the others; on a busy machine a long
        // one may finish before it starts, and then it is the one cut. Either way the first to
        // finish is whole and someone is cut.
        let ops: Vec<u64> = rs.iter().map(|r| r.ops).collect();
        assert!(rs.iter().any(|r| r.cut), "{ops:?}");
        assert!(rs.iter().any(|r| !r.cut), "{ops:?}");
        for (r, s) in rs.iter().zip(&specs) {
            assert_eq!(r.cut, r.ops < s.ops, "{ops:?}");
        }
        // A cut writer counts what it did before the stonewall but completes its file.
        for (i, r) in rs.iter().enumerate().filter(|(_, r)| r.cut) {
            assert!(r.bytes < 4096 * 4096, "{i}: {}", r.bytes);
            let len = std::fs::metadata(d.join(format!("c{i}"))).unwrap().len();
            assert_eq!(len, 4096 * 4096);
        }
        let first = rs.iter().map(|r| r.start_ns).min().unwrap();
        let last = rs.iter().map(|r| r.start_ns).max().unwrap();
        assert!(
            last - first < 50_000_000,
            "starts spread over {} ns",
            last - first
        );
        assert!(g.wall_ns > 0);
        let g = run_group(&specs, GroupOptions::default(), &stop);
        for (r, s) in g.children.iter().zip(&specs) {
            let r = r.as_ref().unwrap();
            assert_eq!(r.ops, s.ops);
            assert!(!r.cut);
        }
    }
}
