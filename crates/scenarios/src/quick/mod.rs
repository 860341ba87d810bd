//! `quick`: the embedded default benchmark. SEQ1M Q8T1, SEQ1M Q1T1, RND4K Q32T1 and RND4K Q1T1,
//! each read then write, on a temporary file (created and removed by the caller) or on an
//! existing file or block device.
//!
//! [`parse`] reads the options, [`prepare`] chooses the target and builds the plan, the caller
//! runs the plan with the engine, and [`rows`], [`table`] and [`to_json`] format the results.

mod args;
mod plan;
mod report;

pub use args::{parse, Parsed, QuickArgError, QuickOpts, USAGE};
#[cfg(test)]
pub(crate) use plan::plan_for_tests;
pub(crate) use plan::{direct_supported, probe_create};
pub use plan::{prepare, Notice, PrepareError, Prepared, TestLabel};
pub use report::{rows, table, to_json, Row};
