//! Crashes, hangs and runaway memory: every wait ends at the deadline, signals end a run with
//! valid output, absurd inputs are refused before anything large is allocated.

use crate::util::*;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Runs iomark with a watchdog: killed (and the test failed) when it outlives `limit`.
#[track_caller]
fn iomark_within(args: &[&str], limit: Duration) -> (Output, Duration) {
    let cwd = Scratch::new("hangs");
    let child = Command::new(bin())
        .args(args)
        .current_dir(&cwd.path)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run iomark");
    let t0 = Instant::now();
    let out = wait_with_limit(child, limit);
    (out, t0.elapsed())
}

/// Waits for `child`, killing it and failing when it runs past `limit`.
#[track_caller]
pub fn wait_with_limit(mut child: Child, limit: Duration) -> Output {
    let t0 = Instant::now();
    loop {
        if child.try_wait().expect("wait for iomark").is_some() {
            return child.wait_with_output().expect("collect output");
        }
        if t0.elapsed() > limit {
            let _ = child.kill();
            let o = child.wait_with_output().expect("collect output");
            panic!(
                "iomark still running after {limit:?}\nstdout:\n{}\nstderr:\n{}",
                stdout(&o),
                stderr(&o)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The first job's "job_runtime" (ms).
fn job_runtime(o: &Output) -> u64 {
    u(&job(&json(o), 0)["job_runtime"])
}

#[test]
fn a_rate_token_past_the_deadline_does_not_extend_the_run() {
    // One byte per second: the second 4 KiB block is due after more than an hour.
    let (o, took) = iomark_within(
        &[
            "run",
            "--name=r",
            "--ioengine=null",
            "--size=1g",
            "--rate=1",
            "--runtime=1",
            "--output-format=json",
        ],
        Duration::from_secs(20),
    );
    let rt = job_runtime(&o);
    assert!(
        (900..=1600).contains(&rt),
        "job_runtime {rt} ms for runtime=1"
    );
    assert!(took < Duration::from_secs(10), "took {took:?}");
    // 1 KiB/s with 4 KiB blocks: a block every 4 s; runtime=2 ends after 2 s, not 4.
    let (o, _) = iomark_within(
        &[
            "run",
            "--name=r",
            "--ioengine=null",
            "--size=1g",
            "--rate=1k",
            "--runtime=2",
            "--output-format=json",
        ],
        Duration::from_secs(20),
    );
    let rt = job_runtime(&o);
    assert!(
        (1900..=3000).contains(&rt),
        "job_runtime {rt} ms for runtime=2"
    );
}

#[test]
fn a_think_time_past_the_deadline_does_not_extend_the_run() {
    for spin in ["0", "30s"] {
        let (o, _) = iomark_within(
            &[
                "run",
                "--name=t",
                "--ioengine=null",
                "--size=1g",
                "--thinktime=60s",
                &format!("--thinktime_spin={spin}"),
                "--runtime=1",
                "--output-format=json",
            ],
            Duration::from_secs(20),
        );
        let rt = job_runtime(&o);
        assert!(
            (900..=1600).contains(&rt),
            "job_runtime {rt} ms (spin {spin})"
        );
    }
    // A rate wait during the ramp ends at the ramp's end; the measured phase still lasts runtime.
    let (o, _) = iomark_within(
        &[
            "run",
            "--name=r",
            "--ioengine=null",
            "--size=1g",
            "--rate=1",
            "--ramp_time=1",
            "--runtime=1",
            "--output-format=json",
        ],
        Duration::from_secs(20),
    );
    let rt = job_runtime(&o);
    assert!(
        (900..=1600).contains(&rt),
        "job_runtime {rt} ms after a ramp"
    );
}
