//! Ring setup: the setup-flag levels tried in order, buffer registration, and the reason given
//! when no ring can be created.

use super::{EngineError, EngineSetup, RwMode};
use crate::note::{Memlock, Note};
use io_uring::IoUring;
use std::io;
use std::os::fd::RawFd;

/// Largest total of I/O buffers registered without fixedbufs=1 (pinned for the whole run).
pub(super) const AUTO_FIXED_MAX_BYTES: u64 = 64 << 20;

/// Setup-flag levels tried in order.
pub(super) const LEVEL_DEFER: u8 = 0;
pub(super) const LEVEL_COOP: u8 = 1;
pub(super) const LEVEL_NONE: u8 = 2;

/// The worker's I/O buffers as iovecs, for `register_buffers`.
pub(super) fn buffer_iovecs(setup: &EngineSetup) -> Vec<libc::iovec> {
    setup
        .buffers
        .iter()
        .map(|b| libc::iovec {
            iov_base: b.ptr.cast(),
            iov_len: b.len,
        })
        .collect()
}

/// The ring at the most efficient setup-flag level the kernel accepts, and that level; a
/// kernel without io_uring (or one that forbids it) makes the engine unavailable.
pub(super) fn first_ring(depth: u32, setup: &EngineSetup) -> Result<(IoUring, u8), EngineError> {
    let opts = setup.options;
    let levels: &[u8] = if opts.sqthread_poll {
        &[LEVEL_NONE]
    } else {
        &[LEVEL_DEFER, LEVEL_COOP, LEVEL_NONE]
    };
    let mut built = None;
    for &level in levels {
        match build_ring(depth, setup, level) {
            Ok(r) => {
                built = Some((r, level));
                break;
            }
            Err(e) if level != LEVEL_NONE && is_errno(&e, &[libc::EINVAL]) => continue,
            Err(e) if is_errno(&e, &[libc::EPERM, libc::ENOSYS, libc::EACCES]) => {
                return Err(EngineError::Unavailable(format!(
                    "io_uring is not available: {}; use libaio or psync instead",
                    unavailable_reason(&e)
                )));
            }
            Err(e) => {
                return Err(EngineError::Io(io::Error::new(
                    e.kind(),
                    format!("io_uring_setup({depth} entries) failed: {e}"),
                )));
            }
        }
    }
    Ok(built.expect("the last level either builds or returns"))
}

/// Registers the job's files with the ring when all are open; whether they were registered.
/// Registered files spare the kernel a file lookup and reference per I/O; they are used
/// even when not asked for (silently skipped if registration fails), as they change
/// nothing the job can observe.
pub(super) fn register_files(
    ring: &IoUring,
    fds: &[RawFd],
    setup: &EngineSetup,
    notes: &mut Vec<Note>,
) -> bool {
    let mut fixed_files = false;
    if !fds.is_empty() && fds.iter().all(|&fd| fd >= 0) {
        match ring.submitter().register_files(fds) {
            Ok(()) => fixed_files = true,
            Err(e) if setup.options.registerfiles => notes.push(Note::RegisteredFilesOff {
                files: fds.len(),
                reason: e.to_string(),
            }),
            Err(_) => {}
        }
    }
    fixed_files
}

/// How reads and writes are encoded: on registered buffers when they could be registered
/// (asked for, or tried for plain direct I/O), else plain or vectored as asked.
pub(super) fn choose_rw_mode(
    ring: &IoUring,
    setup: &EngineSetup,
    depth: u32,
    notes: &mut Vec<Note>,
) -> RwMode {
    let opts = setup.options;
    let mut mode = if opts.nonvectored {
        RwMode::Plain
    } else {
        RwMode::Vectored
    };
    // Direct I/O on registered buffers skips pinning the user pages per I/O. Without
    // fixedbufs=1 this is tried only for plain direct reads/writes on modest buffers and is
    // dropped silently when the memlock limit refuses it.
    let auto_fixed = !opts.fixedbufs
        && setup.direct
        && mode == RwMode::Plain
        && setup.buffers.len() >= depth as usize
        && setup.buffers.iter().map(|b| b.len as u64).sum::<u64>() <= AUTO_FIXED_MAX_BYTES;
    if auto_fixed {
        let iov = buffer_iovecs(setup);
        // SAFETY: as for fixedbufs below.
        if unsafe { ring.submitter().register_buffers(&iov) }.is_ok() {
            mode = RwMode::Fixed;
        }
    }
    if opts.fixedbufs {
        if setup.buffers.len() < depth as usize {
            notes.push(Note::FixedBuffersTooFew {
                buffers: setup.buffers.len(),
                slots: depth,
            });
        } else {
            let iov = buffer_iovecs(setup);
            // SAFETY: the worker keeps these buffers alive (and in place) for the engine's
            // lifetime; the ring is dropped, unregistering them, before they are freed.
            match unsafe { ring.submitter().register_buffers(&iov) } {
                Ok(()) => mode = RwMode::Fixed,
                Err(e) => {
                    let total: u64 = setup.buffers.iter().map(|b| b.len as u64).sum();
                    notes.push(Note::FixedBuffersOff {
                        bytes: total,
                        reason: e.to_string(),
                        memlock: is_errno(&e, &[libc::ENOMEM]).then(memlock_limit),
                    });
                }
            }
        }
    }
    mode
}

pub(super) fn build_ring(depth: u32, setup: &EngineSetup, level: u8) -> io::Result<IoUring> {
    let opts = setup.options;
    let mut b = IoUring::builder();
    b.setup_clamp();
    b.setup_cqsize(depth.saturating_mul(2).max(2));
    if opts.hipri {
        b.setup_iopoll();
    }
    if opts.sqthread_poll {
        b.setup_sqpoll(1000);
        if let Some(cpu) = opts.sqthread_poll_cpu {
            b.setup_sqpoll_cpu(cpu);
        }
    }
    if level <= LEVEL_COOP {
        b.setup_coop_taskrun();
    }
    if level == LEVEL_DEFER {
        b.setup_single_issuer();
        b.setup_defer_taskrun();
        b.setup_r_disabled();
    }
    b.build(depth)
}

pub(super) fn memlock_limit() -> Memlock {
    let mut rl = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit fills the struct.
    if unsafe { libc::getrlimit(libc::RLIMIT_MEMLOCK, &mut rl) } != 0 {
        return Memlock::Unknown;
    }
    if rl.rlim_cur == libc::RLIM_INFINITY {
        Memlock::Unlimited
    } else {
        Memlock::Bytes(rl.rlim_cur)
    }
}

pub(super) fn unavailable_reason(e: &io::Error) -> String {
    let mut reason = format!("io_uring_setup failed: {e}");
    match std::fs::read_to_string("/proc/sys/kernel/io_uring_disabled") {
        Ok(s) if s.trim() != "0" => {
            reason.push_str(&format!(" (kernel.io_uring_disabled = {})", s.trim()))
        }
        _ if e.raw_os_error() == Some(libc::ENOSYS) => {
            reason.push_str(" (the kernel has no io_uring support)")
        }
        _ => reason.push_str(" (blocked by a security policy such as seccomp or a container)"),
    }
    reason
}

pub(super) fn is_errno(e: &io::Error, codes: &[i32]) -> bool {
    e.raw_os_error().is_some_and(|c| codes.contains(&c))
}
