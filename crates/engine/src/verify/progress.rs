//! How far a writing job got: the writes it issued and the offsets of its last completed writes
//! per file ([`WriteProgress`], kept by [`RecentWrites`] while it runs), and how a later job
//! that reads the data back uses such a record to check only what was really written
//! ([`WriteProgress::read_back_ends`]).

pub use iomark_model::verify::WriteProgress;

/// The last completed writes of each file, kept while a job runs: a ring of `depth` offsets per
/// file (no allocation per write).
#[derive(Clone, Debug)]
pub(crate) struct RecentWrites {
    depth: usize,
    /// Writes completed, all files together.
    completed: u64,
    rings: Vec<Vec<u64>>,
    next: Vec<usize>,
}

impl RecentWrites {
    /// Rings of `depth` (at least 1) offsets for `files` files.
    pub(crate) fn new(depth: u32, files: usize) -> RecentWrites {
        let depth = depth.max(1) as usize;
        RecentWrites {
            depth,
            completed: 0,
            rings: vec![vec![0; depth]; files],
            next: vec![0; files],
        }
    }

    /// A write of `file` at `offset` completed.
    #[inline]
    pub(crate) fn record(&mut self, file: u32, offset: u64) {
        let f = file as usize;
        let (Some(ring), Some(next)) = (self.rings.get_mut(f), self.next.get_mut(f)) else {
            return;
        };
        ring[*next] = offset;
        *next = (*next + 1) % self.depth;
        self.completed += 1;
    }

    /// The record of a job that issued `issued` writes: per file, the last
    /// `min(completed, depth)` ring entries, newest first (as many for every file: a file with
    /// fewer writes repeats the ring's unused zero entries, as the record's readers expect).
    pub(crate) fn snapshot(&self, issued: u64) -> WriteProgress {
        let n = (self.completed.min(self.depth as u64)) as usize;
        let recent = self
            .rings
            .iter()
            .zip(&self.next)
            .map(|(ring, &next)| {
                (0..n)
                    .map(|i| ring[(next + self.depth - 1 - i) % self.depth])
                    .collect()
            })
            .collect();
        WriteProgress {
            issued,
            depth: self.depth as u32,
            recent,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ring_keeps_the_last_depth_completions_newest_first() {
        let mut r = RecentWrites::new(4, 2);
        for i in 0..10u64 {
            r.record(0, i * 4096);
        }
        let p = r.snapshot(10);
        assert_eq!(p.depth, 4);
        assert_eq!(p.issued, 10);
        assert_eq!(p.recent[0], vec![9 * 4096, 8 * 4096, 7 * 4096, 6 * 4096]);
        // The other file had no write: its unused entries.
        assert_eq!(p.recent[1], vec![0; 4]);
        let mut short = RecentWrites::new(4, 1);
        short.record(0, 8192);
        short.record(0, 0);
        assert_eq!(short.snapshot(2).recent[0], vec![0, 8192]);
        // Out-of-range files are ignored.
        short.record(7, 1);
        assert_eq!(short.snapshot(2).recent.len(), 1);
    }

    #[test]
    fn a_read_back_stops_at_the_first_block_not_seen_written() {
        // 10 writes of 4 KiB at depth 1, all completed: reads 0..9 go on, the 11th stops.
        let p = WriteProgress {
            issued: 10,
            depth: 1,
            recent: vec![vec![9 * 4096]],
        };
        for i in 0..10u64 {
            assert!(!p.read_back_ends(i, 0, i * 4096), "read {i}");
        }
        assert!(p.read_back_ends(10, 0, 10 * 4096));
        // Depth 4 with the 10th write lost: the read-back ends at block 9.
        let p = WriteProgress {
            issued: 10,
            depth: 4,
            recent: vec![vec![8 * 4096, 7 * 4096, 6 * 4096, 5 * 4096]],
        };
        for i in 0..9u64 {
            assert!(!p.read_back_ends(i, 0, i * 4096), "read {i}");
        }
        assert!(p.read_back_ends(9, 0, 9 * 4096));
        // Fewer writes than the depth: every read is checked against the completions.
        let p = WriteProgress {
            issued: 2,
            depth: 4,
            recent: vec![vec![4096, 0]],
        };
        assert!(!p.read_back_ends(0, 0, 0));
        assert!(!p.read_back_ends(1, 0, 4096));
        assert!(p.read_back_ends(2, 0, 8192));
        assert!(p.read_back_ends(0, 1, 0), "a file with no record");
    }
}
