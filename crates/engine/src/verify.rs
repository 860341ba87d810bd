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
//! | 6 | 2 | kind code (1 crc32c, 2 xxhash, 3 md5, 4 sha256, 5 pattern) |
//! | 8 | 4 | block length in bytes (header included) |
//! | 12 | 4 | job id |
//! | 16 | 8 | offset of the block in the file |
//! | 24 | 8 | seed |
//! | 32 | 8 | generation (per-block write counter, 1 = first write) |
//! | 40 | 4 | CRC32C of the header: bytes `[0, 40)` then `[44, header_len)` |
//! | 44 | 4 | reserved, 0 |
//! | 48 | 0–32 | data checksum (4, 8, 16 or 32 bytes), zero padded to a multiple of 8 |
//!
//! Header lengths: crc32c 56, xxhash 56, md5 64, sha256 80, pattern 48, null 0.
//!
//! Checking a block never trusts what the reader thinks was written: the header says what the
//! block *is*, and the caller's [`Expect`] says what it *should be*, so a failure is classified
//! (never written, corrupted header, misdirected write, foreign job, lost write, bit flip or torn
//! write, length) instead of reported as a bare mismatch. Because every block carries its own
//! absolute offset and generation, the result does not depend on the order in which I/Os were
//! issued or completed, on queue depth, or on whether a random map is kept.
//!
//! All fill and check functions work on caller buffers and do not allocate.

// A failure carries the full expectation and the decoded header for diagnosis; it is built only
// when a block is bad, so its size does not matter on the good path.
#![allow(clippy::result_large_err)]

use serde::{Deserialize, Serialize};
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

use md5::{Digest, Md5};
use sha2::Sha256;

use crate::rng::mix64;

/// The header's magic number, stored little-endian (bytes `49 4f 4d 4b`, "IOMK").
pub const MAGIC: u32 = 0x4b4d_4f49;
/// The header format version written and accepted.
pub const HEADER_VERSION: u16 = 1;
/// Length of the header without the data checksum.
pub const BASE_HEADER_LEN: usize = 48;
/// Largest data checksum (sha256).
pub const MAX_CHECKSUM_LEN: usize = 32;

const OFF_MAGIC: usize = 0;
const OFF_VERSION: usize = 4;
const OFF_KIND: usize = 6;
const OFF_LEN: usize = 8;
const OFF_JOB: usize = 12;
const OFF_OFFSET: usize = 16;
const OFF_SEED: usize = 24;
const OFF_GEN: usize = 32;
const OFF_HCRC: usize = 40;
const OFF_RESERVED: usize = 44;
const OFF_CSUM: usize = 48;

const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// Which check protects a block's data.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum VerifyKind {
    /// CRC32C (hardware accelerated where the CPU has it), 4 bytes.
    #[default]
    Crc32c,
    /// XXH3-64, 8 bytes.
    Xxhash,
    /// MD5, 16 bytes.
    Md5,
    /// SHA-256, 32 bytes.
    Sha256,
    /// No stored checksum: the data is compared byte for byte with `verify_pattern` (or with the
    /// regenerated pseudo-random stream when no pattern is given).
    Pattern,
    /// Nothing is written or checked.
    Null,
}

impl VerifyKind {
    /// Every kind, in code order.
    pub const ALL: [VerifyKind; 6] = [
        VerifyKind::Crc32c,
        VerifyKind::Xxhash,
        VerifyKind::Md5,
        VerifyKind::Sha256,
        VerifyKind::Pattern,
        VerifyKind::Null,
    ];

    /// The kind's name (as a result records it).
    pub fn name(self) -> &'static str {
        match self {
            VerifyKind::Crc32c => "crc32c",
            VerifyKind::Xxhash => "xxhash",
            VerifyKind::Md5 => "md5",
            VerifyKind::Sha256 => "sha256",
            VerifyKind::Pattern => "pattern",
            VerifyKind::Null => "null",
        }
    }

    /// The code stored in the header's kind field (0 for `Null`, which writes no header).
    pub fn code(self) -> u16 {
        match self {
            VerifyKind::Null => 0,
            VerifyKind::Crc32c => 1,
            VerifyKind::Xxhash => 2,
            VerifyKind::Md5 => 3,
            VerifyKind::Sha256 => 4,
            VerifyKind::Pattern => 5,
        }
    }

    /// The kind for a header kind code (`Null` has no header, so 0 gives `None`).
    pub fn from_code(code: u16) -> Option<VerifyKind> {
        Some(match code {
            1 => VerifyKind::Crc32c,
            2 => VerifyKind::Xxhash,
            3 => VerifyKind::Md5,
            4 => VerifyKind::Sha256,
            5 => VerifyKind::Pattern,
            _ => return None,
        })
    }

    /// Length of the stored data checksum.
    pub fn checksum_len(self) -> usize {
        match self {
            VerifyKind::Crc32c => 4,
            VerifyKind::Xxhash => 8,
            VerifyKind::Md5 => 16,
            VerifyKind::Sha256 => 32,
            VerifyKind::Pattern | VerifyKind::Null => 0,
        }
    }
}

impl fmt::Display for VerifyKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Header length for `kind`: the smallest allowed verify block (0 for `Null`).
pub fn header_len(kind: VerifyKind) -> usize {
    match kind {
        VerifyKind::Null => 0,
        k => BASE_HEADER_LEN + k.checksum_len().div_ceil(8) * 8,
    }
}

/// What a block is written as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlockId {
    /// Offset of the block in the file (bytes).
    pub offset: u64,
    /// Block length in bytes, header included.
    pub len: u32,
    /// Job id (for example a hash of the job name and thread number).
    pub job: u32,
    /// The job's verify seed.
    pub seed: u64,
    /// Which write of this block this is (1 for the first; higher for later writes).
    pub generation: u64,
}

/// What a block read back should be. `job` and `seed` set to `None` accept any writer (a job
/// that only reads data written by another run); the generation bounds are both optional.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Expect {
    /// Offset the block was read from.
    pub offset: u64,
    /// Block length.
    pub len: u32,
    pub job: Option<u32>,
    pub seed: Option<u64>,
    /// The block must have been written by this generation or a later one. Used when several
    /// writes to the block were in flight together (any of them may have landed last).
    pub min_generation: Option<u64>,
    /// The block must hold exactly this generation: the normal case, the last one written.
    pub exact_generation: Option<u64>,
}

impl Expect {
    /// Expect exactly the block `id` describes.
    pub fn exact(id: &BlockId) -> Expect {
        Expect {
            offset: id.offset,
            len: id.len,
            job: Some(id.job),
            seed: Some(id.seed),
            min_generation: None,
            exact_generation: Some(id.generation),
        }
    }

    /// Expect any valid block of this offset and length, whoever wrote it.
    pub fn any(offset: u64, len: u32) -> Expect {
        Expect {
            offset,
            len,
            job: None,
            seed: None,
            min_generation: None,
            exact_generation: None,
        }
    }
}

/// A block header decoded as stored, without any check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HeaderView {
    pub magic: u32,
    pub version: u16,
    /// Raw kind code (see [`VerifyKind::from_code`]).
    pub kind: u16,
    pub len: u32,
    pub job: u32,
    pub offset: u64,
    pub seed: u64,
    pub generation: u64,
    pub header_crc: u32,
}

impl HeaderView {
    /// The kind the header names, if the code is known.
    pub fn verify_kind(&self) -> Option<VerifyKind> {
        VerifyKind::from_code(self.kind)
    }
}

/// Which check a block failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FailureKind {
    /// No header of ours (or an unknown header version): never written, zeroed, or overwritten by
    /// something else.
    BadMagic,
    /// The header is corrupted (its CRC does not match, or its kind code is unknown).
    HeaderChecksum,
    /// A valid header of another verify kind than the one being checked.
    KindMismatch,
    /// A valid header for a block of another length, or a buffer too short for the block.
    Length,
    /// A valid block that belongs at another offset: a write that went to the wrong place.
    Misdirected,
    /// A valid block written by another job, or by the same job with another seed (another run).
    WrongJob,
    /// A valid block older than expected: a lost write.
    Stale,
    /// A valid block newer than the generation expected (the caller's bookkeeping missed a write).
    FutureGeneration,
    /// The data does not match its checksum or pattern: bit flip, torn write, partial overwrite.
    DataChecksum,
}

impl FailureKind {
    /// A short name for reports.
    pub fn name(self) -> &'static str {
        match self {
            FailureKind::BadMagic => "bad magic",
            FailureKind::HeaderChecksum => "header checksum",
            FailureKind::KindMismatch => "verify kind mismatch",
            FailureKind::Length => "length",
            FailureKind::Misdirected => "misdirected",
            FailureKind::WrongJob => "wrong job",
            FailureKind::Stale => "stale",
            FailureKind::FutureGeneration => "future generation",
            FailureKind::DataChecksum => "data checksum",
        }
    }
}

impl fmt::Display for FailureKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A failed block check: what failed, what was expected, what the header says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VerifyFailure {
    pub kind: FailureKind,
    /// The verify kind the block was checked as.
    pub verify_kind: VerifyKind,
    pub expected: Expect,
    /// The stored header, decoded without checks (`None` when the buffer is shorter than
    /// [`BASE_HEADER_LEN`]).
    pub found: Option<HeaderView>,
    /// For `DataChecksum`: index in the block of the first byte that differs from what the
    /// header's write would have produced (`None` when it cannot be located).
    pub first_bad_byte: Option<usize>,
}

impl VerifyFailure {
    /// The block that should have been read here, for regenerating it with [`fill_block`] (for
    /// `verify_dump`): the expected offset and length, with job, seed and generation taken from
    /// the expectation where it fixes them and from the stored header otherwise.
    pub fn expected_id(&self) -> BlockId {
        let f = self.found.as_ref();
        let gen = self
            .expected
            .exact_generation
            .or_else(|| f.map(|h| h.generation))
            .or(self.expected.min_generation)
            .unwrap_or(1);
        BlockId {
            offset: self.expected.offset,
            len: self.expected.len,
            job: self.expected.job.or(f.map(|h| h.job)).unwrap_or(0),
            seed: self.expected.seed.or(f.map(|h| h.seed)).unwrap_or(0),
            generation: gen,
        }
    }
}

impl fmt::Display for VerifyFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let e = &self.expected;
        write!(
            f,
            "verify ({}) failed at offset {} (len {}): {}: ",
            self.verify_kind, e.offset, e.len, self.kind
        )?;
        let Some(h) = self.found.as_ref() else {
            return write!(f, "buffer too short to hold a block header");
        };
        match self.kind {
            FailureKind::BadMagic if h.magic == MAGIC => write!(
                f,
                "unsupported header version {} (expected {})",
                h.version, HEADER_VERSION
            ),
            FailureKind::BadMagic => write!(
                f,
                "found magic {:#010x}, expected {:#010x}: block never written, zeroed or \
                 overwritten by something else",
                h.magic, MAGIC
            ),
            FailureKind::HeaderChecksum => write!(
                f,
                "block header corrupted (stored header crc {:#010x}, kind code {}; header claims \
                 offset {} len {} gen {})",
                h.header_crc, h.kind, h.offset, h.len, h.generation
            ),
            FailureKind::KindMismatch => match h.verify_kind() {
                Some(k) => write!(f, "block was written with the {k} check"),
                None => write!(f, "block has unknown kind code {}", h.kind),
            },
            FailureKind::Length => {
                if (e.len as usize) < BASE_HEADER_LEN || h.len == e.len {
                    write!(
                        f,
                        "buffer or block length too short for the header (expected len {})",
                        e.len
                    )
                } else {
                    write!(f, "block header says len {}, expected {}", h.len, e.len)
                }
            }
            FailureKind::Misdirected => write!(
                f,
                "found a valid block written for offset {} (job {:#010x}, gen {}): a write went \
                 to the wrong place",
                h.offset, h.job, h.generation
            ),
            FailureKind::WrongJob => {
                write!(
                    f,
                    "block written by job {:#010x} seed {:#x}, expected",
                    h.job, h.seed
                )?;
                if let Some(j) = e.job {
                    write!(f, " job {j:#010x}")?;
                }
                if let Some(s) = e.seed {
                    write!(f, " seed {s:#x}")?;
                }
                Ok(())
            }
            FailureKind::Stale | FailureKind::FutureGeneration => {
                write!(f, "found generation {}, expected ", h.generation)?;
                match (e.exact_generation, e.min_generation) {
                    (Some(x), _) => write!(f, "{x}")?,
                    (None, Some(m)) => write!(f, ">= {m}")?,
                    (None, None) => write!(f, "any")?,
                }
                if self.kind == FailureKind::Stale {
                    write!(f, " (lost write)")
                } else {
                    write!(f, " (write not accounted for)")
                }
            }
            FailureKind::DataChecksum => match self.first_bad_byte {
                Some(i) => write!(
                    f,
                    "data corrupted from byte {} of the block (file offset {}), header gen {}",
                    i,
                    e.offset + i as u64,
                    h.generation
                ),
                None => write!(
                    f,
                    "data does not match its checksum, header gen {}",
                    h.generation
                ),
            },
        }
    }
}

impl std::error::Error for VerifyFailure {}

#[inline]
fn rd_u16(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

#[inline]
fn rd_u32(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

#[inline]
fn rd_u64(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().unwrap())
}

/// Decodes the header at the start of `buf` without checking anything (`None` if `buf` is
/// shorter than [`BASE_HEADER_LEN`]).
pub fn describe(buf: &[u8]) -> Option<HeaderView> {
    if buf.len() < BASE_HEADER_LEN {
        return None;
    }
    Some(HeaderView {
        magic: rd_u32(buf, OFF_MAGIC),
        version: rd_u16(buf, OFF_VERSION),
        kind: rd_u16(buf, OFF_KIND),
        len: rd_u32(buf, OFF_LEN),
        job: rd_u32(buf, OFF_JOB),
        offset: rd_u64(buf, OFF_OFFSET),
        seed: rd_u64(buf, OFF_SEED),
        generation: rd_u64(buf, OFF_GEN),
        header_crc: rd_u32(buf, OFF_HCRC),
    })
}

/// CRC32C of a header of `hdr.len()` bytes, skipping the CRC field itself.
#[inline]
fn header_crc(hdr: &[u8]) -> u32 {
    crc32c::crc32c_append(crc32c::crc32c(&hdr[..OFF_HCRC]), &hdr[OFF_RESERVED..])
}

/// Computes the data checksum of `data` into `out`, returning its length.
#[inline]
fn data_checksum(kind: VerifyKind, data: &[u8], out: &mut [u8; MAX_CHECKSUM_LEN]) -> usize {
    match kind {
        VerifyKind::Crc32c => out[..4].copy_from_slice(&crc32c::crc32c(data).to_le_bytes()),
        VerifyKind::Xxhash => {
            out[..8].copy_from_slice(&xxhash_rust::xxh3::xxh3_64(data).to_le_bytes())
        }
        VerifyKind::Md5 => out[..16].copy_from_slice(&Md5::digest(data)),
        VerifyKind::Sha256 => out[..32].copy_from_slice(&Sha256::digest(data)),
        VerifyKind::Pattern | VerifyKind::Null => {}
    }
    kind.checksum_len()
}

/// Key of the pseudo-random data stream of one write of one block.
#[inline]
fn stream_key(job: u32, seed: u64, offset: u64, generation: u64) -> u64 {
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
fn fill_random(blk: &mut [u8], key: u64) {
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
fn first_random_mismatch(blk: &[u8], key: u64, from: usize) -> Option<usize> {
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
fn fill_pattern(blk: &mut [u8], pattern: &[u8]) {
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
fn first_pattern_mismatch(blk: &[u8], pattern: &[u8], from: usize) -> Option<usize> {
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

fn nonempty(pattern: Option<&[u8]>) -> Option<&[u8]> {
    pattern.filter(|p| !p.is_empty())
}

/// Fills `buf[..id.len]` with one verify block: header, data and checksums. The data is
/// `pattern` repeated (phase 0 at the block start) when a non-empty pattern is given, else the
/// pseudo-random stream of `(id.job, id.seed, id.offset, id.generation)`. `Null` leaves `buf`
/// untouched.
///
/// Panics if `id.len < header_len(kind)` or `buf` is shorter than `id.len`.
pub fn fill_block(buf: &mut [u8], kind: VerifyKind, id: &BlockId, pattern: Option<&[u8]>) {
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
pub fn check_block(
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
    if h.kind != kind.code() {
        return fail(FailureKind::KindMismatch, Some(h), None);
    }
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
    if kind == VerifyKind::Pattern {
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
pub fn blocks(total: usize, interval: usize) -> impl Iterator<Item = (usize, usize)> {
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
pub fn fill_blocks(
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
pub fn check_blocks(
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
pub fn dump_blocks(
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

/// Last generation written to each block of a region: 4 bytes per block, zero meaning never
/// written (1 GiB for 2^28 blocks, e.g. 1 TiB in 4 KiB blocks; the pages of blocks never written
/// are never touched). Generations are per block: the first write of a block is generation 1.
///
/// Record a block's generation when its write is *submitted*. If a later write to the same block
/// is submitted while an earlier one is still in flight, either may land last: check that block
/// with `min_generation` set to the oldest write that was in flight instead of
/// `exact_generation`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WrittenMap {
    gens: Vec<u32>,
}

impl WrittenMap {
    /// A map for `blocks` blocks, none written.
    pub fn new(blocks: usize) -> WrittenMap {
        WrittenMap {
            gens: vec![0; blocks],
        }
    }

    /// Bytes of memory a map of `blocks` blocks takes.
    pub fn memory_bytes(blocks: usize) -> usize {
        blocks * std::mem::size_of::<u32>()
    }

    /// Number of blocks covered.
    pub fn len(&self) -> usize {
        self.gens.len()
    }

    pub fn is_empty(&self) -> bool {
        self.gens.is_empty()
    }

    /// Sets the last generation written to `block`. Panics if `block` is out of range.
    #[inline]
    pub fn record(&mut self, block: u64, generation: u32) {
        self.gens[block as usize] = generation;
    }

    /// Allocates the next generation of `block` (the last one plus one, saturating), records it
    /// and returns it. Panics if `block` is out of range.
    #[inline]
    pub fn bump(&mut self, block: u64) -> u32 {
        let g = &mut self.gens[block as usize];
        *g = g.saturating_add(1);
        *g
    }

    /// The last generation written to `block`; `None` if never written or out of range.
    #[inline]
    pub fn get(&self, block: u64) -> Option<u32> {
        match self.gens.get(usize::try_from(block).ok()?) {
            Some(&g) if g != 0 => Some(g),
            _ => None,
        }
    }

    /// Written blocks in index order, with their last generation.
    pub fn written(&self) -> impl Iterator<Item = (u64, u32)> + '_ {
        self.gens
            .iter()
            .enumerate()
            .filter(|(_, &g)| g != 0)
            .map(|(i, &g)| (i as u64, g))
    }

    /// Forgets every write.
    pub fn clear(&mut self) {
        self.gens.fill(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CHECKED: [VerifyKind; 5] = [
        VerifyKind::Crc32c,
        VerifyKind::Xxhash,
        VerifyKind::Md5,
        VerifyKind::Sha256,
        VerifyKind::Pattern,
    ];
    const PAT: &[u8] = b"\xde\xad\xbe\xef\x5a";

    fn id(offset: u64, len: usize, generation: u64) -> BlockId {
        BlockId {
            offset,
            len: len as u32,
            job: 0x1234_5678,
            seed: 0xfeed_beef_cafe_f00d,
            generation,
        }
    }

    fn block(kind: VerifyKind, b: &BlockId, pattern: Option<&[u8]>) -> Vec<u8> {
        let mut v = vec![0u8; b.len as usize];
        fill_block(&mut v, kind, b, pattern);
        v
    }

    fn err(r: Result<(), VerifyFailure>) -> VerifyFailure {
        r.expect_err("block should fail verification")
    }

    #[test]
    fn names_and_codes_round_trip() {
        for k in VerifyKind::ALL {
            let json = serde_json::to_string(&k).unwrap();
            assert_eq!(json, format!("\"{}\"", k.name()));
            assert_eq!(serde_json::from_str::<VerifyKind>(&json).unwrap(), k);
            if k != VerifyKind::Null {
                assert_eq!(VerifyKind::from_code(k.code()), Some(k));
            }
        }
        assert_eq!(VerifyKind::from_code(0), None);
        let lens: Vec<usize> = VerifyKind::ALL.iter().map(|&k| header_len(k)).collect();
        assert_eq!(lens, [56, 56, 64, 80, 48, 0]);
    }

    #[test]
    fn header_layout_is_little_endian_at_fixed_offsets() {
        let b = BlockId {
            offset: 0x0102_0304_0506_0708,
            len: 4096,
            job: 0xa1b2_c3d4,
            seed: 0x1122_3344_5566_7788,
            generation: 0x99,
        };
        let v = block(VerifyKind::Crc32c, &b, None);
        assert_eq!(&v[0..4], b"IOMK");
        assert_eq!(&v[4..6], &[1, 0]);
        assert_eq!(&v[6..8], &[1, 0]);
        assert_eq!(&v[8..12], &4096u32.to_le_bytes());
        assert_eq!(&v[12..16], &0xa1b2_c3d4u32.to_le_bytes());
        assert_eq!(&v[16..24], &0x0102_0304_0506_0708u64.to_le_bytes());
        assert_eq!(&v[24..32], &0x1122_3344_5566_7788u64.to_le_bytes());
        assert_eq!(&v[32..40], &0x99u64.to_le_bytes());
        assert_eq!(&v[44..48], &[0; 4]);
        assert_eq!(&v[48..52], &crc32c::crc32c(&v[56..]).to_le_bytes());
        assert_eq!(&v[52..56], &[0; 4]);
        let mut h = v[..56].to_vec();
        h[40..44].fill(0);
        let crc = crc32c::crc32c_append(crc32c::crc32c(&h[..40]), &h[44..]);
        assert_eq!(&v[40..44], &crc.to_le_bytes());
        let d = describe(&v).unwrap();
        assert_eq!(
            (
                d.magic,
                d.version,
                d.kind,
                d.len,
                d.job,
                d.offset,
                d.seed,
                d.generation
            ),
            (MAGIC, 1, 1, 4096, b.job, b.offset, b.seed, 0x99)
        );
        assert_eq!(d.header_crc, crc);
        assert_eq!(describe(&v[..47]), None);
    }

    #[test]
    fn round_trip_every_kind_size_and_interval() {
        for kind in VerifyKind::ALL {
            for size in [512usize, 4096, 65536, 1 << 20] {
                for interval in [512usize, 4096, 65536, 0] {
                    if interval > size {
                        continue;
                    }
                    for pattern in [None, Some(PAT)] {
                        let first = id(size as u64 * 7, 0, 3);
                        let mut buf = vec![0u8; size];
                        fill_blocks(&mut buf, kind, interval, &first, pattern);
                        let mut n = 0;
                        check_blocks(&buf, kind, interval, first.offset, pattern, |o, l| {
                            n += 1;
                            Expect::exact(&BlockId {
                                offset: o,
                                len: l,
                                ..first
                            })
                        })
                        .unwrap_or_else(|e| panic!("{kind} {size}/{interval}: {e}"));
                        if kind != VerifyKind::Null {
                            let per = if interval == 0 { size } else { interval };
                            assert_eq!(n, size / per);
                            let last = size - per;
                            let h = describe(&buf[last..]).unwrap();
                            assert_eq!(h.offset, first.offset + last as u64);
                            assert_eq!(h.len as usize, per);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn data_is_distinct_per_offset_and_generation_and_not_trivial() {
        let a = block(VerifyKind::Crc32c, &id(0, 4096, 1), None);
        let b = block(VerifyKind::Crc32c, &id(4096, 4096, 1), None);
        let c = block(VerifyKind::Crc32c, &id(0, 4096, 2), None);
        assert_ne!(a[56..], b[56..]);
        assert_ne!(a[56..], c[56..]);
        // No 32-byte run repeats within a block, and bytes are spread out.
        let mut runs: Vec<&[u8]> = a[64..].chunks(32).collect();
        runs.sort();
        runs.dedup();
        assert_eq!(runs.len(), (4096 - 64) / 32);
        let ones: u32 = a[56..].iter().map(|x| x.count_ones()).sum();
        let bits = (4096 - 56) as f64 * 8.0;
        assert!(
            (ones as f64 / bits - 0.5).abs() < 0.02,
            "bit balance {}",
            ones as f64 / bits
        );
        // The same id gives the same bytes.
        assert_eq!(a, block(VerifyKind::Crc32c, &id(0, 4096, 1), None));
    }

    #[test]
    fn every_single_byte_flip_is_detected_and_located() {
        for kind in CHECKED {
            for size in [512usize, 4096] {
                let b = id(8192, size, 5);
                let good = block(kind, &b, None);
                let e = Expect::exact(&b);
                let hlen = header_len(kind);
                let mut buf = good.clone();
                for i in 0..size {
                    for mask in [1u8 << (i % 8), 0xff] {
                        buf[i] ^= mask;
                        let f = err(check_block(&buf, kind, &e, None));
                        buf[i] ^= mask;
                        if i < 4 {
                            assert_eq!(f.kind, FailureKind::BadMagic, "{kind} byte {i}");
                        } else if i < hlen {
                            assert_eq!(f.kind, FailureKind::HeaderChecksum, "{kind} byte {i}");
                        } else {
                            assert_eq!(f.kind, FailureKind::DataChecksum, "{kind} byte {i}");
                            assert_eq!(f.first_bad_byte, Some(i), "{kind} byte {i}");
                        }
                    }
                }
                assert_eq!(buf, good);
            }
        }
    }

    #[test]
    fn byte_flips_in_large_blocks_and_with_pattern() {
        for kind in CHECKED {
            let b = id(1 << 30, 1 << 20, 2);
            let mut buf = block(kind, &b, Some(PAT));
            let e = Expect::exact(&b);
            for i in [80usize, 4095, 4096, 500_000, (1 << 20) - 1] {
                buf[i] ^= 0x10;
                let f = err(check_block(&buf, kind, &e, Some(PAT)));
                buf[i] ^= 0x10;
                assert_eq!(
                    (f.kind, f.first_bad_byte),
                    (FailureKind::DataChecksum, Some(i))
                );
            }
            check_block(&buf, kind, &e, Some(PAT)).unwrap();
        }
    }

    #[test]
    fn misdirected_block_is_reported_as_such() {
        for kind in CHECKED {
            let written = id(4096 * 10, 4096, 1);
            let buf = block(kind, &written, None);
            let e = Expect {
                offset: 4096 * 11,
                ..Expect::exact(&written)
            };
            let f = err(check_block(&buf, kind, &e, None));
            assert_eq!(f.kind, FailureKind::Misdirected);
            assert_eq!(f.found.unwrap().offset, 4096 * 10);
            let msg = f.to_string();
            assert!(
                msg.contains("offset 45056") && msg.contains("offset 40960"),
                "{msg}"
            );
        }
    }

    #[test]
    fn generations_stale_future_and_min() {
        for kind in CHECKED {
            let b = id(0, 4096, 3);
            let buf = block(kind, &b, None);
            let with = |min: Option<u64>, exact: Option<u64>| Expect {
                min_generation: min,
                exact_generation: exact,
                ..Expect::exact(&b)
            };
            let r = |e: Expect| check_block(&buf, kind, &e, None).map_err(|f| f.kind);
            assert_eq!(r(with(None, Some(3))), Ok(()));
            assert_eq!(r(with(None, Some(5))), Err(FailureKind::Stale));
            assert_eq!(r(with(None, Some(2))), Err(FailureKind::FutureGeneration));
            assert_eq!(r(with(Some(2), None)), Ok(()));
            assert_eq!(r(with(Some(3), None)), Ok(()));
            assert_eq!(r(with(Some(4), None)), Err(FailureKind::Stale));
            assert_eq!(r(with(None, None)), Ok(()));
            let msg = err(check_block(&buf, kind, &with(None, Some(5)), None)).to_string();
            assert!(
                msg.contains("generation 3") && msg.contains("expected 5"),
                "{msg}"
            );
        }
    }

    #[test]
    fn zeroed_and_garbage_blocks_are_bad_magic() {
        for kind in CHECKED {
            let e = Expect::exact(&id(0, 4096, 1));
            let f = err(check_block(&[0u8; 4096], kind, &e, None));
            assert_eq!(f.kind, FailureKind::BadMagic);
            let mut junk = vec![0u8; 4096];
            fill_random(&mut junk, 42);
            assert_eq!(
                err(check_block(&junk, kind, &e, None)).kind,
                FailureKind::BadMagic
            );
            // Our magic over garbage is a corrupted header, not a valid block.
            junk[..4].copy_from_slice(&MAGIC.to_le_bytes());
            assert_eq!(
                err(check_block(&junk, kind, &e, None)).kind,
                FailureKind::HeaderChecksum
            );
        }
    }

    #[test]
    fn torn_writes_are_detected() {
        for kind in [
            VerifyKind::Crc32c,
            VerifyKind::Xxhash,
            VerifyKind::Md5,
            VerifyKind::Sha256,
            VerifyKind::Pattern,
        ] {
            let old = block(kind, &id(0, 4096, 1), None);
            let new = block(kind, &id(0, 4096, 2), None);
            let e = Expect::exact(&id(0, 4096, 2));
            for cut in [512usize, 2048, 3584] {
                let mut torn = new[..cut].to_vec();
                torn.extend_from_slice(&old[cut..]);
                let f = err(check_block(&torn, kind, &e, None));
                assert_eq!(f.kind, FailureKind::DataChecksum);
                let first_diff = (cut..4096).find(|&i| old[i] != new[i]).unwrap();
                assert_eq!(f.first_bad_byte, Some(first_diff));
                let mut torn = old[..cut].to_vec();
                torn.extend_from_slice(&new[cut..]);
                let f = err(check_block(&torn, kind, &e, None));
                assert_eq!(f.kind, FailureKind::Stale);
                // Without a generation expectation the mixed data is still caught.
                let any = Expect::any(0, 4096);
                let f = err(check_block(&torn, kind, &any, None));
                assert_eq!(f.kind, FailureKind::DataChecksum);
            }
        }
        // A 1 MiB write with 4 KiB verify intervals torn at 512 KiB: the first old block is found.
        let kind = VerifyKind::Crc32c;
        let mut old = vec![0u8; 1 << 20];
        let mut new = old.clone();
        fill_blocks(&mut old, kind, 4096, &id(0, 0, 1), None);
        fill_blocks(&mut new, kind, 4096, &id(0, 0, 2), None);
        new[512 << 10..].copy_from_slice(&old[512 << 10..]);
        let f = err(check_blocks(&new, kind, 4096, 0, None, |o, l| {
            Expect::exact(&BlockId {
                offset: o,
                len: l,
                ..id(0, 0, 2)
            })
        }));
        assert_eq!(f.kind, FailureKind::Stale);
        assert_eq!(f.expected.offset, 512 << 10);
    }

    #[test]
    fn pattern_kind_checks_the_pattern() {
        let b = id(0, 4096, 1);
        let buf = block(VerifyKind::Pattern, &b, Some(PAT));
        for i in 48..4096 {
            assert_eq!(buf[i], PAT[i % PAT.len()]);
        }
        let e = Expect::exact(&b);
        check_block(&buf, VerifyKind::Pattern, &e, Some(PAT)).unwrap();
        // Checking against another pattern fails at the first byte that differs.
        let other = b"\xde\xad\xbe\xef\x5b";
        let f = err(check_block(&buf, VerifyKind::Pattern, &e, Some(other)));
        assert_eq!(f.kind, FailureKind::DataChecksum);
        assert_eq!(f.first_bad_byte, Some(49)); // 49 % 5 == 4
                                                // A one-byte pattern and a pattern longer than the compare buffer.
        let long: Vec<u8> = (0..700u32).map(|i| (i * 7 + 3) as u8).collect();
        for p in [&b"\xa5"[..], &long[..]] {
            let mut buf = block(VerifyKind::Pattern, &b, Some(p));
            check_block(&buf, VerifyKind::Pattern, &e, Some(p)).unwrap();
            buf[3000] ^= 1;
            let f = err(check_block(&buf, VerifyKind::Pattern, &e, Some(p)));
            assert_eq!(f.first_bad_byte, Some(3000));
        }
    }

    #[test]
    fn null_kind_always_passes_and_writes_nothing() {
        let mut buf = vec![7u8; 4096];
        fill_block(&mut buf, VerifyKind::Null, &id(0, 4096, 1), None);
        assert!(buf.iter().all(|&x| x == 7));
        let e = Expect::exact(&id(123, 4096, 9));
        check_block(&buf, VerifyKind::Null, &e, None).unwrap();
        check_block(&[], VerifyKind::Null, &e, None).unwrap();
    }

    #[test]
    fn wrong_job_seed_kind_and_length() {
        let b = id(0, 4096, 1);
        let buf = block(VerifyKind::Md5, &b, None);
        let e = Expect::exact(&b);
        let k = |e: Expect, kind: VerifyKind| err(check_block(&buf, kind, &e, None)).kind;
        let job = Expect { job: Some(1), ..e };
        assert_eq!(k(job, VerifyKind::Md5), FailureKind::WrongJob);
        let seed = Expect { seed: Some(1), ..e };
        assert_eq!(k(seed, VerifyKind::Md5), FailureKind::WrongJob);
        check_block(&buf, VerifyKind::Md5, &Expect::any(0, 4096), None).unwrap();
        assert_eq!(k(e, VerifyKind::Sha256), FailureKind::KindMismatch);
        let short = Expect { len: 2048, ..e };
        assert_eq!(k(short, VerifyKind::Md5), FailureKind::Length);
        let too_long = Expect { len: 8192, ..e };
        assert_eq!(k(too_long, VerifyKind::Md5), FailureKind::Length);
        let tiny = Expect { len: 32, ..e };
        assert_eq!(k(tiny, VerifyKind::Md5), FailureKind::Length);
        let f = err(check_block(&buf, VerifyKind::Md5, &job, None));
        assert!(f.to_string().contains("wrong job"), "{f}");
    }

    #[test]
    fn expected_id_regenerates_the_expected_block() {
        let b = id(4096, 4096, 4);
        let mut buf = block(VerifyKind::Xxhash, &b, None);
        buf[1000] ^= 0x80;
        let f = err(check_block(
            &buf,
            VerifyKind::Xxhash,
            &Expect::exact(&b),
            None,
        ));
        assert_eq!(f.expected_id(), b);
        let good = block(VerifyKind::Xxhash, &f.expected_id(), None);
        let diff: Vec<usize> = (0..4096).filter(|&i| good[i] != buf[i]).collect();
        assert_eq!(diff, [1000]);
        let msg = f.to_string();
        assert!(
            msg.contains("byte 1000") && msg.contains("file offset 5096"),
            "{msg}"
        );
    }

    #[test]
    fn block_splitting() {
        let v: Vec<_> = blocks(10_000, 4096).collect();
        assert_eq!(v, [(0, 4096), (4096, 5904)]);
        assert_eq!(blocks(4096, 0).collect::<Vec<_>>(), [(0, 4096)]);
        assert_eq!(blocks(512, 4096).collect::<Vec<_>>(), [(0, 512)]);
        assert_eq!(blocks(0, 4096).count(), 0);
        assert_eq!(blocks(1 << 20, 4096).count(), 256);
    }

    #[test]
    fn written_map() {
        let mut m = WrittenMap::new(1000);
        assert_eq!(m.len(), 1000);
        assert_eq!(WrittenMap::memory_bytes(1000), 4000);
        assert_eq!(m.get(5), None);
        assert_eq!(m.bump(5), 1);
        assert_eq!(m.bump(5), 2);
        assert_eq!(m.get(5), Some(2));
        m.record(999, 7);
        assert_eq!(m.get(999), Some(7));
        assert_eq!(m.get(1000), None);
        assert_eq!(m.get(u64::MAX), None);
        assert_eq!(m.written().collect::<Vec<_>>(), [(5, 2), (999, 7)]);
        m.record(5, u32::MAX);
        assert_eq!(m.bump(5), u32::MAX);
        m.clear();
        assert_eq!(m.written().count(), 0);
        assert!(WrittenMap::new(0).is_empty());
    }

    #[test]
    fn written_map_drives_random_overwrites_without_false_positives() {
        // Random overwrites of 64 blocks (no random map): every block checks with the generation
        // the map holds, and an older copy of any block is caught as stale.
        let kind = VerifyKind::Crc32c;
        let bs = 512usize;
        let mut disk = vec![0u8; 64 * bs];
        let mut m = WrittenMap::new(64);
        let mut rng = crate::rng::Rng::new(9);
        let mut snapshot = None;
        for n in 0..500 {
            let blk = rng.below(64);
            let g = m.bump(blk) as u64;
            let b = id(blk * bs as u64, bs, g);
            let at = blk as usize * bs;
            fill_block(&mut disk[at..at + bs], kind, &b, None);
            if n == 250 {
                snapshot = Some((blk, disk[at..at + bs].to_vec()));
            }
        }
        for (blk, g) in m.written() {
            let at = blk as usize * bs;
            let e = Expect::exact(&id(blk * bs as u64, bs, g as u64));
            check_block(&disk[at..at + bs], kind, &e, None).unwrap();
        }
        // Overwrite the snapshotted block once more, then put the old copy back: a lost write.
        let (blk, old) = snapshot.unwrap();
        let g = m.bump(blk) as u64;
        let at = blk as usize * bs;
        fill_block(
            &mut disk[at..at + bs],
            kind,
            &id(blk * bs as u64, bs, g),
            None,
        );
        let e = Expect::exact(&id(blk * bs as u64, bs, g));
        check_block(&disk[at..at + bs], kind, &e, None).unwrap();
        disk[at..at + bs].copy_from_slice(&old);
        let f = err(check_block(&disk[at..at + bs], kind, &e, None));
        assert_eq!(f.kind, FailureKind::Stale);
        assert!(f.found.unwrap().generation < g);
    }

    #[test]
    fn dump_blocks_writes_both_files() {
        let dir = std::env::temp_dir().join(format!("iomark-verify-dump-{}", std::process::id()));
        let (e, r) = dump_blocks(&dir, "job.0.0", 8192, b"expected", b"received").unwrap();
        assert_eq!(e, dir.join("job.0.0.8192.expected"));
        assert_eq!(r, dir.join("job.0.0.8192.received"));
        assert_eq!(std::fs::read(&e).unwrap(), b"expected");
        assert_eq!(std::fs::read(&r).unwrap(), b"received");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Rough cost of fill + check per 4 KiB block (prints, asserts nothing). Run with
    /// `cargo test --release -p iomark-engine verify::tests::speed -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn speed() {
        let mut buf = vec![0u8; 4096];
        let n = 20_000u64;
        for kind in VerifyKind::ALL {
            let t = std::time::Instant::now();
            for i in 0..n {
                let b = id(i * 4096, 4096, 1);
                fill_block(&mut buf, kind, &b, None);
                std::hint::black_box(&mut buf);
            }
            let fill = t.elapsed().as_nanos() as f64 / n as f64;
            let t = std::time::Instant::now();
            for _ in 0..n {
                let e = Expect::exact(&id((n - 1) * 4096, 4096, 1));
                std::hint::black_box(check_block(std::hint::black_box(&buf), kind, &e, None))
                    .unwrap();
            }
            let check = t.elapsed().as_nanos() as f64 / n as f64;
            println!("{kind:>8}: fill {fill:7.0} ns  check {check:7.0} ns per 4 KiB");
        }
    }
}
