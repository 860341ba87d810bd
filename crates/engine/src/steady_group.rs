//! Steady state judged over a reporting group (fio's `group_reporting` with
//! `steadystate_duration`): once a second each clone of the group hands in its IOPS and
//! bandwidth over its last second; when every clone still running has handed in its sample
//! for the round, the round's sum (of the clones past the steady-state ramp) is one sample of
//! the group's window. Once the group is steady, every clone of the group stops. One window for
//! the group, and one result, which every clone's result carries.

use crate::steady::{SteadyResult, SteadySpec, SteadyWindow};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// The group's window, shared by its clones (locked once a second per clone, off the per-I/O
/// path).
pub(crate) struct SteadyGroup {
    state: Mutex<Round>,
}

/// The round of samples being gathered, and the window they go to.
struct Round {
    window: SteadyWindow,
    /// Per clone: still running, and its sample of this round (None: not handed in yet; the
    /// inner None: handed in, inside its steady-state ramp).
    running: Vec<bool>,
    samples: Vec<Option<Option<(u64, u64)>>>,
    /// The stop flags of the group's clones.
    stops: Vec<Arc<AtomicBool>>,
    attained: bool,
}

impl SteadyGroup {
    /// A group whose clones stop on `stops` (one per clone, member numbers in this order).
    pub(crate) fn new(spec: SteadySpec, stops: Vec<Arc<AtomicBool>>) -> SteadyGroup {
        let n = stops.len();
        SteadyGroup {
            state: Mutex::new(Round {
                window: SteadyWindow::new(spec),
                running: vec![true; n],
                samples: vec![None; n],
                stops,
                attained: false,
            }),
        }
    }

    /// Member `m` hands in its sample (None: inside its steady-state ramp); true once the
    /// group is steady (every member is then asked to stop).
    pub(crate) fn add(&self, m: usize, sample: Option<(u64, u64)>) -> bool {
        let mut r = self.lock();
        if r.attained {
            return true;
        }
        // A member a whole round ahead of another (one that has not started, or is stalled)
        // closes the round without it.
        if r.samples[m].is_some() {
            r.close();
        }
        r.samples[m] = Some(sample);
        r.close_if_complete();
        r.attained
    }

    /// Member `m` has finished: rounds no longer wait for it.
    pub(crate) fn leave(&self, m: usize) {
        let mut r = self.lock();
        r.running[m] = false;
        if r.samples.iter().any(Option::is_some) {
            r.close_if_complete();
        }
    }

    /// The group's result so far.
    pub(crate) fn result(&self) -> SteadyResult {
        self.lock().window.result()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Round> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Round {
    /// Close the round once every running member has handed in its sample.
    fn close_if_complete(&mut self) {
        let complete = self
            .samples
            .iter()
            .zip(&self.running)
            .all(|(s, &run)| s.is_some() || !run);
        if complete {
            self.close();
        }
    }

    /// The round's sum is one sample of the window, when a member's ramp is over (as fio: the
    /// criterion is judged once the ramp is over for one clone of the group at least).
    fn close(&mut self) {
        let over: Vec<(u64, u64)> = self.samples.iter().flatten().flatten().copied().collect();
        self.samples.iter_mut().for_each(|s| *s = None);
        if over.is_empty() || self.attained {
            return;
        }
        let iops = over.iter().map(|s| s.0).sum();
        let bw = over.iter().map(|s| s.1).sum();
        if self.window.add(iops, bw) {
            self.attained = true;
            for f in &self.stops {
                f.store(true, Ordering::Relaxed);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::steady::SteadyMetric;
    use std::time::Duration;

    fn group(n: usize, limit: f64) -> (SteadyGroup, Vec<Arc<AtomicBool>>) {
        let stops: Vec<_> = (0..n).map(|_| Arc::new(AtomicBool::new(false))).collect();
        let spec = SteadySpec {
            metric: SteadyMetric::Iops,
            slope: false,
            percent: true,
            limit,
            duration_s: 2,
            ramp: Duration::ZERO,
        };
        (SteadyGroup::new(spec, stops.clone()), stops)
    }

    #[test]
    fn the_window_holds_the_sums_of_the_rounds() {
        let (g, stops) = group(3, 10.0);
        assert!(!g.add(0, Some((100, 1000))));
        assert!(!g.add(1, Some((200, 2000))));
        // The round is not complete: nothing judged yet.
        assert_eq!(g.result().iops, [0, 0]);
        assert!(!g.add(2, Some((300, 3000))));
        assert_eq!(g.result().iops, [600, 0]);
        assert!(!g.add(2, Some((330, 3300))));
        assert!(!g.add(0, Some((100, 1000))));
        // 600 and 630: mean 615, deviation 15 = 2.4 %: steady, every clone stops.
        assert!(g.add(1, Some((200, 2000))));
        let r = g.result();
        assert!(r.attained);
        assert_eq!(r.iops, [600, 630]);
        assert_eq!(r.bw, [6000, 6300]);
        assert!(stops.iter().all(|f| f.load(Ordering::Relaxed)));
        assert!(g.add(0, Some((1, 1))), "later samples change nothing");
        assert_eq!(g.result().iops, [600, 630]);
    }

    #[test]
    fn ramping_and_finished_members_do_not_count() {
        let (g, stops) = group(2, 0.5);
        g.add(0, Some((100, 1)));
        g.add(1, None);
        assert_eq!(
            g.result().iops,
            [100, 0],
            "the clone in its ramp adds nothing"
        );
        g.add(0, Some((200, 1)));
        g.leave(1);
        assert_eq!(
            g.result().iops,
            [100, 200],
            "a finished clone is not waited for"
        );
        g.add(0, Some((300, 1)));
        assert_eq!(g.result().iops, [200, 300]);
        assert!(!g.result().attained);
        assert!(!stops[0].load(Ordering::Relaxed));
    }

    #[test]
    fn a_member_a_round_ahead_closes_the_round() {
        let (g, _) = group(2, 0.5);
        g.add(0, Some((100, 1)));
        g.add(0, Some((120, 1)));
        assert_eq!(g.result().iops, [100, 0]);
    }
}
