//! Workload generators: offsets (sequential, random, distributions), block sizes and data
//! directions. All state is per worker; `next`/`pick`/`choose` neither allocate nor lock.

use crate::job::{BlockSize, Dir, Distribution, JobSpec};
use crate::rng::{mix64, splitmix64, Rng};

// ---------------------------------------------------------------------------------------------
// Permutation
// ---------------------------------------------------------------------------------------------

/// A seeded bijection over [0, n): a four-round Feistel network with cycle walking back into
/// range. O(1) memory for any n >= 1.
///
/// The network runs over Z_a x Z_(2^k) with 2^k about sqrt(n) and a = ceil(n / 2^k): one half
/// combines by XOR under a mask, the other by addition modulo `a`. The domain exceeds n by less
/// than 2^k, so cycle walking is rare even just above a power of two (a plain power-of-two
/// domain would need two encryptions on average there, with unpredictable branches).
#[derive(Clone, Debug)]
pub struct BlockPermutation {
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
    pub fn new(n: u64, seed: u64) -> BlockPermutation {
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
    pub fn get(&self, i: u64) -> u64 {
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

    pub fn len(&self) -> u64 {
        self.n
    }

    /// Always false: a permutation covers at least one element.
    pub fn is_empty(&self) -> bool {
        false
    }
}

// ---------------------------------------------------------------------------------------------
// Sequential offsets
// ---------------------------------------------------------------------------------------------

/// Sequential offsets over `[start, start + len)`, with an optional hole after each I/O
/// (`rw=write:4k`).
#[derive(Clone, Debug)]
pub struct SeqGen {
    start: u64,
    end: u64,
    hole: u64,
    pos: u64,
}

impl SeqGen {
    pub fn new(start: u64, len: u64, hole: u64) -> SeqGen {
        SeqGen {
            start,
            end: start.saturating_add(len),
            hole,
            pos: start,
        }
    }

    /// The next offset whose I/O of `bs` bytes ends within the region; None once the pass is
    /// complete.
    #[inline]
    pub fn next(&mut self, bs: u64) -> Option<u64> {
        let off = self.pos;
        if off >= self.end || bs > self.end - off {
            return None;
        }
        self.pos = off.saturating_add(bs).saturating_add(self.hole);
        Some(off)
    }

    /// Start a new pass at the region start.
    pub fn reset(&mut self) {
        self.pos = self.start;
    }

    /// Where the next I/O would start.
    pub fn pos(&self) -> u64 {
        self.pos
    }

    /// Continue from `pos` (clamped to the region).
    pub fn set_pos(&mut self, pos: u64) {
        self.pos = pos.clamp(self.start, self.end);
    }

    pub fn start(&self) -> u64 {
        self.start
    }

    pub fn end(&self) -> u64 {
        self.end
    }
}

// ---------------------------------------------------------------------------------------------
// Random offsets
// ---------------------------------------------------------------------------------------------

/// How `RandGen` picks blocks.
#[derive(Clone, Debug, PartialEq)]
pub enum RandMode {
    /// Every aligned block exactly once per pass (a permutation stands in for fio's random map).
    RandomMap,
    /// Uniform with replacement.
    NoRandomMap,
    /// A non-uniform distribution, with replacement. `Distribution::Random` is uniform.
    Dist(Distribution),
}

impl RandMode {
    /// fio's rules: a distribution other than `random` or an explicit `blockalign` turns the
    /// random map off, as does `norandommap`.
    pub fn for_job(norandommap: bool, blockalign_set: bool, dist: &Distribution) -> RandMode {
        match dist {
            Distribution::Random if norandommap || blockalign_set => RandMode::NoRandomMap,
            Distribution::Random => RandMode::RandomMap,
            d => RandMode::Dist(d.clone()),
        }
    }
}

/// Zipf ranks by rejection-inversion: P(k) proportional to k^-s for k in 1..=n. Setup is O(1),
/// sampling needs about one iteration on average for every n and s > 0.
#[derive(Clone, Debug)]
struct ZipfSampler {
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
    fn new(n: u64, s: f64) -> ZipfSampler {
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
    fn sample(&self, rng: &mut Rng) -> u64 {
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
pub struct RandGen {
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
    pub fn new(start: u64, len: u64, align: u64, seed: u64, mode: RandMode) -> RandGen {
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
                let sigma = if sigma_pct.is_finite() && sigma_pct > 0.0 {
                    dblocks as f64 * sigma_pct / 100.0
                } else {
                    0.0
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
        };
        RandGen {
            start,
            len,
            align,
            nblocks: match &kind {
                Kind::Map { perm, .. } => perm.len(),
                _ => dblocks,
            },
            rng,
            kind,
            skipped: 0,
            fit_bs: u64::MAX,
            fit_last: 0,
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
    pub fn nblocks(&self) -> u64 {
        self.nblocks
    }

    pub fn align(&self) -> u64 {
        self.align
    }

    /// Blocks skipped so far in this pass because an I/O there would cross the region end.
    pub fn skipped(&self) -> u64 {
        self.skipped
    }

    /// Whether `next` can return None at the end of a pass.
    pub fn has_passes(&self) -> bool {
        matches!(self.kind, Kind::Map { .. })
    }

    /// The next offset for an I/O of `bs` bytes. None at the end of a random-map pass, or when
    /// `bs` does not fit in the region at all.
    #[inline]
    pub fn next(&mut self, bs: u64) -> Option<u64> {
        if bs > self.len {
            return None;
        }
        // Last block index where an I/O of bs bytes still fits.
        if bs != self.fit_bs {
            self.fit_bs = bs;
            self.fit_last = (self.len - bs) / self.align;
        }
        let last_fit = self.fit_last;
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
    pub fn reset(&mut self) {
        self.skipped = 0;
        if let Kind::Map { perm, idx } = &mut self.kind {
            *perm = BlockPermutation::new(perm.len(), self.rng.next_u64());
            *idx = 0;
        }
    }
}

// ---------------------------------------------------------------------------------------------
// percentage_random and rw=rand*:N
// ---------------------------------------------------------------------------------------------

/// Random offsets mixed with sequential ones.
///
/// Every `ios_per_offset` I/Os (`rw=randread:N`, default 1) a new offset is generated: random
/// with probability `pct_random`%, otherwise sequential after the previous I/O. The I/Os in
/// between continue sequentially from the generated offset. A sequential continuation that
/// would cross the region end is replaced by a freshly generated offset; a sequential pick
/// (percentage_random) that would cross it wraps to the region start.
#[derive(Clone, Debug)]
pub struct RandomOrSeq {
    rand: RandGen,
    rng: Rng,
    pct_random: u32,
    ios_per_offset: u64,
    left: u64,
    next_seq: u64,
    start: u64,
    end: u64,
    last_random: bool,
}

impl RandomOrSeq {
    pub fn new(rand: RandGen, pct_random: u32, ios_per_offset: u64, seed: u64) -> RandomOrSeq {
        let start = rand.start;
        let end = rand.start.saturating_add(rand.len);
        RandomOrSeq {
            rand,
            rng: Rng::new(mix64(seed ^ 0x5851_F42D_4C95_7F2D)),
            pct_random: pct_random.min(100),
            ios_per_offset: ios_per_offset.max(1),
            left: 0,
            next_seq: start,
            start,
            end,
            last_random: false,
        }
    }

    #[inline]
    pub fn next(&mut self, bs: u64) -> Option<u64> {
        if self.left > 0 {
            self.left -= 1;
            let off = self.next_seq;
            if off < self.end && bs <= self.end - off {
                self.next_seq = off + bs;
                self.last_random = false;
                return Some(off);
            }
        }
        let off = if self.rng.percent(self.pct_random) {
            self.last_random = true;
            self.rand.next(bs)?
        } else {
            self.last_random = false;
            let mut off = self.next_seq;
            if off >= self.end || bs > self.end - off {
                off = self.start;
                if bs > self.end - off {
                    return None;
                }
            }
            off
        };
        self.left = self.ios_per_offset - 1;
        self.next_seq = off + bs;
        Some(off)
    }

    /// Whether the last offset came from the random generator.
    pub fn last_was_random(&self) -> bool {
        self.last_random
    }

    pub fn reset(&mut self) {
        self.rand.reset();
        self.left = 0;
        self.next_seq = self.start;
    }

    pub fn rand(&self) -> &RandGen {
        &self.rand
    }
}

/// The offset generator of one direction of one job clone. Kept unboxed: one per worker and
/// direction, and `next` runs per I/O.
#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant)]
pub enum OffsetGen {
    Seq(SeqGen),
    Rand(RandomOrSeq),
}

impl OffsetGen {
    /// The generator `job` asks for in direction `dir`, over `[start, start + len)`.
    pub fn for_job(job: &JobSpec, dir: Dir, start: u64, len: u64, seed: u64) -> OffsetGen {
        if job.rw.is_random() {
            let ba = job.blockalign[dir];
            let align = ba.unwrap_or_else(|| job.bs[dir].min()).max(1);
            let mode = RandMode::for_job(job.norandommap, ba.is_some(), &job.distribution);
            let rand = RandGen::new(start, len, align, seed, mode);
            OffsetGen::Rand(RandomOrSeq::new(
                rand,
                job.percentage_random[dir],
                job.rw_modifier.value.max(1),
                seed,
            ))
        } else {
            OffsetGen::Seq(SeqGen::new(start, len, job.rw_modifier.value))
        }
    }

    /// None at the end of a pass (sequential, or random with the random map).
    #[inline]
    pub fn next(&mut self, bs: u64) -> Option<u64> {
        match self {
            OffsetGen::Seq(g) => g.next(bs),
            OffsetGen::Rand(g) => g.next(bs),
        }
    }

    pub fn reset(&mut self) {
        match self {
            OffsetGen::Seq(g) => g.reset(),
            OffsetGen::Rand(g) => g.reset(),
        }
    }

    /// Whether the last offset was random (for fio's per-direction seq/rand accounting).
    pub fn last_was_random(&self) -> bool {
        match self {
            OffsetGen::Seq(_) => false,
            OffsetGen::Rand(g) => g.last_was_random(),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Block sizes and directions
// ---------------------------------------------------------------------------------------------

/// Picks the block size of each I/O.
#[derive(Clone, Debug)]
pub enum BsPicker {
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
    pub fn new(bs: &BlockSize) -> BsPicker {
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
    pub fn pick(&self, rng: &mut Rng) -> u64 {
        match self {
            BsPicker::Fixed(v) => *v,
            BsPicker::Range { min, max_mult } => min * rng.range(1, *max_mult),
            BsPicker::Split { table } => table[rng.below(table.len() as u64) as usize],
        }
    }

    pub fn is_fixed(&self) -> bool {
        matches!(self, BsPicker::Fixed(_))
    }
}

/// Chooses read or write for mixed workloads.
#[derive(Clone, Copy, Debug)]
pub struct DirMix {
    read_pct: u32,
}

impl DirMix {
    pub fn new(rwmixread: u32) -> DirMix {
        DirMix {
            read_pct: rwmixread.min(100),
        }
    }

    #[inline]
    pub fn choose(&self, rng: &mut Rng) -> Dir {
        if rng.percent(self.read_pct) {
            Dir::Read
        } else {
            Dir::Write
        }
    }
}

/// Share of accesses that the hottest `top_fraction` of `n` blocks receive under zipf(theta).
pub fn zipf_hot_share(theta: f64, n: u64, top_fraction: f64) -> f64 {
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
pub fn pareto_hot_share(h: f64, top_fraction: f64) -> f64 {
    1.0 - (1.0 - top_fraction).powf((1.0 - h).ln() / h.ln())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::job::{RwMode, RwModifier};

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

    #[test]
    fn seq_covers_region() {
        let mut g = SeqGen::new(1000, 64 * 1024, 0);
        let mut offs = vec![];
        while let Some(o) = g.next(4096) {
            offs.push(o);
        }
        assert_eq!(offs.len(), 16);
        for (i, &o) in offs.iter().enumerate() {
            assert_eq!(o, 1000 + i as u64 * 4096);
        }
        assert_eq!(g.next(4096), None);
        assert_eq!(g.pos(), 1000 + 64 * 1024);
        g.reset();
        assert_eq!(g.next(4096), Some(1000));

        // Partial tail: a 10000-byte region holds two 4k I/Os only.
        let mut g = SeqGen::new(0, 10_000, 0);
        assert_eq!(g.next(4096), Some(0));
        assert_eq!(g.next(4096), Some(4096));
        assert_eq!(g.next(4096), None);

        // Holes: rw=write:4k with bs 4k covers every other block.
        let mut g = SeqGen::new(0, 64 * 1024, 4096);
        let offs: Vec<u64> = std::iter::from_fn(|| g.next(4096)).collect();
        assert_eq!(offs, (0..8).map(|i| i * 8192).collect::<Vec<_>>());

        // Variable bs: contiguous, exactly up to the end.
        let mut g = SeqGen::new(0, 100 * 512, 0);
        let mut rng = Rng::new(1);
        let mut expect = 0;
        loop {
            let bs = 512 * rng.range(1, 8);
            match g.next(bs) {
                Some(o) => {
                    assert_eq!(o, expect);
                    expect = o + bs;
                    assert!(expect <= 100 * 512);
                }
                None => {
                    assert!(expect + bs > 100 * 512);
                    break;
                }
            }
        }
    }

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

    #[test]
    fn rw_modifier_sequential_runs() {
        let align = 4096u64;
        let rand = RandGen::new(0, align * 1000, align, 1, RandMode::NoRandomMap);
        let mut g = RandomOrSeq::new(rand, 100, 8, 1);
        let end = align * 1000;
        let mut prev = 0;
        let mut since = 0;
        let mut runs = 0;
        for i in 0..8000u64 {
            let o = g.next(align).unwrap();
            assert!(o + align <= end);
            if g.last_was_random() {
                assert!(
                    i == 0 || since == 8 || prev + 2 * align > end,
                    "i {i} since {since}"
                );
                since = 1;
                runs += 1;
            } else {
                assert_eq!(o, prev + align);
                since += 1;
                assert!(since <= 8);
            }
            prev = o;
        }
        assert!((1000..1010).contains(&runs), "{runs}");

        // With the random map, a pass ends after every block was a run start once.
        let rand = RandGen::new(0, align * 100, align, 1, RandMode::RandomMap);
        let mut g = RandomOrSeq::new(rand, 100, 4, 2);
        let mut n = 0;
        while g.next(align).is_some() {
            n += 1;
            assert!(n < 1000);
        }
        assert!(n > 300 && n <= 400, "{n}");
    }

    #[test]
    fn percentage_random_mix() {
        let align = 4096u64;
        let blocks = 100_000u64;
        let rand = RandGen::new(0, align * blocks, align, 1, RandMode::NoRandomMap);
        let mut g = RandomOrSeq::new(rand, 30, 1, 9);
        let mut random = 0;
        let mut seq_ok = 0;
        let mut prev_end = 0;
        let draws = 100_000;
        for _ in 0..draws {
            let o = g.next(align).unwrap();
            if g.last_was_random() {
                random += 1;
            } else if o == prev_end || o == 0 {
                seq_ok += 1;
            }
            prev_end = o + align;
        }
        let frac = random as f64 / draws as f64;
        assert!((frac - 0.30).abs() < 0.01, "{frac}");
        assert_eq!(seq_ok, draws - random);

        // 0% random: purely sequential, wrapping at the end.
        let rand = RandGen::new(0, align * 10, align, 1, RandMode::RandomMap);
        let mut g = RandomOrSeq::new(rand, 0, 1, 9);
        let offs: Vec<u64> = (0..25).map(|_| g.next(align).unwrap()).collect();
        let expect: Vec<u64> = (0..25).map(|i| (i % 10) * align).collect();
        assert_eq!(offs, expect);
    }

    #[test]
    fn offset_gen_for_job() {
        let job = JobSpec {
            rw: RwMode::Write,
            rw_modifier: RwModifier { value: 4096 },
            ..Default::default()
        };
        let mut g = OffsetGen::for_job(&job, Dir::Write, 0, 32768, 1);
        let offs: Vec<u64> = std::iter::from_fn(|| g.next(4096)).collect();
        assert_eq!(offs, vec![0, 8192, 16384, 24576]);

        let job = JobSpec {
            rw: RwMode::RandRead,
            ..Default::default()
        };
        let mut g = OffsetGen::for_job(&job, Dir::Read, 0, 4096 * 64, 1);
        let mut offs: Vec<u64> = std::iter::from_fn(|| g.next(4096)).collect();
        assert_eq!(offs.len(), 64);
        offs.sort_unstable();
        assert_eq!(offs, (0..64).map(|i| i * 4096).collect::<Vec<_>>());
        g.reset();
        assert!(g.next(4096).is_some());

        let job = JobSpec {
            rw: RwMode::RandRead,
            norandommap: true,
            ..Default::default()
        };
        let mut g = OffsetGen::for_job(&job, Dir::Read, 0, 4096 * 64, 1);
        assert!((0..1000).all(|_| g.next(4096).is_some()));
    }

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

    #[test]
    fn dir_mix_ratio() {
        let mut rng = Rng::new(10);
        let m = DirMix::new(70);
        let reads = (0..100_000)
            .filter(|_| m.choose(&mut rng) == Dir::Read)
            .count();
        assert!((reads as f64 / 100_000.0 - 0.70).abs() < 0.01, "{reads}");
        let m = DirMix::new(0);
        assert!((0..1000).all(|_| m.choose(&mut rng) == Dir::Write));
        let m = DirMix::new(100);
        assert!((0..1000).all(|_| m.choose(&mut rng) == Dir::Read));
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
