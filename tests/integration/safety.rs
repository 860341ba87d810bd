//! Data safety against real failures (root only; CI runs as root): mounted and formatted block
//! devices, a full tmpfs, I/O errors and short transfers injected by a FUSE filesystem, data
//! corrupted behind iomark's back, and interruption by signals. Every resource a test creates
//! (mounts, loop devices, files) is released by a guard's `Drop`, so also when a test fails.

use crate::blockdev::Loop;
use crate::util::*;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

#[track_caller]
fn root_required() {
    assert!(
        is_root(),
        "the safety tests need root (loop devices, mounts, FUSE); run the test suite as root"
    );
}

/// stdout as JSON whatever the exit status (failing runs must still print valid JSON).
#[track_caller]
fn any_json(o: &Output) -> Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not JSON ({e}) (exit {:?}):\n{}\nstderr:\n{}",
            o.status.code(),
            stdout(o),
            stderr(o)
        )
    })
}

#[track_caller]
fn failed(o: &Output) {
    assert!(
        !o.status.success(),
        "expected a failure exit\nstdout:\n{}\nstderr:\n{}",
        stdout(o),
        stderr(o)
    );
}

/// A filesystem mounted for a test, unmounted on drop.
struct MountGuard {
    path: PathBuf,
}

impl MountGuard {
    fn tmpfs(dir: &Path, size: &str) -> MountGuard {
        std::fs::create_dir_all(dir).unwrap();
        let st = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "iomark-test"])
            .arg(dir)
            .status()
            .unwrap();
        assert!(st.success(), "mounting a tmpfs on {}", dir.display());
        MountGuard {
            path: dir.to_path_buf(),
        }
    }
}

impl Drop for MountGuard {
    fn drop(&mut self) {
        let ok = Command::new("umount")
            .arg(&self.path)
            .status()
            .is_ok_and(|s| s.success());
        if !ok {
            let _ = Command::new("umount").arg("-l").arg(&self.path).status();
        }
    }
}

fn used_bytes(dir: &Path) -> u64 {
    let c = std::ffi::CString::new(dir.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: statvfs is plain data; all zeroes is a valid value.
    let mut s: libc::statvfs = unsafe { std::mem::zeroed() };
    // SAFETY: `c` is a NUL-terminated path and `s` a stack value the kernel fills in.
    assert_eq!(unsafe { libc::statvfs(c.as_ptr(), &mut s) }, 0);
    (s.f_blocks - s.f_bfree) * s.f_frsize
}

// ---------------------------------------------------------------------------------------------
// Block devices
// ---------------------------------------------------------------------------------------------

#[test]
fn mounted_device_is_never_written_without_allow_mounted_write() {
    root_required();
    let mut lp = Loop::new("safemnt", 32 << 20, true);
    // Read-only, so that the kernel itself (ext4's lazy inode-table init, superblock updates)
    // does not change the bytes the test compares; the refusal is the same for any mount.
    let mnt = lp.mount(Some("ro"));
    let before = lp.checksum();
    let f = format!("--filename={}", lp.dev);
    for extra in [&[][..], &["--force-device-write"][..]] {
        let mut args = vec!["run"];
        args.extend_from_slice(extra);
        args.extend_from_slice(&["--name=w", &f, "--rw=randwrite", "--size=4m", "--direct=1"]);
        let o = iomark(&args);
        failed(&o);
        let e = stderr(&o);
        assert!(
            e.contains("mounted") && e.contains(&mnt.display().to_string()),
            "{e}"
        );
        assert!(e.contains("allow_mounted_write=1"), "{e}");
        assert_eq!(lp.checksum(), before, "mounted device modified");
    }
    // allow_mounted_write alone still meets the filesystem-signature check...
    let o = iomark(&[
        "run",
        "--name=w",
        &f,
        "--rw=write",
        "--offset=30m",
        "--size=1m",
        "--allow_mounted_write=1",
    ]);
    failed(&o);
    assert!(stderr(&o).contains("ext4"), "{}", stderr(&o));
    assert_eq!(lp.checksum(), before, "mounted device modified");
    // ...and with both the write proceeds (to the end of the device, away from the metadata).
    let o = iomark(&[
        "run",
        "--output-format=json",
        "--force-device-write",
        "--name=w",
        &f,
        "--rw=write",
        "--offset=30m",
        "--size=1m",
        "--allow_mounted_write=1",
    ]);
    let v = json(&o);
    assert_eq!(u(&job(&v, 0)["write"]["io_bytes"]), 1 << 20);
    assert_ne!(lp.checksum(), before);
}

#[test]
fn signatures_on_an_unmounted_device_need_force_device_write() {
    root_required();
    let lp = Loop::new("safesig", 16 << 20, false);
    let f = format!("--filename={}", lp.dev);
    for (tool, args, found) in [
        ("mkfs.ext4", &["-q", "-F"][..], "ext4"),
        ("mkswap", &[][..], "swap"),
    ] {
        let st = Command::new(tool)
            .args(args)
            .arg(&lp.dev)
            .bounded_output()
            .unwrap();
        assert!(st.status.success(), "{tool}: {}", stderr(&st));
        let before = lp.checksum();
        let o = iomark(&["run", "--name=w", &f, "--rw=randwrite", "--size=2m"]);
        failed(&o);
        let e = stderr(&o);
        assert!(
            e.contains(found) && e.contains("--force-device-write"),
            "{e}"
        );
        assert_eq!(lp.checksum(), before, "{tool}: device modified");
    }
}

// ---------------------------------------------------------------------------------------------
// A full filesystem
// ---------------------------------------------------------------------------------------------

#[test]
fn free_space_check_and_enospc_mid_run() {
    root_required();
    let d = Scratch::new("safefull");
    let mnt = d.file("tmpfs");
    let m = MountGuard::tmpfs(&mnt, "8m");
    let target = mnt.join("big");
    let ft = format!("--filename={}", target.display());
    let used0 = used_bytes(&m.path);

    // Refused before any byte is written, with both figures and the way out.
    let o = iomark(&["run", "--name=fill", &ft, "--rw=write", "--size=64m"]);
    failed(&o);
    let e = stderr(&o);
    assert!(
        e.contains("64 MiB") && e.contains("8 MiB") && e.contains("--allow-fill"),
        "{e}"
    );
    assert!(!target.exists(), "file created despite the refusal");
    assert_eq!(used_bytes(&m.path), used0);

    // With --allow-fill the job meets ENOSPC; a job elsewhere goes on.
    let other = d.file("other");
    let fo = format!("--filename={}", other.display());
    let args = |fmt: &str| -> Vec<String> {
        [
            "run",
            fmt,
            "--allow-fill",
            "--name=fill",
            &ft,
            "--rw=write",
            "--bs=64k",
            "--size=64m",
            "--name=other",
            &fo,
            "--rw=randwrite",
            "--size=4m",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect()
    };
    let run = |a: Vec<String>| {
        let _ = std::fs::remove_file(&target);
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        iomark(&a)
    };
    let o = run(args("--output-format=json"));
    failed(&o);
    let v = any_json(&o);
    let fill = job(&v, 0);
    assert_eq!(fill["jobname"], "fill");
    assert_eq!(u(&fill["error"]), libc::ENOSPC as u64, "{fill}");
    let written = u(&fill["write"]["io_bytes"]);
    assert!(written > 0 && written <= 8 << 20, "{written}");
    assert_eq!(u(&fill["iomark"]["errors"]["write"]), 1);
    let msg = fill["iomark"]["error_msg"].as_str().unwrap();
    assert!(
        msg.contains(&target.display().to_string()) && msg.contains("at offset"),
        "{msg}"
    );
    assert!(
        msg.to_lowercase().contains("no space left on device"),
        "{msg}"
    );
    let oj = job(&v, 1);
    assert_eq!(u(&oj["error"]), 0);
    assert_eq!(
        u(&oj["write"]["io_bytes"]),
        4 << 20,
        "the other job stopped"
    );
    let e = stderr(&o);
    assert!(
        e.contains("No space left on device") && e.contains(&target.display().to_string()),
        "{e}"
    );
    // The offset where it failed and the bytes written before, as the message says them.
    assert!(e.contains(&format!("after {written} bytes")), "{e}");

    // The normal report is complete too.
    let o = run(args("--output-format=normal"));
    failed(&o);
    let s = stdout(&o);
    for want in [
        "fill: (groupid=0",
        "other: (groupid=0",
        "err=28",
        "Run status group 0",
        "WRITE: bw=",
    ] {
        assert!(s.contains(want), "missing {want:?} in\n{s}");
    }

    // exitall on the failing job stops the others.
    let _ = std::fs::remove_file(&target);
    let t0 = Instant::now();
    let o = iomark(&[
        "run",
        "--output-format=json",
        "--allow-fill",
        "--name=fill",
        &ft,
        "--rw=write",
        "--bs=64k",
        "--size=64m",
        "--exitall",
        "--name=other",
        &fo,
        "--rw=randwrite",
        "--size=4m",
        "--time_based",
        "--runtime=60",
    ]);
    failed(&o);
    let v = any_json(&o);
    assert!(t0.elapsed() < Duration::from_secs(30), "exitall ignored");
    assert_eq!(u(&job(&v, 1)["error"]), 0);
    drop(m);
}

// ---------------------------------------------------------------------------------------------
// I/O errors and short transfers from a FUSE filesystem
// ---------------------------------------------------------------------------------------------

use crate::faultfs::{FaultFs, FuseMount};

const MIB: u64 = 1 << 20;

fn fault_fs(bad_read: &[u64], bad_write: &[u64]) -> FaultFs {
    FaultFs {
        data: Mutex::new(vec![0u8; MIB as usize]),
        bad_read: bad_read.iter().map(|&o| (o, o + 4096)).collect(),
        bad_write: bad_write.iter().map(|&o| (o, o + 4096)).collect(),
        short_read: Vec::new(),
        short_write: Vec::new(),
        errno: 0,
    }
}

fn fuse_run(fm: &FuseMount, extra: &[&str]) -> Output {
    let f = format!("--filename={}", fm.file.display());
    let mut args = vec![
        "run",
        "--output-format=json",
        "--name=f",
        f.as_str(),
        "--bs=4k",
        "--size=1m",
    ];
    args.extend_from_slice(extra);
    iomark(&args)
}

#[test]
fn io_errors_name_file_and_offset_and_stop_the_job() {
    root_required();
    let fm = FuseMount::new("safeeio", fault_fs(&[200 * 4096], &[100 * 4096]));
    let path = fm.file.display().to_string();
    for (rw, dir, off) in [("write", "write", 100 * 4096), ("read", "read", 200 * 4096)] {
        let o = fuse_run(&fm, &[&format!("--rw={rw}")]);
        failed(&o);
        let v = any_json(&o);
        let j = job(&v, 0);
        assert_eq!(u(&j["error"]), libc::EIO as u64, "{j}");
        assert_eq!(
            u(&j[dir]["io_bytes"]),
            off,
            "{rw}: the job went on after the error"
        );
        assert_eq!(u(&j["iomark"]["errors"][dir]), 1);
        let e = stderr(&o);
        assert!(
            e.contains(&path) && e.contains(&format!("at offset {off}")),
            "{rw}: {e}"
        );
        assert!(e.contains("Input/output error"), "{e}");
    }
}

#[test]
fn continue_on_error_follows_fio() {
    root_required();
    // Reads fail at two blocks, writes at three.
    let bad_r = [10 * 4096, 20 * 4096];
    let bad_w = [30 * 4096, 40 * 4096, 50 * 4096];
    let fm = FuseMount::new("safecoe", fault_fs(&bad_r, &bad_w));
    // Sequential rw=rw visits every block once per direction... with rwmixread=50 the blocks are
    // split between reads and writes, so use separate passes: a read job and a write job.
    struct Case {
        coe: &'static str,
        // (read tolerated, write tolerated)
        tolerate: (bool, bool),
    }
    let cases = [
        Case {
            coe: "none",
            tolerate: (false, false),
        },
        Case {
            coe: "read",
            tolerate: (true, false),
        },
        Case {
            coe: "write",
            tolerate: (false, true),
        },
        Case {
            coe: "io",
            tolerate: (true, true),
        },
        Case {
            coe: "verify",
            tolerate: (false, false),
        },
        Case {
            coe: "all",
            tolerate: (true, true),
        },
    ];
    for c in &cases {
        let coe = format!("--continue_on_error={}", c.coe);
        for (rw, dir, tol, bad) in [
            ("read", "read", c.tolerate.0, &bad_r[..]),
            ("write", "write", c.tolerate.1, &bad_w[..]),
        ] {
            let o = fuse_run(&fm, &[&format!("--rw={rw}"), &coe]);
            let v = any_json(&o);
            let j = job(&v, 0);
            let what = format!("continue_on_error={} rw={rw}", c.coe);
            if tol {
                ok(&o);
                // fio reports the first tolerated error as the job's error; the run succeeds.
                assert_eq!(u(&j["error"]), libc::EIO as u64, "{what}");
                assert_eq!(u(&j["total_err"]), bad.len() as u64, "{what}");
                assert_eq!(u(&j["first_error"]), libc::EIO as u64, "{what}");
                assert_eq!(u(&j["iomark"]["errors"][dir]), bad.len() as u64, "{what}");
                assert_eq!(
                    u(&j[dir]["io_bytes"]),
                    MIB - 4096 * bad.len() as u64,
                    "{what}"
                );
                // The first tolerated error is still reported with file and offset, in the
                // output's notes (stderr stays quiet, as fio's without error_dump).
                let notes = j["iomark"]["notes"].to_string();
                assert!(
                    notes.contains(&format!("at offset {}", bad[0])),
                    "{what}: {notes}"
                );
                assert_eq!(stderr(&o), "", "{what}");
            } else {
                failed(&o);
                assert_eq!(u(&j["error"]), libc::EIO as u64, "{what}");
                assert_eq!(u(&j[dir]["io_bytes"]), bad[0], "{what}");
                assert_eq!(u(&j["iomark"]["errors"][dir]), 1, "{what}");
            }
        }
    }
    // A mixed job counts errors per direction.
    let o = fuse_run(
        &fm,
        &["--rw=randrw", "--continue_on_error=io", "--norandommap"],
    );
    ok(&o);
    let v = any_json(&o);
    let j = job(&v, 0);
    let (er, ew) = (
        u(&j["iomark"]["errors"]["read"]),
        u(&j["iomark"]["errors"]["write"]),
    );
    assert_eq!(u(&j["total_err"]), er + ew);
}

#[test]
fn short_transfers_are_counted() {
    root_required();
    let mut fs = fault_fs(&[], &[]);
    fs.short_read = vec![(5 * 4096, 5 * 4096 + 1), (9 * 4096, 9 * 4096 + 1)];
    fs.short_write = vec![(7 * 4096, 7 * 4096 + 1)];
    let fm = FuseMount::new("safeshort", fs);
    let o = fuse_run(&fm, &["--rw=read"]);
    let v = json(&o);
    assert_eq!(u(&job(&v, 0)["read"]["short_ios"]), 2);
    let o = fuse_run(&fm, &["--rw=write"]);
    let v = json(&o);
    assert_eq!(u(&job(&v, 0)["write"]["short_ios"]), 1);
    let o = fuse_run(&fm, &["--rw=write", "--output-format=normal"]);
    ok(&o);
    assert!(stdout(&o).contains("short=0,1,0,0"), "{}", stdout(&o));
}

#[test]
fn verify_read_errors_name_the_blocks() {
    root_required();
    let fm = FuseMount::new("safeverio", fault_fs(&[64 * 4096], &[]));
    let o = fuse_run(&fm, &["--rw=randwrite", "--verify=crc32c"]);
    failed(&o);
    let v = any_json(&o);
    let j = job(&v, 0);
    assert_eq!(u(&j["error"]), libc::EILSEQ as u64);
    let fails = j["iomark"]["verify"][0]["failures"].as_array().unwrap();
    assert_eq!(fails.len(), 1, "{fails:?}");
    assert_eq!(u(&fails[0]["offset"]), 64 * 4096);
    assert_eq!(fails[0]["check"], "ReadError");
    // continue_on_error=verify lets the job end without an error, counting the bad block.
    let o = fuse_run(
        &fm,
        &[
            "--rw=randwrite",
            "--verify=crc32c",
            "--continue_on_error=verify",
        ],
    );
    ok(&o);
    let v = any_json(&o);
    assert_eq!(u(&job(&v, 0)["total_err"]), 1);
}

// ---------------------------------------------------------------------------------------------
// Corruption behind iomark's back
// ---------------------------------------------------------------------------------------------

#[test]
fn verify_only_reports_exactly_the_damaged_blocks() {
    let d = Scratch::new("safeverify");
    let f = d.file("f");
    let g = d.file("g");
    let bs = 4096usize;
    let base = |file: &Path, loops: &str| -> Vec<String> {
        [
            "run",
            "--output-format=json",
            "--name=v",
            &format!("--filename={}", file.display()),
            "--rw=randwrite",
            "--bs=4k",
            "--size=1m",
            "--ioengine=io_uring",
            "--iodepth=16",
            "--verify=crc32c",
            &format!("--loops={loops}"),
        ]
        .iter()
        .map(|s| s.to_string())
        .collect()
    };
    let go = |a: &[String], extra: &[&str]| {
        let mut v: Vec<&str> = a.iter().map(String::as_str).collect();
        v.extend_from_slice(extra);
        iomark(&v)
    };
    // Written twice over (every block at generation 2) and verified: clean.
    let o = go(&base(&f, "2"), &[]);
    let v = json(&o);
    let rep = &job(&v, 0)["iomark"]["verify"][0];
    assert_eq!(u(&rep["bad_blocks"]), 0);
    // As fio: each of the two passes is verified after it is written (256 blocks each).
    assert_eq!(u(&rep["blocks_checked"]), 512);
    // An older copy of the same data (generation 1).
    json(&go(&base(&g, "1"), &["--do_verify=0"]));
    // Replayed without writing: clean.
    let o = go(&base(&f, "2"), &["--verify_only"]);
    let v = json(&o);
    assert_eq!(u(&job(&v, 0)["iomark"]["verify"][0]["bad_blocks"]), 0);

    let mut data = std::fs::read(&f).unwrap();
    let old = std::fs::read(&g).unwrap();
    let (flip, src, dst, stale) = (17usize, 40usize, 41usize, 200usize);
    data[flip * bs + 777] ^= 0x08;
    let copy = data[src * bs..(src + 1) * bs].to_vec();
    data[dst * bs..(dst + 1) * bs].copy_from_slice(&copy);
    data[stale * bs..(stale + 1) * bs].copy_from_slice(&old[stale * bs..(stale + 1) * bs]);
    std::fs::write(&f, &data).unwrap();

    let o = go(&base(&f, "2"), &["--verify_only", "--verify_dump=1"]);
    failed(&o);
    let v = any_json(&o);
    let j = job(&v, 0);
    assert_eq!(u(&j["error"]), libc::EILSEQ as u64);
    assert_eq!(u(&j["write"]["io_bytes"]), 0, "verify_only wrote");
    let rep = &j["iomark"]["verify"][0];
    assert_eq!(u(&rep["blocks_checked"]), 256);
    let mut found: Vec<(u64, String)> = rep["failures"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| (u(&x["offset"]), x["check"].as_str().unwrap().to_string()))
        .collect();
    found.sort();
    let want = vec![
        ((flip * bs) as u64, "DataChecksum".to_string()),
        ((dst * bs) as u64, "Misdirected".to_string()),
        ((stale * bs) as u64, "Stale".to_string()),
    ];
    assert_eq!(found, want);
    assert_eq!(u(&rep["bad_blocks"]), 3);
    // Expected and found headers are part of each report.
    for x in rep["failures"].as_array().unwrap() {
        assert!(x["expected"].is_object() && x["found"].is_object(), "{x}");
    }
    let mis = rep["failures"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["check"] == "Misdirected")
        .unwrap();
    assert_eq!(u(&mis["found"]["offset"]), (src * bs) as u64);
    let st = rep["failures"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["check"] == "Stale")
        .unwrap();
    assert_eq!(u(&st["found"]["generation"]), 1);
    assert_eq!(u(&st["expected"]["generation"]), 2);
    // stderr names each bad block with its file and offset.
    let e = stderr(&o);
    for (off, check) in &want {
        let line = format!("bad block in {} at offset {off} ", f.display());
        assert!(
            e.lines()
                .any(|l| l.contains(&line) && l.contains(check.as_str())),
            "{line} {check}: {e}"
        );
    }
    // verify_dump wrote the expected and received contents of each bad block.
    for (off, _) in &want {
        let exp = d.file(&format!("f.{off}.expected"));
        let rec = d.file(&format!("f.{off}.received"));
        assert_eq!(
            std::fs::read(&rec).unwrap(),
            data[*off as usize..*off as usize + bs]
        );
        assert_eq!(std::fs::metadata(&exp).unwrap().len(), bs as u64);
    }
}

// ---------------------------------------------------------------------------------------------
// Interruption
// ---------------------------------------------------------------------------------------------

fn interrupt_after(cmd: &mut Command, after: Duration, sig: libc::c_int) -> (Output, Duration) {
    let child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(after);
    let t0 = Instant::now();
    // SAFETY: kill takes no memory; the pid is our own child's.
    unsafe {
        libc::kill(child.id() as libc::pid_t, sig);
    }
    let o = child.wait_with_output().unwrap();
    (o, t0.elapsed())
}

#[test]
fn sigint_leaves_valid_json_marked_interrupted() {
    let d = Scratch::new("safesigint");
    for sig in [libc::SIGINT, libc::SIGTERM] {
        let mut c = Command::new(bin());
        c.current_dir(&d.path).args([
            "run",
            "--output-format=json",
            "--name=t",
            "--filename=f",
            "--rw=randrw",
            "--size=16m",
            "--time_based",
            "--runtime=60",
        ]);
        let (o, took) = interrupt_after(&mut c, Duration::from_millis(1500), sig);
        assert_eq!(o.status.code(), Some(130), "{}", stderr(&o));
        assert!(took < Duration::from_secs(10), "took {took:?} to stop");
        let v = any_json(&o);
        assert_eq!(v["iomark"]["interrupted"], true);
        let j = job(&v, 0);
        assert_eq!(u(&j["error"]), 0);
        assert!(u(&j["read"]["io_bytes"]) + u(&j["write"]["io_bytes"]) > 0);
        assert!(u(&j["job_runtime"]) < 60_000);
        assert!(stderr(&o).contains("interrupted"), "{}", stderr(&o));
    }
}

#[test]
fn sigint_during_quick_removes_its_temporary_file() {
    let d = Scratch::new("safequick");
    let p = d.path.display().to_string();
    let mut c = Command::new(bin());
    c.args(["quick", &p, "--size=32m", "--runtime=20s", "--ramp=0"]);
    let (o, _) = interrupt_after(&mut c, Duration::from_millis(1500), libc::SIGINT);
    assert_eq!(o.status.code(), Some(130), "{}", stderr(&o));
    let left: Vec<_> = std::fs::read_dir(&d.path)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(left.is_empty(), "left behind: {left:?}");
}

#[test]
fn sigint_during_layout_stops_it_and_removes_the_partial_file() {
    // 4 GiB on tmpfs takes seconds to fill; the signal comes well before the end.
    let d = Scratch::new_in("/dev/shm", "safelayout");
    let mut c = Command::new(bin());
    c.current_dir(&d.path).args([
        "run",
        "--allow-fill",
        "--name=t",
        "--filename=big",
        "--rw=read",
        "--size=4g",
        "--fallocate=none",
    ]);
    let (o, took) = interrupt_after(&mut c, Duration::from_millis(500), libc::SIGINT);
    assert_eq!(o.status.code(), Some(130), "{}", stderr(&o));
    assert!(took < Duration::from_secs(2), "took {took:?} to stop");
    assert!(
        stderr(&o).contains("stopped while laying out"),
        "{}",
        stderr(&o)
    );
    assert!(
        !d.file("big").exists(),
        "the half-written file was left behind"
    );
}

#[test]
fn fill_device_writes_until_the_filesystem_is_full() {
    root_required();
    let d = Scratch::new("safefill");
    let mnt = d.file("mnt");
    let _m = MountGuard::tmpfs(&mnt, "8m");
    let dir = format!("--directory={}", mnt.display());
    for (engine, rw) in [("psync", "write"), ("libaio", "randwrite")] {
        let o = iomark(&[
            "run",
            "--output-format=json",
            "--name=fill",
            &dir,
            "--fill_device=1",
            &format!("--rw={rw}"),
            "--bs=64k",
            &format!("--ioengine={engine}"),
            "--iodepth=4",
        ]);
        // Full is the goal, not an error.
        let v = json(&o);
        let j = job(&v, 0);
        assert_eq!(u(&j["error"]), 0, "{engine}");
        let written = u(&j["write"]["io_bytes"]);
        assert!(
            (7 << 20..=8 << 20).contains(&written),
            "{engine}: {written}"
        );
        assert!(stderr(&o).contains("is full after"), "{}", stderr(&o));
        std::fs::remove_file(mnt.join("fill.0.0")).unwrap();
    }
    // fill_device is for writes.
    let o = iomark(&["run", "--name=r", &dir, "--fill_device=1", "--rw=read"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("only write jobs can fill a device"));
}
