//! Adaptive queue depth under a latency target: the job starts at depth 1 and, window after
//! window, raises the depth while the share of I/O whose total latency (submission request to
//! completion) stays within the target is high enough, and lowers it when it is not. Raising
//! doubles the depth until a depth fails, then bisects between the highest depth that met the
//! target and the lowest that did not. When a raise would keep the same depth the search has
//! settled: the job measures one more window at that depth, from fresh counters, and ends
//! (unless asked to keep adjusting for the rest of the run).
//!
//! With a required share of 100%, one I/O over the target lowers the depth at once; at depth 1
//! it ends the job (no depth meets the target). With a lower share, a window that misses it
//! lowers the depth; at depth 1 the job goes on at depth 1.
//!
//! The state machine is here, free of clocks and I/O; the worker feeds it the time and its
//! completion count at window ends (and each I/O over the target), and applies the depth.

pub use iomark_model::depth_search::DepthSearchSpec;

/// What the worker does after the search changed its mind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// Nothing changes; the window goes on.
    Keep,
    /// A new depth, to run from a new window. `drain`: let the I/O in flight complete first
    /// (the depth went down).
    Depth { depth: u32, drain: bool },
    /// Settled: drain, restart the job's measurements, and run one more window at `depth`.
    FinalWindow { depth: u32 },
    /// The final window is over: the job ends.
    Done,
    /// No depth meets the target (an I/O over it at depth 1 when every I/O must be within).
    Unreachable,
}

/// The search's state.
#[derive(Clone, Debug)]
pub(crate) struct DepthSearch {
    spec: DepthSearchSpec,
    max: u32,
    depth: u32,
    /// Highest depth known to meet the target, lowest known (or assumed) to fail.
    low: u32,
    high: u32,
    /// Successive windows that could not raise the depth (at the bisection's top).
    settled_wins: u32,
    /// I/O over the target in this window.
    slow: u64,
    window_start_ns: u64,
    window_ios: u64,
    final_window: bool,
}

impl DepthSearch {
    /// A search from depth 1 up to `max`, its first window starting at `now_ns` when the job
    /// had completed `ios` I/Os.
    pub(crate) fn new(spec: DepthSearchSpec, max: u32, now_ns: u64, ios: u64) -> DepthSearch {
        let mut s = DepthSearch {
            spec,
            max: max.max(1),
            depth: 1,
            low: 1,
            high: max.max(1),
            settled_wins: 0,
            slow: 0,
            window_start_ns: now_ns,
            window_ios: ios,
            final_window: false,
        };
        s.new_window(now_ns, ios);
        s
    }

    /// Start again from depth 1 (the measured phase begins after a ramp), unless the final
    /// window is under way.
    pub(crate) fn restart(&mut self, now_ns: u64, ios: u64) {
        if !self.final_window {
            *self = DepthSearch::new(self.spec, self.max, now_ns, ios);
        }
    }

    /// The depth to run at now.
    pub(crate) fn depth(&self) -> u32 {
        self.depth
    }

    /// Whether the search has settled and runs its final window.
    pub(crate) fn in_final_window(&self) -> bool {
        self.final_window
    }

    /// When the current window is due to be judged.
    pub(crate) fn window_due_ns(&self) -> u64 {
        self.window_start_ns
            .saturating_add(self.spec.window.as_nanos() as u64)
    }

    /// A new window from `now_ns`, the job having completed `ios` I/Os.
    pub(crate) fn new_window(&mut self, now_ns: u64, ios: u64) {
        self.window_start_ns = now_ns;
        self.window_ios = ios;
        self.slow = 0;
    }

    /// An I/O took longer than the target.
    pub(crate) fn slow_io(&mut self) -> Step {
        if self.spec.every_io() {
            self.lower()
        } else {
            self.slow += 1;
            Step::Keep
        }
    }

    /// The window is due: judge it, the job having completed `ios` I/Os in all by `now_ns`. A
    /// window with no I/O does not meet the target. A raise starts the next window at once; a
    /// lower depth's window starts when the caller has drained the queue
    /// ([`DepthSearch::new_window`]); a window missed at depth 1 goes on (judged again at the
    /// next look).
    pub(crate) fn window_end(&mut self, now_ns: u64, ios: u64) -> Step {
        let n = ios.saturating_sub(self.window_ios);
        let met = if n == 0 {
            false
        } else {
            let ok = n.saturating_sub(self.slow) as f64 / n as f64 * 100.0;
            ok >= self.spec.percentile
        };
        if met {
            let step = self.raise();
            if !matches!(step, Step::FinalWindow { .. }) {
                self.new_window(now_ns, ios);
            }
            step
        } else {
            match self.lower() {
                // At depth 1 a missed window changes nothing, and the window goes on.
                Step::Unreachable => Step::Keep,
                s => s,
            }
        }
    }

    /// Lower the depth halfway to the highest that met the target.
    fn lower(&mut self) -> Step {
        if self.depth == 1 {
            return Step::Unreachable;
        }
        self.high = self.depth;
        if self.depth == self.low {
            self.low -= 1;
        }
        self.depth = (self.depth + self.low) / 2;
        self.settled_wins = 0;
        Step::Depth {
            depth: self.depth,
            drain: true,
        }
    }

    /// The window met the target: raise the depth (double it while nothing failed, else
    /// bisect towards the lowest failed depth).
    fn raise(&mut self) -> Step {
        let before = self.depth;
        self.low = self.depth;
        if self.depth + 1 == self.high {
            // Bisection cannot go higher: after three such windows in a row, the failed bound
            // moves up by one so the depth can be tried again one step higher.
            self.settled_wins += 1;
            if self.settled_wins >= 3 {
                self.high += 1;
                self.settled_wins = 0;
            }
        }
        self.depth = if self.high != self.max {
            (self.depth + self.high) / 2
        } else {
            self.depth.saturating_mul(2)
        }
        .min(self.max);
        if !self.spec.keep_adjusting && self.depth == before {
            if self.final_window {
                return Step::Done;
            }
            self.final_window = true;
            return Step::FinalWindow { depth: self.depth };
        }
        if self.depth == before {
            Step::Keep
        } else {
            Step::Depth {
                depth: self.depth,
                drain: false,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn spec(percentile: f64, keep: bool) -> DepthSearchSpec {
        DepthSearchSpec {
            target: Duration::from_millis(1),
            window: Duration::from_millis(100),
            percentile,
            keep_adjusting: keep,
        }
    }

    /// Judge windows of 10 I/Os each, `slow` of them over the target, until `Done`; the depths
    /// run, in order.
    fn run(s: &mut DepthSearch, slow_at: impl Fn(u32) -> u64, limit: usize) -> Vec<u32> {
        let mut ios = 0;
        let mut depths = vec![s.depth()];
        for _ in 0..limit {
            for _ in 0..slow_at(s.depth()) {
                s.slow_io();
            }
            ios += 10;
            match s.window_end(0, ios) {
                Step::Done => break,
                Step::Unreachable => unreachable!(),
                _ => {}
            }
            s.new_window(0, ios);
            depths.push(s.depth());
        }
        depths
    }

    #[test]
    fn doubles_to_the_maximum_then_runs_a_final_window_and_ends() {
        let mut s = DepthSearch::new(spec(100.0, false), 16, 0, 0);
        assert_eq!(run(&mut s, |_| 0, 50), [1, 2, 4, 8, 16, 16]);
        assert!(s.in_final_window());
    }

    #[test]
    fn a_window_missing_the_share_bisects_down_and_settles_below_it() {
        // Depths above 5 see 5 of 10 I/Os over the target: 50% within, 90% required.
        let mut s = DepthSearch::new(spec(90.0, false), 32, 0, 0);
        let d = run(&mut s, |d| if d > 5 { 5 } else { 0 }, 100);
        assert_eq!(&d[..5], [1, 2, 4, 8, 6]);
        assert_eq!(*d.last().unwrap(), 5, "{d:?}");
        assert!(d.iter().rev().skip(1).take(1).all(|&x| x == 5), "{d:?}");
    }

    #[test]
    fn every_io_over_the_target_lowers_at_once_and_at_depth_one_is_unreachable() {
        let mut s = DepthSearch::new(spec(100.0, false), 8, 0, 0);
        assert_eq!(
            s.window_end(0, 10),
            Step::Depth {
                depth: 2,
                drain: false
            }
        );
        assert_eq!(
            s.slow_io(),
            Step::Depth {
                depth: 1,
                drain: true
            }
        );
        assert_eq!(s.slow_io(), Step::Unreachable);
        // With a share below 100% a slow I/O only counts, and a missed window at depth 1 keeps
        // the job going at depth 1.
        let mut s = DepthSearch::new(spec(50.0, false), 8, 0, 0);
        for _ in 0..8 {
            assert_eq!(s.slow_io(), Step::Keep);
        }
        assert_eq!(s.window_end(0, 10), Step::Keep);
        assert_eq!(s.depth(), 1);
    }

    #[test]
    fn an_empty_window_misses_and_keep_adjusting_never_ends() {
        let mut s = DepthSearch::new(spec(100.0, true), 4, 0, 0);
        assert_eq!(s.window_end(0, 0), Step::Keep);
        let d = run(&mut s, |_| 0, 20);
        assert_eq!(d.len(), 21);
        assert!(d.iter().skip(2).all(|&x| x == 4), "{d:?}");
        assert!(!s.in_final_window());
    }

    #[test]
    fn after_a_ramp_the_search_starts_again_unless_settled() {
        let mut s = DepthSearch::new(spec(100.0, false), 4, 0, 0);
        s.window_end(0, 10);
        assert_eq!(s.depth(), 2);
        s.restart(5, 0);
        assert_eq!((s.depth(), s.window_due_ns()), (1, 5 + 100_000_000));
    }
}
