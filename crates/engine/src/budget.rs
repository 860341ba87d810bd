//! What a plan's buffers and queues will ask of the system, checked before anything is
//! allocated: the I/O buffers of every job clone (block size × queue depth) against the memory
//! available, and a libaio queue against the system's AIO event limit. A plan that cannot fit
//! ends with an error that names the job and the figures, instead of an abort or the OOM
//! killer.

use crate::job::{EngineKind, RunPlan};

/// A plan that asks for more than the system has.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum BudgetError {
    #[error("{job}: its I/O buffers need {need} bytes (block size {bs} × queue depth {depth} × {clones} clone(s)), more than half of the {avail} bytes of memory available: lower the block size, the queue depth or the number of clones")]
    Memory {
        job: String,
        bs: u64,
        depth: u64,
        clones: u64,
        need: u64,
        avail: u64,
    },
    #[error("{job}: a libaio queue depth of {depth} needs {depth} AIO events per clone, but /proc/sys/fs/aio-max-nr allows {max} in all: lower the queue depth or raise /proc/sys/fs/aio-max-nr")]
    AioEvents { job: String, depth: u64, max: u64 },
}

/// Check `plan` against `avail` bytes (the buffers may take half) of memory and `aio_max` AIO events (None: unknown).
pub fn check_with(plan: &RunPlan, avail: u64, aio_max: Option<u64>) -> Result<(), BudgetError> {
    for j in &plan.jobs {
        let depth = u64::from(j.iodepth.max(1));
        if j.ioengine == EngineKind::Libaio {
            if let Some(max) = aio_max.filter(|m| depth > *m) {
                return Err(BudgetError::AioEvents {
                    job: j.name.clone(),
                    depth,
                    max,
                });
            }
        }
        let bs = j.max_bs();
        let clones = u64::from(j.numjobs.max(1));
        let need = bs.saturating_mul(depth).saturating_mul(clones);
        // Half of what is available: the rest is the page cache's, the system's and the
        // run's other needs.
        if avail > 0 && need > avail / 2 {
            return Err(BudgetError::Memory {
                job: j.name.clone(),
                bs,
                depth,
                clones,
                need,
                avail,
            });
        }
    }
    Ok(())
}

/// Check `plan` against this system: MemAvailable and `/proc/sys/fs/aio-max-nr`.
pub fn check(plan: &RunPlan) -> Result<(), BudgetError> {
    let aio_max = std::fs::read_to_string("/proc/sys/fs/aio-max-nr")
        .ok()
        .and_then(|s| s.trim().parse().ok());
    check_with(plan, crate::sys::mem_available(), aio_max)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::job::JobSpec;

    #[test]
    fn buffers_and_aio_queues_are_checked_before_allocating() {
        let mut j = JobSpec {
            name: "j".into(),
            ..Default::default()
        };
        j.bs.read = crate::job::BlockSize::Fixed(100 << 30);
        j.bs.write = j.bs.read.clone();
        j.bs.trim = j.bs.read.clone();
        let mut plan = RunPlan {
            jobs: vec![j],
            ..Default::default()
        };
        let e = check_with(&plan, 8 << 30, Some(65536)).unwrap_err();
        assert!(
            matches!(e, BudgetError::Memory { need, .. } if need == 100 << 30),
            "{e}"
        );
        assert!(e
            .to_string()
            .contains("more than half of the 8589934592 bytes of memory available"));
        plan.jobs[0].bs.read = crate::job::BlockSize::Fixed(4096);
        plan.jobs[0].bs.write = plan.jobs[0].bs.read.clone();
        plan.jobs[0].bs.trim = plan.jobs[0].bs.read.clone();
        assert!(check_with(&plan, 8 << 30, Some(65536)).is_ok());
        plan.jobs[0].ioengine = EngineKind::Libaio;
        plan.jobs[0].iodepth = 2_000_000;
        let e = check_with(&plan, 1 << 40, Some(65536)).unwrap_err();
        assert_eq!(
            e,
            BudgetError::AioEvents {
                job: "j".into(),
                depth: 2_000_000,
                max: 65536
            }
        );
    }
}
