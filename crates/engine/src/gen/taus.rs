//! The combined Tausworthe generator (L'Ecuyer's taus88, 32-bit) with the seeding fio uses,
//! and fio's derivation of a job's stream seeds from `randseed` and the thread number.
//!
//! Where a choice must come out as fio's does, draw for draw (the read/write mix), the worker
//! uses this generator instead of its own `Rng`. Allocation-free; one state per stream.

/// One multiplication step of fio's seed derivation.
const SEED_MUL: u64 = 0x9e37_0001;

/// The streams of a job, in fio's order (only those iomark draws like fio are named).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stream {
    /// The read/write mix.
    Mix = 4,
    /// Which requests carry a priority of their own.
    PrioCmds = 19,
}

/// The seed of `stream` for the clone numbered `thread_number` (1 for the first clone of the
/// first job) when the run is repeatable: the job's seed multiplied into each stream in turn.
pub(crate) fn stream_seed(randseed: u64, thread_number: u32, stream: Stream) -> u64 {
    let mut seed = randseed;
    for _ in 0..4 {
        seed = seed.wrapping_mul(SEED_MUL);
    }
    for _ in 0..stream as u32 {
        seed = seed.wrapping_mul(SEED_MUL);
    }
    seed.wrapping_mul(thread_number as u64)
        .wrapping_add(stream as u64)
}

/// taus88: three Tausworthe components combined by exclusive or (period about 2^88).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Taus88 {
    s1: u32,
    s2: u32,
    s3: u32,
}

#[inline]
fn step(s: u32, a: u32, b: u32, c: u32, d: u32) -> u32 {
    ((s & c) << d) ^ (((s << a) ^ s) >> b)
}

impl Taus88 {
    /// A generator seeded as fio seeds its 32-bit streams (only the low 32 bits of `seed`
    /// count): an LCG fills the three components, kept above their minimums, then six
    /// draws are discarded.
    pub(crate) fn new(seed: u64) -> Taus88 {
        let seed = seed as u32;
        let lcg = |x: u32| x.wrapping_mul(69069) ^ seed;
        let floor = |x: u32, m: u32| if x < m { x + m } else { x };
        // fio starts the LCG from (2^31)+(2^17)+(2^7) written in C, where ^ is xor: 53.
        let s1 = floor(lcg(53), 1);
        let s2 = floor(lcg(s1), 7);
        let s3 = floor(lcg(s2), 15);
        let mut t = Taus88 { s1, s2, s3 };
        for _ in 0..6 {
            t.next_u32();
        }
        t
    }

    #[inline]
    pub(crate) fn next_u32(&mut self) -> u32 {
        self.s1 = step(self.s1, 13, 19, 0xffff_fffe, 12);
        self.s2 = step(self.s2, 2, 25, 0xffff_fff8, 4);
        self.s3 = step(self.s3, 3, 11, 0xffff_fff0, 17);
        self.s1 ^ self.s2 ^ self.s3
    }

    /// A value in [lo, hi] (both included), scaled as fio scales it: through a double.
    #[inline]
    pub(crate) fn between(&mut self, lo: u32, hi: u32) -> u32 {
        let r = self.next_u32();
        let span = (hi - lo) as f64 + 1.0;
        lo + (span * (r as f64 / 4_294_967_296.0)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_as_fio_derives_them() {
        // randseed 0x89 (fio's default), first thread: the mix stream's seed, worked out by
        // hand from the multiplications (five for the stream's place plus four up front).
        let mut s = 0x89u64;
        for _ in 0..8 {
            s = s.wrapping_mul(0x9e37_0001);
        }
        assert_eq!(stream_seed(0x89, 1, Stream::Mix), s + 4);
        assert_eq!(stream_seed(0x89, 2, Stream::Mix), s.wrapping_mul(2) + 4);
        assert_ne!(stream_seed(0x8a, 1, Stream::Mix), s + 4);
    }

    #[test]
    fn taus88_draws_as_fio() {
        // The first draws of the mix stream of fio's default seed (randseed 0x89, first
        // thread), as fio 3.33's generator gives them.
        let seed = stream_seed(0x89, 1, Stream::Mix);
        assert_eq!(seed, 0x22b5_8261_5b78_008d);
        let mut t = Taus88::new(seed);
        let a: Vec<u32> = (0..5).map(|_| t.next_u32()).collect();
        assert_eq!(
            a,
            [2009255334, 156760046, 1556614075, 3311501931, 1091855374]
        );
        // Seeding: the components after the six discarded draws.
        let t = Taus88::new(1);
        assert_eq!((t.s1, t.s2, t.s3), (3025236779, 3040581203, 1082059972));
        // Only the low 32 bits of the seed count.
        assert_eq!(Taus88::new(7), Taus88::new(7 | (5 << 32)));
    }

    #[test]
    fn between_covers_the_range_uniformly() {
        let mut t = Taus88::new(99);
        let mut seen = [0u32; 100];
        for _ in 0..100_000 {
            let v = t.between(1, 100);
            assert!((1..=100).contains(&v));
            seen[v as usize - 1] += 1;
        }
        assert!(seen.iter().all(|&n| (800..1200).contains(&n)), "{seen:?}");
    }
}
