//! quick's live view on a terminal: while the test file is written, a layout progress bar;
//! then the running test by name and direction, "test i of n", its rates and the ETA of the
//! whole run (not of the one test). Drawn on stderr a few times a second, only on a TTY
//! (without one, quick prints a line per finished test instead).

use crate::progress::source::{Observer, Sample};
use crate::progress::status::{eta, Meter, TermLine};
use std::time::{Duration, Instant};

/// What the view knows of the run before it starts.
pub struct Plan {
    /// The tests in run order, as the table names them ("SEQ1M Q8T1 read").
    pub tests: Vec<String>,
    /// Warm-up plus measured time of one test.
    pub per_test: Duration,
    /// Bytes of the temporary file to lay out (0: an existing target, nothing to write).
    pub layout_bytes: u64,
}

/// `[#######.............]` with `width` cells for `done` of `total`.
pub fn bar(done: u64, total: u64, width: usize) -> String {
    let filled = if total == 0 {
        0
    } else {
        ((done.min(total) as u128 * width as u128) / total as u128) as usize
    };
    format!("[{}{}]", "#".repeat(filled), ".".repeat(width - filled))
}

/// The layout line: `laying out the test file [####....] 40% (410 of 1024 MiB)`.
pub fn layout_line(done: u64, total: u64) -> String {
    let pct = if total == 0 {
        0.0
    } else {
        done.min(total) as f64 * 100.0 / total as f64
    };
    format!(
        "iomark quick: laying out the test file {} {pct:.0}% ({} of {} MiB)",
        bar(done, total, 20),
        done.min(total) >> 20,
        total >> 20
    )
}

/// The line of a running test: `test 3 of 8: SEQ1M Q1T1 read [r=...][... IOPS][37.5%][eta 00m:31s]`.
/// `i` counts from 1; `in_test` is the time since the test started; the ETA covers every test
/// still to run.
pub fn test_line(plan: &Plan, i: usize, in_test: Duration, rates: &str) -> String {
    let n = plan.tests.len().max(1);
    let per = plan.per_test.as_secs_f64();
    let left_here = (per - in_test.as_secs_f64()).max(0.0);
    let left = left_here + per * n.saturating_sub(i) as f64;
    let total = per * n as f64;
    let pct = if total > 0.0 {
        ((total - left) / total * 100.0).clamp(0.0, 100.0)
    } else {
        0.0
    };
    let name = plan.tests.get(i - 1).map(String::as_str).unwrap_or("?");
    format!(
        "iomark quick: test {i} of {n}: {name} {rates}[{pct:.1}%][eta {}]",
        eta(left.ceil() as u64)
    )
}

/// The live view: a layout bar, then the running test; cleared at the end.
pub struct LiveView {
    plan: Plan,
    meter: Meter,
    /// How many tests have started.
    current: usize,
    since: Instant,
    line: TermLine,
}

impl LiveView {
    /// A file to lay out shows its bar at once (drawn before this returns), so even a short
    /// layout is seen.
    pub fn new(plan: Plan) -> LiveView {
        let mut line = TermLine::default();
        if plan.layout_bytes > 0 {
            line.draw(&layout_line(0, plan.layout_bytes));
        }
        LiveView {
            plan,
            meter: Meter::default(),
            current: 0,
            since: Instant::now(),
            line,
        }
    }
}

impl Observer for LiveView {
    fn every(&self) -> Duration {
        Duration::from_millis(250)
    }

    fn sample(&mut self, s: &Sample) {
        let line = match s.workers.last() {
            None => {
                if self.plan.layout_bytes == 0 {
                    return;
                }
                layout_line(s.layout_bytes, self.plan.layout_bytes)
            }
            Some(w) => {
                if s.workers.len() != self.current {
                    self.current = s.workers.len();
                    self.since = Instant::now();
                    self.meter = Meter::default();
                }
                self.meter.read(w, s.now_ns, !w.state().finished());
                test_line(
                    &self.plan,
                    self.current,
                    self.since.elapsed(),
                    &self.meter.fields(),
                )
            }
        };
        self.line.draw(&line);
    }

    fn end(&mut self, _: &Sample) {
        self.line.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan() -> Plan {
        Plan {
            tests: ["SEQ1M Q8T1 read", "SEQ1M Q8T1 write", "RND4K Q1T1 read"]
                .map(String::from)
                .to_vec(),
            per_test: Duration::from_secs(6),
            layout_bytes: 1 << 30,
        }
    }

    #[test]
    fn the_layout_bar_fills_with_the_bytes_written() {
        assert_eq!(bar(0, 100, 10), "[..........]");
        assert_eq!(bar(50, 100, 10), "[#####.....]");
        assert_eq!(bar(200, 100, 10), "[##########]");
        assert_eq!(
            layout_line(512 << 20, 1 << 30),
            "iomark quick: laying out the test file [##########..........] 50% (512 of 1024 MiB)"
        );
    }

    #[test]
    fn the_eta_covers_the_tests_still_to_run() {
        let p = plan();
        // Second of three tests, 2 s in: 4 s left here and 6 s for the third.
        let l = test_line(&p, 2, Duration::from_secs(2), "[w=1.0MiB/s][w=256 IOPS]");
        assert_eq!(
            l,
            "iomark quick: test 2 of 3: SEQ1M Q8T1 write [w=1.0MiB/s][w=256 IOPS][44.4%][eta 00m:10s]"
        );
        // During the warm-up of the first test the ETA is the whole run, not zero.
        let l = test_line(&p, 1, Duration::ZERO, "");
        assert!(l.ends_with("[0.0%][eta 00m:18s]"), "{l}");
        // A test running over its time never makes the ETA negative.
        let l = test_line(&p, 3, Duration::from_secs(9), "");
        assert!(l.ends_with("[100.0%][eta 00m:00s]"), "{l}");
    }
}
