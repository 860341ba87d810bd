//! A seeded permutation of block indices, the random map of random I/O: every block once per
//! pass in an order that looks random, in O(1) memory.

use crate::rng::splitmix64;

/// A seeded bijection over [0, n): a four-round Feistel network with cycle walking back into
/// range. O(1) memory for any n >= 1.
///
/// The network runs over Z_a x Z_(2^k) with 2^k about sqrt(n) and a = ceil(n / 2^k): one half
/// combines by XOR under a mask, the other by addition modulo `a`. The domain exceeds n by less
/// than 2^k, so cycle walking is rare even just above a power of two (a plain power-of-two
/// domain would need two encryptions on average there, with unpredictable branches).
#[derive(Clone, Debug)]
pub(crate) struct BlockPermutation {
    n: u64,
    /// Modulus of the high half.
    hi_mod: u64,
    /// Width of the low half in bits.
    lo_bits: u32,
    lo_mask: u64,
    keys: [u64; 4],
}

#[inline(always)]
fn round_fn(x: u64, key: u64) -> u64 {
    let mut z = (x ^ key).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z ^= z >> 29;
    z = z.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z ^ (z >> 32)
}

impl BlockPermutation {
    /// A permutation of [0, n). `n == 0` is treated as 1.
    pub(crate) fn new(n: u64, seed: u64) -> BlockPermutation {
        let n = n.max(1);
        let bits = if n <= 2 {
            1
        } else {
            64 - (n - 1).leading_zeros()
        };
        let lo_bits = bits.div_ceil(2);
        let hi_mod = ((n - 1) >> lo_bits) + 1;
        let mut st = seed ^ 0x243F_6A88_85A3_08D3;
        let keys = [
            splitmix64(&mut st),
            splitmix64(&mut st),
            splitmix64(&mut st),
            splitmix64(&mut st),
        ];
        BlockPermutation {
            n,
            hi_mod,
            lo_bits,
            lo_mask: (1u64 << lo_bits) - 1,
            keys,
        }
    }

    /// (l + F(r)) mod a, with F(r) reduced into [0, a) by multiply-shift.
    #[inline(always)]
    fn add_mod(&self, l: u64, r: u64, key: u64) -> u64 {
        let a = self.hi_mod;
        let f = ((round_fn(r, key) as u128 * a as u128) >> 64) as u64;
        let s = l + f;
        if s >= a {
            s - a
        } else {
            s
        }
    }

    #[inline(always)]
    fn encrypt(&self, x: u64) -> u64 {
        let lm = self.lo_mask;
        // (l in Z_a, r in Z_2^k) -> (r, (l + F(r)) mod a) -> (l + F(r) mod a, r ^ F(..)).
        let l = x >> self.lo_bits;
        let r = x & lm;
        let (l, r) = (r, self.add_mod(l, r, self.keys[0]));
        let (l, r) = (r, l ^ (round_fn(r, self.keys[1]) & lm));
        let (l, r) = (r, self.add_mod(l, r, self.keys[2]));
        let (l, r) = (r, l ^ (round_fn(r, self.keys[3]) & lm));
        (l << self.lo_bits) | r
    }

    /// The image of `i` (`i < len()`).
    #[inline]
    pub(crate) fn get(&self, i: u64) -> u64 {
        debug_assert!(i < self.n, "permutation index {i} out of range {}", self.n);
        if self.n == 1 {
            return 0;
        }
        let mut x = i;
        loop {
            x = self.encrypt(x);
            if x < self.n {
                return x;
            }
        }
    }

    pub(crate) fn len(&self) -> u64 {
        self.n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_bijection(n: u64, seed: u64) -> BlockPermutation {
        let p = BlockPermutation::new(n, seed);
        assert_eq!(p.len(), n);
        let mut seen = vec![false; n as usize];
        for i in 0..n {
            let v = p.get(i);
            assert!(v < n, "n {n}: get({i}) = {v}");
            assert!(!seen[v as usize], "n {n}: {v} hit twice");
            seen[v as usize] = true;
        }
        p
    }

    fn correlation(xs: impl Iterator<Item = (f64, f64)>) -> f64 {
        let (mut n, mut sx, mut sy, mut sxx, mut syy, mut sxy) = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0);
        for (x, y) in xs {
            n += 1.0;
            sx += x;
            sy += y;
            sxx += x * x;
            syy += y * y;
            sxy += x * y;
        }
        let cov = sxy / n - (sx / n) * (sy / n);
        let vx = sxx / n - (sx / n).powi(2);
        let vy = syy / n - (sy / n).powi(2);
        cov / (vx * vy).sqrt()
    }

    #[test]
    fn permutation_is_bijection() {
        for &n in &[
            1u64,
            2,
            3,
            4,
            5,
            7,
            8,
            1000,
            1024,
            65537,
            1 << 20,
            (1 << 20) + 1,
        ] {
            for seed in [0u64, 1, 0xdead_beef] {
                check_bijection(n, seed);
            }
        }
    }

    #[test]
    fn permutation_looks_random() {
        let n = 1u64 << 20;
        let p = check_bijection(n, 99);
        let fixed = (0..n).filter(|&i| p.get(i) == i).count();
        assert!(fixed < 20, "{fixed} fixed points");
        let serial = correlation((0..n - 1).map(|i| (p.get(i) as f64, p.get(i + 1) as f64)));
        assert!(serial.abs() < 0.01, "serial correlation {serial}");
        let ident = correlation((0..n).map(|i| (i as f64, p.get(i) as f64)));
        assert!(ident.abs() < 0.01, "index correlation {ident}");
        // Consecutive outputs are not mostly adjacent.
        let adjacent = (0..n - 1)
            .filter(|&i| p.get(i).abs_diff(p.get(i + 1)) == 1)
            .count();
        assert!(adjacent < 50, "{adjacent} adjacent steps");
        // The first 1000 outputs spread over the whole range (every 1/8 is hit).
        let mut octants = [0u32; 8];
        for i in 0..1000 {
            octants[(p.get(i) * 8 / n) as usize] += 1;
        }
        assert!(octants.iter().all(|&c| c > 80), "{octants:?}");
        // Just above a power of two (the cycle-walking case).
        let n = (1u64 << 20) + 1;
        let p = check_bijection(n, 7);
        let serial = correlation((0..n - 1).map(|i| (p.get(i) as f64, p.get(i + 1) as f64)));
        assert!(serial.abs() < 0.01, "serial correlation {serial}");
        assert!((0..n).filter(|&i| p.get(i) == i).count() < 20);
        // Odd sizes too.
        let p = check_bijection(1000, 5);
        assert!((0..1000).filter(|&i| p.get(i) == i).count() < 10);
        let serial = correlation((0..999).map(|i| (p.get(i) as f64, p.get(i + 1) as f64)));
        assert!(serial.abs() < 0.15, "serial correlation {serial}");
    }

    #[test]
    fn permutation_seeds_differ() {
        let a = BlockPermutation::new(65537, 1);
        let b = BlockPermutation::new(65537, 2);
        let same = (0..65537).filter(|&i| a.get(i) == b.get(i)).count();
        assert!(same < 20, "{same} equal images");
        let c = BlockPermutation::new(65537, 1);
        assert!((0..1000).all(|i| a.get(i) == c.get(i)));
    }

    #[test]
    fn permutation_huge_domain() {
        let n = (1u64 << 48) - 12345;
        let p = BlockPermutation::new(n, 3);
        let mut v: Vec<u64> = (0..10_000).map(|i| p.get(i)).collect();
        assert!(v.iter().all(|&x| x < n));
        v.sort_unstable();
        v.dedup();
        assert_eq!(v.len(), 10_000);
        // Spread: the mean is near n/2.
        let mean = v.iter().map(|&x| x as f64).sum::<f64>() / v.len() as f64;
        assert!((mean / n as f64 - 0.5).abs() < 0.02);
        let p = BlockPermutation::new(u64::MAX, 3);
        assert!(p.get(u64::MAX - 1) < u64::MAX);
    }

    #[test]
    fn permutation_throughput_counts() {
        // Many calls over a non-power-of-two domain: checks a running sum, not time.
        let n = (1u64 << 30) + 7;
        let p = BlockPermutation::new(n, 11);
        let mut acc = 0u64;
        let calls = 1_000_000u64;
        for i in 0..calls {
            let v = p.get(i);
            debug_assert!(v < n);
            acc = acc.wrapping_add(v);
        }
        let mean = acc as f64 / calls as f64;
        assert!((mean / n as f64 - 0.5).abs() < 0.01, "mean {mean}");
    }
}
