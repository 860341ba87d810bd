//! Hostile and careless input: endless job files, absurd job counts, special files as targets,
//! leftovers of killed runs, and errors that name their real cause (issue 9, items 8, 9, 11, 13
//! and its list of unclear errors). Loop devices and mounts need root (CI runs as root).

use crate::blockdev::{root_required, Loop};
use crate::util::*;
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Runs iomark in `cwd`, returning its output and its peak resident memory in KiB.
///
/// The peak comes from `wait4` in a small intermediate process (python3) that forks and execs
/// iomark: a child spawned straight from this test process would inherit the test process's
/// own high-water mark at exec (Linux keeps the larger of the two in `ru_maxrss`), and the test
/// process, running many tests at once, is large.
fn iomark_rss(args: &[&str], cwd: &std::path::Path) -> (std::process::Output, u64) {
    const REAP: &str = "import os, sys\n\
pid = os.fork()\n\
if pid == 0:\n    os.execv(sys.argv[2], sys.argv[2:])\n\
_, status, ru = os.wait4(pid, 0)\n\
open(sys.argv[1], 'w').write('%d %d' % (status, ru.ru_maxrss))\n";
    // Removed on drop, also when the test fails.
    let file = tempfile::Builder::new()
        .prefix("iomark-rss-")
        .tempfile()
        .unwrap();
    let report = file.path();
    let out = Command::new("python3")
        .arg("-c")
        .arg(REAP)
        .arg(report)
        .arg(bin())
        .args(args)
        .current_dir(cwd)
        .bounded_output()
        .expect("python3 (package python3) runs iomark to measure its memory");
    let text = std::fs::read_to_string(report).unwrap_or_else(|e| {
        panic!(
            "no report from the python3 reaper ({e}): {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    let mut it = text.split_whitespace().map(|w| w.parse::<i64>().unwrap());
    let (status, rss) = (it.next().unwrap(), it.next().unwrap());
    let out = std::process::Output {
        status: std::os::unix::process::ExitStatusExt::from_raw(status as i32),
        ..out
    };
    (out, rss as u64)
}

/// Spawn iomark, send SIGINT after `after`, and wait at most `limit` for it to end.
fn interrupt_after(
    args: &[&str],
    cwd: &std::path::Path,
    after: Duration,
    limit: Duration,
) -> (Option<i32>, String) {
    let mut child = Command::new(bin())
        .args(args)
        .current_dir(cwd)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        // A shell starts background jobs with SIGINT ignored; iomark must still answer it.
        .process_group(0)
        .spawn()
        .unwrap();
    std::thread::sleep(after);
    // SAFETY: kill takes no memory; the pid is our own child's.
    unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) };
    let t = Instant::now();
    loop {
        if let Some(st) = child.try_wait().unwrap() {
            let mut e = String::new();
            std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut e).unwrap();
            return (st.code(), e);
        }
        if t.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("iomark {args:?} did not end within {limit:?} of SIGINT");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn mkfifo(p: &std::path::Path) {
    let c = std::ffi::CString::new(p.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: `c` is a NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
}

// --- item 8: endless or huge job files and includes ---------------------------------------

#[test]
fn include_of_dev_zero_and_huge_job_files_are_refused_at_once() {
    let d = Scratch::new("hugejob");
    std::fs::write(
        d.file("zero.fio"),
        "[a]\nioengine=null\nsize=1m\ninclude /dev/zero\n",
    )
    .unwrap();
    let t = Instant::now();
    let (o, rss) = iomark_rss(&["run", &d.s("zero.fio")], &d.path);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(
            "cannot read include '/dev/zero': it is a character device, not a regular file or FIFO"
        ),
        "{}",
        stderr(&o)
    );
    assert!(t.elapsed() < Duration::from_secs(10));
    assert!(rss < 64 << 10, "peak memory {rss} KiB");
    // A job file past the cap (sparse: no disk used) is refused before it is read.
    let big = d.file("big.fio");
    std::fs::File::create(&big)
        .unwrap()
        .set_len(17 << 20)
        .unwrap();
    let o = iomark(&["run", &d.s("big.fio")]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("larger than 16 MiB"), "{}", stderr(&o));
    // Standard input that never ends is cut at the cap.
    let o = Command::new(bin())
        .args(["run", "-"])
        .current_dir(&d.path)
        .stdin(std::fs::File::open("/dev/zero").unwrap())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("larger than 16 MiB"), "{}", stderr(&o));
}

#[test]
fn sigint_ends_a_job_file_fifo_waiting_for_its_writer() {
    let d = Scratch::new("jobfifo");
    let fifo = d.file("job.fio");
    mkfifo(&fifo);
    let (code, err) = interrupt_after(
        &["run", &d.s("job.fio")],
        &d.path,
        Duration::from_millis(500),
        Duration::from_secs(5),
    );
    assert_eq!(code, Some(130), "{err}");
    assert!(
        err.contains("interrupted while reading the job files"),
        "{err}"
    );
    // A FIFO with a writer is a job file like any other.
    let w = fifo.clone();
    let writer = std::thread::spawn(move || {
        std::fs::write(w, "[a]\nioengine=null\nsize=64k\n").unwrap();
    });
    let o = iomark(&["run", &d.s("job.fio"), "--output-format=json"]);
    writer.join().unwrap();
    let v = json(&o);
    assert_eq!(u(&job(&v, 0)["read"]["io_bytes"]), 64 << 10);
}

// --- item 9: too many jobs, memory per job ---------------------------------------------------

#[test]
fn numjobs_past_the_limit_is_refused_before_allocating() {
    let d = Scratch::new("numjobs");
    let (o, rss) = iomark_rss(
        &[
            "run",
            "--name=a",
            "--ioengine=null",
            "--size=1m",
            "--numjobs=100000",
        ],
        &d.path,
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("maximum number of jobs reached")
            && stderr(&o).contains("100000")
            && stderr(&o).contains("4096"),
        "{}",
        stderr(&o)
    );
    assert!(rss < 64 << 10, "peak memory {rss} KiB before refusing");
}

#[test]
fn null_engine_jobs_cost_little_memory_each() {
    // Histograms are allocated when first used: 500 null-engine jobs used ~190 MB before.
    let d = Scratch::new("jobmem");
    let (o, rss) = iomark_rss(
        &[
            "run",
            "--name=a",
            "--ioengine=null",
            "--size=64k",
            "--numjobs=500",
            "--output-format=terse",
        ],
        &d.path,
    );
    ok(&o);
    assert_eq!(stdout(&o).lines().count(), 500);
    assert!(rss < 100 << 10, "peak memory {rss} KiB for 500 null jobs");
}

// --- item 11: FIFOs, sockets and kernel files as targets -------------------------------------

#[test]
fn fifo_socket_and_proc_targets_are_refused_up_front() {
    let d = Scratch::new("special");
    let fifo = d.file("fifo");
    mkfifo(&fifo);
    let _sock = std::os::unix::net::UnixListener::bind(d.file("sock")).unwrap();
    for (path, what) in [
        (
            d.s("fifo"),
            "is a FIFO (named pipe), not a regular file or device",
        ),
        (d.s("sock"), "is a socket, not a regular file or device"),
        (
            "/proc/self/mem".to_string(),
            "is a file of the kernel's proc filesystem, not a regular file or device",
        ),
    ] {
        for rw in ["read", "write"] {
            let t = Instant::now();
            let o = iomark(&[
                "run",
                "--name=a",
                &format!("--filename={path}"),
                &format!("--rw={rw}"),
                "--size=1m",
            ]);
            assert_eq!(o.status.code(), Some(1), "{path} {rw}: {}", stderr(&o));
            let e = stderr(&o);
            assert!(
                e.contains(what) && e.contains("failed to get file size"),
                "{e}"
            );
            assert!(t.elapsed() < Duration::from_secs(10), "{path} {rw} blocked");
        }
    }
    // The null engine does no I/O on its files: a FIFO name is fine there.
    let o = iomark(&[
        "run",
        "--name=a",
        "--ioengine=null",
        &format!("--filename={}", d.s("fifo")),
        "--size=64k",
    ]);
    ok(&o);
}

// --- item 13: files left by a killed quick ---------------------------------------------------

#[test]
fn quick_removes_the_file_a_killed_quick_left() {
    let d = Scratch::new_in("/dev/shm", "quickstale");
    let mut child = Command::new(bin())
        .args([
            "quick",
            &d.path.display().to_string(),
            "--size=16m",
            "--runtime=30s",
            "--ramp=0",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let left = d.file(&format!("iomark-quick.{}.tmp", child.id()));
    let t = Instant::now();
    while !left.exists() && t.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(left.exists(), "the killed quick left no file to clean");
    let o = iomark(&[
        "quick",
        &d.path.display().to_string(),
        "--size=16m",
        "--runtime=100ms",
        "--ramp=0",
        "--json",
    ]);
    json(&o);
    let e = stderr(&o);
    assert!(
        e.contains(&format!(
            "removed {}, left behind by an earlier quick run (process {} no longer exists)",
            left.display(),
            left.file_name()
                .unwrap()
                .to_str()
                .unwrap()
                .split('.')
                .nth(1)
                .unwrap()
        )),
        "{e}"
    );
    assert_eq!(std::fs::read_dir(&d.path).unwrap().count(), 0);
}

// --- unclear errors ----------------------------------------------------------------------------

#[test]
fn quick_on_a_read_only_mount_says_read_only() {
    root_required();
    let mut lp = Loop::new("quickro", 64 << 20, true);
    let mnt = lp.mount(Some("ro"));
    let o = iomark(&[
        "quick",
        &mnt.display().to_string(),
        "--size=16m",
        "--runtime=100ms",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(e.contains("read-only file system"), "{e}");
    assert!(!e.contains("direct I/O"), "{e}");
}

#[test]
fn quick_allow_write_on_a_formatted_device_prints_reads_then_refuses_writes() {
    root_required();
    let lp = Loop::new("quickfmt", 32 << 20, true);
    let before = lp.checksum();
    let o = iomark(&[
        "quick",
        &lp.dev,
        "--allow-write",
        "--runtime=100ms",
        "--ramp=0",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let (out, e) = (stdout(&o), stderr(&o));
    // The read half was measured and printed.
    assert!(
        out.contains("SEQ1M Q8T1") && out.contains("RND4K Q1T1"),
        "{out}"
    );
    assert!(out.contains("read"), "{out}");
    assert!(
        e.contains("the write tests were not run") && e.contains("ext4"),
        "{e}"
    );
    // The advice names nothing quick rejects.
    assert!(!e.contains("--force-device-write"), "{e}");
    assert_eq!(lp.checksum(), before, "the device was written");
}

#[test]
fn libaio_depth_past_the_system_limit_names_the_limit() {
    let max: u64 = std::fs::read_to_string("/proc/sys/fs/aio-max-nr")
        .expect("/proc/sys/fs/aio-max-nr")
        .trim()
        .parse()
        .unwrap();
    let depth = (max + 1).to_string();
    let d = Scratch::new("aiomax");
    let f = d.file("f");
    // Enough blocks that the depth is not cut to the file's block count (sparse).
    std::fs::File::create(&f)
        .unwrap()
        .set_len((max + 1) * 512)
        .unwrap();
    let o = iomark(&[
        "run",
        "--name=a",
        "--ioengine=libaio",
        &format!("--iodepth={depth}"),
        "--bs=512",
        &format!("--filename={}", f.display()),
        "--runtime=1",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(
        e.contains("/proc/sys/fs/aio-max-nr")
            && e.contains(&format!("allows {max} in all"))
            && e.contains(&format!("needs {depth} AIO events")),
        "{e}"
    );
}

#[test]
fn sizes_past_2_pow_64_are_too_large() {
    let o = iomark(&[
        "run",
        "--name=a",
        "--ioengine=null",
        "--size=1m",
        "--bs=99999999999999999999",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("'99999999999999999999' is too large"),
        "{}",
        stderr(&o)
    );
    for big in ["--size=17000p", "--iodepth=99999999999999999999"] {
        let o = iomark(&["run", "--name=a", "--ioengine=null", "--size=1m", big]);
        assert_eq!(o.status.code(), Some(2), "{big}");
        assert!(stderr(&o).contains("is too large"), "{}", stderr(&o));
    }
}

#[test]
fn echoed_input_is_quoted_escaped_and_cut() {
    let d = Scratch::new("echo");
    let key = format!("{}\x1b[2J", "k".repeat(10 << 20));
    std::fs::write(
        d.file("big.fio"),
        format!("[a]\nioengine=null\nsize=1m\n{key}=1\n"),
    )
    .unwrap();
    let section = "s".repeat(1 << 20);
    std::fs::write(
        d.file("sect.fio"),
        format!("[{section}]\nioengine=null\nsize=1m\nbogus=1\n"),
    )
    .unwrap();
    let arg = format!("--{}\x07=1", "q".repeat(100 << 10));
    for o in [
        iomark(&["run", &d.s("big.fio")]),
        iomark(&["run", &d.s("sect.fio")]),
        iomark(&["run", "--name=a", "--ioengine=null", "--size=1m", &arg]),
        iomark(&[
            "run",
            "--name=a",
            "--ioengine=null",
            &format!("--size={}\x1b", "9".repeat(1000)),
        ]),
    ] {
        assert_eq!(o.status.code(), Some(2));
        let e = o.stderr.clone();
        assert!(e.len() < 2000, "{} bytes of stderr", e.len());
        assert!(
            !e.iter().any(|&b| b == 0x1b || b == 0x07),
            "raw control bytes echoed"
        );
        let e = stderr(&o);
        assert!(
            e.contains("(cut: first 80 of ") || e.contains(&format!("[{}...] ", "s".repeat(80))),
            "{e}"
        );
    }
    let o = iomark(&["run", "--name=a", "--rw=rea\td"]);
    assert!(stderr(&o).contains("'rea\\td'"), "{}", stderr(&o));
}

#[test]
fn cpus_allowed_naming_no_cpu_is_an_error() {
    let o = iomark(&[
        "run",
        "--name=a",
        "--ioengine=null",
        "--size=64k",
        "--cpus_allowed=9999",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("CPU 9999 too large"), "{}", stderr(&o));
    assert!(stdout(&o).is_empty(), "{}", stdout(&o));
}

#[test]
fn many_files_are_laid_out_with_one_line() {
    let d = Scratch::new_in("/dev/shm", "nrfiles");
    let o = iomark(&[
        "run",
        "--name=many",
        &format!("--directory={}", d.path.display()),
        "--nrfiles=2000",
        "--filesize=4k",
        "--rw=write",
        "--ioengine=psync",
    ]);
    ok(&o);
    // As fio does, the layout line is part of the normal output (stdout).
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().filter(|l| l.contains("Laying out")).collect();
    assert_eq!(
        lines,
        ["many: Laying out IO files (2000 files / total 7MiB)"],
        "{out}"
    );
}
