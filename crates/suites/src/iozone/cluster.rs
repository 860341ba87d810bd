//! Throughput mode over many processes (the ranks of an MPI launch, as iozone's cluster mode
//! spreads its children over client hosts): every process runs its children through the same
//! passes, all released together, and the figures of one pass are merged into one block over
//! every child of every process. A process sends its part of each pass ([`TpPart`]); the
//! merge ([`merge`]) lays the children out process after process and keeps which children each
//! process ran ([`RankShare`]) for the per-process breakdown of the result file.

use super::run::Measure;
use super::throughput::{RankShare, TpFigure};
use serde::{Deserialize, Serialize};

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
