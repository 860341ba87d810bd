//! Where each rank's jobs do their I/O. A job whose target options name `$rank` or `$hostname`
//! has targets of each rank's own. A job that names one target for all ranks and sets
//! `offset_increment` gets a region of it per clone across all ranks: rank r's clones come after
//! those of ranks 0 to r-1 (clone c of rank r starts at offset + (r × numjobs + c) ×
//! offset_increment), exactly as the clones of one job follow each other in a run of one
//! process. A job that names one target for all and no offset_increment has every rank on the
//! same blocks: fine for reading, said in a warning when the job writes (an RBD image or RADOS
//! objects too: `rbdname=img$rank` gives each rank its own image).

use iomark_engine::engines::Capabilities;
use iomark_engine::RunPlan;

/// Gives each job of `plan` its clones' place among all ranks'; `own[i]` says whether job `i`'s
/// targets are this rank's own. Returns the warnings (rank 0 shows them).
pub fn apply(plan: &mut RunPlan, own: &[bool], rank: usize) -> Vec<String> {
    let mut warnings = Vec::new();
    for (i, job) in plan.jobs.iter_mut().enumerate() {
        if own.get(i).copied().unwrap_or(false) {
            continue;
        }
        let steps = !matches!(job.offset_increment, iomark_engine::job::SizeSpec::Bytes(0));
        if steps {
            job.clones_before = u32::try_from(rank)
                .unwrap_or(u32::MAX)
                .saturating_mul(job.numjobs);
        } else if job.writes() && (!job.ioengine.is_diskless() || job.ioengine.is_ceph()) {
            warnings.push(format!(
                "job {}: every rank writes the same blocks of the same target (name a target per rank with $rank or $hostname, or give each rank a region with offset_increment)",
                job.name
            ));
        }
    }
    warnings
}

#[cfg(test)]
mod tests {
    use super::*;
    use iomark_engine::job::{JobSpec, RwMode, SizeSpec};

    #[test]
    fn shared_targets_with_a_step_get_a_region_per_clone_across_ranks() {
        let job = |inc: u64, rw: RwMode| JobSpec {
            name: "j".into(),
            numjobs: 2,
            rw,
            offset_increment: SizeSpec::Bytes(inc),
            ..Default::default()
        };
        let mut plan = RunPlan {
            jobs: vec![
                job(1 << 20, RwMode::Write),
                job(1 << 20, RwMode::Write),
                job(0, RwMode::Read),
                job(0, RwMode::Write),
            ],
            ..Default::default()
        };
        let w = apply(&mut plan, &[false, true, false, false], 3);
        let before: Vec<u32> = plan.jobs.iter().map(|j| j.clones_before).collect();
        assert_eq!(before, vec![6, 0, 0, 0]);
        assert_eq!(w.len(), 1, "{w:?}");
    }
}
