//! iomark's engine: the job model (in), targets, workload generators, I/O engines, workers and
//! the result model (out). It knows nothing of fio syntax, of the command line, or of any output
//! format.

pub mod engines;
pub mod gen;
pub mod hist;
pub mod job;
pub mod result;
pub mod rng;
pub mod runner;
pub mod sys;
pub mod target;
#[cfg(any(test, feature = "test-support"))]
pub mod test_support;
pub mod verifier;
pub mod verify;
pub mod worker;
pub mod worker_file;

pub use job::{Dir, JobSpec, PerDir, RunPlan};
pub use result::RunResult;

/// The version string reported in outputs (`"fio version"` holds `iomark-<version>`).
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
