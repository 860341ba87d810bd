//! iomark's model: what a front end asks for and what a back end reads, as plain data.
//!
//! It does no I/O and knows no syntax: the engine runs a [`RunPlan`] and returns a
//! [`RunResult`]; front ends build the one and back ends read the other; the result file is the
//! result model serialized.
//!
//! # The job model ([`job`])
//! A [`RunPlan`] holds typed, validated [`JobSpec`]s: directions, block sizes, sizes and offsets,
//! the I/O engine ([`job::EngineKind`]), verification ([`verify::VerifyKind`]), generated file
//! names as a [`job::NameTemplate`], and the safety switches of the run (read-only, writes to
//! devices, filling a filesystem). No field holds text to be parsed.
//!
//! # The result model ([`result`])
//! A [`RunResult`] is self-describing and lossless: the plan, versions, host and target facts,
//! per job and direction the counts, bytes, runtimes, full latency histograms ([`hist`]), time
//! series, CPU and disk utilisation, verification reports and errors. What the user should know
//! is a [`note::Note`], and why a job stopped is a [`failure::JobFailure`]: typed values with the
//! facts, which each front end words in its own terms.

pub mod depth_search;
pub mod failure;
pub mod hist;
pub mod job;
pub mod noisy;
pub mod note;
pub mod result;
pub mod steady;
pub mod table;
pub mod verify;

pub use job::{Dir, JobSpec, PerDir, RunPlan};
pub use result::RunResult;

/// The version string reported in outputs.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
