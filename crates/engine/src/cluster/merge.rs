//! The exact merge of the ranks' results: per job, all ranks together, each rank, each host,
//! the slowest ranks and the throughput figures of [`Flow`].

use super::flow::{Flow, RankFlow};
use super::RankResult;
use crate::job::{Dir, PerDir};
use crate::result::{HostInfo, JobResult, RunResult};

/// One rank's share of a job: its clones merged.
#[derive(Clone, Debug, PartialEq)]
pub struct RankJob {
    pub rank: usize,
    pub host: String,
    pub job: JobResult,
}

/// One host's share of a job: its ranks merged.
#[derive(Clone, Debug, PartialEq)]
pub struct HostJob {
    pub host: String,
    /// The ranks that ran on the host, in rank order.
    pub ranks: Vec<usize>,
    pub job: JobResult,
}

/// A rank among the slowest of a job, with its rate over all directions.
#[derive(Clone, Debug, PartialEq)]
pub struct SlowRank {
    pub rank: usize,
    pub host: String,
    /// Bytes/s and IOPS over all directions (its bytes over its own runtime).
    pub bw_bytes: f64,
    pub iops: f64,
    pub runtime_ms: u64,
    /// Its rate against the median rank's, in percent (negative: slower).
    pub vs_median_pct: f64,
}

/// One job over all ranks.
#[derive(Clone, Debug, PartialEq)]
pub struct ClusterJob {
    pub job_index: usize,
    pub name: String,
    /// Every clone of every rank merged exactly (see `JobResult::merge`): counts add,
    /// histograms add, the runtime is the slowest rank's.
    pub all: JobResult,
    /// Each rank's clones merged, in rank order.
    pub ranks: Vec<RankJob>,
    /// Each host's ranks merged, in order of first appearance.
    pub hosts: Vec<HostJob>,
    /// Per direction: stonewall and all-done figures, sums of rates.
    pub flow: PerDir<Flow>,
    /// The slowest ranks (at most three), slowest first; empty with a single rank.
    pub slowest: Vec<SlowRank>,
    /// How far apart the ranks started the job (ms, by their clocks).
    pub start_skew_ms: u64,
}

/// The merge of a run of many ranks.
#[derive(Clone, Debug, PartialEq)]
pub struct ClusterResult {
    /// The ranks' own results, in rank order.
    pub ranks: Vec<RankResult>,
    pub jobs: Vec<ClusterJob>,
    /// The distinct hosts, in order of first appearance.
    pub hosts: Vec<String>,
}

/// Why ranks' results cannot be merged.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum ClusterError {
    #[error("no results to merge")]
    NoRanks,
    #[error("rank {rank} appears twice (hosts {first} and {second})")]
    DuplicateRank {
        rank: usize,
        first: String,
        second: String,
    },
    /// A rank ran other jobs than rank 0 did.
    #[error("rank {rank} on {host} ran other jobs than rank {first_rank}: {detail}")]
    OtherJobs {
        rank: usize,
        host: String,
        first_rank: usize,
        detail: String,
    },
}

/// The jobs' names of a result, in plan order.
fn job_names(r: &RunResult) -> Vec<String> {
    r.plan.jobs.iter().map(|j| j.name.clone()).collect()
}

/// Merge the ranks' results (any order; sorted by rank). Every rank must have run the same
/// jobs (by name, in plan order).
pub fn merge(mut ranks: Vec<RankResult>) -> Result<ClusterResult, ClusterError> {
    ranks.sort_by_key(|r| r.rank);
    let first = ranks.first().ok_or(ClusterError::NoRanks)?;
    for w in ranks.windows(2) {
        if w[0].rank == w[1].rank {
            return Err(ClusterError::DuplicateRank {
                rank: w[0].rank,
                first: w[0].host.clone(),
                second: w[1].host.clone(),
            });
        }
    }
    let names = job_names(&first.result);
    for r in &ranks[1..] {
        let other = job_names(&r.result);
        if other != names {
            return Err(ClusterError::OtherJobs {
                rank: r.rank,
                host: r.host.clone(),
                first_rank: first.rank,
                detail: format!("[{}] against [{}]", other.join(", "), names.join(", ")),
            });
        }
    }
    let mut hosts: Vec<String> = Vec::new();
    for r in &ranks {
        if !hosts.contains(&r.host) {
            hosts.push(r.host.clone());
        }
    }
    let jobs = names
        .iter()
        .enumerate()
        .map(|(idx, name)| cluster_job(&ranks, idx, name))
        .collect();
    Ok(ClusterResult { ranks, jobs, hosts })
}

/// Merge `parts` into one result (the first one's identity); an empty default without parts.
fn merged<'a>(parts: impl IntoIterator<Item = &'a JobResult>) -> JobResult {
    let mut it = parts.into_iter();
    let Some(first) = it.next() else {
        return JobResult::default();
    };
    let mut m = first.clone();
    for p in it {
        m.merge(p);
    }
    m
}

fn cluster_job(ranks: &[RankResult], idx: usize, name: &str) -> ClusterJob {
    let per_rank: Vec<RankJob> = ranks
        .iter()
        .map(|r| {
            let mut job = merged(r.result.jobs.iter().filter(|j| j.job_index == idx));
            if job.name.is_empty() {
                job.name = name.to_string();
                job.job_index = idx;
            }
            RankJob {
                rank: r.rank,
                host: r.host.clone(),
                job,
            }
        })
        .collect();
    let mut hosts: Vec<HostJob> = Vec::new();
    for rj in &per_rank {
        match hosts.iter_mut().find(|h| h.host == rj.host) {
            Some(h) => {
                h.ranks.push(rj.rank);
                h.job.merge(&rj.job);
            }
            None => hosts.push(HostJob {
                host: rj.host.clone(),
                ranks: vec![rj.rank],
                job: rj.job.clone(),
            }),
        }
    }
    let all = merged(per_rank.iter().map(|r| &r.job));
    let clones = |rank: usize| -> Vec<&JobResult> {
        ranks
            .iter()
            .filter(|r| r.rank == rank)
            .flat_map(|r| r.result.jobs.iter().filter(|j| j.job_index == idx))
            .collect()
    };
    let flow = PerDir {
        read: dir_flow(&per_rank, Dir::Read, &clones),
        write: dir_flow(&per_rank, Dir::Write, &clones),
        trim: dir_flow(&per_rank, Dir::Trim, &clones),
    };
    let starts: Vec<u64> = per_rank
        .iter()
        .filter(|r| r.job.ran)
        .map(|r| r.job.start_unix_ms)
        .collect();
    let start_skew_ms = match (starts.iter().min(), starts.iter().max()) {
        (Some(a), Some(b)) => b - a,
        _ => 0,
    };
    ClusterJob {
        job_index: idx,
        name: name.to_string(),
        slowest: slowest(&per_rank),
        all,
        ranks: per_rank,
        hosts,
        flow,
        start_skew_ms,
    }
}

fn dir_flow<'a>(ranks: &[RankJob], d: Dir, clones: &dyn Fn(usize) -> Vec<&'a JobResult>) -> Flow {
    let v: Vec<RankFlow> = ranks
        .iter()
        .map(|r| {
            let x = &r.job.dirs[d];
            (r.rank, x.io_bytes, x.total_ios, x.runtime_ms)
        })
        .collect();
    Flow::of(&v, |rank, ms| {
        let mut done = (0, 0);
        for c in clones(rank) {
            let (b, n) = logged_at(c, d, ms)?;
            done.0 += b;
            done.1 += n;
        }
        Some(done)
    })
}

/// What a clone had done in direction `d` by `ms` into its run, from its bandwidth log (each
/// entry: the rate over the window since the previous one): the logged bytes up to `ms` as a
/// share of all logged bytes, applied to its exact totals. None when it did I/O in `d` and
/// logged none.
fn logged_at(c: &JobResult, d: Dir, ms: u64) -> Option<(u64, u64)> {
    let x = &c.dirs[d];
    if x.total_ios == 0 && x.io_bytes == 0 {
        return Some((0, 0));
    }
    if ms >= x.runtime_ms {
        return Some((x.io_bytes, x.total_ios));
    }
    let ddir = d.idx() as u8;
    let (mut before, mut total, mut prev) = (0f64, 0f64, 0u64);
    for e in c.series.bw.iter().filter(|e| e.ddir == ddir) {
        let span = e.t_ms.saturating_sub(prev);
        let kib = e.value as f64 * span as f64 / 1000.0;
        total += kib;
        if e.t_ms <= ms {
            before += kib;
        } else if prev < ms {
            before += kib * (ms - prev) as f64 / span as f64;
        }
        prev = prev.max(e.t_ms);
    }
    if total <= 0.0 {
        return None;
    }
    let share = (before / total).min(1.0);
    Some((
        (x.io_bytes as f64 * share).round() as u64,
        (x.total_ios as f64 * share).round() as u64,
    ))
}

/// A rank's rate over all directions: (bytes/s, IOPS, runtime ms).
fn rank_rate(j: &JobResult) -> (f64, f64, u64) {
    let bytes: u64 = Dir::ALL.iter().map(|&d| j.dirs[d].io_bytes).sum();
    let ios: u64 = Dir::ALL.iter().map(|&d| j.dirs[d].total_ios).sum();
    let ms = Dir::ALL
        .iter()
        .map(|&d| j.dirs[d].runtime_ms)
        .max()
        .unwrap_or(0)
        .max(j.runtime_ms);
    if ms == 0 {
        return (0.0, 0.0, 0);
    }
    (
        bytes as f64 * 1000.0 / ms as f64,
        ios as f64 * 1000.0 / ms as f64,
        ms,
    )
}

fn slowest(ranks: &[RankJob]) -> Vec<SlowRank> {
    if ranks.len() < 2 {
        return Vec::new();
    }
    let mut rates: Vec<(usize, f64, f64, u64)> = ranks
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let (bw, iops, ms) = rank_rate(&r.job);
            (i, bw, iops, ms)
        })
        .collect();
    // Slowest first; equal rates in rank order.
    rates.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
    let n = rates.len();
    let median = if n % 2 == 1 {
        rates[n / 2].1
    } else {
        (rates[n / 2 - 1].1 + rates[n / 2].1) / 2.0
    };
    rates
        .iter()
        .take(3)
        .map(|&(i, bw, iops, ms)| SlowRank {
            rank: ranks[i].rank,
            host: ranks[i].host.clone(),
            bw_bytes: bw,
            iops,
            runtime_ms: ms,
            vs_median_pct: if median > 0.0 {
                (bw / median - 1.0) * 100.0
            } else {
                0.0
            },
        })
        .collect()
}

impl ClusterResult {
    /// The result file of the whole run: per job the merged result of all ranks (its
    /// identity: the job's name and index, the first rank's start), the run's facts over all
    /// ranks (hosts listed, CPUs and memory added), every rank's disk utilisation named with
    /// its host, the notes of every rank once, and every rank's own result under `ranks`.
    pub fn to_run_result(&self) -> RunResult {
        let first = &self.ranks[0].result;
        let jobs = self
            .jobs
            .iter()
            .map(|cj| {
                let mut j = cj.all.clone();
                j.name = cj.name.clone();
                j.job_index = cj.job_index;
                j.clone = 0;
                j.thread_number = cj.job_index as u32 + 1;
                j
            })
            .collect();
        // The first rank's system facts (each rank keeps its own); the hosts' CPUs and memory
        // added up below.
        let mut host = HostInfo {
            hostname: self.hosts.join(","),
            cpus: 0,
            mem_bytes: 0,
            ..first.host.clone()
        };
        let mut seen: Vec<&str> = Vec::new();
        for r in &self.ranks {
            if !seen.contains(&r.host.as_str()) {
                seen.push(&r.host);
                host.cpus += r.result.host.cpus;
                host.mem_bytes += r.result.host.mem_bytes;
            }
        }
        let mut notes: Vec<crate::note::Note> = Vec::new();
        let mut disk_util = Vec::new();
        for r in &self.ranks {
            for n in &r.result.notes {
                if !notes.contains(n) {
                    notes.push(n.clone());
                }
            }
            for d in &r.result.disk_util {
                let mut d = d.clone();
                d.name = format!("{}:{}", r.host, d.name);
                if !disk_util
                    .iter()
                    .any(|x: &crate::result::DiskUtil| x.name == d.name)
                {
                    disk_util.push(d);
                }
            }
        }
        let start = self
            .ranks
            .iter()
            .map(|r| r.result.start_unix_ms)
            .min()
            .unwrap_or(0);
        let mut run = RunResult::assemble(&first.plan, start, host, jobs);
        run.disk_util = disk_util;
        run.interrupted = self.ranks.iter().any(|r| r.result.interrupted);
        run.notes = notes;
        run.ranks = self.ranks.clone();
        run.command_line = first.command_line.clone();
        run
    }

    /// The label of a rank in outputs: its host, with the rank when the host runs several.
    pub fn rank_label(&self, rank: usize) -> String {
        let Some(r) = self.ranks.iter().find(|r| r.rank == rank) else {
            return format!("rank {rank}");
        };
        if self.ranks.iter().filter(|x| x.host == r.host).count() > 1 {
            format!("{}#{}", r.host, rank)
        } else {
            r.host.clone()
        }
    }
}
