//! iomark's engine: targets, workload generators, I/O engines and workers between two contracts.
//!
//! It knows nothing of fio syntax, of the command line, or of any output format: front ends
//! (the fio front end, `iomark quick`, suites and presets) turn what a user wrote into the job
//! model; back ends (fio-compatible outputs, reports) read the result model.
//!
//! # Contract in: the job model ([`job`])
//! A [`RunPlan`] holds typed, validated [`JobSpec`]s: directions, block sizes, sizes and offsets,
//! the I/O engine ([`job::EngineKind`]), verification ([`verify::VerifyKind`]), generated file
//! names as a [`job::NameTemplate`], and the safety switches of the run (read-only, writes to
//! devices, filling a filesystem). No field holds text to be parsed.
//!
//! # Running
//! [`runner::check`] checks a plan without any I/O; [`runner::run`] runs it under a
//! [`runner::RunCtl`] (stop flag, live [`runner::WorkerProgress`] with a
//! [`runner::WorkerState`], progress [`runner::Event`]s). What stops a run before any I/O is a
//! [`runner::RunError`], what the user should know is a [`note::Note`], and why a job stopped is a
//! [`failure::JobFailure`]: typed values with the facts (paths, mount points, signatures, bytes
//! needed and free, the operation, errno and offset, the setting concerned), kept as such in the
//! result. Each front end words them in its own terms (`iomark_fio::explain` for fio users).
//!
//! # Contract out: the result model ([`result`])
//! A [`RunResult`] is self-describing and lossless: the plan, versions, host and target facts,
//! per job and direction the counts, bytes, runtimes, full latency histograms ([`hist`]), time
//! series, CPU and disk utilisation, verification reports and errors. Back ends read only it.
//!
//! The other public modules serve front ends that need a fact before they build a plan
//! ([`targets`] probes and free space, [`engines`] availability, [`sys`] host facts) and tests
//! ([`rng`]).

pub(crate) mod alone;
pub mod budget;
pub mod cluster;
pub mod depth_search;
pub mod engines;
pub mod fileops;
pub(crate) mod flow;
pub(crate) mod gen;
pub mod inventory;
pub(crate) mod nocancel;
pub(crate) mod offload;
pub mod pass;
pub mod rados_bench;
pub mod rng;
pub mod runner;
pub mod steady;
mod steady_group;
pub mod sys;
pub mod targets;
#[cfg(any(test, feature = "test-support"))]
pub mod test_support;
pub(crate) mod verifier;
pub mod verify;
pub(crate) mod worker;
pub(crate) mod worker_file;
pub(crate) mod zbd;

#[cfg(test)]
mod speaks_no_fio;

// The job and result models are their own crate; the engine's paths to them are kept.
pub use iomark_model::{failure, hist, job, noisy, note, result};
pub use job::{Dir, JobSpec, PerDir, RunPlan};
pub use result::RunResult;

/// The version string reported in outputs (`"fio version"` holds `iomark-<version>`).
pub const VERSION: &str = iomark_model::VERSION;
