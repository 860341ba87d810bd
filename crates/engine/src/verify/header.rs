//! The block header: what a block is written as, what it should be read back as, and the
//! header decoded as stored.

use super::{VerifyKind, BASE_HEADER_LEN};

pub(super) const OFF_MAGIC: usize = 0;
pub(super) const OFF_VERSION: usize = 4;
pub(super) const OFF_KIND: usize = 6;
pub(super) const OFF_LEN: usize = 8;
pub(super) const OFF_JOB: usize = 12;
pub(super) const OFF_OFFSET: usize = 16;
pub(super) const OFF_SEED: usize = 24;
pub(super) const OFF_GEN: usize = 32;
pub(super) const OFF_HCRC: usize = 40;
pub(super) const OFF_RESERVED: usize = 44;
pub(super) const OFF_CSUM: usize = 48;

/// What a block is written as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct BlockId {
    /// Offset of the block in the file (bytes).
    pub(crate) offset: u64,
    /// Block length in bytes, header included.
    pub(crate) len: u32,
    /// Job id (for example a hash of the job name and thread number).
    pub(crate) job: u32,
    /// The job's verify seed.
    pub(crate) seed: u64,
    /// Which write of this block this is (1 for the first; higher for later writes).
    pub(crate) generation: u64,
}

/// What a block read back should be. `job` and `seed` set to `None` accept any writer (a job
/// that only reads data written by another run); the generation bounds are both optional.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Expect {
    /// Offset the block was read from.
    pub(crate) offset: u64,
    /// Block length.
    pub(crate) len: u32,
    pub(crate) job: Option<u32>,
    pub(crate) seed: Option<u64>,
    /// The block must have been written by this generation or a later one. Used when several
    /// writes to the block were in flight together (any of them may have landed last).
    pub(crate) min_generation: Option<u64>,
    /// The block must hold exactly this generation: the normal case, the last one written.
    pub(crate) exact_generation: Option<u64>,
}

impl Expect {
    /// Expect exactly the block `id` describes.
    pub(crate) fn exact(id: &BlockId) -> Expect {
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
    pub(crate) fn any(offset: u64, len: u32) -> Expect {
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
pub(crate) struct HeaderView {
    pub(crate) magic: u32,
    pub(crate) version: u16,
    /// Raw kind code (see [`VerifyKind::from_code`]).
    pub(crate) kind: u16,
    pub(crate) len: u32,
    pub(crate) job: u32,
    pub(crate) offset: u64,
    pub(crate) seed: u64,
    pub(crate) generation: u64,
    pub(crate) header_crc: u32,
}

impl HeaderView {
    /// The kind the header names, if the code is known.
    pub(crate) fn verify_kind(&self) -> Option<VerifyKind> {
        VerifyKind::from_code(self.kind)
    }
}

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
pub(crate) fn describe(buf: &[u8]) -> Option<HeaderView> {
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
pub(super) fn header_crc(hdr: &[u8]) -> u32 {
    crc32c::crc32c_append(crc32c::crc32c(&hdr[..OFF_HCRC]), &hdr[OFF_RESERVED..])
}
