//! The loop every rank other than 0 runs while its part of a session is under way: it passes
//! its run thread's news on to rank 0, takes rank 0's words, beats while it still has work to
//! send, and ends the launch when rank 0 falls silent for longer than the timeout. What the
//! news and the words mean is the [`Follower`]'s (a whole plan's run, or iozone's passes).

use super::session::Session;
use super::transport::{Kind, Received, Transport};
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
