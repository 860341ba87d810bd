//! Random offsets: blocks of a region picked by the random map, uniformly, or by a
//! distribution.

use super::blockmap::BlockMap;
use super::dist::{RandMode, ZipfSampler};
use super::permutation::BlockPermutation;
use crate::job::Distribution;
use crate::rng::Rng;

#[derive(Clone, Debug)]
struct Zone {
    /// Cumulative access share up to and including this zone.
    cum: f64,
    first_block: u64,
    blocks: u64,
}

#[derive(Clone, Debug)]
enum Kind {
    Map {
        perm: BlockPermutation,
        idx: u64,
    },
    /// fio's random map with mixed block sizes: a uniform start block, moved to the next free
    /// one when taken; the I/O is shortened where it runs into blocks already done this pass.
    Blocks(BlockMap),
    Uniform,
    Zipf {
        sampler: ZipfSampler,
        perm: BlockPermutation,
        shift: u64,
    },
    Pareto {
        pow: f64,
        perm: BlockPermutation,
        shift: u64,
    },
    Normal {
        center: f64,
        sigma: f64,
    },
    Zoned {
        zones: Vec<Zone>,
        total: f64,
    },
}

/// Random offsets within `[start, start + len)`, aligned to `align` relative to `start`.
///
/// Offsets are `start + b * align` for a block index `b`; an I/O of `bs` bytes is only placed
/// where it ends inside the region. With `RandomMap` a block whose I/O would not fit is skipped
/// for this pass; with the other modes the block is moved to the last position that fits.
#[derive(Clone, Debug)]
pub(crate) struct RandGen {
    start: u64,
    len: u64,
    align: u64,
    /// Aligned positions in the region (a partial tail counts for the random map).
    nblocks: u64,
    rng: Rng,
    kind: Kind,
    skipped: u64,
    /// Block size and last block index where it fits, from the previous call (saves a
    /// division per I/O for fixed block sizes).
    fit_bs: u64,
    fit_last: u64,
    /// Length the last offset may take (shorter than asked with `Blocks`), else u64::MAX.
    granted: u64,
}

/// `center` of a distribution as a fraction of the region; values outside [0, 1] mean "unset".
fn center_fraction(c: f64) -> Option<f64> {
    if c.is_finite() && (0.0..=1.0).contains(&c) && c != 0.0 {
        Some(c)
    } else {
        None
    }
}

impl RandGen {
    pub(crate) fn new(start: u64, len: u64, align: u64, seed: u64, mode: RandMode) -> RandGen {
        let align = align.max(1);
        let full = len / align;
        let partial = len % align != 0;
        let mut rng = Rng::new(seed);
        // Blocks for distributions: whole aligned blocks only (at least one).
        let dblocks = full.max(1);
        let kind = match mode {
            RandMode::RandomMap => {
                let n = (full + partial as u64).max(1);
                Kind::Map {
                    perm: BlockPermutation::new(n, rng.next_u64()),
                    idx: 0,
                }
            }
            RandMode::BlockMap => Kind::Blocks(BlockMap::new(full.max(1))),
            RandMode::NoRandomMap | RandMode::Dist(Distribution::Random) => Kind::Uniform,
            RandMode::Dist(Distribution::Zipf { theta, center }) => {
                if theta.is_finite() && theta > 0.0 {
                    Kind::Zipf {
                        sampler: ZipfSampler::new(dblocks, theta),
                        perm: BlockPermutation::new(dblocks, rng.next_u64()),
                        shift: center_fraction(center)
                            .map(|c| ((dblocks as f64 * c) as u64) % dblocks)
                            .unwrap_or(0),
                    }
                } else {
                    Kind::Uniform
                }
            }
            RandMode::Dist(Distribution::Pareto { h, center }) => {
                if h.is_finite() && h > 0.0 && h < 1.0 {
                    Kind::Pareto {
                        pow: h.ln() / (1.0 - h).ln(),
                        perm: BlockPermutation::new(dblocks, rng.next_u64()),
                        shift: center_fraction(center)
                            .map(|c| ((dblocks as f64 * c) as u64) % dblocks)
                            .unwrap_or(0),
                    }
                } else {
                    Kind::Uniform
                }
            }
            RandMode::Dist(Distribution::Normal { sigma_pct, center }) => {
                let c = center_fraction(center).unwrap_or(0.5);
                // No deviation given: the spread of fio's mean of twelve uniform draws.
                let sigma = if sigma_pct.is_finite() && sigma_pct > 0.0 {
                    dblocks as f64 * sigma_pct / 100.0
                } else {
                    dblocks as f64 / 12.0
                };
                Kind::Normal {
                    center: dblocks as f64 * c,
                    sigma,
                }
            }
            RandMode::Dist(Distribution::Zoned(list)) => {
                let bounds: Vec<(f64, u64)> = {
                    let mut cum_pct = 0.0;
                    list.iter()
                        .map(|&(acc, reg)| {
                            cum_pct += reg.max(0.0);
                            let end = ((dblocks as f64) * cum_pct / 100.0).round() as u64;
                            (acc, end.min(dblocks))
                        })
                        .collect()
                };
                Self::build_zones(&bounds, dblocks)
            }
            RandMode::Dist(Distribution::ZonedAbs(list)) => {
                let mut cum_bytes = 0u64;
                let bounds: Vec<(f64, u64)> = list
                    .iter()
                    .map(|&(acc, bytes)| {
                        cum_bytes = cum_bytes.saturating_add(bytes);
                        (acc, (cum_bytes / align).min(dblocks))
                    })
                    .collect();
                Self::build_zones(&bounds, dblocks)
            }
            // Split per direction by the offset generator before it gets here.
            RandMode::Dist(Distribution::PerDir(_)) => Kind::Uniform,
        };
        RandGen {
            start,
            len,
            align,
            nblocks: match &kind {
                Kind::Map { perm, .. } => perm.len(),
                Kind::Blocks(map) => map.len(),
                _ => dblocks,
            },
            rng,
            kind,
            skipped: 0,
            fit_bs: u64::MAX,
            fit_last: 0,
            granted: u64::MAX,
        }
    }

    /// Zones from (access share, cumulative end block) pairs; a zone always holds at least one
    /// block, and zones with no access share are dropped.
    fn build_zones(bounds: &[(f64, u64)], dblocks: u64) -> Kind {
        let mut zones = Vec::with_capacity(bounds.len());
        let mut prev_end = 0u64;
        let mut total = 0.0;
        for &(acc, end) in bounds {
            let first = prev_end.min(dblocks - 1);
            let end = end.max(first + 1).min(dblocks);
            prev_end = end;
            if !(acc.is_finite() && acc > 0.0) {
                continue;
            }
            total += acc;
            zones.push(Zone {
                cum: total,
                first_block: first,
                blocks: end - first,
            });
        }
        if zones.is_empty() {
            return Kind::Uniform;
        }
        Kind::Zoned { zones, total }
    }

    /// Number of block positions (per pass for the random map).
    #[cfg(test)]
    pub(crate) fn nblocks(&self) -> u64 {
        self.nblocks
    }

    /// Blocks skipped so far in this pass because an I/O there would cross the region end.
    #[cfg(test)]
    pub(crate) fn skipped(&self) -> u64 {
        self.skipped
    }

    /// Whether `next` can return None at the end of a pass.
    #[cfg(test)]
    pub(crate) fn has_passes(&self) -> bool {
        matches!(self.kind, Kind::Map { .. } | Kind::Blocks(_))
    }

    /// How many bytes the I/O at the last offset may take: less than its block size where it
    /// ran into blocks already done in this pass (mixed block sizes with the random map).
    #[inline]
    pub(crate) fn granted(&self) -> u64 {
        self.granted
    }

    /// The next offset for an I/O of `bs` bytes. None at the end of a random-map pass, or when
    /// `bs` does not fit in the region at all.
    #[inline]
    pub(crate) fn next(&mut self, bs: u64) -> Option<u64> {
        if bs > self.len {
            return None;
        }
        // Last block index where an I/O of bs bytes still fits.
        if bs != self.fit_bs {
            self.fit_bs = bs;
            self.fit_last = (self.len - bs) / self.align;
        }
        let last_fit = self.fit_last;
        self.granted = u64::MAX;
        let block = match &mut self.kind {
            Kind::Map { perm, idx } => loop {
                if *idx >= perm.len() {
                    return None;
                }
                let b = perm.get(*idx);
                *idx += 1;
                if b <= last_fit {
                    break b;
                }
                self.skipped += 1;
            },
            Kind::Blocks(map) => {
                if map.is_full() {
                    return None;
                }
                let mut b = self.rng.below(map.len());
                if map.is_set(b) {
                    b = map.next_free_after(b)?;
                }
                let k = map.set_run(b, bs.div_ceil(self.align));
                self.granted = k * self.align;
                return Some(self.start + b * self.align);
            }
            Kind::Uniform => self.rng.below(last_fit + 1),
            Kind::Zipf {
                sampler,
                perm,
                shift,
            } => {
                let rank = sampler.sample(&mut self.rng);
                Self::scatter(perm, rank, *shift)
            }
            Kind::Pareto { pow, perm, shift } => {
                let n = perm.len();
                let v = (1.0 - self.rng.next_f64()).powf(*pow);
                let rank = ((n as f64) * (1.0 - v)) as u64;
                Self::scatter(perm, rank.min(n - 1), *shift)
            }
            Kind::Normal { center, sigma } => {
                let n = self.nblocks as f64;
                let mut pos = *center;
                if *sigma > 0.0 {
                    for _ in 0..64 {
                        let p = *center + *sigma * self.rng.normal();
                        pos = p;
                        if p >= 0.0 && p < n {
                            break;
                        }
                    }
                }
                (pos.max(0.0) as u64).min(self.nblocks - 1)
            }
            Kind::Zoned { zones, total } => {
                let u = self.rng.next_f64() * *total;
                let z = zones
                    .iter()
                    .find(|z| u < z.cum)
                    .unwrap_or(&zones[zones.len() - 1]);
                z.first_block + self.rng.below(z.blocks)
            }
        };
        Some(self.start + block.min(last_fit) * self.align)
    }

    #[inline(always)]
    fn scatter(perm: &BlockPermutation, rank: u64, shift: u64) -> u64 {
        let n = perm.len();
        let b = perm.get(rank) + shift;
        if b >= n {
            b - n
        } else {
            b
        }
    }

    /// Start a new pass: the random map is re-keyed so the next pass has a new order.
    pub(crate) fn reset(&mut self) {
        self.skipped = 0;
        if let Kind::Map { perm, idx } = &mut self.kind {
            *perm = BlockPermutation::new(perm.len(), self.rng.next_u64());
            *idx = 0;
        }
        if let Kind::Blocks(map) = &mut self.kind {
            map.clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gen::BsPicker;
    use crate::job::BlockSize;

    #[test]
    fn random_map_visits_every_block_once() {
        for &(len, align) in &[
            (4096u64 * 1000, 4096u64),
            (4096 * 7 + 100, 4096),
            (512 * 65537, 512),
            (4096, 4096),
            (4096 * 3, 4096),
        ] {
            let start = 1 << 20;
            let mut g = RandGen::new(start, len, align, 77, RandMode::RandomMap);
            let full = len / align;
            for pass in 0..2 {
                let mut seen = vec![false; full as usize];
                let mut order = vec![];
                while let Some(o) = g.next(align) {
                    assert!(o >= start && o + align <= start + len);
                    assert_eq!((o - start) % align, 0);
                    let b = ((o - start) / align) as usize;
                    assert!(!seen[b], "block {b} twice in pass {pass}");
                    seen[b] = true;
                    order.push(b);
                }
                assert!(seen.iter().all(|&s| s), "len {len}: missed blocks");
                assert_eq!(g.next(align), None);
                if full > 16 {
                    let sorted = order.windows(2).all(|w| w[0] < w[1]);
                    assert!(!sorted, "pass order is sequential");
                }
                g.reset();
            }
        }
    }

    #[test]
    fn random_map_passes_differ() {
        let mut g = RandGen::new(0, 4096 * 500, 4096, 5, RandMode::RandomMap);
        let a: Vec<u64> = std::iter::from_fn(|| g.next(4096)).collect();
        g.reset();
        let b: Vec<u64> = std::iter::from_fn(|| g.next(4096)).collect();
        assert_eq!(a.len(), 500);
        assert_eq!(b.len(), 500);
        assert_ne!(a, b);
        let mut g2 = RandGen::new(0, 4096 * 500, 4096, 5, RandMode::RandomMap);
        let a2: Vec<u64> = std::iter::from_fn(|| g2.next(4096)).collect();
        assert_eq!(a, a2);
    }

    #[test]
    fn random_map_variable_bs() {
        // Odd region, variable bs (multiples of align): every start position at most once,
        // every position where the largest bs fits is used, I/Os never cross the end.
        let align = 4096u64;
        let len = align * 1001 + 1234;
        let picker = BsPicker::new(&BlockSize::Range {
            min: 4096,
            max: 32768,
        });
        let mut rng = Rng::new(8);
        let mut g = RandGen::new(0, len, align, 9, RandMode::RandomMap);
        let nblocks = g.nblocks() as usize;
        assert_eq!(nblocks, 1002);
        let mut seen = vec![false; nblocks];
        let mut returned = 0u64;
        loop {
            let bs = picker.pick(&mut rng);
            let Some(o) = g.next(bs) else { break };
            assert_eq!(o % align, 0);
            assert!(o + bs <= len, "{o} + {bs} > {len}");
            let b = (o / align) as usize;
            assert!(!seen[b]);
            seen[b] = true;
            returned += 1;
        }
        assert_eq!(returned + g.skipped(), nblocks as u64);
        let always_fit = ((len - 32768) / align + 1) as usize;
        assert!(seen[..always_fit].iter().all(|&s| s));
        assert_eq!(g.next(4096), None);
    }

    #[test]
    fn block_map_covers_every_block_once_with_shortened_ios() {
        // fio's random map with mixed sizes: I/Os never overlap within a pass, together they
        // cover every block, and an I/O running into done blocks is cut there.
        let align = 4096u64;
        let len = align * 2048;
        let picker = BsPicker::new(&BlockSize::Split(vec![(4096, 50), (65536, 50)]));
        let mut rng = Rng::new(3);
        let mut g = RandGen::new(0, len, align, 11, RandMode::BlockMap);
        assert!(g.has_passes());
        for _pass in 0..2 {
            let mut covered = vec![false; 2048];
            let (mut ios, mut bytes, mut short) = (0u64, 0u64, 0u64);
            while let Some(o) = g.next(picker.pick(&mut rng)) {
                let granted = g.granted();
                assert!(granted >= align && granted <= 65536 && granted % align == 0);
                for b in o / align..(o + granted) / align {
                    assert!(!covered[b as usize], "block {b} twice");
                    covered[b as usize] = true;
                }
                ios += 1;
                bytes += granted;
                short += u64::from(granted != 4096 && granted != 65536);
            }
            assert!(covered.iter().all(|&c| c));
            assert_eq!(bytes, len);
            assert!(short > 0, "no I/O was shortened");
            assert!((150..600).contains(&ios), "{ios}");
            g.reset();
        }
    }

    #[test]
    fn uniform_with_replacement() {
        let align = 4096u64;
        let len = align * 100 + 7;
        let mut g = RandGen::new(8192, len, align, 3, RandMode::NoRandomMap);
        let mut counts = [0u32; 100];
        for i in 0..200_000 {
            let bs = if i % 2 == 0 { 4096 } else { 16384 };
            let o = g.next(bs).expect("never None");
            assert_eq!((o - 8192) % align, 0);
            assert!(o >= 8192 && o + bs <= 8192 + len);
            counts[((o - 8192) / align) as usize] += 1;
        }
        // Blocks 0..=96 can hold both sizes: roughly even.
        let (lo, hi) = counts[..97]
            .iter()
            .fold((u32::MAX, 0), |(a, b), &c| (a.min(c), b.max(c)));
        assert!(lo > 1850 && hi < 2220, "{lo}..{hi}");
        // bs larger than the region.
        assert_eq!(g.next(len + 1), None);
    }

    #[test]
    fn distributions_respect_bs_and_alignment() {
        let align = 4096u64;
        let len = align * 333 + 100;
        let modes = [
            RandMode::Dist(Distribution::Zipf {
                theta: 1.2,
                center: 0.0,
            }),
            RandMode::Dist(Distribution::Pareto {
                h: 0.7,
                center: 0.5,
            }),
            RandMode::Dist(Distribution::Normal {
                sigma_pct: 50.0,
                center: 0.95,
            }),
            RandMode::Dist(Distribution::Zoned(vec![(50.0, 50.0), (50.0, 50.0)])),
            RandMode::Dist(Distribution::ZonedAbs(vec![(100.0, 1 << 40)])),
            RandMode::Dist(Distribution::Random),
        ];
        let picker = BsPicker::new(&BlockSize::Split(vec![(4096, 50), (65536, 50)]));
        let mut rng = Rng::new(2);
        for mode in modes {
            let mut g = RandGen::new(512, len, align, 4, mode.clone());
            assert!(!g.has_passes());
            for _ in 0..20_000 {
                let bs = picker.pick(&mut rng);
                let o = g.next(bs).unwrap();
                assert_eq!((o - 512) % align, 0, "{mode:?}");
                assert!(o >= 512 && o + bs <= 512 + len, "{mode:?}: {o}+{bs}");
            }
        }
    }
}
