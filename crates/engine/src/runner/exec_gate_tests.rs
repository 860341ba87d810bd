//! The exec engine's `JOB.stdout` and `JOB.stderr` pass the gate for written files before any
//! I/O: a run whose output file would be a directory, a FIFO or a missing device is refused
//! before the program starts.

use super::{run, RunCtl, RunError};
use crate::job::{EngineKind, ExecProgram, JobSpec, RunPlan};
use crate::test_support::TempDir;
use std::path::Path;
use std::time::Duration;

/// An exec job named `name` whose program creates `marker`.
fn exec_job(name: &Path, marker: &Path) -> JobSpec {
    let mut j = JobSpec {
        name: name.to_string_lossy().into_owned(),
        ioengine: EngineKind::Exec,
        runtime: Some(Duration::from_millis(100)),
        time_based: true,
        ..Default::default()
    };
    j.engine_options.exec = ExecProgram {
        program: Some("touch".into()),
        arguments: Some(marker.to_string_lossy().into_owned()),
        grace_time_s: Some(0),
        ..Default::default()
    };
    j
}

fn run_job(j: JobSpec) -> Result<crate::RunResult, RunError> {
    let plan = RunPlan {
        jobs: vec![j],
        ..Default::default()
    };
    run(&plan, &RunCtl::quiet())
}

#[test]
fn output_files_that_are_not_plain_files_are_refused_before_the_program_runs() {
    let dir = TempDir::new("exec-gate");
    let name = dir.join("j");
    let marker = dir.join("ran");
    // JOB.stdout a directory.
    std::fs::create_dir(dir.join("j.stdout")).unwrap();
    let e = run_job(exec_job(&name, &marker)).unwrap_err();
    assert!(
        matches!(&e, RunError::IsDirectory { job, .. } if job == &*name.to_string_lossy()),
        "{e}"
    );
    assert!(!marker.exists());
    // JOB.stderr a FIFO (opening it would hang the job).
    std::fs::remove_dir(dir.join("j.stdout")).unwrap();
    let fifo = std::ffi::CString::new(dir.join("j.stderr").to_string_lossy().as_bytes()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
    let e = run_job(exec_job(&name, &marker)).unwrap_err();
    assert!(matches!(e, RunError::NotFileOrDevice { .. }), "{e}");
    assert!(!marker.exists());
    assert!(
        !dir.join("j.stdout").exists(),
        "nothing is created before the checks pass"
    );
    // A new file on the device filesystem.
    let e = run_job(exec_job(Path::new("/dev/iomark-no-such-job"), &marker)).unwrap_err();
    assert!(matches!(e, RunError::NoSuchDevice { .. }), "{e}");
    assert!(!marker.exists());
}

#[test]
fn output_files_are_written_once_they_pass_and_not_checked_without_redirection() {
    let dir = TempDir::new("exec-gate-ok");
    let name = dir.join("j");
    let marker = dir.join("ran");
    let r = run_job(exec_job(&name, &marker)).unwrap();
    assert_eq!(r.jobs[0].error, 0, "{:?}", r.jobs[0].failure);
    assert!(marker.exists());
    assert!(dir.join("j.stdout").is_file() && dir.join("j.stderr").is_file());
    // std_redirect=0: the program's output is the job's own, no file is made or checked.
    std::fs::remove_file(&marker).unwrap();
    std::fs::remove_file(dir.join("j.stdout")).unwrap();
    std::fs::create_dir(dir.join("j.stdout")).unwrap();
    let mut j = exec_job(&name, &marker);
    j.engine_options.exec.std_redirect = Some(false);
    let r = run_job(j).unwrap();
    assert_eq!(r.jobs[0].error, 0, "{:?}", r.jobs[0].failure);
    assert!(marker.exists());
}
