//! The worker's side of steady-state detection: a sample of the last second's IOPS and
//! bandwidth every second (from one second after the steady-state ramp), judged by the job's
//! own window, or by its reporting group's (`group_reporting`: the clones' samples summed).

use super::Worker;
use crate::steady::{SteadyResult, SteadySpec, SteadyWindow};
use crate::steady_group::SteadyGroup;
use std::sync::Arc;

const NS_PER_S: u64 = 1_000_000_000;

/// Who judges the samples.
enum Judge {
    Own(SteadyWindow),
    /// The group's window, and this clone's member number in it.
    Group(Arc<SteadyGroup>, usize),
}

pub(super) struct SteadyRun {
    judge: Judge,
    /// Samples count from this time on.
    ramp_over_ns: u64,
    prev_ns: u64,
    prev_bytes: u64,
    prev_ios: u64,
}

impl SteadyRun {
    /// Detection from `start_ns`, judged by the group `group` (the group's window and the
    /// member number) or by the job's own window.
    pub(super) fn new(
        spec: SteadySpec,
        start_ns: u64,
        group: Option<(Arc<SteadyGroup>, usize)>,
    ) -> SteadyRun {
        let ramp = spec.ramp.as_nanos() as u64;
        SteadyRun {
            ramp_over_ns: if ramp > 0 {
                start_ns + ramp + NS_PER_S
            } else {
                0
            },
            judge: match group {
                Some((g, m)) => Judge::Group(g, m),
                None => Judge::Own(SteadyWindow::new(spec)),
            },
            prev_ns: start_ns,
            prev_bytes: 0,
            prev_ios: 0,
        }
    }

    /// The job has finished: its group no longer waits for its samples.
    pub(super) fn leave(&self) {
        if let Judge::Group(g, m) = &self.judge {
            g.leave(*m);
        }
    }

    /// What the detection found (the group's, when the group judges).
    pub(super) fn result(&self) -> SteadyResult {
        match &self.judge {
            Judge::Own(w) => w.result(),
            Judge::Group(g, _) => g.result(),
        }
    }
}

impl Worker {
    /// Take the steady-state sample due at `now`; true once the state is steady.
    #[cold]
    pub(super) fn steady_sample(&mut self, now: u64) -> bool {
        self.steady_next_ns = now + NS_PER_S;
        let bytes: u64 = self.bytes.iter().sum();
        let ios: u64 = self.ios.iter().sum();
        let Some(s) = self.steady.as_deref_mut() else {
            return false;
        };
        // The counters restart when the job's own ramp ends: count from zero then.
        let (db, di) = if bytes < s.prev_bytes || ios < s.prev_ios {
            (bytes, ios)
        } else {
            (bytes - s.prev_bytes, ios - s.prev_ios)
        };
        let ms = ((now - s.prev_ns) / 1_000_000).max(1);
        s.prev_ns = now;
        s.prev_bytes = bytes;
        s.prev_ios = ios;
        let sample = (now >= s.ramp_over_ns).then(|| (1000 * di / ms, 1000 * db / ms));
        match (&mut s.judge, sample) {
            (Judge::Own(w), Some((iops, bw))) => w.add(iops, bw),
            (Judge::Own(_), None) => false,
            (Judge::Group(g, m), sample) => g.add(*m, sample),
        }
    }
}
