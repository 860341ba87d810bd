//! Ring setup: the setup-flag levels tried in order, buffer registration, and the reason given
//! when no ring can be created.

use super::EngineSetup;
use crate::note::Memlock;
use io_uring::IoUring;
use std::io;

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
