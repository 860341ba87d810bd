//! Runs made of steps: the classic tools' tests run in order, each a [`Step`] (a job group, a
//! timed phase of file operations, a tree of files written by threads, a group of timed passes),
//! through one path that checks the files before any I/O, works in a private directory the run
//! made, stops between steps on a stop request or a failed step, removes what the run made, and
//! assembles one result from every step's jobs.
//!
//! The gate: a run that makes its own files does so in a fresh directory it creates itself
//! (mode 0700, refused when anything is already at that path, so no file of someone else's is
//! ever opened, truncated or removed, and no planted symbolic link is followed); files a user
//! names to be written ([`StepRun::named_files`]) are refused when they are a device, a
//! directory, a FIFO or socket, a path on the device filesystem that does not exist, or the
//! backing file of an attached loop device. Files the steps make themselves next to the user's
//! ([`StepRun::scratch_files`]) pass the same checks and are removed at the end through
//! [`remove_scratch`]: only those the run created (nothing was at their path when it started),
//! only regular files, never one that existed before the run.

use super::{RunCtl, RunError};
use crate::job::RunPlan;
use crate::note::Note;
use crate::result::{JobResult, RunResult};
use crate::sys;
use crate::targets;
use std::os::unix::fs::{DirBuilderExt, FileTypeExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;

/// What a step did.
#[derive(Debug, Default)]
pub struct StepOutcome {
    /// Its jobs, for the result.
    pub jobs: Vec<JobResult>,
    /// The step failed (an I/O error): the run stops after it.
    pub failed: bool,
    /// Notes for the result.
    pub notes: Vec<Note>,
    /// A refusal of a job group (the run stops there; earlier steps' results are kept).
    pub refused: Option<RunError>,
}

impl StepOutcome {
    /// An outcome of `jobs`, failed when one of them has an error.
    pub fn of_jobs(jobs: Vec<JobResult>) -> StepOutcome {
        StepOutcome {
            failed: jobs.iter().any(|j| j.error != 0),
            jobs,
            ..Default::default()
        }
    }
}

/// One step of a run.
pub trait Step {
    /// Run it, stopping early when `ctl.stop` is set.
    fn run(&mut self, ctl: &RunCtl) -> StepOutcome;
    /// The fio-style jobs it runs, if any (recorded in the result's plan).
    fn plan(&self) -> Option<&RunPlan> {
        None
    }
}

/// A group of engine jobs (with the runner's own checks, layout and workers).
#[derive(Clone, Debug, PartialEq)]
pub struct JobGroup(pub RunPlan);

impl Step for JobGroup {
    fn run(&mut self, ctl: &RunCtl) -> StepOutcome {
        match super::run(&self.0, ctl) {
            Ok(r) => StepOutcome {
                notes: r.notes,
                ..StepOutcome::of_jobs(r.jobs)
            },
            Err(e) => StepOutcome {
                failed: true,
                refused: Some(e),
                ..Default::default()
            },
        }
    }
    fn plan(&self) -> Option<&RunPlan> {
        Some(&self.0)
    }
}

/// How a run of steps treats the file system.
#[derive(Clone, Debug, Default)]
pub struct StepRun {
    /// The private directory the run works in: created (mode 0700) before the first step,
    /// refused when anything is at its path, removed with everything in it at the end.
    pub work_dir: Option<PathBuf>,
    /// Files the user named for the steps to write (they may exist: the user asked for them to
    /// be overwritten), checked before any step runs.
    pub named_files: Vec<PathBuf>,
    /// Files the steps create (and may re-create) beside the user's own, removed at the end
    /// unless `keep`; checked as `named_files` before any step runs. One that existed when the
    /// run started was not made by it and is never removed.
    pub scratch_files: Vec<PathBuf>,
    /// Keep the work directory and the scratch files at the end (the user asked to keep the
    /// files).
    pub keep: bool,
}

/// What a run of steps ended with: the result of the steps that ran, and the refusal that
/// stopped it midway, if one did.
#[derive(Debug)]
pub struct StepsOutcome {
    pub result: RunResult,
    pub refused: Option<RunError>,
}

/// Refuse a file a user named for writing that must not be written (see the module's words).
pub fn check_named_file(path: &Path) -> Result<(), RunError> {
    let job = String::new();
    match std::fs::metadata(path) {
        Ok(m) => {
            let t = m.file_type();
            let what = if t.is_block_device() || t.is_char_device() {
                Some("a device")
            } else if t.is_dir() {
                return Err(RunError::IsDirectory {
                    job,
                    path: path.to_path_buf(),
                });
            } else if t.is_fifo() {
                Some("a FIFO (named pipe)")
            } else if t.is_socket() {
                Some("a socket")
            } else {
                None
            };
            if let Some(what) = what {
                return Err(RunError::NotFileOrDevice {
                    job,
                    path: path.to_path_buf(),
                    what: what.to_string(),
                });
            }
            if let Some((loop_dev, reason)) = targets::backed_loop_in_use(path) {
                return Err(RunError::BackingFile {
                    path: path.to_path_buf(),
                    loop_dev,
                    reason,
                });
            }
            writable(path, path)
        }
        Err(_) if targets::missing_device_path(path) => Err(RunError::NoSuchDevice {
            job,
            path: path.to_path_buf(),
        }),
        Err(_) => {
            let dir = match path.parent() {
                Some(d) if !d.as_os_str().is_empty() => d,
                _ => Path::new("."),
            };
            writable(dir, dir)
        }
    }
}

/// Cut a file a user named for writing to `size` bytes (or extend it, sparse), as GNU dd does
/// to its output when it opens it without conv=notrunc: only a regular file, and only after it
/// passed the gate of named files ([`check_named_file`]); a block device (which GNU dd does not
/// truncate either) and a path that does not exist yet (the job creates it) are left as they
/// are. Whether the file was cut.
pub fn truncate_named_file(path: &Path, size: u64) -> Result<bool, RunError> {
    use std::os::unix::fs::OpenOptionsExt;
    match std::fs::metadata(path) {
        Ok(m) if m.file_type().is_block_device() => return Ok(false),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            if targets::missing_device_path(path) {
                check_named_file(path)?;
            }
            return Ok(false);
        }
        _ => {}
    }
    check_named_file(path)?;
    let failed = |source: std::io::Error| RunError::TruncateFailed {
        job: String::new(),
        path: path.to_path_buf(),
        bytes: size,
        source,
    };
    // No O_CREAT: what the gate passed is what is cut; O_NONBLOCK so that a FIFO put in its
    // place since cannot block the open (it is then left alone, as is anything not regular).
    let f = std::fs::OpenOptions::new()
        .write(true)
        .custom_flags(libc::O_NOCTTY | libc::O_NONBLOCK)
        .open(path)
        .map_err(failed)?;
    if !f.metadata().map_err(failed)?.is_file() {
        return Ok(false);
    }
    f.set_len(size).map_err(failed)?;
    Ok(true)
}

/// Remove the socket an earlier run left at the path of a unix-socket listener (nothing there:
/// nothing to do): binding creates the socket, so fio removes the old one first. Anything else
/// at the path (a file, a directory, a symbolic link even to a socket, a device, a FIFO) is
/// refused and stays; the check looks again, without following a link, as it removes.
pub fn remove_stale_socket(path: &Path) -> Result<(), RunError> {
    if let Some(what) = targets::not_a_socket(path) {
        return Err(RunError::NotASocket {
            job: String::new(),
            path: path.to_path_buf(),
            what,
        });
    }
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(RunError::SocketRemoveFailed {
            job: String::new(),
            path: path.to_path_buf(),
            source: e,
        }),
        _ => Ok(()),
    }
}

/// Whether `path` (the named file, or the directory it is to be created in) may be written:
/// a read-only filesystem or a missing permission is said before any step runs, with `dir`.
fn writable(path: &Path, dir: &Path) -> Result<(), RunError> {
    use std::os::unix::ffi::OsStrExt;
    let Ok(c) = std::ffi::CString::new(path.as_os_str().as_bytes()) else {
        return Ok(());
    };
    // SAFETY: `c` is a valid NUL-terminated path; access() only reads it.
    if unsafe { libc::access(c.as_ptr(), libc::W_OK) } == 0 {
        return Ok(());
    }
    Err(RunError::DirectoryUnusable {
        dir: dir.to_path_buf(),
        source: std::io::Error::last_os_error(),
    })
}

/// Remove a scratch file the run made: only a regular file (not a symbolic link, a directory,
/// a device, ...), only when nothing was at its path before the run (`existed`: what was
/// there when it started), never the backing file of a loop device. Whether it was removed.
pub fn remove_scratch(path: &Path, existed: bool) -> bool {
    let regular = std::fs::symlink_metadata(path).is_ok_and(|m| m.is_file());
    if existed || !regular || !targets::loops_backed_by(path).is_empty() {
        return false;
    }
    std::fs::remove_file(path).is_ok()
}

/// Make the private work directory: exclusively (nothing may be at its path, a symbolic link
/// included), mode 0700.
fn make_work_dir(dir: &Path) -> Result<(), RunError> {
    std::fs::DirBuilder::new()
        .mode(0o700)
        .create(dir)
        .map_err(|source| RunError::WorkDir {
            path: dir.to_path_buf(),
            source,
        })
}

/// Check everything up front, then run `steps` in order (see the module's words).
pub fn run_steps(
    setup: &StepRun,
    steps: &mut [&mut dyn Step],
    ctl: &RunCtl,
) -> Result<StepsOutcome, RunError> {
    for f in setup.named_files.iter().chain(&setup.scratch_files) {
        check_named_file(f)?;
    }
    // What was at the scratch files' paths before any step: those are never removed.
    let existed: Vec<bool> = setup
        .scratch_files
        .iter()
        .map(|f| std::fs::symlink_metadata(f).is_ok())
        .collect();
    if let Some(d) = &setup.work_dir {
        make_work_dir(d)?;
    }
    let start_unix_ms = sys::unix_ms();
    let mut plan = RunPlan::default();
    let mut jobs: Vec<JobResult> = Vec::new();
    let mut notes: Vec<Note> = Vec::new();
    let mut refused = None;
    for step in steps.iter_mut() {
        if ctl.stop.load(Ordering::Relaxed) {
            break;
        }
        if let Some(p) = step.plan() {
            plan.jobs.extend(p.jobs.iter().cloned());
        }
        let out = step.run(ctl);
        jobs.extend(out.jobs);
        notes.extend(out.notes);
        if out.refused.is_some() {
            refused = out.refused;
            break;
        }
        if out.failed {
            break;
        }
    }
    if let (Some(d), false) = (&setup.work_dir, setup.keep) {
        let _ = std::fs::remove_dir_all(d);
    }
    if !setup.keep {
        for (f, &was) in setup.scratch_files.iter().zip(&existed) {
            remove_scratch(f, was);
        }
    }
    for j in &jobs {
        notes.extend(j.notes.iter().cloned());
    }
    notes.dedup();
    let interrupted = ctl.interrupted.load(Ordering::Relaxed) || ctl.stop.load(Ordering::Relaxed);
    let result = RunResult {
        interrupted,
        notes,
        command_line: ctl.command_line.clone(),
        ..RunResult::assemble(&plan, start_unix_ms, sys::host_info(), jobs)
    };
    Ok(StepsOutcome { result, refused })
}

/// [`run_steps`] over steps of one type.
pub fn run_all<S: Step>(
    setup: &StepRun,
    steps: &mut [S],
    ctl: &RunCtl,
) -> Result<StepsOutcome, RunError> {
    let mut each: Vec<&mut dyn Step> = steps.iter_mut().map(|s| s as &mut dyn Step).collect();
    run_steps(setup, &mut each, ctl)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;
    use std::sync::Arc;

    struct Counted {
        runs: Arc<AtomicUsize>,
        fail: bool,
    }

    impl Step for Counted {
        fn run(&mut self, _: &RunCtl) -> StepOutcome {
            self.runs.fetch_add(1, Ordering::SeqCst);
            StepOutcome {
                jobs: vec![JobResult {
                    name: format!("s{}", self.runs.load(Ordering::SeqCst)),
                    ..Default::default()
                }],
                failed: self.fail,
                ..Default::default()
            }
        }
    }

    #[test]
    fn steps_run_in_order_until_one_fails_and_the_work_dir_is_private_and_removed() {
        let tmp = tempfile::tempdir().unwrap();
        let work = tmp.path().join("w");
        let runs = Arc::new(AtomicUsize::new(0));
        let mut a = Counted {
            runs: runs.clone(),
            fail: false,
        };
        let mut b = Counted {
            runs: runs.clone(),
            fail: true,
        };
        let mut c = Counted {
            runs: runs.clone(),
            fail: false,
        };
        let setup = StepRun {
            work_dir: Some(work.clone()),
            ..Default::default()
        };
        let out = run_steps(&setup, &mut [&mut a, &mut b, &mut c], &RunCtl::quiet()).unwrap();
        assert_eq!(runs.load(Ordering::SeqCst), 2);
        assert_eq!(out.result.jobs.len(), 2);
        assert!(!out.result.interrupted && out.refused.is_none());
        assert!(!work.exists());
        // Anything at the work directory's path is refused and left alone.
        std::os::unix::fs::symlink(tmp.path().join("elsewhere"), &work).unwrap();
        let e = run_steps(&setup, &mut [&mut a], &RunCtl::quiet()).unwrap_err();
        assert!(matches!(e, RunError::WorkDir { .. }), "{e}");
        assert!(std::fs::symlink_metadata(&work).is_ok());
        assert!(!tmp.path().join("elsewhere").exists());
    }

    /// A step that writes its scratch files.
    struct Writes(Vec<PathBuf>);

    impl Step for Writes {
        fn run(&mut self, _: &RunCtl) -> StepOutcome {
            for f in &self.0 {
                std::fs::write(f, b"made by the run").unwrap();
            }
            StepOutcome::default()
        }
    }

    /// The scratch files the run made are removed at the end (kept with `keep`); one that was
    /// there before the run is never removed, nor is anything but a regular file.
    #[test]
    fn only_scratch_files_the_run_made_are_removed() {
        let tmp = tempfile::tempdir().unwrap();
        let (made, before) = (tmp.path().join("made"), tmp.path().join("before"));
        std::fs::write(&before, b"the user's").unwrap();
        let mut step = Writes(vec![made.clone(), before.clone()]);
        let mut setup = StepRun {
            scratch_files: vec![made.clone(), before.clone()],
            keep: true,
            ..Default::default()
        };
        run_all(&setup, std::slice::from_mut(&mut step), &RunCtl::quiet()).unwrap();
        assert!(made.exists() && before.exists());
        std::fs::remove_file(&made).unwrap();
        setup.keep = false;
        run_all(&setup, std::slice::from_mut(&mut step), &RunCtl::quiet()).unwrap();
        assert!(!made.exists());
        assert_eq!(std::fs::read(&before).unwrap(), b"made by the run");
        // Only a regular file: a symbolic link stays, and so does what it points to.
        std::os::unix::fs::symlink(&before, &made).unwrap();
        assert!(!remove_scratch(&made, false));
        assert!(made.symlink_metadata().is_ok() && before.exists());
        // A scratch file that is a directory is refused before any step runs.
        let dir = tmp.path().join("dir");
        std::fs::create_dir(&dir).unwrap();
        let setup = StepRun {
            scratch_files: vec![dir.clone()],
            ..Default::default()
        };
        let e = run_all(&setup, std::slice::from_mut(&mut step), &RunCtl::quiet()).unwrap_err();
        assert!(matches!(e, RunError::IsDirectory { .. }), "{e}");
        assert!(dir.is_dir());
    }

    #[test]
    fn a_stop_before_a_step_ends_the_run_marked_interrupted() {
        let runs = Arc::new(AtomicUsize::new(0));
        let mut a = Counted {
            runs: runs.clone(),
            fail: false,
        };
        let ctl = RunCtl::quiet();
        ctl.stop.store(true, Ordering::SeqCst);
        let out = run_steps(&StepRun::default(), &mut [&mut a], &ctl).unwrap();
        assert_eq!(runs.load(Ordering::SeqCst), 0);
        assert!(out.result.interrupted);
    }

    #[test]
    fn named_files_that_are_not_plain_files_are_refused() {
        let tmp = tempfile::tempdir().unwrap();
        assert!(matches!(
            check_named_file(tmp.path()),
            Err(RunError::IsDirectory { .. })
        ));
        assert!(check_named_file(&tmp.path().join("new")).is_ok());
        assert!(matches!(
            check_named_file(Path::new("/dev/null")),
            Err(RunError::NotFileOrDevice { .. })
        ));
        assert!(matches!(
            check_named_file(Path::new("/dev/iomark-no-such-disk")),
            Err(RunError::NoSuchDevice { .. })
        ));
    }

    #[test]
    fn named_files_are_truncated_only_when_regular_and_through_the_gate() {
        let tmp = tempfile::tempdir().unwrap();
        let f = tmp.path().join("out");
        std::fs::write(&f, vec![7u8; 8192]).unwrap();
        assert!(truncate_named_file(&f, 1024).unwrap());
        assert_eq!(std::fs::metadata(&f).unwrap().len(), 1024);
        // Extended sparse to seek=, as GNU dd's ftruncate does.
        assert!(truncate_named_file(&f, 4096).unwrap());
        assert_eq!(std::fs::metadata(&f).unwrap().len(), 4096);
        // A file that does not exist is left for the job to create.
        assert!(!truncate_named_file(&tmp.path().join("new"), 0).unwrap());
        assert!(!tmp.path().join("new").exists());
        // What the gate refuses is refused: a directory, a character device, a FIFO.
        assert!(matches!(
            truncate_named_file(tmp.path(), 0),
            Err(RunError::IsDirectory { .. })
        ));
        assert!(matches!(
            truncate_named_file(Path::new("/dev/null"), 0),
            Err(RunError::NotFileOrDevice { .. })
        ));
        let fifo = tmp.path().join("fifo");
        let c = std::ffi::CString::new(fifo.to_string_lossy().as_bytes()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        assert!(matches!(
            truncate_named_file(&fifo, 0),
            Err(RunError::NotFileOrDevice { .. })
        ));
    }

    /// The gate removes only a socket at a listener's path: a regular file, a symbolic link
    /// (even to a socket) stay, refused, and so does the socket the link points to.
    #[test]
    fn only_a_socket_is_removed() {
        let d = crate::test_support::TempDir::new("socket-gate");
        let sock = d.join("s");
        drop(std::os::unix::net::UnixListener::bind(&sock).unwrap());
        assert_eq!(targets::not_a_socket(&sock), None);
        remove_stale_socket(&sock).unwrap();
        assert!(!sock.exists());
        // Nothing there: nothing to do.
        remove_stale_socket(&sock).unwrap();
        let file = d.join("f");
        std::fs::write(&file, b"keep").unwrap();
        assert!(matches!(
            remove_stale_socket(&file),
            Err(RunError::NotASocket {
                what: "a regular file",
                ..
            })
        ));
        assert_eq!(std::fs::read(&file).unwrap(), b"keep");
        let s2 = d.join("s2");
        let _l2 = std::os::unix::net::UnixListener::bind(&s2).unwrap();
        let link = d.join("l");
        std::os::unix::fs::symlink(&s2, &link).unwrap();
        assert!(matches!(
            remove_stale_socket(&link),
            Err(RunError::NotASocket {
                what: "a symbolic link",
                ..
            })
        ));
        assert!(link.symlink_metadata().is_ok() && s2.exists());
        let sub = d.join("dir");
        std::fs::create_dir(&sub).unwrap();
        assert!(remove_stale_socket(&sub).is_err());
        assert!(sub.is_dir());
    }
}
