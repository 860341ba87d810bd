//! Repetitions (`--repeat N`): [`stats`] holds the statistics of one figure over N runs,
//! [`figures`] the per-job figures of an `iomark run` and their table over repetitions.

pub mod figures;
pub mod stats;

pub use stats::{t95, Agg, Stats, NOISY_CV};
