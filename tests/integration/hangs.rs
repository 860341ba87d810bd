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

/// Starts `args` in a scratch directory, sends `sig` after `after`, and waits (at most 20 s).
fn signal_after(args: &[&str], cwd: &std::path::Path, after: Duration, sig: i32) -> Output {
    let child = Command::new(bin())
        .args(args)
        .current_dir(cwd)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run iomark");
    std::thread::sleep(after);
    // SAFETY: kill takes no memory; the pid is our own child's, not yet reaped.
    unsafe {
        libc::kill(child.id() as libc::pid_t, sig);
    }
    wait_with_limit(child, Duration::from_secs(20))
}

#[track_caller]
fn any_json(o: &Output) -> serde_json::Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not JSON ({e}) (exit {:?}):\n{}\nstderr:\n{}",
            o.status.code(),
            stdout(o),
            stderr(o)
        )
    })
}

#[test]
fn a_signal_during_layout_gives_valid_json_marked_interrupted() {
    for sig in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
        // 4 GiB on tmpfs takes seconds to lay out; the signal comes well before the end.
        let d = Scratch::new_in("/dev/shm", "layoutsig");
        let o = signal_after(
            &[
                "run",
                "--allow-fill",
                "--output-format=json",
                "--name=t",
                "--filename=big",
                "--rw=read",
                "--size=4g",
                "--fallocate=none",
            ],
            &d.path,
            Duration::from_millis(500),
            sig,
        );
        assert_eq!(o.status.code(), Some(130), "signal {sig}: {}", stderr(&o));
        let v = any_json(&o);
        assert_eq!(v["iomark"]["interrupted"], true, "signal {sig}");
        let j = job(&v, 0);
        assert_eq!(j["jobname"], "t");
        assert_eq!(u(&j["read"]["io_bytes"]), 0);
        assert!(
            stderr(&o).contains("stopped while laying out"),
            "{}",
            stderr(&o)
        );
        assert!(
            !d.file("big").exists(),
            "signal {sig}: the partial file was left"
        );
    }
}

#[test]
fn sighup_ends_a_run_like_sigterm() {
    let d = Scratch::new("hup");
    let o = signal_after(
        &[
            "run",
            "--output-format=json",
            "--name=t",
            "--ioengine=null",
            "--size=1g",
            "--time_based",
            "--runtime=60",
        ],
        &d.path,
        Duration::from_millis(1000),
        libc::SIGHUP,
    );
    assert_eq!(o.status.code(), Some(130), "{}", stderr(&o));
    let v = any_json(&o);
    assert_eq!(v["iomark"]["interrupted"], true);
    assert!(u(&job(&v, 0)["read"]["io_bytes"]) > 0);
}

#[test]
fn sighup_during_quick_removes_its_temporary_file() {
    let d = Scratch::new("hupquick");
    let p = d.path.display().to_string();
    let o = signal_after(
        &["quick", &p, "--size=32m", "--runtime=20s", "--ramp=0"],
        &d.path,
        Duration::from_millis(1500),
        libc::SIGHUP,
    );
    assert_eq!(o.status.code(), Some(130), "{}", stderr(&o));
    let left: Vec<_> = std::fs::read_dir(&d.path)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(left.is_empty(), "left behind: {left:?}");
}

#[test]
fn sigusr1_prints_an_interim_report_and_the_run_goes_on() {
    let d = Scratch::new("usr1");
    let o = signal_after(
        &[
            "run",
            "--name=t",
            "--ioengine=null",
            "--size=1g",
            "--time_based",
            "--runtime=3",
        ],
        &d.path,
        Duration::from_millis(1000),
        libc::SIGUSR1,
    );
    ok(&o);
    let out = stdout(&o);
    // The interim report and the final one.
    assert_eq!(out.matches("t: (groupid=").count(), 2, "{out}");
    assert!(!stderr(&o).contains("interrupted"), "{}", stderr(&o));
}
