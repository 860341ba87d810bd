//! bonnie++'s tests in its order, as engine work: per-char output (one-byte writes of a new
//! file, then removed), block output (chunk-size writes growing a new file), rewrite (read a
//! chunk, change it, seek back, write it), per-char input (one-byte reads), block input
//! (sequential reads, page cache kept: the size of 2 x RAM is what keeps the cache out), random
//! seeks (seeker threads sharing random chunk tickets, each read, every tenth also written back;
//! the seekers remove the file as they end, as bonnie++'s do), then
//! the file tests (sequential and random create / stat / delete of `-n` files).

use super::args::{BonnieArgs, BonnieError};
use iomark_engine::fileops::bytewise::RewriteOpts;
use iomark_engine::fileops::fileset::{FileSetSpec, Links};
use iomark_engine::fileops::seeks::SeekOpts;
use iomark_engine::fileops::steps::{FileOp, FileSetSteps, FileStep};
use iomark_engine::job::{
    BlockSize, EngineKind, FadviseHint, FallocateMode, JobSpec, PerDir, RunPlan, RwMode, SizeSpec,
};
use iomark_engine::runner::steps::JobGroup;
use std::path::{Path, PathBuf};

pub const PUTC: &str = "bonnie-per-char-output";
pub const BLOCK_OUT: &str = "bonnie-block-output";
pub const REWRITE: &str = "bonnie-rewrite";
pub const GETC: &str = "bonnie-per-char-input";
pub const BLOCK_IN: &str = "bonnie-block-input";
pub const SEEKS: &str = "bonnie-random-seeks";
/// The file tests in bonnie++'s order.
pub const FILE_TESTS: [&str; 6] = [
    "bonnie-sequential-create",
    "bonnie-sequential-stat",
    "bonnie-sequential-delete",
    "bonnie-random-create",
    "bonnie-random-stat",
    "bonnie-random-delete",
];

/// The test file's name in the work directory.
pub const TEST_FILE: &str = "file";
/// The file tests' directory in the work directory.
pub const FILE_SET: &str = "files";

/// The per-char tests move at most this much, as bonnie++ 2.x does (3 MiB, or the file size
/// when smaller).
pub const CHAR_BYTES_MAX: u64 = 3 << 20;

/// What the plan needs to know about the machine and the directory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Facts {
    pub ram_bytes: u64,
    /// Free bytes in `-d` (None when the directory does not exist).
    pub free_bytes: Option<u64>,
    /// Files that can still be created in `-d` (None: no fixed count, or unknown).
    pub free_files: Option<u64>,
    /// Names the test file and directory (`Bonnie.PID`, as bonnie++ does).
    pub pid: u32,
    /// The errno that refuses creating files in `-d` (a read-only file system, permissions);
    /// None when files can be created there.
    pub unwritable: Option<i32>,
}

/// One step of a run, in bonnie++'s order.
#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    /// A phase on the test file (per-char output and input, rewrite, seeks).
    File(FileStep),
    /// Engine jobs (block output; block input).
    Engine(JobGroup),
    /// The six file tests.
    Files(FileSetSteps),
}

impl Step {
    /// The step as the engine runs it.
    pub fn as_step(&mut self) -> &mut dyn iomark_engine::runner::steps::Step {
        match self {
            Step::File(s) => s,
            Step::Engine(s) => s,
            Step::Files(s) => s,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct BonniePlan {
    pub steps: Vec<Step>,
    /// The private directory the run works in (`-d`/Bonnie.PID): made by the run (refused when
    /// anything is at that path), removed at its end.
    pub work_dir: PathBuf,
    /// The test file (in the work directory).
    pub file: PathBuf,
    pub size_mib: u64,
    pub chunk: u64,
    pub seeks: u64,
    pub seekers: u32,
    /// Bytes of the per-char tests.
    pub char_bytes: u64,
    /// `-c`: recorded in the CSV line (each test runs once, as in bonnie++ 2.00a).
    pub concurrency: u32,
    /// Notes for stderr before the run.
    pub notes: Vec<String>,
}

impl BonniePlan {
    /// Every engine job of the plan, in order (for result files).
    pub fn engine_jobs(&self) -> impl Iterator<Item = &JobSpec> {
        self.steps.iter().flat_map(|s| match s {
            Step::Engine(p) => p.0.jobs.iter(),
            _ => [].iter(),
        })
    }
}

/// Build the plan from the flags and what `f` says about the machine and the directory.
pub fn plan(a: &BonnieArgs, f: Facts) -> Result<BonniePlan, BonnieError> {
    let free = check_dir(a, f)?;
    let size_mib = test_size(a, f, free)?;
    check_file_tests(a, free, f.free_files)?;
    let mut notes = a.notes.clone();
    if a.direct {
        notes.push("-D: O_DIRECT for block output, rewrite, block input and seeks; the per-char tests cannot use it (one-byte I/O)".into());
    }
    let work_dir = a.dir.join(format!("Bonnie.{}", f.pid));
    let file = work_dir.join(TEST_FILE);
    let bytes = size_mib << 20;
    let seed = a.seed.unwrap_or(0x89);
    let char_bytes = bytes.min(a.char_bytes.unwrap_or(CHAR_BYTES_MAX));
    let mut steps = if size_mib > 0 {
        big_file_steps(a, &file, bytes, char_bytes, seed)
    } else {
        Vec::new()
    };
    if a.files > 0 {
        steps.push(Step::Files(FileSetSteps {
            names: FILE_TESTS.map(String::from),
            spec: FileSetSpec {
                root: work_dir.join(FILE_SET),
                count: a.files * 1024,
                min: a.file_min,
                max: a.file_max,
                dirs: a.file_dirs,
                chunk: a.file_chunk as usize,
                sync: a.fsync,
                seed,
                links: a.file_links,
            },
        }));
    }
    Ok(BonniePlan {
        steps,
        work_dir,
        file,
        size_mib,
        chunk: a.chunk,
        seeks: a.seeks,
        seekers: a.seekers,
        char_bytes,
        concurrency: a.concurrency,
        notes,
    })
}

/// The free bytes of `-d`, which must exist and, when a test writes, take new files.
fn check_dir(a: &BonnieArgs, f: Facts) -> Result<u64, BonnieError> {
    let Some(free) = f.free_bytes else {
        let why = if a.dir.exists() {
            "not a directory"
        } else {
            "no such directory"
        };
        return Err(BonnieError::Refused(format!(
            "-d {}: {why}",
            a.dir.display()
        )));
    };
    if let Some(errno) = f.unwritable {
        if a.size_mib != Some(0) || a.files > 0 {
            return Err(BonnieError::Refused(format!(
                "-d {}: cannot create files there: {}",
                a.dir.display(),
                std::io::Error::from_raw_os_error(errno)
            )));
        }
    }
    Ok(free)
}

/// The test file's size in MiB (`-s`, or 2 x RAM), refused when it is under 2 x RAM (unless
/// `-r 0`), does not fit in the `free` bytes or is smaller than a chunk.
fn test_size(a: &BonnieArgs, f: Facts, free: u64) -> Result<u64, BonnieError> {
    let ram_mib = a.ram_mib.unwrap_or(f.ram_bytes >> 20);
    let size_mib = a.size_mib.unwrap_or(2 * (f.ram_bytes >> 20));
    // As bonnie++: -c multiplies the size in the check (its copies would share the RAM).
    if size_mib > 0 && ram_mib > 0 && size_mib * u64::from(a.concurrency) < 2 * ram_mib {
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
    Ok(size_mib)
}

/// The file tests' refusals: their files must fit in the free files (inodes) and their
/// largest files in the `free` bytes, and symbolic
/// links cannot be spread over several directories.
fn check_file_tests(a: &BonnieArgs, free: u64, free_files: Option<u64>) -> Result<(), BonnieError> {
    let count = a.files * 1024;
    if let Some(n) = free_files.filter(|n| count > *n) {
        return Err(BonnieError::Refused(format!(
            "-n {}: {count} files, but {} can hold {n} more files",
            a.file_spec,
            a.dir.display()
        )));
    }
    let file_bytes = count.saturating_mul(a.file_max);
    if file_bytes > free {
        return Err(BonnieError::Refused(format!(
            "-n {}: {count} files of up to {} bytes need {} MiB, {} has {} MiB free",
            a.file_spec,
            a.file_max,
            file_bytes >> 20,
            a.dir.display(),
            free >> 20
        )));
    }
    if a.file_links == Links::Symbolic && a.file_dirs > 1 && a.files > 0 {
        return Err(BonnieError::Refused(format!(
            "-n {}: symbolic links hold the first file's bare name, so they resolve only in its directory and the stat test would fail (as it does in bonnie++): use one directory or hard links (-1)",
            a.file_spec
        )));
    }
    Ok(())
}

/// The tests of the `bytes`-byte test file, in bonnie++'s order: per-char output (unless
/// `-f`), block output, rewrite, per-char input (unless `-f`), block input, random seeks.
fn big_file_steps(
    a: &BonnieArgs,
    file: &Path,
    bytes: u64,
    char_bytes: u64,
    seed: u64,
) -> Vec<Step> {
    let job = |name: &str, rw: RwMode| block_job(a, file, bytes, seed, name, rw);
    let on_file = |name: &str, op: FileOp, remove_after: bool| {
        Step::File(FileStep {
            name: name.to_string(),
            path: file.to_path_buf(),
            op,
            remove_after,
        })
    };
    let mut steps = Vec::new();
    if !a.fast {
        // bonnie++ removes the per-char file: block output writes a new one.
        steps.push(on_file(
            PUTC,
            FileOp::WriteBytes { bytes: char_bytes },
            true,
        ));
    }
    // bonnie++ writes a new file and fsyncs it before its clock stops.
    steps.push(Step::Engine(JobGroup(RunPlan {
        jobs: vec![JobSpec {
            grow_file: true,
            end_fsync: true,
            ..job(BLOCK_OUT, RwMode::Write)
        }],
        ..Default::default()
    })));
    let rewrite = FileOp::Rewrite {
        chunk: a.chunk as usize,
        opts: RewriteOpts {
            direct: a.direct,
            fsync_each: a.fsync,
        },
    };
    steps.push(on_file(REWRITE, rewrite, false));
    if !a.fast {
        steps.push(on_file(
            GETC,
            FileOp::ReadBytes { bytes: char_bytes },
            false,
        ));
    }
    steps.push(Step::Engine(JobGroup(RunPlan {
        jobs: vec![job(BLOCK_IN, RwMode::Read)],
        ..Default::default()
    })));
    let seeks = FileOp::Seeks(SeekOpts {
        chunk: a.chunk as usize,
        count: a.seeks,
        seekers: a.seekers.max(1),
        direct: a.direct,
        sync: a.fsync,
        seed,
    });
    steps.push(on_file(SEEKS, seeks, true));
    steps
}

/// An engine job of chunk-size `rw` calls over the whole test file (block output, input).
fn block_job(
    a: &BonnieArgs,
    file: &Path,
    bytes: u64,
    seed: u64,
    name: &str,
    rw: RwMode,
) -> JobSpec {
    JobSpec {
        name: name.to_string(),
        rw,
        bs: PerDir::all(BlockSize::Fixed(a.chunk)),
        size: Some(SizeSpec::Bytes(bytes)),
        filenames: vec![file.to_path_buf()],
        ioengine: EngineKind::Sync,
        direct: a.direct,
        fsync: u64::from(a.fsync),
        fadvise_hint: FadviseHint::Off,
        fallocate: FallocateMode::None,
        invalidate: false,
        stonewall: true,
        randseed: seed,
        ..Default::default()
    }
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
                free_files: Some(1 << 30),
                pid: 42,
                unwritable: None,
            },
        )
    }

    fn names(b: &BonniePlan) -> Vec<String> {
        b.steps
            .iter()
            .flat_map(|s| match s {
                Step::File(f) => vec![f.name.clone()],
                Step::Engine(p) => p.0.jobs.iter().map(|j| j.name.clone()).collect(),
                Step::Files(_) => vec!["files".to_string()],
            })
            .collect()
    }

    #[test]
    fn tests_in_bonnies_order() {
        let b = p("-d /x -s 64:4096:100:4 -r 32 -D -b", 1 << 30, Some(1 << 40)).unwrap();
        assert_eq!(
            names(&b),
            [PUTC, BLOCK_OUT, REWRITE, GETC, BLOCK_IN, SEEKS, "files"]
        );
        assert_eq!(b.char_bytes, 3 << 20);
        for j in b.engine_jobs() {
            assert_eq!(
                j.filenames,
                vec![Path::new("/x/Bonnie.42/file").to_path_buf()]
            );
            assert_eq!(j.bs.read, BlockSize::Fixed(4096));
            assert!(j.direct && j.fsync == 1 && j.stonewall);
        }
        let jobs: Vec<_> = b.engine_jobs().collect();
        assert!(jobs[0].grow_file && jobs[0].end_fsync);
        assert_eq!(b.work_dir, Path::new("/x/Bonnie.42"));
        assert!(
            matches!(&b.steps[5], Step::File(FileStep { op: FileOp::Seeks(s), remove_after: true, .. }) if (s.count, s.seekers, s.chunk) == (100, 4, 4096) && s.direct && s.sync)
        );
        assert!(
            matches!(&b.steps[2], Step::File(FileStep { op: FileOp::Rewrite { chunk: 4096, opts }, .. }) if opts.direct && opts.fsync_each)
        );
        let Step::Files(f) = &b.steps[6] else {
            panic!()
        };
        assert_eq!(f.names, FILE_TESTS.map(String::from));
        let f = &f.spec;
        assert_eq!((f.count, f.max, f.dirs, f.chunk), (16 * 1024, 0, 1, 8192));
        assert!(f.sync);
        assert_eq!(f.root, Path::new("/x/Bonnie.42/files"));
        let small = p("-d /x -s 2 -r 0 -n 0", 1 << 30, Some(1 << 40)).unwrap();
        assert_eq!(small.char_bytes, 2 << 20);
        assert_eq!(names(&small).len(), 6);
        let fast = p("-d /x -s 2 -r 0 -n 0 -f", 1 << 30, Some(1 << 40)).unwrap();
        assert_eq!(names(&fast), [BLOCK_OUT, REWRITE, BLOCK_IN, SEEKS]);
        let e = p("-d /x -s 0 -n 1:-2:0:2", 1 << 30, Some(1 << 40)).unwrap_err();
        assert!(e.to_string().contains("-n 1:-2:0:2"), "{e}");
        let l = p("-d /x -s 0 -n 1:-1:0:2", 1 << 30, Some(1 << 40)).unwrap();
        assert!(
            matches!(&l.steps[0], Step::Files(f) if f.spec.links == Links::Hard && f.spec.dirs == 2)
        );
        let e = p("-d /x -s 0 -n 100:1g", 1 << 30, Some(1 << 40)).unwrap_err();
        assert!(e.to_string().contains("-n 100:1g"), "{e}");
        let e = p("-d /x -s 0 -n 1048577", 1 << 30, Some(1 << 40)).unwrap_err();
        assert!(
            e.to_string().contains("can hold 1073741824 more files"),
            "{e}"
        );
    }

    #[test]
    fn default_size_is_twice_ram_and_checks() {
        let b = p("-d /x", 1 << 30, Some(1 << 40)).unwrap();
        assert_eq!(b.size_mib, 2048);
        let e = p("-d /x -s 100", 1 << 30, Some(1 << 40)).unwrap_err();
        assert!(e.to_string().contains("double RAM"), "{e}");
        assert!(p("-d /x -s 100 -r 0", 1 << 30, Some(1 << 40)).is_ok());
        // -c multiplies the size in the RAM check, as in bonnie++.
        assert!(p("-d /x -s 100 -r 100 -c 2", 1 << 30, Some(1 << 40)).is_ok());
        assert!(p("-d /x -s 100 -r 101 -c 2", 1 << 30, Some(1 << 40)).is_err());
        let e = p("-d /x", 1 << 30, Some(1000 << 20)).unwrap_err();
        assert!(e.to_string().contains("-s 999"), "{e}");
        let a = parse(&[
            "-d".into(),
            "/ro".into(),
            "-s".into(),
            "8".into(),
            "-r".into(),
            "0".into(),
        ])
        .unwrap();
        let ro = Facts {
            ram_bytes: 1 << 30,
            free_bytes: Some(1 << 40),
            free_files: None,
            pid: 1,
            // EROFS (Linux).
            unwritable: Some(30),
        };
        let e = plan(&a, ro).unwrap_err().to_string();
        assert!(
            e.contains("-d /ro: cannot create files there: Read-only"),
            "{e}"
        );
        let e = p("-d /nope -s 10 -r 0", 1 << 30, None).unwrap_err();
        assert!(e.to_string().contains("/nope: no such directory"), "{e}");
        // The crate's own manifest: a file that exists wherever the tests run.
        let e = p("-d Cargo.toml -s 10 -r 0", 1 << 30, None).unwrap_err();
        assert!(e.to_string().contains("not a directory"), "{e}");
        assert!(p("-d /x -s 0 -n 0", 1 << 30, Some(1 << 40))
            .unwrap()
            .steps
            .is_empty());
    }
}
