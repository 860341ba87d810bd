//! What follows a running plan: the one progress source and its observers (fio's status line,
//! the aggregate bandwidth log), and the interim reports (SIGUSR1, --status-interval), which
//! the workers answer with snapshots of their results.

pub mod agg_bw;
pub mod periodic;
pub mod source;
pub mod status;
pub mod steps;
