//! Sequential offsets.

/// Sequential offsets over `[start, start + len)` of a file of `file_size` bytes, with `add`
/// bytes added to the end of each I/O to place the next one (`rw=write:4k` leaves holes,
/// `rw=read:-8k` goes backwards).
///
/// Without `add`, a pass ends at the region end. With it, the positions follow fio's rule (its
/// quirks included, so that a job file does the same I/O): the first I/O is at the region start;
/// each next one at the end of the previous plus `add`, measured from the region start; a
/// position past the end of the file wraps to the region start (forwards) or to the region
/// length plus `add` (backwards); a position past the region length, or an I/O that ended at the
/// end of the file, ends the pass. The job's amount of I/O ends it otherwise.
#[derive(Clone, Debug)]
pub(crate) struct SeqGen {
    start: u64,
    len: u64,
    end: u64,
    file_size: u64,
    add: i64,
    /// Next offset (no `add`), or the end of the last I/O (with `add`).
    pos: u64,
}

impl SeqGen {
    pub(crate) fn new(start: u64, len: u64, add: i64) -> SeqGen {
        let end = start.saturating_add(len);
        SeqGen {
            start,
            len,
            end,
            file_size: end,
            add,
            pos: start,
        }
    }

    /// The size of the file the region lies in (the region end unless told).
    pub(crate) fn set_file_size(&mut self, size: u64) {
        self.file_size = size.max(self.end);
    }

    /// The next offset whose I/O of `bs` bytes ends within the region; None once the pass is
    /// complete.
    #[inline]
    pub(crate) fn next(&mut self, bs: u64) -> Option<u64> {
        if self.add != 0 {
            return self.next_with_add(bs);
        }
        let off = self.pos;
        if off >= self.end || bs > self.end - off {
            return None;
        }
        self.pos = off.saturating_add(bs);
        Some(off)
    }

    fn next_with_add(&mut self, bs: u64) -> Option<u64> {
        let real = self.file_size;
        if self.pos >= real {
            return None;
        }
        // Backwards from a region that does not start the file: the first I/O rewinds to the
        // region length (as fio does, an offset from the file start).
        if self.pos == self.start && self.start != 0 && self.add < 0 {
            self.pos = self.len.min(real);
        }
        let mut rel = self.pos.wrapping_sub(self.start);
        if rel != 0 {
            rel = rel.wrapping_add(self.add as u64);
            if rel >= real {
                rel = if self.add > 0 {
                    self.start
                } else {
                    self.len.min(real).wrapping_add(self.add as u64)
                };
            }
        }
        if rel >= self.len {
            return None;
        }
        let off = self.start + rel;
        if off >= real || bs > real - off {
            return None;
        }
        self.pos = off + bs;
        Some(off)
    }

    /// The next I/O starts at `pos` (without `add`).
    pub(crate) fn continue_at(&mut self, pos: u64) {
        if self.add == 0 {
            self.pos = pos;
        }
    }

    /// Start a new pass at the region start.
    pub(crate) fn reset(&mut self) {
        self.pos = self.start;
    }

    /// Where the next I/O would start (without `add`).
    #[cfg(test)]
    pub(crate) fn pos(&self) -> u64 {
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

        // Holes: rw=read:8k with bs 4k; the pass ends where an I/O ends at the end of the file.
        let mut g = SeqGen::new(0, 64 * 1024, 8192);
        let offs: Vec<u64> = std::iter::from_fn(|| g.next(4096)).collect();
        assert_eq!(offs, [0, 12, 24, 36, 48, 60].map(|k| k * 1024));

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

    /// The offsets fio 3.33 issues for these jobs (from its `write_iolog`), in KiB, 4k blocks.
    #[test]
    fn offsets_with_add_follow_fio() {
        let k = 1024u64;
        let run = |start: u64, len: u64, file: u64, add: i64, n: usize| {
            let mut g = SeqGen::new(start * k, len * k, add * 1024);
            g.set_file_size(file * k);
            let mut out = vec![];
            while out.len() < n {
                match g.next(4 * k) {
                    Some(o) => out.push(o / k),
                    None => break,
                }
            }
            out
        };
        // --size=64k --rw=read:4k: the hole wraps to the start; 16 I/Os (the amount ends it).
        let mut fwd: Vec<u64> = (0..8).map(|i| i * 8).collect();
        fwd.extend(fwd.clone());
        assert_eq!(run(0, 64, 64, 4, 16), fwd);
        // read:10k
        assert_eq!(
            run(0, 64, 64, 10, 16),
            [0, 14, 28, 42, 56, 0, 14, 28, 42, 56, 0, 14, 28, 42, 56, 0]
        );
        // read:-8k: the first at the start, then backwards from the end.
        let mut back = vec![0];
        back.extend((0..15).map(|i| 56 - 4 * i));
        assert_eq!(run(0, 64, 64, -8, 16), back);
        // read:-2k overlaps forwards by 2k.
        assert_eq!(
            run(0, 64, 64, -2, 16),
            (0..16).map(|i| 2 * i).collect::<Vec<_>>()
        );
        // read:-12k
        assert_eq!(
            run(0, 64, 64, -12, 16),
            [0, 52, 44, 36, 28, 20, 12, 4, 52, 44, 36, 28, 20, 12, 4, 52]
        );
        // --offset=16k --size=32k of a 64k file, read:-8k.
        assert_eq!(run(16, 32, 64, -8, 8), [24, 20, 16, 40, 36, 32, 28, 24]);
    }
}
