//! Throughput mode over many processes (the ranks of an MPI launch, as iozone's cluster mode
//! spreads its children over client hosts): every process runs its children through the same
//! passes, all released together, and the figures of one pass are merged into one block over
//! every child of every process. A process sends its part of each pass ([`TpPart`]); the
//! merge ([`merge`]) lays the children out process after process and keeps which children each
//! process ran ([`RankShare`]) for the per-process breakdown of the result file.

use super::plan::Plan;
use super::run::Measure;
use super::throughput::{run_count_with, RankShare, ThroughputError, TpFigure};
use iomark_engine::pass::group::GroupHooks;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

/// What ties this process's passes to the other processes' (the caller's transport). Passes
/// are numbered from 0 over every child count of the plan, in the order they run.
pub trait Peers: Sync {
    /// Every child here is prepared for pass `pass`: waits for the word to start it (false
    /// ends the run without it).
    fn ready(&self, pass: usize) -> bool;
    /// A child here finished pass `pass` while every child still ran: the stonewall that the
    /// caller raises for every process (in `wall` of [`run_process`] here).
    fn walled(&self, pass: usize);
    /// This process's figure of pass `pass`, as the pass ends.
    fn figure(&self, pass: usize, f: &TpFigure);
}

/// Runs this process's share of a throughput plan in cluster mode: every child count of the
/// plan, each pass released through `peers` and stopped by `wall` (raised when a child of any
/// process finished first) or `stop`. Returns this process's figures, in pass order.
pub fn run_process(
    plan: &Plan,
    keep: bool,
    stop: &Arc<AtomicBool>,
    wall: &AtomicBool,
    peers: &dyn Peers,
) -> Result<Vec<TpFigure>, ThroughputError> {
    let counts = plan
        .throughput
        .as_ref()
        .ok_or(ThroughputError::NotThroughput)?
        .counts
        .clone();
    let next = AtomicUsize::new(0);
    let current = || next.load(Ordering::SeqCst).saturating_sub(1);
    let gate = || peers.ready(next.fetch_add(1, Ordering::SeqCst));
    let on_wall = || peers.walled(current());
    let hooks = GroupHooks {
        gate: Some(&gate),
        wall: Some(wall),
        on_wall: Some(&on_wall),
    };
    let mut figures = Vec::new();
    for n in counts {
        let mut on_figure = |f: &TpFigure| peers.figure(current(), f);
        figures.extend(run_count_with(plan, n, keep, stop, hooks, &mut on_figure)?.figures);
        if stop.load(Ordering::Relaxed) {
            break;
        }
    }
    Ok(figures)
}

/// Gives this process its own files: each child's file not `named` for it (by the caller's
/// words for the process) gets the suffix `.RANK`; devices under /dev/ keep their names
/// (each host has its own). True when a suffix was added.
pub fn own_files(plan: &mut Plan, named: &[bool], rank: usize) -> bool {
    let mut any = false;
    if let Some(tp) = &mut plan.throughput {
        for (i, f) in tp.files.iter_mut().enumerate() {
            if !named.get(i).copied().unwrap_or(false) && !f.starts_with("/dev/") {
                let mut s = f.clone().into_os_string();
                s.push(format!(".{rank}"));
                *f = PathBuf::from(s);
                any = true;
            }
        }
    }
    any
}

/// One process's figures of one pass, as it sends them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TpPart {
    pub per_child: Vec<Measure>,
    pub cut: Vec<bool>,
    pub writer: Vec<bool>,
    /// From this process's release to its last child's end (ns).
    pub parent_ns: u64,
}

impl TpPart {
    pub fn of(f: &TpFigure) -> TpPart {
        TpPart {
            per_child: f.per_child.clone(),
            cut: f.cut.clone(),
            writer: f.writer.clone(),
            parent_ns: f.parent_ns,
        }
    }
}

/// The merged figure of one pass: `like` (this process's own figure of it) gives the test's
/// names; `parts` are every process's part with its rank and host, in rank order. The parent's
/// time is the longest process's (each measured from its own release; the releases lie within
/// the barrier's spread), so no two hosts' clocks are compared for it.
pub fn merge(like: &TpFigure, parts: &[(usize, String, TpPart)]) -> TpFigure {
    let mut f = TpFigure {
        label: like.label,
        report: like.report,
        children: 0,
        per_child: Vec::new(),
        cut: Vec::new(),
        writer: Vec::new(),
        parent_ns: 0,
        start_spread_ns: 0,
        ranks: Vec::new(),
    };
    for (rank, host, p) in parts {
        f.ranks.push(RankShare {
            rank: *rank,
            host: host.clone(),
            first_child: f.per_child.len(),
            children: p.per_child.len() as u32,
            parent_ns: p.parent_ns,
        });
        f.per_child.extend(p.per_child.iter().cloned());
        f.cut.extend(&p.cut);
        f.writer.extend(&p.writer);
        f.parent_ns = f.parent_ns.max(p.parent_ns);
    }
    f.children = f.per_child.len() as u32;
    let starts = f.per_child.iter().map(|m| m.start_unix_us);
    let spread = starts.clone().max().unwrap_or(0) - starts.min().unwrap_or(0);
    f.start_spread_ns = spread * 1000;
    f
}

impl TpFigure {
    /// The figure of one process's children within a merged figure.
    pub fn share(&self, s: &RankShare) -> TpFigure {
        let r = s.first_child..s.first_child + s.children as usize;
        TpFigure {
            label: self.label,
            report: self.report,
            children: s.children,
            per_child: self.per_child[r.clone()].to_vec(),
            cut: self.cut[r.clone()].to_vec(),
            writer: self.writer[r].to_vec(),
            parent_ns: s.parent_ns,
            start_spread_ns: 0,
            ranks: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::iozone::run::Unit;

    fn fig(bytes: &[u64], parent_ns: u64) -> TpFigure {
        TpFigure {
            label: "initial writers",
            report: "Initial write",
            children: bytes.len() as u32,
            per_child: bytes
                .iter()
                .map(|&b| Measure {
                    bytes: b,
                    ops: b / 4096,
                    timed_ns: 1_000_000_000,
                    ..Default::default()
                })
                .collect(),
            cut: vec![false; bytes.len()],
            writer: vec![true; bytes.len()],
            parent_ns,
            start_spread_ns: 0,
            ranks: Vec::new(),
        }
    }

    #[test]
    fn the_merge_adds_every_child_of_every_process() {
        let a = fig(&[1 << 20, 2 << 20], 1_500_000_000);
        let b = fig(&[3 << 20], 2_000_000_000);
        let parts = vec![
            (0, "n0".to_string(), TpPart::of(&a)),
            (1, "n1".to_string(), TpPart::of(&b)),
        ];
        let m = merge(&a, &parts);
        assert_eq!(m.children, 3);
        assert_eq!(m.parent_ns, 2_000_000_000);
        assert_eq!(m.children_see(Unit::KiBps), 6.0 * 1024.0);
        assert_eq!(
            m.children_see(Unit::KiBps),
            a.children_see(Unit::KiBps) + b.children_see(Unit::KiBps)
        );
        assert_eq!(m.ranks[1].first_child, 2);
        assert_eq!(m.share(&m.ranks[1]).per_child, b.per_child);
        assert_eq!(m.share(&m.ranks[0]).parent_ns, 1_500_000_000);
        let text = crate::iozone::throughput::block_per(&m, Unit::KiBps, true, false, "process");
        assert!(text.contains("Children see throughput for  3 initial writers"));
        assert!(text.contains("Min throughput per process"));
        assert!(text.contains("Child[2] xfer count"));
    }
}
