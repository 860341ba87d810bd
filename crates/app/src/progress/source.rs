//! The one progress source of a run: a single thread reads the engine's live worker list at the
//! pace each observer asks for and hands every due observer the same sample. fio's status line,
//! quick's live line, the aggregate bandwidth log, rbd bench's and rados bench's per-second
//! tables and dd's progress are observers; none of them polls the engine itself.

use iomark_engine::runner::{RunCtl, WorkerProgress};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The run at one instant.
pub struct Sample<'a> {
    /// The workers started so far, in order (their counters are read by the observers).
    pub workers: &'a [Arc<WorkerProgress>],
    /// Bytes laid out so far (before any worker starts).
    pub layout_bytes: u64,
    /// The engine's clock (`iomark_engine::sys::now_ns`) when the sample was taken.
    pub now_ns: u64,
}

/// Something that follows a run as it goes.
pub trait Observer: Send {
    /// How often it wants a sample.
    fn every(&self) -> Duration;
    /// Called with each sample due.
    fn sample(&mut self, s: &Sample);
    /// Called once after the run with a last sample (on the source's thread): clear a line,
    /// tell the last figures.
    fn end(&mut self, _last: &Sample) {}
}

/// The thread that samples the run for its observers.
pub struct Progress {
    done: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Progress {
    /// Starts sampling `ctl`'s workers for `observers` (no thread when there is none).
    pub fn start(ctl: Arc<RunCtl>, observers: Vec<Box<dyn Observer>>) -> Progress {
        let done = Arc::new(AtomicBool::new(false));
        let thread = (!observers.is_empty()).then(|| {
            let done = done.clone();
            std::thread::spawn(move || sample_until(&ctl, observers, &done))
        });
        Progress { done, thread }
    }

    /// Ends sampling at once (the run is over); every observer's `end` has run on return.
    pub fn stop(mut self) {
        self.finish();
    }

    fn finish(&mut self) {
        self.done.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            t.thread().unpark();
            let _ = t.join();
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}

/// The source's loop: sleep until the next observer is due (or `done`), sample once, call
/// every observer that is due.
fn sample_until(ctl: &RunCtl, mut observers: Vec<Box<dyn Observer>>, done: &AtomicBool) {
    let start = Instant::now();
    let mut due: Vec<Instant> = observers.iter().map(|o| start + o.every()).collect();
    loop {
        let next = due.iter().min().copied().unwrap_or(start);
        let now = Instant::now();
        if next > now {
            std::thread::park_timeout(next - now);
        }
        if done.load(Ordering::Relaxed) {
            break;
        }
        let now = Instant::now();
        if due.iter().all(|d| *d > now) {
            continue;
        }
        let workers = workers_of(ctl);
        let sample = sample_of(ctl, &workers);
        for (o, d) in observers.iter_mut().zip(due.iter_mut()) {
            if *d <= now {
                o.sample(&sample);
                *d += o.every();
                if *d <= now {
                    // Fell behind (a slow terminal): next due one period from now.
                    *d = now + o.every();
                }
            }
        }
    }
    let workers = workers_of(ctl);
    let last = sample_of(ctl, &workers);
    for o in &mut observers {
        o.end(&last);
    }
}

fn workers_of(ctl: &RunCtl) -> Vec<Arc<WorkerProgress>> {
    ctl.workers.lock().map(|w| w.clone()).unwrap_or_default()
}

fn sample_of<'a>(ctl: &RunCtl, workers: &'a [Arc<WorkerProgress>]) -> Sample<'a> {
    Sample {
        workers,
        layout_bytes: ctl.layout_bytes.load(Ordering::Relaxed),
        now_ns: iomark_engine::sys::now_ns(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    struct Count(Arc<Mutex<(u32, bool)>>, Duration);

    impl Observer for Count {
        fn every(&self) -> Duration {
            self.1
        }
        fn sample(&mut self, _: &Sample) {
            self.0.lock().unwrap().0 += 1;
        }
        fn end(&mut self, _: &Sample) {
            self.0.lock().unwrap().1 = true;
        }
    }

    /// Every observer ends when the source stops, even one that was never due.
    #[test]
    fn stop_ends_every_observer_at_once() {
        let ctl = Arc::new(RunCtl::quiet());
        let fast = Arc::new(Mutex::new((0, false)));
        let slow = Arc::new(Mutex::new((0, false)));
        let p = Progress::start(
            ctl,
            vec![
                Box::new(Count(fast.clone(), Duration::from_millis(1))),
                Box::new(Count(slow.clone(), Duration::from_secs(3600))),
            ],
        );
        while fast.lock().unwrap().0 < 3 {
            std::thread::sleep(Duration::from_millis(1));
        }
        p.stop();
        assert!(fast.lock().unwrap().1);
        assert_eq!(*slow.lock().unwrap(), (0, true));
    }
}
