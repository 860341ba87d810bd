//! Which check protects a block's data, and the header length it needs.

use super::BASE_HEADER_LEN;

pub use iomark_model::verify::VerifyKind;

/// Header length for `kind`: the smallest allowed verify block (0 for `Null`).
pub fn header_len(kind: VerifyKind) -> usize {
    match kind {
        VerifyKind::Null => 0,
        k => BASE_HEADER_LEN + k.checksum_len().div_ceil(8) * 8,
    }
}
