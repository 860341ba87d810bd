//! One figure across runs: the values of `JOB.DIRECTION.FIGURE` in every run a filter selects,
//! oldest first, for trends.

use crate::{RunRow, Values};

/// Which figure: a job's direction's figure as the store names them (`rr4k`, `read`, `iops`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FigureKey {
    pub job: String,
    pub direction: String,
    pub figure: String,
}

impl FigureKey {
    /// `JOB.DIRECTION.FIGURE` (the job's name may hold dots: the last two parts are the
    /// direction and the figure, which hold none but `p99.9`).
    pub fn parse(s: &str) -> Option<FigureKey> {
        for fig in ["p99.9", "p99.99"] {
            if let Some(rest) = s.strip_suffix(&format!(".{fig}")) {
                let (job, dir) = rest.rsplit_once('.')?;
                return Self::new(job, dir, fig);
            }
        }
        let (rest, fig) = s.rsplit_once('.')?;
        let (job, dir) = rest.rsplit_once('.')?;
        Self::new(job, dir, fig)
    }

    fn new(job: &str, dir: &str, fig: &str) -> Option<FigureKey> {
        (!job.is_empty() && !dir.is_empty() && !fig.is_empty()).then(|| FigureKey {
            job: job.to_string(),
            direction: dir.to_string(),
            figure: fig.to_string(),
        })
    }
}

/// One run's values of the figure (several for a run of repetitions), and its unit.
#[derive(Clone, Debug, PartialEq)]
pub struct Point {
    pub run: RunRow,
    pub values: Vec<f64>,
    pub unit: String,
}

/// The points of `runs` (the history of a filter) that have values, in the order they started.
pub(crate) fn points(runs: Vec<RunRow>, mut values: Values) -> Vec<Point> {
    let mut pts: Vec<Point> = runs
        .into_iter()
        .filter_map(|run| {
            let (values, unit) = values.remove(&run.id)?;
            Some(Point { run, values, unit })
        })
        .collect();
    pts.sort_by_key(|p| (p.run.time_ms, p.run.id));
    pts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figure_keys() {
        let k = FigureKey::parse("rr4k.read.iops").unwrap();
        assert_eq!(
            (k.job.as_str(), k.direction.as_str(), k.figure.as_str()),
            ("rr4k", "read", "iops")
        );
        let k = FigureKey::parse("db.v2.write.p99.9").unwrap();
        assert_eq!(
            (k.job.as_str(), k.direction.as_str(), k.figure.as_str()),
            ("db.v2", "write", "p99.9")
        );
        assert!(FigureKey::parse("iops").is_none());
        assert!(FigureKey::parse("read.iops").is_none());
    }
}
