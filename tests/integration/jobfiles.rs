//! fio job files end to end: the seed job files run shrunk with `--override`, and are refused
//! before any I/O without it; several files, sections, stdin, --parse-only, --strict, --showcmd.

use crate::util::*;
use serde_json::Value;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

fn seed_file(name: &str) -> PathBuf {
    let p = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/seed-workloads"
    ))
    .join(name);
    assert!(
        p.exists(),
        "the seed workloads must be in tests/fixtures: {}",
        p.display()
    );
    p
}

const SEED_FILES: [&str; 3] = [
    "azure-fiowrite.ini",
    "azure-fioread.ini",
    "azure-fioreadwrite.ini",
];

fn opt<'a>(j: &'a Value, k: &str) -> Option<&'a str> {
    j["job options"][k].as_str()
}

#[test]
fn seed_job_files_run_shrunk_with_overrides() {
    for name in SEED_FILES {
        let d = Scratch::new("seedjob");
        let file = seed_file(name);
        let dir = format!("directory={}", d.path.display());
        let o = iomark(&[
            "run",
            "--output-format=json",
            "--override",
            &dir,
            "--override",
            "size=16m",
            "--override=runtime=1",
            file.to_str().unwrap(),
        ]);
        let v = json(&o);
        let g = &v["global options"];
        // The file's [global] as written: 30g, libaio, direct, its QD and bs.
        assert_eq!(g["size"], "30g", "{name}");
        assert_eq!(g["ioengine"], "libaio", "{name}");
        assert_eq!(g["direct"], "1", "{name}");
        let (qd, bs) = if name.contains("readwrite") {
            ("128", "4k")
        } else {
            ("256", "8k")
        };
        assert_eq!(g["iodepth"], qd, "{name}");
        assert_eq!(g["bs"], bs, "{name}");
        let jobs = v["jobs"].as_array().unwrap();
        let expect = if name.contains("readwrite") { 8 } else { 4 };
        assert_eq!(jobs.len(), expect, "{name}");
        for j in jobs {
            let jn = j["jobname"].as_str().unwrap();
            assert_eq!(u(&j["error"]), 0, "{name} {jn}");
            // The overrides are what ran, and show in the job's options.
            assert_eq!(opt(j, "size"), Some("16m"), "{name} {jn}");
            assert_eq!(opt(j, "runtime"), Some("1"));
            let (rd, wr) = (u(&j["read"]["io_bytes"]), u(&j["write"]["io_bytes"]));
            if jn.starts_with("reader") {
                assert!(rd > 0 && wr == 0, "{name} {jn}");
            } else {
                assert!(wr > 0 && rd == 0, "{name} {jn}");
            }
            if name.contains("readwrite") && jn.starts_with("writer") {
                assert_eq!(opt(j, "rate_iops"), Some("12500"));
                let iops = f(&j["write"]["iops"]);
                assert!(iops <= 12500.0 * 1.1, "{jn}: rate cap not kept: {iops}");
            }
        }
        // Only files of 16 MiB were laid out, in the redirected directory.
        for e in std::fs::read_dir(&d.path).unwrap() {
            let m = e.unwrap().metadata().unwrap();
            assert_eq!(m.len(), 16 << 20);
        }
    }
}

/// A small tmpfs, unmounted on drop.
struct Tmpfs(Scratch);

impl Tmpfs {
    fn new(size: &str) -> Tmpfs {
        assert!(
            is_root(),
            "this test mounts a tmpfs and needs root; run the test suite as root"
        );
        let s = Scratch::new("tmpfs");
        let st = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(&s.path)
            .status()
            .expect("run mount");
        assert!(st.success(), "mount tmpfs failed");
        Tmpfs(s)
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0.path).status();
    }
}

#[test]
fn seed_job_files_without_size_override_are_refused_before_any_write() {
    let t = Tmpfs::new("64m");
    for name in SEED_FILES {
        let file = seed_file(name);
        let dir = format!("--override=directory={}", t.0.path.display());
        let o = iomark(&["run", &dir, file.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(1), "{name}: {}", stderr(&o));
        let e = stderr(&o);
        assert!(e.contains("free"), "{name}: {e}");
        assert!(e.contains("--allow-fill"), "{name}: {e}");
        assert_eq!(
            std::fs::read_dir(&t.0.path).unwrap().count(),
            0,
            "{name}: files were created"
        );
        // A command line's --size= does not shrink the file's size= (fio's rule): the refusal
        // names the line and the --override that does, with a size that fits.
        let o = iomark(&["run", &dir, "--size=1m", file.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(1), "{name}: {}", stderr(&o));
        let e = stderr(&o);
        assert!(
            e.contains(&format!("{name}:2 sets size=30g"))
                && e.contains("the command line's --size=1m does not change"),
            "{name}: {e}"
        );
        let fit = e
            .split("--override ")
            .nth(1)
            .and_then(|r| r.split_whitespace().next())
            .unwrap_or_else(|| panic!("{name}: no --override named: {e}"));
        assert!(
            fit.starts_with("size=") && fit != "size=SIZE",
            "{name}: {e}"
        );
        let o = iomark(&[
            "run",
            &dir,
            "--parse-only",
            "--override",
            fit,
            file.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(0), "{name}: {}", stderr(&o));
        assert!(
            !stderr(&o).contains("refused"),
            "{name} with {fit}: {}",
            stderr(&o)
        );
        assert_eq!(std::fs::read_dir(&t.0.path).unwrap().count(), 0);
    }
}

fn write(d: &Scratch, name: &str, text: &str) -> String {
    std::fs::write(d.file(name), text).unwrap();
    d.s(name)
}

#[test]
fn several_files_sections_and_stdin() {
    let d = Scratch::new("jobfiles");
    let a = write(
        &d,
        "a.fio",
        "[global]\nioengine=null\nsize=4m\n[a1]\nrw=read\n[a2]\nrw=write\n",
    );
    let b = write(
        &d,
        "b.fio",
        "[global]\nioengine=null\nsize=8m\n[b1]\nrw=randread\n",
    );
    let o = iomark(&["run", "--output-format=json", &a, &b]);
    let v = json(&o);
    let groups: Vec<u64> = v["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|j| u(&j["groupid"]))
        .collect();
    assert_eq!(groups, [0, 0, 1], "each file its own group");
    assert_eq!(u(&job(&v, 2)["read"]["io_bytes"]), 8 << 20);

    let o = iomark(&["run", "--output-format=json", "--section=a2", &a, &b]);
    let v = json(&o);
    assert_eq!(v["jobs"].as_array().unwrap().len(), 1);
    assert_eq!(job(&v, 0)["jobname"], "a2");

    // A job file on standard input.
    let mut c = Command::new(bin())
        .args(["run", "--output-format=json", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    c.stdin
        .take()
        .unwrap()
        .write_all(b"[s]\nioengine=null\nsize=1m\nrw=write\nthread\n")
        .unwrap();
    let o = c.wait_with_output().unwrap();
    let v = json(&o);
    assert_eq!(u(&job(&v, 0)["write"]["io_bytes"]), 1 << 20);
    // The warning for `thread` is in the output's notes, with its line; stderr stays empty.
    let notes = v["iomark"]["notes"].to_string();
    assert!(
        notes.contains("-:5:1: warning: [s] option 'thread' is ignored"),
        "{notes}"
    );
    assert!(stderr(&o).is_empty(), "{}", stderr(&o));
}

#[test]
fn parse_only_lists_every_problem_and_fails() {
    let d = Scratch::new("parseonly");
    let good = write(&d, "good.fio", "[g]\nioengine=null\nsize=1m\n");
    let bad = write(
        &d,
        "bad.fio",
        "[x]\nsizee=1m\nrw=randomread\n[y]\nbs=4k\nsize=1k\n",
    );
    let o = iomark(&["run", "--parse-only", &good]);
    ok(&o);
    assert!(stdout(&o).is_empty());
    // Targets of another machine (/mnt/nocache) do not make a valid file invalid: a warning.
    let seed = seed_file("azure-fiowrite.ini");
    let o = iomark(&["run", "--parse-only", seed.to_str().unwrap()]);
    ok(&o);
    assert!(
        stderr(&o).contains("warning: a run on this machine would be refused"),
        "{}",
        stderr(&o)
    );
    let o = iomark(&["run", "--parse-only", &good, &bad]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stdout(&o).is_empty());
    let e = stderr(&o);
    for needle in [
        "bad.fio:2:1: error: [x] unknown option 'sizee' (did you mean 'size'?)",
        "bad.fio:3:4: error: [x] invalid value 'randomread' for option 'rw'",
        "bad.fio:4:1: error: [y] block size 4096 is larger than size=1024",
        "3 problems found; nothing was run",
    ] {
        assert!(e.contains(needle), "missing {needle:?} in\n{e}");
    }
}

#[test]
fn strict_turns_warnings_into_errors() {
    let d = Scratch::new("strict");
    let f = write(&d, "t.fio", "[t]\nioengine=null\nsize=1m\ngtod_cpu=1\n");
    let o = iomark(&["run", "--output-format=json", "--warnings", &f]);
    json(&o);
    assert!(stderr(&o).contains("t.fio:4:1: warning: [t] option 'gtod_cpu' is ignored"));
    let o = iomark(&["run", "--strict", &f]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("t.fio:4:1: error: [t] option 'gtod_cpu' is ignored"));
    let o = iomark(&[
        "run",
        "--strict",
        "--name=x",
        "--ioengine=null",
        "--size=1m",
        "--thread",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("option 'thread' is ignored"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn showcmd_output_runs_as_the_same_jobs() {
    let d = Scratch::new("showcmd");
    let file = seed_file("azure-fioreadwrite.ini");
    let dir = format!("--override=directory={}", d.path.display());
    let o = iomark(&[
        "run",
        "--showcmd",
        &dir,
        "--override=size=1m",
        file.to_str().unwrap(),
    ]);
    ok(&o);
    let line = stdout(&o);
    assert!(line.starts_with("iomark run "), "{line}");
    assert!(line.contains("--override=size=1m"));
    // Run both as --parse-only with --result-like output: compare the JSON job lists' options.
    let words: Vec<&str> = line.split_whitespace().skip(2).collect();
    let mut a = vec!["--showcmd"];
    a.extend(&words);
    let mut args = vec!["run"];
    args.extend(a);
    let again = iomark(&args);
    ok(&again);
    assert_eq!(
        stdout(&again),
        line,
        "showcmd is stable through a round trip"
    );
}
