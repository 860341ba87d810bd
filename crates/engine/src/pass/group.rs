//! Several passes at once (a throughput test): each child prepares its pass, all meet at a
//! barrier and are released together (optionally each after a delay). With stonewalling, the
//! first child to finish stops the others, so every child's figure counts only what was done
//! while all of them ran; without it, each runs to its end. Children may be bound to CPUs one
//! each, in turn from a first CPU. The release and the stonewall are injectable
//! ([`GroupHooks`]): a gate between "every child prepared" and the release, a stonewall flag
//! shared with children elsewhere, and a call when a child here is the first to finish.

use super::{prepare, PassResult, PassSpec, PassStops};
use crate::sys;
use std::io;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Barrier;
use std::time::Duration;

/// How the children of a group start and stop.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GroupOptions {
    /// The first child to finish stops the others.
    pub stonewall: bool,
    /// Delay between the barrier's release and a child's first operation.
    pub delay: Duration,
    /// Bind child i to CPU (first + i) modulo the online CPUs.
    pub first_cpu: Option<usize>,
    /// Each child has its own table of open files, as a child process would (see
    /// [`crate::alone`]); otherwise they share the process's, as threads do.
    pub own_files: bool,
}

/// What a group did.
#[derive(Debug)]
pub struct GroupResult {
    /// Each child's pass, in the order of the specs.
    pub children: Vec<io::Result<PassResult>>,
    /// From the barrier's release (or the first child's start, if earlier) to the end of the
    /// last child (ns), as a parent sees it.
    pub wall_ns: u64,
}

/// What a group shares with children elsewhere (other processes or hosts).
#[derive(Clone, Copy, Default)]
pub struct GroupHooks<'a> {
    /// Called once every child here is prepared, before the release; false stops the group
    /// (`stop` is raised: the children end at once).
    pub gate: Option<&'a (dyn Fn() -> bool + Sync)>,
    /// The stonewall flag (set from elsewhere when a child there finished first); the group's
    /// own when None.
    pub wall: Option<&'a AtomicBool>,
    /// Called when a child here finishes while the stonewall was still down.
    pub on_wall: Option<&'a (dyn Fn() + Sync)>,
}

/// Run `specs` as children of one group.
#[cfg(test)]
pub(crate) fn run_group(specs: &[PassSpec], opts: GroupOptions, stop: &AtomicBool) -> GroupResult {
    run_group_with(specs, opts, stop, GroupHooks::default())
}

/// Run `specs` as children of one group, released and stonewalled through `hooks`.
pub fn run_group_with(
    specs: &[PassSpec],
    opts: GroupOptions,
    stop: &AtomicBool,
    hooks: GroupHooks<'_>,
) -> GroupResult {
    let n = specs.len();
    let prepared_all = Barrier::new(n + 1);
    let barrier = Barrier::new(n + 1);
    let own_wall = AtomicBool::new(false);
    let wall = hooks.wall.unwrap_or(&own_wall);
    let mut release = 0;
    let mut end = 0;
    let children = std::thread::scope(|s| {
        let handles: Vec<_> = specs
            .iter()
            .enumerate()
            .map(|(i, spec)| {
                let (barrier, prepared_all) = (&barrier, &prepared_all);
                s.spawn(move || {
                    if opts.own_files {
                        crate::alone::private_files();
                    }
                    let bound = match opts.first_cpu {
                        Some(c) => sys::set_affinity(&[(c + i) % sys::ncpus()]),
                        None => Ok(()),
                    };
                    let prepared = bound.and_then(|_| prepare(spec));
                    let ready_ns = sys::now_ns();
                    prepared_all.wait();
                    barrier.wait();
                    let p = prepared?;
                    if !opts.delay.is_zero() {
                        std::thread::sleep(opts.delay);
                    }
                    // The first child to move its last record stops the others at once,
                    // before its own fsync and close, as iozone's children do; raised again
                    // (a no-op then) when the pass ended on an error.
                    let raise = || {
                        if opts.stonewall && !wall.swap(true, Ordering::Relaxed) {
                            if let Some(f) = hooks.on_wall {
                                f();
                            }
                        }
                    };
                    let r = p.run(PassStops {
                        stop,
                        wall: Some(wall),
                        at_end: Some(&raise),
                    });
                    raise();
                    r.map(|r| PassResult { ready_ns, ..r })
                })
            })
            .collect();
        prepared_all.wait();
        if let Some(gate) = hooks.gate {
            if !gate() {
                stop.store(true, Ordering::Relaxed);
            }
        }
        barrier.wait();
        release = sys::now_ns();
        let out: Vec<io::Result<PassResult>> = handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(io::Error::other("child thread panicked")))
            })
            .collect();
        end = sys::now_ns();
        // The parent may be scheduled after its children started: the release is the earliest
        // of its own return from the barrier and the children's starts.
        for r in out.iter().flatten() {
            release = release.min(r.start_ns);
        }
        out
    });
    GroupResult {
        children,
        wall_ns: end.saturating_sub(release),
    }
}
