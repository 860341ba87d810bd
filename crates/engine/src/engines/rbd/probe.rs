//! What the plan learns about an image before any I/O, as for a block device: its size, and,
//! when the job writes, whether another client has it open (its watchers: mapped, or open by a
//! VM) and whether it holds a filesystem, partition table or other signature (its first and
//! last MiB, read through librbd, checked as a device's are).

use super::connect;
use crate::job::CephTarget;
use crate::targets;
use iomark_ceph::Image;
/// Why a write to the image is refused, or why it could not be looked at.
#[derive(Debug)]
pub(crate) enum ProbeError {
    /// Other clients watch the image (their addresses).
    Watched(Vec<String>),
    /// The image holds a signature (as libblkid names it).
    HoldsData(String),
    /// Connecting, opening or reading failed.
    Ceph(String),
}

/// What to check: whether the job writes, and what it allows.
pub(crate) struct Checks {
    pub(crate) writes: bool,
    pub(crate) allow_watched: bool,
    pub(crate) allow_data: bool,
}

/// The image's size, after the checks of a write.
pub(crate) fn probe(t: &CephTarget, c: &Checks) -> Result<u64, ProbeError> {
    let ceph = |e: iomark_ceph::CephError| ProbeError::Ceph(e.to_string());
    // A read-only open registers no watch, so the watchers seen are the others'.
    let img = connect::image(t, true, connect::Cache::AsConfigured).map_err(ceph)?;
    let size = img.size().map_err(ceph)?;
    if !c.writes {
        return Ok(size);
    }
    if !c.allow_watched {
        let w = img.watchers().map_err(ceph)?;
        if !w.is_empty() {
            return Err(ProbeError::Watched(w.into_iter().map(|w| w.addr).collect()));
        }
    }
    if !c.allow_data {
        if let Some(sig) = signature(&img, size)? {
            return Err(ProbeError::HoldsData(sig));
        }
    }
    Ok(size)
}

/// What libblkid finds in the image's first and last MiB, read through librbd.
fn signature(img: &Image, size: u64) -> Result<Option<String>, ProbeError> {
    let read = |buf: &mut [u8], offset: u64| img.read_at(buf, offset).map_err(Into::into);
    targets::ends_signature(size, read)
        .map_err(|e| ProbeError::Ceph(format!("cannot check what {} holds: {e}", img.name())))
}
