//! bonnie++'s chart: each bulk test's mean over the runs (`-x N`) with its spread (lowest and
//! highest run), and the rate of every run.

use super::{bars, line, suite_tables, Chart, Kind};
use crate::model::Source;
use iomark_engine::result::TableKind;

pub fn charts(sources: &[Source]) -> Vec<Chart> {
    let mut out = Vec::new();
    for (s, t) in suite_tables(sources, &[TableKind::Bonnie]) {
        let tests: Vec<(usize, &String)> = t
            .columns
            .iter()
            .enumerate()
            .filter(|(_, c)| c.as_str() != "run")
            .collect();
        let mut mean = Vec::new();
        let mut lo = Vec::new();
        let mut hi = Vec::new();
        let mut per_run = Chart::new(
            format!("bonnie-{}-runs", s.label),
            &format!("{} / bonnie++", s.label),
            "bonnie++: rate of every run",
            Kind::Lines,
        )
        .axes("run", "rate (KiB/s; seeks/s)");
        for (i, name) in &tests {
            let v: Vec<(f64, f64)> = t
                .rows
                .iter()
                .enumerate()
                .filter_map(|(n, r)| r.get(*i).and_then(|c| c.num()).map(|x| ((n + 1) as f64, x)))
                .collect();
            if v.is_empty() {
                continue;
            }
            let ys: Vec<f64> = v.iter().map(|p| p.1).collect();
            let m = ys.iter().sum::<f64>() / ys.len() as f64;
            mean.push(((*name).clone(), m));
            lo.push((
                (*name).clone(),
                ys.iter().copied().fold(f64::INFINITY, f64::min),
            ));
            hi.push((
                (*name).clone(),
                ys.iter().copied().fold(f64::NEG_INFINITY, f64::max),
            ));
            per_run.traces.push(line(name, v));
        }
        let runs = t.rows.len();
        let mut c = Chart::new(
            format!("bonnie-{}-mean", s.label),
            &format!("{} / bonnie++", s.label),
            &format!("bonnie++: mean of {runs} run(s), lowest and highest"),
            Kind::Bars,
        )
        .axes("test", "rate (KiB/s; seeks/s)");
        c.traces.push(bars("mean", mean));
        c.traces.push(bars("lowest run", lo));
        c.traces.push(bars("highest run", hi));
        out.push(c);
        out.push(per_run);
    }
    out
}
