//! Block sizes (fixed, ranges, percent splits) of each I/O.

use crate::job::BlockSize;
use crate::rng::Rng;

/// Picks the block size of each I/O.
#[derive(Clone, Debug)]
pub(crate) enum BsPicker {
    Fixed(u64),
    /// A uniformly chosen multiple of `min` in [min, max].
    Range {
        min: u64,
        max_mult: u64,
    },
    /// `table[r]` for `r` uniform in [0, table.len()): percent-weighted sizes.
    Split {
        table: Vec<u64>,
    },
}

impl BsPicker {
    pub(crate) fn new(bs: &BlockSize) -> BsPicker {
        match bs {
            BlockSize::Fixed(v) => BsPicker::Fixed(*v),
            BlockSize::Range { min, max } => {
                let min = (*min).max(1);
                let max_mult = (*max / min).max(1);
                if max_mult == 1 {
                    BsPicker::Fixed(min)
                } else {
                    BsPicker::Range { min, max_mult }
                }
            }
            BlockSize::Split(list) => {
                let total: u64 = list.iter().map(|&(_, p)| p as u64).sum();
                if total == 0 {
                    return BsPicker::Fixed(bs.min());
                }
                let mut table = Vec::with_capacity(total as usize);
                for &(size, pct) in list {
                    table.extend(std::iter::repeat_n(size, pct as usize));
                }
                if table.iter().all(|&s| s == table[0]) {
                    BsPicker::Fixed(table[0])
                } else {
                    BsPicker::Split { table }
                }
            }
        }
    }

    #[inline]
    pub(crate) fn pick(&self, rng: &mut Rng) -> u64 {
        match self {
            BsPicker::Fixed(v) => *v,
            BsPicker::Range { min, max_mult } => min * rng.range(1, *max_mult),
            BsPicker::Split { table } => table[rng.below(table.len() as u64) as usize],
        }
    }

    #[cfg(test)]
    pub(crate) fn is_fixed(&self) -> bool {
        matches!(self, BsPicker::Fixed(_))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bs_split_frequencies() {
        let p = BsPicker::new(&BlockSize::Split(vec![
            (4096, 10),
            (65536, 50),
            (32768, 40),
        ]));
        let mut rng = Rng::new(4);
        let draws = 100_000;
        let (mut a, mut b, mut c) = (0, 0, 0);
        for _ in 0..draws {
            match p.pick(&mut rng) {
                4096 => a += 1,
                65536 => b += 1,
                32768 => c += 1,
                x => panic!("unexpected size {x}"),
            }
        }
        let f = |x: i32| x as f64 / draws as f64;
        assert!((f(a) - 0.10).abs() < 0.01, "{}", f(a));
        assert!((f(b) - 0.50).abs() < 0.01, "{}", f(b));
        assert!((f(c) - 0.40).abs() < 0.01, "{}", f(c));
        // A single entry, or zero-weight entries.
        let p = BsPicker::new(&BlockSize::Split(vec![(8192, 100), (512, 0)]));
        assert!(p.is_fixed());
        assert_eq!(p.pick(&mut rng), 8192);
    }

    #[test]
    fn bs_range_multiples() {
        let p = BsPicker::new(&BlockSize::Range {
            min: 4096,
            max: 16384 + 1000,
        });
        let mut rng = Rng::new(6);
        let mut seen = [0u32; 5];
        for _ in 0..100_000 {
            let v = p.pick(&mut rng);
            assert_eq!(v % 4096, 0);
            assert!((4096..=16384 + 1000).contains(&v));
            seen[(v / 4096) as usize] += 1;
        }
        assert_eq!(seen[0], 0);
        for &c in &seen[1..] {
            assert!((c as f64 / 100_000.0 - 0.25).abs() < 0.01, "{seen:?}");
        }
        let p = BsPicker::new(&BlockSize::Fixed(512));
        assert_eq!(p.pick(&mut rng), 512);
        let p = BsPicker::new(&BlockSize::Range {
            min: 4096,
            max: 4096,
        });
        assert_eq!(p.pick(&mut rng), 4096);
    }
}
