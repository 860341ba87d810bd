//! `iomark rbd-bench`: Ceph's `rbd bench` run against any target (an image through librbd, a
//! file, or a block device such as a mapped `/dev/rbd0`), with its meanings and its output, plus
//! the latency percentiles `rbd bench` never reports.
//!
//! - [`args`]: its options (`--io-type --io-size --io-threads --io-total --io-pattern
//!   --rw-mix-read --pattern-byte`) and the plan they make.
//! - [`image`]: an image as the target, and the client options of the `rbd` command.
//! - [`window`]: the per-second lines with their 5-sample rolling window, and the summary.

pub mod args;
pub mod image;
pub mod image_plan;
#[cfg(test)]
mod plan_tests;
pub mod window;
