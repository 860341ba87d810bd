//! `iomark rbd-bench`: the four seed `rbd bench` lines, `--pool/--image` replaced by a target
//! directory and `--io-total` scaled down; op counts and bytes add up to io-total.

use crate::util::*;

#[test]
fn seed_rbd_bench_lines_run_and_count_io_total() {
    let d = Scratch::new_in("/dev/shm", "rbd-bench");
    let dir = d.path.to_str().unwrap();
    // (seed options with 10G scaled to 64M, io-size, io-total)
    let seeds = [
        (
            "--io-size 4M --io-threads 32 --io-total 64M --io-pattern seq --io-type write",
            4 << 20,
            64 << 20,
        ),
        (
            "--io-size 128K --io-threads 32 --io-total 64M --io-pattern seq --io-type read",
            128 << 10,
            64 << 20,
        ),
        (
            "--io-size 4K --io-threads 32 --io-total 10M --io-pattern rand --io-type write",
            4096,
            10 << 20,
        ),
        (
            "--io-size 4K --io-threads 32 --io-total 64M --io-pattern rand --io-type read",
            4096,
            64 << 20,
        ),
    ];
    for (line, size, total) in seeds {
        let mut args = vec!["rbd-bench", dir];
        args.extend(line.split_whitespace());
        let o = iomark(&args);
        ok(&o);
        let s = stdout(&o);
        let lines: Vec<&str> = s.lines().collect();
        assert!(lines[0].starts_with("bench  type "), "{s}");
        assert!(
            lines[0].contains(&format!(
                "io_size {size} io_threads 32 bytes {total} pattern "
            )),
            "{s}"
        );
        assert_eq!(lines[1], "  SEC       OPS   OPS/SEC   BYTES/SEC");
        let summary = lines.iter().find(|l| l.starts_with("elapsed:")).unwrap();
        let ops: u64 = summary.split_whitespace().nth(3).unwrap().parse().unwrap();
        assert_eq!(ops * size, total, "{s}");
        // rbd bench's lines only (its units: `bytes/sec: 71 MiB/s`); iomark's latency on stderr.
        assert!(
            summary.ends_with("iB/s") || summary.ends_with(" B/s"),
            "{s}"
        );
        assert_eq!(lines.last(), Some(summary), "{s}");
        assert!(!s.contains("latency"), "{s}");
        assert!(stderr(&o).contains("latency (µs): mean "), "{}", stderr(&o));
        assert_eq!(std::fs::read_dir(&d.path).unwrap().count(), 0);
    }
    let o = iomark(&[
        "rbd-bench",
        "--pool",
        "p",
        "--image",
        "i",
        "--io-type",
        "write",
    ]);
    // --pool and --image name a Ceph image (as `rbd bench` takes them): written only when
    // allowed, refused before iomark connects to any cluster.
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("overwrites the data of image p/i; pass --allow-write"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn rbd_bench_mix_prints_read_and_write_lines() {
    let d = Scratch::new_in("/dev/shm", "rbd-mix");
    let o = iomark(&[
        "rbd-bench",
        d.path.to_str().unwrap(),
        "--io-type",
        "readwrite",
        "--io-size",
        "4K",
        "--io-threads",
        "4",
        "--io-total",
        "16M",
        "--rw-mix-read",
        "70",
        "--pattern-byte",
        "0xab",
    ]);
    ok(&o);
    let s = stdout(&o);
    let field = |prefix: &str| -> u64 {
        let l = s.lines().find(|l| l.starts_with(prefix)).unwrap();
        l.split_whitespace().nth(1).unwrap().parse().unwrap()
    };
    let (r, w) = (field("read_ops:"), field("write_ops:"));
    assert_eq!(r + w, 4096, "{s}");
    let pct = r as f64 / 4096.0 * 100.0;
    assert!((55.0..85.0).contains(&pct), "{pct}");
}

/// The per-second lines come while the run goes (read here before it ends, a second apart),
/// and an interrupted run still prints its summary.
#[test]
fn rbd_bench_prints_per_second_lines_live() {
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};
    use std::time::Instant;
    let d = Scratch::new("rbd-live");
    // A sparse file far larger than the run reads: holes read fast and take no space.
    let f = d.file("image");
    std::fs::File::create(&f)
        .unwrap()
        .set_len(64 << 30)
        .unwrap();
    let mut child = Command::new(bin())
        .args(["rbd-bench", d.s("image").as_str()])
        .args(["--io-type", "read", "--io-size", "4K", "--io-threads", "1"])
        .args(["--io-total", "64G", "--io-pattern", "rand"])
        .current_dir(&d.path)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut seen = Vec::new();
    let mut at = Vec::new();
    let start = Instant::now();
    while seen.len() < 4 {
        let mut l = String::new();
        assert!(out.read_line(&mut l).unwrap() > 0, "ended early: {seen:?}");
        at.push(start.elapsed().as_secs_f64());
        seen.push(l);
    }
    assert!(child.try_wait().unwrap().is_none(), "{seen:?}");
    // SAFETY: signalling the child started above.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut out, &mut rest).unwrap();
    let st = child.wait().unwrap();
    assert_eq!(st.code(), Some(130), "{rest}");
    assert!(seen[1].starts_with("  SEC"), "{seen:?}");
    // rbd bench's columns: SEC in 5 characters, OPS in 10, then OPS/SEC (as a C++ stream
    // prints a double, so it may be wider than its 10 and touch OPS) and BYTES/SEC.
    let f = |l: &str| -> (String, String, String) {
        let rest: Vec<&str> = l[15..].split_whitespace().collect();
        (l[..5].trim().into(), l[5..15].trim().into(), rest[0].into())
    };
    let (l1, l2) = (f(&seen[2]), f(&seen[3]));
    assert_eq!((l1.0.as_str(), l2.0.as_str()), ("1", "2"), "{seen:?}");
    // Lines a second apart, counts growing, the rate over the window so far.
    assert!((0.7..1.5).contains(&(at[3] - at[2])), "{at:?}");
    let (o1, o2): (u64, u64) = (l1.1.parse().unwrap(), l2.1.parse().unwrap());
    assert!(o2 > o1 && o1 > 0, "{seen:?}");
    // Six significant digits, as rbd bench prints it.
    let r2: f64 = l2.2.parse().unwrap();
    let want = o2 as f64 / 2.0;
    assert!((r2 - want).abs() <= (want * 1e-5).max(1.0), "{seen:?}");
    assert!(rest.contains("elapsed:"), "{rest}");
}

/// A run on an image that cannot start (no configuration file, or no monitor answering; on a
/// machine without librbd, the library missing) prints nothing on stdout: rbd bench's header
/// comes only once the I/O has begun, and the reason goes to stderr.
#[test]
fn rbd_bench_prints_nothing_on_stdout_when_it_cannot_start() {
    let d = Scratch::new("rbd-nostart");
    // Nothing listens on port 1; the connection gives up after a second.
    std::fs::write(
        d.file("ceph.conf"),
        "[global]\nmon_host = 127.0.0.1:1\nclient_mount_timeout = 1\n",
    )
    .unwrap();
    let missing = d.s("missing.conf");
    let unreachable = d.s("ceph.conf");
    for conf in [missing.as_str(), unreachable.as_str()] {
        let o = iomark(&[
            "rbd-bench",
            "--pool",
            "p",
            "--image",
            "i",
            "--io-type",
            "read",
            "--io-total",
            "1M",
            "--conf",
            conf,
        ]);
        assert_eq!(o.status.code(), Some(1), "{conf}: {}", stderr(&o));
        assert_eq!(stdout(&o), "", "{conf}: {}", stderr(&o));
        assert!(stderr(&o).contains("iomark rbd-bench: "), "{}", stderr(&o));
    }
}
