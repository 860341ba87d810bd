//! The size of a job's file and the region a clone's I/O covers in it: drawn from the job's
//! size range or share, the free space it may fill, or what is already there; refused when
//! empty, past a device's end, or smaller than a block.

use super::RunError;
use crate::engines::Capabilities;
use crate::job::{Dir, JobSpec, SizeSpec};
use crate::rng::Rng;
use crate::targets;
use std::path::Path;

/// What the probe found at a file's path.
pub(super) struct Found {
    pub(super) is_block: bool,
    pub(super) is_char: bool,
    /// The size of what is there (None: nothing is).
    pub(super) real_size: Option<u64>,
}

/// The size of one of the job's `nfiles` files: drawn from its size range, its share of the
/// job's size, the free space it may fill, or the size of what is there.
/// The region of an engine that moves nothing when the job gives no size.
const NOIO_REGION: u64 = 1 << 40;

pub(super) fn file_size(
    job: &JobSpec,
    path: &Path,
    found: &Found,
    nfiles: u64,
    size_rng: &mut Rng,
) -> Result<u64, RunError> {
    let name = &job.name;
    let meta = job.ioengine.is_metadata();
    let Found {
        is_block,
        is_char,
        real_size,
    } = *found;
    if let Some((lo, hi)) = job.filesize {
        return Ok(if hi > lo {
            lo + size_rng.below(hi - lo + 1)
        } else {
            lo
        });
    }
    Ok(match job.size {
        Some(SizeSpec::Bytes(b)) => b / nfiles.max(1),
        Some(SizeSpec::Percent(p)) => match real_size {
            Some(r) => ((r as f64) * p / 100.0) as u64,
            None => {
                return Err(RunError::PercentOfMissing {
                    job: name.clone(),
                    path: path.to_path_buf(),
                    percent: p,
                })
            }
        },
        None if job.fill_device && !is_block && !is_char => {
            // The free space of the filesystem (plus what the file already holds),
            // shared by the job's files: the writes meet ENOSPC before the end.
            let dir = path
                .parent()
                .filter(|d| !d.as_os_str().is_empty())
                .unwrap_or(Path::new("."));
            let free = targets::free_space(dir).map_err(|e| RunError::FreeSpaceUnknown {
                job: name.clone(),
                dir: dir.to_path_buf(),
                source: e,
            })?;
            // A margin past the free space makes ENOSPC, not the region, end the job.
            (free + free / 16 + (1 << 20) + real_size.unwrap_or(0)) / nfiles.max(1)
        }
        None => match real_size {
            Some(r) if !is_char => r,
            _ if meta => 0,
            // Nothing is moved: the offsets only count the I/Os (any region serves).
            _ if job.ioengine.is_noio() => NOIO_REGION,
            _ => {
                return Err(RunError::NoSize {
                    job: name.clone(),
                    path: path.to_path_buf(),
                    char_device: is_char,
                })
            }
        },
    })
}

/// The region the clone's I/O covers in a file of `per_file` bytes, as (start, length, size
/// of the file); refused when empty, past a device's end, or smaller than a block.
pub(super) fn resolve_region(
    job: &JobSpec,
    clone: u32,
    path: &Path,
    found: &Found,
    per_file: u64,
) -> Result<(u64, u64, u64), RunError> {
    let name = &job.name;
    let meta = job.ioengine.is_metadata();
    let real_size = found.real_size;
    let base = real_size.unwrap_or(per_file);
    let offset = start_offset(job, clone, base);
    // Without an explicit size, an existing file or device is used from the offset to its end.
    let per_file = if job.size.is_none() && job.filesize.is_none() && real_size.is_some() {
        per_file.saturating_sub(offset)
    } else if let (Some(SizeSpec::Percent(_)), None, Some(r)) = (job.size, job.filesize, real_size)
    {
        // A share of the file: no more than lies past the offset, in whole smallest blocks.
        let len = per_file.min(r.saturating_sub(offset));
        len - len % smallest_bs(job)
    } else {
        per_file
    };
    let (region_start, region_len, size) = if found.is_block {
        let r = real_size.unwrap_or(0);
        if offset >= r {
            return Err(RunError::OffsetBeyondEnd {
                job: name.clone(),
                path: path.to_path_buf(),
                offset,
                size: r,
            });
        }
        (offset, per_file.min(r - offset), r)
    } else if job.filesize.is_some() && offset > 0 && offset < per_file {
        // A file of the size given: the region is what lies past the offset in it.
        (
            offset,
            per_file - offset,
            real_size.unwrap_or(0).max(per_file),
        )
    } else {
        (
            offset,
            per_file,
            real_size.unwrap_or(0).max(offset + per_file),
        )
    };
    if !meta && region_len == 0 {
        return Err(RunError::EmptyRegion {
            job: name.clone(),
            path: path.to_path_buf(),
            size: per_file,
            offset,
        });
    }
    let min_bs = job.min_bs();
    if !meta && min_bs > region_len {
        return Err(RunError::BlockLargerThanRegion {
            job: name.clone(),
            path: path.to_path_buf(),
            block_size: min_bs,
            region: region_len,
        });
    }
    Ok((region_start, region_len, size))
}

/// Where the clone's region starts: the offset plus the clone's increments; when either is a
/// percentage of the file, rounded up to the smallest block size.
fn start_offset(job: &JobSpec, clone: u32, base: u64) -> u64 {
    let clones = u64::from(job.clones_before) + u64::from(clone);
    let raw = job.offset.resolve(base) + job.offset_increment.resolve(base) * clones;
    let pct = |s: SizeSpec| matches!(s, SizeSpec::Percent(_));
    if pct(job.offset) || pct(job.offset_increment) {
        raw.div_ceil(smallest_bs(job)) * smallest_bs(job)
    } else {
        raw
    }
}

/// The smallest block size of any direction, used or not (what percentages round to).
fn smallest_bs(job: &JobSpec) -> u64 {
    Dir::ALL
        .iter()
        .map(|&d| job.bs[d].min())
        .min()
        .unwrap_or(4096)
        .max(1)
}
