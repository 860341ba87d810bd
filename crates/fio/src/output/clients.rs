//! fio's client output for a run of many ranks (a result with `ranks`): every rank's report as
//! a client's, then the "All clients" report of every rank merged exactly (histograms added, so
//! its percentiles are those of all samples, as fio 3.39+ prints them), then iomark's cluster
//! figures: stonewall and all-done throughput, the sums of the ranks' rates, the slowest ranks
//! and each host's share.
//!
//! - Normal: each rank's lines prefixed with `<host>` (`<host#rank>` when a host runs several
//!   ranks), as fio's client prefixes what a server sends; then the "All clients" blocks.
//! - JSON: `client_stats` in place of `jobs`: per job, each rank's entry with `hostname` and
//!   `port` (the rank: no network port is involved), then the "All clients" entry with the last
//!   rank's `hostname` and `port`, as fio does; `disk_util` entries carry them too. The cluster
//!   figures sit under the root's `iomark` key.
//! - Terse: each rank's lines, then the "All clients" lines.

use super::fmt::{num2str, Unit};
use super::group::{self, Report};
use super::json::{self, Client, J};
use super::{normal, terse, OutputFormat};
use iomark_engine::cluster::{self, ClusterJob, ClusterResult, Flow};
use iomark_engine::job::Dir;
use iomark_engine::result::JobResult;
use iomark_engine::RunResult;
use std::fmt::Write as _;

/// The job name of the merged entries, as fio names them.
pub const ALL_CLIENTS: &str = "All clients";

/// Render a result of many ranks; None when its ranks do not merge (then it is shown as a
/// run on one host).
pub fn render(result: &RunResult, format: OutputFormat, terse_version: u32) -> Option<String> {
    let c = cluster::merge(result.ranks.clone()).ok()?;
    Some(match format {
        OutputFormat::Normal => normal_out(result, &c),
        OutputFormat::Json => json_out(result, &c, false),
        OutputFormat::JsonPlus => json_out(result, &c, true),
        OutputFormat::Terse => terse_out(result, &c, terse_version),
    })
}

/// Each rank's own report.
fn rank_reports(c: &ClusterResult) -> Vec<Report> {
    c.ranks.iter().map(|r| group::build(&r.result)).collect()
}

/// The "All clients" report: the merged result's units, named "All clients", each counting the
/// members and CPU time base of the ranks' units it covers.
fn all_clients(result: &RunResult, ranks: &[Report]) -> Report {
    let mut report = group::build(result);
    for u in &mut report.units {
        let idx = u.job.job_index;
        let (members, cpu_ms) = ranks
            .iter()
            .flat_map(|r| r.units.iter().filter(|x| x.job.job_index == idx))
            .fold((0, 0), |(m, c), x| (m + x.members, c + x.cpu_runtime_ms));
        if members > 0 {
            u.members = members;
            u.cpu_runtime_ms = cpu_ms;
        }
        u.job.name = ALL_CLIENTS.to_string();
    }
    report
}

fn normal_out(result: &RunResult, c: &ClusterResult) -> String {
    let mut out = String::new();
    for r in &c.ranks {
        let label = c.rank_label(r.rank);
        for line in normal::render(&r.result).lines() {
            if line.is_empty() {
                out.push('\n');
            } else {
                let _ = writeln!(out, "<{label}> {line}");
            }
        }
    }
    let all = all_clients(result, &rank_reports(c));
    out.push('\n');
    normal::body(&mut out, &all);
    cluster_lines(&mut out, c);
    normal::tail(&mut out, result);
    out
}

fn bw(bytes_per_s: f64) -> String {
    let b = bytes_per_s.round() as u64;
    format!(
        "BW={} ({})",
        num2str(b, 4, true, Unit::BytePerSec),
        num2str(b, 4, false, Unit::BytePerSec)
    )
}

fn rate_line(iops: f64, bytes_per_s: f64) -> String {
    format!(
        "IOPS={}, {}",
        num2str(iops.round() as u64, 4, false, Unit::None),
        bw(bytes_per_s)
    )
}

/// A job's rate over all its directions: (IOPS, bytes/s).
fn job_rate(j: &JobResult) -> (f64, f64) {
    let ms = Dir::ALL
        .iter()
        .map(|&d| j.dirs[d].runtime_ms)
        .max()
        .unwrap_or(0);
    if ms == 0 {
        return (0.0, 0.0);
    }
    let ios: u64 = Dir::ALL.iter().map(|&d| j.dirs[d].total_ios).sum();
    let bytes: u64 = Dir::ALL.iter().map(|&d| j.dirs[d].io_bytes).sum();
    (
        ios as f64 * 1000.0 / ms as f64,
        bytes as f64 * 1000.0 / ms as f64,
    )
}

fn flow_lines(out: &mut String, c: &ClusterResult, name: &str, d: Dir, f: &Flow) {
    let _ = writeln!(
        out,
        "  {name}: {}: stonewall: {} over {}msec, while all {} ranks ran (first done: rank {} <{}>)",
        d.name(),
        rate_line(f.stonewall_iops(), f.stonewall_bw()),
        f.stonewall_ms,
        f.ranks,
        f.first_rank,
        c.rank_label(f.first_rank)
    );
    if f.logged_ranks > 0 {
        let _ = writeln!(
            out,
            "    (the share of the {} rank(s) still running at the stonewall comes from their bandwidth logs)",
            f.logged_ranks
        );
    }
    if f.estimated_ranks > 0 {
        let _ = writeln!(
            out,
            "    (the share of the {} rank(s) still running at the stonewall is estimated from each one's mean rate)",
            f.estimated_ranks
        );
    }
    let _ = writeln!(
        out,
        "  {name}: {}: all done : {} over {}msec, the slowest rank's time (rank {} <{}>)",
        d.name(),
        rate_line(f.all_done_iops(), f.all_done_bw()),
        f.all_done_ms,
        f.last_rank,
        c.rank_label(f.last_rank)
    );
    let _ = writeln!(
        out,
        "  {name}: {}: sum of the ranks' own rates: {}",
        d.name(),
        rate_line(f.sum_rate_iops, f.sum_rate_bytes)
    );
}

/// iomark's cluster figures, after fio's blocks.
fn cluster_lines(out: &mut String, c: &ClusterResult) {
    let _ = writeln!(
        out,
        "\nCluster: {} ranks on {} host{} ({})",
        c.ranks.len(),
        c.hosts.len(),
        if c.hosts.len() == 1 { "" } else { "s" },
        c.hosts.join(", ")
    );
    for j in &c.jobs {
        job_cluster_lines(out, c, j);
    }
}

fn job_cluster_lines(out: &mut String, c: &ClusterResult, j: &ClusterJob) {
    let name = &j.name;
    for d in Dir::ALL {
        let f = &j.flow[d];
        if !f.is_empty() {
            flow_lines(out, c, name, d, f);
        }
    }
    if !j.slowest.is_empty() {
        let list: Vec<String> = j
            .slowest
            .iter()
            .map(|s| {
                format!(
                    "rank {} <{}> {} in {}msec ({:+.1}% against the median rank)",
                    s.rank,
                    c.rank_label(s.rank),
                    rate_line(s.iops, s.bw_bytes),
                    s.runtime_ms,
                    s.vs_median_pct
                )
            })
            .collect();
        let _ = writeln!(out, "  {name}: slowest ranks: {}", list.join("; "));
    }
    let hosts: Vec<String> = j
        .hosts
        .iter()
        .map(|h| {
            let (iops, b) = job_rate(&h.job);
            let ranks: Vec<String> = h.ranks.iter().map(usize::to_string).collect();
            format!(
                "<{}> rank{} {}: {}",
                h.host,
                if h.ranks.len() == 1 { "" } else { "s" },
                ranks.join(","),
                rate_line(iops, b)
            )
        })
        .collect();
    let _ = writeln!(out, "  {name}: per host: {}", hosts.join("; "));
    let longest = Dir::ALL.iter().map(|&d| j.flow[d].stonewall_ms).max();
    if longest.is_some_and(|ms| j.start_skew_ms > 1000.max(ms / 10)) {
        let _ = writeln!(
            out,
            "  {name}: the ranks started up to {} ms apart by their clocks; both figures assume they started together",
            j.start_skew_ms
        );
    }
}

fn client(c: &ClusterResult, rank: usize) -> Client<'_> {
    let host = c
        .ranks
        .iter()
        .find(|r| r.rank == rank)
        .map(|r| r.host.as_str())
        .unwrap_or("");
    Client {
        hostname: host,
        port: rank as u64,
    }
}

fn json_out(result: &RunResult, c: &ClusterResult, plus: bool) -> String {
    let ranks = rank_reports(c);
    let all = all_clients(result, &ranks);
    let last = c.ranks.last().map(|r| r.rank).unwrap_or(0);
    let mut j = J::new();
    json::head(&mut j, result);
    if result.plan.shown_global_options.is_empty() {
        // fio's client always writes the object.
        j.obj("global options");
        j.end_obj();
    }
    j.arr("client_stats");
    for u in &all.units {
        let idx = u.job.job_index;
        for (r, rep) in c.ranks.iter().zip(&ranks) {
            for ru in rep.units.iter().filter(|x| x.job.job_index == idx) {
                json::job_obj(&mut j, &r.result, rep, ru, plus, Some(client(c, r.rank)));
            }
        }
        json::job_obj(&mut j, result, &all, u, plus, Some(client(c, last)));
    }
    j.end_arr();
    j.arr("disk_util");
    for r in &c.ranks {
        for d in &r.result.disk_util {
            json::disk_obj(&mut j, d, Some(client(c, r.rank)));
        }
    }
    j.end_arr();
    json::iomark_obj(&mut j, result, |j| cluster_obj(j, c));
    j.close_root()
}

fn flow_obj(j: &mut J, d: Dir, f: &Flow) {
    j.obj(d.name());
    j.u("ranks", f.ranks as u64);
    j.u("io_bytes", f.io_bytes);
    j.u("total_ios", f.total_ios);
    j.obj("stonewall");
    j.u("runtime_ms", f.stonewall_ms);
    j.u("first_rank", f.first_rank as u64);
    j.u("io_bytes", f.stonewall_bytes);
    j.u("total_ios", f.stonewall_ios);
    j.f("bw_bytes", f.stonewall_bw());
    j.f("iops", f.stonewall_iops());
    j.u("estimated_ranks", f.estimated_ranks as u64);
    j.u("logged_ranks", f.logged_ranks as u64);
    j.end_obj();
    j.obj("all_done");
    j.u("runtime_ms", f.all_done_ms);
    j.u("last_rank", f.last_rank as u64);
    j.f("bw_bytes", f.all_done_bw());
    j.f("iops", f.all_done_iops());
    j.end_obj();
    j.obj("sum_of_rates");
    j.f("bw_bytes", f.sum_rate_bytes);
    j.f("iops", f.sum_rate_iops);
    j.end_obj();
    j.end_obj();
}

/// The cluster figures under the root's `iomark` key.
fn cluster_obj(j: &mut J, c: &ClusterResult) {
    j.obj("cluster");
    j.u("ranks", c.ranks.len() as u64);
    j.raw(
        "hosts",
        &serde_json::to_string(&c.hosts).unwrap_or_else(|_| "[]".into()),
    );
    j.arr("jobs");
    for cj in &c.jobs {
        j.obj_in_array();
        j.s("jobname", &cj.name);
        j.u("start_skew_ms", cj.start_skew_ms);
        for d in Dir::ALL {
            if !cj.flow[d].is_empty() {
                flow_obj(j, d, &cj.flow[d]);
            }
        }
        j.arr("slowest");
        for s in &cj.slowest {
            j.obj_in_array();
            j.u("rank", s.rank as u64);
            j.s("hostname", &s.host);
            j.f("bw_bytes", s.bw_bytes);
            j.f("iops", s.iops);
            j.u("runtime_ms", s.runtime_ms);
            j.f("vs_median_pct", s.vs_median_pct);
            j.end_obj();
        }
        j.end_arr();
        j.arr("hosts");
        for h in &cj.hosts {
            let (iops, b) = job_rate(&h.job);
            j.obj_in_array();
            j.s("hostname", &h.host);
            j.raw(
                "ranks",
                &serde_json::to_string(&h.ranks).unwrap_or_else(|_| "[]".into()),
            );
            j.f("bw_bytes", b);
            j.f("iops", iops);
            j.end_obj();
        }
        j.end_arr();
        j.end_obj();
    }
    j.end_arr();
    j.end_obj();
}

fn terse_out(result: &RunResult, c: &ClusterResult, version: u32) -> String {
    let ranks = rank_reports(c);
    let mut out = String::new();
    for (r, rep) in c.ranks.iter().zip(&ranks) {
        out.push_str(&terse::render_report(&r.result, rep, version));
    }
    let all = all_clients(result, &ranks);
    out.push_str(&terse::render_report(result, &all, version));
    out
}

#[cfg(test)]
#[path = "clients_tests.rs"]
mod tests;
