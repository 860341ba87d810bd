//! A result of many ranks (`ranks` in the result file): the breakdowns a report draws, as
//! tables of the source (suite `cluster`): per rank, per host (with all clients together) and
//! the run's throughput figures (stonewall, all done, sum of the ranks' rates).

use iomark_engine::cluster::{self, ClusterResult};
use iomark_engine::job::Dir;
use iomark_engine::result::{JobResult, LatRecord, RunResult, SuiteTable, TableCell, TableKind};

pub use iomark_engine::result::table::{
    CLUSTER_PER_HOST as PER_HOST, CLUSTER_PER_RANK as PER_RANK, CLUSTER_THROUGHPUT as THROUGHPUT,
};

/// The label of the row with every rank merged in the per-host table.
pub const ALL: &str = "all clients";

/// The tables, and a fact line ("4 ranks on 2 hosts (a, b)"); None without ranks or when the
/// ranks do not merge.
pub fn tables(r: &RunResult) -> Option<(Vec<SuiteTable>, String)> {
    if r.ranks.is_empty() {
        return None;
    }
    let c = cluster::merge(r.ranks.clone()).ok()?;
    let fact = format!(
        "{} ranks on {} host{} ({})",
        c.ranks.len(),
        c.hosts.len(),
        if c.hosts.len() == 1 { "" } else { "s" },
        c.hosts.join(", ")
    );
    Some((vec![per_rank(&c), per_host(&c), throughput(&c)], fact))
}

fn n(v: f64) -> TableCell {
    TableCell::Num(v)
}
fn t(v: &str) -> TableCell {
    TableCell::Text(v.to_string())
}

/// The latency whose percentiles a report shows: total latency, else completion latency.
fn main_lat(j: &JobResult, d: Dir) -> &LatRecord {
    let x = &j.dirs[d];
    if x.lat.stat.n > 0 {
        &x.lat
    } else {
        &x.clat
    }
}

/// IOPS, MB/s, p50, p99, p99.9 (us) of a direction.
fn figures(j: &JobResult, d: Dir) -> Vec<TableCell> {
    let x = &j.dirs[d];
    let secs = x.runtime_ms as f64 / 1000.0;
    let (iops, mbps) = if secs > 0.0 {
        (x.total_ios as f64 / secs, x.io_bytes as f64 / secs / 1e6)
    } else {
        (0.0, 0.0)
    };
    let mut v = vec![n(iops), n(mbps), n(x.runtime_ms as f64)];
    let l = main_lat(j, d);
    if l.hist.is_empty() {
        v.extend([t(""), t(""), t("")]);
    } else {
        for (_, ns) in l.hist.percentiles(&[50.0, 99.0, 99.9]) {
            v.push(n(ns as f64 / 1000.0));
        }
    }
    v
}

const FIGURES: [&str; 6] = [
    "IOPS",
    "MB/s",
    "runtime (ms)",
    "p50 lat (us)",
    "p99 lat (us)",
    "p99.9 lat (us)",
];

fn columns(first: &[&'static str]) -> Vec<&'static str> {
    first.iter().copied().chain(FIGURES).collect()
}

/// The directions a job did I/O in.
fn dirs(j: &JobResult) -> impl Iterator<Item = Dir> + '_ {
    Dir::ALL.into_iter().filter(|&d| j.dirs[d].total_ios > 0)
}

fn per_rank(c: &ClusterResult) -> SuiteTable {
    let mut tb = SuiteTable::new(
        TableKind::ClusterPerRank,
        PER_RANK,
        &columns(&["job", "direction", "rank", "host"]),
    );
    for cj in &c.jobs {
        for d in dirs(&cj.all) {
            for r in &cj.ranks {
                let mut row = vec![t(&cj.name), t(d.name()), n(r.rank as f64), t(&r.host)];
                row.extend(figures(&r.job, d));
                tb.rows.push(row);
            }
        }
    }
    tb
}

fn per_host(c: &ClusterResult) -> SuiteTable {
    let mut tb = SuiteTable::new(
        TableKind::ClusterPerHost,
        PER_HOST,
        &columns(&["job", "direction", "host", "ranks"]),
    );
    for cj in &c.jobs {
        for d in dirs(&cj.all) {
            for h in &cj.hosts {
                let ranks: Vec<String> = h.ranks.iter().map(usize::to_string).collect();
                let mut row = vec![t(&cj.name), t(d.name()), t(&h.host), t(&ranks.join(","))];
                row.extend(figures(&h.job, d));
                tb.rows.push(row);
            }
            let mut row = vec![
                t(&cj.name),
                t(d.name()),
                t(ALL),
                t(&format!("0-{}", c.ranks.len().saturating_sub(1))),
            ];
            row.extend(figures(&cj.all, d));
            tb.rows.push(row);
        }
    }
    tb
}

fn throughput(c: &ClusterResult) -> SuiteTable {
    let mut tb = SuiteTable::new(
        TableKind::ClusterThroughput,
        THROUGHPUT,
        &[
            "job",
            "direction",
            "figure",
            "IOPS",
            "MB/s",
            "time (ms)",
            "rank",
            "how",
        ],
    );
    for cj in &c.jobs {
        for d in Dir::ALL {
            let f = &cj.flow[d];
            if f.is_empty() {
                continue;
            }
            let mut how = "up to the first rank done".to_string();
            if f.logged_ranks > 0 {
                how.push_str(&format!(
                    "; {} running rank(s) from their bandwidth logs",
                    f.logged_ranks
                ));
            }
            if f.estimated_ranks > 0 {
                how.push_str(&format!(
                    "; {} running rank(s) estimated from their mean rate",
                    f.estimated_ranks
                ));
            }
            for (figure, iops, bw, ms, rank, how) in [
                (
                    "stonewall",
                    f.stonewall_iops(),
                    f.stonewall_bw(),
                    f.stonewall_ms as f64,
                    n(f.first_rank as f64),
                    how,
                ),
                (
                    "all done",
                    f.all_done_iops(),
                    f.all_done_bw(),
                    f.all_done_ms as f64,
                    n(f.last_rank as f64),
                    "every byte over the slowest rank's time".to_string(),
                ),
                (
                    "sum of rates",
                    f.sum_rate_iops,
                    f.sum_rate_bytes,
                    f.all_done_ms as f64,
                    t(""),
                    "each rank's bytes over its own time, added".to_string(),
                ),
            ] {
                tb.rows.push(vec![
                    t(&cj.name),
                    t(d.name()),
                    t(figure),
                    n(iops),
                    n(bw / 1e6),
                    n(ms),
                    rank,
                    t(&how),
                ]);
            }
        }
    }
    tb
}
