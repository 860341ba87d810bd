//! The exec engine beside fio 3.33 (issue 25): the program runs with fio's `%r`/`%n`
//! substitutions, its output lands in `JOB.stdout`/`JOB.stderr`, the I/Os are counted without
//! bytes, and a program still running when the job ends is killed.

use crate::util::*;
use std::os::unix::fs::PermissionsExt;

/// `tool` runs the job in its own directory under `d` (holding `script` as `prog.sh` when
/// given); the JSON document and the directory.
fn run(
    tool: &str,
    d: &Scratch,
    args: &[&str],
    script: Option<&str>,
) -> (serde_json::Value, std::path::PathBuf) {
    let dir = d.file(tool);
    std::fs::create_dir_all(&dir).unwrap();
    if let Some(s) = script {
        let p = dir.join("prog.sh");
        std::fs::write(&p, s).unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let mut a = vec!["--output-format=json", "--name=mon", "--ioengine=exec"];
    a.extend_from_slice(args);
    let o = run_tool(tool, &a, &dir);
    (tool_json(tool, &o), dir)
}

#[test]
fn exec_runs_the_program_with_fios_substitutions() {
    let d = Scratch::new("exec");
    let args = ["--program=echo", "--arguments=%n  for %r s", "--runtime=1"];
    let mut seen = Vec::new();
    for tool in ["fio", "iomark"] {
        let (v, dir) = run(tool, &d, &args, None);
        let j = job(&v, 0);
        let out = std::fs::read_to_string(dir.join("mon.stdout")).unwrap();
        let err = std::fs::read_to_string(dir.join("mon.stderr")).unwrap();
        seen.push((
            out,
            err,
            u(&j["read"]["io_bytes"]),
            u(&j["read"]["runtime"]),
            u(&j["write"]["total_ios"]),
            u(&j["error"]),
        ));
        // One I/O starts the program, the others wait 50 ms and think 50 ms: about ten in 1 s.
        let ios = u(&j["read"]["total_ios"]);
        assert!((3..=20).contains(&ios), "{tool}: {ios} I/Os");
    }
    assert_eq!(seen[1], seen[0]);
    assert_eq!(seen[1].0, "mon for 1 s\n");
}

#[test]
fn exec_kills_a_program_still_running_at_the_end() {
    let d = Scratch::new("exec-kill");
    // Prints its pid, then runs until killed.
    let script = "#!/bin/sh\necho $$\nexec sleep 300\n";
    for tool in ["fio", "iomark"] {
        let (v, dir) = run(
            tool,
            &d,
            &["--program=./prog.sh", "--runtime=1", "--grace_time=0"],
            Some(script),
        );
        assert_eq!(u(&job(&v, 0)["error"]), 0, "{tool}");
        let pid = std::fs::read_to_string(dir.join("mon.stdout")).unwrap();
        let pid = pid.trim();
        assert!(!pid.is_empty(), "{tool}: the program did not run");
        // Gone, or a zombie waiting for init: not sleeping on.
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        let state = stat.rsplit(')').next().unwrap_or("").trim().chars().next();
        assert!(
            matches!(state, None | Some('Z')),
            "{tool}: {pid} still runs: {stat}"
        );
    }
}

#[test]
fn exec_without_redirect_and_without_program() {
    let d = Scratch::new("exec-plain");
    let (v, dir) = run(
        "iomark",
        &d,
        &["--program=true", "--std_redirect=0", "--runtime=1"],
        None,
    );
    assert_eq!(u(&job(&v, 0)["error"]), 0);
    assert!(!dir.join("mon.stdout").exists());
    let o = iomark_in(
        &["run", "--name=mon", "--ioengine=exec", "--runtime=1"],
        &d.path,
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("needs program="), "{}", stderr(&o));
}
