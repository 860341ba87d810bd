//! `iomark hdparm`: on a loop device next to hdparm itself (the same lines), on a file, O_DIRECT
//! with --direct, and bad input.

use crate::blockdev::{root_required, Loop};
use crate::util::{bin, seed_line, stderr, stdout, BoundedOutput, Scratch};
use std::process::Command;

/// ` Timing ... reads...: N MB in T seconds = R MB/sec` -> (label, N, T, R).
fn timing(line: &str) -> (String, u64, f64, f64) {
    let (label, rest) = line.split_once(": ").expect(line);
    let rest = rest.trim_start();
    let w: Vec<&str> = rest.split_whitespace().collect();
    assert_eq!(
        (w[1], w[2], w[4], w[5], w[7]),
        ("MB", "in", "seconds", "=", "MB/sec"),
        "{line}"
    );
    (
        label.to_string(),
        w[0].parse().unwrap(),
        w[3].parse().unwrap(),
        w[6].parse().unwrap(),
    )
}

#[test]
fn hdparm_on_a_loop_device_prints_hdparms_lines() {
    assert!(root_required());
    let l = Loop::new("hdparm-loop", 64 << 20, false);
    // The seed line, its device replaced by the loop device.
    let seed = seed_line("hdparm");
    let mut args: Vec<&str> = seed.split_whitespace().collect();
    assert!(args.pop().unwrap().starts_with("/dev/"), "{seed}");
    args.push(&l.dev);
    let h = Command::new("hdparm").args(&args).bounded_output().unwrap();
    assert!(h.status.success(), "{}", stderr(&h));
    let o = Command::new(bin())
        .arg("hdparm")
        .args(&args)
        .bounded_output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let (hs, os, oe) = (stdout(&h), stdout(&o), stderr(&o));
    // hdparm's lines alone on stdout, in their places (`| tail -1` reads the same line);
    // iomark's additions on stderr.
    let theirs: Vec<&str> = hs.lines().collect();
    let ours: Vec<&str> = os.lines().collect();
    assert_eq!(theirs.len(), ours.len(), "{hs}\n{os}");
    assert!(!os.contains("iomark"), "{os}");
    assert_eq!(ours[0], "");
    assert_eq!(ours[1], format!("{}:", l.dev));
    for (t, m) in theirs[2..].iter().zip(&ours[2..]) {
        let (tl, _, _, _) = timing(t);
        let (ml, mb, secs, rate) = timing(m);
        assert_eq!(tl, ml);
        assert!(mb > 0 && secs > 0.0 && rate > 0.0, "{m}");
    }
    // -t reads the whole 64 MiB device (it ends before 3 s), in 2 MiB reads.
    let disk = timing(ours[3]);
    assert_eq!(disk.1, 64, "{os}");
    assert!(
        oe.contains(&format!(
            "iomark: {}: disk reads: 32 reads of 2 MiB, latency p50 ",
            l.dev
        )),
        "{oe}"
    );
    assert!(oe.contains("is a block device"), "{oe}");
}

#[test]
fn hdparm_on_a_file_with_direct_opens_o_direct() {
    let d = Scratch::new("hdparm-file");
    let f = d.file("img");
    std::fs::write(&f, vec![1u8; 16 << 20]).unwrap();
    let o = Command::new("strace")
        .args(["-f", "-e", "trace=openat", "-o"])
        .arg(d.file("trace"))
        .arg(bin())
        .args(["hdparm", "-t", "--direct"])
        .arg(&f)
        .bounded_output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let line = out.lines().find(|l| l.contains("Timing")).expect(&out);
    let (label, mb, _, _) = timing(line);
    assert_eq!(label, " Timing O_DIRECT disk reads");
    assert_eq!(mb, 16);
    assert!(stderr(&o).contains("is a regular file"), "{}", stderr(&o));
    let t = std::fs::read_to_string(d.file("trace")).unwrap();
    let img = f.display().to_string();
    assert!(
        t.lines()
            .any(|l| l.contains(&img) && l.contains("O_DIRECT")),
        "{t}"
    );
}

#[test]
fn hdparm_bad_input_is_refused() {
    let d = Scratch::new("hdparm-bad");
    std::fs::write(d.file("small"), [0u8; 4096]).unwrap();
    for (args, needle, code) in [
        (vec!["-tX", "x"], "-X", 2),
        (vec!["--security-erase", "pw", "x"], "--security-erase", 2),
        (vec!["-t", "--offset", "many", "x"], "--offset", 2),
        (vec!["-t", "nothere"], "nothere", 2),
        (vec!["-t", "small"], "2 MiB", 1),
    ] {
        let o = Command::new(bin())
            .arg("hdparm")
            .args(&args)
            .current_dir(&d.path)
            .bounded_output()
            .unwrap();
        assert_eq!(o.status.code(), Some(code), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(needle), "{args:?}: {}", stderr(&o));
    }
}
