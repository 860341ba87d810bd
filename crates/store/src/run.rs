//! A run as the store takes it ([`NewRun`], with its [`Figure`]s) and as it gives its facts
//! back ([`RunRow`]).

/// One figure of a run: `job`'s `direction` (read, write, trim; empty for a suite's table)
/// `figure` (iops, mbps, p99, ...) in `unit`. A run of repetitions holds one per repetition.
#[derive(Clone, Debug, PartialEq)]
pub struct Figure {
    pub job: String,
    pub direction: String,
    pub figure: String,
    pub value: f64,
    pub unit: String,
}

/// A run to record.
#[derive(Clone, Debug, Default)]
pub struct NewRun<'a> {
    /// When it started, in ms since the Unix epoch.
    pub time_ms: i64,
    pub host: &'a str,
    /// The command that ran it (`run`, `quick`, `dd`, ...; `fio` for imported fio output).
    pub front_end: &'a str,
    /// The command line as a shell would read it.
    pub command_line: &'a str,
    pub tags: &'a [String],
    pub targets: &'a [String],
    pub interrupted: bool,
    pub iomark_version: &'a str,
    /// The document's format (`iomark-result/1`, `fio-json`, ...).
    pub format: &'a str,
    /// The whole result document (kept deflated).
    pub document: &'a [u8],
    pub figures: &'a [Figure],
}

/// One recorded run's facts.
#[derive(Clone, Debug, PartialEq)]
pub struct RunRow {
    pub id: i64,
    pub time_ms: i64,
    pub host: String,
    pub front_end: String,
    pub command_line: String,
    pub interrupted: bool,
    pub iomark_version: String,
    pub format: String,
    /// The document's size, and what it takes deflated in the store.
    pub document_bytes: i64,
    pub stored_bytes: i64,
    pub tags: Vec<String>,
    pub targets: Vec<String>,
}

/// The separator of the tags and targets a query gathers into one column.
pub(crate) const SEP: char = '\u{1f}';

/// A gathered column's items.
pub(crate) fn split(s: Option<String>) -> Vec<String> {
    s.map(|s| s.split(SEP).map(str::to_string).collect())
        .unwrap_or_default()
}
