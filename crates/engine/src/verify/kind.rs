//! Which check protects a block's data, and the header length it needs.

use serde::{Deserialize, Serialize};
use std::fmt;

use super::BASE_HEADER_LEN;

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
    pub(crate) fn code(self) -> u16 {
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
    pub(crate) fn from_code(code: u16) -> Option<VerifyKind> {
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
    pub(crate) fn checksum_len(self) -> usize {
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

/// Header length for `kind`: the smallest allowed verify block (0 for `Null`).
pub fn header_len(kind: VerifyKind) -> usize {
    match kind {
        VerifyKind::Null => 0,
        k => BASE_HEADER_LEN + k.checksum_len().div_ceil(8) * 8,
    }
}
