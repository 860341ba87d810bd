//! Per-worker random numbers: xoshiro256++ seeded through splitmix64, plus the seed derivation
//! for jobs (`randrepeat`, `randseed`).
//!
//! Every method is allocation-free and lock-free; one `Rng` belongs to one worker.

use std::sync::atomic::{AtomicU64, Ordering};

const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// One splitmix64 step: advances `state` and returns the mixed output.
#[inline]
pub(crate) fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(GOLDEN);
    mix64(*state)
}

/// splitmix64's output function: a bijective 64-bit mixer.
#[inline]
pub(crate) fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// xoshiro256++ generator.
#[derive(Clone, Debug)]
pub struct Rng {
    s: [u64; 4],
    /// Second value of the last polar-method pair, handed out by the next `normal()`.
    spare: Option<f64>,
}

impl Rng {
    /// A generator whose whole state is derived from `seed` (any value, zero included).
    pub fn new(seed: u64) -> Rng {
        let mut st = seed;
        let mut s = [0u64; 4];
        for w in s.iter_mut() {
            *w = splitmix64(&mut st);
        }
        if s == [0; 4] {
            s[0] = GOLDEN;
        }
        Rng { s, spare: None }
    }

    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        let s = &mut self.s;
        let result = s[0].wrapping_add(s[3]).rotate_left(23).wrapping_add(s[0]);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }

    #[inline]
    pub(crate) fn next_u32(&mut self) -> u32 {
        (self.next_u64() >> 32) as u32
    }

    /// Uniform in [0, 1) with 53 bits of precision.
    #[inline]
    pub(crate) fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Uniform in [0, n) without bias (multiply-shift with rejection). `below(0)` is 0.
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        debug_assert!(n > 0, "Rng::below(0)");
        if n == 0 {
            return 0;
        }
        let mut m = (self.next_u64() as u128) * (n as u128);
        let mut lo = m as u64;
        if lo < n {
            let threshold = n.wrapping_neg() % n;
            while lo < threshold {
                m = (self.next_u64() as u128) * (n as u128);
                lo = m as u64;
            }
        }
        (m >> 64) as u64
    }

    /// Uniform in [lo, hi] (inclusive). If `hi < lo` the bounds are swapped.
    #[inline]
    pub(crate) fn range(&mut self, lo: u64, hi: u64) -> u64 {
        let (lo, hi) = if hi < lo { (hi, lo) } else { (lo, hi) };
        let span = hi - lo;
        if span == u64::MAX {
            return self.next_u64();
        }
        lo + self.below(span + 1)
    }

    /// True with probability `pct` percent (0 never, >= 100 always).
    #[inline]
    pub(crate) fn percent(&mut self, pct: u32) -> bool {
        if pct == 0 {
            false
        } else if pct >= 100 {
            true
        } else {
            self.below(100) < pct as u64
        }
    }

    /// Fill `buf` with random bytes, eight per generator step.
    pub(crate) fn fill(&mut self, buf: &mut [u8]) {
        let mut chunks = buf.chunks_exact_mut(8);
        for c in &mut chunks {
            c.copy_from_slice(&self.next_u64().to_le_bytes());
        }
        let rest = chunks.into_remainder();
        if !rest.is_empty() {
            let v = self.next_u64().to_le_bytes();
            let n = rest.len();
            rest.copy_from_slice(&v[..n]);
        }
    }

    /// Exponentially distributed with the given mean (inter-arrival times of a Poisson process).
    #[inline]
    pub(crate) fn exp(&mut self, mean: f64) -> f64 {
        // 1 - u lies in (0, 1], so the logarithm is finite.
        -mean * (1.0 - self.next_f64()).ln()
    }

    /// Standard normal (mean 0, standard deviation 1), Marsaglia's polar method.
    #[inline]
    pub(crate) fn normal(&mut self) -> f64 {
        if let Some(v) = self.spare.take() {
            return v;
        }
        loop {
            let u = 2.0 * self.next_f64() - 1.0;
            let v = 2.0 * self.next_f64() - 1.0;
            let s = u * u + v * v;
            if s > 0.0 && s < 1.0 {
                let f = (-2.0 * s.ln() / s).sqrt();
                self.spare = Some(v * f);
                return u * f;
            }
        }
    }
}

static SEED_COUNTER: AtomicU64 = AtomicU64::new(0);

/// The seed of one random stream of one job clone.
///
/// With `randrepeat` the result depends only on (`randseed`, `thread_number`, `stream`), and
/// distinct (thread, stream) pairs give distinct seeds. Without it, time, process id and a
/// per-process counter are mixed in so every call differs.
pub(crate) fn job_seed(randseed: u64, randrepeat: bool, thread_number: u32, stream: u32) -> u64 {
    let mut st = randseed ^ 0x6A09_E667_F3BC_C909;
    let base = splitmix64(&mut st);
    let id = ((thread_number as u64) << 32) | stream as u64;
    let mut x = base ^ id.wrapping_mul(GOLDEN);
    let mut seed = splitmix64(&mut x);
    if !randrepeat {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0);
        let pid = std::process::id() as u64;
        let count = SEED_COUNTER.fetch_add(1, Ordering::Relaxed);
        let local = 0u8;
        let addr = &local as *const u8 as u64;
        let mut e = nanos ^ pid.rotate_left(40) ^ addr.rotate_left(17);
        e = splitmix64(&mut e) ^ count.wrapping_mul(0xD6E8_FEB8_6659_FD93);
        seed ^= mix64(e);
    }
    seed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reproducible_and_seed_sensitive() {
        let mut a = Rng::new(42);
        let mut b = Rng::new(42);
        let mut c = Rng::new(43);
        let va: Vec<u64> = (0..64).map(|_| a.next_u64()).collect();
        let vb: Vec<u64> = (0..64).map(|_| b.next_u64()).collect();
        let vc: Vec<u64> = (0..64).map(|_| c.next_u64()).collect();
        assert_eq!(va, vb);
        assert_ne!(va, vc);
        // Zero seed still gives a working generator.
        let mut z = Rng::new(0);
        let vz: Vec<u64> = (0..8).map(|_| z.next_u64()).collect();
        assert!(vz.iter().any(|&v| v != 0));
        assert_ne!(vz[0], vz[1]);
    }

    #[test]
    fn xoshiro_reference_step() {
        // xoshiro256++ from the state (1, 2, 3, 4): first outputs of the reference algorithm.
        let mut r = Rng {
            s: [1, 2, 3, 4],
            spare: None,
        };
        assert_eq!(r.next_u64(), 41943041);
        assert_eq!(r.next_u64(), 58720359);
        assert_eq!(r.next_u64(), 3588806011781223);
    }

    #[test]
    fn below_is_unbiased() {
        // Small n: bucket counts against a chi-square bound.
        let mut r = Rng::new(7);
        let n = 10u64;
        let draws = 200_000u64;
        let mut buckets = [0u64; 10];
        for _ in 0..draws {
            let v = r.below(n);
            assert!(v < n);
            buckets[v as usize] += 1;
        }
        let expected = draws as f64 / n as f64;
        let chi2: f64 = buckets
            .iter()
            .map(|&c| (c as f64 - expected).powi(2) / expected)
            .sum();
        // 9 degrees of freedom: p = 0.001 at 27.9.
        assert!(chi2 < 27.9, "chi2 {chi2} buckets {buckets:?}");

        // n close to 2^64 * 2/3: modulo reduction would put ~2x weight on the low half.
        let big = (u64::MAX / 3) * 2;
        let mut low = 0u64;
        for _ in 0..draws {
            let v = r.below(big);
            assert!(v < big);
            if v < big / 2 {
                low += 1;
            }
        }
        let frac = low as f64 / draws as f64;
        assert!((frac - 0.5).abs() < 0.01, "low half fraction {frac}");
    }

    #[test]
    fn below_edge_cases() {
        let mut r = Rng::new(1);
        for _ in 0..100 {
            assert_eq!(r.below(1), 0);
        }
        let mut seen = [false; 2];
        for _ in 0..100 {
            seen[r.below(2) as usize] = true;
        }
        assert!(seen[0] && seen[1]);
        let _ = r.below(u64::MAX);
    }

    #[test]
    fn range_inclusive() {
        let mut r = Rng::new(3);
        let mut seen = [false; 5];
        for _ in 0..10_000 {
            let v = r.range(10, 14);
            assert!((10..=14).contains(&v));
            seen[(v - 10) as usize] = true;
        }
        assert!(seen.iter().all(|&s| s));
        assert_eq!(r.range(5, 5), 5);
        let _ = r.range(0, u64::MAX);
    }

    #[test]
    fn f64_in_unit_interval() {
        let mut r = Rng::new(9);
        let mut sum = 0.0;
        for _ in 0..100_000 {
            let v = r.next_f64();
            assert!((0.0..1.0).contains(&v));
            sum += v;
        }
        let mean = sum / 100_000.0;
        assert!((mean - 0.5).abs() < 0.005, "mean {mean}");
    }

    #[test]
    fn fill_covers_all_bytes() {
        let mut r = Rng::new(11);
        for len in [0usize, 1, 7, 8, 9, 4096, 4099] {
            let mut buf = vec![0u8; len];
            r.fill(&mut buf);
            if len >= 64 {
                let zeros = buf.iter().filter(|&&b| b == 0).count();
                // Expected len/256 zero bytes.
                assert!(zeros < len / 64, "len {len}: {zeros} zero bytes");
                let mut hist = [0u32; 256];
                for &b in &buf {
                    hist[b as usize] += 1;
                }
                assert!(hist.iter().filter(|&&c| c > 0).count() > 200);
            }
        }
        // The tail is filled too.
        let mut buf = [0u8; 15];
        let mut hits = 0;
        for _ in 0..20 {
            buf = [0u8; 15];
            r.fill(&mut buf);
            if buf[8..].iter().all(|&b| b == 0) {
                hits += 1;
            }
        }
        assert_eq!(hits, 0, "tail never filled: {buf:?}");
        // Same seed, same bytes.
        let mut a = [0u8; 100];
        let mut b = [0u8; 100];
        Rng::new(5).fill(&mut a);
        Rng::new(5).fill(&mut b);
        assert_eq!(a, b);
    }

    #[test]
    fn exp_mean() {
        let mut r = Rng::new(13);
        let n = 200_000;
        let mut sum = 0.0;
        for _ in 0..n {
            let v = r.exp(250.0);
            assert!(v >= 0.0 && v.is_finite());
            sum += v;
        }
        let mean = sum / n as f64;
        assert!((mean - 250.0).abs() < 250.0 * 0.01, "mean {mean}");
    }

    #[test]
    fn normal_moments() {
        let mut r = Rng::new(17);
        let n = 200_000;
        let (mut s1, mut s2, mut within) = (0.0, 0.0, 0u32);
        for _ in 0..n {
            let v = r.normal();
            s1 += v;
            s2 += v * v;
            if v.abs() <= 1.0 {
                within += 1;
            }
        }
        let mean = s1 / n as f64;
        let var = s2 / n as f64 - mean * mean;
        assert!(mean.abs() < 0.01, "mean {mean}");
        assert!((var - 1.0).abs() < 0.02, "var {var}");
        let frac = within as f64 / n as f64;
        assert!((frac - 0.6827).abs() < 0.006, "within 1 sigma {frac}");
    }

    #[test]
    fn job_seeds() {
        let a = job_seed(0x89, true, 1, 0);
        assert_eq!(a, job_seed(0x89, true, 1, 0));
        assert_ne!(a, job_seed(0x89, true, 2, 0));
        assert_ne!(a, job_seed(0x89, true, 1, 1));
        assert_ne!(a, job_seed(0x8a, true, 1, 0));
        // Swapping thread and stream gives a different seed.
        assert_ne!(job_seed(1, true, 2, 3), job_seed(1, true, 3, 2));
        // Without randrepeat, calls differ.
        let x = job_seed(0x89, false, 1, 0);
        let y = job_seed(0x89, false, 1, 0);
        assert_ne!(x, y);
        assert_ne!(x, a);
    }

    #[test]
    fn percent_extremes() {
        let mut r = Rng::new(1);
        assert!((0..1000).all(|_| !r.percent(0)));
        assert!((0..1000).all(|_| r.percent(100)));
        let hits = (0..100_000).filter(|_| r.percent(30)).count();
        assert!((hits as f64 / 100_000.0 - 0.30).abs() < 0.01);
    }
}
