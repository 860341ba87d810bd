//! `openfiles` beside fio 3.33: the same jobs under both tools record the same I/O log (every
//! I/O in the same order, each file's `open` before its first I/O and its `close` once done,
//! never more files open than the limit), on the sync, libaio, io_uring, posixaio and mmap
//! engines and across loops; under strace iomark never holds more descriptors of the job's files
//! than the limit; verification reads back files already closed; offloaded jobs refuse it.

use crate::util::*;
use std::path::Path;

/// The lines of a version 3 log without timestamps, and the most files open at once.
fn log_lines(log: &Path) -> (Vec<String>, usize) {
    let text = std::fs::read_to_string(log).unwrap();
    let (mut open, mut most) = (0usize, 0usize);
    let lines = text
        .lines()
        .skip(1)
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            match w[2] {
                "open" => open += 1,
                "close" => open -= 1,
                _ => {}
            }
            most = most.max(open);
            w[1..].join(" ")
        })
        .collect();
    (lines, most)
}

/// Run `args` with an I/O log under `tool` ("fio" or "iomark") in a directory of its own.
fn logged(tool: &str, args: &[&str]) -> (Vec<String>, usize) {
    let d = Scratch::new(&format!("openfiles-{tool}"));
    let mut a = vec!["--name=t", "--directory=.", "--write_iolog=io.log"];
    a.extend_from_slice(args);
    ok(&run_tool(tool, &a, &d.path));
    log_lines(&d.file("io.log"))
}

#[test]
fn open_and_close_follow_fio_on_every_engine() {
    let cases: &[&[&str]] = &[
        &["--rw=write", "--nrfiles=4", "--openfiles=2"],
        &["--rw=write", "--nrfiles=5", "--openfiles=3", "--loops=2"],
        &[
            "--rw=write",
            "--nrfiles=4",
            "--openfiles=1",
            "--file_service_type=sequential",
        ],
        &[
            "--rw=write",
            "--nrfiles=4",
            "--openfiles=2",
            "--file_service_type=roundrobin:2",
        ],
        &[
            "--rw=write",
            "--nrfiles=4",
            "--openfiles=2",
            "--ioengine=libaio",
            "--iodepth=4",
            "--direct=1",
        ],
        &[
            "--rw=read",
            "--nrfiles=4",
            "--openfiles=2",
            "--ioengine=io_uring",
            "--iodepth=8",
        ],
        &[
            "--rw=write",
            "--nrfiles=4",
            "--openfiles=2",
            "--ioengine=posixaio",
            "--iodepth=4",
        ],
        &[
            "--rw=write",
            "--nrfiles=4",
            "--openfiles=2",
            "--ioengine=mmap",
        ],
    ];
    for case in cases {
        let mut args = vec!["--filesize=16k", "--bs=4k"];
        args.extend_from_slice(case);
        let limit: usize = case
            .iter()
            .find_map(|a| a.strip_prefix("--openfiles="))
            .unwrap()
            .parse()
            .unwrap();
        let (fio, fio_most) = logged("fio", &args);
        let (iomark, iomark_most) = logged("iomark", &args);
        assert_eq!(fio_most, limit, "fio {case:?}");
        assert_eq!(iomark_most, limit, "iomark {case:?}");
        assert_eq!(iomark, fio, "{case:?}");
        assert!(iomark.iter().filter(|l| l.ends_with(" open")).count() >= 4);
    }
    // Random service: the same amount of I/O per file, never more than one file open.
    let args = ["--filesize=32k", "--bs=4k", "--rw=randwrite", "--nrfiles=5"];
    let args = [&args[..], &["--openfiles=1", "--file_service_type=random"]].concat();
    for tool in ["fio", "iomark"] {
        let (lines, most) = logged(tool, &args);
        assert_eq!(most, 1, "{tool}");
        for f in 0..5 {
            let name = format!("./t.0.{f} write ");
            let n = lines.iter().filter(|l| l.starts_with(&name)).count();
            assert_eq!(n, 8, "{tool}: file {f}\n{lines:?}");
        }
    }
}

#[test]
fn no_more_descriptors_than_the_limit_under_strace() {
    let d = Scratch::new("openfiles-strace");
    let trace = d.s("trace");
    let o = std::process::Command::new("strace")
        .args(["-f", "-e", "trace=openat,close", "-o", &trace])
        .arg(bin())
        .args([
            "run",
            "--name=t",
            "--directory=.",
            "--nrfiles=6",
            "--filesize=64k",
        ])
        .args([
            "--bs=4k",
            "--rw=randread",
            "--openfiles=2",
            "--ioengine=libaio",
        ])
        .args(["--iodepth=8", "--file_service_type=random"])
        .current_dir(&d.path)
        .bounded_output()
        .expect("strace must be installed (scripts/test installs it)");
    ok(&o);
    let text = std::fs::read_to_string(&trace).unwrap();
    // Descriptors of the job's files (t.0.N) from their open to their close.
    let mut held = std::collections::HashSet::new();
    let (mut most, mut opens) = (0, 0);
    for l in text.lines() {
        if l.contains("openat(") && l.contains("\"./t.0.") && l.contains("O_RDONLY") {
            if let Some(fd) = l
                .rsplit("= ")
                .next()
                .and_then(|r| r.trim().parse::<i32>().ok())
            {
                held.insert(fd);
                opens += 1;
                most = most.max(held.len());
            }
        } else if let Some(rest) = l.split("close(").nth(1) {
            if let Some(fd) = rest.split(')').next().and_then(|f| f.parse::<i32>().ok()) {
                held.remove(&fd);
            }
        }
    }
    assert_eq!(most, 2, "{text}");
    assert!(opens >= 6, "every file opened: {opens}\n{text}");
}

#[test]
fn verification_reads_back_closed_files_and_offload_refuses_it() {
    let d = Scratch::new("openfiles-verify");
    let base = [
        "--name=t",
        "--directory=.",
        "--nrfiles=3",
        "--filesize=64k",
        "--bs=4k",
    ];
    let write = [
        &base[..],
        &["--rw=randwrite", "--openfiles=1", "--verify=crc32c"],
    ]
    .concat();
    let read = [
        &base[..],
        &["--rw=read", "--openfiles=2", "--verify=crc32c"],
    ]
    .concat();
    for tool in ["fio", "iomark"] {
        let mut a = vec!["--output-format=json"];
        a.extend_from_slice(&write);
        let o = run_tool(tool, &a, &d.path);
        let v = tool_json(tool, &o);
        assert_eq!(
            job_ios(&v),
            [(48, 48)],
            "{tool}: writes, then every block read back"
        );
        let mut a = vec!["--output-format=json"];
        a.extend_from_slice(&read);
        let o = run_tool(tool, &a, &d.path);
        let v = tool_json(tool, &o);
        assert_eq!(job_ios(&v), [(48, 0)], "{tool}: the read-side check");
        assert_eq!(u(&job(&v, 0)["error"]), 0);
    }
    // A block damaged in the last file is found although that file was closed when checked.
    let f = d.file("t.0.2");
    let mut data = std::fs::read(&f).unwrap();
    data[4096 * 5 + 100] ^= 0xff;
    std::fs::write(&f, data).unwrap();
    let o = run_tool("iomark", &read, &d.path);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("t.0.2"), "{}", stderr(&o));
    // Offloaded jobs keep every file open for their submit threads: refused by name.
    let off = [
        &base[..],
        &["--rw=read", "--openfiles=1", "--io_submit_mode=offload"],
    ]
    .concat();
    let o = run_tool("iomark", &off, &d.path);
    assert!(!o.status.success());
    let err = stderr(&o);
    assert!(
        err.contains("openfiles") && err.contains("offload"),
        "{err}"
    );
}

#[test]
fn filecreate_example_runs_one_file_at_a_time_as_fio() {
    // fio's examples/filecreate-ioengine.fio with 40 files per job instead of 31250.
    let text = "[global]\ncreate_on_open=1\nnrfiles=40\nioengine=filecreate\nfallocate=none\n\
                filesize=4k\nopenfiles=1\n\n[t0]\n[t1]\n[t2]\n";
    let mut per_tool = Vec::new();
    for tool in ["fio", "iomark"] {
        let d = Scratch::new("openfiles-filecreate");
        std::fs::write(d.file("fc.fio"), text).unwrap();
        let o = run_tool(tool, &["--output-format=json", "fc.fio"], &d.path);
        let v = tool_json(tool, &o);
        let ios = job_ios(&v);
        let created = std::fs::read_dir(&d.path).unwrap().count() - 1;
        per_tool.push((ios, created));
    }
    assert_eq!(per_tool[0], per_tool[1]);
    assert_eq!(per_tool[1], (vec![(40, 0); 3], 120));
}
