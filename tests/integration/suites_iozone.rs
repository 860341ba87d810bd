//! `iomark iozone`: the seed line runs (shrunk by appended flags) with its text, -R report and
//! .xls workbook (read back by LibreOffice), and an XLSX one (by calamine); the -a matrix shape and -z; every test on
//! tmpfs and ext4 with its bytes and system calls (and strace for the shapes of a few);
//! throughput mode with and without the stonewall; refusals; Ctrl-C mid-matrix.

use crate::util::{bin, soffice_convert, stderr, stdout, BoundedOutput, Scratch};
use iomark_suites::iozone::excel;
use serde_json::Value;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

pub(crate) fn iozone(args: &[&str], cwd: &std::path::Path) -> Output {
    Command::new(bin())
        .arg("iozone")
        .args(args)
        .current_dir(cwd)
        .bounded_output()
        .unwrap()
}

pub(crate) fn json_of(o: &Output) -> Value {
    assert!(o.status.success(), "{}", stderr(o));
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", stdout(o)))
}

fn cells(v: &Value) -> &Vec<Value> {
    v["iozone"]["cells"].as_array().unwrap()
}

#[test]
fn iozone_seed_line_text_report_and_workbook() {
    let d = Scratch::new_in("/dev/shm", "iozone-seed");
    // The seed line; appended flags shrink it (later flags win, as in iozone).
    let seed = "-i 0 -i 1 -Rab test-iozone.xls -g 4g -n 1M -C";
    let mut args: Vec<&str> = seed.split_whitespace().collect();
    args.extend(["-g", "2m", "-n", "64k"]);
    let t = Instant::now();
    let o = iozone(&args, &d.path);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(t.elapsed() < Duration::from_secs(60));
    let out = stdout(&o);
    assert!(out.contains("\tCommand line used: iozone -i 0 -i 1 -Rab test-iozone.xls"));
    assert!(out.contains("\tOutput is in kBytes/sec\n"));
    assert!(out.contains("\niozone test complete.\n"));
    // Text rows: 64k..2m files, each with its records from 4k up to the file size.
    let rows: Vec<Vec<u64>> = out
        .lines()
        .take_while(|l| !l.contains("iozone test complete"))
        .filter_map(|l| l.split_whitespace().map(|w| w.parse().ok()).collect())
        .filter(|v: &Vec<u64>| v.len() == 6)
        .collect();
    assert_eq!(rows.len(), 5 + 6 + 7 + 8 + 9 + 10, "{out}");
    assert!(rows.iter().all(|r| r[2..].iter().all(|&x| x > 0)), "{out}");
    // The -R report parses back into the same matrix.
    let blocks = excel::parse(&out);
    let titles: Vec<&str> = blocks.iter().map(|b| b.title.as_str()).collect();
    assert_eq!(
        titles,
        [
            "Writer report",
            "Re-writer report",
            "Reader report",
            "Re-Reader report"
        ]
    );
    for (col, b) in blocks.iter().enumerate() {
        assert_eq!(b.records_kb[0], 4);
        assert_eq!(b.rows.len(), 6);
        for r in &rows {
            let (file, rec) = (r[0], r[1]);
            let row = &b.rows.iter().find(|x| x.0 == file).unwrap().1;
            let i = b.records_kb.iter().position(|&x| x == rec).unwrap();
            assert_eq!(row[i], Some(r[2 + col]), "{} {file} {rec}", b.title);
        }
    }
    // The workbook: iozone's BIFF sheet for the .xls name, which LibreOffice reads: the
    // command line, then each report's block (title, record sizes, a row per file size).
    let book = d.file("test-iozone.xls");
    assert_eq!(
        &std::fs::read(&book).unwrap()[..4],
        &[0x09, 0, 4, 0],
        "a BIFF2 BOF"
    );
    let lo = Scratch::new("iozone-soffice");
    let o = soffice_convert(&book, &lo.path, "csv");
    assert!(o.status.success(), "{}", stderr(&o));
    let csv = std::fs::read_to_string(lo.file("test-iozone.csv")).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert!(
        lines[0].starts_with("iozone -i 0 -i 1 -Rab test-iozone.xls"),
        "{csv}"
    );
    assert!(lines[2].contains("The top row is records sizes"), "{csv}");
    assert!(lines[3].starts_with("Writer Report"), "{csv}");
    assert!(lines[4].starts_with(",4,8,16"), "{csv}");
    let first_row = format!("64,{},", blocks[0].rows[0].1[0].unwrap());
    assert!(lines[5].starts_with(&first_row), "{csv}");
    let reread = lines.iter().position(|l| l.starts_with("Re-reader Report"));
    assert_eq!(reread, Some(3 + 3 * 8), "{csv}");
    // Any other name: an XLSX workbook with a sheet and a native chart per test, which
    // calamine reads back.
    let o = iozone(
        &["-i", "0", "-s", "64k", "-r", "4k", "-b", "m.xlsx"],
        &d.path,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let book = d.file("m.xlsx");
    use calamine::{open_workbook, Reader, Xlsx};
    let mut wb: Xlsx<_> = open_workbook(&book).unwrap();
    assert_eq!(
        wb.sheet_names(),
        ["iozone", "Writer report", "Re-writer report"]
    );
    let w = wb.worksheet_range("Writer report").unwrap();
    assert_eq!(w.get_value((1, 1)).unwrap().to_string(), "4");
    assert_eq!(w.get_value((2, 0)).unwrap().to_string(), "64");
    let raw = std::fs::read(&book).unwrap();
    for i in 1..=2 {
        let part = format!("xl/charts/chart{i}.xml");
        assert!(
            raw.windows(part.len()).any(|x| x == part.as_bytes()),
            "{part}"
        );
    }
    std::fs::remove_file(&book).unwrap();
    // Only the workbook is left behind: the test file is removed.
    let left: Vec<_> = std::fs::read_dir(&d.path).unwrap().collect();
    assert_eq!(left.len(), 1);
}

#[test]
fn iozone_matrix_skip_rule_and_z() {
    let d = Scratch::new_in("/dev/shm", "iozone-shape");
    let f = d.s("f");
    let run = |extra: &[&str]| {
        let mut a = vec![
            "-a", "-n", "16m", "-g", "32m", "-i", "0", "-+n", "-f", &f, "--json",
        ];
        a.extend(extra);
        json_of(&iozone(&a, &d.path))
    };
    let count = |v: &Value, kb: u64| {
        cells(v)
            .iter()
            .filter(|c| c["file_kb"].as_u64() == Some(kb))
            .count()
    };
    let v = run(&[]);
    // 16m: 4k..16m (13 records); 32m: above the crossover, 64k..16m (9).
    assert_eq!((count(&v, 16384), count(&v, 32768)), (13, 9));
    let html = d.s("r.html");
    let v = run(&["-z", "--report", &html]);
    assert_eq!((count(&v, 16384), count(&v, 32768)), (13, 13));
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(
        page.contains("iozone write 32768k/64k"),
        "the report lists the passes"
    );
    // Only the measured column is there, with its latency and figures.
    let c = &cells(&v)[0]["figures"];
    assert!(c.get("rewrite").is_none(), "-+n: {c}");
    let w = &c["write"];
    assert_eq!(w["bytes"].as_u64(), Some(16 << 20));
    assert!(w["latency"]["p99_ns"].as_u64().unwrap() > 0);
    assert!(w["latency"]["max_ns"].as_u64() >= w["latency"]["p50_ns"].as_u64());
    // The result holds one job per pass for the report and compare, which read it.
    assert_eq!(v["jobs"].as_array().unwrap().len(), 26);
    assert_eq!(v["format"], "iomark-result/1");
    let r = d.file("r.json");
    std::fs::write(&r, v.to_string()).unwrap();
    let o = Command::new(bin())
        .args(["export", &r.display().to_string(), "--markdown"])
        .bounded_output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("iozone write 16384k/4k"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn iozone_every_test_on_tmpfs_and_ext4() {
    for base in ["/dev/shm", "/tmp"] {
        let d = Scratch::new_in(base, "iozone-all");
        let f = d.s("f");
        let mut a = vec![
            "-s", "1m", "-r", "64k", "-E", "-e", "-c", "-f", &f, "--json",
        ];
        for t in [
            "0", "1", "2", "3", "4", "5", "6", "7", "9", "10", "11", "12",
        ] {
            a.extend(["-i", t]);
        }
        let v = json_of(&iozone(&a, &d.path));
        let fig = &cells(&v)[0]["figures"];
        assert_eq!(fig.as_object().unwrap().len(), 21, "{base}: {fig}");
        for (k, x) in fig.as_object().unwrap() {
            assert_eq!(x["bytes"].as_u64(), Some(1 << 20), "{base} {k}");
            assert!(x["value"].as_u64().unwrap() > 0, "{base} {k}");
        }
        let calls = |k: &str, what: &str| fig[k]["calls"][what].as_u64().unwrap();
        // 16 records of 64k: one call each, no seeks when in order; -e adds one fsync.
        for k in ["write", "rewrite", "read", "reread", "pwrite", "pread"] {
            assert_eq!(
                calls(
                    k,
                    if k.contains("write") {
                        "writes"
                    } else {
                        "reads"
                    }
                ),
                16
            );
            assert_eq!(calls(k, "seeks"), 0, "{k}");
            assert_eq!(calls(k, "syncs"), 1, "{k}");
        }
        assert_eq!(calls("backward_read", "seeks"), 16);
        assert_eq!(calls("record_rewrite", "seeks"), 15);
        assert_eq!(calls("record_rewrite", "writes"), 16);
        // fread/fwrite: a stream buffer of one record (iozone's setvbuf): one call per record.
        assert_eq!(calls("fread", "reads"), 16);
        assert_eq!(calls("fwrite", "writes"), 16);
        // pwritev/preadv: 16 records per call.
        assert_eq!(calls("pwritev", "writes"), 1);
        assert_eq!(calls("preadv", "reads"), 1);
        assert!(!d.file("f").exists(), "the file is removed without -w");
    }
}

#[test]
fn iozone_direct_io_on_ext4_every_call_kind() {
    let d = Scratch::new("iozone-direct");
    let f = d.s("f");
    let trace = d.file("trace");
    let o = Command::new("strace")
        .args(["-f", "-e", "trace=openat", "-o"])
        .arg(&trace)
        .arg(bin())
        .args([
            "iozone", "-I", "-s", "1m", "-r", "64k", "-E", "--json", "-f", &f,
        ])
        .args(["-i", "0", "-i", "1", "-i", "6", "-i", "7", "-i", "12"])
        .current_dir(&d.path)
        .bounded_output()
        .expect("strace must be installed (scripts/test installs it)");
    let v = json_of(&o);
    let fig = &cells(&v)[0]["figures"];
    assert_eq!(fig.as_object().unwrap().len(), 10, "{fig}");
    let t = std::fs::read_to_string(&trace).unwrap();
    let opens: Vec<&str> = t.lines().filter(|l| l.contains(&f)).collect();
    assert_eq!(opens.len(), 10, "{t}");
    assert!(opens.iter().all(|l| l.contains("O_DIRECT")), "{t}");
}

#[test]
fn iozone_syscall_shapes_under_strace() {
    let d = Scratch::new_in("/dev/shm", "iozone-strace");
    let trace = d.file("trace");
    let o = Command::new("strace")
        .args(["-f", "-e", "trace=lseek,write", "-o"])
        .arg(&trace)
        .arg(bin())
        .args([
            "iozone", "-s", "256k", "-r", "4k", "-i", "0", "-i", "3", "-i", "4", "-+n",
        ])
        .args(["-f", &d.s("f")])
        .current_dir(&d.path)
        .bounded_output()
        .expect("strace must be installed (scripts/test installs it)");
    assert!(o.status.success(), "{}", stderr(&o));
    let t = std::fs::read_to_string(&trace).unwrap();
    let seeks: Vec<u64> = t
        .lines()
        .filter_map(|l| l.split("lseek(").nth(1))
        .filter_map(|a| a.split(", ").nth(1)?.parse().ok())
        .collect();
    // Backwards read: 64 seeks at decreasing offsets from the last record down to 0.
    let back: Vec<u64> = (0..64).rev().map(|r| r * 4096).collect();
    assert!(seeks.windows(64).any(|w| w == back.as_slice()), "{seeks:?}");
    // Record rewrite: the same offset, over and over (63 seeks back to 0, and the backwards
    // read's last one).
    assert!(seeks.iter().filter(|&&s| s == 0).count() == 64, "{seeks:?}");
    let writes = t
        .lines()
        .filter(|l| l.contains("write(") && l.contains(", 4096) = 4096"))
        .count();
    assert_eq!(writes, 64 + 64, "{t}");
}

#[test]
fn iozone_throughput_mode_stonewall() {
    let d = Scratch::new_in("/dev/shm", "iozone-tp");
    let files: Vec<String> = (0..4).map(|i| d.s(&format!("c{i}"))).collect();
    let run = |extra: &[&str]| {
        let mut a = vec![
            "-t", "4", "-s", "8m", "-r", "64k", "-i", "0", "-i", "1", "-C", "-F",
        ];
        a.extend(files.iter().map(String::as_str));
        a.extend(extra);
        iozone(&a, &d.path)
    };
    let book = d.s("tp.xlsx");
    let o = run(&["-R", "-b", &book]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    // The workbook: the first sheet, then the throughput table with its chart.
    use calamine::{open_workbook, Reader, Xlsx};
    let mut wb: Xlsx<_> = open_workbook(&book).unwrap();
    assert_eq!(wb.sheet_names(), ["iozone", "Throughput report"]);
    let t = wb.worksheet_range("Throughput report").unwrap();
    assert_eq!(t.get_value((1, 1)).unwrap().to_string(), "4");
    assert_eq!(t.get_value((2, 0)).unwrap().to_string(), "Initial write");
    assert_eq!(t.get_value((5, 0)).unwrap().to_string(), "Re-read");
    let raw = std::fs::read(&book).unwrap();
    assert!(raw.windows(20).any(|x| x == b"xl/charts/chart1.xml"));
    std::fs::remove_file(&book).unwrap();
    for label in ["initial writers", "rewriters", "readers", "re-readers"] {
        let head = format!("\tChildren see throughput for  4 {label} \t= ");
        assert!(out.contains(&head), "{label}: {out}");
    }
    assert_eq!(out.matches("\tMin xfer \t\t\t\t\t= ").count(), 4, "{out}");
    assert_eq!(out.matches("\tChild[3] xfer count = ").count(), 4, "{out}");
    assert!(out.contains("\"  Initial write \""), "{out}");
    let v = json_of(&run(&["--json"]));
    let tp = v["iozone"]["throughput"].as_array().unwrap();
    assert_eq!(tp.len(), 4);
    for f in tp {
        assert!(f["min_xfer"].as_f64().unwrap() <= 8192.0);
        assert!(f["start_spread_ns"].as_u64().unwrap() < 500_000_000, "{f}");
        // A cut child counts less than its file; one that was not cut counts all of it.
        for (c, cut) in f["per_child"]
            .as_array()
            .unwrap()
            .iter()
            .zip(f["cut"].as_array().unwrap())
        {
            let b = c["bytes"].as_u64().unwrap();
            assert!(
                if cut.as_bool().unwrap() {
                    b < 8 << 20
                } else {
                    b == 8 << 20
                },
                "{f}"
            );
        }
    }
    // -x: no stonewall, every child moves its whole file; Min xfer shows it.
    let o = run(&["-x"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("\tStonewall disabled\n"), "{out}");
    assert_eq!(
        out.matches("\tMin xfer \t\t\t\t\t=    8192.00 kB\n")
            .count(),
        4,
        "{out}"
    );
    for f in &files {
        assert!(!std::path::Path::new(f).exists(), "{f} removed without -w");
    }
}

#[test]
fn iozone_refusals_before_any_io() {
    let d = Scratch::new_in("/dev/shm", "iozone-refuse");
    let f = d.s("f");
    let o = iozone(&["-a", "-g", "4096g", "-f", &f], &d.path);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("the largest -g that fits is -g "),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read_dir(&d.path).unwrap().count(), 0);
    // A device is never removed and re-created as a file.
    let o = iozone(&["-s", "64k", "-f", "/dev/null"], &d.path);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("/dev/null is not a regular file"),
        "{}",
        stderr(&o)
    );
    assert!(std::path::Path::new("/dev/null").exists());
    for (args, want) in [
        (
            vec!["-a", "-k", "4"],
            "-k (POSIX async I/O (no bcopy) with this many operations) is not supported: ",
        ),
        (vec!["-+V"], "one shared file"),
        (vec!["-+j"], "unknown flag '-+j'"),
        (vec!["-s"], "-s (file size"),
        (vec!["-s", "12q"], "bad value '12q' for -s"),
    ] {
        let o = iozone(&args, &d.path);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains(want), "{args:?}: {}", stderr(&o));
    }
    let o = iozone(&["--help"], &d.path);
    assert!(stdout(&o).contains("-+n") && stdout(&o).contains("prints 0 in the matrix"));
}

/// `-M` shows `uname -a`'s whole line, as iozone does, in its place among the option lines.
#[test]
fn iozone_m_shows_uname_a() {
    let d = Scratch::new_in("/dev/shm", "iozone-m");
    let f = d.s("f");
    let un = Command::new("uname").arg("-a").output().unwrap();
    let line = String::from_utf8(un.stdout).unwrap();
    let line = line.lines().next().unwrap().trim_end().to_string();
    let o = iozone(
        &["-M", "-s", "64k", "-r", "4k", "-i", "0", "-f", &f],
        &d.path,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let want = format!("\n\tMachine = {line}\n");
    assert!(stdout(&o).contains(&want), "{want:?} not in {}", stdout(&o));
}

#[test]
fn iozone_ctrl_c_mid_matrix() {
    let d = Scratch::new_in("/dev/shm", "iozone-int");
    let f = d.s("f");
    let child = Command::new(bin())
        .args([
            "iozone", "-a", "-n", "64k", "-g", "256m", "-z", "-i", "0", "-i", "1", "-R",
        ])
        .args(["-f", &f])
        .current_dir(&d.path)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(700));
    // SAFETY: signalling a child this test started.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(130), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("iozone: interrupted after"), "{out}");
    assert!(out.contains("\"Writer report\""), "partial tables: {out}");
    assert!(!d.file("f").exists(), "the file is removed");
}

#[test]
fn iozone_refuses_missing_devices_and_outputs_over_its_files() {
    let d = Scratch::new_in("/dev/shm", "iozone-paths");
    // A test file under /dev that does not exist is an unmapped device, never a new file.
    let o = iozone(
        &[
            "-i",
            "0",
            "-s",
            "64k",
            "-r",
            "4k",
            "-f",
            "/dev/iomark-no-such-disk",
        ],
        &d.path,
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("no such device"), "{}", stderr(&o));
    assert!(!std::path::Path::new("/dev/iomark-no-such-disk").exists());
    // The result file cannot be the test file itself, nor a directory.
    let f = d.path.join("t.tmp");
    let fs = f.to_str().unwrap();
    for out in [fs, d.path.to_str().unwrap()] {
        let o = iozone(
            &[
                "-i", "0", "-s", "64k", "-r", "4k", "-f", fs, "--result", out,
            ],
            &d.path,
        );
        assert_eq!(o.status.code(), Some(2), "{out}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("refusing to write output"),
            "{}",
            stderr(&o)
        );
    }
    assert!(!f.exists(), "nothing was written before the refusal");
}
