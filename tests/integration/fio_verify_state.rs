//! `verify_state_save` / `verify_state_load` beside fio 3.33: a writing job with `verify=` leaves
//! `local-<name>-<index>-verify.state` in the working directory when it ends (also when a
//! signal interrupts it), in fio's format; a later `rw=read` job with `verify_state_load=1`
//! checks only the blocks the writer really wrote. Each tool loads the other's state file.

use crate::util::*;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

/// `fio-verify-state`'s report of a state file: (writes issued, depth, sorted completions).
fn state_of(path: &Path) -> (u64, u64, Vec<u64>) {
    let o = Command::new("fio-verify-state")
        .arg(path)
        .bounded_output()
        .expect("fio-verify-state (installed with fio)");
    ok(&o);
    let text = stdout(&o);
    let field = |name: &str| -> u64 {
        text.lines()
            .find_map(|l| l.strip_prefix(name))
            .unwrap_or_else(|| panic!("{name} in {text}"))
            .trim()
            .parse()
            .unwrap()
    };
    let mut comps: Vec<u64> = text
        .lines()
        .filter_map(|l| l.trim().strip_prefix("(file= 0)"))
        .map(|v| v.trim().parse().unwrap())
        .collect();
    comps.sort_unstable();
    assert!(!text.contains("CRC mismatch"), "{text}");
    (field("Number IOs:"), field("Depth:"), comps)
}

fn write_args<'a>(file: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut a = vec![
        "--name=vs/w",
        file,
        "--size=1m",
        "--bs=4k",
        "--rw=write",
        "--verify=crc32c",
        "--output=/dev/null",
    ];
    a.extend_from_slice(extra);
    a
}

#[test]
fn a_finished_write_leaves_the_state_file_fio_leaves() {
    for extra in [
        &["--ioengine=psync"][..],
        &["--ioengine=libaio", "--iodepth=4", "--direct=1"][..],
    ] {
        let mut states = Vec::new();
        let mut bytes = Vec::new();
        for tool in ["fio", "iomark"] {
            let d = Scratch::new("vstate");
            let f = format!("--filename={}", d.s("data"));
            ok(&run_tool(tool, &write_args(&f, extra), &d.path));
            // The '/' of the name becomes '.'; the index of the first job is 0.
            let p = d.file("local-vs.w-0-verify.state");
            assert!(p.exists(), "{tool} {extra:?}: no state file");
            states.push(state_of(&p));
            bytes.push(std::fs::read(&p).unwrap());
        }
        assert_eq!(states[0].0, 256, "{extra:?}");
        if extra.len() == 1 {
            // Sequential at depth 1: fio keeps no random state, the files are equal byte for
            // byte (checksum included).
            assert_eq!(states[1], states[0], "{extra:?}");
            assert_eq!(bytes[1], bytes[0]);
        } else {
            // At depth 4 the last four completions are usually the last four writes, but a
            // write that the device holds back completes after later ones (seen on a loaded
            // machine: 245, 246, 247 and 255), in either tool: same count and depth, and four
            // distinct block offsets inside the file.
            for (tool, s) in ["fio", "iomark"].iter().zip(&states) {
                assert_eq!((s.0, s.1), (states[0].0, states[0].1), "{tool} {extra:?}");
                let mut c = s.2.clone();
                c.dedup();
                assert_eq!(c.len(), 4, "{tool} {extra:?}: {:?}", s.2);
                assert!(
                    c.iter().all(|o| o % 4096 == 0 && *o < 1 << 20),
                    "{tool} {extra:?}: {:?}",
                    s.2
                );
            }
        }
    }
    // verify_state_save=0, or no verification: no file from either tool.
    for extra in [&["--verify_state_save=0"][..], &["--verify=0"][..]] {
        for tool in ["fio", "iomark"] {
            let d = Scratch::new("vstate-off");
            let f = format!("--filename={}", d.s("data"));
            ok(&run_tool(tool, &write_args(&f, extra), &d.path));
            assert!(
                !d.file("local-vs.w-0-verify.state").exists(),
                "{tool} {extra:?}"
            );
        }
    }
}

/// Runs a rate-limited write of 4 MiB with `tool` in `d` and interrupts it with `sig` after
/// about a second; returns the writes its state file records.
fn interrupted_write(tool: &str, d: &Scratch, sig: i32) -> u64 {
    let f = format!("--filename={}", d.s("data"));
    let args = [
        "--name=w",
        f.as_str(),
        "--size=4m",
        "--bs=4k",
        "--rw=write",
        "--verify=crc32c",
        "--rate=1m",
        "--output=/dev/null",
    ];
    let mut cmd = if tool == "fio" {
        Command::new("fio")
    } else {
        let mut c = Command::new(bin());
        c.arg("run");
        c
    };
    let mut child = cmd
        .args(args)
        .current_dir(&d.path)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    // SAFETY: a signal to the child this test started.
    unsafe { libc::kill(child.id() as libc::pid_t, sig) };
    let _ = child.wait().unwrap();
    let (issued, depth, comps) = state_of(&d.file("local-w-0-verify.state"));
    assert_eq!(depth, 1, "{tool}");
    assert!(issued > 0 && issued < 1024, "{tool}: {issued} writes");
    assert_eq!(comps, vec![(issued - 1) * 4096], "{tool}: the last write");
    issued
}

/// Reads the 4 MiB file back with `tool`, `verify=method` and optionally the state file; the
/// bytes read, or None when the run failed.
fn read_back(tool: &str, d: &Scratch, method: &str, load: bool) -> Option<u64> {
    let f = format!("--filename={}", d.s("data"));
    let v = format!("--verify={method}");
    let mut args = vec![
        "--name=w",
        f.as_str(),
        "--size=4m",
        "--bs=4k",
        "--rw=read",
        v.as_str(),
        "--output-format=json",
    ];
    if load {
        args.push("--verify_state_load=1");
    }
    let o = run_tool(tool, &args, &d.path);
    if !o.status.success() {
        return None;
    }
    let j = if tool == "fio" {
        fio_json(&o)
    } else {
        json(&o)
    };
    let job = &j["jobs"][0];
    (job["error"].as_u64() == Some(0)).then(|| u(&job["read"]["io_bytes"]))
}

#[test]
fn an_interrupted_write_is_checked_as_far_as_it_got() {
    for (tool, sig) in [
        ("fio", libc::SIGINT),
        ("iomark", libc::SIGINT),
        ("iomark", libc::SIGTERM),
    ] {
        let d = Scratch::new("vstate-int");
        let n = interrupted_write(tool, &d, sig);
        // Each tool checks its own data: all of it fails (blocks never written), as far as
        // the state file says passes and reads exactly the blocks written.
        assert_eq!(read_back(tool, &d, "crc32c", false), None, "{tool}");
        assert_eq!(
            read_back(tool, &d, "crc32c", true),
            Some(n * 4096),
            "{tool}: {n} writes"
        );
    }
}

#[test]
fn each_tool_loads_the_others_state_file() {
    // The block formats differ, so the other tool reads with verify=null: the state file alone
    // decides how far it reads.
    for (writer, reader) in [("iomark", "fio"), ("fio", "iomark")] {
        let d = Scratch::new("vstate-x");
        let n = interrupted_write(writer, &d, libc::SIGINT);
        assert_eq!(
            read_back(reader, &d, "null", true),
            Some(n * 4096),
            "{reader} reading {writer}'s {n} writes"
        );
        assert_eq!(read_back(reader, &d, "null", false), Some(4 << 20));
    }
}

#[test]
fn a_missing_or_damaged_state_file_is_refused_before_any_io() {
    let d = Scratch::new("vstate-bad");
    let f = format!("--filename={}", d.s("data"));
    let args = [
        "run",
        "--name=r",
        f.as_str(),
        "--size=64k",
        "--rw=read",
        "--verify=crc32c",
        "--verify_state_load=1",
    ];
    let o = iomark_in(&args, &d.path);
    assert!(!o.status.success());
    let e = stderr(&o);
    assert!(
        e.contains("verify_state_load") && e.contains("local-r-0-verify.state"),
        "{e}"
    );
    assert!(!d.file("data").exists(), "refused before any I/O");
    // fio refuses it too.
    assert!(!fio_in(&args[1..], &d.path).status.success());
    std::fs::write(d.file("local-r-0-verify.state"), [3u8; 200]).unwrap();
    let o = iomark_in(&args, &d.path);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("version"), "{}", stderr(&o));
    let o = iomark_in(&["run", "--name=r", "--verify_state_load=perhaps"], &d.path);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("verify_state_load"), "{}", stderr(&o));
}
