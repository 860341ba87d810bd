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
