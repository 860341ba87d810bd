//! Runs of many ranks or hosts: the launcher's switches, the merge of result files into one run
//! of many clients, and (feature `mpi`) running as one rank of an MPI launch.

pub mod args;
#[cfg(feature = "mpi")]
pub mod mpi;
pub mod out;

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
