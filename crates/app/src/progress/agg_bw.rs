//! `--bandwidth-log`: an observer that samples every job's byte counters for the run's
//! aggregate bandwidth logs (`iomark_fio::output::agg_bw`).

use super::source::{Observer, Sample};
use iomark_engine::job::RunPlan;
use iomark_fio::output::agg_bw::{AggBw, TICK};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The samples, shared with the command that writes the logs after the run.
pub type Samples = Arc<Mutex<AggBw>>;

pub struct AggBwLog {
    samples: Samples,
    start: Instant,
}

impl AggBwLog {
    /// The observer and where its samples are kept.
    pub fn new(plan: &RunPlan) -> (AggBwLog, Samples) {
        let samples = Arc::new(Mutex::new(AggBw::new(plan)));
        let log = AggBwLog {
            samples: samples.clone(),
            start: Instant::now(),
        };
        (log, samples)
    }
}

impl Observer for AggBwLog {
    fn every(&self) -> Duration {
        TICK
    }

    fn sample(&mut self, s: &Sample) {
        let mut bytes = [0u64; 3];
        for w in s.workers {
            for (i, b) in bytes.iter_mut().enumerate() {
                *b += w.bytes[i].load(Ordering::Relaxed);
            }
        }
        if let Ok(mut agg) = self.samples.lock() {
            agg.tick(self.start.elapsed().as_millis() as u64, bytes);
        }
    }
}
