//! One plan run by every rank at once: the preflight (every rank checks the plan on its own
//! targets; if any refuses, all stop before any I/O), a barrier before each group of jobs
//! (stonewall) so that all ranks start it together, and the gather of every rank's whole result
//! on rank 0. Every wait has a deadline: a rank silent for longer than the timeout (or still
//! running a time-bounded group that long past its expected end) ends the run with a message
//! naming it and its host, on every rank, through the transport's abort (MPI_Abort under MPI).

use super::refusal::Refusal;
use super::transport::{Kind, Received, Transport};
use iomark_engine::cluster::RankResult;
use iomark_engine::result::RunResult;
use iomark_engine::runner::{self, RunCtl};
use iomark_engine::RunPlan;
use std::sync::atomic::Ordering;
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How a session ended on this rank.
pub enum Outcome {
    /// Rank 0: every rank's result, in rank order.
    Gathered(Vec<RankResult>),
    /// Another rank: its own result went to rank 0.
    Sent(Box<RunResult>),
    /// A rank refused the plan: every rank stopped before any I/O, with the verdict (on rank 0
    /// the caller says it on stderr) and its exit status.
    Refused(Refusal),
    /// The run stopped under way; on rank 0 the message names the rank and host (the caller
    /// says it on stderr).
    Stopped(String),
}

/// What the run thread tells the main thread (which alone speaks MPI).
pub(crate) enum Event {
    Ready(usize),
    Done(anyhow::Result<Box<RunResult>>),
}

/// The ranks of the launch and how long one may stay silent.
pub struct Session<T> {
    pub link: T,
    pub host: String,
    pub timeout: Duration,
    pub verbose: bool,
}

/// "rank R on HOST", or that its host is unknown.
pub(crate) fn name(hosts: &[Option<String>], r: usize) -> String {
    match &hosts[r] {
        Some(h) => format!("rank {r} on {h}"),
        None => format!("rank {r} (host unknown: it never answered)"),
    }
}

/// Per group of the plan: how long its jobs run at most (ramp, runtime and start delay), when
/// every job of it has a runtime; `None` when a job runs until its size is done.
fn group_bounds(plan: &RunPlan) -> Vec<Option<Duration>> {
    let mut out: Vec<Option<Duration>> = Vec::new();
    for (i, j) in plan.jobs.iter().enumerate().filter(|(_, j)| j.numjobs > 0) {
        if i == 0 || j.stonewall || out.is_empty() {
            out.push(Some(Duration::ZERO));
        }
        let b = j.runtime.map(|r| j.ramp_time + r + j.startdelay.1);
        let last = out.last_mut().expect("a group");
        *last = match (*last, b) {
            (Some(a), Some(b)) => Some(a.max(b)),
            _ => None,
        };
    }
    out
}

impl<T: Transport> Session<T> {
    pub(crate) fn beat_every(&self) -> Duration {
        (self.timeout / 4).clamp(Duration::from_millis(50), Duration::from_secs(1))
    }

    /// Rank 0: a beat to every other rank of `n` when one is due at `next` (then due again a
    /// beat later), so ranks that wait know rank 0 is alive.
    pub(crate) fn beat_others(&mut self, next: &mut Instant, n: usize) {
        if Instant::now() >= *next {
            for r in 1..n {
                self.link.send(r, Kind::Beat, Vec::new());
            }
            *next = Instant::now() + self.beat_every();
        }
    }

    pub(crate) fn say(&self, m: &str) {
        if self.verbose {
            line(&format!(
                "iomark: rank {} ({}): {m}",
                self.link.rank(),
                self.host
            ));
        }
    }

    /// Says (verbose) when this rank starts group `g`, in Unix time in nanoseconds: the spread
    /// over the ranks shows how well the barrier holds.
    pub(crate) fn starts(&self, g: usize) {
        self.say(&format!("starts group {g} at {}", unix_ns()));
    }

    /// Says (verbose) when this rank is ready for group `g` (its files laid out, the group
    /// before done): no rank starts a group before every rank is ready for it.
    pub(crate) fn ready(&self, g: usize) {
        self.say(&format!("ready for group {g} at {}", unix_ns()));
    }

    /// Ends the whole launch: the message on stderr, then MPI_Abort (every rank is killed).
    pub(crate) fn abort(&self, message: &str) -> ! {
        line(&format!("iomark: {message}"));
        self.link.abort(1)
    }

    /// Runs `plan` on every rank. `refusal` is this rank's reason not to run it (the checks of
    /// a local run, done by the caller). `ctl` is the caller's control of the run.
    pub fn run(&mut self, plan: &RunPlan, refusal: Option<Refusal>, ctl: RunCtl) -> Outcome {
        if self.link.rank() == 0 {
            self.lead(plan, refusal, ctl)
        } else {
            self.follow(plan, refusal, ctl)
        }
    }

    /// Starts the plan on a thread of its own; the gate waits for the main thread's word.
    pub(crate) fn start(
        &self,
        plan: &RunPlan,
        ctl: RunCtl,
    ) -> (Receiver<Event>, Sender<bool>, Arc<RunCtl>) {
        let (ev_tx, ev_rx) = channel::<Event>();
        let (go_tx, go_rx) = channel::<bool>();
        let go_rx = Mutex::new(go_rx);
        let ready = ev_tx.clone();
        let ctl = Arc::new(ctl.with_group_gate(move |g| {
            if ready.send(Event::Ready(g)).is_err() {
                return false;
            }
            go_rx.lock().unwrap().recv().unwrap_or(false)
        }));
        let (p, c) = (plan.clone(), ctl.clone());
        std::thread::spawn(move || {
            let r = runner::run(&p, &c)
                .map(|mut r| {
                    // A signal to this rank marks its result (and so the merged one).
                    r.interrupted |= crate::session::signals::interrupted();
                    Box::new(r)
                })
                .map_err(|e| anyhow::Error::msg(iomark_fio::explain::run_error(&e)));
            let _ = ev_tx.send(Event::Done(r));
        });
        (ev_rx, go_tx, ctl)
    }

    /// Rank 0: the preflight, then turns of listening to the run thread and the other ranks,
    /// releasing each group when all are ready and watching the deadlines, until every rank's
    /// result is in.
    fn lead(&mut self, plan: &RunPlan, refusal: Option<Refusal>, ctl: RunCtl) -> Outcome {
        let hosts = match self.lead_preflight(refusal) {
            Ok(h) => h,
            Err(verdict) => return Outcome::Refused(verdict),
        };
        let mut lead = Lead::start(self, plan, hosts, ctl);
        loop {
            lead.own_events();
            let got = lead.messages();
            lead.release_next_group();
            if lead.all_in() {
                break;
            }
            lead.beat();
            lead.check_deadlines();
            if !got {
                std::thread::sleep(Duration::from_millis(1));
            }
        }
        lead.gather()
    }

    /// Waits (bounded) for the sends under way to complete.
    pub(crate) fn drain(&mut self) {
        let until = Instant::now() + self.timeout;
        while self.link.sending() > 0 {
            if Instant::now() > until {
                self.abort(&format!(
                    "rank {} on {}: messages to other ranks were not taken within {:?}",
                    self.link.rank(),
                    self.host,
                    self.timeout
                ));
            }
            self.link.progress();
            std::thread::sleep(Duration::from_millis(1));
        }
    }
}

/// Rank 0's side of a session under way: what every rank said, and the group running.
struct Lead<'s, T> {
    s: &'s mut Session<T>,
    /// The ranks of the launch.
    n: usize,
    /// Every rank's host, from the preflight.
    hosts: Vec<Option<String>>,
    /// Per group, how long it runs at most ([`group_bounds`]).
    bounds: Vec<Option<Duration>>,
    /// The run thread's word, and the word to it at each gate.
    events: Receiver<Event>,
    go: Sender<bool>,
    /// This rank's run, stopped when any rank fails.
    ctl: Arc<RunCtl>,
    /// When each rank was last heard from.
    last_seen: Vec<Instant>,
    next_beat: Instant,
    /// The group each rank is ready for.
    ready: Vec<Option<usize>>,
    /// Each rank's result once in (an empty one for a rank that failed).
    results: Vec<Option<RunResult>>,
    /// The size of each rank's result as sent, and the time spent decoding them all.
    sizes: Vec<usize>,
    decoding: Duration,
    /// The first failure of any rank.
    failure: Option<String>,
    /// Every rank was told to stop.
    stopped: bool,
    /// The group running and when it must be over (time-bounded groups).
    group: Option<(usize, Option<Instant>)>,
    /// When this rank's own run ended.
    own_done_at: Option<Instant>,
}

impl<'s, T: Transport> Lead<'s, T> {
    /// Starts the plan on rank 0's run thread, with nothing heard yet from the other ranks.
    fn start(
        s: &'s mut Session<T>,
        plan: &RunPlan,
        hosts: Vec<Option<String>>,
        ctl: RunCtl,
    ) -> Self {
        let n = s.link.size();
        let last_seen = vec![Instant::now(); n];
        let next_beat = Instant::now();
        let bounds = group_bounds(plan);
        let (events, go, ctl) = s.start(plan, ctl);
        Lead {
            s,
            n,
            hosts,
            bounds,
            events,
            go,
            ctl,
            last_seen,
            next_beat,
            ready: vec![None; n],
            results: vec![None; n],
            sizes: vec![0; n],
            decoding: Duration::ZERO,
            failure: None,
            stopped: false,
            group: None,
            own_done_at: None,
        }
    }

    /// Takes the run thread's word: ready for a group, or its result.
    fn own_events(&mut self) {
        while let Ok(e) = self.events.try_recv() {
            match e {
                Event::Ready(g) => {
                    self.s.ready(g);
                    self.ready[0] = Some(g);
                }
                Event::Done(Ok(r)) => {
                    self.own_done_at = Some(Instant::now());
                    if r.interrupted {
                        let why = format!("{} was interrupted", name(&self.hosts, 0));
                        self.stop_all(&why);
                    }
                    self.results[0] = Some(*r);
                }
                Event::Done(Err(m)) => {
                    let why = format!("{}: {m}", name(&self.hosts, 0));
                    self.failed(0, why);
                }
            }
        }
    }

    /// Takes the other ranks' words that have arrived; true when there was any.
    fn messages(&mut self) -> bool {
        let mut got = false;
        while let Some(Received { from, kind, body }) = self.s.link.recv() {
            got = true;
            self.last_seen[from] = Instant::now();
            match kind {
                Kind::Ready => self.ready[from] = Some(decode_u32(&body) as usize),
                Kind::Result => self.result_of(from, &body),
                Kind::Failed => {
                    let why = format!(
                        "{}: {}",
                        name(&self.hosts, from),
                        String::from_utf8_lossy(&body)
                    );
                    self.failed(from, why);
                }
                _ => {}
            }
        }
        got
    }

    /// Decodes the whole result rank `from` sent (the time it takes counted).
    fn result_of(&mut self, from: usize, body: &[u8]) {
        self.sizes[from] = body.len();
        let t = Instant::now();
        let decoded = serde_json::from_slice::<RunResult>(body);
        self.decoding += t.elapsed();
        match decoded {
            Ok(r) => {
                // One rank interrupted ends the run everywhere.
                if r.interrupted {
                    let why = format!("{} was interrupted", name(&self.hosts, from));
                    self.stop_all(&why);
                }
                self.results[from] = Some(r)
            }
            Err(e) => {
                let why = format!("{}: its result is unreadable: {e}", name(&self.hosts, from));
                self.failed(from, why);
            }
        }
    }

    /// Rank `r` failed: the first failure is kept, every rank is stopped, `r` counts as done.
    fn failed(&mut self, r: usize, why: String) {
        self.failure.get_or_insert(why.clone());
        self.stop_all(&why);
        self.results[r] = Some(RunResult::default());
    }

    /// Stops the run, once: this rank's, and the others' with a Stop saying why.
    fn stop_all(&mut self, why: &str) {
        if !self.stopped {
            self.stopped = true;
            self.ctl.stop.store(true, Ordering::Relaxed);
            for r in 1..self.n {
                self.s.link.send(r, Kind::Stop, why.as_bytes().to_vec());
            }
        }
    }

    /// Starts the next group when every rank still running is at its gate (the gates open
    /// only while no rank failed), with its deadline when it is time-bounded.
    fn release_next_group(&mut self) {
        let n = self.n;
        let next = self.group.map_or(0, |(g, _)| g + 1);
        let waiting = (0..n).all(|r| self.results[r].is_some() || self.ready[r] == Some(next));
        if !(waiting && (0..n).any(|r| self.ready[r] == Some(next))) {
            return;
        }
        let open = !self.stopped;
        for r in (1..n).filter(|&r| self.ready[r] == Some(next)) {
            self.s
                .link
                .send(r, Kind::Go, u32::from(open).to_le_bytes().to_vec());
        }
        if self.ready[0] == Some(next) {
            self.s.starts(next);
            let _ = self.go.send(open);
        }
        let end = self
            .bounds
            .get(next)
            .copied()
            .flatten()
            .map(|b| Instant::now() + b + self.s.timeout);
        self.s.say(&format!("group {next} starts"));
        self.group = Some((next, end));
    }

    /// Every rank's result is in.
    fn all_in(&self) -> bool {
        self.results.iter().all(Option::is_some)
    }

    /// Beats to every rank when one is due, also to those done (they wait for the end).
    fn beat(&mut self) {
        self.s.beat_others(&mut self.next_beat, self.n);
    }

    /// Ends the launch when a rank still running is silent, or late past a time-bounded
    /// group's end.
    fn check_deadlines(&self) {
        let timeout = self.s.timeout;
        for r in (0..self.n).filter(|&r| self.results[r].is_none()) {
            if r > 0 && self.last_seen[r].elapsed() > timeout {
                self.s.abort(&format!(
                    "{} stopped answering (nothing from it for {timeout:?}); the run is abandoned",
                    name(&self.hosts, r),
                ));
            }
            if let Some((g, Some(end))) = self.group {
                let past = self.ready[r].is_none_or(|x| x <= g);
                if past && Instant::now() > end {
                    self.s.abort(&format!(
                        "{} has not finished group {g} {timeout:?} past its expected end; the run is abandoned",
                        name(&self.hosts, r),
                    ));
                }
            }
        }
    }

    /// The end: Done to every rank, the sends completed, then every rank's result in rank
    /// order, or the first failure.
    fn gather(self) -> Outcome {
        let n = self.n;
        let gather = self.own_done_at.map(|t| t.elapsed());
        for r in 1..n {
            self.s.link.send(r, Kind::Done, Vec::new());
        }
        self.s.drain();
        self.s.say(&format!(
            "gathered the results of {} ranks: {} bytes in all, largest {} bytes; decoded in {:?}; the last came {:?} after rank 0's own end",
            n - 1,
            self.sizes.iter().sum::<usize>(),
            self.sizes.iter().max().unwrap_or(&0),
            self.decoding,
            gather.unwrap_or_default()
        ));
        if let Some(f) = self.failure {
            return Outcome::Stopped(f);
        }
        let hosts = self.hosts;
        Outcome::Gathered(
            self.results
                .into_iter()
                .enumerate()
                .map(|(rank, r)| RankResult {
                    rank,
                    host: hosts[rank].clone().unwrap_or_default(),
                    result: r.unwrap_or_default(),
                })
                .collect(),
        )
    }
}

/// One line on stderr in one write: the launcher forwards the ranks' stderr as it reads it, so
/// lines written in pieces would interleave with other ranks'.
pub(crate) fn line(text: &str) {
    use std::io::Write;
    let _ = std::io::stderr().write_all(format!("{text}\n").as_bytes());
}

pub(crate) fn unix_ns() -> u128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default()
        .as_nanos()
}

pub(crate) fn decode_u32(b: &[u8]) -> u32 {
    let mut a = [0u8; 4];
    for (d, s) in a.iter_mut().zip(b) {
        *d = *s;
    }
    u32::from_le_bytes(a)
}

#[cfg(test)]
mod tests {
    use super::*;
    use iomark_engine::job::JobSpec;

    #[test]
    fn groups_are_bounded_only_when_every_job_has_a_runtime() {
        let timed = |s: u64, stonewall: bool| JobSpec {
            runtime: Some(Duration::from_secs(s)),
            stonewall,
            ..Default::default()
        };
        let plan = RunPlan {
            jobs: vec![
                timed(5, false),
                timed(7, false),
                JobSpec {
                    stonewall: true,
                    ..Default::default()
                },
                timed(2, true),
            ],
            ..Default::default()
        };
        assert_eq!(
            group_bounds(&plan),
            vec![
                Some(Duration::from_secs(7)),
                None,
                Some(Duration::from_secs(2))
            ]
        );
    }
}
