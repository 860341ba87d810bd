//! `--bandwidth-log`: a thread that samples every job's byte counters for the run's aggregate
//! bandwidth logs (`iomark_fio::output::agg_bw`).

use iomark_engine::job::RunPlan;
use iomark_engine::runner::RunCtl;
use iomark_fio::output::agg_bw::{AggBw, TICK};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Instant;

/// Samples until `done` is set (unpark the thread to end it at once); returns the samples.
pub fn spawn(plan: &RunPlan, ctl: Arc<RunCtl>, done: Arc<AtomicBool>) -> JoinHandle<AggBw> {
    let mut agg = AggBw::new(plan);
    let start = Instant::now();
    std::thread::spawn(move || loop {
        std::thread::park_timeout(TICK);
        if done.load(Ordering::Relaxed) {
            return agg;
        }
        let mut bytes = [0u64; 3];
        for w in ctl.workers.lock().unwrap().iter() {
            for (i, b) in bytes.iter_mut().enumerate() {
                *b += w.bytes[i].load(Ordering::Relaxed);
            }
        }
        agg.tick(start.elapsed().as_millis() as u64, bytes);
    })
}
