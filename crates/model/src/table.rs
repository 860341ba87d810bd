//! A suite's own table of figures (dd's rate, hdparm's timings, bonnie's rows, iozone's
//! matrices, blogbench's iterations, a sweep's points, a preset's summary, a cluster's ranks),
//! kept in the result beside its jobs. What the table holds is a [`TableKind`], which a report
//! matches to draw it; the title is for people.
//!
//! In a result file a table is written as it always was (`suite`, `title`, `columns`,
//! `rows`), so files written before the kind was typed load unchanged: the kind is read back
//! from the suite's name and, for suites with several tables, the title or the columns.

use serde::{Deserialize, Serialize};

/// One cell of a [`SuiteTable`]: a number or a text.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum TableCell {
    Num(f64),
    Text(String),
}

impl TableCell {
    pub fn num(&self) -> Option<f64> {
        match self {
            TableCell::Num(v) => Some(*v),
            TableCell::Text(_) => None,
        }
    }
    pub fn text(&self) -> String {
        match self {
            TableCell::Num(v) => v.to_string(),
            TableCell::Text(t) => t.clone(),
        }
    }
}

/// What a [`SuiteTable`] holds.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TableKind {
    /// dd's transfer figures.
    Dd,
    /// hdparm's read timings.
    Hdparm,
    /// bonnie++'s bulk tests, a row per run.
    Bonnie,
    /// One of iozone's matrices (file size by record size), its test in the title.
    Iozone,
    /// blogbench's figures per iteration.
    BlogbenchIterations,
    /// blogbench's final scores.
    BlogbenchScores,
    /// A sweep's points, one row each.
    Sweep,
    /// A preset's figures: headline, lowest and highest repetition.
    PresetSummary,
    /// A preset's figures checked against the expected limits.
    PresetChecks,
    /// A job's figures per rank of a cluster run.
    ClusterPerRank,
    /// A job's figures per host of a cluster run, and over all ranks.
    ClusterPerHost,
    /// A cluster run's throughput over all ranks.
    ClusterThroughput,
    /// A table of a suite this version does not know (from a newer result file), by its name.
    Other(String),
}

/// The titles of the tables whose suite has several kinds, as written in result files.
pub const BLOGBENCH_SCORES: &str = "blogbench final scores";
pub const CLUSTER_PER_RANK: &str = "Per rank";
pub const CLUSTER_PER_HOST: &str = "Per host";
pub const CLUSTER_THROUGHPUT: &str = "Throughput of all ranks";

impl TableKind {
    /// The suite's name, as result files and exports give it.
    pub fn suite(&self) -> &str {
        match self {
            TableKind::Dd => "dd",
            TableKind::Hdparm => "hdparm",
            TableKind::Bonnie => "bonnie",
            TableKind::Iozone => "iozone",
            TableKind::BlogbenchIterations | TableKind::BlogbenchScores => "blogbench",
            TableKind::Sweep => "sweep",
            TableKind::PresetSummary | TableKind::PresetChecks => "preset",
            TableKind::ClusterPerRank
            | TableKind::ClusterPerHost
            | TableKind::ClusterThroughput => "cluster",
            TableKind::Other(s) => s,
        }
    }

    /// How many leading columns name a row (the rest hold its figures): a cluster's rows are
    /// named by job, direction, rank or host and the ranks on it; other tables by their first.
    pub fn key_columns(&self) -> usize {
        match self {
            TableKind::ClusterPerRank | TableKind::ClusterPerHost => 4,
            _ => 1,
        }
    }

    /// The kind of a table read from a result file: its suite, title and columns.
    fn read(suite: &str, title: &str, columns: &[String]) -> TableKind {
        match (suite, title) {
            ("dd", _) => TableKind::Dd,
            ("hdparm", _) => TableKind::Hdparm,
            ("bonnie", _) => TableKind::Bonnie,
            ("iozone", _) => TableKind::Iozone,
            ("blogbench", BLOGBENCH_SCORES) => TableKind::BlogbenchScores,
            ("blogbench", _) => TableKind::BlogbenchIterations,
            ("sweep", _) => TableKind::Sweep,
            ("preset", _) if columns.iter().any(|c| c == "expected") => TableKind::PresetChecks,
            ("preset", _) => TableKind::PresetSummary,
            ("cluster", CLUSTER_PER_RANK) => TableKind::ClusterPerRank,
            ("cluster", CLUSTER_PER_HOST) => TableKind::ClusterPerHost,
            ("cluster", CLUSTER_THROUGHPUT) => TableKind::ClusterThroughput,
            (s, _) => TableKind::Other(s.to_string()),
        }
    }
}

/// A table of figures as a suite shows them: what it holds, a title, column names with their
/// units, and rows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(from = "TableDoc", into = "TableDoc")]
pub struct SuiteTable {
    pub kind: TableKind,
    pub title: String,
    pub columns: Vec<String>,
    pub rows: Vec<Vec<TableCell>>,
}

impl SuiteTable {
    pub fn new(kind: TableKind, title: &str, columns: &[&str]) -> SuiteTable {
        SuiteTable {
            kind,
            title: title.to_string(),
            columns: columns.iter().map(|c| c.to_string()).collect(),
            rows: Vec::new(),
        }
    }
    /// The index of column `name`.
    pub fn col(&self, name: &str) -> Option<usize> {
        self.columns.iter().position(|c| c == name)
    }
}

/// A table as a result file holds it.
#[derive(Clone, Serialize, Deserialize)]
struct TableDoc {
    suite: String,
    title: String,
    columns: Vec<String>,
    rows: Vec<Vec<TableCell>>,
}

impl From<TableDoc> for SuiteTable {
    fn from(d: TableDoc) -> SuiteTable {
        SuiteTable {
            kind: TableKind::read(&d.suite, &d.title, &d.columns),
            title: d.title,
            columns: d.columns,
            rows: d.rows,
        }
    }
}

impl From<SuiteTable> for TableDoc {
    fn from(t: SuiteTable) -> TableDoc {
        TableDoc {
            suite: t.kind.suite().to_string(),
            title: t.title,
            columns: t.columns,
            rows: t.rows,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Tables as a result file written before the kind was typed holds them load with their
    /// kind, and are written back the same.
    #[test]
    fn tables_of_older_result_files_load_with_their_kind() {
        let old = r#"[
          {"suite":"dd","title":"dd transfer","columns":["bytes"],"rows":[[1.0]]},
          {"suite":"blogbench","title":"blogbench iterations","columns":["blogs"],"rows":[]},
          {"suite":"blogbench","title":"blogbench final scores","columns":["score","blogs"],"rows":[["write",2.0]]},
          {"suite":"preset","title":"p summary","columns":["figure","unit","headline"],"rows":[]},
          {"suite":"preset","title":"p against the expected limits","columns":["figure","measured","expected"],"rows":[]},
          {"suite":"cluster","title":"Per rank","columns":["job"],"rows":[]},
          {"suite":"cluster","title":"Per host","columns":["job"],"rows":[]},
          {"suite":"cluster","title":"Throughput of all ranks","columns":["job"],"rows":[]},
          {"suite":"iozone","title":"write","columns":["file size (KiB)"],"rows":[]},
          {"suite":"somewhere-new","title":"x","columns":[],"rows":[]}
        ]"#;
        let tables: Vec<SuiteTable> = serde_json::from_str(old).unwrap();
        let kinds: Vec<TableKind> = tables.iter().map(|t| t.kind.clone()).collect();
        assert_eq!(
            kinds,
            [
                TableKind::Dd,
                TableKind::BlogbenchIterations,
                TableKind::BlogbenchScores,
                TableKind::PresetSummary,
                TableKind::PresetChecks,
                TableKind::ClusterPerRank,
                TableKind::ClusterPerHost,
                TableKind::ClusterThroughput,
                TableKind::Iozone,
                TableKind::Other("somewhere-new".into()),
            ]
        );
        assert_eq!(tables[2].rows[0][1], TableCell::Num(2.0));
        let again: serde_json::Value = serde_json::to_value(&tables).unwrap();
        let before: serde_json::Value = serde_json::from_str(old).unwrap();
        assert_eq!(again, before);
    }

    /// Every kind is read back from what it writes.
    #[test]
    fn every_kind_reads_back_as_itself() {
        for (kind, title, cols) in [
            (TableKind::Dd, "dd transfer", &["bytes"][..]),
            (TableKind::Hdparm, "hdparm read timings", &["MB/s"]),
            (TableKind::Bonnie, "bonnie++ bulk tests per run", &["run"]),
            (TableKind::Iozone, "read", &["file size (KiB)"]),
            (
                TableKind::BlogbenchIterations,
                "blogbench iterations",
                &["blogs"],
            ),
            (TableKind::BlogbenchScores, BLOGBENCH_SCORES, &["score"]),
            (TableKind::Sweep, "sweep points", &["iodepth"]),
            (
                TableKind::PresetSummary,
                "x summary",
                &["figure", "headline"],
            ),
            (TableKind::PresetChecks, "x limits", &["figure", "expected"]),
            (TableKind::ClusterPerRank, CLUSTER_PER_RANK, &["job"]),
            (TableKind::ClusterPerHost, CLUSTER_PER_HOST, &["job"]),
            (TableKind::ClusterThroughput, CLUSTER_THROUGHPUT, &["job"]),
        ] {
            let t = SuiteTable::new(kind.clone(), title, cols);
            let back: SuiteTable =
                serde_json::from_str(&serde_json::to_string(&t).unwrap()).unwrap();
            assert_eq!(back.kind, kind, "{title}");
            assert_eq!(back, t);
        }
    }
}
