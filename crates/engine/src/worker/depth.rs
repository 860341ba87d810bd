//! The worker's side of the latency limit and of the depth search under a latency target
//! (`crate::depth_search`): each completion compares its total latency with one precomputed
//! bound per direction (the lower of limit and target; u64::MAX when neither is set), and the
//! rare I/O over it comes here. Windows are judged when due, from `check_time`. A lower depth
//! drains the queue first: the issue limit drops to 0 until nothing is in flight.

use super::Worker;
use crate::depth_search::{DepthSearch, Step};
use crate::failure::JobFailure;
use crate::job::{Dir, JobSpec};

/// Per direction, the total latency above which a completion needs a look.
pub(super) fn latency_bounds(spec: &JobSpec) -> [u64; 3] {
    let mut b = [u64::MAX; 3];
    if spec.stats.disable_lat {
        // As fio: without total-latency accounting, neither limit nor target is checked.
        return b;
    }
    let target = spec.depth_search.target.as_nanos() as u64;
    for d in Dir::ALL {
        let limit = spec.latency_limit[d].as_nanos() as u64;
        for v in [limit, target] {
            if v > 0 {
                b[d.idx()] = b[d.idx()].min(v);
            }
        }
    }
    b
}

impl Worker {
    /// An I/O completed `lat` ns after it was requested, over the direction's bound.
    #[cold]
    #[inline(never)]
    pub(super) fn latency_over(&mut self, slot: u32, lat: u64) {
        let s = &self.slots[slot as usize];
        let dir = s.dir;
        let limit = self.spec.latency_limit[dir].as_nanos() as u64;
        if limit > 0 && lat > limit {
            self.latency_fatal(slot, lat, limit, false);
        }
        let target = self.spec.depth_search.target.as_nanos() as u64;
        if target == 0 || lat <= target {
            return;
        }
        let Some(search) = self.search.as_deref_mut() else {
            return;
        };
        match search.slow_io() {
            Step::Unreachable => self.latency_fatal(slot, lat, target, true),
            step => self.search_step(step),
        }
    }

    #[cold]
    fn latency_fatal(&mut self, slot: u32, lat: u64, limit: u64, target: bool) {
        let s = &self.slots[slot as usize];
        let failure = JobFailure::Latency {
            job: self.spec.name.clone(),
            dir: s.dir,
            path: self.files[s.file as usize].path.clone(),
            offset: s.offset,
            len: s.len as u64,
            latency_ns: lat,
            limit_ns: limit,
            target,
        };
        self.fatal(libc::ETIMEDOUT, failure);
    }

    /// The search's window is due at `now`: judge it.
    #[cold]
    #[inline(never)]
    pub(super) fn search_window(&mut self, now: u64) {
        let ios: u64 = self.ios.iter().sum();
        let Some(search) = self.search.as_deref_mut().filter(|_| !self.error) else {
            // A job that failed (its last depth stays as it was) or searches nothing.
            self.search_due_ns = u64::MAX;
            return;
        };
        let step = search.window_end(now, ios);
        self.search_step(step);
    }

    /// Apply what the search decided.
    fn search_step(&mut self, step: Step) {
        match step {
            Step::Keep | Step::Unreachable => {}
            Step::Depth {
                depth,
                drain: false,
            } => {
                self.depth_now = (depth as usize).min(self.slots.len());
            }
            Step::Depth { drain: true, .. } | Step::FinalWindow { .. } => {
                // Nothing more is issued until the queue is empty (`search_drained`).
                self.depth_now = 0;
                self.search_due_ns = u64::MAX;
                return;
            }
            Step::Done => {
                self.done_issuing = true;
                self.search_due_ns = u64::MAX;
                return;
            }
        }
        if let Some(s) = &self.search {
            self.search_due_ns = s.window_due_ns();
        }
    }

    /// The queue drained after the search lowered the depth or settled: run at the new depth
    /// from a new window (from fresh measurements for the final window).
    #[cold]
    #[inline(never)]
    pub(super) fn search_drained(&mut self, now: u64) {
        let Some(final_window) = self.search.as_deref().map(DepthSearch::in_final_window) else {
            return;
        };
        if final_window && !self.search_reset_done {
            self.search_reset_done = true;
            self.restart_for_final_window(now);
        }
        let ios: u64 = self.ios.iter().sum();
        if let Some(s) = self.search.as_deref_mut() {
            s.new_window(now, ios);
            self.depth_now = (s.depth() as usize).clamp(1, self.slots.len());
            self.search_due_ns = if self.measuring {
                s.window_due_ns()
            } else {
                u64::MAX
            };
        }
    }

    /// The measurements start again for the search's final window, as after a ramp: counts,
    /// latencies, depths and issued I/Os so far are dropped.
    fn restart_for_final_window(&mut self, now: u64) {
        for d in Dir::ALL {
            let r = &mut self.res.dirs[d];
            r.short_ios = 0;
            r.drop_ios = 0;
            r.slat = Default::default();
            r.clat = Default::default();
            r.lat = Default::default();
            r.bw_samples = Default::default();
            r.iops_samples = Default::default();
        }
        self.res.sync = Default::default();
        self.res.sync_ios = 0;
        self.res.issued = Default::default();
        self.res.depth = Default::default();
        self.begin_measuring(now);
    }
}
