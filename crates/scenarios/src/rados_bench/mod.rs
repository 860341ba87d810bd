//! `iomark rados-bench`: Ceph's `rados bench` on a pool through librados, with its options,
//! its object naming (so each reads what the other's `write --no-cleanup` left) and its output:
//! the per-second table and the summary, plus latency percentiles on stderr.
//!
//! - [`args`]: `-p POOL SECONDS write|seq|rand [-b SIZE] [-t N] [--no-cleanup] [--run-name NAME]`,
//!   `-p POOL cleanup`, and the client options of the `rados` command.
//! - [`output`]: the table's lines and the summary, numbers printed as rados bench prints them.

pub mod args;
pub mod output;
