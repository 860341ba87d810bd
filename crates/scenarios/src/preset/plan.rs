//! A preset's job file typed into iomark's job model by the fio front end.

use super::jobfile::{sections, Settings};
use super::Preset;
use iomark_engine::job::RunPlan;
use iomark_fio::job_builder::{self, RawJob, RawPlan};

/// The preset's options did not make a plan (a bug in the preset's data, or a setting such as a
/// size too small for its jobs).
#[derive(Debug, thiserror::Error)]
#[error("preset {preset}: {error}")]
pub struct PlanError {
    pub preset: &'static str,
    pub error: iomark_fio::job_builder::PlanError,
}

/// The plan of `p` under `s`, and which of its jobs are warm-ups (one flag per plan job).
pub fn build(p: &Preset, s: &Settings) -> Result<(RunPlan, Vec<bool>), PlanError> {
    let (globals, jobs) = sections(p, s);
    let raw = RawPlan {
        global_options: globals.clone(),
        jobs: jobs
            .iter()
            .map(|j| RawJob {
                name: j.name.clone(),
                inherited: globals.clone(),
                options: j.options.clone(),
                ..Default::default()
            })
            .collect(),
        ..Default::default()
    };
    let built = job_builder::build_plan(&raw).map_err(|e| PlanError {
        preset: p.name,
        error: e,
    })?;
    Ok((built.plan, jobs.iter().map(|j| j.warmup).collect()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::preset::registry::{find, PRESETS};
    use iomark_engine::job::{BlockSize, RwMode};
    use std::path::PathBuf;

    #[test]
    fn every_preset_builds_a_plan() {
        for p in PRESETS {
            let s = Settings::defaults(p, PathBuf::from("/tmp/x"));
            let (plan, warm) = build(p, &s).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(plan.jobs.len(), warm.len(), "{}", p.name);
            assert!(!plan.jobs.is_empty());
            // Every figure names jobs the preset has.
            for f in p.figures {
                for j in f.jobs {
                    assert!(p.jobs.iter().any(|x| x.name == *j), "{}: {j}", p.name);
                }
            }
        }
    }

    /// On an RBD image every preset's jobs run through librbd at their own depths.
    #[test]
    fn every_preset_runs_on_an_rbd_image() {
        use iomark_engine::job::EngineKind;
        for p in PRESETS {
            let s = Settings::defaults(p, PathBuf::from("/tmp/x"));
            let (files, _) = build(p, &s).unwrap();
            let s = Settings::defaults(p, PathBuf::from("rbd:rbd/img"));
            let (plan, _) = build(p, &s).unwrap_or_else(|e| panic!("{e}"));
            for (j, f) in plan.jobs.iter().zip(&files.jobs) {
                assert_eq!(j.ioengine, EngineKind::Rbd, "{}: {}", p.name, j.name);
                let c = &j.engine_options.ceph;
                assert_eq!(
                    (c.pool.as_deref(), c.image.as_deref()),
                    (Some("rbd"), Some("img"))
                );
                assert_eq!((j.iodepth, j.numjobs, j.rw), (f.iodepth, f.numjobs, f.rw));
            }
        }
    }

    #[test]
    fn backup_repo_jobs_follow_the_recipe() {
        let p = find("backup-repo").unwrap();
        let s = Settings::defaults(p, PathBuf::from("/tmp/x"));
        let (plan, _) = build(p, &s).unwrap();
        let j = &plan.jobs[2];
        assert_eq!(j.name, "reverse-incremental");
        assert_eq!(j.rw, RwMode::RandRw);
        assert_eq!(j.rwmixread, 33);
        assert_eq!(j.iodepth, 4);
        assert_eq!(j.bs.read, BlockSize::Fixed(512 << 10));
        assert!(plan.jobs.iter().all(|j| j.stonewall && j.direct));
    }

    /// `iomark quick` and the cdm Standard profile run the same tests in the same order.
    #[test]
    fn quick_is_the_cdm_standard_profile() {
        let p = find("quick").unwrap();
        assert_eq!(p.name, "cdm-standard");
        let s = Settings::defaults(p, PathBuf::from("/tmp/x"));
        let (plan, _) = build(p, &s).unwrap();
        let q = crate::quick::QuickOpts::default();
        let (qplan, _) = crate::quick::plan_for_tests(&q);
        assert_eq!(plan.jobs.len(), qplan.jobs.len());
        for (a, b) in plan.jobs.iter().zip(&qplan.jobs) {
            assert_eq!(a.name, b.name);
            assert_eq!((a.rw, &a.bs.read, a.iodepth), (b.rw, &b.bs.read, b.iodepth));
            assert_eq!((a.runtime, a.ramp_time), (b.runtime, b.ramp_time));
            assert_eq!(a.size, b.size);
        }
    }
}
