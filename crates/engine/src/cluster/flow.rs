//! The two throughput figures of a run of many ranks, per direction of a job.
//!
//! - *Stonewall*: the throughput while every rank was still running, from the common start up
//!   to the moment the first rank finished (`stonewall_ms`, the shortest runtime of a rank that
//!   did I/O in the direction). It is what the storage delivered under the full load.
//! - *All done*: everything the ranks did over the slowest rank's runtime (`all_done_ms`). It
//!   includes the tail where fewer ranks were running, so it is never higher than the work
//!   divided by the longest time, and it is what a user waiting for the whole job saw.
//!
//! The bytes a rank had done at the stonewall: a rank that finished at the stonewall counts
//! whole; for a rank still running they come from its bandwidth log when it kept one (the
//! logged bytes up to the stonewall, scaled to its exact totals; [`Flow::logged_ranks`]), else
//! they are estimated from its mean rate over its run (bytes × stonewall time / its runtime),
//! exact for ranks that ran at a steady rate ([`Flow::estimated_ranks`]).

use serde::{Deserialize, Serialize};

/// One direction of one job over all ranks.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Flow {
    /// Ranks that did I/O in this direction.
    pub ranks: usize,
    /// Bytes and I/Os of all ranks.
    pub io_bytes: u64,
    pub total_ios: u64,
    /// The slowest rank's runtime (ms) and which rank it was.
    pub all_done_ms: u64,
    pub last_rank: usize,
    /// The first rank to finish: its runtime (ms) and which rank it was.
    pub stonewall_ms: u64,
    pub first_rank: usize,
    /// Bytes and I/Os of all ranks up to the stonewall.
    pub stonewall_bytes: u64,
    pub stonewall_ios: u64,
    /// Ranks still running at the stonewall, whose share was estimated from their mean rate.
    pub estimated_ranks: usize,
    /// Ranks still running at the stonewall, whose share came from their bandwidth logs.
    #[serde(default)]
    pub logged_ranks: usize,
    /// The sum of every rank's own rate (its bytes over its own runtime): bytes/s and IOPS.
    pub sum_rate_bytes: f64,
    pub sum_rate_iops: f64,
}

/// One rank's figures in a direction: (rank, bytes, I/Os, runtime in ms).
pub(super) type RankFlow = (usize, u64, u64, u64);

impl Flow {
    /// The figures of one direction from each rank's totals (ranks without I/O left out);
    /// `done_at(rank, ms)` gives what a rank had done by then from its log, when it kept one.
    pub(super) fn of(
        ranks: &[RankFlow],
        done_at: impl Fn(usize, u64) -> Option<(u64, u64)>,
    ) -> Flow {
        let active: Vec<&RankFlow> = ranks
            .iter()
            .filter(|r| r.1 > 0 || r.2 > 0)
            .filter(|r| r.3 > 0)
            .collect();
        let mut f = Flow {
            ranks: active.len(),
            ..Flow::default()
        };
        let Some(first) = active.iter().min_by_key(|r| (r.3, r.0)) else {
            return f;
        };
        let last = active
            .iter()
            .max_by_key(|r| (r.3, usize::MAX - r.0))
            .unwrap();
        f.stonewall_ms = first.3;
        f.first_rank = first.0;
        f.all_done_ms = last.3;
        f.last_rank = last.0;
        for &&(rank, bytes, ios, ms) in &active {
            f.io_bytes += bytes;
            f.total_ios += ios;
            f.sum_rate_bytes += bytes as f64 * 1000.0 / ms as f64;
            f.sum_rate_iops += ios as f64 * 1000.0 / ms as f64;
            if ms <= f.stonewall_ms {
                f.stonewall_bytes += bytes;
                f.stonewall_ios += ios;
            } else if let Some((b, n)) = done_at(rank, f.stonewall_ms) {
                f.logged_ranks += 1;
                f.stonewall_bytes += b;
                f.stonewall_ios += n;
            } else {
                f.estimated_ranks += 1;
                f.stonewall_bytes += (bytes as u128 * f.stonewall_ms as u128 / ms as u128) as u64;
                f.stonewall_ios += (ios as u128 * f.stonewall_ms as u128 / ms as u128) as u64;
            }
        }
        f
    }

    fn rate(v: u64, ms: u64) -> f64 {
        if ms == 0 {
            0.0
        } else {
            v as f64 * 1000.0 / ms as f64
        }
    }

    /// Bytes/s while every rank ran.
    pub fn stonewall_bw(&self) -> f64 {
        Flow::rate(self.stonewall_bytes, self.stonewall_ms)
    }
    /// IOPS while every rank ran.
    pub fn stonewall_iops(&self) -> f64 {
        Flow::rate(self.stonewall_ios, self.stonewall_ms)
    }
    /// Bytes/s over the slowest rank's runtime.
    pub fn all_done_bw(&self) -> f64 {
        Flow::rate(self.io_bytes, self.all_done_ms)
    }
    /// IOPS over the slowest rank's runtime.
    pub fn all_done_iops(&self) -> f64 {
        Flow::rate(self.total_ios, self.all_done_ms)
    }
    /// Whether any rank did I/O in this direction.
    pub fn is_empty(&self) -> bool {
        self.ranks == 0
    }
}
