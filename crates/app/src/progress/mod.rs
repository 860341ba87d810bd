//! Observers of a running plan: fio's status line, interim reports (SIGUSR1, --status-interval)
//! and the aggregate bandwidth log.

pub mod agg_bw;
pub mod periodic;
pub mod status;
