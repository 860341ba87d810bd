//! Files a run would delete that it must not: a file backing a loop device is never deleted,
//! whatever the plan allows.

use crate::engines::Capabilities;
use crate::targets::LoopInUse;
use std::path::PathBuf;

/// A file a run would delete (`unlink=1` with `allow_unlink_existing`) that backs a loop
/// device: the job, the file, the device and why. Such a file is never deleted, whatever is
/// allowed.
pub fn unlink_refused(plan: &crate::RunPlan) -> Option<(String, PathBuf, PathBuf, LoopInUse)> {
    if !plan.allow_unlink_existing {
        // Files that existed before the run are kept anyway.
        return None;
    }
    for j in plan
        .jobs
        .iter()
        .filter(|j| j.unlink && !j.ioengine.is_diskless())
    {
        for c in 0..j.numjobs.max(1) {
            for p in j.clone_paths(c) {
                if let Some((dev, why)) = crate::targets::backed_loop_in_use(&p) {
                    return Some((j.name.clone(), p, dev, why));
                }
            }
        }
    }
    None
}
