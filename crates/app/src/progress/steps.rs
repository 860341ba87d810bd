//! The step line of a long command on a terminal: which step of how many it is at (a preset's
//! job, a sweep's point, a repetition, bonnie's test, iozone's cell, blogbench's run, dd's
//! copy), the live rate, the time elapsed and the ETA, redrawn on one line of stderr. It is an
//! observer of the one progress source; the command says where it is through a [`Level`].
//!
//! Shown only when stderr is a terminal, so the output of the classic tools' front ends reaches
//! a script unchanged; `--progress` draws it anyway, `--no-progress` never.

use super::source::{Observer, Sample};
use super::status::{clear_line, done_and_left, eta, rate, stderr_is_tty, TermLine};
use iomark_engine::runner::steps::{Step as EngineStep, StepOutcome};
use iomark_engine::runner::{RunCtl, WorkerProgress};
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const AUTO: u8 = 0;
const ON: u8 = 1;
const OFF: u8 = 2;

static MODE: AtomicU8 = AtomicU8::new(AUTO);

/// Where a command is: one entry per nested level (a repetition, then a job of the preset).
static LEVELS: Mutex<Vec<Step>> = Mutex::new(Vec::new());

fn levels() -> std::sync::MutexGuard<'static, Vec<Step>> {
    LEVELS.lock().unwrap_or_else(|p| p.into_inner())
}

/// One level: `what` `i` of `n`, named.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    pub what: &'static str,
    /// 1-based; 0 while the level is counted from the run's jobs.
    pub i: usize,
    pub n: usize,
    pub name: String,
    /// The position is the run's job being worked on (its workers), not set by the command.
    pub by_jobs: bool,
}

/// The two switches, for the manual page.
pub const SWITCHES: [(&str, &str); 2] = [
    (
        "--progress",
        "draw the progress line (step i of n, rate, elapsed time, ETA) on stderr even when stderr is not a terminal",
    ),
    (
        "--no-progress",
        "never draw the progress line (by default it is drawn only when stderr is a terminal)",
    ),
];

/// Takes `--progress` and `--no-progress` out of a command line (the last one given wins).
pub fn take(args: Vec<String>) -> Vec<String> {
    let mut rest = Vec::with_capacity(args.len());
    let mut past_end = false;
    for a in args {
        match a.as_str() {
            "--" => {
                past_end = true;
                rest.push(a);
            }
            "--progress" if !past_end => MODE.store(ON, Ordering::Relaxed),
            "--no-progress" if !past_end => MODE.store(OFF, Ordering::Relaxed),
            _ => rest.push(a),
        }
    }
    rest
}

/// Whether the step line is drawn in this process.
pub fn shown() -> bool {
    match MODE.load(Ordering::Relaxed) {
        ON => true,
        OFF => false,
        _ => stderr_is_tty(),
    }
}

/// Clear the step line (when drawn) before a line of the tool's own output reaches the same
/// terminal; the next sample draws it again below.
pub fn before_output() {
    if shown() && !current().is_empty() {
        clear_line();
    }
}

/// A level of the step line, removed when dropped.
pub struct Level {
    depth: usize,
}

/// Enter a level of `n` steps of `what` (`"job"`, `"repetition"`), at none yet.
pub fn enter(what: &'static str, n: usize) -> Level {
    push(Step {
        what,
        i: 0,
        n,
        name: String::new(),
        by_jobs: false,
    })
}

/// Enter a level whose position is the run's job being worked on (a preset's jobs, a sweep's
/// points): the job's name and its index among the `n` jobs come from the workers.
pub fn by_jobs(what: &'static str, n: usize) -> Level {
    push(Step {
        what,
        i: 0,
        n,
        name: String::new(),
        by_jobs: true,
    })
}

fn push(s: Step) -> Level {
    let mut l = levels();
    l.push(s);
    Level { depth: l.len() - 1 }
}

impl Level {
    /// The command is now at step `i` (1-based) named `name`.
    pub fn at(&self, i: usize, name: &str) {
        if let Some(s) = levels().get_mut(self.depth) {
            s.i = if s.n > 0 { i.min(s.n) } else { i };
            s.name = name.to_string();
        }
    }
}

impl Drop for Level {
    fn drop(&mut self) {
        levels().truncate(self.depth);
    }
}

/// An engine step that moves its level to `i` named `name` when it starts (bonnie's tests).
pub struct Labelled<'a> {
    pub inner: &'a mut dyn EngineStep,
    pub level: &'a Level,
    pub i: usize,
    pub name: String,
}

impl EngineStep for Labelled<'_> {
    fn run(&mut self, ctl: &RunCtl) -> StepOutcome {
        self.level.at(self.i, &self.name);
        self.inner.run(ctl)
    }
    fn plan(&self) -> Option<&iomark_engine::RunPlan> {
        self.inner.plan()
    }
}

/// The levels entered now.
pub fn current() -> Vec<Step> {
    levels().clone()
}

/// What the workers say of the run: the job being worked on (1-based among the distinct job
/// names started so far), its name, its share done, the bytes moved.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Live {
    pub job: usize,
    pub name: String,
    pub done: f64,
    pub bytes: u64,
}

/// Reads `workers` (in the order they started).
pub fn live(workers: &[Arc<WorkerProgress>]) -> Live {
    let mut names: Vec<&str> = Vec::new();
    let mut out = Live::default();
    for w in workers {
        if !names.contains(&w.name.as_str()) {
            names.push(&w.name);
        }
        let b: u64 = w.bytes.iter().map(|x| x.load(Ordering::Relaxed)).sum();
        out.bytes += b;
    }
    if let Some(w) = workers.last() {
        let b: u64 = w.bytes.iter().map(|x| x.load(Ordering::Relaxed)).sum();
        out.job = names.len();
        out.name = w.name.clone();
        out.done = done_and_left(w, b).0;
    }
    out
}

/// The share of the whole command done (0 to 1), from the outermost level in: each level's
/// finished steps, plus the share of the step under way.
pub fn share_done(levels: &[Step], live: &Live) -> Option<f64> {
    let mut share = live.done.clamp(0.0, 1.0);
    let mut any = false;
    for s in levels.iter().rev() {
        let i = if s.by_jobs { live.job } else { s.i };
        if s.n == 0 || i == 0 {
            return None;
        }
        share = ((i - 1) as f64 + share) / s.n as f64;
        any = true;
    }
    any.then_some(share.clamp(0.0, 1.0))
}

/// The line: `iomark preset: job 2/5 seq-write · 412MiB/s · 1.2GiB · 00m:12s elapsed, ETA 00m:40s`.
pub fn text(tool: &str, levels: &[Step], live: &Live, bw: f64, elapsed: Duration) -> String {
    let mut parts = Vec::new();
    for s in levels {
        if s.by_jobs && s.n == 1 {
            // One job: its share done gives the ETA; "1/1" says nothing.
            continue;
        }
        let (i, name) = if s.by_jobs {
            (live.job.min(s.n), live.name.as_str())
        } else {
            (s.i, s.name.as_str())
        };
        let mut p = format!("{} {i}/{}", s.what, s.n);
        if !name.is_empty() {
            p.push(' ');
            p.push_str(name);
        }
        parts.push(p);
    }
    if bw > 0.0 {
        parts.push(rate(bw));
    }
    if live.bytes > 0 {
        parts.push(bytes(live.bytes));
    }
    let secs = elapsed.as_secs();
    let mut t = format!("{} elapsed", eta(secs));
    if let Some(f) = share_done(levels, live).filter(|f| *f > 0.01) {
        let left = (elapsed.as_secs_f64() * (1.0 - f) / f).round() as u64;
        t.push_str(&format!(", ETA {}", eta(left)));
    }
    parts.push(t);
    format!("iomark {tool}: {}", parts.join(" · "))
}

fn bytes(b: u64) -> String {
    let units = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut v = b as f64;
    let mut i = 0;
    while v >= 1024.0 && i < units.len() - 1 {
        v /= 1024.0;
        i += 1;
    }
    if i == 0 {
        format!("{b}B")
    } else {
        format!("{v:.1}{}", units[i])
    }
}

/// The observer that draws the step line.
pub struct StepLine {
    tool: String,
    start: Instant,
    last: Option<(u64, u64)>,
    bw: f64,
    line: TermLine,
}

impl StepLine {
    pub fn new(tool: &str) -> StepLine {
        StepLine {
            tool: tool.to_string(),
            start: Instant::now(),
            last: None,
            bw: 0.0,
            line: TermLine::default(),
        }
    }
}

impl Observer for StepLine {
    fn every(&self) -> Duration {
        Duration::from_millis(500)
    }

    fn sample(&mut self, s: &Sample) {
        let live = live(s.workers);
        let moved = live.bytes + s.layout_bytes;
        if let Some((ns, b)) = self.last {
            if s.now_ns > ns {
                self.bw = moved.saturating_sub(b) as f64 * 1e9 / (s.now_ns - ns) as f64;
            }
        }
        self.last = Some((s.now_ns, moved));
        self.line.draw(&text(
            &self.tool,
            &current(),
            &live,
            self.bw,
            self.start.elapsed(),
        ));
    }

    fn end(&mut self, _: &Sample) {
        self.line.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(what: &'static str, i: usize, n: usize, name: &str, by_jobs: bool) -> Step {
        Step {
            what,
            i,
            n,
            name: name.into(),
            by_jobs,
        }
    }

    #[test]
    fn the_line_names_each_level_and_the_eta_follows_the_share_done() {
        let levels = [
            step("repetition", 2, 3, "", false),
            step("job", 0, 4, "", true),
        ];
        let live = Live {
            job: 3,
            name: "seq-read".into(),
            done: 0.5,
            bytes: 3 << 30,
        };
        // (1 + (2 + 0.5) / 4) / 3 = 0.541666...
        let f = share_done(&levels, &live).unwrap();
        assert!((f - 1.625 / 3.0).abs() < 1e-9, "{f}");
        let t = text(
            "preset",
            &levels,
            &live,
            100.0 * 1048576.0,
            Duration::from_secs(65),
        );
        assert_eq!(
            t,
            "iomark preset: repetition 2/3 · job 3/4 seq-read · 100MiB/s · 3.0GiB · 01m:05s elapsed, ETA 00m:55s"
        );
    }

    #[test]
    fn no_eta_before_a_step_is_known() {
        let levels = [step("test", 0, 6, "", false)];
        assert_eq!(share_done(&levels, &Live::default()), None);
        let t = text("bonnie", &levels, &Live::default(), 0.0, Duration::ZERO);
        assert_eq!(t, "iomark bonnie: test 0/6 · 00m:00s elapsed");
        assert_eq!(share_done(&[], &Live::default()), None);
    }

    /// One test for the process-wide state: levels nest and leave with their guards; the
    /// switches are taken out of the command line, the last one winning, none after `--`.
    #[test]
    fn levels_nest_and_switches_are_taken() {
        {
            let outer = enter("repetition", 2);
            outer.at(1, "");
            {
                let inner = enter("cell", 10);
                inner.at(4, "64k/4k write");
                let c = current();
                assert_eq!(c.len(), 2);
                assert_eq!(c[1], step("cell", 4, 10, "64k/4k write", false));
            }
            assert_eq!(current(), vec![step("repetition", 1, 2, "", false)]);
        }
        assert!(current().is_empty());
        let v = |s: &[&str]| s.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        let rest = take(v(&[
            "dd",
            "--progress",
            "if=a",
            "--no-progress",
            "--",
            "--progress",
        ]));
        assert_eq!(rest, v(&["dd", "if=a", "--", "--progress"]));
        assert!(!shown());
        take(v(&["--progress"]));
        assert!(shown());
        MODE.store(AUTO, Ordering::Relaxed);
    }
}
