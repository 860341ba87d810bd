//! The live status line as a user sees it on a terminal: iomark's stderr is a pseudo-terminal,
//! and what it draws is compared with the final report.

use crate::util::*;
use std::io::Read;
use std::os::fd::{FromRawFd, OwnedFd};
use std::process::{Command, Output, Stdio};

/// Runs iomark with stderr on a pseudo-terminal (stdout piped, as `iomark ... | less` would);
/// returns the output and everything drawn on the terminal.
pub fn iomark_on_tty(args: &[&str], cwd: &std::path::Path) -> (Output, String) {
    let (mut master, mut slave) = (-1, -1);
    // SAFETY: out pointers to two ints; no name, termios or window size requested.
    let rc = unsafe {
        libc::openpty(
            &mut master,
            &mut slave,
            std::ptr::null_mut(),
            std::ptr::null(),
            std::ptr::null(),
        )
    };
    assert_eq!(rc, 0, "openpty: {}", std::io::Error::last_os_error());
    // SAFETY: both descriptors were just opened by openpty and are owned here alone.
    let (master, slave) = unsafe { (OwnedFd::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) };
    let mut reader = std::fs::File::from(master);
    let drain = std::thread::spawn(move || {
        let mut all = Vec::new();
        let mut buf = [0u8; 4096];
        // Reading the master ends with EIO once every copy of the slave is closed.
        while let Ok(n) = reader.read(&mut buf) {
            if n == 0 {
                break;
            }
            all.extend_from_slice(&buf[..n]);
        }
        String::from_utf8_lossy(&all).into_owned()
    });
    let child = Command::new(bin())
        .args(args)
        .current_dir(cwd)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::from(slave))
        .spawn()
        .expect("run iomark");
    // `Command` kept no copy of the slave: the child's is the last one.
    let out = child.wait_with_output().expect("wait for iomark");
    (out, drain.join().unwrap())
}

/// The status lines drawn (each refresh starts with a carriage return).
pub fn refreshes(tty: &str) -> Vec<String> {
    tty.split('\r')
        .map(|l| l.replace("\x1b[K", "").trim_end().to_string())
        .filter(|l| !l.is_empty())
        .collect()
}

/// The read bandwidth (bytes/s) and IOPS of a status line's `[r=...][r=... IOPS]` fields.
fn read_rates(line: &str) -> Option<(f64, f64)> {
    let groups: Vec<&str> = line
        .split(['[', ']'])
        .filter(|g| g.starts_with("r="))
        .collect();
    let bw = groups.iter().find(|g| g.ends_with("/s"))?;
    let iops = groups.iter().find(|g| g.ends_with(" IOPS"))?;
    let bw = bw.trim_start_matches("r=");
    let (n, mult) = [
        ("GiB/s", 1073741824.0),
        ("MiB/s", 1048576.0),
        ("KiB/s", 1024.0),
    ]
    .iter()
    .find_map(|(u, m)| bw.strip_suffix(u).map(|n| (n, *m)))?;
    let bw = n.parse::<f64>().ok()? * mult;
    let i = iops.trim_start_matches("r=").trim_end_matches(" IOPS");
    let iops = if let Some(k) = i.strip_suffix('k') {
        k.parse::<f64>().ok()? * 1e3
    } else {
        i.parse::<f64>().ok()?
    };
    Some((bw, iops))
}

#[test]
fn live_rate_matches_the_rate_limit_and_does_not_flicker() {
    let dir = Scratch::new("live");
    let file = dir.s("t.dat");
    let args = [
        "run",
        "--name=r",
        &format!("--filename={file}"),
        "--size=64m",
        "--rw=read",
        "--bs=4k",
        "--rate=10m",
        "--runtime=4",
        "--time_based",
        "--output-format=json",
    ];
    let (out, tty) = iomark_on_tty(&args, &dir.path);
    let v = json(&out);
    let read = &job(&v, 0)["read"];
    let final_bw = f(&read["bw_bytes"]);
    let final_iops = f(&read["iops"]);
    assert!(
        (final_bw - 10.0 * 1048576.0).abs() < 0.05 * 10.0 * 1048576.0,
        "final {final_bw}"
    );
    let lines = refreshes(&tty);
    // Once a figure is shown, every later refresh of the running job shows one (no flicker),
    // and each is within a few percent of the final figures (not twice them).
    let with_rate: Vec<&String> = lines.iter().filter(|l| l.contains("[r=")).collect();
    assert!(with_rate.len() >= 4, "too few live figures:\n{tty}");
    let first = lines.iter().position(|l| l.contains("[r=")).unwrap();
    for l in &lines[first..] {
        if l.starts_with("Jobs: 1 ") {
            assert!(l.contains("[r="), "a refresh dropped the rate: {l}\n{tty}");
        }
    }
    for l in with_rate {
        let (bw, iops) = read_rates(l).unwrap_or_else(|| panic!("no read rates in {l}"));
        assert!(
            (bw - final_bw).abs() < 0.05 * final_bw,
            "live {bw} vs final {final_bw}: {l}"
        );
        assert!(
            (iops - final_iops).abs() < 0.05 * final_iops,
            "live {iops} vs final {final_iops}: {l}"
        );
    }
}

/// The `[eta 00m:12s]` of a line, in seconds.
fn eta_s(line: &str) -> Option<u64> {
    let e = line.split("[eta ").nth(1)?.split(']').next()?;
    let (m, s) = e.split_once("m:")?;
    Some(m.parse::<u64>().ok()? * 60 + s.trim_end_matches('s').parse::<u64>().ok()?)
}

#[test]
fn quick_on_a_terminal_names_the_test_and_gives_the_overall_eta() {
    let dir = Scratch::new("quick-live");
    let p = dir.path.display().to_string();
    let args = [
        "quick",
        p.as_str(),
        "--size=16m",
        "--runtime=300ms",
        "--ramp=0",
        "--json",
    ];
    let (out, tty) = iomark_on_tty(&args, &dir.path);
    ok(&out);
    let lines = refreshes(&tty);
    // The layout bar comes before the first test (after any notice quick prints first).
    let bar = lines
        .iter()
        .position(|l| l.starts_with("iomark quick: laying out the test file ["))
        .unwrap_or_else(|| panic!("no layout bar:\n{tty}"));
    assert!(lines[bar].ends_with("(0 of 16 MiB)"), "{tty}");
    assert!(
        !lines[..bar].iter().any(|l| l.contains(" of 8: ")),
        "a test before the layout:\n{tty}"
    );
    let names = [
        "SEQ1M Q8T1 read",
        "SEQ1M Q8T1 write",
        "SEQ1M Q1T1 read",
        "SEQ1M Q1T1 write",
        "RND4K Q32T1 read",
        "RND4K Q32T1 write",
        "RND4K Q1T1 read",
        "RND4K Q1T1 write",
    ];
    let mut seen = Vec::new();
    let mut last_eta = u64::MAX;
    for l in lines.iter().filter(|l| l.contains(" of 8: ")) {
        let rest = l
            .strip_prefix("iomark quick: test ")
            .unwrap_or_else(|| panic!("{l}"));
        let (i, rest) = rest.split_once(" of 8: ").unwrap();
        let i: usize = i.parse().unwrap();
        assert!(
            rest.starts_with(names[i - 1]),
            "test {i} is {}: {l}",
            names[i - 1]
        );
        // The ETA is the whole run's: at most 8 × 0.3 s, and it only goes down.
        let e = eta_s(l).unwrap_or_else(|| panic!("no ETA in {l}"));
        assert!(e <= 3, "{l}");
        assert!(e <= last_eta.saturating_add(1), "ETA went up: {l}\n{tty}");
        last_eta = e;
        if !seen.contains(&i) {
            seen.push(i);
        }
    }
    assert!(seen.len() >= 4, "too few tests shown ({seen:?}):\n{tty}");
    assert!(seen.windows(2).all(|w| w[0] < w[1]), "{seen:?}");
    // The line is cleared before the closing message.
    assert!(
        tty.contains("\r\x1b[Kiomark quick: removed the temporary file"),
        "{tty:?}"
    );

    // Not a terminal: no live view at all (one line per finished test instead).
    let o = iomark(&args);
    ok(&o);
    let e = stderr(&o);
    assert!(!e.contains('\r') && !e.contains("laying out"), "{e}");
}
