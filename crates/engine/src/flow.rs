//! Flow control between jobs: jobs of one flow share a counter and keep their shares of it
//! proportional to their weights (fio's token-based flow control).
//!
//! A job of weight `w` in a flow of total weight `W` may issue its next I/O only while its own
//! count over the flow's count is at most `w / W`; otherwise it is held back (it drains what it
//! has in flight and sleeps the flow's sleep time when one is set, else retries at once). Every
//! I/O that passes adds one to both counts. The flow's count starts at one; every job of the run
//! adds its weight when the run starts (also jobs of later groups, as in fio) and takes its
//! weight and its count back when it ends, so the others recalibrate.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// The counters one flow shares between its jobs.
#[derive(Debug)]
pub(crate) struct FlowShared {
    counter: AtomicU64,
    total_weight: AtomicU64,
}

impl FlowShared {
    fn new() -> FlowShared {
        FlowShared {
            counter: AtomicU64::new(1),
            total_weight: AtomicU64::new(0),
        }
    }
}

/// The flows of one run, by id.
#[derive(Debug, Default)]
pub(crate) struct Flows {
    by_id: BTreeMap<i32, Arc<FlowShared>>,
}

impl Flows {
    /// Register a job (clone) of weight `weight` in flow `id`: its seat in the flow.
    pub(crate) fn join(&mut self, id: i32, weight: u32) -> FlowSeat {
        let shared = self
            .by_id
            .entry(id)
            .or_insert_with(|| Arc::new(FlowShared::new()))
            .clone();
        shared
            .total_weight
            .fetch_add(weight as u64, Ordering::Relaxed);
        FlowSeat {
            shared,
            weight,
            own: 0,
        }
    }
}

/// One job's place in its flow. Leaving the flow (drop) takes its weight and count back.
#[derive(Debug)]
pub(crate) struct FlowSeat {
    shared: Arc<FlowShared>,
    weight: u32,
    own: u64,
}

impl FlowSeat {
    /// Whether the next I/O must wait.
    #[inline]
    pub(crate) fn held_back(&self) -> bool {
        let flow = self.shared.counter.load(Ordering::Relaxed).max(1);
        let total = self.shared.total_weight.load(Ordering::Relaxed).max(1);
        let counter_ratio = self.own as f64 / flow as f64;
        let weight_ratio = self.weight as f64 / total as f64;
        counter_ratio > weight_ratio
    }

    /// An I/O went: count it in the job's and the flow's counts.
    #[inline]
    pub(crate) fn passed(&mut self) {
        self.shared.counter.fetch_add(1, Ordering::Relaxed);
        self.own += 1;
    }
}

impl Drop for FlowSeat {
    fn drop(&mut self) {
        self.shared.counter.fetch_sub(self.own, Ordering::Relaxed);
        self.shared
            .total_weight
            .fetch_sub(self.weight as u64, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Round-robin turns among seats; how many I/Os each passes.
    fn turns(seats: &mut [FlowSeat], rounds: usize) -> Vec<u64> {
        let mut passed = vec![0u64; seats.len()];
        for _ in 0..rounds {
            for (i, s) in seats.iter_mut().enumerate() {
                if !s.held_back() {
                    s.passed();
                    passed[i] += 1;
                }
            }
        }
        passed
    }

    #[test]
    fn weights_share_the_flow() {
        let mut flows = Flows::default();
        let mut seats = vec![flows.join(1, 1), flows.join(1, 5), flows.join(1, 10)];
        let p = turns(&mut seats, 32_000);
        let (a, b, c) = (p[0] as f64, p[1] as f64, p[2] as f64);
        assert!((b / a - 5.0).abs() < 0.05, "{p:?}");
        assert!((c / a - 10.0).abs() < 0.1, "{p:?}");
        // Another flow id is independent.
        let mut other = [flows.join(2, 1)];
        assert_eq!(turns(&mut other, 100), vec![100]);
    }

    #[test]
    fn a_leaving_job_gives_back_its_share() {
        let mut flows = Flows::default();
        let mut seats = vec![flows.join(7, 1), flows.join(7, 2), flows.join(7, 3)];
        let p = turns(&mut seats, 6000);
        assert!((p[1] as f64 / p[0] as f64 - 2.0).abs() < 0.05, "{p:?}");
        // The third job ends: the other two keep 1:2 between themselves, at full speed.
        seats.pop();
        let p2 = turns(&mut seats, 6000);
        assert!((p2[1] as f64 / p2[0] as f64 - 2.0).abs() < 0.05, "{p2:?}");
        assert!(
            p2[1] > p[1],
            "the third job's share went to the others: {p2:?}"
        );
        // Everyone gone: the flow's count is back at its start.
        let shared = seats[0].shared.clone();
        drop(seats);
        assert_eq!(shared.counter.load(Ordering::Relaxed), 1);
        assert_eq!(shared.total_weight.load(Ordering::Relaxed), 0);
    }

    #[test]
    fn a_registered_job_that_has_not_started_holds_the_others() {
        // As in fio: a job of a later group already counts in the flow's weight.
        let mut flows = Flows::default();
        let mut running = [flows.join(0, 1)];
        let _waiting = flows.join(0, 1);
        assert!(turns(&mut running, 1000)[0] <= 2);
    }
}
