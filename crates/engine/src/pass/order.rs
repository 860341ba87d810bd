//! The order in which a pass visits the records of its file: forwards, backwards, with a
//! stride, always the same record, or every record once in a shuffled order.

use serde::{Deserialize, Serialize};

/// Which record the i-th operation of a pass touches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Order {
    /// Record 0, 1, 2, ... (reads and writes at the file position, no seeks).
    Forward,
    /// Record n-1, n-2, ... 0: from the end of the file back to its start.
    Backward,
    /// Every `stride` records; when the next one would pass the end, the walk starts again
    /// one record further from the start (iozone's stride read, `-j`).
    Stride { stride: u64 },
    /// Record 0 every time (a hot spot, iozone's record rewrite).
    SameRecord,
    /// Each record once, in the order of a Fisher-Yates shuffle seeded with `seed`.
    Shuffled { seed: u64 },
}

/// The record numbers a pass of `records` operations over a file of `file_records` records
/// visits, in order.
pub fn records(order: Order, records: u64, file_records: u64) -> Vec<u64> {
    let n = file_records.max(1);
    match order {
        Order::Forward => (0..records).map(|i| i % n).collect(),
        Order::Backward => (0..records).map(|i| n - 1 - (i % n)).collect(),
        Order::SameRecord => vec![0; records as usize],
        Order::Stride { stride } => stride_walk(records, n, stride.max(1)),
        Order::Shuffled { seed } => {
            let mut v: Vec<u64> = (0..n).collect();
            let mut r = crate::rng::Rng::new(seed);
            for i in (1..n as usize).rev() {
                let j = (r.next_u64() % (i as u64 + 1)) as usize;
                v.swap(i, j);
            }
            v.into_iter().cycle().take(records as usize).collect()
        }
    }
}

/// iozone's stride walk: after reading record `p`, the next is `p + stride`, unless that (or the
/// record after it) would reach the last record; then the walk wraps to record `wraps % n`.
fn stride_walk(records: u64, n: u64, stride: u64) -> Vec<u64> {
    let mut out = Vec::with_capacity(records as usize);
    let mut pos = 0u64;
    let mut wraps = 0u64;
    for _ in 0..records {
        out.push(pos);
        let after = pos + 1;
        if after + stride >= n.saturating_sub(1) {
            wraps += 1;
            pos = if n <= stride { 0 } else { wraps % n };
        } else {
            pos = after + stride - 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forward_backward_same() {
        assert_eq!(records(Order::Forward, 4, 4), [0, 1, 2, 3]);
        assert_eq!(records(Order::Backward, 4, 4), [3, 2, 1, 0]);
        assert_eq!(records(Order::SameRecord, 3, 4), [0, 0, 0]);
    }

    #[test]
    fn shuffled_visits_every_record_once_and_repeats_with_its_seed() {
        let a = records(Order::Shuffled { seed: 7 }, 64, 64);
        let mut s = a.clone();
        s.sort_unstable();
        assert_eq!(s, (0..64).collect::<Vec<_>>());
        assert_ne!(a, (0..64).collect::<Vec<_>>());
        assert_eq!(a, records(Order::Shuffled { seed: 7 }, 64, 64));
        assert_ne!(a, records(Order::Shuffled { seed: 8 }, 64, 64));
    }

    #[test]
    fn stride_walks_then_wraps_one_further() {
        // 20 records, stride 5: 0 5 10 15, then 16 + 5 reaches the last record: wrap to 1.
        let v = records(Order::Stride { stride: 5 }, 8, 20);
        assert_eq!(v, [0, 5, 10, 15, 1, 6, 11, 16]);
        // A stride longer than the file reads records 0, 1, 2 in turn after each wrap.
        assert_eq!(records(Order::Stride { stride: 17 }, 3, 8), [0, 0, 0]);
        let v = records(Order::Stride { stride: 17 }, 40, 64);
        assert!(v.iter().all(|&r| r < 64), "{v:?}");
    }
}
