//! The one gate for every file a command reads or writes (issue 24): no output replaces an
//! input (also through a link), every output is checked before any work, inputs are regular
//! files of a stated size, write errors on stdout end with status 1.

use crate::util::*;
use std::os::unix::fs::MetadataExt;
use std::path::Path;

/// A small iomark result file at `path`.
fn result_file(d: &Scratch, path: &Path) {
    let r = format!("--result={}", path.display());
    let f = format!("--filename={}", d.s("data"));
    let o = iomark_in(
        &[
            "run",
            "--name=a",
            &f,
            "--rw=read",
            "--size=1m",
            "--output-format=json",
            &r,
        ],
        &d.path,
    );
    ok(&o);
}

fn fingerprint(p: &Path) -> (u64, Vec<u8>) {
    (
        std::fs::metadata(p).unwrap().ino(),
        std::fs::read(p).unwrap(),
    )
}

#[test]
fn result_tools_never_overwrite_their_inputs() {
    let d = Scratch::new("gate-inputs");
    let (a, b) = (d.file("a.json"), d.file("b.json"));
    result_file(&d, &a);
    result_file(&d, &b);
    std::os::unix::fs::symlink(&a, d.file("sl.json")).unwrap();
    std::fs::hard_link(&b, d.file("hl.json")).unwrap();
    let (fa, fb) = (fingerprint(&a), fingerprint(&b));
    let cases: [&[&str]; 8] = [
        &["report", "a.json", "-o", "a.json"],
        &["report", "a.json", "-o", "sl.json"],
        &["report", "b.json", "a.json", "--output=hl.json"],
        &["compare", "a.json", "b.json", "--report", "b.json"],
        &["merge", "a.json", "b.json", "--result", "a.json"],
        &["merge", "a.json", "b.json", "--output=hl.json"],
        &["export", "a.json", "--csv", "a.json"],
        &["export", "a.json", "b.json", "--xlsx", "sl.json"],
    ];
    for args in cases {
        let o = iomark_in(args, &d.path);
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {e}");
        assert!(
            e.contains("it is an input of this command"),
            "{args:?}: {e}"
        );
        assert_eq!(fingerprint(&a), fa, "{args:?}");
        assert_eq!(fingerprint(&b), fb, "{args:?}");
    }
    // The job file of a run is an input too.
    let job = d.file("j.fio");
    std::fs::write(&job, "[j]\nrw=read\nsize=1m\nfilename=data\n").unwrap();
    let o = iomark_in(&["run", "j.fio", "--output=j.fio"], &d.path);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("it is an input of this command"),
        "{}",
        stderr(&o)
    );
    assert!(std::fs::read_to_string(&job).unwrap().starts_with("[j]"));
    // Other outputs are fine.
    let o = iomark_in(&["report", "a.json", "sl.json", "-o", "r.html"], &d.path);
    ok(&o);
}

#[test]
fn result_tools_read_regular_files_of_a_stated_size() {
    let d = Scratch::new("gate-read");
    let fifo = d.file("fifo");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: c is a valid path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let big = d.file("big.json");
    std::fs::File::create(&big)
        .unwrap()
        .set_len((256 << 20) + 1)
        .unwrap();
    for input in ["/dev/zero", "fifo", "big.json"] {
        let cmds: [&[&str]; 4] = [
            &["report", input, "-o", "r.html"],
            &["compare", "big.json", input],
            &["merge", input],
            &["export", input, "--csv", "x.csv"],
        ];
        for args in cmds {
            // A FIFO without a writer would hang, /dev/zero grow without bound.
            let o = iomark_in(args, &d.path);
            let e = stderr(&o);
            assert_eq!(o.status.code(), Some(2), "{args:?}: {e}");
            let want = if input == "big.json" || args[0] == "compare" {
                "larger than 256 MiB, the most iomark reads as a result file"
            } else if input == "fifo" {
                "it is a FIFO (named pipe), not a regular file"
            } else {
                "it is a character device, not a regular file"
            };
            assert!(e.contains(want), "{args:?}: {e}");
        }
    }
    for (spec, want) in [
        ("/dev/zero", "it is a character device, not a regular file"),
        ("fifo", "it is a FIFO (named pipe), not a regular file"),
    ] {
        let o = iomark_in(&["iometer", "--spec-file", spec], &d.path);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(stderr(&o).contains(want), "{}", stderr(&o));
    }
    let huge = d.file("huge.toml");
    std::fs::File::create(&huge)
        .unwrap()
        .set_len(2 << 20)
        .unwrap();
    let o = iomark_in(&["iometer", "--spec-file", "huge.toml"], &d.path);
    assert!(
        stderr(&o).contains("larger than 1 MiB, the most iomark reads as a spec file"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn report_reads_normal_and_json_and_the_status_interval_stream() {
    let d = Scratch::new("gate-streams");
    let f = format!("--filename={}", d.s("data"));
    let o = iomark_in(
        &[
            "run",
            "--name=a",
            &f,
            "--rw=read",
            "--size=1m",
            "--output-format=normal,json",
        ],
        &d.path,
    );
    ok(&o);
    std::fs::write(d.file("nj.txt"), &o.stdout).unwrap();
    let o = iomark_in(
        &[
            "run",
            "--name=a",
            &f,
            "--rw=read",
            "--size=1m",
            "--rate=512k",
            "--output-format=json",
            "--status-interval=1",
        ],
        &d.path,
    );
    ok(&o);
    let text = stdout(&o);
    assert!(text.matches("\"fio version\"").count() >= 2, "{text}");
    std::fs::write(d.file("si.json"), &o.stdout).unwrap();
    for input in ["nj.txt", "si.json"] {
        let o = iomark_in(&["report", input, "-o", "r.html"], &d.path);
        ok(&o);
        let o = iomark_in(&["export", input, "--csv", "x.csv"], &d.path);
        ok(&o);
        // The final report: the whole megabyte read.
        let csv = std::fs::read_to_string(d.file("x.csv")).unwrap();
        assert!(csv.lines().count() >= 2, "{csv}");
    }
}

/// Runs iomark in `cwd` by bash with `redirect` after the command (`> /dev/full`, `| head -1`),
/// returning iomark's own exit status and what it wrote on stderr.
fn iomark_redirected(args: &[&str], redirect: &str, cwd: &Path) -> (i32, String) {
    let script = format!("\"$0\" \"$@\" 2>\"$IOMARK_ERR\" {redirect}; exit ${{PIPESTATUS[0]}}");
    let err = cwd.join("stderr.txt");
    let o = std::process::Command::new("bash")
        .arg("-c")
        .arg(script)
        .arg(bin())
        .args(args)
        .env("IOMARK_ERR", &err)
        .current_dir(cwd)
        .bounded_output()
        .unwrap();
    let e = std::fs::read_to_string(&err).unwrap_or_default();
    (o.status.code().unwrap_or(-1), e)
}

#[test]
fn write_errors_on_stdout_end_with_status_1_and_a_closed_pipe_quietly() {
    let d = Scratch::new("gate-stdout");
    let f = format!("--filename={}", d.s("data"));
    let run: &[&str] = &["run", "--name=a", &f, "--rw=read", "--size=1m"];
    let json: &[&str] = &[
        "run",
        "--name=a",
        &f,
        "--rw=read",
        "--size=1m",
        "--output-format=json",
    ];
    for args in [run, json, &["man"], &["completions", "bash"], &["--help"]] {
        let (code, e) = iomark_redirected(args, "> /dev/full", &d.path);
        assert_eq!(code, 1, "{args:?}: {e}");
        assert!(
            e.starts_with("iomark: cannot write") && e.contains("No space left on device"),
            "{args:?}: {e}"
        );
        assert!(!e.contains("panicked"), "{args:?}: {e}");
    }
    // A reader that stops early: quiet, and status 0 for texts (a run ends as `cat` does).
    for args in [&["man"][..], &["completions", "bash"]] {
        let (code, e) = iomark_redirected(args, "| head -1 >/dev/null", &d.path);
        assert_eq!(code, 0, "{args:?}: {e}");
        assert!(e.is_empty(), "{args:?}: {e}");
    }
    let (code, e) = iomark_redirected(json, "| head -1 >/dev/null", &d.path);
    assert!(code == 0 || code == 141, "{code}: {e}");
    assert!(e.is_empty(), "{e}");
}

/// What each front end is given to write `out` (a result, report, CSV, trace), with its target
/// in `d`.
fn front_ends(d: &Scratch, out: &str) -> Vec<Vec<String>> {
    let data = d.s("data");
    let dir = d.path.display().to_string();
    let lines: Vec<String> = vec![
        format!("run --name=a --filename={data} --size=1m --rw=write --output={out}"),
        format!("run --name=a --filename={data} --size=1m --rw=write --result={out}"),
        format!("run --name=a --filename={data} --size=1m --rw=write --report={out}"),
        format!("run --name=a --filename={data} --size=1m --rw=write --write_iolog={out}"),
        format!("run --name=a --filename={data} --size=1m --rw=write --repeat=2 --result={out}"),
        format!("quick {dir} --size=4m --runtime=1 --report={out}"),
        format!("preset run cdm-standard {dir} --size=4m --runtime=1 --result={out}"),
        format!("sweep --name=s --directory={dir} --size=1m --runtime=1 --bs=4k,8k --result={out}"),
        format!("iometer {dir} --spec 4k,0,0 --size 4m --runtime 1 --result {out}"),
        format!("iometer {dir} --spec 4k,0,0 --size 4m --runtime 1 --csv {out}"),
        format!("iometer {dir} --spec 4k,0,0 --size 4m --runtime 1 --write-iolog {out}"),
        format!("dd if=/dev/zero of={data} bs=64k count=4 --result-file={out}"),
        format!("hdparm -T {} --result-file={out}", d.s("existing")),
    ];
    lines
        .iter()
        .map(|l| l.split(' ').map(str::to_string).collect())
        .collect()
}

/// The names in `d`, sorted.
fn names(d: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

#[test]
fn every_output_is_checked_before_any_io() {
    let d = Scratch::new("gate-early");
    std::fs::write(d.file("existing"), vec![7u8; 1 << 20]).unwrap();
    let missing = d.s("no/such/dir/out.json");
    let mut outs = vec![(missing, "no such directory")];
    // A read-only filesystem (root: a tmpfs mounted read-only).
    let ro = Scratch::new("gate-ro");
    let mounted = is_root()
        && std::process::Command::new("mount")
            .args(["-t", "tmpfs", "-o", "ro,size=1m", "tmpfs"])
            .arg(&ro.path)
            .status()
            .is_ok_and(|s| s.success());
    if mounted {
        outs.push((ro.s("out.json"), "Read-only file system"));
    }
    for (out, why) in &outs {
        for args in front_ends(&d, out) {
            let a: Vec<&str> = args.iter().map(String::as_str).collect();
            let o = iomark_in(&a, &d.path);
            let e = stderr(&o);
            assert!(!o.status.success(), "{args:?}: {e}");
            assert!(
                e.contains(&format!("cannot write output to {out}")) && e.contains(why),
                "{args:?}: {e}"
            );
            // Refused before any I/O: nothing was laid out or written.
            assert_eq!(names(&d.path), ["existing"], "{args:?}: {e}");
            assert!(!e.contains("Laying out"), "{args:?}: {e}");
        }
    }
    if mounted {
        let _ = std::process::Command::new("umount").arg(&ro.path).status();
    }
}

#[test]
fn an_interrupted_pause_between_repetitions_keeps_what_was_measured() {
    use std::os::unix::process::CommandExt;
    let d = Scratch::new("gate-pause");
    let out = d.file("stdout.txt");
    let mut child = std::process::Command::new(bin())
        .args([
            "run",
            "--name=a",
            &format!("--filename={}", d.s("data")),
            "--size=1m",
            "--rw=read",
            "--repeat=3",
            "--repeat-pause=1h",
            &format!("--result={}", d.s("r.json")),
        ])
        .current_dir(&d.path)
        .stdout(std::fs::File::create(&out).unwrap())
        .stderr(std::fs::File::create(d.file("stderr.txt")).unwrap())
        .process_group(0)
        .spawn()
        .unwrap();
    // The first run's report is out: the pause has begun (or is about to).
    let t = std::time::Instant::now();
    while !std::fs::read_to_string(&out)
        .unwrap_or_default()
        .contains("Run status group")
    {
        assert!(t.elapsed().as_secs() < 120, "the first run did not end");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    // SAFETY: kill takes no memory; the pid is our own child's.
    unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) };
    let t = std::time::Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if t.elapsed().as_secs() > 120 {
            let _ = child.kill();
            panic!("one SIGINT did not end the pause");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    let e = std::fs::read_to_string(d.file("stderr.txt")).unwrap();
    assert_eq!(status.code(), Some(130), "{e}");
    assert!(
        e.contains("interrupted during the pause; 1 of 3 runs done"),
        "{e}"
    );
    let v: serde_json::Value =
        serde_json::from_slice(&std::fs::read(d.file("r.json")).unwrap()).unwrap();
    assert_eq!(v["interrupted"], true);
    assert_eq!(v["runs"].as_array().unwrap().len(), 1);
}

#[test]
fn backing_files_of_attached_loop_devices_are_never_written_or_deleted() {
    crate::blockdev::root_required();
    let d = Scratch::new("gate-loop");
    let img = d.file("img");
    std::fs::write(&img, vec![0x5au8; 8 << 20]).unwrap();
    let o = std::process::Command::new("losetup")
        .args(["-f", "--show"])
        .arg(&img)
        .output()
        .unwrap();
    assert!(o.status.success(), "losetup: {}", stderr(&o));
    let dev = stdout(&o).trim().to_string();
    struct Detach(String);
    impl Drop for Detach {
        fn drop(&mut self) {
            let _ = std::process::Command::new("losetup")
                .args(["-d", &self.0])
                .status();
        }
    }
    let _detach = Detach(dev.clone());
    let before = std::fs::read(&img).unwrap();
    let f = format!("--filename={}", img.display());
    let of = format!("of={}", img.display());
    let cases: [&[&str]; 4] = [
        &[
            "dd",
            "if=/dev/zero",
            &of,
            "bs=64k",
            "count=1",
            "conv=notrunc",
        ],
        &["run", "--name=w", &f, "--rw=write", "--size=1m"],
        &[
            "run",
            "--name=d",
            &f,
            "--ioengine=filedelete",
            "--rw=read",
            "--size=1m",
        ],
        &[
            "run",
            "--name=u",
            &f,
            "--rw=read",
            "--size=1m",
            "--unlink=1",
            "--allow-unlink-existing",
        ],
    ];
    for args in cases {
        let o = iomark_in(args, &d.path);
        let e = stderr(&o);
        assert!(!o.status.success(), "{args:?}: {e}");
        assert!(
            e.contains(&format!("the backing file of {dev} which is attached")),
            "{args:?}: {e}"
        );
        assert_eq!(
            std::fs::read(&img).unwrap(),
            before,
            "{args:?}: backing file changed"
        );
    }
}

#[test]
fn filedelete_and_unlink_never_delete_the_backing_file_of_a_mounted_loop_device() {
    crate::blockdev::root_required();
    let mut lp = crate::blockdev::Loop::new("gate-mnt", 32 << 20, true);
    let img = lp._dir.file("img");
    let mnt = lp.mount(None);
    let f = format!("--filename={}", img.display());
    let cases: [&[&str]; 2] = [
        &[
            "run",
            "--name=d",
            &f,
            "--ioengine=filedelete",
            "--rw=read",
            "--size=1m",
        ],
        &[
            "run",
            "--name=u",
            &f,
            "--rw=read",
            "--size=1m",
            "--unlink=1",
            "--allow-unlink-existing",
        ],
    ];
    for args in cases {
        let o = iomark(args);
        let e = stderr(&o);
        assert!(!o.status.success(), "{args:?}: {e}");
        assert!(
            e.contains(&format!(
                "the backing file of {} which is mounted on {}",
                lp.dev,
                mnt.display()
            )),
            "{args:?}: {e}"
        );
        assert!(img.is_file(), "{args:?}: backing file deleted");
    }
}

#[test]
fn dd_offsets_sizes_and_queue_limits_are_checked_before_any_allocation() {
    let d = Scratch::new("gate-dd");
    let of = format!("of={}", d.s("out"));
    let cases: [(&[&str], &str); 5] = [
        (
            &[
                "dd",
                "if=/dev/zero",
                &of,
                "bs=1M",
                "count=1",
                "seek=18446744073709551615",
            ],
            "seek=18446744073709551615: offset too large",
        ),
        (
            &["dd", "if=/dev/zero", &of, "bs=1000G", "count=1"],
            "its I/O buffers need 1073741824000 bytes",
        ),
        (
            &["dd", "if=/dev/zero", "of=/dev/null", "bs=1000G", "count=1"],
            "its I/O buffers need 1073741824000 bytes",
        ),
        (
            &[
                "run",
                "--name=a",
                "--ioengine=null",
                "--size=2000g",
                "--bs=1000g",
                "--rw=read",
            ],
            "its I/O buffers need 1073741824000 bytes",
        ),
        (
            &[
                "run",
                "--name=a",
                "--ioengine=libaio",
                "--iodepth=2000000",
                "--size=1m",
                "--rw=read",
            ],
            "a libaio queue depth of 2000000 needs 2000000 AIO events",
        ),
    ];
    for (args, want) in cases {
        let o = iomark_in(args, &d.path);
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {e}");
        assert!(e.contains(want), "{args:?}: {e}");
        assert!(!d.file("out").exists(), "{args:?}");
    }
    // The IOPS line quotes the size of the I/Os that ran.
    let o = iomark_in(
        &[
            "dd",
            "if=/dev/zero",
            &of,
            "bs=1M",
            "count=1000",
            "iflag=count_bytes",
        ],
        &d.path,
    );
    ok(&o);
    assert!(
        stderr(&o).contains("IOPS (1000-byte writes)"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn dd_past_the_end_of_a_device_reports_the_short_write() {
    crate::blockdev::root_required();
    let lp = crate::blockdev::Loop::new("gate-ddend", 3 << 20, false);
    let of = format!("of={}", lp.dev);
    let o = iomark(&["dd", "if=/dev/zero", &of, "bs=1M", "count=4"]);
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{e}");
    assert!(
        e.contains(&format!(
            "error writing '{}': No space left on device",
            lp.dev
        )) && e.contains("3+0 records out"),
        "{e}"
    );
    let o = iomark(&["dd", "if=/dev/zero", &of, "bs=1M", "count=1", "seek=3"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("past the end of the device"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn merge_refuses_jobs_whose_options_differ_unless_forced() {
    let d = Scratch::new("gate-merge");
    let f = format!("--filename={}", d.s("data"));
    for (name, bs) in [("a.json", "4k"), ("b.json", "4k"), ("c.json", "1m")] {
        let r = format!("--result={}", d.s(name));
        let bs = format!("--bs={bs}");
        let o = iomark_in(
            &[
                "run",
                "--name=j",
                &f,
                "--rw=read",
                "--size=1m",
                &bs,
                "--output-format=json",
                &r,
            ],
            &d.path,
        );
        ok(&o);
    }
    ok(&iomark_in(
        &["merge", "a.json", "b.json", "--output=/dev/null"],
        &d.path,
    ));
    let o = iomark_in(
        &["merge", "a.json", "c.json", "--output=/dev/null"],
        &d.path,
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("refusing to merge different workloads: job j of rank 0 and job j of rank 1 differ in bs"),
        "{}",
        stderr(&o)
    );
    let o = iomark_in(
        &["merge", "a.json", "c.json", "--force", "--output=/dev/null"],
        &d.path,
    );
    ok(&o);
    assert!(
        stderr(&o).contains("merging different workloads (--force)"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_symlinked_or_hard_linked_output_keeps_its_inode_owner_and_mode() {
    use std::os::unix::fs::PermissionsExt;
    let d = Scratch::new("gate-link");
    let real = d.file("real.txt");
    std::fs::write(&real, "old").unwrap();
    std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o600)).unwrap();
    std::os::unix::fs::symlink(&real, d.file("sl.txt")).unwrap();
    std::fs::hard_link(&real, d.file("hl.txt")).unwrap();
    let ino = std::fs::metadata(&real).unwrap().ino();
    let f = format!("--filename={}", d.s("data"));
    for out in ["--output=sl.txt", "--output=hl.txt"] {
        let o = iomark_in(
            &["run", "--name=a", &f, "--rw=read", "--size=1m", out],
            &d.path,
        );
        ok(&o);
        let m = std::fs::metadata(&real).unwrap();
        assert_eq!(
            (m.ino(), m.mode() & 0o7777, m.nlink()),
            (ino, 0o600, 2),
            "{out}"
        );
        assert!(std::fs::read_to_string(&real)
            .unwrap()
            .contains("Run status group"));
        assert!(std::fs::symlink_metadata(d.file("sl.txt"))
            .unwrap()
            .file_type()
            .is_symlink());
    }
}

#[test]
fn quick_runtime_zero_is_refused_and_csv_formula_cells_are_neutralised() {
    let d = Scratch::new("gate-misc");
    let o = iomark_in(
        &["quick", &d.path.display().to_string(), "--runtime=0"],
        &d.path,
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("--runtime must be more than 0"),
        "{}",
        stderr(&o)
    );
    let f = format!("--filename={}", d.s("data"));
    let r = format!("--result={}", d.s("r.json"));
    ok(&iomark_in(
        &[
            "run",
            "--name==cmd|' /C calc'!A0",
            &f,
            "--rw=read",
            "--size=1m",
            &r,
        ],
        &d.path,
    ));
    ok(&iomark_in(&["export", "r.json", "--csv", "x.csv"], &d.path));
    let csv = std::fs::read_to_string(d.file("x.csv")).unwrap();
    assert!(csv.contains("'=cmd|"), "{csv}");
    assert!(
        !csv.lines()
            .any(|l| l.split(',').any(|c| c.starts_with('='))),
        "{csv}"
    );
}

#[cfg(not(feature = "mpi"))]
#[test]
fn a_build_without_mpi_started_by_mpirun_warns() {
    let d = Scratch::new("gate-mpi");
    let o = std::process::Command::new(bin())
        .args([
            "run",
            "--name=a",
            "--ioengine=null",
            "--size=1m",
            "--rw=read",
        ])
        .env("OMPI_COMM_WORLD_SIZE", "4")
        .current_dir(&d.path)
        .bounded_output()
        .unwrap();
    ok(&o);
    assert!(
        stderr(&o).contains("started as one of 4 ranks"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_read_only_target_directory_is_said_as_such() {
    // A read-only filesystem (a tmpfs mounted read-only): never "no space" or "no direct I/O"
    // and then a failed layout.
    crate::blockdev::root_required();
    let ro = Scratch::new("target-ro");
    let mounted = std::process::Command::new("mount")
        .args(["-t", "tmpfs", "-o", "ro,size=10m", "tmpfs"])
        .arg(&ro.path)
        .status()
        .is_ok_and(|s| s.success());
    assert!(mounted, "mount of a read-only tmpfs failed");
    struct Unmount<'a>(&'a std::path::Path);
    impl Drop for Unmount<'_> {
        fn drop(&mut self) {
            // Lazily when busy, so that the scratch directory under it is removed too.
            let unmounted = std::process::Command::new("umount").arg(self.0).status();
            if !unmounted.is_ok_and(|s| s.success()) {
                let _ = std::process::Command::new("umount")
                    .arg("-l")
                    .arg(self.0)
                    .status();
            }
        }
    }
    let _unmount = Unmount(&ro.path);
    let dir = ro.s("");
    let file = ro.s("x");
    let file2 = ro.s("y");
    for args in [
        vec!["iozone", "-s", "1m", "-r", "4k", "-i", "0", "-f", &file],
        vec![
            "iozone", "-t", "2", "-s", "1m", "-r", "4k", "-i", "0", "-F", &file, &file2,
        ],
        vec!["preset", "run", "backup-repo", &dir],
        vec!["rbd-bench", "--io-type", "write", &dir],
        vec!["iometer", &dir, "--spec", "4k,100,0", "--runtime", "1"],
        vec!["quick", &dir, "--runtime", "1"],
    ] {
        let o = iomark(&args);
        let e = stderr(&o);
        assert!(!o.status.success(), "{args:?}: {e}");
        assert!(
            (e.contains("cannot create the test file in") || e.contains("cannot create files in"))
                && e.to_lowercase().contains("read-only file system"),
            "{args:?}: {e}"
        );
        assert!(
            !e.contains("free") && !e.contains("laying out"),
            "{args:?}: {e}"
        );
        assert!(
            !stdout(&o).contains("test complete"),
            "{args:?}: {}",
            stdout(&o)
        );
    }
}
