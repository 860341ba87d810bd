//! Charts of a comparison: grouped bars per figure (one bar per source for every job and
//! direction) and overlaid latency CDFs per job and direction.

use super::{bars, job::cdf, Chart, Kind};
use crate::compare::Comparison;
use crate::model::Figure;

pub fn charts(c: &Comparison) -> Vec<Chart> {
    let mut out = Vec::new();
    for f in Figure::ALL {
        let rows: Vec<_> = c.rows.iter().filter(|r| r.figure == f).collect();
        let mut ch = Chart::new(
            format!("compare-{}", f.key()),
            "comparison",
            f.label(),
            Kind::Bars,
        )
        .axes("job and direction", f.label());
        for (i, l) in c.labels.iter().enumerate() {
            ch.traces.push(bars(
                l,
                rows.iter().map(|r| {
                    (
                        super::job_dir_label(&r.job, r.dir),
                        r.values[i].unwrap_or(f64::NAN),
                    )
                }),
            ));
        }
        out.push(ch);
    }
    for m in &c.matched {
        let Some(base) = m.jobs[0] else { continue };
        for d in &base.dirs {
            let mut ch = Chart::new(
                format!("compare-cdf-{}-{}", m.name, d.dir),
                "comparison",
                &format!("{} {}: latency CDF", m.name, d.dir),
                Kind::Lines,
            )
            .axes("latency (us)", "fraction of I/Os at or below")
            .log_x();
            for (i, j) in m.jobs.iter().enumerate() {
                if let Some(l) = j.and_then(|j| j.dir(d.dir)).and_then(|x| x.main_lat()) {
                    ch.traces.push(cdf(&c.labels[i], l));
                }
            }
            ch.traces.retain(|t| !t.y.is_empty());
            out.push(ch);
        }
    }
    out.retain(|c| !c.is_empty());
    super::dedup_ids(&mut out);
    out
}
