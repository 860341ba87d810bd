//! Several passes at once (a throughput test): each child prepares its pass, all meet at a
//! barrier and are released together (optionally each after a delay). With stonewalling, the
//! first child to finish stops the others, so every child's figure counts only what was done
//! while all of them ran; without it, each runs to its end. Children may be bound to CPUs one
//! each, in turn from a first CPU.

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

/// Run `specs` as children of one group.
pub fn run_group(specs: &[PassSpec], opts: GroupOptions, stop: &AtomicBool) -> GroupResult {
    let n = specs.len();
    let barrier = Barrier::new(n + 1);
    let wall = AtomicBool::new(false);
    let mut release = 0;
    let mut end = 0;
    let children = std::thread::scope(|s| {
        let handles: Vec<_> = specs
            .iter()
            .enumerate()
            .map(|(i, spec)| {
                let (barrier, wall) = (&barrier, &wall);
                s.spawn(move || {
                    let bound = match opts.first_cpu {
                        Some(c) => sys::set_affinity(&[(c + i) % sys::ncpus()]),
                        None => Ok(()),
                    };
                    let prepared = bound.and_then(|_| prepare(spec));
                    let ready_ns = sys::now_ns();
                    barrier.wait();
                    let p = prepared?;
                    if !opts.delay.is_zero() {
                        std::thread::sleep(opts.delay);
                    }
                    let r = p.run(PassStops {
                        stop,
                        wall: Some(wall),
                    });
                    if opts.stonewall {
                        wall.store(true, Ordering::Relaxed);
                    }
                    r.map(|r| PassResult { ready_ns, ..r })
                })
            })
            .collect();
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
