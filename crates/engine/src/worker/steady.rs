//! The worker's side of steady-state detection: a sample of the last second's IOPS and
//! bandwidth every second (from one second after the steady-state ramp), judged by the window.

use super::Worker;
use crate::steady::{SteadySpec, SteadyWindow};

const NS_PER_S: u64 = 1_000_000_000;

pub(super) struct SteadyRun {
    pub(super) window: SteadyWindow,
    /// Samples count from this time on.
    ramp_over_ns: u64,
    prev_ns: u64,
    prev_bytes: u64,
    prev_ios: u64,
}

impl SteadyRun {
    pub(super) fn new(spec: SteadySpec, start_ns: u64) -> SteadyRun {
        let ramp = spec.ramp.as_nanos() as u64;
        SteadyRun {
            ramp_over_ns: if ramp > 0 {
                start_ns + ramp + NS_PER_S
            } else {
                0
            },
            window: SteadyWindow::new(spec),
            prev_ns: start_ns,
            prev_bytes: 0,
            prev_ios: 0,
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
        if now < s.ramp_over_ns {
            return false;
        }
        s.window.add(1000 * di / ms, 1000 * db / ms)
    }
}
