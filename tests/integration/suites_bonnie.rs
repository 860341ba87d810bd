//! `iomark bonnie`: the seed line runs (shrunk), its CSV has bonnie++'s 50 fields and Debian's
//! bon_csv2html and bon_csv2txt read it, text and CSV agree, -q and -x, bad input.

use crate::util::{bin, is_root, seed_line, stderr, stdout, BoundedOutput, ReadOnlyDir, Scratch};
use std::io::Write;
use std::process::{Command, Stdio};

fn bonnie(args: &[&str]) -> std::process::Output {
    Command::new(bin())
        .arg("bonnie")
        .args(args)
        .bounded_output()
        .unwrap()
}

/// Nothing is left in the test's directory.
#[track_caller]
fn assert_left_nothing(dir: &std::path::Path, what: &str) {
    assert_eq!(std::fs::read_dir(dir).unwrap().count(), 0, "{what}");
}

fn pipe(prog: &str, input: &str) -> std::process::Output {
    let mut c = Command::new(prog)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{prog} (Debian's bonnie++ package): {e}"));
    c.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    c.wait_with_output().unwrap()
}

#[test]
fn bonnie_seed_line_csv_and_converters() {
    let d = Scratch::new("bonnie-seed");
    let dir = d.path.display().to_string();
    // The seed line, shrunk and redirected by appended flags (the last -d wins).
    let seed = seed_line("bonnie++");
    let mut args: Vec<&str> = seed.split_whitespace().collect();
    args.extend([
        "-d",
        &dir,
        "-s",
        "8",
        "-r",
        "0",
        "-n",
        "0",
        "--char-size=256k",
    ]);
    let o = bonnie(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let csv: Vec<&str> = out.lines().filter(|l| l.starts_with("1.98,")).collect();
    assert_eq!(csv.len(), 3, "-x 3 streams three CSV rows:\n{out}");
    for row in &csv {
        let f: Vec<&str> = row.split(',').collect();
        assert_eq!(f.len(), 50, "{row}");
        assert_eq!((f[2], f[5], f[7], f[8]), ("kvm-guest", "8M", "8192", "5"));
        // Every bulk test measured (or +++++); no file tests (-n 0).
        for i in [9, 11, 13, 15, 17, 19] {
            assert!(
                f[i] == "+++++" || f[i].parse::<f64>().unwrap() > 0.0,
                "{row}"
            );
        }
        for (i, v) in f.iter().enumerate().skip(21).take(17) {
            assert_eq!(*v, "", "field {i}: {row}");
        }
        for v in &f[38..44] {
            assert!(v.ends_with("us") || v.ends_with("ms"), "{row}");
        }
    }
    assert_eq!(out.matches("Name:Size etc").count(), 3, "{out}");
    let html = pipe("bon_csv2html", &format!("{}\n", csv.join("\n")));
    assert!(html.status.success(), "{}", stderr(&html));
    let h = stdout(&html);
    assert!(h.contains("<table") && h.contains("kvm-guest"), "{h}");
    let txt = pipe("bon_csv2txt", &format!("{}\n", csv[0]));
    assert!(txt.status.success(), "{}", stderr(&txt));
    // bon_csv2txt cuts the name to 8 characters.
    assert!(
        stdout(&txt).contains("kvm-gues 8M::8192:5"),
        "{}",
        stdout(&txt)
    );
    assert_left_nothing(&d.path, "test file left behind");
}

#[test]
fn bonnie_text_and_csv_agree_and_quiet_splits_them() {
    let d = Scratch::new("bonnie-agree");
    let dir = d.path.display().to_string();
    let o = bonnie(&[
        "-d",
        &dir,
        "-s",
        "16",
        "-r",
        "0",
        "-n",
        "0",
        "-q",
        "-m",
        "h",
        "--char-size=256k",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let (out, err) = (stdout(&o), stderr(&o));
    assert_eq!(out.lines().count(), 1, "-q: only CSV on stdout:\n{out}");
    assert!(err.contains("Name:Size etc"), "{err}");
    let f: Vec<&str> = out.trim().split(',').collect();
    let row = err.lines().find(|l| l.starts_with("h ")).expect("text row");
    // The text row's columns are CSV fields 10-21 (rate and %CP of the six bulk tests).
    let cells: Vec<&str> = row.split_whitespace().collect();
    let text_fields: Vec<&str> = cells[2..].to_vec();
    let csv_fields = &f[9..21];
    assert_eq!(text_fields.len(), 12, "{row}");
    for (t, &c) in text_fields.iter().zip(csv_fields) {
        if c.starts_with('+') {
            assert_eq!(*t, c, "{row} / {out}");
        } else if let Some(m) = t.strip_suffix('m') {
            let kib: f64 = c.parse().unwrap();
            let m: f64 = m.parse().unwrap();
            assert!((kib / 1024.0 - m).abs() <= 0.5 + m * 0.005, "{row} / {out}");
        } else if let Some(k) = t.strip_suffix('k') {
            assert_eq!(k, c, "{row} / {out}");
        } else {
            assert_eq!(*t, c, "{row} / {out}");
        }
    }
}

#[test]
fn bonnie_bad_input_is_refused_and_writes_nothing() {
    let d = Scratch::new("bonnie-bad");
    let dir = d.path.display().to_string();
    let missing = d.s("missing");
    for (args, needle) in [
        (vec!["-d", dir.as_str(), "-k"], "-k"),
        (vec!["-d", dir.as_str(), "-s", "lots"], "-s"),
        (vec!["-d", dir.as_str(), "-s", "8:3000", "-r", "0"], "-s"),
        (
            vec!["-d", missing.as_str(), "-s", "8", "-r", "0"],
            "missing",
        ),
        (vec!["-d", dir.as_str(), "-s", "8"], "double RAM"),
        (
            vec!["-d", dir.as_str(), "-s", "100000000", "-r", "0"],
            "largest size that fits",
        ),
    ] {
        let o = bonnie(&args);
        assert!(!o.status.success(), "{args:?}");
        assert!(stderr(&o).contains(needle), "{args:?}: {}", stderr(&o));
        assert_left_nothing(&d.path, &format!("{args:?}"));
    }
}

#[test]
fn bonnie_file_tests_follow_n_and_agree_with_text() {
    let d = Scratch::new("bonnie-files");
    let dir = d.path.display().to_string();
    let res = d.s("r.json");
    let o = bonnie(&[
        "-d",
        &dir,
        "-s",
        "0",
        "-n",
        "1:2k:1k:3",
        "-b",
        "-m",
        "h",
        "--result-file",
        &res,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let csv = out.lines().find(|l| l.starts_with("1.98,")).unwrap();
    let f: Vec<&str> = csv.split(',').collect();
    assert_eq!(f.len(), 50);
    assert!(f[5..21].iter().all(|v| v.is_empty()), "{csv}");
    assert_eq!(&f[21..26], ["1", "2048", "1024", "", "3"], "{csv}");
    assert!(out.contains("files:max:min"), "{out}");
    let row = out.lines().find(|l| l.contains("1:2048:1024/3")).unwrap();
    let cells: Vec<&str> = row.split_whitespace().skip(1).collect();
    assert_eq!(cells, f[26..38].to_vec(), "text and CSV agree:\n{out}");
    let lat = out.lines().rfind(|l| l.starts_with("Latency")).unwrap();
    let lat: Vec<&str> = lat.split_whitespace().skip(1).collect();
    assert_eq!(lat, f[44..50].to_vec());
    // The result file holds the six tests, 1024 files each, with latency histograms.
    let r: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&res).unwrap()).unwrap();
    let jobs = r["jobs"].as_array().unwrap();
    let names: Vec<&str> = jobs.iter().map(|j| j["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "bonnie-sequential-create",
            "bonnie-sequential-stat",
            "bonnie-sequential-delete",
            "bonnie-random-create",
            "bonnie-random-stat",
            "bonnie-random-delete"
        ]
    );
    for j in jobs {
        let ios = j["dirs"]["read"]["total_ios"].as_u64().unwrap()
            + j["dirs"]["write"]["total_ios"].as_u64().unwrap();
        assert_eq!(ios, 1024, "{}", j["name"]);
    }
    // Stat read every file's data: between 1024 and 2048 bytes each.
    let stat_bytes = jobs[1]["dirs"]["read"]["io_bytes"].as_u64().unwrap();
    assert!(
        (1024 * 1024..=2048 * 1024).contains(&stat_bytes),
        "{stat_bytes}"
    );
    let left: Vec<_> = std::fs::read_dir(&d.path)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(
        left,
        vec![std::ffi::OsString::from("r.json")],
        "left behind"
    );
}

#[test]
fn bonnie_per_char_is_one_byte_syscalls_and_rewrite_reads_then_writes() {
    let d = Scratch::new("bonnie-strace");
    let dir = d.path.display().to_string();
    let log = d.s("trace");
    let o = Command::new("strace")
        .args(["-f", "-e", "trace=read,write,lseek", "-o", &log])
        .arg(bin())
        .args([
            "bonnie", "-d", &dir, "-s", "1", "-r", "0", "-n", "0", "-m", "h",
        ])
        .arg("--char-size=32k")
        .bounded_output()
        .unwrap_or_else(|e| panic!("strace (package strace): {e}"));
    assert!(o.status.success(), "{}", stderr(&o));
    let t = std::fs::read_to_string(&log).unwrap();
    std::fs::remove_file(&log).unwrap();
    // Per-char output and input: 32 KiB each (--char-size), one byte per system call.
    // strace pads the result: `write(3, "\0", 1)          = 1`.
    let one_byte = |call: &str| {
        t.lines()
            .filter(|l| l.contains(call))
            .filter(|l| {
                l.rsplit_once(", 1)")
                    .is_some_and(|(_, r)| r.trim() == "= 1")
            })
            .count()
    };
    let (one_byte_writes, one_byte_reads) = (one_byte(" write("), one_byte(" read("));
    assert_eq!(one_byte_writes, 32 << 10);
    assert!(one_byte_reads >= 32 << 10, "{one_byte_reads}");
    // Rewrite: read 8192, seek back 8192, write 8192.
    assert!(
        t.contains("lseek(") && t.contains(", -8192, SEEK_CUR)"),
        "no seek back in the trace"
    );
}

/// Debian's bonnie++ in `dir` with `args` (`-u root` added when running as root, as it
/// demands).
fn original(dir: &str, args: &[&str]) -> std::process::Output {
    let mut c = Command::new("bonnie++");
    c.args(["-d", dir]).args(args);
    if is_root() {
        c.args(["-u", "root"]);
    }
    c.bounded_output()
        .unwrap_or_else(|e| panic!("bonnie++ (Debian's bonnie++ package): {e}"))
}

/// strace of `prog args` (following threads) for `calls`; the trace's lines.
fn traced(log: &str, calls: &str, prog: &std::path::Path, args: &[&str]) -> Vec<String> {
    let o = Command::new("strace")
        .args(["-f", "-e", &format!("trace={calls}"), "-o", log])
        .arg(prog)
        .args(args)
        .bounded_output()
        .unwrap_or_else(|e| panic!("strace (package strace): {e}"));
    assert!(o.status.success(), "{prog:?}: {}", stderr(&o));
    let t = std::fs::read_to_string(log).unwrap();
    std::fs::remove_file(log).unwrap();
    t.lines().map(String::from).collect()
}

#[test]
fn bonnie_seeks_have_bonnies_count_and_shape() {
    // bonnie++: each of the -s seeks is an lseek(SEEK_SET) and a chunk read by one of the
    // seeker threads; a tenth also seek back and write the chunk.
    let d = Scratch::new("bonnie-seeks");
    let dir = d.path.display().to_string();
    let log = d.s("trace");
    let args = ["-s", "4:4096:2000:3", "-r", "0", "-n", "0", "-f", "-m", "h"];
    // The result store (its own files) is left out: only the test's names are counted.
    let mut ours = vec!["bonnie", "--no-store", "-d", &dir];
    ours.extend(args);
    let mut theirs = vec!["-d", dir.as_str()];
    theirs.extend(args);
    if is_root() {
        theirs.extend(["-u", "root"]);
    }
    let which = std::process::Command::new("sh")
        .args(["-c", "command -v bonnie++"])
        .bounded_output()
        .unwrap();
    let bonnie_pp = std::path::PathBuf::from(stdout(&which).trim());
    assert!(bonnie_pp.is_file(), "bonnie++ (Debian's bonnie++ package)");
    for (prog, a) in [(bin(), &ours), (bonnie_pp, &theirs)] {
        let t = traced(&log, "lseek", &prog, a);
        // Seeks to a chunk: lseek(fd, N*4096, SEEK_SET) with N > 0 (the rewrite's and block
        // input's seeks to 0 are not seeks of the test).
        let seeks: Vec<&String> = t
            .iter()
            // `lseek(5, 8192, SEEK_SET) = 8192`, or `... SEEK_SET <unfinished ...>` when a
            // thread is interrupted.
            .filter(|l| l.contains(", SEEK_SET"))
            .filter(|l| {
                let off: u64 = l.split(", ").nth(1).unwrap().parse().unwrap();
                off > 0 && off % 4096 == 0
            })
            .collect();
        let n = seeks.len();
        // 2000 reads plus about 200 write-backs (binomial: far inside 120..=300).
        assert!((2120..=2300).contains(&n), "{prog:?}: {n} seeks");
        let threads: std::collections::BTreeSet<&str> = seeks
            .iter()
            .map(|l| l.split_whitespace().next().unwrap())
            .collect();
        assert_eq!(threads.len(), 3, "{prog:?}: seekers {threads:?}");
        // The tickets: one 4-byte read(2) from a pipe before each seek (one trace file per
        // thread, so no call is split across lines).
        let tickets = pipe_ticket_reads(&d, &prog, a);
        assert!(
            (2000..=2003).contains(&tickets),
            "{prog:?}: {tickets} ticket reads"
        );
    }
    assert_left_nothing(&d.path, "left behind");
}

/// The 4-byte reads from a pipe in `prog args` (strace -ff -y: one file per thread, each
/// descriptor with what it is).
fn pipe_ticket_reads(d: &Scratch, prog: &std::path::Path, args: &[&str]) -> usize {
    let stem = d.s("pipes");
    let o = Command::new("strace")
        .args(["-ff", "-y", "-qq", "-e", "trace=read", "-o", &stem])
        .arg(prog)
        .args(args)
        .bounded_output()
        .unwrap_or_else(|e| panic!("strace (package strace): {e}"));
    assert!(o.status.success(), "{prog:?}: {}", stderr(&o));
    let mut n = 0;
    for e in std::fs::read_dir(&d.path).unwrap() {
        let p = e.unwrap().path();
        if p.file_name()
            .unwrap()
            .to_string_lossy()
            .starts_with("pipes.")
        {
            let t = std::fs::read_to_string(&p).unwrap();
            n += t
                .lines()
                // strace pads the result: `read(5<pipe:[7]>, "..", 4)   = 4`.
                .filter(|l| {
                    l.contains("<pipe:[")
                        && l.rsplit_once(", 4)")
                            .is_some_and(|(_, r)| r.trim() == "= 4")
                })
                .count();
            std::fs::remove_file(&p).unwrap();
        }
    }
    n
}

#[test]
fn bonnie_links_and_concurrency_print_as_bonnie_does() {
    let d = Scratch::new("bonnie-links");
    let dir = d.path.display().to_string();
    let log = d.s("trace");
    for (n, label, max, calls) in [
        ("1:-1:0:3", "1:link/3", "link", "linkat,link"),
        ("1:-2", "1:symlink", "symlink", "symlinkat,symlink"),
    ] {
        let args = ["-s", "0", "-n", n, "-c", "3", "-m", "h"];
        let ours = bonnie(&[&["-d", dir.as_str()], &args[..]].concat());
        let theirs = original(&dir, &args);
        let mut csvs = Vec::new();
        for o in [&ours, &theirs] {
            assert!(o.status.success(), "{n}: {}", stderr(o));
            let out = stdout(o);
            let csv = out.lines().find(|l| l.starts_with("1.98,")).unwrap();
            let f: Vec<&str> = csv.split(',').collect();
            assert_eq!(f.len(), 50, "{csv}");
            assert_eq!(f[3], "3", "-c 3 in the concurrency field: {csv}");
            let dirs = if n.ends_with(":3") { "3" } else { "" };
            assert_eq!(&f[21..26], ["1", max, "", "", dirs], "{csv}");
            assert!(out.contains("files:max "), "{out}");
            // The file table's header at bonnie++'s column, after the version.
            let head = out.lines().find(|l| l.starts_with("Version ")).unwrap();
            assert_eq!(head.find(" ------Sequential Create"), Some(19), "{head}");
            assert!(out
                .lines()
                .any(|l| l.trim_start().starts_with(&format!("{label} "))));
            csvs.push(csv.to_string());
        }
        let html = pipe("bon_csv2html", &format!("{}\n", csvs.join("\n")));
        assert!(html.status.success(), "{}", stderr(&html));
        // One file and 1023 links, sequential and random passes; -c 3 runs each test once
        // (bonnie++ 2.00a records the concurrency, it does not run copies).
        let mut a = vec!["bonnie", "-d", &dir];
        a.extend(args);
        let t = traced(&log, calls, &bin(), &a);
        let made = t.iter().filter(|l| l.ends_with("= 0")).count();
        assert_eq!(made, 2 * 1023, "{n}");
    }
    assert!(stderr(&bonnie(&["-d", &dir, "-s", "0", "-n", "1:-2:0:2"])).contains("symbolic"));
    assert_left_nothing(&d.path, "left behind");
}

#[test]
fn bonnie_unwritable_directory_is_refused_and_writes_nothing() {
    let ro = ReadOnlyDir::new("bonnie-ro");
    let dir = ro.s();
    for args in [
        vec!["-d", dir.as_str(), "-s", "8", "-r", "0", "-n", "0"],
        vec!["-d", dir.as_str(), "-s", "0", "-n", "1"],
    ] {
        let o = bonnie(&args);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {}", stderr(&o));
        let e = stderr(&o);
        assert!(
            e.contains(&format!("-d {dir}: cannot create files there")),
            "{args:?}: {e}"
        );
        // Refused before any test: no table, no CSV line.
        assert_eq!(stdout(&o), "", "{args:?}");
        assert_eq!(ro.entries(), 0, "{args:?}");
    }
}

/// The CSV fields of each test's rate (its %CP follows), by the test's name in the result file.
const RATE_FIELDS: [(&str, usize); 12] = [
    ("bonnie-per-char-output", 9),
    ("bonnie-block-output", 11),
    ("bonnie-rewrite", 13),
    ("bonnie-per-char-input", 15),
    ("bonnie-block-input", 17),
    ("bonnie-random-seeks", 19),
    ("bonnie-sequential-create", 26),
    ("bonnie-sequential-stat", 28),
    ("bonnie-sequential-delete", 30),
    ("bonnie-random-create", 32),
    ("bonnie-random-stat", 34),
    ("bonnie-random-delete", 36),
];

#[test]
fn bonnie_plus_signs_only_for_tests_under_half_a_second() {
    // bonnie++ prints +++++ (and +++ for %CP) for a test that took under 500 ms and a rate
    // otherwise: each field of the CSV against that test's time in the result file. Per-char
    // tests of 2 MiB (one-byte calls) usually take longer, the 8 MiB block tests less.
    let d = Scratch::new("bonnie-plus");
    let dir = d.s("d");
    std::fs::create_dir(&dir).unwrap();
    let res = d.s("r.json");
    let o = bonnie(&[
        "-d",
        &dir,
        "-s",
        "8",
        "-r",
        "0",
        "-n",
        "1",
        "-m",
        "h",
        "--char-size=2m",
        "--result-file",
        &res,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let csv = out.lines().find(|l| l.starts_with("1.98,")).unwrap();
    let f: Vec<&str> = csv.split(',').collect();
    let r: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&res).unwrap()).unwrap();
    let jobs = r["jobs"].as_array().unwrap();
    let mut plus = 0;
    for (name, i) in RATE_FIELDS {
        let j = jobs.iter().find(|j| j["name"] == name).expect(name);
        let us = j["runtime_us"].as_u64().unwrap();
        if us < 500_000 {
            assert_eq!((f[i], f[i + 1]), ("+++++", "+++"), "{name}: {us} us: {csv}");
            plus += 1;
        } else {
            // The rate is the test's amount over its time (KiB/s for the bulk tests, per
            // second for seeks and the file tests).
            let dir = if j["dirs"]["write"]["total_ios"].as_u64().unwrap() > 0 {
                "write"
            } else {
                "read"
            };
            let amount = if i < 19 {
                j["dirs"][dir]["io_bytes"].as_f64().unwrap() / 1024.0
            } else {
                j["dirs"][dir]["total_ios"].as_f64().unwrap()
            };
            let want = amount / (us as f64 / 1e6);
            let got: f64 = f[i].parse().unwrap_or_else(|_| panic!("{name}: {csv}"));
            assert!(
                (got - want).abs() <= want * 0.01 + 1.0,
                "{name}: {got} vs {want}: {csv}"
            );
            assert!(f[i + 1].parse::<u64>().is_ok(), "{name}: {csv}");
        }
    }
    assert!(plus > 0, "{csv}");
}

/// The names created under the test directory, from an strace of openat: (directory key, name)
/// where the key is the directory part of the path or the descriptor the name is relative to.
fn created(trace: &[String]) -> Vec<(String, String)> {
    trace
        .iter()
        .filter(|l| l.contains("O_CREAT") && !l.contains("ENOENT"))
        .filter_map(|l| {
            let (_, rest) = l.split_once("openat(")?;
            let (base, rest) = rest.split_once(", \"")?;
            let (path, _) = rest.split_once('"')?;
            if path.contains("Bonnie.") && !path.contains('/') {
                return None;
            }
            let (dir, name) = match path.rsplit_once('/') {
                Some((d, n)) => (d.to_string(), n.to_string()),
                None => (base.to_string(), path.to_string()),
            };
            Some((dir, name))
        })
        .collect()
}

#[test]
fn bonnie_file_names_and_directories_follow_bonnies() {
    // -n 1:0:0:3: 1024 empty files in three directories, created in sequential order (names:
    // the index in 10 hex digits, then 0-12 random letters and digits), then in random order
    // (the random characters first); bonnie++ itself beside iomark, the same shapes and counts.
    let d = Scratch::new("bonnie-names");
    let dir = d.s("d");
    std::fs::create_dir(&dir).unwrap();
    let log = d.s("trace");
    let args = ["-s", "0", "-n", "1:0:0:3", "-m", "h"];
    // The result store (its own files) is left out: only the test's names are counted.
    let mut ours = vec!["bonnie", "--no-store", "-d", &dir];
    ours.extend(args);
    let mut theirs = vec!["-d", dir.as_str()];
    theirs.extend(args);
    if is_root() {
        theirs.extend(["-u", "root"]);
    }
    let which = Command::new("sh")
        .args(["-c", "command -v bonnie++"])
        .bounded_output()
        .unwrap();
    let bonnie_pp = std::path::PathBuf::from(stdout(&which).trim());
    assert!(bonnie_pp.is_file(), "bonnie++ (Debian's bonnie++ package)");
    let alnum = |s: &str| s.bytes().all(|b| b.is_ascii_alphanumeric());
    let mut per_dir_counts = Vec::new();
    for (prog, a) in [(bin(), &ours), (bonnie_pp, &theirs)] {
        let t = traced(&log, "openat,mkdir,mkdirat", &prog, a);
        let subdirs: Vec<&String> = t
            .iter()
            .filter(|l| l.contains("mkdir") && l.ends_with("= 0"))
            .filter(|l| {
                ["00000\"", "00001\"", "00002\""]
                    .iter()
                    .any(|s| l.contains(s))
            })
            .collect();
        // 00000-00002, made for the sequential pass and again for the random one.
        assert_eq!(subdirs.len(), 6, "{prog:?}: {subdirs:?}");
        let names = created(&t);
        assert_eq!(names.len(), 2048, "{prog:?}");
        for (i, (_, n)) in names[..1024].iter().enumerate() {
            assert!(n.len() <= 22 && alnum(n), "{prog:?}: {n}");
            assert_eq!(&n[..10], format!("{i:010x}"), "{prog:?}: sequential {n}");
        }
        let mut idx: Vec<u64> = names[1024..]
            .iter()
            .map(|(_, n)| {
                assert!(n.len() >= 10 && n.len() <= 22 && alnum(n), "{prog:?}: {n}");
                u64::from_str_radix(&n[n.len() - 10..], 16).unwrap()
            })
            .collect();
        idx.sort_unstable();
        assert_eq!(
            idx,
            (0..1024).collect::<Vec<u64>>(),
            "{prog:?}: random names"
        );
        let mut count = std::collections::BTreeMap::<&str, usize>::new();
        for (dk, _) in &names[..1024] {
            *count.entry(dk).or_default() += 1;
        }
        let mut c: Vec<usize> = count.into_values().collect();
        c.sort_unstable();
        per_dir_counts.push(c);
    }
    assert_eq!(per_dir_counts[0].len(), 3, "{per_dir_counts:?}");
    assert_eq!(per_dir_counts[0], per_dir_counts[1], "files per directory");
    assert_left_nothing(&d.path.join("d"), "left behind");
}
