//! bonnie++'s bulk tests as engine jobs, in bonnie++'s order: block output (sequential
//! chunk-size writes of a new file), block input (sequential reads, page cache kept: the size
//! of 2 x RAM is what keeps the cache out), random seeks (seeker threads sharing the count,
//! 10 % writes). The file is removed after the last test.

use super::args::{BonnieArgs, BonnieError};
use iomark_engine::job::{
    BlockSize, EngineKind, FadviseHint, FallocateMode, JobSpec, PerDir, RunPlan, RwMode, SizeSpec,
};
use std::path::Path;

pub const BLOCK_OUT: &str = "bonnie-block-output";
pub const BLOCK_IN: &str = "bonnie-block-input";
pub const SEEKS: &str = "bonnie-random-seeks";

/// What the plan needs to know about the machine and the directory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Facts {
    pub ram_bytes: u64,
    /// Free bytes in `-d` (None when the directory does not exist).
    pub free_bytes: Option<u64>,
    /// Names the test file (`Bonnie.PID`, as bonnie++ does).
    pub pid: u32,
}

#[derive(Clone, Debug, PartialEq)]
pub struct BonniePlan {
    pub run: RunPlan,
    pub size_mib: u64,
    pub chunk: u64,
    pub seeks: u64,
    pub seekers: u32,
    /// Notes for stderr before the run.
    pub notes: Vec<String>,
}

pub fn plan(a: &BonnieArgs, f: Facts) -> Result<BonniePlan, BonnieError> {
    let Some(free) = f.free_bytes else {
        return Err(BonnieError::Refused(format!(
            "-d {}: no such directory",
            a.dir.display()
        )));
    };
    let ram_mib = a.ram_mib.unwrap_or(f.ram_bytes >> 20);
    let size_mib = a.size_mib.unwrap_or(2 * (f.ram_bytes >> 20));
    if size_mib > 0 && ram_mib > 0 && size_mib < 2 * ram_mib {
        return Err(BonnieError::Refused(format!(
            "File size should be double RAM for good results, RAM is {ram_mib}MiB (-r 0 disables this check)"
        )));
    }
    let fits = free >> 20;
    if size_mib > fits {
        return Err(BonnieError::Refused(format!(
            "-s {size_mib}: {} has {fits} MiB free; the largest size that fits is -s {} (with -r {} or -r 0)",
            a.dir.display(),
            fits.saturating_sub(1),
            fits.saturating_sub(1) / 2
        )));
    }
    if size_mib > 0 && (size_mib << 20) < a.chunk {
        return Err(BonnieError::Refused(format!(
            "-s {size_mib}: smaller than the chunk size {}",
            a.chunk
        )));
    }
    let mut notes = a.notes.clone();
    notes.push("per-char output and input and rewrite are not measured yet by iomark bonnie: their fields stay empty".into());
    if a.files > 0 {
        notes.push(format!(
            "-n {}: the file tests (create/stat/delete) are not measured yet by iomark bonnie: their fields stay empty",
            a.file_spec
        ));
    }
    let file = a.dir.join(format!("Bonnie.{}", f.pid));
    let bytes = size_mib << 20;
    let job = |name: &str, rw: RwMode| JobSpec {
        name: name.to_string(),
        rw,
        bs: PerDir::all(BlockSize::Fixed(a.chunk)),
        size: Some(SizeSpec::Bytes(bytes)),
        filenames: vec![file.clone()],
        ioengine: EngineKind::Sync,
        direct: a.direct,
        fsync: u64::from(a.fsync),
        fadvise_hint: FadviseHint::Off,
        fallocate: FallocateMode::None,
        invalidate: false,
        stonewall: true,
        randseed: a.seed.unwrap_or(0x89),
        ..Default::default()
    };
    let mut run = RunPlan::default();
    if size_mib > 0 {
        run.jobs.push(job(BLOCK_OUT, RwMode::Write));
        run.jobs.push(job(BLOCK_IN, RwMode::Read));
        let seekers = a.seekers.max(1);
        run.jobs.push(JobSpec {
            rwmixread: 90,
            numjobs: seekers,
            number_ios: (a.seeks / seekers as u64).max(1),
            norandommap: true,
            unlink: true,
            ..job(SEEKS, RwMode::RandRw)
        });
    }
    Ok(BonniePlan {
        run,
        size_mib,
        chunk: a.chunk,
        seeks: a.seeks,
        seekers: a.seekers,
        notes,
    })
}

/// Whether `dir` looks usable (exists, is a directory); the engine reports what else fails.
pub fn dir_exists(dir: &Path) -> bool {
    dir.is_dir()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bonnie::args::parse;

    fn p(s: &str, ram: u64, free: Option<u64>) -> Result<BonniePlan, BonnieError> {
        let a = parse(&s.split_whitespace().map(String::from).collect::<Vec<_>>()).unwrap();
        plan(
            &a,
            Facts {
                ram_bytes: ram,
                free_bytes: free,
                pid: 42,
            },
        )
    }

    #[test]
    fn bulk_tests_in_order() {
        let b = p("-d /x -s 64:4096:100:4 -r 32 -D -b", 1 << 30, Some(1 << 40)).unwrap();
        let names: Vec<&str> = b.run.jobs.iter().map(|j| j.name.as_str()).collect();
        assert_eq!(names, [BLOCK_OUT, BLOCK_IN, SEEKS]);
        for j in &b.run.jobs {
            assert_eq!(j.filenames, vec![Path::new("/x/Bonnie.42").to_path_buf()]);
            assert_eq!(j.bs.read, BlockSize::Fixed(4096));
            assert!(j.direct && j.fsync == 1 && j.stonewall);
        }
        let s = &b.run.jobs[2];
        assert_eq!((s.numjobs, s.number_ios, s.rwmixread), (4, 25, 90));
        assert!(s.unlink);
    }

    #[test]
    fn default_size_is_twice_ram_and_checks() {
        let b = p("-d /x", 1 << 30, Some(1 << 40)).unwrap();
        assert_eq!(b.size_mib, 2048);
        let e = p("-d /x -s 100", 1 << 30, Some(1 << 40)).unwrap_err();
        assert!(e.to_string().contains("double RAM"), "{e}");
        assert!(p("-d /x -s 100 -r 0", 1 << 30, Some(1 << 40)).is_ok());
        let e = p("-d /x", 1 << 30, Some(1000 << 20)).unwrap_err();
        assert!(e.to_string().contains("-s 999"), "{e}");
        let e = p("-d /nope -s 10 -r 0", 1 << 30, None).unwrap_err();
        assert!(e.to_string().contains("/nope"), "{e}");
        assert!(p("-d /x -s 0 -n 0", 1 << 30, Some(1 << 40))
            .unwrap()
            .run
            .jobs
            .is_empty());
    }
}
