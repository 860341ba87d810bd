use super::super::testutil::*;
use super::super::{Engine, EngineFile, EngineOptions, EngineSetup, IoUnit, Op, Queued};
use super::UringEngine;
use std::time::{Duration, Instant};

const BLOCKS: u64 = 512; // 2 MiB files

fn opts() -> EngineOptions {
    EngineOptions {
        nonvectored: true,
        ..Default::default()
    }
}

fn engine(files: &[EngineFile], bufs: &Buffers, opts: &EngineOptions) -> UringEngine {
    let setup = EngineSetup {
        depth: bufs.bufs.len() as u32,
        files,
        buffers: &bufs.bufs,
        options: opts,
        direct: true,
    };
    match UringEngine::new(&setup) {
        Ok(e) => e,
        Err(e) => panic!("io_uring setup: {e}"),
    }
}

fn data_test(o: &EngineOptions, poll: bool) {
    for base in bases() {
        let dir = TempDir::new_in(&base, "uring");
        let (_f, ef, _) = open_file(dir.path(), "data", BLOCKS * BS as u64);
        let files = [ef];
        let bufs = Buffers::new(32, BS);
        let mut eng = engine(&files, &bufs, o);
        assert!(!eng.is_sync());
        assert_eq!(eng.name(), "io_uring");
        if o.fixedbufs {
            // 128 KiB of buffers: registration only fails under a tiny memlock limit.
            // SAFETY: geteuid takes no arguments and cannot fail.
            let root = unsafe { libc::geteuid() } == 0;
            assert!(eng.fixed_buffers_active() || (!root && !eng.notes().is_empty()));
        } else if !o.nonvectored {
            // Registered buffers are used unasked only by plain (non-vectored) commands.
            assert!(!eng.fixed_buffers_active());
        }
        // Files are registered whether asked for or not.
        assert!(eng.fixed_files_active());
        write_then_verify(&mut eng, &bufs, BLOCKS, 8, 32, 21, poll);
        write_then_verify(&mut eng, &bufs, BLOCKS, 32, 32, 22, poll);
    }
}

#[test]
fn write_read_verify_default() {
    data_test(&opts(), false);
    data_test(&opts(), true);
}

#[test]
fn write_read_verify_vectored() {
    let o = EngineOptions {
        nonvectored: false,
        ..opts()
    };
    data_test(&o, false);
}

#[test]
fn write_read_verify_fixedbufs() {
    let o = EngineOptions {
        fixedbufs: true,
        ..opts()
    };
    data_test(&o, false);
}

#[test]
fn write_read_verify_registerfiles() {
    let o = EngineOptions {
        registerfiles: true,
        ..opts()
    };
    data_test(&o, false);
}

#[test]
fn write_read_verify_sqpoll() {
    let o = EngineOptions {
        sqthread_poll: true,
        ..opts()
    };
    data_test(&o, true);
    data_test(&o, false);
}

#[test]
fn write_read_verify_all_options() {
    let o = EngineOptions {
        sqthread_poll: true,
        sqthread_poll_cpu: Some(0),
        fixedbufs: true,
        registerfiles: true,
        ..opts()
    };
    data_test(&o, false);
}

#[test]
fn created_in_one_thread_used_in_another() {
    let dir = TempDir::new("uring-thr");
    let (_f, ef, _) = open_file(dir.path(), "data", 64 * BS as u64);
    let files = [ef];
    let bufs = Buffers::new(8, BS);
    let o = EngineOptions {
        fixedbufs: true,
        registerfiles: true,
        ..opts()
    };
    let eng = std::thread::scope(|s| s.spawn(|| engine(&files, &bufs, &o)).join().unwrap());
    let mut eng = eng;
    write_then_verify(&mut eng, &bufs, 64, 8, 8, 3, false);
    write_then_verify(&mut eng, &bufs, 64, 8, 8, 4, true);
}

/// Drops CAP_IPC_LOCK from the calling thread only (raw capset is per thread).
fn drop_ipc_lock_in_this_thread() -> bool {
    const CAP_IPC_LOCK: u32 = 14;
    #[repr(C)]
    struct Header {
        version: u32,
        pid: i32,
    }
    #[repr(C)]
    #[derive(Clone, Copy, Default)]
    struct Data {
        effective: u32,
        permitted: u32,
        inheritable: u32,
    }
    let mut h = Header {
        version: 0x2008_0522,
        pid: 0,
    };
    let mut d = [Data::default(); 2];
    // SAFETY: header and a two-element data array, as capability version 3 requires.
    unsafe {
        if libc::syscall(libc::SYS_capget, &mut h as *mut Header, d.as_mut_ptr()) != 0 {
            return false;
        }
        d[0].effective &= !(1 << CAP_IPC_LOCK);
        libc::syscall(libc::SYS_capset, &mut h as *mut Header, d.as_ptr()) == 0
    }
}

#[test]
fn fixedbufs_fall_back_with_note_when_memlock_is_too_small() {
    std::thread::spawn(|| {
        if !drop_ipc_lock_in_this_thread() {
            eprintln!("skipped: cannot drop CAP_IPC_LOCK");
            return;
        }
        let mut rl = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: `rl` is a stack value the kernel fills in.
        unsafe { libc::getrlimit(libc::RLIMIT_MEMLOCK, &mut rl) };
        const MIB: u64 = 1 << 20;
        if rl.rlim_cur == libc::RLIM_INFINITY || rl.rlim_cur > 12 * MIB {
            eprintln!("skipped: RLIMIT_MEMLOCK too large to exceed with 16 MiB");
            return;
        }
        let n = (rl.rlim_cur / MIB + 4) as usize;
        let dir = TempDir::new("uring-memlock");
        let (_f, ef, _) = open_file(dir.path(), "data", 64 * BS as u64);
        let files = [ef];
        let bufs = Buffers::new(n, MIB as usize);
        let o = EngineOptions {
            fixedbufs: true,
            ..opts()
        };
        let mut eng = engine(&files, &bufs, &o);
        assert!(!eng.fixed_buffers_active());
        let notes = eng.notes();
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert!(
            matches!(
                notes[0],
                crate::note::Note::FixedBuffersOff {
                    memlock: Some(crate::note::Memlock::Bytes(_)),
                    ..
                }
            ),
            "{:?}",
            notes[0]
        );
        write_then_verify(&mut eng, &bufs, 64, 8, n.min(32), 9, false);
    })
    .join()
    .unwrap();
}

#[test]
fn fixedbufs_register_with_privilege() {
    // SAFETY: geteuid takes no arguments and cannot fail.
    if unsafe { libc::geteuid() } != 0 {
        return;
    }
    let dir = TempDir::new("uring-fixed");
    let (_f, ef, _) = open_file(dir.path(), "data", 64 * BS as u64);
    let files = [ef];
    // 16 MiB of buffers: above the 8 MiB memlock limit, fine with CAP_IPC_LOCK.
    let bufs = Buffers::new(16, 1 << 20);
    let o = EngineOptions {
        fixedbufs: true,
        ..opts()
    };
    let mut eng = engine(&files, &bufs, &o);
    assert!(eng.fixed_buffers_active(), "{:?}", eng.notes());
    assert!(eng.notes().is_empty());
    write_then_verify(&mut eng, &bufs, 64, 16, 16, 10, false);
}

#[test]
fn hipri_completes_without_hanging() {
    // Polled I/O needs a device with poll queues; elsewhere it completes with an error.
    // Either way every request must be reaped, by blocking and by polling.
    for base in bases() {
        let dir = TempDir::new_in(&base, "uring-hipri");
        let (_f, ef, direct) = open_file(dir.path(), "f", 16 * BS as u64);
        if !direct {
            continue;
        }
        let files = [ef];
        let bufs = Buffers::new(4, BS);
        let o = EngineOptions {
            hipri: true,
            ..opts()
        };
        let mut eng = engine(&files, &bufs, &o);
        for min in [1, 0] {
            for slot in 0..4u32 {
                let io = IoUnit {
                    slot,
                    file: 0,
                    op: Op::Read,
                    offset: slot as u64 * BS as u64,
                    len: BS,
                    buf: bufs.bufs[slot as usize].ptr,
                    prio: None,
                };
                assert_eq!(eng.queue(&io), Queued::Pending);
            }
            assert_eq!(eng.commit().unwrap(), 4);
            let mut out = Vec::new();
            let t = Instant::now();
            while out.len() < 4 {
                eng.getevents(min, 4 - out.len(), &mut out).unwrap();
                assert!(t.elapsed() < Duration::from_secs(20));
            }
            for c in &out {
                assert!(c.result == BS as i64 || c.result < 0, "{c:?}");
            }
        }
    }
}

#[test]
fn prefers_deferred_task_run() {
    let bufs = Buffers::new(4, BS);
    let eng = engine(&[], &bufs, &opts());
    // Linux 6.1+ accepts SINGLE_ISSUER + DEFER_TASKRUN.
    let rel = std::fs::read_to_string("/proc/sys/kernel/osrelease").unwrap_or_default();
    let mut v = rel
        .split(|c: char| !c.is_ascii_digit())
        .map(|x| x.parse::<u32>());
    if let (Some(Ok(major)), Some(Ok(minor))) = (v.next(), v.next()) {
        if (major, minor) >= (6, 1) {
            assert!(eng.defer_taskrun());
        }
    }
    let o = EngineOptions {
        sqthread_poll: true,
        ..opts()
    };
    assert!(!engine(&[], &bufs, &o).defer_taskrun());
}
