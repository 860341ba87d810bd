//! Verification as a job asks for it and as a result records it: which check protects a
//! block's data ([`VerifyKind`]) and how far a writing job got ([`WriteProgress`]).

use serde::{Deserialize, Serialize};
use std::fmt;

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
    /// The header alone (where the block belongs, who wrote it, which write): its data is not
    /// checked, unless against `verify_pattern`.
    Meta,
}

impl VerifyKind {
    /// Every kind, in code order.
    pub const ALL: [VerifyKind; 7] = [
        VerifyKind::Crc32c,
        VerifyKind::Xxhash,
        VerifyKind::Md5,
        VerifyKind::Sha256,
        VerifyKind::Pattern,
        VerifyKind::Null,
        VerifyKind::Meta,
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
            VerifyKind::Meta => "meta",
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
            VerifyKind::Meta => 6,
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
            6 => VerifyKind::Meta,
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
            VerifyKind::Pattern | VerifyKind::Null | VerifyKind::Meta => 0,
        }
    }
}

impl fmt::Display for VerifyKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What a writing job had done when it ended.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct WriteProgress {
    /// Writes issued.
    pub issued: u64,
    /// The queue depth: how many of the last writes may have been in flight together.
    pub depth: u32,
    /// Per file (in the job's file order): the offsets of its last completed writes, newest
    /// first, at most `depth` of them.
    pub recent: Vec<Vec<u64>>,
}

impl WriteProgress {
    /// Whether a read-back that has completed `reads_done` reads must stop before reading
    /// `offset` of file `file`. The first `issued - depth` writes are known to be complete, so
    /// their reads go on; within the last `depth`, only a block whose write was seen completed
    /// is read, and the first one that was not ends the read-back.
    pub fn read_back_ends(&self, reads_done: u64, file: u32, offset: u64) -> bool {
        let depth = u64::from(self.depth);
        let before_window = reads_done < depth || self.issued.wrapping_sub(reads_done) > depth;
        if before_window && self.issued > depth {
            return false;
        }
        !self
            .recent
            .get(file as usize)
            .is_some_and(|r| r.contains(&offset))
    }
}
