//! `iomark iozone`'s access modes and extra figures: the mix (`-i 8`) with `-+p` and `-+B` in
//! throughput mode (which children read, and the shape of their calls under strace); CPU
//! utilization (`-+u`) in the text, the `-R` report and the result; mmap files (`-B`, `-D`,
//! `-G`) on tmpfs and ext4, verified with `-+d`, with their msync calls under strace; CPU
//! binding of the children (`-P`).

use crate::suites_iozone::{iozone, json_of};
use crate::util::{bin, stderr, stdout, BoundedOutput, Scratch};
use iomark_suites::iozone::excel;
use serde_json::Value;
use std::process::Command;

/// `iomark iozone ARGS` under `strace -f -e trace=CALLS`; the trace's lines.
fn traced(calls: &str, args: &[&str], d: &Scratch) -> Vec<String> {
    let trace = d.file("trace");
    let o = Command::new("strace")
        .args(["-f", "-e", &format!("trace={calls}"), "-o"])
        .arg(&trace)
        .arg(bin())
        .arg("iozone")
        .args(args)
        .current_dir(&d.path)
        .bounded_output()
        .expect("strace must be installed (scripts/test installs it)");
    assert!(o.status.success(), "{}", stderr(&o));
    let t = std::fs::read_to_string(&trace).unwrap();
    std::fs::remove_file(&trace).unwrap();
    t.lines().map(String::from).collect()
}

fn mix(v: &Value) -> &Value {
    v["iozone"]["throughput"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["test"] == "mixed workload")
        .expect("a mixed workload figure")
}

#[test]
fn iozone_mix_readers_writers_and_sequential_shape() {
    let d = Scratch::new_in("/dev/shm", "iozone-mix");
    let files: Vec<String> = (0..4).map(|i| d.s(&format!("c{i}"))).collect();
    let args = |extra: &[&'static str]| {
        let mut a: Vec<&str> = vec!["-t", "4", "-s", "1m", "-r", "4k", "-i", "0", "-i", "8"];
        a.extend(extra);
        a.push("-F");
        a.extend(files.iter().map(String::as_str));
        a
    };
    // Without -+p every other child reads, from the first; all move their whole file (-x).
    let v = json_of(&iozone(&args(&["-x", "--json"]), &d.path));
    let m = mix(&v);
    assert_eq!(m["writer"], serde_json::json!([false, true, false, true]));
    for c in m["per_child"].as_array().unwrap() {
        assert_eq!(c["bytes"].as_u64(), Some(1 << 20), "{m}");
        assert_eq!(c["ops"].as_u64(), Some(256), "{m}");
    }
    let calls = |c: &Value, k: &str| c["calls"][k].as_u64().unwrap();
    let kids = m["per_child"].as_array().unwrap();
    assert_eq!(
        (calls(&kids[0], "reads"), calls(&kids[0], "writes")),
        (256, 0)
    );
    assert_eq!(
        (calls(&kids[1], "reads"), calls(&kids[1], "writes")),
        (0, 256)
    );
    // Random: a record's neighbour is rarely the next one, so nearly every call seeks.
    assert!(calls(&kids[0], "seeks") > 200, "{m}");
    // -+p 75: the first three children read, the last writes.
    let v = json_of(&iozone(&args(&["-x", "-+p", "75", "--json"]), &d.path));
    assert_eq!(
        mix(&v)["writer"],
        serde_json::json!([false, false, false, true])
    );
    // The text block and the -R row.
    let o = iozone(&args(&["-+p", "50", "-R"]), &d.path);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("\tPercent read in mix test is 50\n"), "{out}");
    assert!(
        out.contains("\tChildren see throughput for  4 mixed workload \t= "),
        "{out}"
    );
    assert!(out.contains("\" Mixed workload \""), "{out}");
    // -+B: sequential readers and writers, no seek at all; without it, a seek per record.
    let lseeks = |extra: &[&'static str]| {
        traced("lseek", &args(extra), &d)
            .iter()
            .filter(|l| l.contains("lseek("))
            .count()
    };
    assert!(
        lseeks(&["-x", "-+B"]) < 16,
        "the sequential mix seeks only to prime"
    );
    assert!(lseeks(&["-x"]) > 4 * 200, "the random mix seeks per record");
    let o = iozone(&args(&["-x", "-+B"]), &d.path);
    assert!(stdout(&o).contains("\t>>> Sequential Mixed workload. <<<\n"));
    // Without -t the mix is refused before any I/O (iozone measures nothing there).
    let o = iozone(&["-s", "1m", "-i", "8", "-f", &d.s("x")], &d.path);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("give -t N"), "{}", stderr(&o));
    assert_eq!(std::fs::read_dir(&d.path).unwrap().count(), 0);
}

#[test]
fn iozone_cpu_utilization_tables() {
    let d = Scratch::new_in("/dev/shm", "iozone-cpu");
    let f = d.s("f");
    let book = d.s("cpu.xlsx");
    let o = iozone(
        &["-a", "-n", "1m", "-g", "2m", "-y", "64k", "-q", "128k"],
        &d.path,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let plain = stdout(&o);
    assert!(!plain.contains("CPU utilization"), "{plain}");
    let o = iozone(
        &[
            "-a", "-n", "1m", "-g", "2m", "-y", "64k", "-q", "128k", "-i", "0", "-i", "1", "-+u",
            "-R", "-f", &f, "-b", &book,
        ],
        &d.path,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("\tCPU utilization Resolution = "), "{out}");
    // The workbook: a sheet per figure, then a sheet per CPU table.
    use calamine::{open_workbook, Reader, Xlsx};
    let wb: Xlsx<_> = open_workbook(&book).unwrap();
    assert_eq!(
        wb.sheet_names()[5..],
        ["Writer CPU", "Re-writer CPU", "Reader CPU", "Re-Reader CPU"]
    );
    std::fs::remove_file(&book).unwrap();
    let blocks = excel::parse_as::<f64>(&out);
    let titles: Vec<&str> = blocks.iter().map(|b| b.title.as_str()).collect();
    assert_eq!(
        titles[4..],
        [
            "Writer CPU utilization report (Zero values should be ignored)",
            "Re-writer CPU utilization report (Zero values should be ignored)",
            "Reader CPU utilization report (Zero values should be ignored)",
            "Re-Reader CPU utilization report (Zero values should be ignored)",
        ]
    );
    // Buffered I/O on tmpfs is all CPU: one thread's utilization is high and at most 100%.
    let ncpu = std::thread::available_parallelism().unwrap().get() as f64;
    for b in &blocks[4..] {
        assert_eq!(b.records_kb, [64, 128]);
        assert_eq!(b.rows.len(), 2);
        for (_, vals) in &b.rows {
            for v in vals {
                let v = v.unwrap();
                assert!(v > 0.0 && v <= 100.0 * ncpu + 5.0, "{}: {v}", b.title);
            }
        }
    }
    // The result holds each figure's CPU seconds, wall seconds and their ratio.
    let o = iozone(
        &[
            "-s", "4m", "-r", "64k", "-i", "0", "-+u", "-f", &f, "--json",
        ],
        &d.path,
    );
    let v = json_of(&o);
    let w = &v["iozone"]["cells"][0]["figures"]["write"];
    let (cpu, wall, util) = (
        w["cpu_s"].as_f64().unwrap(),
        w["cpu_wall_s"].as_f64().unwrap(),
        w["cpu_util"].as_f64().unwrap(),
    );
    assert!(cpu > 0.0 && wall > 0.0, "{w}");
    assert!((util - 100.0 * cpu / wall).abs() < 0.01, "{w}");
    // Throughput mode: the CPU line per block, the per-child figures and the CPU report.
    let files: Vec<String> = (0..2).map(|i| d.s(&format!("c{i}"))).collect();
    let o = iozone(
        &[
            "-t", "2", "-s", "2m", "-r", "64k", "-i", "0", "-+u", "-C", "-R", "-F", &files[0],
            &files[1],
        ],
        &d.path,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert_eq!(
        out.matches("\tCPU utilization: Wall time ").count(),
        2,
        "{out}"
    );
    assert!(out.contains(", wall="), "{out}");
    assert!(out.contains(", cpu="), "{out}");
    // Without -T iozone's children are processes, and it says so.
    assert!(
        out.contains(
            "\"CPU utilization report Y-axis is type of test X-axis is number of processes\""
        ),
        "{out}"
    );
    for line in [
        "\tThroughput test with 2 processes\n",
        "\tEach process writes a 2048 kByte file in 64 kByte records\n",
        "\tMin throughput per process \t\t\t= ",
    ] {
        assert!(out.contains(line), "{line:?}: {out}");
    }
    assert!(out.contains("\"Output is in CPU%\""), "{out}");
}

#[test]
fn iozone_mmap_files_verified_on_tmpfs_and_ext4() {
    for base in ["/dev/shm", "/tmp"] {
        let d = Scratch::new_in(base, "iozone-mmap");
        let f = d.s("f");
        // Every mapped test, writers stamping and readers verifying each record (-+d).
        let mut a = vec![
            "-s", "1m", "-r", "64k", "-B", "-+d", "-e", "-f", &f, "--json",
        ];
        for t in ["0", "1", "2", "3", "4", "5", "6", "7"] {
            a.extend(["-i", t]);
        }
        let v = json_of(&iozone(&a, &d.path));
        let fig = &v["iozone"]["cells"][0]["figures"];
        let calls = |k: &str, what: &str| fig[k]["calls"][what].as_u64().unwrap();
        for k in [
            "write",
            "rewrite",
            "read",
            "reread",
            "random_read",
            "random_write",
            "backward_read",
            "record_rewrite",
            "stride_read",
        ] {
            assert_eq!(fig[k]["bytes"].as_u64(), Some(1 << 20), "{base} {k}");
            // Loads and stores, not system calls; -e is one msync of the file.
            assert_eq!(calls(k, "reads") + calls(k, "writes"), 0, "{base} {k}");
            assert_eq!(calls(k, "msyncs"), 1, "{base} {k}");
        }
        // The stdio tests stay streams, as in iozone.
        assert_eq!(calls("fwrite", "writes"), 16);
        assert_eq!(calls("fread", "reads"), 16);
        assert!(!d.file("f").exists());
    }
    let d = Scratch::new_in("/dev/shm", "iozone-msync");
    let f = d.s("f");
    // -G: an msync(MS_SYNC) after each stored record; -D: MS_ASYNC; -B alone: none timed.
    for (flag, want, n) in [
        ("-G", "MS_SYNC", 16),
        ("-D", "MS_ASYNC", 16),
        ("-B", "MS_", 0),
    ] {
        let mut args = vec!["-s", "1m", "-r", "64k", "-i", "0", "-+n", "-f", &f, flag];
        if flag == "-G" {
            args.push("-B");
        }
        let t = traced("msync,write,mmap", &args, &d);
        let per_record = t
            .iter()
            .filter(|l| l.contains("msync(") && l.contains(", 65536, ") && l.contains(want))
            .count();
        assert_eq!(per_record, n, "{flag}: {t:?}");
        // No write(2) of a record: records are stores into the shared mapping.
        let big_writes = t.iter().filter(|l| l.contains(", 65536) = 65536")).count();
        assert_eq!(big_writes, 0, "{flag}: {t:?}");
        assert!(
            t.iter()
                .any(|l| l.contains("mmap(")
                    && l.contains("1048576, PROT_READ|PROT_WRITE, MAP_SHARED")),
            "{flag}: {t:?}"
        );
    }
    let o = iozone(&["-s", "1m", "-B", "-i", "9", "-f", &f], &d.path);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("-i 9 with -B"), "{}", stderr(&o));
    let o = iozone(&["-s", "1m", "-G", "-f", &f], &d.path);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("give -B"), "{}", stderr(&o));
}

#[test]
fn iozone_children_bound_to_cpus_in_turn() {
    let d = Scratch::new_in("/dev/shm", "iozone-bind");
    let n = std::thread::available_parallelism().unwrap().get();
    let files: Vec<String> = (0..2).map(|i| d.s(&format!("c{i}"))).collect();
    let first = (n - 1).to_string();
    let v = json_of(&iozone(
        &[
            "-t", "2", "-s", "1m", "-i", "0", "-x", "-P", &first, "--json", "-F", &files[0],
            &files[1],
        ],
        &d.path,
    ));
    for f in v["iozone"]["throughput"].as_array().unwrap() {
        for (i, c) in f["per_child"].as_array().unwrap().iter().enumerate() {
            assert_eq!(
                c["last_cpu"].as_u64(),
                Some(((n - 1 + i) % n) as u64),
                "{f}"
            );
        }
    }
    let o = iozone(&["-s", "1m", "-P", "4096", "-f", &d.s("f")], &d.path);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("-P 4096"), "{}", stderr(&o));
}

/// Throughput mode's result file: one job per child of each pass, whose bytes are the
/// `Child[i] xfer count` stdout prints and whose timed runtime is the time of the figure stdout
/// computed its rate from (the stonewall on, so children may be cut short).
#[test]
fn iozone_throughput_result_jobs_are_what_stdout_reports() {
    let d = Scratch::new_in("/dev/shm", "iozone-tp-jobs");
    let (c0, c1, result) = (d.s("c0"), d.s("c1"), d.s("r.json"));
    let args = [
        "-t", "2", "-s", "1m", "-r", "64k", "-i", "0", "-i", "1", "-C", "--result", &result, "-F",
        &c0, &c1,
    ];
    let o = iozone(&args, &d.path);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let v: Value = serde_json::from_slice(&std::fs::read(&result).unwrap()).unwrap();
    std::fs::remove_file(&result).unwrap();
    let jobs = v["jobs"].as_array().unwrap();
    assert_eq!(jobs.len(), 8, "{v}");
    let mut seen = 0;
    for block in out.split("\tChildren see throughput for ").skip(1) {
        let label = block.split(" \t=").next().unwrap().trim();
        let (n, label) = label.split_once(' ').unwrap();
        assert_eq!(n, "2", "{block}");
        let dir = if label.contains("read") {
            "read"
        } else {
            "write"
        };
        let tp = v["iozone"]["throughput"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["test"] == label)
            .unwrap_or_else(|| panic!("{label}: {v}"));
        for line in block.lines().filter(|l| l.contains("xfer count = ")) {
            let i: usize = line
                .split('[')
                .nth(1)
                .unwrap()
                .split(']')
                .next()
                .unwrap()
                .parse()
                .unwrap();
            let kb = line
                .split("xfer count = ")
                .nth(1)
                .unwrap()
                .split_whitespace()
                .next()
                .unwrap();
            let rate = line
                .split("Throughput = ")
                .nth(1)
                .unwrap()
                .split_whitespace()
                .next()
                .unwrap();
            let name = format!("iozone {label} x2 child {i}");
            let j = jobs
                .iter()
                .find(|j| j["name"] == name.as_str())
                .unwrap_or_else(|| panic!("{name}: {v}"));
            let bytes = j["dirs"][dir]["io_bytes"].as_u64().unwrap();
            assert_eq!(
                format!("{:.2}", bytes as f64 / 1024.0),
                kb,
                "{name}: {line}"
            );
            // The table beside the jobs has the same child, with the rate stdout printed.
            let fig = &tp["per_child"][i];
            assert_eq!(fig["bytes"].as_u64(), Some(bytes), "{name}: {fig}");
            assert_eq!(
                format!("{:.2}", fig["kib_per_s"].as_f64().unwrap()),
                rate,
                "{name}"
            );
            let timed_ns = fig["timed_ns"].as_u64().unwrap();
            assert_eq!(
                j["runtime_us"].as_u64(),
                Some(timed_ns / 1000),
                "{name}: {j}"
            );
            seen += 1;
        }
    }
    assert_eq!(seen, 8, "{out}");
}

/// A file already at a throughput file's path (iozone.DUMMY.N beside -f, or a -F name) is
/// refused before any I/O and left as it was; nothing else is made.
#[test]
fn iozone_throughput_refuses_a_file_it_did_not_make() {
    let d = Scratch::new("iozone-tp-existing");
    let theirs = d.file("iozone.DUMMY.1");
    std::fs::write(&theirs, b"someone's data").unwrap();
    let o = iozone(&["-t", "2", "-s", "64k", "-r", "4k", "-i", "0"], &d.path);
    assert!(!o.status.success(), "{}", stdout(&o));
    assert!(
        stderr(&o).contains("iozone.DUMMY.1 exists"),
        "{}",
        stderr(&o)
    );
    assert!(!stdout(&o).contains("Children see"), "{}", stdout(&o));
    assert_eq!(std::fs::read(&theirs).unwrap(), b"someone's data");
    assert!(!d.file("iozone.DUMMY.0").exists());
    // -w keeps the files the run made; the next run refuses them rather than replace them.
    std::fs::remove_file(&theirs).unwrap();
    let (a, b) = (d.s("a"), d.s("b"));
    let args = [
        "-t", "2", "-s", "64k", "-r", "4k", "-i", "0", "-w", "-F", &a, &b,
    ];
    let o = iozone(&args, &d.path);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(std::fs::metadata(&a).unwrap().len(), 64 << 10);
    let o = iozone(&args, &d.path);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("exists"), "{}", stderr(&o));
    assert_eq!(std::fs::metadata(&b).unwrap().len(), 64 << 10);
    std::fs::remove_file(&a).unwrap();
    std::fs::remove_file(&b).unwrap();
}

/// The matrix mode replaces a file already at -f's path, as iozone does, but does not remove
/// it after the run (it was not the run's to remove); a file the run made is removed.
#[test]
fn iozone_matrix_keeps_a_file_that_was_there() {
    let d = Scratch::new("iozone-existing-f");
    let f = d.s("f");
    std::fs::write(&f, b"someone's data").unwrap();
    let args = ["-s", "64k", "-r", "4k", "-i", "0", "-f", &f];
    let o = iozone(&args, &d.path);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("it is kept after the run"),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::metadata(&f).unwrap().len(), 64 << 10);
    std::fs::remove_file(&f).unwrap();
    let o = iozone(&args, &d.path);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!d.file("f").exists());
}
