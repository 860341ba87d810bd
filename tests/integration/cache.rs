//! fio's page-cache semantics for buffered runs: with invalidate=1 (the default) each file's
//! cache is dropped at the start of every pass over it, so a buffered time-based run measures
//! the device on every pass, as fio does; and the note on buffered runs that fit in memory.

use crate::util::*;
use std::process::Command;

/// Runs `prog args` under strace and returns (stdout, the number of cache drops: fadvise
/// DONTNEED calls).
fn traced(dir: &Scratch, prog: &str, args: &[&str]) -> (String, usize) {
    let log = dir.file("strace.log");
    let o = Command::new("strace")
        .args(["-f", "-qq", "-e", "trace=fadvise64", "-o"])
        .arg(&log)
        .arg(prog)
        .args(args)
        .current_dir(&dir.path)
        .bounded_output()
        .expect("strace must be installed (scripts/test installs it)");
    ok(&o);
    let t = std::fs::read_to_string(&log).unwrap();
    let _ = std::fs::remove_file(&log);
    (stdout(&o), t.matches("POSIX_FADV_DONTNEED").count())
}

fn job_args(file: &str, extra: &[&str]) -> Vec<String> {
    let mut a: Vec<String> = [
        "--name=j",
        &format!("--filename={file}"),
        "--rw=randread",
        "--bs=4k",
        "--ioengine=psync",
        "--output-format=json",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    a.extend(extra.iter().map(|s| s.to_string()));
    a
}

/// Passes begun over a file of `size` bytes by a job that read `io_bytes`.
fn passes(json: &serde_json::Value, size: u64) -> f64 {
    u(&job(json, 0)["read"]["io_bytes"]) as f64 / size as f64
}

#[test]
fn every_pass_drops_the_cache_as_fio_does() {
    let dir = Scratch::new("inval");
    let file = dir.s("f");
    // Small enough for more than one pass in 2 s on a slow or busy disk (512 random reads).
    let size = 2u64 << 20;
    let timed = job_args(&file, &["--size=2m", "--runtime=2", "--time_based"]);
    let timed: Vec<&str> = timed.iter().map(String::as_str).collect();
    // fio first: it lays the file out.
    let (fio_out, fio_drops) = traced(&dir, "fio", &timed);
    let mut run = vec!["run"];
    run.extend(&timed);
    let (io_out, io_drops) = traced(&dir, bin().to_str().unwrap(), &run);
    let fio_passes = passes(&fio_json_str(&fio_out), size);
    let io_passes = passes(&serde_json::from_str(&io_out).unwrap(), size);
    // One drop per pass begun (the last one may begin just as the time runs out).
    for (who, p, drops) in [
        ("fio", fio_passes, fio_drops),
        ("iomark", io_passes, io_drops),
    ] {
        assert!(
            p > 1.0,
            "{who}: only {p:.2} passes: the file is too large for the test"
        );
        let begun = p.ceil() as usize;
        assert!(
            drops == begun || drops == begun + 1,
            "{who}: {drops} cache drops over {p:.2} passes"
        );
    }
    // loops: one drop per loop, with and without direct=1, as fio (which reopens the files).
    for direct in ["--direct=0", "--direct=1"] {
        let looped = job_args(&file, &["--size=8m", "--loops=3", direct]);
        let looped: Vec<&str> = looped.iter().map(String::as_str).collect();
        // The file is already 8 MiB for both tools: no layout, whose drop would add one.
        let full = || {
            std::fs::OpenOptions::new()
                .write(true)
                .open(&file)
                .unwrap()
                .set_len(8 << 20)
                .unwrap()
        };
        full();
        let (_, fio_drops) = traced(&dir, "fio", &looped);
        let mut run = vec!["run"];
        run.extend(&looped);
        full();
        let (_, io_drops) = traced(&dir, bin().to_str().unwrap(), &run);
        assert_eq!(io_drops, fio_drops, "loops=3 {direct}");
        assert_eq!(io_drops, 3, "loops=3 {direct}");
    }
    // Laying a file out drops the pages just written, whatever `invalidate` says (the file is
    // extended here from the 2 MiB of the timed run, then created anew), as fio does: with
    // invalidate=0 that is the only drop of the run.
    for fresh in [false, true] {
        let mut counts = Vec::new();
        for prog in ["fio", bin().to_str().unwrap()] {
            if fresh {
                std::fs::remove_file(&file).unwrap();
            } else {
                std::fs::File::create(&file).unwrap().set_len(size).unwrap();
            }
            let a = job_args(&file, &["--size=4m", "--invalidate=0"]);
            let mut a: Vec<&str> = a.iter().map(String::as_str).collect();
            if prog != "fio" {
                a.insert(0, "run");
            }
            counts.push(traced(&dir, prog, &a).1);
        }
        assert_eq!(counts, [1, 1], "fio, iomark; fresh file: {fresh}");
    }
}

fn fio_json_str(s: &str) -> serde_json::Value {
    let start = s.find('{').unwrap_or(0);
    serde_json::from_str(&s[start..]).unwrap_or_else(|e| panic!("fio JSON ({e}):\n{s}"))
}

#[test]
fn buffered_time_based_iops_within_a_band_of_fio() {
    // Without a drop per pass, iomark read the page cache from the second pass on (about 30
    // times fio's IOPS here); with it both measure the device. Timings vary: five tries.
    let dir = Scratch::new("inval-band");
    let file = dir.s("f");
    let args = job_args(&file, &["--size=16m", "--runtime=2", "--time_based"]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let mut run = vec!["run"];
    run.extend(&args);
    let mut seen = Vec::new();
    for _ in 0..5 {
        let fio = f(&job(&fio_json(&fio_in(&args, &dir.path)), 0)["read"]["iops"]);
        let io = f(&job(&json(&iomark_in(&run, &dir.path)), 0)["read"]["iops"]);
        let ratio = io / fio;
        seen.push(format!("iomark {io:.0} vs fio {fio:.0} IOPS"));
        if (1.0 / 3.0..=3.0).contains(&ratio) {
            return;
        }
    }
    panic!("buffered time-based randread out of band: {seen:?}");
}

#[test]
fn buffered_writes_that_fit_in_memory_get_a_note() {
    let dir = Scratch::new("wnote");
    let o = iomark_in(
        &[
            "run",
            "--name=w",
            &format!("--filename={}", dir.s("f")),
            "--size=4m",
            "--rw=write",
            "--bs=64k",
        ],
        &dir.path,
    );
    ok(&o);
    // In the output's Notes block; stderr stays empty as with fio.
    let e = stdout(&o);
    assert!(
        e.contains("\nNotes:\n")
            && e.contains("buffered writes")
            && e.contains("complete once copied into memory"),
        "{e}"
    );
    assert!(stderr(&o).is_empty(), "{}", stderr(&o));
    let o = iomark_in(
        &[
            "run",
            "--name=w",
            &format!("--filename={}", dir.s("f")),
            "--size=4m",
            "--rw=write",
            "--bs=64k",
            "--direct=1",
        ],
        &dir.path,
    );
    ok(&o);
    assert!(!stdout(&o).contains("page cache"), "{}", stdout(&o));
}
