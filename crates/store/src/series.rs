//! One figure across runs: the values of `JOB.DIRECTION.FIGURE` in every run a filter selects,
//! oldest first, for trends.

use crate::{Filter, Result, RunRow, Store};
use std::collections::BTreeMap;

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

impl Store {
    /// The runs `f` selects that hold figure `k`, in the order they started (an imported run
    /// takes its place by its time), with its values.
    pub fn series(&self, f: &Filter, k: &FigureKey) -> Result<Vec<Point>> {
        let q = || -> rusqlite::Result<BTreeMap<i64, (Vec<f64>, String)>> {
            let mut st = self.conn.prepare(
                "SELECT run_id, value, unit FROM figures
                 WHERE job = ?1 AND direction = ?2 AND figure = ?3 ORDER BY run_id, rowid",
            )?;
            let mut out: BTreeMap<i64, (Vec<f64>, String)> = BTreeMap::new();
            let rows = st.query_map([&k.job, &k.direction, &k.figure], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, f64>(1)?,
                    r.get::<_, String>(2)?,
                ))
            })?;
            for row in rows {
                let (id, v, unit) = row?;
                let e = out.entry(id).or_insert_with(|| (Vec::new(), unit));
                e.0.push(v);
            }
            Ok(out)
        };
        let mut values = q().map_err(|e| self.err(e))?;
        if values.is_empty() {
            return Ok(Vec::new());
        }
        let mut pts: Vec<Point> = self
            .history(f)?
            .into_iter()
            .filter_map(|run| {
                let (values, unit) = values.remove(&run.id)?;
                Some(Point { run, values, unit })
            })
            .collect();
        pts.sort_by_key(|p| (p.run.time_ms, p.run.id));
        Ok(pts)
    }
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
