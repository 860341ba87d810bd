//! `iomark sweep`: run the cross product of swept job options as one plan (one job per point,
//! one after another), then a matrix table of one figure; or, with `--latency-target`, search
//! the highest queue depth that keeps a latency percentile under a target.
//!
//! - [`axes`]: the swept values, the cross product and its refusals.
//! - [`args`]: the command line.
//! - [`matrix`]: the plan, the figures of each point and the matrix table.
//! - [`search`]: the bisection over measured points.

pub mod args;
pub mod axes;
pub mod matrix;
pub mod search;
pub mod table;
