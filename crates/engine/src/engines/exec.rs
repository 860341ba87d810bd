//! The exec engine: the job's first I/O starts a program (`program`, with `arguments` split at
//! spaces after fio's `%r`/`%n` substitutions), its output into `JOB.stdout` and `JOB.stderr`
//! in the working directory unless `std_redirect=0`; each later I/O waits 50 ms, and once the
//! job's runtime has passed sends the program SIGTERM and waits `grace_time` seconds. The job
//! thinks 50 ms between I/Os, as fio's engine sets it. When the job ends, a program still
//! running is killed (SIGKILL) and reaped. No data moves: the I/Os are counted without bytes.

use super::{Engine, EngineDecl, EngineFlags, EngineKind, EngineOption, IoUnit, Queued};
use crate::job::{ExecProgram, JobSpec};
use std::fs::File;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The wait of each I/O after the first, and the think time between I/Os (fio's 50 ms).
const TICK: Duration = Duration::from_millis(50);

/// Runs a program for the job's time.
pub(crate) const DECL: EngineDecl = EngineDecl {
    kind: EngineKind::Exec,
    flags: EngineFlags {
        sync: true,
        opens_file: false,
        diskless: true,
        metadata: false,
        direct: false,
        noio: true,
    },
    options: &[
        EngineOption::Program,
        EngineOption::Arguments,
        EngineOption::GraceTime,
        EngineOption::StdRedirect,
    ],
    create: |_, setup| Ok(Box::new(ExecEngine::new(&setup.options.exec))),
};

/// The job as the engine needs it: its name and runtime for the substitutions and the output
/// files, and a 50 ms think time after each I/O.
pub(crate) fn prepare(spec: &mut JobSpec) {
    spec.engine_options.exec.job = Some((spec.name.clone(), spec.runtime));
    spec.thinktime = TICK;
    spec.thinktime_spin = Duration::ZERO;
    spec.thinktime_blocks = 1;
}

/// The files the program's standard output and error go to: `JOB.stdout` and `JOB.stderr`
/// (in the working directory, or where the job's name puts them), as in fio.
pub(crate) fn output_files(job: &str) -> [PathBuf; 2] {
    ["stdout", "stderr"].map(|s| PathBuf::from(format!("{job}.{s}")))
}

/// The files the job's program writes (created or truncated), which must pass the same
/// checks as every file a run writes, before any I/O: none without `std_redirect`.
pub(crate) fn files_written(spec: &JobSpec) -> Vec<PathBuf> {
    if spec.ioengine != EngineKind::Exec || !spec.engine_options.exec.redirects() {
        return Vec::new();
    }
    output_files(&spec.name).to_vec()
}

pub(crate) struct ExecEngine {
    program: ExecProgram,
    name: String,
    /// The program is asked to stop (SIGTERM) once this much time has passed (0: at once).
    stop_after: Duration,
    started: Instant,
    child: Option<Child>,
    /// The program was started (it may have ended since).
    spawned: bool,
}

impl ExecEngine {
    pub(crate) fn new(program: &ExecProgram) -> Self {
        let (name, runtime) = program.job.clone().unwrap_or_default();
        ExecEngine {
            program: program.clone(),
            name,
            stop_after: runtime.unwrap_or(Duration::ZERO),
            started: Instant::now(),
            child: None,
            spawned: false,
        }
    }

    /// Start the program; -errno when it cannot be.
    fn spawn(&mut self) -> i64 {
        self.spawned = true;
        let (_, runtime) = self.program.job.clone().unwrap_or_default();
        let argv = self.program.argv(&self.name, runtime);
        let Some((cmd, args)) = argv.split_first() else {
            return -(libc::EINVAL as i64);
        };
        let mut c = Command::new(cmd);
        c.args(args);
        if self.program.redirects() {
            let [out, err] = output_files(&self.name).map(File::create);
            match (out, err) {
                (Ok(o), Ok(e)) => {
                    c.stdout(Stdio::from(o)).stderr(Stdio::from(e));
                }
                (Err(e), _) | (_, Err(e)) => {
                    return -(e.raw_os_error().unwrap_or(libc::EIO) as i64)
                }
            }
        }
        match c.spawn() {
            Ok(child) => {
                self.child = Some(child);
                0
            }
            Err(e) => -(e.raw_os_error().unwrap_or(libc::ENOENT) as i64),
        }
    }

    /// Wait a tick; past the runtime, ask the program to stop and give it its grace time.
    fn tick(&mut self) {
        std::thread::sleep(TICK);
        if self.started.elapsed() > self.stop_after {
            if let Some(c) = &self.child {
                // SAFETY: a signal to our own child, not yet reaped (so its pid is not reused).
                unsafe { libc::kill(c.id() as libc::pid_t, libc::SIGTERM) };
            }
            std::thread::sleep(Duration::from_secs(self.program.grace_time_s() as u64));
        }
    }
}

impl Engine for ExecEngine {
    #[cfg(test)]
    fn name(&self) -> &'static str {
        "exec"
    }
    fn is_sync(&self) -> bool {
        true
    }
    fn queue(&mut self, _io: &IoUnit) -> Queued {
        if !self.spawned {
            return Queued::Done(self.spawn());
        }
        self.tick();
        Queued::Done(0)
    }
}

impl Drop for ExecEngine {
    fn drop(&mut self) {
        if let Some(mut c) = self.child.take() {
            if matches!(c.try_wait(), Ok(None)) {
                let _ = c.kill();
            }
            let _ = c.wait();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::Op;

    fn io() -> IoUnit {
        IoUnit {
            slot: 0,
            file: 0,
            op: Op::Read,
            offset: 0,
            len: 4096,
            buf: std::ptr::null_mut(),
            prio: None,
        }
    }

    fn program(p: &str, args: &str) -> ExecProgram {
        ExecProgram {
            program: Some(p.into()),
            arguments: Some(args.into()),
            std_redirect: Some(false),
            job: Some(("j".into(), Some(Duration::from_secs(7)))),
            ..Default::default()
        }
    }

    #[test]
    fn substitutions_and_words_as_fio() {
        let p = program("echo", "%n  ran %r s %n");
        assert_eq!(
            p.argv("job1", Some(Duration::from_millis(2500))),
            ["echo", "job1", "ran", "2", "s", "job1"]
        );
        assert_eq!(p.argv("j", None)[3], "0");
        let bare = ExecProgram {
            program: Some("true".into()),
            ..Default::default()
        };
        assert_eq!(bare.argv("j", None), ["true"]);
        assert!(bare.redirects());
        assert_eq!(bare.grace_time_s(), 1);
    }

    #[test]
    fn the_program_runs_and_is_killed_at_the_end() {
        let mut e = ExecEngine::new(&program("sleep", "%r"));
        assert_eq!(e.queue(&io()), Queued::Done(0));
        let pid = e.child.as_ref().unwrap().id() as libc::pid_t;
        // Before the runtime: a tick, the program still runs.
        assert_eq!(e.queue(&io()), Queued::Done(0));
        // SAFETY: signal 0 only checks that the process exists.
        assert_eq!(unsafe { libc::kill(pid, 0) }, 0);
        drop(e);
        // Killed and reaped: no such process any more.
        // SAFETY: as above.
        assert_eq!(unsafe { libc::kill(pid, 0) }, -1);
    }

    #[test]
    fn a_missing_program_is_an_error() {
        let mut e = ExecEngine::new(&program("/nonexistent/program", ""));
        assert_eq!(e.queue(&io()), Queued::Done(-(libc::ENOENT as i64)));
    }
}
