//! The loop every rank other than 0 runs while its part of a session is under way: it passes
//! its run thread's news on to rank 0, takes rank 0's words, beats while it still has work to
//! send, and ends the launch when rank 0 falls silent for longer than the timeout. What the
//! news and the words mean is the [`Follower`]'s (a whole plan's run, or iozone's passes).

use super::refusal::Refusal;
use super::session::{decode_u32, Event, Outcome, Session};
use super::transport::{Kind, Received, Transport};
use iomark_engine::result::RunResult;
use iomark_engine::runner::RunCtl;
use iomark_engine::RunPlan;
use std::sync::atomic::Ordering;
use std::sync::mpsc::{Receiver, Sender};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// One kind of work a rank other than 0 does in a session.
pub(crate) trait Follower<T> {
    /// What the rank's part ends with.
    type Outcome;
    /// Passes this rank's own news on to rank 0; true once all its work is sent (it beats no
    /// more: rank 0 no longer listens for it).
    fn own(&mut self, s: &mut Session<T>) -> bool;
    /// Rank 0's word `m` (any but [`Kind::Done`]).
    fn heard(&mut self, s: &mut Session<T>, m: Received);
    /// Rank 0 ended the session (the sends under way are completed).
    fn done(self, s: &mut Session<T>) -> Self::Outcome;
}

impl<T: Transport> Session<T> {
    /// Runs `f` as a rank other than 0 until rank 0 says the session is over.
    pub(crate) fn follow_with<F: Follower<T>>(&mut self, mut f: F) -> F::Outcome {
        let mut last_seen = Instant::now();
        let mut next_beat = Instant::now() + self.beat_every();
        loop {
            let sent = f.own(self);
            let mut got = false;
            while let Some(m) = self.link.recv() {
                got = true;
                if m.from != 0 {
                    continue;
                }
                last_seen = Instant::now();
                if m.kind == Kind::Done {
                    self.drain();
                    return f.done(self);
                }
                f.heard(self, m);
            }
            if !sent && Instant::now() >= next_beat {
                self.link.send(0, Kind::Beat, Vec::new());
                next_beat = Instant::now() + self.beat_every();
            }
            if last_seen.elapsed() > self.timeout {
                self.lost();
            }
            if !got {
                std::thread::sleep(Duration::from_millis(1));
            }
        }
    }
}

impl<T: Transport> Session<T> {
    /// A rank other than 0: the preflight, then the plan run as rank 0 says.
    pub(crate) fn follow(
        &mut self,
        plan: &RunPlan,
        refusal: Option<Refusal>,
        ctl: RunCtl,
    ) -> Outcome {
        if let Err(verdict) = self.follow_preflight(refusal) {
            return Outcome::Refused(verdict);
        }
        let (events, go, ctl) = self.start(plan, ctl);
        self.follow_with(Member {
            events,
            go,
            ctl,
            mine: None,
            stop: None,
            ready_for: None,
        })
    }
}

/// A rank other than 0 running the plan: its run thread's word, and what rank 0 said.
struct Member {
    events: Receiver<Event>,
    go: Sender<bool>,
    ctl: Arc<RunCtl>,
    /// This rank's result once its run ended (an empty one when it failed).
    mine: Option<Box<RunResult>>,
    /// Why rank 0 stopped the run, if it did.
    stop: Option<String>,
    /// The group this rank is ready for.
    ready_for: Option<usize>,
}

impl<T: Transport> Follower<T> for Member {
    type Outcome = Outcome;

    fn own(&mut self, s: &mut Session<T>) -> bool {
        while let Ok(e) = self.events.try_recv() {
            match e {
                Event::Ready(g) => {
                    s.ready(g);
                    self.ready_for = Some(g);
                    s.link
                        .send(0, Kind::Ready, (g as u32).to_le_bytes().to_vec())
                }
                Event::Done(Ok(r)) => {
                    match serde_json::to_vec(&r) {
                        Ok(b) => s.link.send(0, Kind::Result, b),
                        Err(e) => s.link.send(
                            0,
                            Kind::Failed,
                            format!("cannot encode its result: {e}").into_bytes(),
                        ),
                    }
                    self.mine = Some(r);
                }
                Event::Done(Err(m)) => {
                    s.link.send(0, Kind::Failed, m.to_string().into_bytes());
                    self.mine = Some(Box::default());
                }
            }
        }
        self.mine.is_some()
    }

    fn heard(&mut self, s: &mut Session<T>, m: Received) {
        match m.kind {
            Kind::Go => {
                let g = self.ready_for.take().unwrap_or_default();
                s.starts(g);
                let _ = self.go.send(decode_u32(&m.body) != 0);
            }
            Kind::Stop => {
                self.ctl.stop.store(true, Ordering::Relaxed);
                self.stop = Some(String::from_utf8_lossy(&m.body).into_owned());
            }
            _ => {}
        }
    }

    fn done(self, _: &mut Session<T>) -> Outcome {
        match (self.stop, self.mine) {
            (Some(s), _) => Outcome::Stopped(s),
            (None, Some(r)) => Outcome::Sent(r),
            (None, None) => Outcome::Stopped("rank 0 ended the run".into()),
        }
    }
}
