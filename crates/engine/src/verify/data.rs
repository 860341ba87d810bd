//! Block data and its checksums: the pseudo-random stream, the repeated pattern, and the data
//! checksum of each verify kind.

use md5::{Digest, Md5};
use sha2::Sha256;

use super::{VerifyKind, MAX_CHECKSUM_LEN};
use crate::rng::mix64;

const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// Computes the data checksum of `data` into `out`, returning its length.
#[inline]
pub(super) fn data_checksum(
    kind: VerifyKind,
    data: &[u8],
    out: &mut [u8; MAX_CHECKSUM_LEN],
) -> usize {
    match kind {
        VerifyKind::Crc32c => out[..4].copy_from_slice(&crc32c::crc32c(data).to_le_bytes()),
        VerifyKind::Xxhash => {
            out[..8].copy_from_slice(&xxhash_rust::xxh3::xxh3_64(data).to_le_bytes())
        }
        VerifyKind::Md5 => out[..16].copy_from_slice(&Md5::digest(data)),
        VerifyKind::Sha256 => out[..32].copy_from_slice(&Sha256::digest(data)),
        VerifyKind::Pattern | VerifyKind::Null | VerifyKind::Meta => {}
    }
    kind.checksum_len()
}

/// Key of the pseudo-random data stream of one write of one block.
#[inline]
pub(super) fn stream_key(job: u32, seed: u64, offset: u64, generation: u64) -> u64 {
    mix64(seed ^ mix64(offset ^ mix64(generation.wrapping_add(GOLDEN) ^ ((job as u64) << 32))))
}

/// Four interleaved xorshift64 lanes: shifts and xors only, so the fill loop vectorizes.
struct Stream {
    s: [u64; 4],
}

impl Stream {
    #[inline]
    fn new(key: u64) -> Stream {
        let mut s = [0u64; 4];
        for (k, w) in s.iter_mut().enumerate() {
            *w = mix64(key.wrapping_add((k as u64 + 1).wrapping_mul(GOLDEN))) | 1;
        }
        Stream { s }
    }

    #[inline(always)]
    fn next32(&mut self) -> [u8; 32] {
        for x in self.s.iter_mut() {
            *x ^= *x << 13;
            *x ^= *x >> 7;
            *x ^= *x << 17;
        }
        let mut out = [0u8; 32];
        for (c, w) in out.chunks_exact_mut(8).zip(self.s.iter()) {
            c.copy_from_slice(&w.to_le_bytes());
        }
        out
    }
}

/// Writes the stream of `key` over all of `blk` (byte `i` of the block is byte `i` of the stream).
pub(super) fn fill_random(blk: &mut [u8], key: u64) {
    let mut st = Stream::new(key);
    let mut chunks = blk.chunks_exact_mut(32);
    for c in &mut chunks {
        c.copy_from_slice(&st.next32());
    }
    let rest = chunks.into_remainder();
    if !rest.is_empty() {
        let n = rest.len();
        rest.copy_from_slice(&st.next32()[..n]);
    }
}

/// First index `>= from` where `blk` differs from the stream of `key`.
pub(super) fn first_random_mismatch(blk: &[u8], key: u64, from: usize) -> Option<usize> {
    let mut st = Stream::new(key);
    for (ci, c) in blk.chunks(32).enumerate() {
        let want = st.next32();
        let base = ci * 32;
        if base + c.len() <= from {
            continue;
        }
        let lo = from.saturating_sub(base);
        if c[lo..] != want[lo..c.len()] {
            let j = (lo..c.len()).find(|&j| c[j] != want[j]).unwrap();
            return Some(base + j);
        }
    }
    None
}

/// Writes `pattern` repeated over all of `blk` (byte `i` is `pattern[i % len]`).
pub(super) fn fill_pattern(blk: &mut [u8], pattern: &[u8]) {
    let n = pattern.len().min(blk.len());
    blk[..n].copy_from_slice(&pattern[..n]);
    let mut have = n;
    while have < blk.len() {
        let take = have.min(blk.len() - have);
        blk.copy_within(..take, have);
        have += take;
    }
}

/// First index `>= from` where `blk` differs from `pattern` repeated from the block start.
pub(super) fn first_pattern_mismatch(blk: &[u8], pattern: &[u8], from: usize) -> Option<usize> {
    // Compare against a run of whole pattern copies so a short pattern still compares in
    // large slices.
    let mut tmp = [0u8; 1024];
    let rep: &[u8] = if pattern.len() <= tmp.len() / 2 {
        let copies = tmp.len() / pattern.len();
        let n = copies * pattern.len();
        fill_pattern(&mut tmp[..n], pattern);
        &tmp[..n]
    } else {
        pattern
    };
    let mut i = from;
    while i < blk.len() {
        let off = i % rep.len();
        let n = (rep.len() - off).min(blk.len() - i);
        if blk[i..i + n] != rep[off..off + n] {
            let j = (0..n).find(|&j| blk[i + j] != rep[off + j]).unwrap();
            return Some(i + j);
        }
        i += n;
    }
    None
}
