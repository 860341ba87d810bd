//! Offloaded submission: a pool of submit threads runs a job's I/Os, one at a time each, on
//! engines of their own, while the job's thread prepares the I/Os and accounts their
//! completions (`pool`); and the set of ranges in flight that overlapping I/O waits on
//! (`overlap`).

mod overlap;
mod pool;

pub(crate) use overlap::InFlight;
pub(crate) use pool::{OffloadPool, PoolSetup, SlotTimes};
