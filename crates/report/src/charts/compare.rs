//! Charts of a comparison: grouped bars per figure (one bar per source for every job and
//! direction, with the lowest-highest spread of its repetitions as error bars and, over each
//! bar but the baseline's, its change and p value) and overlaid latency CDFs per job and
//! direction.

use super::{bars, job::cdf, Chart, Kind};
use crate::compare::{Comparison, Row};
use crate::model::Figure;

/// The lowest and highest of a source's repetitions.
fn lowest_highest(s: &[f64]) -> (f64, f64) {
    s.iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| {
            (a.min(v), b.max(v))
        })
}

/// Source `i`'s change from the baseline and, with repetitions on both sides, Welch's p value
/// (`+3.1 % p=0.020`); empty when there is no change to state.
fn change_note(r: &Row, i: usize) -> String {
    let Some((_, Some(pct))) = r.delta(i) else {
        return String::new();
    };
    match r.test(i) {
        Some(w) => format!("{pct:+.1} % p={:.3}", w.p),
        None => format!("{pct:+.1} %"),
    }
}

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
            let mut t = bars(
                l,
                rows.iter().map(|r| {
                    (
                        super::job_dir_label(&r.job, r.dir),
                        r.values[i].unwrap_or(f64::NAN),
                    )
                }),
            );
            if rows.iter().all(|r| r.samples[i].len() > 1) {
                t.spread = rows.iter().map(|r| lowest_highest(&r.samples[i])).collect();
            }
            if i > 0 {
                t.notes = rows.iter().map(|r| change_note(r, i)).collect();
            }
            ch.traces.push(t);
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

#[cfg(test)]
mod tests {
    use super::*;

    fn row(a: &[f64], b: &[f64]) -> Row {
        let mean = |s: &[f64]| s.iter().sum::<f64>() / s.len() as f64;
        Row {
            job: "j".into(),
            dir: "read",
            figure: Figure::Iops,
            lat: None,
            values: vec![Some(mean(a)), Some(mean(b))],
            samples: vec![a.to_vec(), b.to_vec()],
        }
    }

    /// Repetitions on both sides: each bar has its runs' spread, and the second source's bars
    /// say their change and Welch's p value.
    #[test]
    fn bars_carry_the_spread_and_the_change_with_its_p_value() {
        let c = Comparison {
            labels: vec!["a".into(), "b".into()],
            matched: Vec::new(),
            rows: vec![row(&[100.0, 110.0, 90.0], &[60.0, 62.0, 58.0])],
            notes: Vec::new(),
        };
        let ch = charts(&c);
        let iops = ch.iter().find(|c| c.id == "compare-iops").unwrap();
        assert_eq!(iops.traces[0].spread, [(90.0, 110.0)]);
        assert_eq!(iops.traces[1].spread, [(58.0, 62.0)]);
        assert!(
            iops.traces[0].notes.is_empty(),
            "the baseline has no change"
        );
        let p = c.rows[0].test(1).unwrap().p;
        assert_eq!(iops.traces[1].notes, [format!("-40.0 % p={p:.3}")]);
    }

    /// Single runs: no error bars, and the change without a p value.
    #[test]
    fn single_runs_have_no_spread_nor_p_value() {
        let c = Comparison {
            labels: vec!["a".into(), "b".into()],
            matched: Vec::new(),
            rows: vec![row(&[100.0], &[125.0])],
            notes: Vec::new(),
        };
        let ch = charts(&c);
        assert!(ch[0].traces[0].spread.is_empty());
        assert_eq!(ch[0].traces[1].notes, ["+25.0 %"]);
    }
}
