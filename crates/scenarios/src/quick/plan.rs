//! quick's target choice and plan: the four tests, each read then write, one group each.

use super::args::QuickOpts;
use iomark_engine::engines::Capabilities;
use iomark_engine::job::{BlockSize, EngineKind, JobSpec, PerDir, RunPlan, RwMode, SizeSpec};
use iomark_engine::targets;
use std::fmt;
use std::path::{Path, PathBuf};

struct Test {
    label: &'static str,
    bs: u64,
    depth: u32,
    random: bool,
}

const TESTS: [Test; 4] = [
    Test {
        label: "SEQ1M Q8T1",
        bs: 1 << 20,
        depth: 8,
        random: false,
    },
    Test {
        label: "SEQ1M Q1T1",
        bs: 1 << 20,
        depth: 1,
        random: false,
    },
    Test {
        label: "RND4K Q32T1",
        bs: 4096,
        depth: 32,
        random: true,
    },
    Test {
        label: "RND4K Q1T1",
        bs: 4096,
        depth: 1,
        random: true,
    },
];

/// Which table row a job of the plan fills.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TestLabel {
    /// e.g. "RND4K Q32T1".
    pub label: &'static str,
    pub write: bool,
}

/// A ready plan and what was decided on the way.
#[derive(Clone, Debug)]
pub struct Prepared {
    pub plan: RunPlan,
    /// One per job of the plan, in order.
    pub labels: Vec<TestLabel>,
    /// The file or device the tests use.
    pub path: PathBuf,
    /// `path` is a temporary file: the caller removes it after the run (and on a signal).
    pub temp: bool,
    /// Size of the temporary file in bytes (after shrinking to fit the free space).
    pub size: u64,
    pub direct: bool,
    pub engine: EngineKind,
    /// What the user should know about these choices, in the order they were made.
    pub notices: Vec<Notice>,
}

/// Something quick decided that changes what is measured.
#[derive(Clone, Debug, PartialEq)]
pub enum Notice {
    /// The temporary file was made smaller to leave room for others.
    Shrunk {
        from: u64,
        to: u64,
        dir: PathBuf,
        free: u64,
    },
    /// An existing file or device without `--allow-write`: only the read tests run.
    ReadOnly(PathBuf),
    /// O_DIRECT does not work there: buffered I/O.
    Buffered,
    /// io_uring is not available: libaio instead.
    NoUring,
    /// A synchronous engine keeps one I/O in flight: only the queue-depth-1 tests run, as the
    /// deeper ones would repeat them.
    SyncEngine(EngineKind),
    /// A file an earlier quick run left behind (its process is gone) was removed.
    RemovedStale { path: PathBuf, pid: u32 },
}

impl fmt::Display for Notice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Notice::Shrunk { from, to, dir, free } => write!(
                f,
                "shrinking the test file from {} MiB to {} MiB to fit the free space of {} ({} MiB free)",
                from >> 20,
                to >> 20,
                dir.display(),
                free >> 20
            ),
            Notice::ReadOnly(p) => write!(
                f,
                "{} already exists; running the read tests only (pass --allow-write to also write to it, destroying its data)",
                p.display()
            ),
            Notice::Buffered => write!(
                f,
                "the filesystem does not support direct I/O; using buffered I/O (figures may include the page cache)"
            ),
            Notice::NoUring => write!(f, "io_uring is not available here; using libaio"),
            Notice::SyncEngine(e) => write!(
                f,
                "{} is synchronous (one I/O at a time), so the Q8 and Q32 tests would run at queue depth 1 and repeat the Q1T1 tests: running the Q1T1 tests only (--ioengine=io_uring or libaio for deeper queues)",
                e.name()
            ),
            Notice::RemovedStale { path, pid } => write!(
                f,
                "removed {}, left behind by an earlier quick run (process {pid} no longer exists)",
                path.display()
            ),
        }
    }
}

/// Why quick cannot run on the path given.
#[derive(Debug)]
pub enum PrepareError {
    /// PATH does not exist.
    Missing(PathBuf),
    /// Too little free space for a temporary file.
    NoSpace { free: u64, dir: PathBuf },
    /// The free space of the directory could not be read.
    Unusable {
        dir: PathBuf,
        source: std::io::Error,
    },
    /// The directory for the temporary file is on a read-only filesystem.
    ReadOnlyFs(PathBuf),
}

impl fmt::Display for PrepareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PrepareError::Missing(p) => write!(
                f,
                "{} does not exist (give a directory, a file or a block device)",
                p.display()
            ),
            PrepareError::NoSpace { free, dir } => write!(
                f,
                "only {} MiB free in {}; need at least 32 MiB",
                free >> 20,
                dir.display()
            ),
            PrepareError::Unusable { dir, source } => {
                write!(f, "cannot use {}: {source}", dir.display())
            }
            PrepareError::ReadOnlyFs(dir) => write!(
                f,
                "cannot create the test file in {}: read-only file system (give a writable directory, or an existing file or device to read)",
                dir.display()
            ),
        }
    }
}

impl std::error::Error for PrepareError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            PrepareError::Unusable { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// The names of the files quick creates in a directory: the test file and the direct I/O probe.
const OWN_FILES: [(&str, &str); 2] = [("iomark-quick.", ".tmp"), (".iomark-direct-probe.", "")];

/// The pid in the name of a file quick creates, if `name` is one.
fn own_file_pid(name: &str) -> Option<u32> {
    OWN_FILES.iter().find_map(|(pre, suf)| {
        let pid = name.strip_prefix(pre)?.strip_suffix(suf)?;
        (!pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit()))
            .then(|| pid.parse().ok())
            .flatten()
    })
}

fn process_exists(pid: u32) -> bool {
    Path::new(&format!("/proc/{pid}")).exists()
}

/// Remove the files an earlier quick run in `dir` left behind when it was killed (its process
/// no longer exists): regular files named as quick names them, with that process's pid.
fn remove_stale(dir: &Path) -> Vec<Notice> {
    let me = std::process::id();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for e in entries.flatten() {
        let name = e.file_name();
        let Some(pid) = name.to_str().and_then(own_file_pid) else {
            continue;
        };
        let regular = e.file_type().is_ok_and(|t| t.is_file());
        if pid == me || !regular || process_exists(pid) {
            continue;
        }
        let path = e.path();
        if std::fs::remove_file(&path).is_ok() {
            out.push(Notice::RemovedStale { path, pid });
        }
    }
    out.sort_by(|a, b| format!("{a}").cmp(&format!("{b}")));
    out
}

/// Whether files can be created in `dir` (a read-only filesystem is told apart).
fn check_creatable(dir: &Path) -> Result<(), PrepareError> {
    match probe_create(dir) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::ReadOnlyFilesystem => {
            Err(PrepareError::ReadOnlyFs(dir.to_path_buf()))
        }
        Err(source) => Err(PrepareError::Unusable {
            dir: dir.to_path_buf(),
            source,
        }),
    }
}

/// Whether a file can be created in `dir` (read-only filesystems and permissions say no).
pub(crate) fn probe_create(dir: &Path) -> std::io::Result<()> {
    create_probe(dir, false)
}

/// Whether O_DIRECT works for files in `dir`.
pub(crate) fn direct_supported(dir: &Path) -> bool {
    create_probe(dir, true).is_ok()
}

/// Create (and remove) a probe file in `dir`, with O_DIRECT when `direct`. The probe is made
/// exclusively and never through a symbolic link, and removed only when this call made it:
/// whatever already sits at its name is left alone.
fn create_probe(dir: &Path, direct: bool) -> std::io::Result<()> {
    use std::os::unix::fs::OpenOptionsExt;
    let probe = dir.join(format!(".iomark-direct-probe.{}", std::process::id()));
    let flags = libc::O_NOFOLLOW | if direct { libc::O_DIRECT } else { 0 };
    let r = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .custom_flags(flags)
        .open(&probe);
    match r {
        Ok(f) => {
            drop(f);
            let _ = std::fs::remove_file(&probe);
            Ok(())
        }
        Err(e) if direct && e.raw_os_error() == Some(libc::EINVAL) => {
            // O_DIRECT refused after the exclusive create: the name was free, so what is there
            // now is the probe.
            let _ = std::fs::remove_file(&probe);
            Err(e)
        }
        Err(e) => Err(e),
    }
}

fn engine_available(kind: EngineKind) -> bool {
    // Creating an engine with no files is enough to learn whether the kernel allows it.
    iomark_engine::engines::available(kind)
}

/// Choose the target (a temporary file in a directory, or an existing file or device), probe
/// direct I/O and the engine, and build the plan. Creates nothing but a short-lived probe file.
pub fn prepare(o: &QuickOpts) -> Result<Prepared, PrepareError> {
    let mut notices = Vec::new();
    let (file, temp, writable) = match &o.path {
        None => (None, true, true),
        Some(p) if p.is_dir() => (Some(p.clone()), true, true),
        Some(p) if p.exists() => (Some(p.clone()), false, o.allow_write),
        Some(p) => return Err(PrepareError::Missing(p.clone())),
    };
    let dir = if temp {
        file.clone().unwrap_or_else(|| PathBuf::from("."))
    } else {
        PathBuf::from(".")
    };
    let path = match (temp, file) {
        (false, Some(f)) => f,
        _ => dir.join(format!("iomark-quick.{}.tmp", std::process::id())),
    };
    let mut size = o.size;
    // Whether the plan gives the jobs a size: a temporary file, or a target without one of its own.
    let mut sized = temp;
    if temp {
        notices.extend(remove_stale(&dir));
        check_creatable(&dir)?;
        match targets::free_space(&dir) {
            Ok(free) => {
                // Leave room for others: use at most half of what is free.
                let cap = (free / 2) & !((1 << 20) - 1);
                if cap < (16 << 20) {
                    return Err(PrepareError::NoSpace { free, dir });
                }
                if size > cap {
                    notices.push(Notice::Shrunk {
                        from: size,
                        to: cap,
                        dir: dir.clone(),
                        free,
                    });
                    size = cap;
                }
            }
            Err(source) => return Err(PrepareError::Unusable { dir, source }),
        }
    } else {
        // An existing file or device: its own size is what the tests cover. A character device
        // (/dev/zero) has none: the tests cover --size of it (default 1g), as fio's size= does.
        match targets::probe(&path) {
            Ok(t) if t.size_bytes > 0 => size = t.size_bytes,
            _ => sized = true,
        }
        if !writable {
            notices.push(Notice::ReadOnly(path.clone()));
        }
    }
    let direct = direct_supported(if temp {
        &dir
    } else {
        path.parent().unwrap_or(Path::new("."))
    }) || (!temp && path.metadata().map(|m| !m.is_file()).unwrap_or(false));
    if !direct {
        notices.push(Notice::Buffered);
    }
    let engine = o.engine.unwrap_or_else(|| {
        if engine_available(EngineKind::IoUring) {
            EngineKind::IoUring
        } else {
            notices.push(Notice::NoUring);
            EngineKind::Libaio
        }
    });
    if engine.is_sync() {
        notices.push(Notice::SyncEngine(engine));
    }
    let (plan, labels) = build_plan(o, &path, sized.then_some(size), writable, direct, engine);
    Ok(Prepared {
        plan,
        labels,
        path,
        temp,
        size,
        direct,
        engine,
        notices,
    })
}

/// The plan: each test read then (when `writable`) write, one stonewalled group per job.
/// `size` is the file size to lay out (a temporary file), None for an existing target. A
/// synchronous engine runs only the queue-depth-1 tests: what runs is what the rows say.
fn build_plan(
    o: &QuickOpts,
    path: &Path,
    size: Option<u64>,
    writable: bool,
    direct: bool,
    engine: EngineKind,
) -> (RunPlan, Vec<TestLabel>) {
    let mut plan = RunPlan::default();
    let mut labels = Vec::new();
    for t in TESTS.iter().filter(|t| t.depth == 1 || !engine.is_sync()) {
        for write in [false, true] {
            if write && !writable {
                continue;
            }
            let rw = match (t.random, write) {
                (false, false) => RwMode::Read,
                (false, true) => RwMode::Write,
                (true, false) => RwMode::RandRead,
                (true, true) => RwMode::RandWrite,
            };
            let mut j = JobSpec {
                name: format!(
                    "{}-{}",
                    t.label.replace(' ', "-"),
                    if write { "write" } else { "read" }
                ),
                group_id: plan.jobs.len() as u32,
                stonewall: true,
                rw,
                bs: PerDir::all(BlockSize::Fixed(t.bs)),
                size: size.map(SizeSpec::Bytes),
                filenames: vec![path.to_path_buf()],
                runtime: Some(o.runtime),
                time_based: true,
                ramp_time: o.ramp,
                ioengine: if t.depth == 1 {
                    EngineKind::Psync
                } else {
                    engine
                },
                iodepth: t.depth,
                iodepth_low: t.depth,
                direct,
                norandommap: true,
                ..Default::default()
            };
            j.stats.lat_percentiles = true;
            j.shown_options = vec![
                ("rw".into(), rw.fio_name().into()),
                ("bs".into(), t.bs.to_string()),
                ("iodepth".into(), t.depth.to_string()),
            ]
            .into();
            plan.jobs.push(j);
            labels.push(TestLabel {
                label: t.label,
                write,
            });
        }
    }
    (plan, labels)
}

/// quick's plan on a 1 GiB temporary file with libaio and direct I/O (to compare with the cdm
/// Standard preset).
#[cfg(test)]
pub(crate) fn plan_for_tests(o: &QuickOpts) -> (RunPlan, Vec<TestLabel>) {
    build_plan(
        o,
        Path::new("/tmp/x"),
        Some(o.size),
        true,
        true,
        EngineKind::Libaio,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plan_has_the_four_tests_read_then_write() {
        let o = QuickOpts::default();
        let p = Path::new("/x/f");
        let (plan, labels) = build_plan(&o, p, Some(64 << 20), true, true, EngineKind::Libaio);
        let names: Vec<&str> = plan.jobs.iter().map(|j| j.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "SEQ1M-Q8T1-read",
                "SEQ1M-Q8T1-write",
                "SEQ1M-Q1T1-read",
                "SEQ1M-Q1T1-write",
                "RND4K-Q32T1-read",
                "RND4K-Q32T1-write",
                "RND4K-Q1T1-read",
                "RND4K-Q1T1-write"
            ]
        );
        assert_eq!(labels.len(), 8);
        assert_eq!(
            labels[5],
            TestLabel {
                label: "RND4K Q32T1",
                write: true
            }
        );
        let j = &plan.jobs[4];
        assert_eq!(j.rw, RwMode::RandRead);
        assert_eq!(j.iodepth, 32);
        assert_eq!(j.ioengine, EngineKind::Libaio);
        assert_eq!(j.group_id, 4);
        assert!(j.stonewall && j.time_based && j.direct && j.norandommap);
        assert_eq!(plan.jobs[6].ioengine, EngineKind::Psync);
        assert!(matches!(j.size, Some(SizeSpec::Bytes(s)) if s == 64 << 20));
        // An existing target without --allow-write: reads only, no size.
        let (plan, labels) = build_plan(&o, p, None, false, true, EngineKind::IoUring);
        assert_eq!(plan.jobs.len(), 4);
        assert!(labels.iter().all(|l| !l.write));
        assert!(plan.jobs.iter().all(|j| j.size.is_none()));
    }

    #[test]
    fn a_sync_engine_runs_only_what_its_labels_say() {
        let o = QuickOpts::default();
        let p = Path::new("/x/f");
        let (plan, labels) = build_plan(&o, p, Some(64 << 20), true, true, EngineKind::Psync);
        assert_eq!(plan.jobs.len(), 4);
        for (j, l) in plan.jobs.iter().zip(&labels) {
            assert!(l.label.ends_with("Q1T1"), "{}", l.label);
            assert_eq!(j.iodepth, 1);
            assert_eq!(j.ioengine, EngineKind::Psync);
        }
        let said = Notice::SyncEngine(EngineKind::Psync).to_string();
        assert!(said.starts_with("psync is synchronous"), "{said}");
    }

    #[test]
    fn stale_files_of_dead_processes_are_removed() {
        assert_eq!(own_file_pid("iomark-quick.123.tmp"), Some(123));
        assert_eq!(own_file_pid(".iomark-direct-probe.77"), Some(77));
        assert_eq!(own_file_pid("iomark-quick..tmp"), None);
        assert_eq!(own_file_pid("iomark-quick.12x.tmp"), None);
        assert_eq!(own_file_pid("iomark-quick.12.tmp.bak"), None);
        let d = tempfile::tempdir().unwrap();
        let d = d.path();
        // A pid above the kernel's limit never exists; ours and init's do.
        let dead = 4_194_305u32;
        let me = std::process::id();
        for pid in [dead, me, 1] {
            std::fs::write(d.join(format!("iomark-quick.{pid}.tmp")), b"x").unwrap();
        }
        std::fs::create_dir(d.join(format!("iomark-quick.{}.tmp", dead + 1))).unwrap();
        std::fs::write(d.join("other.tmp"), b"x").unwrap();
        let n = remove_stale(d);
        assert_eq!(n.len(), 1, "{n:?}");
        assert!(
            n[0].to_string()
                .contains(&format!("iomark-quick.{dead}.tmp, left behind by an earlier quick run (process {dead} no longer exists)")),
            "{}",
            n[0]
        );
        let mut left: Vec<String> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        left.sort();
        let mut want = vec![
            format!("iomark-quick.{}.tmp", dead + 1),
            "iomark-quick.1.tmp".to_string(),
            format!("iomark-quick.{me}.tmp"),
            "other.tmp".to_string(),
        ];
        want.sort();
        assert_eq!(left, want);
    }

    #[test]
    fn a_missing_path_is_refused() {
        let o = QuickOpts {
            path: Some(PathBuf::from("/nonexistent/iomark-quick-test")),
            ..Default::default()
        };
        let e = prepare(&o).unwrap_err();
        assert_eq!(
            e.to_string(),
            "/nonexistent/iomark-quick-test does not exist (give a directory, a file or a block device)"
        );
    }
}
