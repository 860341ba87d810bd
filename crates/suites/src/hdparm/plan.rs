//! hdparm's timings as engine jobs: for -T a priming read of the first 2 MiB, then the same
//! 2 MiB re-read for 2 s (page cache kept); for -t the cache dropped, then sequential 2 MiB
//! reads from the offset for 3 s or to the end.

use super::args::{HdparmArgs, HdparmError};
use super::TIMING_BUF;
use iomark_engine::job::{
    BlockSize, EngineKind, FadviseHint, JobSpec, PerDir, RunPlan, RwMode, SizeSpec,
};
use std::path::Path;
use std::time::Duration;

/// What the target is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Block,
    File,
}

/// hdparm's pause before its disk timing: it syncs, then waits 3 s "for the I/O to settle"
/// (strace of hdparm 9.65: `sync()`, a 3 s `clock_nanosleep`, then the reads). On this kind of
/// machine the pause itself changes the figure (buffered reads of a loop device right after
/// 3 s of idling ran at 1.5-2.1 GB/s, at once at 2.5-4.8 GB/s), so iomark keeps it.
pub const SETTLE: Duration = Duration::from_secs(3);

/// Job names, which the output looks up.
pub const PRIME: &str = "hdparm-prime";
pub const CACHED: &str = "hdparm-cached";
pub const DISK: &str = "hdparm-disk";

#[derive(Clone, Debug, PartialEq)]
pub struct HdparmPlan {
    pub run: RunPlan,
    pub kind: Kind,
    pub direct: bool,
    pub offset_gib: u64,
}

impl HdparmPlan {
    /// The runs in hdparm's order, each with the pause (after a sync) that precedes it: the
    /// cached timing at once, the disk timing after [`SETTLE`].
    pub fn phases(&self) -> Vec<(Duration, RunPlan)> {
        let part = |disk: bool, pause: Duration| {
            let jobs: Vec<JobSpec> = (self.run.jobs.iter())
                .filter(|j| (j.name == DISK) == disk)
                .cloned()
                .collect();
            (!jobs.is_empty()).then(|| {
                (
                    pause,
                    RunPlan {
                        jobs,
                        ..self.run.clone()
                    },
                )
            })
        };
        [part(false, Duration::ZERO), part(true, SETTLE)]
            .into_iter()
            .flatten()
            .collect()
    }
}

/// The plan for one target of `size` bytes.
pub fn plan(a: &HdparmArgs, path: &Path, kind: Kind, size: u64) -> Result<HdparmPlan, HdparmError> {
    if size < TIMING_BUF {
        return Err(HdparmError::Refused(format!(
            "{}: {size} bytes is smaller than hdparm's 2 MiB timing buffer",
            path.display()
        )));
    }
    let offset = a.offset_gib << 30;
    if a.disk && offset + TIMING_BUF > size {
        return Err(HdparmError::Refused(format!(
            "{}: --offset {} GiB is beyond the end ({size} bytes)",
            path.display(),
            a.offset_gib
        )));
    }
    let job = |name: &str| JobSpec {
        name: name.to_string(),
        rw: RwMode::Read,
        bs: PerDir::all(BlockSize::Fixed(TIMING_BUF)),
        filenames: vec![path.to_path_buf()],
        ioengine: EngineKind::Sync,
        direct: a.direct,
        fadvise_hint: FadviseHint::Off,
        readonly: true,
        stonewall: true,
        invalidate: false,
        ..Default::default()
    };
    let mut run = RunPlan {
        readonly: true,
        ..Default::default()
    };
    if a.cached {
        run.jobs.push(JobSpec {
            size: Some(SizeSpec::Bytes(TIMING_BUF)),
            ..job(PRIME)
        });
        run.jobs.push(JobSpec {
            size: Some(SizeSpec::Bytes(TIMING_BUF)),
            time_based: true,
            runtime: Some(Duration::from_secs(2)),
            ..job(CACHED)
        });
    }
    if a.disk {
        run.jobs.push(JobSpec {
            offset: SizeSpec::Bytes(offset),
            runtime: Some(Duration::from_secs(3)),
            invalidate: true,
            ..job(DISK)
        });
    }
    Ok(HdparmPlan {
        run,
        kind,
        direct: a.direct,
        offset_gib: a.offset_gib,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hdparm::args::parse;

    #[test]
    fn t_and_cap_t_jobs() {
        let a = parse(&["-tT".into(), "--direct".into(), "/dev/x".into()]).unwrap();
        let p = plan(&a, Path::new("/dev/x"), Kind::Block, 1 << 30).unwrap();
        let names: Vec<&str> = p.run.jobs.iter().map(|j| j.name.as_str()).collect();
        assert_eq!(names, [PRIME, CACHED, DISK]);
        assert!(p
            .run
            .jobs
            .iter()
            .all(|j| j.direct && j.readonly && j.stonewall));
        let c = &p.run.jobs[1];
        assert!(c.time_based && !c.invalidate);
        assert_eq!(c.size, Some(SizeSpec::Bytes(2 << 20)));
        let d = &p.run.jobs[2];
        assert!(!d.time_based && d.invalidate && d.size.is_none());
        assert_eq!(d.runtime, Some(Duration::from_secs(3)));
    }

    #[test]
    fn the_disk_timing_comes_after_the_settle_pause() {
        let a = parse(&["-tT".into(), "/dev/x".into()]).unwrap();
        let p = plan(&a, Path::new("/dev/x"), Kind::Block, 1 << 30).unwrap();
        let ph = p.phases();
        assert_eq!(ph.len(), 2);
        assert_eq!(ph[0].0, Duration::ZERO);
        let names: Vec<&str> = ph[0].1.jobs.iter().map(|j| j.name.as_str()).collect();
        assert_eq!(names, [PRIME, CACHED]);
        assert_eq!(ph[1].0, SETTLE);
        assert_eq!(ph[1].1.jobs.len(), 1);
        assert_eq!(ph[1].1.jobs[0].name, DISK);
        let a = parse(&["-T".into(), "/dev/x".into()]).unwrap();
        let p = plan(&a, Path::new("/dev/x"), Kind::Block, 1 << 30).unwrap();
        assert_eq!(p.phases().len(), 1);
    }

    #[test]
    fn refusals() {
        let a = parse(&["-t".into(), "--offset".into(), "2".into(), "f".into()]).unwrap();
        let e = plan(&a, Path::new("f"), Kind::File, 1 << 30).unwrap_err();
        assert!(e.to_string().contains("--offset 2 GiB"), "{e}");
        let e = plan(&a, Path::new("f"), Kind::File, 1 << 20).unwrap_err();
        assert!(e.to_string().contains("2 MiB"), "{e}");
    }
}
