//! The log-linear latency histogram: bucket scheme, recording, merging and percentiles.

use super::percentile::{clamp_pct, reaches};
use super::{FIO_HIST_BUCKETS, HIST_BITS, HIST_BUCKETS, HIST_GROUP_BUCKETS};

/// fio-compatible log-linear latency histogram in ns (64 sub-buckets per power of two).
///
/// For a value `v` whose most significant bit is `msb` (`msb(0) = 0`): values below 128 have
/// their own bucket (`index = v`); otherwise `e = msb - 6` low bits are dropped and
/// `index = (e + 1) * 64 + ((v >> e) & 63)`. Indices are identical to fio's for every value
/// inside fio's range, so bucket midpoints (json+ `bins` keys) match fio's.
///
/// The counters (~18 KiB) are allocated at the first recorded value: a histogram nothing was
/// recorded in (a direction a job does not use, slat of a synchronous engine) costs no memory.
#[derive(Clone, Default, Eq)]
pub struct Histogram {
    /// Empty, or exactly [`HIST_BUCKETS`] counters.
    pub counts: Vec<u64>,
}

impl PartialEq for Histogram {
    fn eq(&self, o: &Self) -> bool {
        match (self.counts.is_empty(), o.counts.is_empty()) {
            (false, false) => self.counts == o.counts,
            (true, _) => o.is_empty(),
            (_, true) => self.is_empty(),
        }
    }
}

impl std::fmt::Debug for Histogram {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Histogram")
            .field("count", &self.count())
            .field("buckets", &SparseCounts(self))
            .finish()
    }
}

struct SparseCounts<'a>(&'a Histogram);

impl std::fmt::Debug for SparseCounts<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map()
            .entries(self.0.counts.iter().enumerate().filter(|(_, &c)| c != 0))
            .finish()
    }
}

impl Histogram {
    /// An empty histogram (its counters are allocated when the first value is recorded).
    pub fn new() -> Self {
        Self::default()
    }

    /// The counters for writing, allocated on first use.
    #[inline]
    pub fn slots_mut(&mut self) -> &mut [u64] {
        if self.counts.is_empty() {
            self.counts = vec![0u64; HIST_BUCKETS];
        }
        &mut self.counts
    }

    /// Bucket index of a value in ns (values beyond the top group map to the last bucket).
    #[inline]
    pub fn bucket_index(v: u64) -> usize {
        let msb = 63 - (v | 1).leading_zeros();
        let shift = msb.saturating_sub(HIST_BITS);
        let idx = ((shift as usize) << HIST_BITS) + (v >> shift) as usize;
        if idx < HIST_BUCKETS {
            idx
        } else {
            HIST_BUCKETS - 1
        }
    }

    /// Reported value (midpoint, truncated to an integer) of a bucket in ns. Indices past the
    /// last bucket are treated as the last bucket.
    pub fn bucket_value(idx: usize) -> u64 {
        let idx = idx.min(HIST_BUCKETS - 1);
        if idx < 2 * HIST_GROUP_BUCKETS {
            return idx as u64;
        }
        let eb = (idx >> HIST_BITS) as u32 - 1;
        let base = 1u64 << (eb + HIST_BITS);
        let k = (idx & (HIST_GROUP_BUCKETS - 1)) as u64;
        base + (k << eb) + (1u64 << (eb - 1))
    }

    /// Half-open value range `[lo, hi)` in ns covered by a bucket (the last bucket also holds
    /// every larger value).
    pub fn bucket_range(idx: usize) -> (u64, u64) {
        let idx = idx.min(HIST_BUCKETS - 1);
        if idx < 2 * HIST_GROUP_BUCKETS {
            return (idx as u64, idx as u64 + 1);
        }
        let eb = (idx >> HIST_BITS) as u32 - 1;
        let base = 1u64 << (eb + HIST_BITS);
        let k = (idx & (HIST_GROUP_BUCKETS - 1)) as u64;
        let lo = base + (k << eb);
        (lo, lo + (1u64 << eb))
    }

    /// Count one value in ns.
    #[inline]
    pub fn record(&mut self, ns: u64) {
        let i = Self::bucket_index(ns);
        self.slots_mut()[i] += 1;
    }

    /// Count `n` occurrences of a value in ns.
    #[inline]
    pub fn record_n(&mut self, ns: u64, n: u64) {
        let i = Self::bucket_index(ns);
        let slot = &mut self.slots_mut()[i];
        *slot = slot.saturating_add(n);
    }

    /// Add another histogram's counts (exact).
    pub fn merge(&mut self, o: &Histogram) {
        if o.counts.is_empty() {
            return;
        }
        for (a, b) in self.slots_mut().iter_mut().zip(o.counts.iter()) {
            *a = a.saturating_add(*b);
        }
    }

    /// Counts recorded since `earlier` (a previous snapshot of this histogram), bucket by bucket;
    /// buckets that went down count as 0.
    pub fn delta_since(&self, earlier: &Histogram) -> Histogram {
        let mut out = Histogram::new();
        if self.counts.is_empty() {
            return out;
        }
        let zeros = std::iter::repeat(&0u64);
        for ((o, a), b) in out
            .slots_mut()
            .iter_mut()
            .zip(self.counts.iter())
            .zip(earlier.counts.iter().chain(zeros))
        {
            *o = a.saturating_sub(*b);
        }
        out
    }

    /// Reset every count to 0 (keeps the allocation).
    pub fn clear(&mut self) {
        self.counts.fill(0);
    }

    /// Number of recorded values.
    pub fn count(&self) -> u64 {
        self.counts.iter().fold(0u64, |a, &c| a.saturating_add(c))
    }

    /// True when nothing was recorded.
    pub fn is_empty(&self) -> bool {
        self.counts.iter().all(|&c| c == 0)
    }

    /// Raw bucket counts: [`HIST_BUCKETS`] of them, or none when nothing was recorded.
    pub fn counts(&self) -> &[u64] {
        &self.counts[..]
    }

    /// Percentile `p` (0..=100) with fio's rule: the midpoint of the first bucket whose
    /// cumulative count reaches `p / 100 * N`. 0 when empty.
    pub fn percentile(&self, p: f64) -> u64 {
        self.percentiles(&[p])[0].1
    }

    /// Several percentiles in one pass, returned in the order given as `(p, value ns)`.
    /// Values of `p` outside 0..=100 (or NaN) are clamped into that range for the lookup.
    pub fn percentiles(&self, ps: &[f64]) -> Vec<(f64, u64)> {
        let mut out: Vec<(f64, u64)> = ps.iter().map(|&p| (p, 0)).collect();
        let n = self.count();
        if n == 0 || ps.is_empty() {
            return out;
        }
        let mut order: Vec<(f64, usize)> = ps
            .iter()
            .enumerate()
            .map(|(i, &p)| (clamp_pct(p), i))
            .collect();
        order.sort_by(|a, b| a.0.total_cmp(&b.0));
        let mut j = 0;
        let mut cum = 0u64;
        for (idx, &c) in self.counts.iter().enumerate() {
            cum = cum.saturating_add(c);
            while j < order.len() && reaches(cum, n, order[j].0) {
                out[order[j].1].1 = Self::bucket_value(idx);
                j += 1;
            }
            if j == order.len() {
                break;
            }
        }
        // Only reachable if counts saturated; report the last bucket.
        while j < order.len() {
            out[order[j].1].1 = Self::bucket_value(HIST_BUCKETS - 1);
            j += 1;
        }
        out
    }

    /// Non-zero buckets as (midpoint ns, count), ascending.
    pub fn bins(&self) -> Vec<(u64, u64)> {
        self.counts
            .iter()
            .enumerate()
            .filter(|(_, &c)| c != 0)
            .map(|(i, &c)| (Self::bucket_value(i), c))
            .collect()
    }

    /// The counts in fio's layout: exactly `FIO_HIST_BUCKETS` (1856) entries, with every
    /// count above fio's range folded into the last one (as fio clamps).
    pub fn fio_bins(&self) -> Vec<u64> {
        if self.counts.is_empty() {
            return vec![0; FIO_HIST_BUCKETS];
        }
        let mut v = self.counts[..FIO_HIST_BUCKETS].to_vec();
        let tail = self.counts[FIO_HIST_BUCKETS..]
            .iter()
            .fold(0u64, |a, &c| a.saturating_add(c));
        let last = &mut v[FIO_HIST_BUCKETS - 1];
        *last = last.saturating_add(tail);
        v
    }
}
