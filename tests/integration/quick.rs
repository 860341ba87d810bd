//! `iomark quick`: the embedded default benchmark.

use crate::util::*;

#[test]
fn quick_json_on_a_directory_cleans_up() {
    let d = Scratch::new("quick");
    let p = d.path.display().to_string();
    let o = iomark(&[
        "quick",
        &p,
        "--size=32m",
        "--runtime=300ms",
        "--ramp=0",
        "--json",
    ]);
    let v = json(&o);
    let tests = v["tests"].as_array().unwrap();
    assert_eq!(tests.len(), 8);
    let labels: Vec<String> = tests
        .iter()
        .map(|t| {
            format!(
                "{} {}",
                t["test"].as_str().unwrap(),
                t["direction"].as_str().unwrap()
            )
        })
        .collect();
    assert_eq!(labels[0], "SEQ1M Q8T1 read");
    assert_eq!(labels[1], "SEQ1M Q8T1 write");
    assert_eq!(labels[7], "RND4K Q1T1 write");
    for t in tests {
        assert!(f(&t["iops"]) > 0.0, "{t}");
        assert!(f(&t["MB_per_s"]) > 0.0);
        assert!(f(&t["p99_lat_us"]) >= f(&t["mean_lat_us"]) * 0.0);
    }
    assert_eq!(
        std::fs::read_dir(&d.path).unwrap().count(),
        0,
        "temporary file left behind"
    );
}

#[test]
fn quick_table_in_current_directory() {
    let d = Scratch::new_in("/dev/shm", "quickcwd");
    let o = iomark_in(
        &["quick", "--size=16m", "--runtime=200ms", "--ramp=0"],
        &d.path,
    );
    ok(&o);
    let s = stdout(&o);
    assert!(
        s.contains("MB/s") && s.contains("MiB/s") && s.contains("IOPS"),
        "{s}"
    );
    assert!(s.contains("RND4K Q32T1"));
    assert_eq!(std::fs::read_dir(&d.path).unwrap().count(), 0);
}

#[test]
fn quick_never_writes_an_existing_file_without_allow_write() {
    let d = Scratch::new("quickexisting");
    let path = d.file("data");
    let content: Vec<u8> = (0..(8u32 << 20)).map(|i| (i * 7 + 3) as u8).collect();
    std::fs::write(&path, &content).unwrap();
    let p = path.display().to_string();
    let o = iomark(&["quick", &p, "--runtime=200ms", "--ramp=0", "--json"]);
    let v = json(&o);
    let tests = v["tests"].as_array().unwrap();
    assert_eq!(tests.len(), 4, "read tests only");
    assert!(tests.iter().all(|t| t["direction"] == "read"));
    assert_eq!(
        std::fs::read(&path).unwrap(),
        content,
        "the file was modified"
    );
}

#[test]
fn quick_with_a_sync_engine_labels_what_runs() {
    let d = Scratch::new("quick-psync");
    let p = d.path.display().to_string();
    let o = iomark(&[
        "quick",
        &p,
        "--size=16m",
        "--runtime=200ms",
        "--ramp=0",
        "--ioengine=psync",
        "--json",
    ]);
    let v = json(&o);
    let tests = v["tests"].as_array().unwrap();
    let labels: Vec<&str> = tests.iter().map(|t| t["test"].as_str().unwrap()).collect();
    // psync keeps one I/O in flight: no row may claim Q8 or Q32.
    assert_eq!(
        labels,
        ["SEQ1M Q1T1", "SEQ1M Q1T1", "RND4K Q1T1", "RND4K Q1T1"]
    );
    let e = stderr(&o);
    assert!(
        e.contains("psync is synchronous (one I/O at a time)"),
        "the reason is given: {e}"
    );
    for t in tests {
        assert!(f(&t["iops"]) > 0.0, "{t}");
    }
}

#[test]
fn a_character_device_is_read_over_the_size_given() {
    // /dev/zero has no size of its own: the tests cover --size of it, as fio's size= does.
    let o = iomark(&[
        "quick",
        "/dev/zero",
        "--size",
        "4m",
        "--runtime",
        "1",
        "--ramp",
        "0",
        "--json",
    ]);
    let e = stderr(&o);
    assert!(o.status.success(), "{e}");
    assert!(!e.contains("no size given"), "{e}");
    let v = json(&o);
    let text = v.to_string();
    assert!(text.contains("RND4K"), "{text}");
}

/// quick's result file and its `--json` output are both inputs of `compare`, `report` and
/// `export`: two runs compared test by test, the grid drawn as an image and laid out as a
/// sheet; a result file that would replace the target is refused before any I/O.
#[test]
fn quick_results_are_kept_compared_and_reported() {
    let d = Scratch::new("quick-keep");
    let dir = d.file("t");
    std::fs::create_dir(&dir).unwrap();
    let t = dir.display().to_string();
    let small = ["--size=16m", "--runtime=300ms", "--ramp=0"];
    let a = d.s("a.json");
    ok(&iomark(
        &[&["quick", &t][..], &small, &["--result-file", &a]].concat(),
    ));
    let o = iomark(&[&["quick", &t][..], &small, &["--json"]].concat());
    let b = d.s("b.json");
    std::fs::write(&b, &o.stdout).unwrap();
    json(&o);
    // The result file is iomark's own (histograms and all), quick's JSON the short form.
    let kept: serde_json::Value = serde_json::from_slice(&std::fs::read(&a).unwrap()).unwrap();
    assert!(kept["format"]
        .as_str()
        .unwrap()
        .starts_with("iomark-result/"));
    let o = iomark_in(&["compare", &a, &b], &d.path);
    ok(&o);
    let text = stdout(&o);
    for test in ["SEQ1M-Q8T1", "SEQ1M-Q1T1", "RND4K-Q32T1", "RND4K-Q1T1"] {
        for dir in ["read", "write"] {
            let job = format!("{test}-{dir}");
            let line = text
                .lines()
                .find(|l| l.contains(&job) && l.contains('%'))
                .unwrap_or_else(|| panic!("no change of {job} in\n{text}"));
            assert!(line.contains("IOPS") || line.contains('%'), "{line}");
        }
    }
    let png = d.file("png");
    let html = d.file("q.html");
    ok(&iomark_in(
        &[
            "report",
            &b,
            "-o",
            &html.display().to_string(),
            "--png",
            &png.display().to_string(),
        ],
        &d.path,
    ));
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("<th class=l>RND4K Q32T1</th>"), "no grid");
    // The system table, from the host quick's JSON records.
    for fact in ["host", "kernel", "CPUs", "memory", "target"] {
        assert!(
            page.contains(&format!("<th class=l>{fact}</th>")),
            "no {fact}"
        );
    }
    let grid = png.join("quick-grid-b.png");
    let img = std::fs::read(&grid).unwrap_or_else(|e| panic!("{}: {e}", grid.display()));
    assert!(img.starts_with(b"\x89PNG") && img.len() > 5000);
    let xlsx = d.file("q.xlsx");
    ok(&iomark_in(
        &["export", &a, "--xlsx", &xlsx.display().to_string()],
        &d.path,
    ));
    use calamine::{open_workbook, Reader, Xlsx};
    let mut wb: Xlsx<_> = open_workbook(&xlsx).unwrap();
    let sheet = wb.worksheet_range("a quick").unwrap();
    assert_eq!(sheet.get_value((0, 1)).unwrap().to_string(), "Read (MB/s)");
    assert_eq!(sheet.get_value((0, 4)).unwrap().to_string(), "Write (IOPS)");
    assert_eq!(sheet.get_value((1, 0)).unwrap().to_string(), "SEQ1M Q8T1");
    assert!(
        sheet
            .get_value((4, 3))
            .unwrap()
            .to_string()
            .parse::<f64>()
            .unwrap()
            > 0.0
    );
    // Anything else is refused with a word on what is read.
    let other = d.file("other.json");
    std::fs::write(&other, "{\"tests\": 1}").unwrap();
    let o = iomark_in(&["report", &other.display().to_string()], &d.path);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("iomark quick's JSON"), "{}", stderr(&o));
    // A result file over the target directory: refused, nothing run, nothing created.
    let o = iomark(&[&["quick", &t][..], &small, &["--result-file", &t]].concat());
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
}
