//! Runs of many ranks or hosts: the launcher's switches, the merge of result files into one run
//! of many clients, the session every rank runs (preflight, start gates, gather on rank 0) over
//! a transport, and (feature `mpi`) the MPI transport and running as one rank of an MPI launch.

pub mod args;
#[cfg_attr(not(feature = "mpi"), allow(dead_code))]
mod follow;
#[cfg(test)]
mod local;
#[cfg(feature = "mpi")]
pub mod mpi;
pub mod out;
#[cfg_attr(not(feature = "mpi"), allow(dead_code))]
mod refusal;
// Without MPI the session serves the tests alone (over the in-process transport).
#[cfg_attr(not(feature = "mpi"), allow(dead_code))]
mod preflight;
#[cfg_attr(not(feature = "mpi"), allow(dead_code))]
pub mod session;
#[cfg(test)]
mod session_tests;
#[cfg_attr(not(feature = "mpi"), allow(dead_code))]
pub mod transport;

#[cfg_attr(not(feature = "mpi"), allow(unused_imports))]
pub use refusal::Refusal;

/// What a command does when it is launched as many ranks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// Runs on every rank, merged on rank 0.
    Cluster,
    /// Reads or prints only: rank 0 runs it, the others end at once.
    RankZero,
    /// Does I/O with no cluster mode: refused under a launcher.
    Refused,
}
