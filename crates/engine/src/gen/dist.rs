//! Access distributions of random I/O: which mode `RandGen` runs in (random map, uniform,
//! zipf, pareto, normal, zoned), the zipf rank sampler, and the expected hot-spot shares used to
//! check them.

use crate::job::Distribution;
use crate::rng::Rng;

/// How `RandGen` picks blocks.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum RandMode {
    /// Every aligned block exactly once per pass (a permutation stands in for fio's random map).
    RandomMap,
    /// fio's random map with mixed block sizes: every block of the smallest size covered once
    /// per pass, an I/O shortened where it runs into blocks already done.
    BlockMap,
    /// Uniform with replacement.
    NoRandomMap,
    /// A non-uniform distribution, with replacement. `Distribution::Random` is uniform.
    Dist(Distribution),
}

impl RandMode {
    /// fio's rules: a distribution other than `random` or an explicit `blockalign` turns the
    /// random map off, as does `norandommap`. `random_generator=lfsr` visits every block once per
    /// pass without a map, with or without `norandommap`; mixed block sizes (`mixed_bs`) need
    /// the block map to shorten I/Os as fio does.
    pub(crate) fn for_job(
        norandommap: bool,
        blockalign_set: bool,
        dist: &Distribution,
        lfsr: bool,
        mixed_bs: bool,
    ) -> RandMode {
        match dist {
            Distribution::Random if lfsr => RandMode::RandomMap,
            Distribution::Random if norandommap || blockalign_set => RandMode::NoRandomMap,
            Distribution::Random if mixed_bs => RandMode::BlockMap,
            Distribution::Random => RandMode::RandomMap,
            d => RandMode::Dist(d.clone()),
        }
    }
}

/// Zipf ranks by rejection-inversion: P(k) proportional to k^-s for k in 1..=n. Setup is O(1),
/// sampling needs about one iteration on average for every n and s > 0.
#[derive(Clone, Debug)]
pub(super) struct ZipfSampler {
    n: f64,
    s: f64,
    h_x1: f64,
    h_n: f64,
    squeeze: f64,
}

/// log1p(x)/x, continuous at 0.
#[inline]
fn log1p_over_x(x: f64) -> f64 {
    if x.abs() > 1e-8 {
        x.ln_1p() / x
    } else {
        1.0 - x * (0.5 - x / 3.0)
    }
}

/// expm1(x)/x, continuous at 0.
#[inline]
fn expm1_over_x(x: f64) -> f64 {
    if x.abs() > 1e-8 {
        x.exp_m1() / x
    } else {
        1.0 + x * (0.5 + x / 6.0)
    }
}

impl ZipfSampler {
    pub(super) fn new(n: u64, s: f64) -> ZipfSampler {
        let mut z = ZipfSampler {
            n: n as f64,
            s,
            h_x1: 0.0,
            h_n: 0.0,
            squeeze: 0.0,
        };
        z.h_x1 = z.big_h(1.5) - 1.0;
        z.h_n = z.big_h(n as f64 + 0.5);
        z.squeeze = 2.0 - z.big_h_inv(z.big_h(2.5) - z.h(2.0));
        z
    }

    /// x^-s
    #[inline]
    fn h(&self, x: f64) -> f64 {
        (-self.s * x.ln()).exp()
    }

    /// The integral of h from 1 to x: (x^(1-s) - 1) / (1 - s), or ln x when s = 1.
    #[inline]
    fn big_h(&self, x: f64) -> f64 {
        let lx = x.ln();
        expm1_over_x((1.0 - self.s) * lx) * lx
    }

    #[inline]
    fn big_h_inv(&self, y: f64) -> f64 {
        let t = (1.0 - self.s) * y;
        // Guard against rounding just below the domain (1 + t must stay positive).
        let t = t.max(-1.0 + 1e-15);
        (log1p_over_x(t) * y).exp()
    }

    /// A rank in [0, n): 0 is the most popular.
    #[inline]
    pub(super) fn sample(&self, rng: &mut Rng) -> u64 {
        loop {
            let u = self.h_n + rng.next_f64() * (self.h_x1 - self.h_n);
            let x = self.big_h_inv(u);
            let mut k = (x + 0.5).floor();
            if k < 1.0 {
                k = 1.0;
            } else if k > self.n {
                k = self.n;
            }
            if k - x <= self.squeeze || u >= self.big_h(k + 0.5) - self.h(k) {
                return k as u64 - 1;
            }
        }
    }
}

/// Share of accesses that the hottest `top_fraction` of `n` blocks receive under zipf(theta).
#[cfg(test)]
pub(crate) fn zipf_hot_share(theta: f64, n: u64, top_fraction: f64) -> f64 {
    let top = ((n as f64) * top_fraction).round() as u64;
    let mut hot = 0.0;
    let mut all = 0.0;
    for k in 1..=n {
        let p = (k as f64).powf(-theta);
        if k <= top {
            hot += p;
        }
        all += p;
    }
    hot / all
}

/// Share of accesses that the hottest `top_fraction` of blocks receive under pareto(h).
#[cfg(test)]
pub(crate) fn pareto_hot_share(h: f64, top_fraction: f64) -> f64 {
    1.0 - (1.0 - top_fraction).powf((1.0 - h).ln() / h.ln())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gen::random::RandGen;

    fn block_counts(mode: RandMode, nblocks: u64, samples: u32) -> Vec<u32> {
        let align = 4096;
        let start = 4096 * 3;
        let mut g = RandGen::new(start, nblocks * align, align, 1234, mode);
        let mut counts = vec![0u32; nblocks as usize];
        for _ in 0..samples {
            let o = g.next(align).unwrap();
            assert!(o >= start && o < start + nblocks * align);
            assert_eq!((o - start) % align, 0);
            counts[((o - start) / align) as usize] += 1;
        }
        counts
    }

    fn top_share(counts: &[u32], top: usize) -> f64 {
        let mut c = counts.to_vec();
        c.sort_unstable_by(|a, b| b.cmp(a));
        let total: u64 = c.iter().map(|&x| x as u64).sum();
        c[..top].iter().map(|&x| x as u64).sum::<u64>() as f64 / total as f64
    }

    #[test]
    fn zipf_shape() {
        let n = 10_000u64;
        let samples = 1_000_000;
        let counts = block_counts(
            RandMode::Dist(Distribution::Zipf {
                theta: 1.2,
                center: 0.0,
            }),
            n,
            samples,
        );
        let expect = zipf_hot_share(1.2, n, 0.01);
        let got = top_share(&counts, 100);
        assert!(
            (got - expect).abs() < 0.02,
            "zipf top 1%: {got} vs {expect}"
        );
        // Top 10% too.
        let expect10 = zipf_hot_share(1.2, n, 0.10);
        let got10 = top_share(&counts, 1000);
        assert!((got10 - expect10).abs() < 0.02, "{got10} vs {expect10}");
        // The hottest block gets about 1/H(n, 1.2) of all accesses.
        let p1 = zipf_hot_share(1.2, n, 1.0 / n as f64);
        let max = *counts.iter().max().unwrap() as f64 / samples as f64;
        assert!((max - p1).abs() < p1 * 0.05, "hottest {max} vs {p1}");
        // Hot blocks are scattered, not at the start of the region.
        let hot_first: u32 = counts[..100].iter().sum();
        assert!((hot_first as f64 / samples as f64) < 0.5 * expect);
    }

    #[test]
    fn zipf_ranks_exact() {
        // The rank sampler alone, against the exact probabilities, for several theta and n.
        for &(theta, n) in &[(0.5, 50u64), (1.0, 1000), (1.2, 20), (2.5, 100)] {
            let z = ZipfSampler::new(n, theta);
            let mut rng = Rng::new(5);
            let draws = 400_000;
            let mut counts = vec![0u32; n as usize];
            for _ in 0..draws {
                let r = z.sample(&mut rng);
                assert!(r < n);
                counts[r as usize] += 1;
            }
            let norm: f64 = (1..=n).map(|k| (k as f64).powf(-theta)).sum();
            for (k, &c) in counts.iter().enumerate().take(5) {
                let p = ((k + 1) as f64).powf(-theta) / norm;
                let got = c as f64 / draws as f64;
                let sd = (p * (1.0 - p) / draws as f64).sqrt();
                assert!(
                    (got - p).abs() < 5.0 * sd + 1e-4,
                    "theta {theta} n {n} rank {k}: {got} vs {p}"
                );
            }
        }
        // Huge n: setup and sampling stay bounded and in range.
        let z = ZipfSampler::new(1 << 40, 1.1);
        let mut rng = Rng::new(1);
        for _ in 0..10_000 {
            assert!(z.sample(&mut rng) < 1 << 40);
        }
    }

    #[test]
    fn pareto_shape() {
        let n = 10_000u64;
        let samples = 1_000_000;
        let counts = block_counts(
            RandMode::Dist(Distribution::Pareto {
                h: 0.9,
                center: 0.0,
            }),
            n,
            samples,
        );
        let expect = pareto_hot_share(0.9, 0.01);
        let got = top_share(&counts, 100);
        assert!(
            (got - expect).abs() < 0.02,
            "pareto top 1%: {got} vs {expect}"
        );
        // The defining property: the top (1-h) = 10% get h = 90%.
        let got10 = top_share(&counts, 1000);
        assert!((got10 - 0.9).abs() < 0.02, "pareto top 10%: {got10}");
    }

    #[test]
    fn center_shifts_hot_spot() {
        let n = 1000u64;
        let a = block_counts(
            RandMode::Dist(Distribution::Zipf {
                theta: 1.5,
                center: 0.0,
            }),
            n,
            50_000,
        );
        let b = block_counts(
            RandMode::Dist(Distribution::Zipf {
                theta: 1.5,
                center: 0.25,
            }),
            n,
            50_000,
        );
        let hot_a = (0..n as usize).max_by_key(|&i| a[i]).unwrap();
        let hot_b = (0..n as usize).max_by_key(|&i| b[i]).unwrap();
        assert_eq!((hot_a + 250) % n as usize, hot_b);
    }

    #[test]
    fn normal_shape() {
        let n = 10_000u64;
        let samples = 400_000;
        let counts = block_counts(
            RandMode::Dist(Distribution::Normal {
                sigma_pct: 10.0,
                center: 0.0,
            }),
            n,
            samples,
        );
        let center = n as f64 / 2.0;
        let sigma = n as f64 * 0.10;
        let within: u32 = (0..n as usize)
            .filter(|&b| (b as f64 + 0.5 - center).abs() <= sigma)
            .map(|b| counts[b])
            .sum();
        let frac = within as f64 / samples as f64;
        assert!((frac - 0.6827).abs() < 0.01, "within 1 sigma: {frac}");
        let within2: u32 = (0..n as usize)
            .filter(|&b| (b as f64 + 0.5 - center).abs() <= 2.0 * sigma)
            .map(|b| counts[b])
            .sum();
        let frac2 = within2 as f64 / samples as f64;
        assert!((frac2 - 0.9545).abs() < 0.01, "within 2 sigma: {frac2}");

        // Off-centre with a wide sigma: everything stays inside the region.
        let counts = block_counts(
            RandMode::Dist(Distribution::Normal {
                sigma_pct: 30.0,
                center: 0.9,
            }),
            1000,
            100_000,
        );
        let hot = (0..1000).max_by_key(|&i| counts[i]).unwrap();
        assert!(hot > 750, "peak at {hot}");
    }

    #[test]
    fn zoned_shares() {
        let n = 10_000u64;
        let samples = 500_000;
        let counts = block_counts(
            RandMode::Dist(Distribution::Zoned(vec![
                (60.0, 10.0),
                (30.0, 20.0),
                (10.0, 70.0),
            ])),
            n,
            samples,
        );
        let share = |a: usize, b: usize| {
            counts[a..b].iter().map(|&c| c as u64).sum::<u64>() as f64 / samples as f64
        };
        let (z1, z2, z3) = (share(0, 1000), share(1000, 3000), share(3000, 10_000));
        assert!((z1 - 0.60).abs() < 0.01, "{z1}");
        assert!((z2 - 0.30).abs() < 0.01, "{z2}");
        assert!((z3 - 0.10).abs() < 0.01, "{z3}");
        // Uniform inside a zone.
        let (lo, hi) = counts[..1000]
            .iter()
            .fold((u32::MAX, 0), |(a, b), &c| (a.min(c), b.max(c)));
        assert!(lo > 150 && hi < 470, "{lo}..{hi}");

        // zoned_abs: 80% to the first 1 MiB, 20% to the next 3 MiB of a 16 MiB region.
        let counts = block_counts(
            RandMode::Dist(Distribution::ZonedAbs(vec![
                (80.0, 1 << 20),
                (20.0, 3 << 20),
            ])),
            4096,
            200_000,
        );
        let first: u32 = counts[..256].iter().sum();
        let second: u32 = counts[256..1024].iter().sum();
        let rest: u32 = counts[1024..].iter().sum();
        assert!((first as f64 / 200_000.0 - 0.8).abs() < 0.01);
        assert!((second as f64 / 200_000.0 - 0.2).abs() < 0.01);
        assert_eq!(rest, 0);
    }

    #[test]
    fn hot_share_helpers() {
        // Pareto's defining property: the top (1-h) get h.
        assert!((pareto_hot_share(0.8, 0.2) - 0.8).abs() < 1e-9);
        assert!((pareto_hot_share(0.5, 0.3) - 0.3).abs() < 1e-9);
        // Zipf with theta 0 is uniform.
        assert!((zipf_hot_share(0.0, 1000, 0.1) - 0.1).abs() < 1e-9);
        assert!(zipf_hot_share(1.2, 10_000, 0.01) > 0.5);
    }
}
