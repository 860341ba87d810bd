//! Passes on tmpfs and on the real file system: bytes, operations and calls of each shape;
//! groups with and without stonewalling.

use super::group::{run_group, GroupOptions};
use super::*;
use crate::test_support::temp_dirs;

/// A forward write that creates the file and times its fsync and close.
fn timed_write(path: &std::path::Path) -> PassSpec {
    PassSpec {
        create: true,
        fsync_timed: true,
        close_timed: true,
        ..spec(
            path.to_path_buf(),
            PassOp::Write,
            Order::Forward,
            Calls::Plain,
        )
    }
}

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
        verify: false,
        prelude: Default::default(),
    }
}

/// Child `i`'s pass of a group: a new file `c{i}` in `d`, written forwards.
fn child_writer(d: &crate::test_support::TempDir, i: usize) -> PassSpec {
    PassSpec {
        create: true,
        ..spec(
            d.join(format!("c{i}")),
            PassOp::Write,
            Order::Forward,
            Calls::Plain,
        )
    }
}

#[test]
fn write_then_every_shape_reads_it_back() {
    let stop = AtomicBool::new(false);
    for d in temp_dirs("pass") {
        let p = d.join("f");
        let w = timed_write(&p);
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
        // Its histogram, allocated before the timing, is left as one never written to.
        assert!(r.lat.hist.is_empty() && r.lat.hist.counts().is_empty());
    }
}

/// Whatever precedes the clock, a pass reads and verifies what was written, and a pass
/// without latency keeps an empty histogram.
#[test]
fn every_prelude_reads_what_was_written() {
    let stop = AtomicBool::new(false);
    for d in temp_dirs("prelude") {
        let p = d.join("f");
        let w = PassSpec {
            create: true,
            verify: true,
            ..spec(p.clone(), PassOp::Write, Order::Forward, Calls::Plain)
        };
        run_pass(&w, &stop).unwrap();
        for prelude in [Prelude::SyncAndPrime, Prelude::Sync, Prelude::Nothing] {
            for order in [Order::Forward, Order::Shuffled { seed: 0 }] {
                let r = run_pass(
                    &PassSpec {
                        verify: true,
                        prelude,
                        latency: false,
                        ..spec(p.clone(), PassOp::Read, order, Calls::Plain)
                    },
                    &stop,
                )
                .unwrap();
                assert_eq!((r.bytes, r.calls.reads), (64 * 4096, 64), "{prelude:?}");
                assert_eq!(r.lat.hist.count(), 0, "{prelude:?}");
            }
        }
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
                    file_records: n,
                    ops: n,
                    latency: false,
                    ..child_writer(&d, i)
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
        for (i, (r, s)) in rs
            .iter()
            .zip(&specs)
            .enumerate()
            .filter(|(_, (r, _))| r.cut)
        {
            let whole = s.file_records * s.record;
            assert!(r.bytes < whole, "{i}: {}", r.bytes);
            let len = std::fs::metadata(d.join(format!("c{i}"))).unwrap().len();
            assert_eq!(len, whole, "{i}");
        }
        // Released together: no child starts before the last one is ready.
        let first_start = rs.iter().map(|r| r.start_ns).min().unwrap();
        let last_ready = rs.iter().map(|r| r.ready_ns).max().unwrap();
        assert!(rs.iter().all(|r| r.ready_ns > 0));
        assert!(
            first_start >= last_ready,
            "a child started {} ns before the last was ready",
            last_ready - first_start
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

/// The end of a pass's records is signalled (where a group raises its stonewall) after the
/// last record and before the fsync and close, even when those are timed: iozone's children
/// raise theirs there.
#[test]
fn end_of_records_comes_before_fsync_and_close() {
    let stop = AtomicBool::new(false);
    for d in temp_dirs("pass-end") {
        let p = d.join("f");
        let w = timed_write(&p);
        let seen = std::sync::Mutex::new(None);
        let at_end = || {
            let open = std::fs::read_dir("/proc/thread-self/fd")
                .unwrap()
                .flatten()
                .any(|e| std::fs::read_link(e.path()).is_ok_and(|l| l == p));
            let len = std::fs::metadata(&p).unwrap().len();
            *seen.lock().unwrap() = Some((open, len));
        };
        let r = prepare(&w)
            .unwrap()
            .run(PassStops {
                stop: &stop,
                wall: None,
                at_end: Some(&at_end),
            })
            .unwrap();
        assert_eq!((r.ops, r.calls.syncs), (64, 1));
        assert_eq!(*seen.lock().unwrap(), Some((true, 64 * 4096)));
    }
}

#[test]
fn mapped_passes_store_and_load_through_the_mapping_and_verify() {
    let stop = AtomicBool::new(false);
    for d in temp_dirs("pass-map") {
        let p = d.join("f");
        let mapped = |sync| Calls::Mapped { sync, advice: None };
        let w = PassSpec {
            create: true,
            verify: true,
            ..spec(
                p.clone(),
                PassOp::Write,
                Order::Forward,
                mapped(MapSync::Sync),
            )
        };
        let r = run_pass(&w, &stop).unwrap();
        // No read or write calls move the records: one msync per record, one for the pass.
        assert_eq!((r.bytes, r.calls.writes, r.calls.reads), (64 * 4096, 0, 0));
        assert_eq!(r.calls.msyncs, 65, "{:?}", r.calls);
        assert!(r.cpu.minf > 0, "stores fault pages in: {:?}", r.cpu);
        assert_eq!(std::fs::metadata(&p).unwrap().len(), 64 * 4096);
        // Every reader kind reads back the writer's data.
        for calls in [
            Calls::Plain,
            Calls::Vectored { pieces: 1 },
            Calls::Stream { buffer: 8192 },
            Calls::Mapped {
                sync: MapSync::None,
                advice: Some(MapAdvice::Sequential),
            },
        ] {
            let rd = PassSpec {
                verify: true,
                ..spec(p.clone(), PassOp::Read, Order::Backward, calls)
            };
            let r = run_pass(&rd, &stop).unwrap();
            assert_eq!(r.bytes, 64 * 4096, "{calls:?}");
        }
        let r = run_pass(
            &PassSpec {
                verify: true,
                ..spec(
                    p.clone(),
                    PassOp::Read,
                    Order::Forward,
                    mapped(MapSync::None),
                )
            },
            &stop,
        )
        .unwrap();
        assert_eq!((r.calls.reads, r.calls.msyncs), (0, 0));
        // A changed byte fails the verifying reader at its record.
        let mut data = std::fs::read(&p).unwrap();
        data[5 * 4096 + 7] ^= 1;
        std::fs::write(&p, &data).unwrap();
        let e = run_pass(
            &PassSpec {
                verify: true,
                ..spec(p.clone(), PassOp::Read, Order::Forward, Calls::Plain)
            },
            &stop,
        )
        .unwrap_err();
        assert!(e.to_string().contains("offset 20480 differs"), "{e}");
        // Vectored writers store the same pattern per piece.
        let v = PassSpec {
            record: 4 * 4096,
            file_records: 16,
            ops: 16,
            verify: true,
            ..spec(
                p.clone(),
                PassOp::Write,
                Order::Forward,
                Calls::Vectored { pieces: 4 },
            )
        };
        run_pass(&v, &stop).unwrap();
        let rd = PassSpec {
            verify: true,
            ..spec(p.clone(), PassOp::Read, Order::Forward, Calls::Positional)
        };
        run_pass(&rd, &stop).unwrap();
        // Data written without stamps is not what a verifying reader expects.
        run_pass(
            &spec(p.clone(), PassOp::Write, Order::Forward, Calls::Plain),
            &stop,
        )
        .unwrap();
        assert!(run_pass(&rd, &stop).is_err());
    }
}

#[test]
fn group_binds_children_to_cpus_in_turn_and_measures_cpu() {
    let stop = AtomicBool::new(false);
    let d = crate::test_support::TempDir::new("pass-bind");
    let n = crate::sys::ncpus();
    let specs: Vec<PassSpec> = (0..2).map(|i| child_writer(&d, i)).collect();
    let g = run_group(
        &specs,
        GroupOptions {
            first_cpu: Some(1),
            ..Default::default()
        },
        &stop,
    );
    for (i, r) in g.children.iter().enumerate() {
        let r = r.as_ref().unwrap();
        assert_eq!(r.last_cpu as usize, (1 + i) % n, "child {i}");
        assert!(r.cpu_wall_ns >= r.timed_ns);
        assert!(
            r.cpu_ns > 0 && r.cpu_ns <= r.cpu_wall_ns + 10_000_000,
            "{r:?}"
        );
    }
}
