//! The MPI transport: point-to-point messages only, every rank to rank 0 and back (a star),
//! never a blocking call. Sends are nonblocking and kept until complete; receives take whatever
//! has arrived. A rank that stops answering therefore never hangs another: the caller polls,
//! and gives up at its deadline.

use crate::cluster::transport::{Kind, Received, Transport};
use mpi::ffi;
use mpi::point_to_point::{MatchedReceiveVec, Message, Source};
use mpi::raw::AsRaw;
use mpi::topology::{Communicator, SimpleCommunicator};
use mpi::traits::Equivalence;
use std::mem::MaybeUninit;

/// The world communicator with the sends still under way.
pub struct Link {
    pub world: SimpleCommunicator,
    pending: Vec<(Vec<u8>, ffi::MPI_Request)>,
}

impl Link {
    pub fn new(world: SimpleCommunicator) -> Link {
        Link {
            world,
            pending: Vec::new(),
        }
    }
}

impl Transport for Link {
    fn rank(&self) -> usize {
        self.world.rank() as usize
    }

    fn size(&self) -> usize {
        self.world.size() as usize
    }

    /// Starts sending `body` to `to`; it completes while later calls poll.
    fn send(&mut self, to: usize, kind: Kind, body: Vec<u8>) {
        let count = i32::try_from(body.len()).expect("a message under 2 GiB");
        let mut req = MaybeUninit::<ffi::MPI_Request>::uninit();
        // SAFETY: the buffer lives in `pending` (a Vec's heap block does not move) until MPI
        // reports the send complete; the datatype, rank and communicator are valid.
        unsafe {
            ffi::MPI_Isend(
                body.as_ptr().cast(),
                count,
                u8::equivalent_datatype().as_raw(),
                to as i32,
                kind as i32,
                self.world.as_raw(),
                req.as_mut_ptr(),
            );
            self.pending.push((body, req.assume_init()));
        }
        self.progress();
    }

    /// Lets the sends under way move on; drops those complete.
    fn progress(&mut self) {
        self.pending.retain_mut(|(_, req)| {
            let mut flag = 0;
            // SAFETY: `req` is an active request from MPI_Isend; MPI_Test sets it to the null
            // request when complete.
            unsafe {
                ffi::MPI_Test(req, &mut flag, ffi::RSMPI_STATUS_IGNORE);
            }
            flag == 0
        });
    }

    /// Sends not yet complete.
    fn sending(&self) -> usize {
        self.pending.len()
    }

    /// The next message that has arrived, if any.
    fn recv(&mut self) -> Option<Received> {
        self.progress();
        let probed: (Message, _) = self.world.any_process().immediate_matched_probe()?;
        let (body, status) = probed.matched_receive_vec::<u8>();
        let from = status.source_rank() as usize;
        match Kind::from_tag(status.tag()) {
            Some(kind) => Some(Received { from, kind, body }),
            // Not one of ours: dropped (and the next one looked at).
            None => self.recv(),
        }
    }

    fn abort(&self, code: i32) -> ! {
        self.world.abort(code)
    }
}
