//! fio-compatible back ends: normal, JSON, JSON+ and terse output, and log files.

pub mod agg_bw;
pub mod clients;
pub mod compressed_log;
pub mod fmt;
pub mod group;
pub mod json;
pub mod logs;
pub mod normal;
pub mod terse;

pub use crate::cmdline::OutputFormat;
use iomark_engine::job::StatsSpec;
use iomark_engine::RunResult;

/// The latency fio's per-priority statistics keep: total latency (`lat`) with
/// `lat_percentiles`, else completion latency (`clat`).
pub(crate) fn prio_lat_key(st: &StatsSpec) -> &'static str {
    if st.lat_percentiles {
        "lat"
    } else {
        "clat"
    }
}

/// Render a run in one format (`terse_version`: 2 to 5, for terse).
/// A result of many ranks is shown as fio's client shows its servers' ([`clients`]).
pub fn render(result: &RunResult, format: OutputFormat, terse_version: u32) -> String {
    if !result.ranks.is_empty() {
        if let Some(text) = clients::render(result, format, terse_version) {
            return text;
        }
    }
    match format {
        OutputFormat::Normal => normal::render(result),
        OutputFormat::Json => json::render(result, false),
        OutputFormat::JsonPlus => json::render(result, true),
        OutputFormat::Terse => terse::render(result, terse_version),
    }
}
