//! Commands with a deadline. A command that never ends must fail its test, not hold the whole
//! suite: fio 3.33 itself sometimes never ends an offloaded null job, and its job processes run
//! in sessions of their own (fio calls setsid), so neither `timeout` nor a kill of fio's own
//! process reaches them. On expiry the command and every process it started are killed.

use std::io::Read;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// How long any one iomark or fio command of the tests may take before it counts as hung.
pub const HUNG_AFTER: Duration = Duration::from_secs(600);

/// `Command::output` with a deadline: stdin from /dev/null, stdout and stderr captured.
pub trait BoundedOutput {
    /// As `output()`, but a command still running after `HUNG_AFTER` is killed (with everything
    /// it started) and fails the test.
    fn bounded_output(&mut self) -> std::io::Result<Output>;
}

impl BoundedOutput for Command {
    #[track_caller]
    fn bounded_output(&mut self) -> std::io::Result<Output> {
        let what = format!(
            "{:?} {:?}",
            self.get_program(),
            self.get_args().collect::<Vec<_>>()
        );
        Ok(output_within(self, HUNG_AFTER)?
            .unwrap_or_else(|| panic!("{what} did not end within {HUNG_AFTER:?}: killed")))
    }
}

/// Runs `cmd` as `Command::output` does; Ok(None) (everything it started killed) when it has
/// not ended after `limit`.
pub fn output_within(cmd: &mut Command, limit: Duration) -> std::io::Result<Option<Output>> {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()?;
    let drain = |mut r: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            let _ = r.read_to_end(&mut buf);
            buf
        })
    };
    let out = drain(Box::new(child.stdout.take().unwrap()));
    let err = drain(Box::new(child.stderr.take().unwrap()));
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for a command") {
            break Some(status);
        }
        if start.elapsed() >= limit {
            kill_tree(child.id());
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    // Once everything is killed the pipes close and the readers end.
    let (stdout, stderr) = (out.join().unwrap(), err.join().unwrap());
    Ok(status.map(|status| Output {
        status,
        stdout,
        stderr,
    }))
}

/// SIGKILL to `pid` and all its descendants (found through /proc before any is killed, since a
/// killed parent's children are handed to init).
fn kill_tree(pid: u32) {
    let mut all = vec![pid];
    let mut i = 0;
    while i < all.len() {
        all.extend(children_of(all[i]));
        i += 1;
    }
    for p in all {
        // SAFETY: kill(2) with a plain pid and signal has no memory effects.
        unsafe { libc::kill(p as libc::pid_t, libc::SIGKILL) };
    }
}

fn children_of(parent: u32) -> Vec<u32> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|&pid| {
            // /proc/PID/stat: "pid (comm) state ppid ..."; comm may hold spaces and parentheses.
            std::fs::read_to_string(format!("/proc/{pid}/stat"))
                .ok()
                .and_then(|s| {
                    let rest = &s[s.rfind(')')? + 1..];
                    rest.split_whitespace().nth(1)?.parse::<u32>().ok()
                })
                == Some(parent)
        })
        .collect()
}

#[test]
fn a_hung_command_and_its_detached_children_are_killed_at_the_deadline() {
    // A child in a session of its own holding the pipes open, as fio's job processes do.
    let start = Instant::now();
    let o = output_within(
        Command::new("sh").args(["-c", "setsid sleep 300 & echo started; sleep 300"]),
        Duration::from_secs(1),
    )
    .unwrap();
    assert!(o.is_none());
    assert!(start.elapsed() < Duration::from_secs(30));
    let o = output_within(
        Command::new("sh").args(["-c", "echo out; echo err >&2; exit 3"]),
        Duration::from_secs(30),
    )
    .unwrap()
    .unwrap();
    assert_eq!(
        (o.status.code(), &o.stdout[..], &o.stderr[..]),
        (Some(3), &b"out\n"[..], &b"err\n"[..])
    );
}
