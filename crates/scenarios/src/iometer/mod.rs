//! `iomark iometer`: Iometer's access specifications (transfer size, % read, % random,
//! alignment, transfer delay and burst length, weight per line) run as iomark jobs.
//!
//! - [`spec`]: the spec lines, the named classic specs, and the job options they make.
//! - [`csv`]: the results CSV with Iometer's main columns.

pub mod csv;
pub mod spec;
