//! The errors of the report back ends, each naming the file it is about.

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    #[error("{path}: cannot read: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}: not JSON (truncated or another kind of file?): {detail}")]
    NotJson { path: PathBuf, detail: String },
    #[error("{path}: not an iomark result file, iomark quick's JSON or fio JSON output: {detail}")]
    UnknownFormat { path: PathBuf, detail: String },
    #[error("{path}: {detail}")]
    BadResult { path: PathBuf, detail: String },
    #[error("{path}: directory holds no result files (*.json)")]
    EmptyDir { path: PathBuf },
    #[error("{path}: cannot write: {source}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}: {detail}")]
    Export { path: PathBuf, detail: String },
    #[error("bad --fail-if rule {q_rule}: {detail}", q_rule = iomark_output::echo::quote(.rule))]
    BadRule { rule: String, detail: String },
}
