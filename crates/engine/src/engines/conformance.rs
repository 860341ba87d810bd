//! The checks every data engine passes, run by one macro over every engine (and the option
//! variants that change how an engine issues I/O): read, write, randread, randwrite and randrw
//! on the default temp dir (a real file system) and on tmpfs, checking byte counts, offsets (the
//! file's contents, read without the engine) and errors.

use super::testutil::*;
use super::{create, Completion, Engine, EngineKind, EngineOptions, IoUnit, Op, Queued};
use crate::engines::Capabilities;
use std::fs::OpenOptions;
use std::os::unix::fs::FileExt;
use std::time::{Duration, Instant};

/// Blocks per test file (1 MiB).
const BLOCKS: u64 = 256;
/// I/Os in flight (and buffers).
const QD: usize = 8;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pattern {
    Read,
    Write,
    RandRead,
    RandWrite,
    RandRw,
}

fn engine(
    kind: EngineKind,
    opts: &EngineOptions,
    files: &[super::EngineFile],
    bufs: &Buffers,
    direct: bool,
) -> Box<dyn Engine> {
    match create(kind, &setup(files, &bufs.bufs, opts, direct)) {
        Ok(e) => e,
        Err(e) => panic!("{}: {e}", kind.name()),
    }
}

/// Name and sync-ness are the declared ones.
fn check_identity(kind: EngineKind, opts: &EngineOptions) {
    let bufs = Buffers::new(QD, BS);
    let eng = engine(kind, opts, &[], &bufs, false);
    assert_eq!(eng.name(), kind.name());
    if !kind.is_diskless() {
        assert_eq!(eng.is_sync(), kind.is_sync(), "{kind:?}");
    }
}

/// Runs `pattern` over a fresh file on every base and checks every result and the file.
fn check_pattern(kind: EngineKind, opts: &EngineOptions, pattern: Pattern) {
    for base in bases() {
        let dir = TempDir::new_in(&base, "conf");
        let seed = 0xC0F0 + pattern as u64;
        let (_f, ef, direct) = open_file(dir.path(), "data", BLOCKS * BS as u64);
        let path = ef.path.clone();
        let order = match pattern {
            Pattern::Read | Pattern::Write => (0..BLOCKS).collect(),
            _ => shuffled(BLOCKS, seed),
        };
        let ops: Vec<(Op, u64)> = order
            .into_iter()
            .map(|b| {
                let op = match pattern {
                    Pattern::Read | Pattern::RandRead => Op::Read,
                    Pattern::Write | Pattern::RandWrite => Op::Write,
                    Pattern::RandRw => [Op::Read, Op::Write][(b.wrapping_mul(7) >> 1) as usize % 2],
                };
                (op, b)
            })
            .collect();
        // The blocks to be read hold the pattern beforehand, written without the engine.
        let pre = OpenOptions::new().write(true).open(&path).unwrap();
        let mut block = vec![0u8; BS];
        for &(op, b) in &ops {
            if op == Op::Read {
                fill_block(&mut block, seed, b);
                pre.write_all_at(&block, b * BS as u64).unwrap();
            }
        }
        pre.sync_all().unwrap();
        drop(pre);
        let bufs = Buffers::new(QD, BS);
        let diskless = kind.is_diskless();
        let files = if diskless { vec![] } else { vec![ef] };
        let mut eng = engine(kind, opts, &files, &bufs, direct);
        let polls: &[bool] = if pattern == Pattern::RandRw {
            &[false, true]
        } else {
            &[false]
        };
        for &poll in polls {
            let n = drive_checked(eng.as_mut(), &bufs, QD, &ops, seed, poll, !diskless);
            assert_eq!(n, ops.len(), "{kind:?} {pattern:?}: completions");
        }
        drop(eng);
        // Every block is where its offset says: read blocks kept the pattern, written blocks
        // carry it now.
        let data = std::fs::read(&path).unwrap();
        assert_eq!(
            data.len() as u64,
            BLOCKS * BS as u64,
            "{kind:?} {pattern:?}: size"
        );
        if diskless {
            continue;
        }
        for &(_, b) in &ops {
            fill_block(&mut block, seed, b);
            let at = (b as usize) * BS;
            assert!(
                data[at..at + BS] == block[..],
                "{kind:?} {pattern:?} on {}: block {b}",
                base.display()
            );
        }
    }
}

fn unit_at(slot: u32, op: Op, offset: u64, len: usize, bufs: &Buffers) -> IoUnit {
    IoUnit {
        slot,
        file: 0,
        op,
        offset,
        len,
        buf: bufs.bufs[slot as usize].ptr,
        prio: None,
    }
}

/// A read at the end of the file moves nothing (the mmap engine refuses it: its mapping ends
/// there).
fn check_eof(kind: EngineKind, opts: &EngineOptions) {
    if kind.is_diskless() {
        return;
    }
    for base in bases() {
        let dir = TempDir::new_in(&base, "conf-eof");
        let (_f, ef, direct) = open_file(dir.path(), "f", 8 * BS as u64);
        let files = [ef];
        let bufs = Buffers::new(2, BS);
        let mut eng = engine(kind, opts, &files, &bufs, direct);
        let c = single(eng.as_mut(), unit_at(1, Op::Read, 8 * BS as u64, BS, &bufs));
        let want = if kind == EngineKind::Mmap {
            -(libc::EINVAL as i64)
        } else {
            0
        };
        assert_eq!(
            c,
            Completion {
                slot: 1,
                result: want
            },
            "{kind:?}"
        );
    }
}

/// I/O on a descriptor that is not open completes with EBADF.
fn check_bad_descriptor(kind: EngineKind, opts: &EngineOptions) {
    if kind.is_diskless() {
        return;
    }
    let bufs = Buffers::new(4, BS);
    let files = [efile(
        999_999,
        std::path::Path::new("/nonexistent"),
        1 << 20,
        false,
    )];
    let mut eng = engine(kind, opts, &files, &bufs, false);
    let mut out = Vec::new();
    let mut pending = 0;
    for slot in 0..3u32 {
        let op = if slot == 1 { Op::Write } else { Op::Read };
        match eng.queue(&unit_at(slot, op, 0, BS, &bufs)) {
            Queued::Pending => pending += 1,
            Queued::Done(result) => out.push(Completion { slot, result }),
        }
    }
    assert_eq!(eng.commit().unwrap(), pending);
    assert_eq!(eng.getevents(pending, 4, &mut out).unwrap(), pending);
    out.sort_by_key(|c| c.slot);
    assert_eq!(out.len(), 3);
    for (i, c) in out.iter().enumerate() {
        assert_eq!(c.slot, i as u32);
        assert_eq!(c.result, -(libc::EBADF as i64), "{kind:?}");
    }
    assert_eq!(eng.getevents(0, 4, &mut out).unwrap(), 0);
}

/// fsync, fdatasync and trim complete inside `queue`; a trimmed range reads back as zeros.
fn check_sync_ops_and_trim(kind: EngineKind, opts: &EngineOptions) {
    if kind.is_diskless() {
        return;
    }
    for base in bases() {
        let dir = TempDir::new_in(&base, "conf-sync");
        let (_f, ef, direct) = open_file(dir.path(), "f", 16 * BS as u64);
        let files = [ef];
        let bufs = Buffers::new(4, BS);
        let mut eng = engine(kind, opts, &files, &bufs, direct);
        let ops: Vec<(Op, u64)> = (0..16).map(|b| (Op::Write, b)).collect();
        drive(eng.as_mut(), &bufs, 4, &ops, 5, false);
        let mk = |op, offset, len| unit_at(0, op, offset, len, &bufs);
        assert_eq!(eng.queue(&mk(Op::Fsync, 0, 0)), Queued::Done(0));
        assert_eq!(eng.queue(&mk(Op::Fdatasync, 0, 0)), Queued::Done(0));
        let t = mk(Op::Trim, 4 * BS as u64, 2 * BS);
        assert_eq!(eng.queue(&t), Queued::Done(2 * BS as i64));
        let c = single(eng.as_mut(), mk(Op::Read, 4 * BS as u64, BS));
        assert_eq!(c.result, BS as i64);
        assert!(bufs.slice(0)[..BS].iter().all(|&b| b == 0));
        let c = single(eng.as_mut(), mk(Op::Read, 6 * BS as u64, BS));
        assert_eq!(c.result, BS as i64);
        let mut expect = vec![0u8; BS];
        fill_block(&mut expect, 5, 6);
        assert!(bufs.slice(0)[..BS] == expect[..]);
    }
}

/// A non-blocking reap with nothing in flight returns at once, and an empty commit submits
/// nothing.
fn check_idle_poll(kind: EngineKind, opts: &EngineOptions) {
    let dir = TempDir::new("conf-poll");
    let (_f, ef, direct) = open_file(dir.path(), "f", 64 * 1024);
    let files = if kind.is_diskless() { vec![] } else { vec![ef] };
    let bufs = Buffers::new(4, BS);
    let mut eng = engine(kind, opts, &files, &bufs, direct);
    let mut out = Vec::new();
    let t = Instant::now();
    for _ in 0..100 {
        assert_eq!(eng.getevents(0, 4, &mut out).unwrap(), 0);
    }
    assert!(out.is_empty());
    assert!(t.elapsed() < Duration::from_secs(2));
    assert_eq!(eng.commit().unwrap(), 0);
}

/// The same checks for every engine (and engine option variant) listed.
macro_rules! conformance {
    ($($name:ident: $kind:expr, $opts:expr;)*) => {$(
        mod $name {
            use super::*;

            fn opts() -> EngineOptions {
                $opts
            }
            #[test]
            fn identity() {
                check_identity($kind, &opts());
            }
            #[test]
            fn read() {
                check_pattern($kind, &opts(), Pattern::Read);
            }
            #[test]
            fn write() {
                check_pattern($kind, &opts(), Pattern::Write);
            }
            #[test]
            fn randread() {
                check_pattern($kind, &opts(), Pattern::RandRead);
            }
            #[test]
            fn randwrite() {
                check_pattern($kind, &opts(), Pattern::RandWrite);
            }
            #[test]
            fn randrw() {
                check_pattern($kind, &opts(), Pattern::RandRw);
            }
            #[test]
            fn read_past_eof() {
                check_eof($kind, &opts());
            }
            #[test]
            fn bad_descriptor_is_ebadf() {
                check_bad_descriptor($kind, &opts());
            }
            #[test]
            fn sync_ops_and_trim_complete_in_queue() {
                check_sync_ops_and_trim($kind, &opts());
            }
            #[test]
            fn idle_poll_does_not_block() {
                check_idle_poll($kind, &opts());
            }
        }
    )*};
}

fn defaults() -> EngineOptions {
    EngineOptions::default()
}

conformance! {
    sync: EngineKind::Sync, defaults();
    psync: EngineKind::Psync, defaults();
    vsync: EngineKind::Vsync, defaults();
    pvsync: EngineKind::Pvsync, defaults();
    pvsync2: EngineKind::Pvsync2, defaults();
    libaio: EngineKind::Libaio, defaults();
    libaio_userspace_reap: EngineKind::Libaio, EngineOptions { userspace_reap: true, ..defaults() };
    io_uring: EngineKind::IoUring, EngineOptions { nonvectored: true, ..defaults() };
    io_uring_vectored: EngineKind::IoUring, defaults();
    io_uring_sqpoll: EngineKind::IoUring, EngineOptions { nonvectored: true, sqthread_poll: true, ..defaults() };
    io_uring_registered: EngineKind::IoUring, EngineOptions { nonvectored: true, fixedbufs: true, registerfiles: true, ..defaults() };
    posixaio: EngineKind::PosixAio, defaults();
    mmap: EngineKind::Mmap, defaults();
    null: EngineKind::Null, defaults();
}

/// A request's own priority reaches the kernel: a valid one is taken, a priority of an unknown
/// class (7) is refused with EINVAL by the kernel, for every way each engine issues I/O.
#[test]
fn request_priorities_reach_the_kernel() {
    let variants = [
        (EngineKind::Libaio, defaults()),
        (EngineKind::IoUring, defaults()),
        (
            EngineKind::IoUring,
            EngineOptions {
                nonvectored: true,
                ..defaults()
            },
        ),
        (
            EngineKind::IoUring,
            EngineOptions {
                nonvectored: true,
                fixedbufs: true,
                ..defaults()
            },
        ),
    ];
    let dir = TempDir::new("conf-prio");
    let (_f, ef, direct) = open_file(dir.path(), "f", 8 * BS as u64);
    let files = [ef];
    for (kind, opts) in variants {
        let bufs = Buffers::new(4, BS);
        let mut eng = engine(kind, &opts, &files, &bufs, direct);
        // Best-effort level 3 (any thread may ask for it), the class of no priority (7).
        let prios = [
            None,
            Some((2u16 << 13) | 3),
            Some(7u16 << 13),
            Some((2u16 << 13) | 7),
        ];
        let mut out = Vec::new();
        for (slot, prio) in prios.iter().enumerate() {
            let mut io = unit_at(slot as u32, Op::Read, 0, BS, &bufs);
            io.prio = *prio;
            match eng.queue(&io) {
                Queued::Pending => {}
                Queued::Done(result) => out.push(Completion {
                    slot: slot as u32,
                    result,
                }),
            }
            eng.commit().unwrap();
            while out.len() <= slot {
                eng.getevents(1, 4, &mut out).unwrap();
            }
        }
        out.sort_by_key(|c| c.slot);
        let results: Vec<i64> = out.iter().map(|c| c.result).collect();
        let bs = BS as i64;
        assert_eq!(
            results,
            [bs, bs, -(libc::EINVAL as i64), bs],
            "{kind:?} {opts:?}"
        );
    }
}

/// Every engine that moves data or emulates it is in the list above (metadata engines have
/// their own tests in meta.rs, the space engines, which move no data, in falloc.rs and
/// ftruncate.rs).
#[test]
fn every_data_engine_is_checked() {
    let listed = [
        EngineKind::Sync,
        EngineKind::Psync,
        EngineKind::Vsync,
        EngineKind::Pvsync,
        EngineKind::Pvsync2,
        EngineKind::Libaio,
        EngineKind::IoUring,
        EngineKind::PosixAio,
        EngineKind::Mmap,
        EngineKind::Null,
    ];
    // e4defrag needs ext4 and the network engines a peer: their own tests (net/tests.rs,
    // e4defrag.rs, and the end-to-end tests beside fio) check them.
    let space = [
        EngineKind::Falloc,
        EngineKind::Ftruncate,
        EngineKind::E4defrag,
        EngineKind::Net,
        EngineKind::Netsplice,
    ];
    for k in EngineKind::ALL {
        // The Ceph engines need a cluster and nbd a server: the end-to-end tests check them
        // against fio's.
        // cpuio moves nothing: its own tests check its burns.
        let own_tests = k.is_metadata() || space.contains(&k) || k.is_remote() || k.is_noio();
        assert_eq!(listed.contains(&k), !own_tests, "{k:?}");
    }
}
