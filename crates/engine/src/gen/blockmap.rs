//! The block map of a random pass with mixed block sizes: one bit per block of the smallest
//! block size, set once an I/O covered the block in this pass. Levels of summary words (a bit
//! per full word below) keep "next free block" fast at any device size.

#[derive(Clone, Debug)]
pub(super) struct BlockMap {
    /// levels[0] holds one bit per block; levels[i + 1] one bit per full word of levels[i].
    levels: Vec<Vec<u64>>,
    nbits: u64,
    free: u64,
}

impl BlockMap {
    pub(super) fn new(nbits: u64) -> BlockMap {
        let mut levels = Vec::new();
        let mut n = nbits.max(1);
        loop {
            let words = n.div_ceil(64);
            levels.push(vec![0u64; words as usize]);
            if words == 1 {
                break;
            }
            n = words;
        }
        BlockMap {
            levels,
            nbits,
            free: nbits,
        }
    }

    pub(super) fn len(&self) -> u64 {
        self.nbits
    }

    pub(super) fn is_full(&self) -> bool {
        self.free == 0
    }

    pub(super) fn clear(&mut self) {
        for l in &mut self.levels {
            l.fill(0);
        }
        self.free = self.nbits;
    }

    pub(super) fn is_set(&self, b: u64) -> bool {
        self.levels[0][(b / 64) as usize] & (1 << (b % 64)) != 0
    }

    fn set(&mut self, b: u64) {
        let mut idx = b;
        for l in 0..self.levels.len() {
            let w = &mut self.levels[l][(idx / 64) as usize];
            *w |= 1 << (idx % 64);
            if *w != u64::MAX {
                break;
            }
            idx /= 64;
        }
        self.free -= 1;
    }

    /// Bits of `level` that stand for blocks (level 0) or words below (the rest).
    fn valid_bits(&self, level: usize) -> u64 {
        if level == 0 {
            self.nbits
        } else {
            self.levels[level - 1].len() as u64
        }
    }

    /// The first free block at or after `from`, None if there is none up to the end.
    fn first_free_from(&self, from: u64) -> Option<u64> {
        if from >= self.nbits {
            return None;
        }
        // Walk up while the rest of the current word is full, then down again.
        let mut level = 0;
        let mut idx = from;
        loop {
            let words = &self.levels[level];
            let w = (idx / 64) as usize;
            let masked = !words[w] & (u64::MAX << (idx % 64));
            if masked != 0 {
                let mut pos = (w as u64) * 64 + masked.trailing_zeros() as u64;
                if pos >= self.valid_bits(level) {
                    // Only the padding after the last block is left.
                    return None;
                }
                while level > 0 {
                    level -= 1;
                    let word = self.levels[level][pos as usize];
                    pos = pos * 64 + (!word).trailing_zeros() as u64;
                }
                return (pos < self.nbits).then_some(pos);
            }
            // The rest of this word is full: continue after it one level up.
            let next = w as u64 + 1;
            if level + 1 == self.levels.len() {
                return None;
            }
            level += 1;
            if next >= self.levels[level - 1].len() as u64 {
                return None;
            }
            idx = next;
        }
    }

    /// The first free block after `b`, going round to the start (fio's `axmap_next_free`).
    pub(super) fn next_free_after(&self, b: u64) -> Option<u64> {
        if self.free == 0 {
            return None;
        }
        let next = if b + 1 >= self.nbits { 0 } else { b + 1 };
        self.first_free_from(next)
            .or_else(|| self.first_free_from(0))
    }

    /// Mark up to `n` blocks from the free block `b` on, stopping at the first block already
    /// marked or at the end; returns how many were marked (at least one).
    pub(super) fn set_run(&mut self, b: u64, n: u64) -> u64 {
        let mut k = 0;
        while k < n.max(1) && b + k < self.nbits && !self.is_set(b + k) {
            self.set(b + k);
            k += 1;
        }
        k
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn next_free_and_runs() {
        for &n in &[1u64, 63, 64, 65, 128, 4096, 4097, 262_144, 300_000] {
            let mut m = BlockMap::new(n);
            assert_eq!(m.next_free_after(n - 1), Some(0));
            // Mark every block but the last one, in runs of 3.
            let mut b = 0;
            while b + 1 < n {
                let k = m.set_run(b, 3.min(n - 1 - b));
                assert!(k >= 1);
                b += k;
            }
            assert!(!m.is_full() || n == 1);
            if n > 1 {
                assert_eq!(m.next_free_after(0), Some(n - 1), "n {n}");
                assert_eq!(m.next_free_after(n - 1), Some(n - 1), "n {n}");
                assert_eq!(m.set_run(n - 1, 5), 1);
            } else {
                assert_eq!(m.set_run(0, 5), 1);
            }
            assert!(m.is_full());
            assert_eq!(m.next_free_after(0), None);
            m.clear();
            assert_eq!(m.next_free_after(0), Some(1.min(n - 1)));
        }
    }

    #[test]
    fn runs_stop_at_marked_blocks() {
        let mut m = BlockMap::new(200);
        assert_eq!(m.set_run(100, 1), 1);
        assert_eq!(m.set_run(90, 16), 10);
        assert_eq!(m.next_free_after(89), Some(101));
        assert_eq!(m.set_run(195, 16), 5);
        assert_eq!(m.next_free_after(194), Some(0));
        assert_eq!(m.len(), 200);
    }
}
