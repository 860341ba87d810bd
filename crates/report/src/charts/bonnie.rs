//! bonnie++'s charts, one per kind of figure, each in its own unit: block output, rewrite and
//! input (MB/s), per-character output and input (MB/s), random seeks (seeks/s), file
//! creation, stat and deletion, sequential and random (files/s), and the latency of every
//! test as percentiles on the nines scale over a log axis. Repeated runs (`-x N`) show the
//! mean with the lowest and highest run as error bars.

use super::{bars, job::percentiles, Chart, Kind, Trace};
use crate::model::{DirFigures, Figure, Source};
use iomark_engine::result::TableKind;

/// The job of each bulk test, its label and the direction its rate is of.
const BLOCK: [(&str, &str, &str); 3] = [
    ("bonnie-block-output", "block output", "write"),
    ("bonnie-rewrite", "rewrite", "write"),
    ("bonnie-block-input", "block input", "read"),
];
const PER_CHAR: [(&str, &str, &str); 2] = [
    ("bonnie-per-char-output", "per-char output", "write"),
    ("bonnie-per-char-input", "per-char input", "read"),
];
const SEEKS: [(&str, &str, &str); 1] = [("bonnie-random-seeks", "random seeks", "read")];
/// The file tests: operation, and the direction the engine counts it in.
const FILE_OPS: [(&str, &str); 3] = [("create", "write"), ("stat", "read"), ("delete", "write")];

/// The direction `dir` of job `job`, when it ran.
fn dir_of<'a>(s: &'a Source, job: &str, dir: &str) -> Option<&'a DirFigures> {
    s.job(job)?.dir(dir)
}

/// A bar trace of figure `f` of `tests` (job, label, direction), with the spread of the runs.
fn trace(s: &Source, name: &str, tests: &[(&str, &str, &str)], f: Figure) -> Trace {
    let pts: Vec<(String, &DirFigures, f64)> = tests
        .iter()
        .filter_map(|(job, label, dir)| {
            let d = dir_of(s, job, dir)?;
            Some((label.to_string(), d, d.figure(f)?))
        })
        .collect();
    let mut t = bars(name, pts.iter().map(|(l, _, v)| (l.clone(), *v)));
    if s.repetitions > 1 {
        t.spread = pts
            .iter()
            .map(|(_, d, v)| d.spread(f).unwrap_or((*v, *v)))
            .collect();
    }
    t
}

/// The seeks bonnie++ reports (its table's `seeks (/s)`, every seek and the rewrites among
/// them), mean and spread over the runs; None without the table.
fn table_seeks(s: &Source) -> Option<Trace> {
    let t = s.tables.iter().find(|t| t.kind == TableKind::Bonnie)?;
    let v: Vec<f64> = t
        .rows
        .iter()
        .filter_map(|r| super::cell_num(t, r, "seeks (/s)"))
        .collect();
    if v.is_empty() {
        return None;
    }
    let mean = v.iter().sum::<f64>() / v.len() as f64;
    let mut tr = bars("seeks/s", [("random seeks".to_string(), mean)]);
    if v.len() > 1 {
        let lo = v.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        tr.spread = vec![(lo, hi)];
    }
    Some(tr)
}

pub fn charts(sources: &[Source]) -> Vec<Chart> {
    let mut out = Vec::new();
    for s in sources.iter().filter(|s| s.is_bonnie()) {
        let sec = format!("{} / bonnie++", s.label);
        let runs = if s.repetitions > 1 {
            format!(" (mean of {} runs, bars lowest to highest)", s.repetitions)
        } else {
            String::new()
        };
        let chart = |id: &str, title: &str, x: &str, y: &str| {
            Chart::new(
                format!("bonnie-{}-{id}", s.label),
                &sec,
                &format!("bonnie++: {title}{runs}"),
                Kind::Bars,
            )
            .axes(x, y)
        };
        for (id, title, tests, f, unit) in [
            ("block", "block I/O", &BLOCK[..], Figure::MBps, "MB/s"),
            (
                "per-char",
                "per-character I/O",
                &PER_CHAR[..],
                Figure::MBps,
                "MB/s",
            ),
            ("seeks", "random seeks", &SEEKS[..], Figure::Iops, "seeks/s"),
        ] {
            let mut c = chart(id, title, "test", unit);
            let t = match id {
                "seeks" => table_seeks(s),
                _ => None,
            };
            c.traces.push(t.unwrap_or_else(|| trace(s, unit, tests, f)));
            out.push(c);
        }
        let mut files = chart(
            "files",
            "file creates, stats and deletes",
            "operation",
            "files/s",
        );
        for order in ["sequential", "random"] {
            let jobs: Vec<(String, &str, &str)> = FILE_OPS
                .iter()
                .map(|(op, dir)| (format!("bonnie-{order}-{op}"), *op, *dir))
                .collect();
            let tests: Vec<(&str, &str, &str)> = jobs
                .iter()
                .map(|(j, op, d)| (j.as_str(), *op, *d))
                .collect();
            files.traces.push(trace(s, order, &tests, Figure::Iops));
        }
        out.push(files);
        let mut lat = Chart::new(
            format!("bonnie-{}-latency", s.label),
            &sec,
            "bonnie++: latency of each test",
            Kind::Lines,
        )
        .axes("percentile (%)", "latency (us)")
        .nines_x()
        .log_y();
        for j in &s.jobs {
            for d in &j.dirs {
                if let Some(l) = d.main_lat() {
                    let name = j.name.trim_start_matches("bonnie-");
                    lat.traces
                        .push(percentiles(&format!("{name} {}", d.dir), l));
                }
            }
        }
        lat.traces.retain(|t| !t.y.is_empty());
        out.push(lat);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Headline, Job, Lat};

    fn job(name: &str, dir: &'static str, iops: f64, bw: f64) -> Job {
        let h = |k: f64| Headline {
            iops: iops * k,
            bw: bw * k,
            ..Default::default()
        };
        Job {
            name: name.into(),
            dirs: vec![DirFigures {
                dir,
                reps: vec![h(1.0), h(1.2)],
                lat: Some(Lat {
                    n: 10,
                    percentiles: vec![(50.0, 2000.0), (99.0, 90_000.0)],
                    ..Default::default()
                }),
                ..Default::default()
            }],
            ..Default::default()
        }
    }

    /// A bonnie++ run of all its tests makes five charts, one per kind of figure, each in
    /// one unit, not one per test and direction; the latency chart is on nines and log axes.
    #[test]
    fn one_chart_per_kind_of_figure() {
        let mut jobs = vec![
            job("bonnie-per-char-output", "write", 3e6, 300e6),
            job("bonnie-block-output", "write", 300.0, 2500e6),
            job("bonnie-rewrite", "write", 350.0, 2800e6),
            job("bonnie-per-char-input", "read", 3.6e6, 360e6),
            job("bonnie-block-input", "read", 490.0, 4000e6),
            job("bonnie-random-seeks", "read", 750.0, 6000e6),
        ];
        for order in ["sequential", "random"] {
            for (op, dir) in FILE_OPS {
                jobs.push(job(&format!("bonnie-{order}-{op}"), dir, 2e5, 0.0));
            }
        }
        let s = Source {
            label: "b".into(),
            repetitions: 2,
            jobs,
            ..Default::default()
        };
        let c = charts(std::slice::from_ref(&s));
        let units: Vec<&str> = c.iter().map(|c| c.y_title.as_str()).collect();
        assert_eq!(
            units,
            ["MB/s", "MB/s", "seeks/s", "files/s", "latency (us)"]
        );
        assert_eq!(
            c[0].traces[0].cats,
            ["block output", "rewrite", "block input"]
        );
        assert_eq!(c[0].traces[0].y, [2750.0, 3080.0, 4400.0]);
        assert_eq!(c[0].traces[0].spread[0], (2500.0, 3000.0));
        assert_eq!(c[2].traces[0].y, [825.0]);
        // With bonnie's own table, the seeks are the ones it reports.
        let mut with_table = s.clone();
        let mut t = iomark_engine::result::SuiteTable::new(
            TableKind::Bonnie,
            "bonnie++ bulk tests per run",
            &["run", "seeks (/s)"],
        );
        use iomark_engine::result::TableCell::Num;
        t.rows = vec![vec![Num(1.0), Num(900.0)], vec![Num(2.0), Num(1100.0)]];
        with_table.tables.push(t);
        let seeks = &charts(std::slice::from_ref(&with_table))[2].traces[0];
        assert_eq!((seeks.y[0], seeks.spread[0]), (1000.0, (900.0, 1100.0)));
        let files = &c[3];
        assert_eq!(files.traces.len(), 2);
        assert_eq!(files.traces[1].name, "random");
        assert_eq!(files.traces[1].cats, ["create", "stat", "delete"]);
        let lat = &c[4];
        assert_eq!(
            (lat.x_scale, lat.y_scale),
            (super::super::Scale::Nines, super::super::Scale::Log)
        );
        assert_eq!(lat.traces.len(), 12);
        assert!(c.iter().all(|c| c.title.starts_with("bonnie++: ")));
        // Not a bonnie run: nothing.
        let mut other = s;
        other.jobs.push(job("randread", "read", 1.0, 1.0));
        assert!(charts(&[other]).is_empty());
    }
}
