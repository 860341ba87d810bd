//! Stop flags per job clone: a run-wide stop (a signal, a failed gate) reaches every clone, and
//! a finishing job that stops others ([`JobSpec::exitall`]) reaches those of its
//! [`ExitScope`]. Each worker reads only its own flag on its hot path.

use crate::job::{ExitScope, JobSpec};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

/// How often the run-wide stop is copied to the clones' flags.
const POLL: Duration = Duration::from_millis(5);

/// One flag per clone, with its reporting group, its section (the clones released together:
/// from one stonewall to the next) and whether its section has been released.
pub(super) struct Stops {
    flags: Vec<Arc<AtomicBool>>,
    started: Vec<AtomicBool>,
    groups: Vec<u32>,
    sections: Vec<u32>,
    run: Arc<AtomicBool>,
}

impl Stops {
    /// Flags for clones in reporting groups `groups` and sections `sections`, under the
    /// run-wide flag `run`.
    pub(super) fn new(groups: Vec<u32>, sections: Vec<u32>, run: Arc<AtomicBool>) -> Arc<Stops> {
        Arc::new(Stops {
            flags: groups
                .iter()
                .map(|_| Arc::new(AtomicBool::new(false)))
                .collect(),
            started: groups.iter().map(|_| AtomicBool::new(false)).collect(),
            groups,
            sections,
            run,
        })
    }

    /// The flag clone `unit` stops on.
    pub(super) fn flag(&self, unit: usize) -> Arc<AtomicBool> {
        self.flags[unit].clone()
    }

    /// The clones of `section` are released: from now on they count as running.
    pub(super) fn release(&self, section: u32) {
        for (s, _) in self
            .started
            .iter()
            .zip(&self.sections)
            .filter(|(_, &o)| o == section)
        {
            s.store(true, Ordering::Relaxed);
        }
    }

    /// Clone `unit` of `job` has finished (`failed`: with an error): stop what its job asks
    /// to stop.
    pub(super) fn finished(&self, unit: usize, job: &JobSpec, failed: bool) {
        if !(job.exitall || (job.exit_on_error && failed)) {
            return;
        }
        match job.exit_scope {
            ExitScope::All => {
                self.run.store(true, Ordering::Relaxed);
                self.stop_all();
            }
            ExitScope::Group => {
                let g = self.groups[unit];
                for (f, _) in self.flags.iter().zip(&self.groups).filter(|(_, &o)| o == g) {
                    f.store(true, Ordering::Relaxed);
                }
            }
            ExitScope::Running => {
                for (f, s) in self.flags.iter().zip(&self.started) {
                    if s.load(Ordering::Relaxed) {
                        f.store(true, Ordering::Relaxed);
                    }
                }
            }
        }
    }

    fn stop_all(&self) {
        for f in &self.flags {
            f.store(true, Ordering::Relaxed);
        }
    }

    /// Copy the run-wide stop to every clone until the returned watch is dropped (which ends
    /// the thread at once: it waits on a channel that the drop closes).
    pub(super) fn watch(self: &Arc<Self>) -> Watch {
        let me = self.clone();
        let (done, until) = mpsc::channel::<()>();
        let handle = std::thread::spawn(move || {
            while let Err(RecvTimeoutError::Timeout) = until.recv_timeout(POLL) {
                if me.run.load(Ordering::Relaxed) {
                    me.stop_all();
                }
            }
        });
        Watch {
            done: Some(done),
            handle: Some(handle),
        }
    }
}

/// The thread copying the run-wide stop to the clones; it ends when dropped.
pub(super) struct Watch {
    done: Option<mpsc::Sender<()>>,
    handle: Option<JoinHandle<()>>,
}

impl Drop for Watch {
    fn drop(&mut self) {
        // Closing the channel wakes the thread, which then ends.
        self.done.take();
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exiting(scope: ExitScope) -> JobSpec {
        JobSpec {
            exitall: true,
            exit_scope: scope,
            ..JobSpec::default()
        }
    }

    fn set(s: &Stops) -> Vec<bool> {
        s.flags.iter().map(|f| f.load(Ordering::Relaxed)).collect()
    }

    #[test]
    fn each_scope_stops_its_clones() {
        let run = Arc::new(AtomicBool::new(false));
        // Clones 0 and 1 in group 0, clone 2 in group 1 (running beside them), clone 3 in
        // group 2 (after a stonewall, not yet released).
        let s = Stops::new(vec![0, 0, 1, 2], vec![0, 0, 0, 1], run.clone());
        s.release(0);
        s.finished(0, &JobSpec::default(), false);
        assert_eq!(set(&s), [false; 4]);
        s.finished(0, &exiting(ExitScope::Group), false);
        assert_eq!(set(&s), [true, true, false, false]);
        let s = Stops::new(vec![0, 0, 1, 2], vec![0, 0, 0, 1], run.clone());
        s.release(0);
        s.finished(0, &exiting(ExitScope::Running), false);
        assert_eq!(set(&s), [true, true, true, false]);
        assert!(!run.load(Ordering::Relaxed));
        s.finished(0, &exiting(ExitScope::All), false);
        assert_eq!(set(&s), [true; 4]);
        assert!(run.load(Ordering::Relaxed));
    }

    #[test]
    fn a_job_stopping_others_on_error_does_so_only_when_it_failed() {
        let run = Arc::new(AtomicBool::new(false));
        let s = Stops::new(vec![0, 0], vec![0, 0], run);
        s.release(0);
        let job = JobSpec {
            exit_on_error: true,
            ..JobSpec::default()
        };
        s.finished(0, &job, false);
        assert_eq!(set(&s), [false, false]);
        s.finished(0, &job, true);
        assert_eq!(set(&s), [true, true]);
    }

    #[test]
    fn the_run_wide_stop_reaches_every_clone() {
        let run = Arc::new(AtomicBool::new(false));
        let s = Stops::new(vec![0, 1], vec![0, 1], run.clone());
        let w = s.watch();
        run.store(true, Ordering::Relaxed);
        while set(&s) != [true, true] {
            std::thread::sleep(POLL);
        }
        drop(w);
    }
}
