//! fio's I/O logs beside fio 3.33: `write_iolog` records the same I/O lines as fio on the same
//! job, each tool replays the other's log (`read_iolog`) with the same counts, the offset
//! options (`replay_redirect`, `replay_scale`, `replay_align`) place the I/O where fio does,
//! the recorded pace is kept, scaled (`replay_time_scale`) or dropped (`replay_no_stall`), and
//! `replay_skip` leaves actions out.

use crate::util::*;
use serde_json::Value;
use std::path::Path;

/// The I/O lines of a version 3 log as (action, offset, length), timestamps and paths dropped.
fn io_lines(log: &Path) -> Vec<(String, u64, u64)> {
    let text = std::fs::read_to_string(log).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("fio version 3 iolog"), "{text}");
    lines
        .filter_map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            (w.len() == 5).then(|| {
                (
                    w[2].to_string(),
                    w[3].parse().unwrap(),
                    w[4].parse().unwrap(),
                )
            })
        })
        .collect()
}

fn run_fio(args: &[String], cwd: &Path) -> Value {
    let mut a = vec!["--output-format=json".to_string()];
    a.extend_from_slice(args);
    fio_json(&fio_in(
        &a.iter().map(String::as_str).collect::<Vec<_>>(),
        cwd,
    ))
}

fn run_iomark(args: &[String], cwd: &Path) -> Value {
    let mut a = vec!["run".to_string(), "--output-format=json".to_string()];
    a.extend_from_slice(args);
    json(&iomark_in(
        &a.iter().map(String::as_str).collect::<Vec<_>>(),
        cwd,
    ))
}

fn counts(v: &Value) -> [u64; 5] {
    let j = job(v, 0);
    [
        u(&j["read"]["total_ios"]),
        u(&j["read"]["io_bytes"]),
        u(&j["write"]["total_ios"]),
        u(&j["write"]["io_bytes"]),
        u(&j["sync"]["total_ios"]),
    ]
}

fn replay_args(log: &Path, target: &Path, extra: &[&str]) -> Vec<String> {
    let mut a = vec![
        "--name=replay".to_string(),
        format!("--read_iolog={}", log.display()),
        format!("--replay_redirect={}", target.display()),
    ];
    a.extend(extra.iter().map(|s| s.to_string()));
    a
}

#[test]
fn recorded_logs_match_and_replay_across_tools() {
    let d = Scratch::new("iolog");
    let record = |file: &str, log: &str| {
        vec![
            "--name=rec".to_string(),
            format!("--filename={}", d.s(file)),
            "--rw=write".to_string(),
            "--bs=4k".to_string(),
            "--size=64k".to_string(),
            "--fsync=4".to_string(),
            format!("--write_iolog={}", d.s(log)),
        ]
    };
    let fv = run_fio(&record("f.dat", "fio.log"), &d.path);
    let iv = run_iomark(&record("i.dat", "iomark.log"), &d.path);
    assert_eq!(counts(&iv), counts(&fv), "the recorded runs");
    let (fl, il) = (
        io_lines(&d.file("fio.log")),
        io_lines(&d.file("iomark.log")),
    );
    let writes = |l: &[(String, u64, u64)]| -> Vec<(u64, u64)> {
        l.iter()
            .filter(|x| x.0 == "write")
            .map(|x| (x.1, x.2))
            .collect()
    };
    assert_eq!(writes(&il), writes(&fl), "the write lines, in order");
    assert_eq!(writes(&il).len(), 16);
    let syncs = |l: &[(String, u64, u64)]| l.iter().filter(|x| x.0 == "sync").count();
    assert_eq!(syncs(&il), syncs(&fl), "the sync lines");
    // Each tool replays both logs onto a new file: the same counts everywhere.
    for log in ["fio.log", "iomark.log"] {
        let fr = run_fio(
            &replay_args(&d.file(log), &d.file(&format!("fr-{log}")), &[]),
            &d.path,
        );
        let ir = run_iomark(
            &replay_args(&d.file(log), &d.file(&format!("ir-{log}")), &[]),
            &d.path,
        );
        assert_eq!(counts(&ir), counts(&fr), "replaying {log}");
        assert_eq!(counts(&ir)[3], 64 << 10);
        let size = |p: String| std::fs::metadata(d.file(&p)).unwrap().len();
        assert_eq!(size(format!("ir-{log}")), size(format!("fr-{log}")));
    }
}

/// A version 2 log with offsets far out: scaled and aligned as fio places them.
#[test]
fn replay_scale_align_and_redirect_place_io_as_fio() {
    let d = Scratch::new("iolog-scale");
    let log = d.file("v2.log");
    std::fs::write(
        &log,
        "fio version 2 iolog\n/nonexistent/a add\n/nonexistent/a open\n\
         /nonexistent/a write 0 4096\n/nonexistent/a write 1000000 4096\n\
         /nonexistent/a write 4000000 8192\n/nonexistent/a read 0 4096\n/nonexistent/a close\n",
    )
    .unwrap();
    for extra in [
        &[][..],
        &["--replay_scale=4"][..],
        &["--replay_scale=4", "--replay_align=65536"][..],
    ] {
        let (ft, it) = (d.file("fio.dat"), d.file("iomark.dat"));
        let _ = std::fs::remove_file(&ft);
        let _ = std::fs::remove_file(&it);
        let fr = run_fio(&replay_args(&log, &ft, extra), &d.path);
        let ir = run_iomark(&replay_args(&log, &it, extra), &d.path);
        assert_eq!(counts(&ir), counts(&fr), "{extra:?}");
        let (fs, is) = (
            std::fs::metadata(&ft).unwrap().len(),
            std::fs::metadata(&it).unwrap().len(),
        );
        assert_eq!(is, fs, "file size after the replay with {extra:?}");
    }
    // replay_skip (iomark applies it to logs as fio does to blktrace replays): no reads.
    let v = run_iomark(
        &replay_args(&log, &d.file("skip.dat"), &["--replay_skip=read"]),
        &d.path,
    );
    assert_eq!(counts(&v), [0, 0, 3, 16384, 0]);
}

/// The recorded pace: kept, scaled by replay_time_scale, dropped by replay_no_stall, with
/// fio's runtime for the same log beside it.
#[test]
fn replay_keeps_scales_or_drops_the_recorded_pace() {
    let d = Scratch::new("iolog-time");
    let log = d.file("v3.log");
    let mut text = String::from("fio version 3 iolog\n1 /x/a add\n2 /x/a open\n");
    for i in 0..6u64 {
        // 60 ms apart: 300 ms from the first write to the last.
        text.push_str(&format!(
            "{} /x/a write {} 4096\n",
            3 + i * 60_000,
            i * 4096
        ));
    }
    std::fs::write(&log, text).unwrap();
    let runtime = |v: &Value| u(&job(v, 0)["job_runtime"]).max(1) as f64;
    let it = d.file("t.dat");
    let paced = runtime(&run_iomark(&replay_args(&log, &it, &[]), &d.path));
    let fio_paced = runtime(&run_fio(&replay_args(&log, &d.file("f.dat"), &[]), &d.path));
    let faster = runtime(&run_iomark(
        &replay_args(&log, &it, &["--replay_time_scale=400"]),
        &d.path,
    ));
    let free = runtime(&run_iomark(
        &replay_args(&log, &it, &["--replay_no_stall=1"]),
        &d.path,
    ));
    let r = paced / fio_paced;
    assert!(
        (0.6..1.6).contains(&r),
        "iomark {paced} ms, fio {fio_paced} ms"
    );
    let r = paced / faster;
    assert!((1.8..8.0).contains(&r), "x1 {paced} ms, x4 {faster} ms");
    assert!(paced / free > 4.0, "paced {paced} ms, no stall {free} ms");
}

/// A log that only reads a file that is not there is refused before any I/O (fio fails on
/// opening it).
#[test]
fn read_only_log_of_a_missing_file_is_refused() {
    let d = Scratch::new("iolog-missing");
    let log = d.file("r.log");
    let missing = d.file("missing.dat");
    std::fs::write(
        &log,
        format!(
            "fio version 2 iolog\n{0} add\n{0} open\n{0} read 0 4096\n{0} close\n",
            missing.display()
        ),
    )
    .unwrap();
    let args = [format!("--read_iolog={}", log.display())];
    let mut fa: Vec<&str> = vec!["--name=m"];
    fa.extend(args.iter().map(String::as_str));
    let fo = fio_in(&fa, &d.path);
    assert!(!fo.status.success(), "fio fails too");
    let mut ia = vec!["run", "--name=m"];
    ia.extend(args.iter().map(String::as_str));
    let o = iomark_in(&ia, &d.path);
    assert!(!o.status.success());
    let e = stderr(&o);
    assert!(
        e.contains("does not exist") && e.contains("missing.dat"),
        "{e}"
    );
    assert!(!missing.exists());
}
