//! Planning a file of a Ceph engine: an RBD image is looked at as a block device is (its size
//! is the default size; before a write, its watchers and signatures are checked), and a RADOS
//! object is sized by the job as a new file would be. Nothing is laid out.

use super::region::{file_size, resolve_region, Found};
use super::{RunError, RunPlan};
use crate::engines::rbd::probe::{self, Checks, ProbeError};
use crate::job::{EngineKind, JobSpec};
use crate::rng::Rng;
use crate::worker_file::WorkerFile;
use std::path::PathBuf;

/// The worker's view of one file of a Ceph job.
pub(super) fn plan_ceph_file(
    plan: &RunPlan,
    job: &JobSpec,
    clone: u32,
    path: PathBuf,
    nfiles: u64,
    size_rng: &mut Rng,
) -> Result<WorkerFile, RunError> {
    let rbd = job.ioengine == EngineKind::Rbd;
    let real_size = if rbd {
        Some(image_size(plan, job)?)
    } else {
        None
    };
    device_like_file(job, clone, path, nfiles, size_rng, real_size)
}

/// The worker's view of a file of a job whose engine reaches its target through a library
/// (nothing laid out): with `real_size`, a device of that size (an RBD image, an NBD
/// export); without, sized by the job as a new file would be (a RADOS object).
pub(super) fn device_like_file(
    job: &JobSpec,
    clone: u32,
    path: PathBuf,
    nfiles: u64,
    size_rng: &mut Rng,
    real_size: Option<u64>,
) -> Result<WorkerFile, RunError> {
    let is_block = real_size.is_some();
    let found = Found {
        is_block,
        is_char: false,
        real_size,
    };
    let per_file = file_size(job, &path, &found, nfiles, size_rng)?;
    let (region_start, region_len, size) = resolve_region(job, clone, &path, &found, per_file)?;
    Ok(WorkerFile {
        path,
        is_block,
        is_char: false,
        size: size.max(region_start + region_len),
        region_start,
        region_len,
        logical_block_size: 512,
    })
}

/// The image's size, after the checks a write needs: another client's watch is refused as a
/// mounted device is (unless `allow_mounted_write`), a signature as a formatted device is
/// (unless `allow_mounted_write` or the plan's force of device writes).
fn image_size(plan: &RunPlan, job: &JobSpec) -> Result<u64, RunError> {
    let t = &job.engine_options.ceph;
    let image = format!(
        "{}/{}",
        t.pool.as_deref().unwrap_or("?"),
        t.image.as_deref().unwrap_or("?")
    );
    let checks = Checks {
        writes: job.writes(),
        allow_watched: job.allow_mounted_write,
        allow_data: job.allow_mounted_write || plan.force_device_write,
    };
    probe::probe(t, &checks).map_err(|e| match e {
        ProbeError::Watched(w) => RunError::ImageWatched {
            job: job.name.clone(),
            image,
            watchers: w.join(", "),
        },
        ProbeError::HoldsData(signature) => RunError::ImageHoldsData {
            job: job.name.clone(),
            image,
            signature,
        },
        ProbeError::Ceph(message) => RunError::Ceph {
            job: job.name.clone(),
            message,
        },
    })
}
