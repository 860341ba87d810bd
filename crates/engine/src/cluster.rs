//! Results of one run made by many processes at once (MPI ranks, or hosts whose result files are
//! merged afterwards): each rank's whole result, named by rank and host, so that a merge can add
//! histograms exactly and name the slowest ranks.
//!
//! [`merge`] turns the ranks' results into a [`ClusterResult`]: per job the result of all ranks
//! together (histograms added bucket by bucket, so its percentiles are those of every sample of
//! every rank), the per-rank and per-host breakdowns, the slowest ranks, and per direction the
//! two throughput figures of a many-client run ([`Flow`]): while every rank was still running
//! (up to the first rank to finish) and until all were done (over the slowest rank's time).

mod flow;
mod merge;
#[cfg(test)]
mod tests;

pub use flow::Flow;
pub use merge::{merge, ClusterError, ClusterJob, ClusterResult, HostJob, RankJob, SlowRank};

/// One rank's whole result; part of the result model, which keeps every rank of a merged run.
pub use crate::result::RankResult;
