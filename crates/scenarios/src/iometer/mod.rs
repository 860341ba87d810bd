//! `iomark iometer`: Iometer's access specifications (transfer size, % read, % random,
//! alignment, transfer delay and burst length, weight per line) run as iomark jobs.
//!
//! - [`spec`]: the spec lines, the named classic specs, and the job shape they make.
//! - [`spec_file`]: specs in a TOML file.
//! - [`shape`]: a spec's I/O in the job's own fields (direction, read share, sizes, alignment).
//! - [`mix`]: how a spec runs: a plain job shape, or an access mix the engine follows.
//! - [`plan`]: the run's plan from typed values: one job, or one per step of a cycle.
//! - [`csv`]: the results CSV with Iometer's main columns and its latency buckets.

pub mod csv;
pub mod mix;
pub mod plan;
pub mod shape;
pub mod spec;
pub mod spec_file;

#[cfg(test)]
mod plan_tests;
