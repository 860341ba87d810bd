//! What every command shares: one exit-status policy (0 ok, 1 the run failed, 2 bad input, 130
//! interrupted with the result file still written and marked so), and the progress line of a
//! long command, drawn on a terminal and never in piped output.

use crate::live::{iomark_on_tty, refreshes};
use crate::util::*;
use std::process::{Command, Stdio};
use std::time::Duration;

fn code(args: &[&str], cwd: &std::path::Path) -> (Option<i32>, String) {
    let o = iomark_in(args, cwd);
    (o.status.code(), stderr(&o))
}

#[test]
fn every_command_refuses_bad_input_with_status_2() {
    let d = Scratch::new("exit2");
    let f = d.s("t.dat");
    let cases: &[&[&str]] = &[
        &["quick", "--bogus"],
        &["preset", "run", "nope"],
        &["sweep", "--bs=4k,8k", "--rw=nonsense"],
        &["run", "--name=x", "--rw=nonsense"],
        &["run", "--repeat=0", "--name=x", "--size=1m"],
        &["iometer", "--spec", "nonsense"],
        &["rbd-bench"],
        &["rados-bench"],
        &["bonnie", "-Z"],
        &["iozone", "-s", "nonsense"],
        &["blogbench", "-Z"],
        &["dd", "bogus=1"],
        &["hdparm", "-Z", &f],
        &["merge"],
        &["report"],
        &["nonsense-command"],
    ];
    for args in cases {
        let (c, e) = code(args, &d.path);
        assert_eq!(c, Some(2), "iomark {}: {e}", args.join(" "));
        assert!(!e.is_empty(), "iomark {}: no message", args.join(" "));
    }
}

#[test]
fn a_failed_run_exits_1_and_a_good_one_0() {
    let d = Scratch::new("exit01");
    let f = d.s("t.dat");
    let file = format!("--filename={f}");
    let run = [
        "run",
        "--name=x",
        &file,
        "--size=1m",
        "--rw=read",
        "--bs=64k",
    ];
    assert_eq!(code(&run, &d.path), (Some(0), code(&run, &d.path).1));
    // Every I/O misses a 1 ns latency limit: the job ends with ETIMEDOUT.
    let failing = [&run[..], &["--max_latency=1ns"]].concat();
    let (c, e) = code(&failing, &d.path);
    assert_eq!(c, Some(1), "{e}");
    let sweep = [
        "sweep",
        &file,
        "--size=1m",
        "--rw=read",
        "--bs=4k,8k",
        "--runtime=100ms",
        "--allow-write",
    ];
    let (c, e) = code(&sweep, &d.path);
    assert_eq!(c, Some(0), "{e}");
    let (c, e) = code(&[&sweep[..], &["--max_latency=1ns"]].concat(), &d.path);
    assert_eq!(c, Some(1), "{e}");
    let dd_ok = ["dd", "if=/dev/zero", "of=/dev/null", "bs=4k", "count=16"];
    assert_eq!(code(&dd_ok, &d.path).0, Some(0));
    let (c, e) = code(
        &["dd", &format!("if={}", d.s("missing")), "of=/dev/null"],
        &d.path,
    );
    assert_eq!(c, Some(1), "{e}");
    // A preset's expected figure missed is a failed run, as a failed job is.
    let dir = d.path.to_str().unwrap();
    let preset = [
        "preset",
        "run",
        "cloud-disk",
        dir,
        "--size",
        "8m",
        "--runtime",
        "100ms",
        "--warmup",
        "0",
    ];
    let (c, e) = code(&preset, &d.path);
    assert_eq!(c, Some(0), "{e}");
    let (c, e) = code(&[&preset[..], &["--expect-iops", "1e12"]].concat(), &d.path);
    assert_eq!(c, Some(1), "{e}");
}

/// Starts `iomark ARGS`, sends SIGINT once it has run a while, and returns its status.
fn interrupted(args: &[&str], cwd: &std::path::Path) -> (Option<i32>, String) {
    let child = Command::new(bin())
        .args(args)
        .current_dir(cwd)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    // SAFETY: signalling the child started above.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let o = child.wait_with_output().unwrap();
    (o.status.code(), stderr(&o))
}

#[test]
fn sigint_exits_130_with_the_result_file_marked_interrupted() {
    let d = Scratch::new("exit130");
    let f = d.s("t.dat");
    let file = format!("--filename={f}");
    let dir = d.path.to_str().unwrap().to_string();
    let long = ["--runtime=60s", "--time_based"];
    let cases: Vec<(&str, Vec<String>)> = vec![
        (
            "run",
            [
                &["run", "--name=x", &file, "--size=4m", "--rw=read"][..],
                &long[..],
            ]
            .concat(),
        ),
        (
            "sweep",
            [
                &["sweep", &file, "--size=4m", "--rw=read", "--bs=4k,8k"][..],
                &["--allow-write", "--runtime=30s", "--time_based"][..],
            ]
            .concat(),
        ),
        (
            "preset",
            vec!["preset", "run", "backup-repo", &dir, "--size", "8m"]
                .into_iter()
                .chain(["--runtime", "30s", "--warmup", "0"])
                .collect(),
        ),
        (
            "dd",
            vec![
                "dd",
                "if=/dev/zero",
                "of=/dev/null",
                "bs=4k",
                "count=1000000000",
            ],
        ),
    ]
    .into_iter()
    .map(|(n, a)| (n, a.into_iter().map(String::from).collect()))
    .collect();
    for (name, mut args) in cases {
        let rf = d.s(&format!("{name}.json"));
        args.push(if name == "dd" {
            format!("--result-file={rf}")
        } else {
            format!("--result={rf}")
        });
        let a: Vec<&str> = args.iter().map(String::as_str).collect();
        let (c, e) = interrupted(&a, &d.path);
        assert_eq!(c, Some(130), "{name}: {e}");
        let text = std::fs::read_to_string(&rf).unwrap_or_else(|e2| panic!("{name}: {e2}\n{e}"));
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        let marked = v["interrupted"] == true
            || v["runs"]
                .as_array()
                .is_some_and(|r| r.iter().any(|r| r["interrupted"] == true));
        assert!(marked, "{name}: not marked interrupted: {text}");
    }
}

/// The lines of the progress line drawn on the terminal that start with `head`.
fn drawn(tty: &str, head: &str) -> Vec<String> {
    refreshes(tty)
        .into_iter()
        .filter(|l| l.starts_with(head))
        .collect()
}

#[test]
fn long_commands_draw_progress_on_a_terminal_and_never_into_a_pipe() {
    let d = Scratch::new("progress");
    let dir = d.path.to_str().unwrap().to_string();
    let f = d.s("t.dat");
    let file = format!("--filename={f}");
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec![
                "preset",
                "run",
                "backup-repo",
                &dir,
                "--size",
                "8m",
                "--runtime",
                "700ms",
                "--warmup",
                "0",
            ],
            "iomark preset: job ",
        ),
        (
            vec![
                "sweep",
                &file,
                "--size=4m",
                "--rw=read",
                "--bs=4k,8k",
                // Time-based: 4 MiB read from the page cache would end before any sample.
                "--time_based",
                "--runtime=700ms",
                "--allow-write",
            ],
            "iomark sweep: point ",
        ),
        (
            vec![
                "iometer",
                &dir,
                "--spec",
                "4k,100,0",
                "--outstanding",
                "1,2",
                "--size",
                "4m",
                "--runtime",
                "700ms",
                "--ioengine",
                "psync",
            ],
            // Its points are a sweep's, named by the command that runs them.
            "iomark iometer: point ",
        ),
        (
            vec!["bonnie", "-d", &dir, "-s", "64", "-r", "0", "-n", "0"],
            "iomark bonnie: test ",
        ),
        (
            vec![
                "dd",
                "if=/dev/zero",
                "of=/dev/null",
                "bs=4k",
                "count=2000000",
            ],
            "iomark dd: ",
        ),
    ];
    for (args, head) in &cases {
        let (out, tty) = iomark_on_tty(args, &d.path);
        assert!(out.status.success(), "{args:?}: {tty}");
        let lines = drawn(&tty, head);
        assert!(!lines.is_empty(), "{args:?}: no progress line in:\n{tty}");
        assert!(lines.iter().all(|l| l.contains(" elapsed")), "{lines:?}");
        // The tool's own output on stdout holds none of it.
        assert!(!stdout(&out).contains(head.trim()), "{}", stdout(&out));
        // Piped: not a byte of it, unless asked for.
        let o = iomark_in(args, &d.path);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        let e = stderr(&o);
        assert!(
            !e.contains('\r') && !e.contains(" elapsed"),
            "{args:?}: {e}"
        );
        let forced = [&args[..], &["--progress"]].concat();
        let o = iomark_in(&forced, &d.path);
        assert!(stderr(&o).contains(head), "{args:?}: {}", stderr(&o));
        let never = [&args[..], &["--no-progress"]].concat();
        let (_, tty) = iomark_on_tty(&never, &d.path);
        assert!(drawn(&tty, head).is_empty(), "{args:?}: {tty}");
    }
    println!(
        "{}",
        drawn(&iomark_on_tty(&cases[0].0, &d.path).1, "iomark preset").join("\n")
    );
}
