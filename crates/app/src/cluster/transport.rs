//! How the ranks of a run of many speak to each other: numbered messages of a few kinds, every
//! rank to rank 0 and back (a star), never a blocking call. The session builds its preflight,
//! start gates, beats and gather of results on this alone, so the same session runs over MPI
//! (feature `mpi`) and over threads of one process ([`super::local`], which the tests use).

/// What a message says (its MPI tag under MPI).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Rank → 0: host name, and the refusal of the plan if any (preflight).
    Hello = 1,
    /// 0 → rank: empty to go, else why the run stops before any I/O.
    Verdict = 2,
    /// Rank → 0: ready to start group N (4 bytes).
    Ready = 3,
    /// 0 → rank: start group N now.
    Go = 4,
    /// Rank → 0: the rank's whole result.
    Result = 5,
    /// Rank → 0: the rank's run failed; the message says why.
    Failed = 6,
    /// 0 → rank: stop the run (another rank failed).
    Stop = 7,
    /// Either way: still here.
    Beat = 8,
    /// 0 → rank: every result is in; the session is over.
    Done = 9,
    /// Rank → 0: a child of pass N finished first here; 0 → rank: stop pass N (stonewall).
    Wall = 10,
    /// Rank → 0: its figures of pass N (4 bytes, then the figures).
    Figure = 11,
    /// Rank → 0: every pass is done and the files are cleaned.
    Finished = 12,
}

impl Kind {
    /// The kind a numbered tag stands for, if it is one of ours.
    pub fn from_tag(t: i32) -> Option<Kind> {
        use Kind::*;
        [
            Hello, Verdict, Ready, Go, Result, Failed, Stop, Beat, Done, Wall, Figure, Finished,
        ]
        .into_iter()
        .find(|k| *k as i32 == t)
    }
}

/// One received message.
pub struct Received {
    pub from: usize,
    pub kind: Kind,
    pub body: Vec<u8>,
}

/// The ranks of one launch as this rank sees them.
pub trait Transport {
    /// This rank's number, 0 for the rank that gathers.
    fn rank(&self) -> usize;
    /// How many ranks the launch has.
    fn size(&self) -> usize;
    /// Starts sending `body` to `to`; it completes while later calls poll.
    fn send(&mut self, to: usize, kind: Kind, body: Vec<u8>);
    /// Lets the sends under way move on.
    fn progress(&mut self);
    /// Sends not yet complete.
    fn sending(&self) -> usize;
    /// The next message that has arrived, if any (never waits).
    fn recv(&mut self) -> Option<Received>;
    /// Ends the whole launch at once, every rank with it (the caller has said why).
    fn abort(&self, code: i32) -> !;
}

#[cfg(test)]
mod tests {
    use super::Kind;

    #[test]
    fn every_kind_comes_back_from_its_tag() {
        for t in 1..=12 {
            assert_eq!(Kind::from_tag(t).map(|k| k as i32), Some(t));
        }
        assert_eq!(Kind::from_tag(0), None);
        assert_eq!(Kind::from_tag(13), None);
    }
}
