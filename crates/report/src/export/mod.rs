//! iomark's general exports: CSV ([`csv`]), XLSX ([`xlsx`]) and Markdown ([`markdown`]). Each
//! lists, per source, job, direction and repetition, the same columns ([`COLUMNS`]).

pub mod csv;
pub mod markdown;
mod sheet;
pub mod xlsx;
mod xlsx_grid;
mod xlsx_pct;

use crate::model::{DirFigures, Figure, Job, Source};

/// The export columns, each named with its unit.
/// The `lat_p*` percentiles are of the latency named in `lat_pct_of` (`clat` or `lat`).
pub const COLUMNS: [&str; 17] = [
    "source",
    "job",
    "workload",
    "direction",
    "repetition",
    "iops",
    "bw_MB_per_s",
    "bw_MiB_per_s",
    "lat_p50_us",
    "lat_p99_us",
    "lat_p99.9_us",
    "lat_mean_us",
    "lat_min_us",
    "lat_max_us",
    "usr_cpu_pct",
    "sys_cpu_pct",
    "lat_pct_of",
];

/// A cell: text or a number; None is a figure that was not measured (left empty, never 0).
#[derive(Clone, Debug, PartialEq)]
pub enum Cell {
    Text(String),
    Num(Option<f64>),
}

/// One export row per source, job, direction and repetition. Mean, min and max latency are
/// those of a single run, or of the first repetition when only its latency record was kept;
/// left empty for the others (the record of merged repetitions is no one run's).
pub fn rows(sources: &[Source]) -> Vec<(&Source, &Job, &DirFigures, Vec<Cell>)> {
    let mut out = Vec::new();
    for s in sources {
        for j in &s.jobs {
            for d in &j.dirs {
                for (i, h) in d.reps.iter().enumerate() {
                    let l = d
                        .main_lat()
                        .filter(|_| i == 0 && (d.reps.len() == 1 || d.dist_first_only));
                    let us = |v: f64| Some(v / 1000.0);
                    out.push((
                        s,
                        j,
                        d,
                        vec![
                            Cell::Text(s.label.clone()),
                            Cell::Text(j.name.clone()),
                            Cell::Text(j.signature.to_string()),
                            Cell::Text(d.dir.to_string()),
                            Cell::Num(Some((i + 1) as f64)),
                            Cell::Num(Figure::Iops.of(h)),
                            Cell::Num(Figure::MBps.of(h)),
                            Cell::Num(Some(h.bw / (1u64 << 20) as f64)),
                            Cell::Num(Figure::P50.of(h)),
                            Cell::Num(Figure::P99.of(h)),
                            Cell::Num(Figure::P999.of(h)),
                            Cell::Num(l.and_then(|l| us(l.mean_ns))),
                            Cell::Num(l.and_then(|l| us(l.min_ns))),
                            Cell::Num(l.and_then(|l| us(l.max_ns))),
                            Cell::Num(j.usr_cpu_pct.filter(|_| i == 0)),
                            Cell::Num(j.sys_cpu_pct.filter(|_| i == 0)),
                            Cell::Text(h.pct_of.map(|k| k.name()).unwrap_or("").to_string()),
                        ],
                    ));
                }
            }
        }
    }
    out
}

/// A number as text with enough precision and no float noise.
pub fn num_text(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{v:.0}")
    } else {
        let s = format!("{v:.3}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}
