//! A failed block check, classified.

use std::fmt;

use super::{BlockId, Expect, HeaderView, VerifyKind, BASE_HEADER_LEN, HEADER_VERSION, MAGIC};

/// Which check a block failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum FailureKind {
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
    pub(crate) fn name(self) -> &'static str {
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
pub(crate) struct VerifyFailure {
    pub(crate) kind: FailureKind,
    /// The verify kind the block was checked as.
    pub(crate) verify_kind: VerifyKind,
    pub(crate) expected: Expect,
    /// The stored header, decoded without checks (`None` when the buffer is shorter than
    /// [`BASE_HEADER_LEN`]).
    pub(crate) found: Option<HeaderView>,
    /// For `DataChecksum`: index in the block of the first byte that differs from what the
    /// header's write would have produced (`None` when it cannot be located).
    pub(crate) first_bad_byte: Option<usize>,
}

impl VerifyFailure {
    /// The block that should have been read here, for regenerating it with [`fill_block`] (for
    /// `verify_dump`): the expected offset and length, with job, seed and generation taken from
    /// the expectation where it fixes them and from the stored header otherwise.
    pub(crate) fn expected_id(&self) -> BlockId {
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
