//! Ranks as threads of one process: the transport of a launch without MPI, for the tests of the
//! session (preflight, start gates, gather and merge) in the fast tier.

use super::transport::{Kind, Received, Transport};
use std::sync::mpsc::{channel, Receiver, Sender};

/// One rank of an in-process launch.
pub struct Local {
    rank: usize,
    peers: Vec<Sender<Received>>,
    inbox: Receiver<Received>,
}

/// The `n` ranks of a launch, in rank order; give each to a thread of its own.
pub fn world(n: usize) -> Vec<Local> {
    let (senders, inboxes): (Vec<_>, Vec<_>) = (0..n).map(|_| channel()).unzip();
    inboxes
        .into_iter()
        .enumerate()
        .map(|(rank, inbox)| Local {
            rank,
            peers: senders.clone(),
            inbox,
        })
        .collect()
}

impl Transport for Local {
    fn rank(&self) -> usize {
        self.rank
    }
    fn size(&self) -> usize {
        self.peers.len()
    }
    fn send(&mut self, to: usize, kind: Kind, body: Vec<u8>) {
        // A rank that has ended takes nothing more; as under MPI, the sender does not learn it.
        let _ = self.peers[to].send(Received {
            from: self.rank,
            kind,
            body,
        });
    }
    fn progress(&mut self) {}
    fn sending(&self) -> usize {
        0
    }
    fn recv(&mut self) -> Option<Received> {
        self.inbox.try_recv().ok()
    }
    fn abort(&self, code: i32) -> ! {
        panic!("rank {} ended the launch (code {code})", self.rank)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_reaches_its_rank_with_its_sender_and_kind() {
        let mut w = world(3);
        w[2].send(0, Kind::Hello, b"n2".to_vec());
        w[1].send(0, Kind::Beat, Vec::new());
        let got: Vec<(usize, Kind, Vec<u8>)> = std::iter::from_fn(|| w[0].recv())
            .map(|m| (m.from, m.kind, m.body))
            .collect();
        assert_eq!(
            got,
            vec![(2, Kind::Hello, b"n2".to_vec()), (1, Kind::Beat, vec![])]
        );
        assert!(w[1].recv().is_none());
        assert_eq!((w[1].rank(), w[1].size()), (1, 3));
    }
}
