//! Runs of many ranks or hosts: the launcher's switches, the merge of result files into one run
//! of many clients, and (feature `mpi`) running as one rank of an MPI launch.

pub mod args;
#[cfg(feature = "mpi")]
pub mod mpi;
pub mod out;
