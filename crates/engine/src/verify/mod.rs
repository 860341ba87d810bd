//! Data verification: self-describing blocks that can be written, read back and checked.
//!
//! Every verify block (one `verify_interval`, by default the whole I/O) starts with a
//! little-endian header that says where the block belongs, who wrote it and which write of that
//! block it is, followed by data that is either a pseudo-random stream regenerated from the header
//! or the `verify_pattern` bytes. A checksum of the data sits in the header and a CRC32C of the
//! header protects the header itself.
//!
//! | offset | size | field |
//! |---:|---:|---|
//! | 0 | 4 | magic `0x4b4d4f49` (`"IOMK"` as bytes) |
//! | 4 | 2 | header format version (1) |
//! | 6 | 2 | kind code (1 crc32c, 2 xxhash, 3 md5, 4 sha256, 5 pattern, 6 meta) |
//! | 8 | 4 | block length in bytes (header included) |
//! | 12 | 4 | job id |
//! | 16 | 8 | offset of the block in the file |
//! | 24 | 8 | seed |
//! | 32 | 8 | generation (per-block write counter, 1 = first write) |
//! | 40 | 4 | CRC32C of the header: bytes `[0, 40)` then `[44, header_len)` |
//! | 44 | 4 | reserved, 0 |
//! | 48 | 0–32 | data checksum (4, 8, 16 or 32 bytes), zero padded to a multiple of 8 |
//!
//! Header lengths: crc32c 56, xxhash 56, md5 64, sha256 80, pattern 48, meta 48, null 0.
//!
//! Checking a block never trusts what the reader thinks was written: the header says what the
//! block *is*, and the caller's `Expect` says what it *should be*, so a failure is classified
//! (never written, corrupted header, misdirected write, foreign job, lost write, bit flip or torn
//! write, length) instead of reported as a bare mismatch. Because every block carries its own
//! absolute offset and generation, the result does not depend on the order in which I/Os were
//! issued or completed, on queue depth, or on whether a random map is kept.
//!
//! All fill and check functions work on caller buffers and do not allocate.

// A failure carries the full expectation and the decoded header for diagnosis; it is built only
// when a block is bad, so its size does not matter on the good path.
#![allow(clippy::result_large_err)]

mod data;
mod failure;
mod header;
mod kind;
mod progress;
#[cfg(test)]
mod tests;
mod written;

use std::io;
use std::path::{Path, PathBuf};

use data::{
    data_checksum, fill_pattern, fill_random, first_pattern_mismatch, first_random_mismatch,
    stream_key,
};
pub(crate) use failure::{FailureKind, VerifyFailure};
pub(crate) use header::{describe, BlockId, Expect, HeaderView};
use header::{
    header_crc, OFF_CSUM, OFF_GEN, OFF_HCRC, OFF_JOB, OFF_KIND, OFF_LEN, OFF_MAGIC, OFF_OFFSET,
    OFF_RESERVED, OFF_SEED, OFF_VERSION,
};
pub use kind::{header_len, VerifyKind};
pub(crate) use progress::RecentWrites;
pub use progress::WriteProgress;
pub(crate) use written::WrittenMap;

/// The header's magic number, stored little-endian (bytes `49 4f 4d 4b`, "IOMK").
pub(crate) const MAGIC: u32 = 0x4b4d_4f49;
/// The header format version written and accepted.
pub(crate) const HEADER_VERSION: u16 = 1;
/// Length of the header without the data checksum.
pub(crate) const BASE_HEADER_LEN: usize = 48;
/// Largest data checksum (sha256).
pub(crate) const MAX_CHECKSUM_LEN: usize = 32;

fn nonempty(pattern: Option<&[u8]>) -> Option<&[u8]> {
    pattern.filter(|p| !p.is_empty())
}

/// Fills `buf[..id.len]` with one verify block: header, data and checksums. The data is
/// `pattern` repeated (phase 0 at the block start) when a non-empty pattern is given, else the
/// pseudo-random stream of `(id.job, id.seed, id.offset, id.generation)`. `Null` leaves `buf`
/// untouched.
///
/// Panics if `id.len < header_len(kind)` or `buf` is shorter than `id.len`.
pub(crate) fn fill_block(buf: &mut [u8], kind: VerifyKind, id: &BlockId, pattern: Option<&[u8]>) {
    if kind == VerifyKind::Null {
        return;
    }
    let len = id.len as usize;
    let hlen = header_len(kind);
    assert!(
        len >= hlen && len <= buf.len(),
        "verify block of {len} bytes (header {hlen}) in a buffer of {}",
        buf.len()
    );
    let blk = &mut buf[..len];
    match nonempty(pattern) {
        Some(p) => fill_pattern(blk, p),
        None => fill_random(blk, stream_key(id.job, id.seed, id.offset, id.generation)),
    }
    blk[OFF_MAGIC..OFF_MAGIC + 4].copy_from_slice(&MAGIC.to_le_bytes());
    blk[OFF_VERSION..OFF_VERSION + 2].copy_from_slice(&HEADER_VERSION.to_le_bytes());
    blk[OFF_KIND..OFF_KIND + 2].copy_from_slice(&kind.code().to_le_bytes());
    blk[OFF_LEN..OFF_LEN + 4].copy_from_slice(&id.len.to_le_bytes());
    blk[OFF_JOB..OFF_JOB + 4].copy_from_slice(&id.job.to_le_bytes());
    blk[OFF_OFFSET..OFF_OFFSET + 8].copy_from_slice(&id.offset.to_le_bytes());
    blk[OFF_SEED..OFF_SEED + 8].copy_from_slice(&id.seed.to_le_bytes());
    blk[OFF_GEN..OFF_GEN + 8].copy_from_slice(&id.generation.to_le_bytes());
    blk[OFF_RESERVED..OFF_CSUM].fill(0);
    blk[OFF_CSUM..hlen].fill(0);
    let (hdr, data) = blk.split_at_mut(hlen);
    let mut sum = [0u8; MAX_CHECKSUM_LEN];
    let n = data_checksum(kind, data, &mut sum);
    hdr[OFF_CSUM..OFF_CSUM + n].copy_from_slice(&sum[..n]);
    let crc = header_crc(hdr);
    hdr[OFF_HCRC..OFF_HCRC + 4].copy_from_slice(&crc.to_le_bytes());
}

/// Checks one verify block read back into `buf[..expected.len]` against what it should be. The
/// checks run in this order and the first one that fails is reported: magic and version,
/// header CRC, verify kind, length, offset, job and seed, generation, data. `pattern` must be
/// the one the block was filled with. `Null` always passes.
pub(crate) fn check_block(
    buf: &[u8],
    kind: VerifyKind,
    expected: &Expect,
    pattern: Option<&[u8]>,
) -> Result<(), VerifyFailure> {
    if kind == VerifyKind::Null {
        return Ok(());
    }
    let fail = |fk: FailureKind, found: Option<HeaderView>, bad: Option<usize>| {
        Err(VerifyFailure {
            kind: fk,
            verify_kind: kind,
            expected: *expected,
            found,
            first_bad_byte: bad,
        })
    };
    let len = expected.len as usize;
    let hlen = header_len(kind);
    if len < hlen || buf.len() < len {
        return fail(FailureKind::Length, describe(buf), None);
    }
    let blk = &buf[..len];
    let Some(h) = describe(blk) else {
        return fail(FailureKind::Length, None, None);
    };
    if h.magic != MAGIC {
        return fail(FailureKind::BadMagic, Some(h), None);
    }
    let found_hlen = match h.verify_kind() {
        Some(k) => header_len(k),
        None => return fail(FailureKind::HeaderChecksum, Some(h), None),
    };
    if found_hlen > len || header_crc(&blk[..found_hlen]) != h.header_crc {
        return fail(FailureKind::HeaderChecksum, Some(h), None);
    }
    if h.version != HEADER_VERSION {
        return fail(FailureKind::BadMagic, Some(h), None);
    }
    // `meta` checks any block's header, whichever check it was written with (as fio's
    // header-only check reads blocks of every method).
    if h.kind != kind.code() && kind != VerifyKind::Meta {
        return fail(FailureKind::KindMismatch, Some(h), None);
    }
    let hlen = if kind == VerifyKind::Meta {
        found_hlen
    } else {
        hlen
    };
    if h.len != expected.len {
        return fail(FailureKind::Length, Some(h), None);
    }
    if h.offset != expected.offset {
        return fail(FailureKind::Misdirected, Some(h), None);
    }
    if expected.job.is_some_and(|j| j != h.job) || expected.seed.is_some_and(|s| s != h.seed) {
        return fail(FailureKind::WrongJob, Some(h), None);
    }
    if let Some(x) = expected.exact_generation {
        if h.generation < x {
            return fail(FailureKind::Stale, Some(h), None);
        }
        if h.generation > x {
            return fail(FailureKind::FutureGeneration, Some(h), None);
        }
    }
    if expected.min_generation.is_some_and(|m| h.generation < m) {
        return fail(FailureKind::Stale, Some(h), None);
    }
    let pat = nonempty(pattern);
    let key = stream_key(h.job, h.seed, h.offset, h.generation);
    let locate = || match pat {
        Some(p) => first_pattern_mismatch(blk, p, hlen),
        None => first_random_mismatch(blk, key, hlen),
    };
    if kind == VerifyKind::Meta && pat.is_none() {
        return Ok(());
    }
    if kind == VerifyKind::Pattern || kind == VerifyKind::Meta {
        return match locate() {
            None => Ok(()),
            Some(i) => fail(FailureKind::DataChecksum, Some(h), Some(i)),
        };
    }
    let mut sum = [0u8; MAX_CHECKSUM_LEN];
    let n = data_checksum(kind, &blk[hlen..], &mut sum);
    if blk[OFF_CSUM..OFF_CSUM + n] == sum[..n] {
        Ok(())
    } else {
        fail(FailureKind::DataChecksum, Some(h), locate())
    }
}

/// Splits an I/O of `total` bytes into verify blocks of `interval` bytes: `(start, len)` pairs.
/// Every block starts at a multiple of `interval`; the last block takes any remainder (so no
/// block is shorter than `interval`). `interval == 0` or `interval >= total` gives one block.
#[cfg(test)]
pub(crate) fn blocks(total: usize, interval: usize) -> impl Iterator<Item = (usize, usize)> {
    let interval = if interval == 0 || interval > total {
        total
    } else {
        interval
    };
    let n = if total == 0 { 0 } else { total / interval };
    (0..n).map(move |i| {
        let start = i * interval;
        let len = if i + 1 == n { total - start } else { interval };
        (start, len)
    })
}

/// Fills a whole I/O buffer with verify blocks of `interval` bytes (see [`blocks`]). `first`
/// gives the file offset of `buf[0]`, the job, seed and generation; its `len` is ignored.
#[cfg(test)]
pub(crate) fn fill_blocks(
    buf: &mut [u8],
    kind: VerifyKind,
    interval: usize,
    first: &BlockId,
    pattern: Option<&[u8]>,
) {
    for (start, len) in blocks(buf.len(), interval) {
        let id = BlockId {
            offset: first.offset + start as u64,
            len: len as u32,
            ..*first
        };
        fill_block(&mut buf[start..start + len], kind, &id, pattern);
    }
}

/// Checks a whole I/O buffer read from file offset `offset`, block by block (see [`blocks`]);
/// `expect(block_offset, block_len)` gives each block's expectation. Returns the first failure.
#[cfg(test)]
pub(crate) fn check_blocks(
    buf: &[u8],
    kind: VerifyKind,
    interval: usize,
    offset: u64,
    pattern: Option<&[u8]>,
    mut expect: impl FnMut(u64, u32) -> Expect,
) -> Result<(), VerifyFailure> {
    if kind == VerifyKind::Null {
        return Ok(());
    }
    for (start, len) in blocks(buf.len(), interval) {
        let e = expect(offset + start as u64, len as u32);
        check_block(&buf[start..start + len], kind, &e, pattern)?;
    }
    Ok(())
}

/// Writes the expected and the received contents of a failed block as
/// `<dir>/<file_stem>.<offset>.expected` and `<dir>/<file_stem>.<offset>.received`
/// (`verify_dump`), creating `dir` if needed. Returns both paths.
pub(crate) fn dump_blocks(
    dir: &Path,
    file_stem: &str,
    offset: u64,
    expected: &[u8],
    actual: &[u8],
) -> io::Result<(PathBuf, PathBuf)> {
    std::fs::create_dir_all(dir)?;
    let exp = dir.join(format!("{file_stem}.{offset}.expected"));
    let rec = dir.join(format!("{file_stem}.{offset}.received"));
    std::fs::write(&exp, expected)?;
    std::fs::write(&rec, actual)?;
    Ok((exp, rec))
}
