//! Running statistics: exact latency min/max/mean/stddev and Welford interval samples.

use serde::{Deserialize, Serialize};

/// Running min/max/mean/stddev of latencies (ns), mergeable exactly.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LatStat {
    pub n: u64,
    pub min: u64,
    pub max: u64,
    pub sum: u128,
    pub sumsq: u128,
}

/// Full 256-bit product of two u128 values as (high, low).
pub fn mul_u128_wide(a: u128, b: u128) -> (u128, u128) {
    const M: u128 = u64::MAX as u128;
    let (a1, a0) = (a >> 64, a & M);
    let (b1, b0) = (b >> 64, b & M);
    let p00 = a0 * b0;
    let p01 = a0 * b1;
    let p10 = a1 * b0;
    let p11 = a1 * b1;
    let mid = (p00 >> 64) + (p01 & M) + (p10 & M);
    let lo = (p00 & M) | (mid << 64);
    let hi = p11 + (p01 >> 64) + (p10 >> 64) + (mid >> 64);
    (hi, lo)
}

fn wide_to_f64(hi: u128, lo: u128) -> f64 {
    hi as f64 * 2f64.powi(128) + lo as f64
}

impl LatStat {
    /// Add one value in ns.
    #[inline]
    pub fn add(&mut self, v: u64) {
        if self.n == 0 {
            self.min = v;
            self.max = v;
        } else {
            self.min = self.min.min(v);
            self.max = self.max.max(v);
        }
        self.n += 1;
        let w = v as u128;
        self.sum = self.sum.saturating_add(w);
        self.sumsq = self.sumsq.saturating_add(w * w);
    }

    /// Combine with another stat (exact).
    pub fn merge(&mut self, o: &LatStat) {
        if o.n == 0 {
            return;
        }
        if self.n == 0 {
            *self = o.clone();
            return;
        }
        self.min = self.min.min(o.min);
        self.max = self.max.max(o.max);
        self.n = self.n.saturating_add(o.n);
        self.sum = self.sum.saturating_add(o.sum);
        self.sumsq = self.sumsq.saturating_add(o.sumsq);
    }

    /// Mean in ns (0 when empty).
    pub fn mean(&self) -> f64 {
        if self.n == 0 {
            0.0
        } else {
            self.sum as f64 / self.n as f64
        }
    }

    /// Sample standard deviation in ns (n - 1 denominator); 0 when fewer than 2 values.
    ///
    /// Computed as `sqrt((n*sumsq - sum^2) / (n*(n-1)))` with the numerator exact in 256-bit
    /// integer arithmetic, so no cancellation occurs.
    pub fn stddev(&self) -> f64 {
        if self.n < 2 {
            return 0.0;
        }
        let (ah, al) = mul_u128_wide(self.n as u128, self.sumsq);
        let (bh, bl) = mul_u128_wide(self.sum, self.sum);
        // n*sumsq >= sum^2 holds for exact sums (Cauchy-Schwarz); guard anyway.
        if (ah, al) <= (bh, bl) {
            return 0.0;
        }
        let (lo, borrow) = al.overflowing_sub(bl);
        let hi = ah - bh - borrow as u128;
        let num = wide_to_f64(hi, lo);
        let den = self.n as f64 * (self.n - 1) as f64;
        (num / den).sqrt()
    }

    /// Minimum, or 0 when empty.
    pub fn min_or_zero(&self) -> u64 {
        if self.n == 0 {
            0
        } else {
            self.min
        }
    }

    /// Maximum, or 0 when empty.
    pub fn max_or_zero(&self) -> u64 {
        if self.n == 0 {
            0
        } else {
            self.max
        }
    }
}

/// Interval samples (bw in KiB/s, IOPS), Welford mean/variance.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SampleStat {
    pub n: u64,
    pub min: f64,
    pub max: f64,
    pub mean: f64,
    pub m2: f64,
}

impl SampleStat {
    /// Add one sample.
    pub fn add(&mut self, v: f64) {
        if self.n == 0 {
            self.min = v;
            self.max = v;
        } else {
            self.min = self.min.min(v);
            self.max = self.max.max(v);
        }
        self.n += 1;
        let delta = v - self.mean;
        self.mean += delta / self.n as f64;
        self.m2 += delta * (v - self.mean);
    }

    /// fio's group "pure sum": min, max, mean, m2 and samples are added (a stat without samples
    /// is copied / ignored).
    pub fn sum_merge(&mut self, o: &SampleStat) {
        if o.n == 0 {
            return;
        }
        if self.n == 0 {
            *self = o.clone();
            return;
        }
        self.min += o.min;
        self.max += o.max;
        self.mean += o.mean;
        self.m2 += o.m2;
        self.n += o.n;
    }

    /// Statistically correct merge (parallel variance formula), as if all samples had been
    /// added to one stat.
    pub fn merge_welford(&mut self, o: &SampleStat) {
        if o.n == 0 {
            return;
        }
        if self.n == 0 {
            *self = o.clone();
            return;
        }
        let na = self.n as f64;
        let nb = o.n as f64;
        let n = na + nb;
        let delta = o.mean - self.mean;
        self.mean += delta * nb / n;
        self.m2 += o.m2 + delta * delta * na * nb / n;
        self.min = self.min.min(o.min);
        self.max = self.max.max(o.max);
        self.n += o.n;
    }

    /// Sample standard deviation (n - 1 denominator); 0 when fewer than 2 samples.
    pub fn stddev(&self) -> f64 {
        if self.n < 2 {
            0.0
        } else {
            (self.m2.max(0.0) / (self.n - 1) as f64).sqrt()
        }
    }
}
