//! `iomark iometer`: Iometer's access specifications (transfer size, % read, % random,
//! alignment, transfer delay and burst length, weight per line) run as iomark jobs.
//!
//! - [`spec`]: the spec lines, the named classic specs, and the job options they make.
//! - [`spec_file`]: specs in a TOML file.
//! - [`mix`]: how a spec runs: plain job options, or an access mix the engine follows.
//! - [`csv`]: the results CSV with Iometer's main columns and its latency buckets.

pub mod csv;
pub mod mix;
pub mod spec;
pub mod spec_file;
