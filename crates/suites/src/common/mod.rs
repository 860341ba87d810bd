//! Pieces more than one tool uses.

pub mod latency;
pub mod probe;
