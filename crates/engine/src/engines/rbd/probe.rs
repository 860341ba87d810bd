//! What the plan learns about an image before any I/O, as for a block device: its size, and,
//! when the job writes, whether another client has it open (its watchers: mapped, or open by a
//! VM) and whether it holds a filesystem, partition table or other signature (its first and
//! last MiB, read through librbd, checked as a device's are).

use super::connect;
use crate::job::CephTarget;
use crate::targets;
use iomark_ceph::Image;
use std::io::Write;
use std::path::PathBuf;

const MIB: u64 = 1 << 20;

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

/// What libblkid finds in the image's first and last MiB, copied into a small private file
/// (the last MiB at its end, where end-of-device signatures are looked for).
fn signature(img: &Image, size: u64) -> Result<Option<String>, ProbeError> {
    let io = |e: std::io::Error| {
        ProbeError::Ceph(format!("cannot check what {} holds: {e}", img.name()))
    };
    let head = MIB.min(size);
    let tail_start = size.saturating_sub(MIB).max(head);
    let mut buf = vec![0u8; head as usize];
    read_full(img, &mut buf, 0)?;
    let mut tail = vec![0u8; (size - tail_start) as usize];
    read_full(img, &mut tail, tail_start)?;
    let path = probe_path();
    let result = (|| {
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)?;
        f.write_all(&buf)?;
        f.write_all(&tail)?;
        f.sync_all()?;
        targets::fs_signature(&path)
    })();
    let _ = std::fs::remove_file(&path);
    result.map_err(io)
}

fn read_full(img: &Image, buf: &mut [u8], offset: u64) -> Result<(), ProbeError> {
    let mut done = 0;
    while done < buf.len() {
        let n = img
            .read_at(&mut buf[done..], offset + done as u64)
            .map_err(|e| ProbeError::Ceph(e.to_string()))?;
        if n == 0 {
            break;
        }
        done += n;
    }
    Ok(())
}

/// A private file in the temporary directory for the copy.
fn probe_path() -> PathBuf {
    use std::sync::atomic::{AtomicU32, Ordering};
    static N: AtomicU32 = AtomicU32::new(0);
    std::env::temp_dir().join(format!(
        "iomark-rbd-probe-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ))
}
