//! A run of many ranks: per job and direction, bandwidth and IOPS per rank and per host (the
//! slow ones stand out), latency percentiles of each host against all clients together, and the
//! stonewall, all-done and summed-rate throughput side by side.

use super::{bars, cell_num, cell_text, suite_tables, Chart, Kind};
use crate::model::Source;
use crate::read::cluster::ALL;
use iomark_engine::result::{SuiteTable, TableCell, TableKind};

/// The (job, direction) pairs of a table, in order.
fn job_dirs(t: &SuiteTable) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for r in &t.rows {
        let k = (cell_text(t, r, "job"), cell_text(t, r, "direction"));
        if !out.contains(&k) {
            out.push(k);
        }
    }
    out
}

/// The category label of a row.
type Label = fn(&SuiteTable, &[TableCell]) -> String;

fn rows<'a>(t: &'a SuiteTable, job: &str, dir: &str) -> Vec<&'a [TableCell]> {
    t.rows
        .iter()
        .filter(|r| cell_text(t, r, "job") == job && cell_text(t, r, "direction") == dir)
        .map(Vec::as_slice)
        .collect()
}

pub fn charts(sources: &[Source]) -> Vec<Chart> {
    let mut out = Vec::new();
    for (s, t) in suite_tables(
        sources,
        &[
            TableKind::ClusterPerRank,
            TableKind::ClusterPerHost,
            TableKind::ClusterThroughput,
        ],
    ) {
        for (job, dir) in job_dirs(t) {
            let sec = format!("{} / {job} / ranks and hosts", s.label);
            let id = |x: &str| format!("{}-{job}-{dir}-cluster-{x}", s.label);
            let title = |x: &str| format!("{job} {dir}: {x}");
            let rs = rows(t, &job, &dir);
            match t.kind {
                TableKind::ClusterPerRank | TableKind::ClusterPerHost => {
                    let (what, label): (&str, Label) = if t.kind == TableKind::ClusterPerRank {
                        ("rank", |t, r| {
                            format!(
                                "rank {} ({})",
                                cell_text(t, r, "rank"),
                                cell_text(t, r, "host")
                            )
                        })
                    } else {
                        ("host", |t, r| cell_text(t, r, "host"))
                    };
                    // Per-host bars leave "all clients" out: it would dwarf the hosts.
                    let parts: Vec<&[TableCell]> = rs
                        .iter()
                        .copied()
                        .filter(|r| cell_text(t, r, "host") != ALL || what == "rank")
                        .collect();
                    for (fig, unit) in [("MB/s", "MB/s"), ("IOPS", "IOPS")] {
                        let mut c = Chart::new(
                            id(&format!("{what}-{unit}")),
                            &sec,
                            &title(&format!("{fig} per {what}")),
                            Kind::Bars,
                        )
                        .axes(what, unit);
                        c.traces.push(bars(
                            fig,
                            parts
                                .iter()
                                .map(|r| (label(t, r), cell_num(t, r, fig).unwrap_or(f64::NAN))),
                        ));
                        out.push(c);
                    }
                    if t.kind == TableKind::ClusterPerHost {
                        let mut c = Chart::new(
                            id("host-latency"),
                            &sec,
                            &title("latency percentiles per host and of all clients"),
                            Kind::Bars,
                        )
                        .axes("percentile", "latency (us)");
                        for r in &rs {
                            c.traces.push(bars(
                                &cell_text(t, r, "host"),
                                ["p50", "p99", "p99.9"].iter().map(|p| {
                                    let col = format!("{p} lat (us)");
                                    (p.to_string(), cell_num(t, r, &col).unwrap_or(f64::NAN))
                                }),
                            ));
                        }
                        out.push(c);
                    }
                }
                TableKind::ClusterThroughput => {
                    let mut c = Chart::new(
                        id("throughput"),
                        &sec,
                        &title("stonewall (all ranks running) against all done"),
                        Kind::Bars,
                    )
                    .axes("figure", "MB/s");
                    c.traces.push(bars(
                        "MB/s",
                        rs.iter().map(|r| {
                            (
                                cell_text(t, r, "figure"),
                                cell_num(t, r, "MB/s").unwrap_or(f64::NAN),
                            )
                        }),
                    ));
                    out.push(c);
                }
                _ => {}
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read;
    use iomark_engine::cluster::{self, RankResult};
    use iomark_engine::job::{JobSpec, RunPlan};
    use iomark_engine::result::{JobResult, RunResult};

    fn rank(i: usize, host: &str) -> RankResult {
        let mut j = JobResult {
            name: "w".into(),
            runtime_ms: 1000 + 100 * i as u64,
            ran: true,
            ..Default::default()
        };
        let d = &mut j.dirs.write;
        for k in 0..500u64 {
            d.clat.add(10_000 + k * (i as u64 + 1) * 37);
        }
        d.total_ios = 500;
        d.io_bytes = 500 * 65536;
        d.runtime_ms = j.runtime_ms;
        RankResult {
            rank: i,
            host: host.into(),
            result: RunResult {
                format: iomark_engine::result::RESULT_FORMAT.into(),
                plan: RunPlan {
                    jobs: vec![JobSpec {
                        name: "w".into(),
                        ..Default::default()
                    }],
                    ..Default::default()
                },
                jobs: vec![j],
                ..Default::default()
            },
        }
    }

    #[test]
    fn per_rank_per_host_and_throughput_charts() {
        let ranks = vec![rank(0, "a"), rank(1, "a"), rank(2, "b")];
        let r = cluster::merge(ranks).unwrap().to_run_result();
        let s = read::from_result(&r);
        assert!(s
            .facts
            .iter()
            .any(|(k, v)| k == "ranks" && v == "3 ranks on 2 hosts (a, b)"));
        let cs = charts(std::slice::from_ref(&s));
        let titles: Vec<&str> = cs.iter().map(|c| c.title.as_str()).collect();
        for want in [
            "w write: MB/s per rank",
            "w write: IOPS per rank",
            "w write: MB/s per host",
            "w write: latency percentiles per host and of all clients",
            "w write: stonewall (all ranks running) against all done",
        ] {
            assert!(titles.contains(&want), "{want}: {titles:?}");
        }
        let per_rank = cs
            .iter()
            .find(|c| c.title == "w write: MB/s per rank")
            .unwrap();
        assert_eq!(
            per_rank.traces[0].cats,
            ["rank 0 (a)", "rank 1 (a)", "rank 2 (b)"]
        );
        // 500 x 64 KiB in 1.2 s
        assert!((per_rank.traces[0].y[2] - 500.0 * 65536.0 / 1.2 / 1e6).abs() < 1e-6);
        let lat = cs.iter().find(|c| c.title.contains("latency")).unwrap();
        let names: Vec<&str> = lat.traces.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["a", "b", "all clients"]);
        // the page draws them too
        assert!(super::super::report_charts(&[s]).len() > cs.len());
    }
}
