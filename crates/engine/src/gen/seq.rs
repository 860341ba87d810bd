//! Sequential offsets.

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
    #[cfg(test)]
    pub fn pos(&self) -> u64 {
        self.pos
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

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
}
