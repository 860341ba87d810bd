//! What the plan learns about an NBD export before any I/O, as for a block device: its size,
//! and, when the job writes, whether the server allows writes and whether the export holds a
//! filesystem, partition table or other signature (its first and last MiB, read through
//! libnbd, checked as a device's are).

use crate::targets;

/// Why a write to the export is refused, or why it could not be looked at.
#[derive(Debug)]
pub(crate) enum ProbeError {
    /// The server offers the export read-only.
    ReadOnly,
    /// The export holds a signature (as libblkid names it).
    HoldsData(String),
    /// Loading libnbd, connecting or reading failed.
    Nbd(String),
}

/// The size of the export `uri`, after the checks of a write (`writes`); a signature is
/// allowed when `allow_data`.
pub(crate) fn probe(uri: &str, writes: bool, allow_data: bool) -> Result<u64, ProbeError> {
    let nbd = |e: iomark_nbd::NbdError| ProbeError::Nbd(e.to_string());
    let mut export = super::connect(uri, 1).map_err(nbd)?;
    let size = export.size().map_err(nbd)?;
    if !writes {
        return Ok(size);
    }
    if export.is_read_only().map_err(nbd)? {
        return Err(ProbeError::ReadOnly);
    }
    if !allow_data {
        let read =
            |buf: &mut [u8], offset: u64| export.read_at(buf, offset).map_err(std::io::Error::from);
        match targets::ends_signature(size, read) {
            Ok(None) => {}
            Ok(Some(sig)) => return Err(ProbeError::HoldsData(sig)),
            Err(e) => {
                return Err(ProbeError::Nbd(format!(
                    "cannot check what {uri} holds: {e}"
                )))
            }
        }
    }
    Ok(size)
}
