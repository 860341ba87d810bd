//! `iomark iometer`: an access specification runs on a temporary file with its read share
//! honoured, the named specs are listed, and bad specs are refused naming the field.

use crate::util::*;
use serde_json::Value;

#[test]
fn iometer_spec_runs_with_its_mix_and_leaves_only_the_result() {
    let d = Scratch::new_in("/dev/shm", "iometer");
    let rf = d.s("r.json");
    let o = iomark_in(
        &[
            "iometer",
            "--spec",
            "4k,70,100@100",
            "--outstanding",
            "4",
            "--workers",
            "2",
            "--size",
            "8m",
            "--runtime",
            "500ms",
            "--result",
            &rf,
            "--csv",
            &d.s("r.csv"),
        ],
        &d.path,
    );
    ok(&o);
    assert!(
        stdout(&o).contains("rw=randrw, bs=(R) 4096B-4096B"),
        "{}",
        stdout(&o)
    );
    let v: Value = serde_json::from_slice(&std::fs::read(&rf).unwrap()).unwrap();
    let j = &v["jobs"];
    let (mut r, mut w) = (0.0, 0.0);
    for k in 0..j.as_array().unwrap().len() {
        r += f(&j[k]["dirs"]["read"]["total_ios"]);
        w += f(&j[k]["dirs"]["write"]["total_ios"]);
    }
    assert!(r + w > 10_000.0, "{r} {w}");
    let share = r / (r + w) * 100.0;
    assert!((67.0..73.0).contains(&share), "{share}");
    // The CSV's row agrees with the result.
    let csv = std::fs::read_to_string(d.file("r.csv")).unwrap();
    let rows: Vec<Vec<&str>> = csv.lines().map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 2, "{csv}");
    let col = |name: &str| rows[0].iter().position(|c| *c == name).unwrap();
    assert_eq!(rows[1][col("Read I/Os")], format!("{r}"), "{csv}");
    assert_eq!(rows[1][col("Write I/Os")], format!("{w}"), "{csv}");
    assert_eq!(rows[1][col("# Workers")], "2");
    assert_eq!(rows[1][col("Errors")], "0");
    let iops: f64 = rows[1][col("IOps")].parse().unwrap();
    let mbps: f64 = rows[1][col("MBps (Binary)")].parse().unwrap();
    assert!(
        (iops * 4096.0 / 1048576.0 - mbps).abs() < 0.02 * mbps + 0.01,
        "{csv}"
    );
    // The temporary file is gone; only the result and the CSV are left.
    assert_eq!(std::fs::read_dir(&d.path).unwrap().count(), 2);

    let o = iomark(&["iometer", "--list"]);
    ok(&o);
    assert!(
        stdout(&o).contains("iometer-default  2k,67,100"),
        "{}",
        stdout(&o)
    );
    let o = iomark(&["iometer", "--spec", "4k,70,random"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("% random 'random' is not a whole number"));
    assert!(stderr(&o).contains("file-server"));
    let o = iomark(&["iometer", "--spec", "4k,70,100", "--outstandin", "4"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("unknown option --outstandin"));
}

/// Cycled outstanding I/Os and workers run one point per value, as a sweep.
#[test]
fn iometer_cycles_outstanding_ios_and_workers() {
    let d = Scratch::new_in("/dev/shm", "iometer-cycle");
    let o = iomark_in(
        &[
            "iometer",
            "--spec=database",
            "--outstanding=1..16x4",
            "--workers=1,2",
            "--size=8m",
            "--runtime=100ms",
            "--ioengine=null",
            "--progress",
        ],
        &d.path,
    );
    ok(&o);
    let s = stdout(&o);
    let table: Vec<&str> = s.lines().skip_while(|l| *l != "IOPS by numjobs").collect();
    assert_eq!(table.len(), 5, "{s}");
    assert!(
        table[1].contains("numjobs=1") && table[1].contains("numjobs=2"),
        "{s}"
    );
    assert!(table[4].starts_with("iodepth=16"), "{s}");
    // Its messages and its progress line name the command that was run.
    let e = stderr(&o);
    assert!(e.contains("iomark iometer: 6 points"), "{e}");
    assert!(e.contains("iomark iometer: point "), "{e}");
    assert!(!e.contains("sweep"), "{e}");
    assert_eq!(std::fs::read_dir(&d.path).unwrap().count(), 0);
    // With --csv: one row per step, its workers and outstanding I/Os in the row, the header
    // once, every row as wide as the header, and each row's I/Os those of its step's jobs.
    let (rf, csv) = (d.s("c.json"), d.s("c.csv"));
    let o = iomark_in(
        &[
            "iometer",
            "--spec=database",
            "--outstanding=1,4",
            "--workers=1..2+1",
            "--size=8m",
            "--runtime=100ms",
            "--ioengine=null",
            "--result",
            &rf,
            "--csv",
            &csv,
        ],
        &d.path,
    );
    ok(&o);
    let text = std::fs::read_to_string(&csv).unwrap();
    let rows: Vec<Vec<&str>> = text.lines().map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 1 + 4, "{text}");
    assert_eq!(rows[0][0], "Target Type");
    assert!(rows[1..].iter().all(|r| r.len() == rows[0].len()), "{text}");
    let col = |name: &str| rows[0].iter().position(|c| *c == name).unwrap();
    let steps: Vec<(&str, &str)> = rows[1..]
        .iter()
        .map(|r| (r[col("Outstanding I/Os")], r[col("# Workers")]))
        .collect();
    assert_eq!(
        steps,
        [("1", "1"), ("1", "2"), ("4", "1"), ("4", "2")],
        "{text}"
    );
    let v: Value = serde_json::from_slice(&std::fs::read(&rf).unwrap()).unwrap();
    for (i, r) in rows[1..].iter().enumerate() {
        assert_eq!(r[col("Access Specification Name")], "database");
        let ios: f64 = v["jobs"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|j| u(&j["job_index"]) == i as u64)
            .map(|j| f(&j["dirs"]["read"]["total_ios"]))
            .sum();
        assert!(ios > 0.0);
        assert_eq!(r[col("Read I/Os")], format!("{ios}"), "step {i}: {text}");
    }
    std::fs::remove_file(&rf).unwrap();
    std::fs::remove_file(&csv).unwrap();
}

/// I/Os per size and direction in one direction's figures: (4 KiB, 64 KiB) solved from the
/// count and the bytes.
fn split_4k_64k(dir: &Value) -> (f64, f64) {
    let (n, b) = (f(&dir["total_ios"]), f(&dir["io_bytes"]));
    let big = (b - 4096.0 * n) / (65536.0 - 4096.0);
    (n - big, big)
}

/// Lines that differ in % read: over many I/Os each line's share of the I/Os and its own
/// % read hold within a few percent; a spec file in TOML runs the same spec under its name;
/// the CSV carries Iometer's latency buckets, which add up to the I/Os.
#[test]
fn iometer_lines_keep_their_weights_and_read_shares() {
    let d = Scratch::new_in("/dev/shm", "iometer-mix");
    let spec = d.file("mix.toml");
    std::fs::write(
        &spec,
        "name = \"mix\"\n\
         [[line]]\nsize = \"4k\"\nread = 80\nrandom = 100\nweight = 60\n\
         [[line]]\nsize = \"64k\"\nread = 20\nrandom = 100\nweight = 40\n",
    )
    .unwrap();
    let (rf, csv) = (d.s("r.json"), d.s("r.csv"));
    let o = iomark_in(
        &[
            "iometer",
            "--spec-file",
            &spec.display().to_string(),
            "--outstanding=4",
            "--size=8m",
            "--runtime=500ms",
            "--ioengine=null",
            "--result",
            &rf,
            "--csv",
            &csv,
        ],
        &d.path,
    );
    ok(&o);
    let v: Value = serde_json::from_slice(&std::fs::read(&rf).unwrap()).unwrap();
    let j = &v["jobs"][0]["dirs"];
    let (r4, r64) = split_4k_64k(&j["read"]);
    let (w4, w64) = split_4k_64k(&j["write"]);
    let all = r4 + r64 + w4 + w64;
    assert!(all > 10_000.0, "{all} I/Os");
    let pct = |a: f64, b: f64| a / b * 100.0;
    let near = |got: f64, want: f64| (got - want).abs() < 2.0;
    assert!(
        near(pct(r4 + w4, all), 60.0),
        "4k line: {}",
        pct(r4 + w4, all)
    );
    assert!(
        near(pct(r4, r4 + w4), 80.0),
        "4k read: {}",
        pct(r4, r4 + w4)
    );
    assert!(
        near(pct(r64, r64 + w64), 20.0),
        "64k read: {}",
        pct(r64, r64 + w64)
    );
    let text = std::fs::read_to_string(&csv).unwrap();
    let rows: Vec<Vec<&str>> = text.lines().map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 2, "{text}");
    assert_eq!(rows[0].len(), rows[1].len());
    let col = |name: &str| rows[0].iter().position(|c| *c == name).unwrap();
    assert_eq!(rows[1][col("Access Specification Name")], "mix");
    let first = col("0 to 50 uS");
    assert_eq!(rows[0][first..].len(), 21, "{}", rows[0].join(","));
    assert_eq!(rows[0].last(), Some(&" >= 10 s"));
    let buckets: f64 = rows[1][first..]
        .iter()
        .map(|c| c.parse::<f64>().unwrap())
        .sum();
    assert_eq!(buckets, all, "{text}");
    // An unknown key in the file is named, nothing runs.
    std::fs::write(
        &spec,
        "[[line]]\nsize = \"4k\"\nread = 80\nrandom = 100\nwieght = 60\n",
    )
    .unwrap();
    let o = iomark_in(
        &["iometer", "--spec-file", &spec.display().to_string()],
        &d.path,
    );
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(
        e.contains("unknown field `wieght`") && e.contains("mix.toml"),
        "{e}"
    );
    // A bad line names its field.
    let o = iomark_in(&["iometer", "--spec", "4k,100,100 64k,100,0,4x"], &d.path);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("alignment '4x'"), "{}", stderr(&o));
    std::fs::remove_file(&spec).unwrap();
    assert_eq!(
        std::fs::read_dir(&d.path).unwrap().count(),
        2,
        "the result and the CSV"
    );
}

/// Per line of an iolog: I/Os, reads, sequential continuations (the offset is where the
/// previous I/O ended, rounded up to the line's alignment) and I/Os off the line's alignment.
#[derive(Debug, Default)]
struct LineCount {
    ios: f64,
    reads: f64,
    seq: f64,
    misaligned: f64,
    /// I/Os at a multiple of 64 KiB.
    at_64k: f64,
}

/// Runs `spec` (lines told apart by their sizes `sizes`, aligned on `aligns`) on tmpfs with
/// an iolog and counts each line's I/Os.
fn run_lines(tag: &str, spec: &str, sizes: [u64; 2], aligns: [u64; 2]) -> [LineCount; 2] {
    let d = Scratch::new_in("/dev/shm", tag);
    let log = d.s("io.log");
    let o = iomark_in(
        &[
            "iometer",
            "--spec",
            spec,
            "--outstanding=4",
            "--size=64m",
            "--runtime=2s",
            "--write-iolog",
            &log,
        ],
        &d.path,
    );
    ok(&o);
    let text = std::fs::read_to_string(&log).unwrap();
    let mut c: [LineCount; 2] = Default::default();
    let mut end = 0u64;
    for l in text.lines() {
        let w: Vec<&str> = l.split_whitespace().collect();
        if w.len() != 5 || !(w[2] == "read" || w[2] == "write") {
            continue;
        }
        let (off, len): (u64, u64) = (w[3].parse().unwrap(), w[4].parse().unwrap());
        let i = sizes.iter().position(|&s| s == len).expect("a line's size");
        let a = aligns[i];
        let x = &mut c[i];
        x.ios += 1.0;
        x.reads += f64::from(u8::from(w[2] == "read"));
        x.seq += f64::from(u8::from(off == end.div_ceil(a) * a));
        x.misaligned += f64::from(u8::from(off % a != 0));
        x.at_64k += f64::from(u8::from(off % 65536 == 0));
        end = off + len;
    }
    std::fs::remove_file(&log).unwrap();
    assert_eq!(std::fs::read_dir(&d.path).unwrap().count(), 0);
    eprintln!("{spec}: {c:?}");
    c
}

/// Lines that both read but differ in % random, and lines that differ in alignment: over
/// more than 10,000 I/Os each line keeps its share, its % read, its % random (random I/Os do
/// not continue the previous one; sequential ones do) and its alignment.
#[test]
fn iometer_lines_differ_in_random_and_alignment() {
    let near = |got: f64, want: f64, what: &str| {
        assert!(
            (got - want).abs() < 3.0,
            "{what}: {got:.2} % (want {want} %)"
        );
    };
    let c = run_lines(
        "iometer-random",
        "4k,100,100@50 64k,100,0@50",
        [4096, 65536],
        [4096, 4096],
    );
    let all = c[0].ios + c[1].ios;
    assert!(all > 10_000.0, "{all} I/Os");
    near(c[0].ios / all * 100.0, 50.0, "4k line's share");
    assert_eq!(c[0].reads + c[1].reads, all);
    near(c[0].seq / c[0].ios * 100.0, 0.0, "4k line sequential");
    near(c[1].seq / c[1].ios * 100.0, 100.0, "64k line sequential");
    assert_eq!(c[0].misaligned + c[1].misaligned, 0.0);

    let c = run_lines(
        "iometer-align",
        "4k,50,100,4k@70 16k,50,60,64k@30",
        [4096, 16384],
        [4096, 65536],
    );
    let all = c[0].ios + c[1].ios;
    assert!(all > 10_000.0, "{all} I/Os");
    near(c[0].ios / all * 100.0, 70.0, "4k line's share");
    near(c[0].reads / c[0].ios * 100.0, 50.0, "4k line's reads");
    near(c[1].reads / c[1].ios * 100.0, 50.0, "16k line's reads");
    near(c[0].seq / c[0].ios * 100.0, 0.0, "4k line sequential");
    near(c[1].seq / c[1].ios * 100.0, 40.0, "16k line sequential");
    assert_eq!(c[0].misaligned + c[1].misaligned, 0.0);
    // The 4 KiB line is not held to the other line's 64 KiB alignment.
    near(
        c[0].at_64k / c[0].ios * 100.0,
        100.0 / 16.0,
        "4k line at 64k multiples",
    );
}
