//! Planning a file of the nbd engine: the export is looked at as a block device is (its size
//! is the default size; before a write, the server must allow writes and the export's
//! signatures are checked). Nothing is laid out.

use super::plan_ceph::device_like_file;
use super::{RunError, RunPlan};
use crate::engines::nbd::probe::{self, ProbeError};
use crate::job::JobSpec;
use crate::rng::Rng;
use crate::worker_file::WorkerFile;
use std::path::PathBuf;

/// The worker's view of one file of an nbd job.
pub(super) fn plan_nbd_file(
    plan: &RunPlan,
    job: &JobSpec,
    clone: u32,
    path: PathBuf,
    nfiles: u64,
    size_rng: &mut Rng,
) -> Result<WorkerFile, RunError> {
    let size = export_size(plan, job)?;
    device_like_file(job, clone, path, nfiles, size_rng, Some(size))
}

/// The export's size, after the checks a write needs: a signature is refused as a formatted
/// device's is (unless the plan forces device writes).
fn export_size(plan: &RunPlan, job: &JobSpec) -> Result<u64, RunError> {
    let uri = job.engine_options.nbd_uri.clone().unwrap_or_default();
    probe::probe(&uri, job.writes(), plan.force_device_write).map_err(|e| match e {
        ProbeError::ReadOnly => RunError::ExportReadOnly {
            job: job.name.clone(),
            uri,
        },
        ProbeError::HoldsData(signature) => RunError::ExportHoldsData {
            job: job.name.clone(),
            uri,
            signature,
        },
        ProbeError::Nbd(message) => RunError::Nbd {
            job: job.name.clone(),
            message,
        },
    })
}
