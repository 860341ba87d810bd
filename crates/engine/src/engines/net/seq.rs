//! The sequence stamp fio puts in every UDP datagram of a job that does not verify its data:
//! the last 24 bytes of the block hold a magic word, the datagram's number (from 0) and the
//! block size, little-endian. The receiver counts the numbers it never saw as dropped I/Os,
//! as fio does, so either side of a UDP link can be fio.

/// The stamp's magic word (fio's "ceUnquse").
const SEQ_MAGIC: u64 = 0x6573_7571_6e55_6563;
/// The stamp's length: magic, number, block size.
pub(super) const STAMP_LEN: usize = 24;

/// The sending side's next number.
#[derive(Default)]
pub(super) struct Stamper {
    next: u64,
}

impl Stamper {
    /// Stamp the block (one datagram) with the next number; a block shorter than the stamp
    /// goes unstamped.
    pub(super) fn stamp(&mut self, block: &mut [u8]) {
        let len = block.len();
        if len < STAMP_LEN {
            return;
        }
        let s = &mut block[len - STAMP_LEN..];
        s[..8].copy_from_slice(&SEQ_MAGIC.to_le_bytes());
        s[8..16].copy_from_slice(&self.next.to_le_bytes());
        s[16..].copy_from_slice(&(len as u64).to_le_bytes());
        self.next += 1;
    }
}

/// The receiving side's count of missing datagrams.
#[derive(Default)]
pub(super) struct Checker {
    expected: u64,
    /// The sender's block size differs from the receiver's: its stamps cannot be found, and
    /// the count stops (as in fio).
    off: bool,
    /// Datagrams skipped over: sent, never received (fio's dropped I/Os).
    pub(super) lost: u64,
}

impl Checker {
    /// Look at the stamp at the end of the receiving block `block` (the whole buffer of
    /// the read, where fio looks, whatever the datagram's length).
    pub(super) fn check(&mut self, block: &[u8]) {
        let len = block.len();
        if len < STAMP_LEN || self.off {
            return;
        }
        let word = |i: usize| {
            let at = len - STAMP_LEN + 8 * i;
            u64::from_le_bytes(block[at..at + 8].try_into().unwrap())
        };
        if word(0) != SEQ_MAGIC {
            return;
        }
        if word(2) != len as u64 {
            self.off = true;
            return;
        }
        let seq = word(1);
        // A datagram that comes after a later one was counted lost when that one came
        // (fio subtracts without a sign here, a huge count; it is not counted again).
        self.lost += seq.saturating_sub(self.expected);
        self.expected = seq + 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stamps_are_fios_and_gaps_are_counted() {
        let mut s = Stamper::default();
        let mut blocks = vec![vec![7u8; 64]; 5];
        for b in &mut blocks {
            s.stamp(b);
        }
        // fio's layout: magic, number, block size at the end, little-endian.
        assert_eq!(&blocks[2][40..48], b"ceUnquse");
        assert_eq!(blocks[2][48..56], 2u64.to_le_bytes());
        assert_eq!(blocks[2][56..], 64u64.to_le_bytes());
        assert!(blocks[2][..40].iter().all(|&b| b == 7));
        let mut c = Checker::default();
        // 0, 1, then 4 (2 and 3 lost), then 3 arriving late (counted once, when 4 came).
        for i in [0, 1, 4, 3] {
            c.check(&blocks[i]);
        }
        assert_eq!(c.lost, 2);
        // A short block is not stamped; unstamped data is not counted.
        let mut short = vec![1u8; 16];
        s.stamp(&mut short);
        assert_eq!(short, vec![1u8; 16]);
        let mut c = Checker::default();
        c.check(&[0u8; 64]);
        assert_eq!(c.lost, 0);
        // Another block size than the receiver's: the count stops.
        let mut big = vec![0u8; 128];
        Stamper { next: 9 }.stamp(&mut big);
        let mut c = Checker::default();
        c.check(&big[64..]);
        c.check(&blocks[4]);
        assert_eq!((c.lost, c.off), (0, true));
    }
}
