//! The result store: runs land in it, store references read like files, concurrent writers
//! lose nothing, a store that cannot take a run never costs the run's outputs, fio JSON joins
//! the history. Every test names its own store (`IOMARK_STORE`).

use crate::util::*;
use serde_json::Value;
use std::ffi::OsStr;
use std::path::Path;
use std::process::{Command, Output};

/// iomark in `cwd` with the store at `store` (a file or a PostgreSQL URL).
pub fn with_store<S: AsRef<OsStr>>(store: impl AsRef<OsStr>, args: &[S], cwd: &Path) -> Output {
    Command::new(bin())
        .args(args)
        .current_dir(cwd)
        .env("IOMARK_STORE", store.as_ref())
        .bounded_output()
        .expect("run iomark")
}

pub fn ok(o: &Output) -> String {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn history(store: impl AsRef<OsStr>, cwd: &Path) -> Vec<Value> {
    let v: Value =
        serde_json::from_str(&ok(&with_store(store, &["history", "--json"], cwd))).unwrap();
    v.as_array().unwrap().clone()
}

/// A short fio-style run of `file` with its result file `result`.
pub fn run_args(file: &str, result: &str) -> Vec<String> {
    [
        "run",
        "--name=r",
        "--rw=randread",
        "--bs=4k",
        "--size=4m",
        &format!("--filename={file}"),
        "--output-format=json",
        &format!("--result={result}"),
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

/// `a` followed by `b`.
pub fn cat(a: &[String], b: &[&str]) -> Vec<String> {
    a.iter()
        .cloned()
        .chain(b.iter().map(|s| s.to_string()))
        .collect()
}

pub fn own(a: &[&str]) -> Vec<String> {
    cat(&[], a)
}

#[test]
fn quick_twice_then_compare_last_equals_the_files() {
    let d = Scratch::new("store-quick");
    let store = d.file("s/results.db");
    let q = [
        "quick",
        &d.s(""),
        "--size=16m",
        "--runtime=200ms",
        "--ramp=0",
        "--json",
    ];
    ok(&with_store(&store, &q, &d.path));
    ok(&with_store(&store, &q, &d.path));
    let h = history(&store, &d.path);
    assert_eq!(h.len(), 2);
    assert!(h.iter().all(|r| r["front_end"] == "quick"), "{h:?}");
    // The documents as files, compared as files and as references.
    for (r, f) in [("@last~1", "a.json"), ("@last", "b.json")] {
        let doc = ok(&with_store(&store, &["show", r, "--json"], &d.path));
        assert!(
            doc.starts_with("{\"format\":\"iomark-result/1\""),
            "{}",
            &doc[..80]
        );
        std::fs::write(d.file(f), doc).unwrap();
    }
    let labels = ["--label", "A", "--label", "B"];
    let files = cat(&own(&["compare", &d.s("a.json"), &d.s("b.json")]), &labels);
    let refs = cat(&own(&["compare", "@last~1", "@last"]), &labels);
    let by_files = ok(&with_store(&store, &files, &d.path));
    assert!(by_files.contains("SEQ1M"), "{by_files}");
    assert_eq!(ok(&with_store(&store, &refs, &d.path)), by_files);
}

#[test]
fn compare_of_references_equals_compare_of_result_files() {
    let d = Scratch::new("store-run");
    let store = d.file("results.db");
    for r in ["r1.json", "r2.json"] {
        ok(&with_store(&store, &run_args(&d.s("f"), &d.s(r)), &d.path));
    }
    let labels = ["--label", "one", "--label", "two"];
    let files = cat(
        &own(&["compare", &d.s("r1.json"), &d.s("r2.json")]),
        &labels,
    );
    let refs = cat(&own(&["compare", "@last~1", "@last"]), &labels);
    assert_eq!(
        ok(&with_store(&store, &refs, &d.path)),
        ok(&with_store(&store, &files, &d.path))
    );
    // The stored document is the result file's content.
    let doc: Value = serde_json::from_str(&ok(&with_store(
        &store,
        &["show", "@last", "--json"],
        &d.path,
    )))
    .unwrap();
    let file: Value = serde_json::from_slice(&std::fs::read(d.file("r2.json")).unwrap()).unwrap();
    assert_eq!(doc, file);
    // Tags, filters and the facts shown.
    ok(&with_store(
        &store,
        &cat(&run_args(&d.s("f"), &d.s("r3.json")), &["--tag", "nightly"]),
        &d.path,
    ));
    let tagged = ok(&with_store(
        &store,
        &["history", "--tag", "nightly"],
        &d.path,
    ));
    assert_eq!(tagged.lines().count(), 2, "{tagged}");
    let shown = ok(&with_store(&store, &["show", "@tag:nightly"], &d.path));
    assert!(
        shown.contains("r read iops:") && shown.contains("tags:      nightly"),
        "{shown}"
    );
    // A kept baseline: `--baseline @tag:NAME` alone compares it with the last run, as
    // `compare @tag:NAME @last` does.
    ok(&with_store(
        &store,
        &run_args(&d.s("f"), &d.s("r4.json")),
        &d.path,
    ));
    let gate = [
        "compare",
        "--baseline",
        "@tag:nightly",
        "--label",
        "kept",
        "--label",
        "now",
    ];
    let by_refs = [
        "compare",
        "@tag:nightly",
        "@last",
        "--label",
        "kept",
        "--label",
        "now",
    ];
    let g = ok(&with_store(&store, &gate, &d.path));
    assert_eq!(g, ok(&with_store(&store, &by_refs, &d.path)));
    assert!(g.contains("kept") && g.contains("now"), "{g}");
}

/// Two processes, each recording a series of runs at the same time, lose no record.
#[test]
fn two_processes_writing_at_once_lose_nothing() {
    let d = Scratch::new_in("/dev/shm", "store-two");
    writers_at_once(&d, d.file("results.db"));
}

/// Two writers, each a series of 12 runs of iomark one after the other, at the same time;
/// every run is in the store's history after.
pub fn writers_at_once(d: &Scratch, store: impl AsRef<OsStr>) {
    let store = store.as_ref();
    let said = std::sync::Mutex::new(String::new());
    std::thread::scope(|sc| {
        for i in 0..2 {
            let (d, said) = (&d, &said);
            sc.spawn(move || {
                for n in 0..12 {
                    let mut a = run_args(&d.s(&format!("f{i}")), "-");
                    a.retain(|x| !x.starts_with("--result"));
                    a.push(format!("--tag=w{n}"));
                    let o = with_store(store, &a, &d.path);
                    let err = String::from_utf8_lossy(&o.stderr).into_owned();
                    said.lock().unwrap().push_str(&err);
                    assert!(o.status.success(), "{err}");
                }
            });
        }
    });
    let said = said.into_inner().unwrap();
    assert!(!said.contains("warning"), "{said}");
    let h = history(store, &d.path);
    assert_eq!(h.len(), 24, "{said}");
    for i in 0..2 {
        let t = d.s(&format!("f{i}"));
        assert_eq!(
            h.iter().filter(|r| r["targets"][0] == t.as_str()).count(),
            12
        );
    }
}

/// `--repeat N` is one run of the store: its document the repetitions' file, each figure once
/// per repetition (shown as their mean and spread, drawn as error bars in a trend), and
/// `compare @last~1 @last` of two repeated runs is the comparison of their two files.
#[test]
fn a_repeated_run_is_one_run_with_its_spread() {
    let d = Scratch::new_in("/dev/shm", "store-rep");
    let store = d.file("results.db");
    for r in ["a.json", "b.json"] {
        let mut a = run_args(&d.s("f"), &d.s(r));
        a.extend(["--repeat=3".into(), "--tag=rep".into()]);
        ok(&with_store(&store, &a, &d.path));
    }
    let h = history(&store, &d.path);
    assert_eq!(h.len(), 2, "{h:?}");
    assert_eq!(h[1]["format"], "iomark-repeat/1");
    assert!(
        h[1]["command_line"]
            .as_str()
            .unwrap()
            .contains("--repeat=3"),
        "{h:?}"
    );
    let doc: Value = serde_json::from_str(&ok(&with_store(
        &store,
        &["show", "@last", "--json"],
        &d.path,
    )))
    .unwrap();
    let file: Value = serde_json::from_slice(&std::fs::read(d.file("b.json")).unwrap()).unwrap();
    assert_eq!(doc, file);
    assert_eq!(doc["runs"].as_array().unwrap().len(), 3);
    let shown = ok(&with_store(&store, &["show", "@last"], &d.path));
    assert!(shown.contains("(mean of 3 repetitions, "), "{shown}");
    let labels = ["--label", "A", "--label", "B"];
    let refs = cat(&own(&["compare", "@last~1", "@last"]), &labels);
    let files = cat(&own(&["compare", &d.s("a.json"), &d.s("b.json")]), &labels);
    assert_eq!(
        ok(&with_store(&store, &refs, &d.path)),
        ok(&with_store(&store, &files, &d.path))
    );
    let t = [
        "report",
        "--trend",
        "r.read.iops",
        "--tag",
        "rep",
        "-o",
        &d.s("t.html"),
    ];
    let o = with_store(&store, &t, &d.path);
    ok(&o);
    assert!(stderr(&o).contains("over 2 runs"), "{}", stderr(&o));
    let html = std::fs::read_to_string(d.file("t.html")).unwrap();
    assert!(html.contains("error_y"), "the spread drawn");
}

/// The run's stdout, result file and status with the store at `store`, and its stderr.
pub fn run_keeping_outputs(d: &Scratch, store: impl AsRef<OsStr>) -> (Value, String) {
    let o = with_store(store, &run_args(&d.s("f"), &d.s("r.json")), &d.path);
    let out = ok(&o);
    let v: Value = serde_json::from_str(&out).expect("fio JSON on stdout");
    assert_eq!(v["jobs"][0]["jobname"], "r");
    let r: Value = serde_json::from_slice(&std::fs::read(d.file("r.json")).unwrap()).unwrap();
    assert_eq!(r["format"], "iomark-result/1");
    (v, String::from_utf8_lossy(&o.stderr).into_owned())
}

pub fn one_warning(stderr: &str) {
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 1, "{stderr}");
    assert!(
        lines[0].starts_with("iomark: warning: the run was not recorded in the result store"),
        "{stderr}"
    );
}

#[test]
fn a_corrupt_store_keeps_the_runs_outputs() {
    let d = Scratch::new("store-corrupt");
    let store = d.file("results.db");
    let junk = vec![0x5au8; 16384];
    std::fs::write(&store, &junk).unwrap();
    let (_, err) = run_keeping_outputs(&d, &store);
    one_warning(&err);
    assert!(err.contains("not a database"), "{err}");
    assert_eq!(std::fs::read(&store).unwrap(), junk);
    // Reading it is an error that says so, not a crash.
    let o = with_store(&store, &["history"], &d.path);
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn a_read_only_or_full_store_keeps_the_runs_outputs() {
    // A store that cannot be created (a read-only home).
    let ro = ReadOnlyDir::new("store-ro");
    let d = Scratch::new("store-ro-run");
    let (_, err) = run_keeping_outputs(&d, ro.path.join("iomark/results.db"));
    one_warning(&err);
    assert_eq!(ro.entries(), 0);
    if !is_root() {
        return;
    }
    // A store that exists on a file system remounted read-only.
    let mnt = d.file("mnt");
    std::fs::create_dir(&mnt).unwrap();
    let mount = |o: &str| {
        let st = Command::new("mount")
            .args(["-t", "tmpfs", "-o", o, "tmpfs"])
            .arg(&mnt)
            .status()
            .unwrap();
        assert!(st.success());
    };
    mount("size=16m");
    let store = mnt.join("results.db");
    let (_, err) = run_keeping_outputs(&d, &store);
    assert_eq!(err, "");
    // The file system under the store full.
    let filler = mnt.join("filler");
    let mut f = std::fs::File::create(&filler).unwrap();
    let block = vec![1u8; 1 << 16];
    while std::io::Write::write_all(&mut f, &block).is_ok() {}
    drop(f);
    let (_, err) = run_keeping_outputs(&d, &store);
    one_warning(&err);
    std::fs::remove_file(&filler).unwrap();
    let st = Command::new("mount")
        .args(["-o", "remount,ro"])
        .arg(&mnt)
        .status()
        .unwrap();
    assert!(st.success());
    let (_, err) = run_keeping_outputs(&d, &store);
    let _ = Command::new("umount").arg(&mnt).status();
    one_warning(&err);
}

#[test]
fn fio_json_output_is_imported() {
    let d = Scratch::new("store-import");
    let store = d.file("results.db");
    let fixture = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/fio-3.33-output/fio-json-plus.json"
    );
    let o = with_store(
        &store,
        &["store", "import", "--tag", "old", fixture],
        &d.path,
    );
    ok(&o);
    assert!(String::from_utf8_lossy(&o.stderr).contains("recorded as @1"));
    let h = history(&store, &d.path);
    assert_eq!(h.len(), 1);
    assert_eq!(h[0]["front_end"], "fio");
    assert_eq!(h[0]["iomark_version"], "fio-3.33");
    assert_eq!(h[0]["time_unix_ms"], 1795329786288i64);
    assert_eq!(h[0]["targets"][0], "/tmp/ref/y");
    assert_eq!(h[0]["tags"][0], "old");
    let shown = ok(&with_store(&store, &["show", "@1"], &d.path));
    assert!(
        shown.contains("mix read iops:") && shown.contains("mix write p99:"),
        "{shown}"
    );
    // The reference reads as the file does.
    let by_ref = ok(&with_store(
        &store,
        &["compare", "@1", fixture, "--label", "a", "--label", "b"],
        &d.path,
    ));
    let by_file = ok(&with_store(
        &store,
        &["compare", fixture, fixture, "--label", "a", "--label", "b"],
        &d.path,
    ));
    assert_eq!(by_ref, by_file);
    // Not a result: an error naming the file; nothing recorded.
    std::fs::write(d.file("x.json"), "{\"a\":1}").unwrap();
    let o = with_store(&store, &["store", "import", &d.s("x.json")], &d.path);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(history(&store, &d.path).len(), 1);
    // Export and prune.
    ok(&with_store(
        &store,
        &["store", "export", &d.s("out")],
        &d.path,
    ));
    assert_eq!(
        std::fs::read(d.file("out/iomark-1.json")).unwrap(),
        std::fs::read(fixture).unwrap()
    );
    ok(&with_store(
        &store,
        &["store", "prune", "--keep", "0"],
        &d.path,
    ));
    assert!(history(&store, &d.path).is_empty());
}

#[test]
fn no_store_records_nothing() {
    let d = Scratch::new("store-off");
    let store = d.file("results.db");
    let a = cat(&run_args(&d.s("f"), &d.s("r.json")), &["--no-store"]);
    ok(&with_store(&store, &a, &d.path));
    assert!(!store.exists());
}

/// A run of each front end lands in the store under its command, with the system it ran on.
#[test]
fn every_front_end_lands_in_the_store() {
    let d = Scratch::new_in("/dev/shm", "store-all");
    let store = d.file("results.db");
    let dir = d.s("");
    std::fs::write(d.file("h"), vec![0u8; 32 << 20]).unwrap();
    for r in ["r1.json", "r2.json"] {
        ok(&with_store(&store, &run_args(&d.s("f"), &d.s(r)), &d.path));
    }
    let blog = d.s("blog");
    let runs: [&[&str]; 10] = [
        &["dd", "if=/dev/zero", "of=out", "bs=64K", "count=8"],
        &[
            "bonnie", "-d", &dir, "-s", "2", "-r", "0", "-n", "0", "-m", "h",
        ],
        &["blogbench", "-d", &blog, "-i", "1", "-s", "1", "-r", "2"],
        &[
            "iozone", "-s", "256k", "-r", "64k", "-i", "0", "-f", "iz.tmp",
        ],
        &["hdparm", "-t", "--direct", &d.s("h")],
        &[
            "sweep",
            "--bs=4k,64k",
            "--rw=randread",
            "--ioengine=null",
            "--size=8m",
            "--runtime=50ms",
            "--time_based",
        ],
        &[
            "rbd-bench",
            &dir,
            "--io-size",
            "4K",
            "--io-threads",
            "2",
            "--io-total",
            "1M",
            "--io-type",
            "write",
        ],
        &[
            "iometer",
            &dir,
            "--spec",
            "4k,70,100",
            "--outstanding",
            "2",
            "--size",
            "8m",
            "--runtime",
            "200ms",
        ],
        &[
            "preset",
            "run",
            "backup-repo",
            &dir,
            "--size",
            "16m",
            "--runtime",
            "200ms",
            "--warmup",
            "100ms",
        ],
        &["merge", &d.s("r1.json"), &d.s("r2.json")],
    ];
    for a in runs {
        ok(&with_store(&store, a, &d.path));
    }
    let h = history(&store, &d.path);
    let got: Vec<&str> = h.iter().map(|r| r["front_end"].as_str().unwrap()).collect();
    assert_eq!(
        got,
        [
            "run",
            "run",
            "dd",
            "bonnie",
            "blogbench",
            "iozone",
            "hdparm",
            "sweep",
            "rbd-bench",
            "iometer",
            "preset",
            "merge"
        ]
    );
    for r in &h {
        let id = format!("@{}", r["id"]);
        let doc: Value =
            serde_json::from_str(&ok(&with_store(&store, &["show", &id, "--json"], &d.path)))
                .unwrap();
        let run = doc.get("runs").map_or(&doc, |r| &r[0]);
        let host = &run["host"];
        assert!(
            host["kernel"].as_str().is_some_and(|k| !k.is_empty()),
            "{id}"
        );
        // The system facts: the distribution (this machine has /etc/os-release).
        if Path::new("/etc/os-release").exists() {
            assert!(
                host["os"].as_str().is_some_and(|k| !k.is_empty()),
                "{id}: {host}"
            );
        }
        let shown = ok(&with_store(&store, &["show", &id], &d.path));
        assert!(shown.contains("figures:"), "{id} has no figures:\n{shown}");
    }
}

#[test]
fn a_trend_draws_a_figure_across_runs_and_marks_a_changed_system() {
    let d = Scratch::new("store-trend");
    let store = d.file("results.db");
    for r in ["r1.json", "r2.json"] {
        let a = cat(&run_args(&d.s("f"), &d.s(r)), &["--tag", "nightly"]);
        ok(&with_store(&store, &a, &d.path));
    }
    // A run of another kernel joins the history (as if the machine was updated).
    let mut doc: Value =
        serde_json::from_slice(&std::fs::read(d.file("r2.json")).unwrap()).unwrap();
    doc["host"]["kernel"] = "9.9.9-other".into();
    doc["start_unix_ms"] = (doc["start_unix_ms"].as_u64().unwrap() + 1000).into();
    std::fs::write(d.file("k.json"), doc.to_string()).unwrap();
    ok(&with_store(
        &store,
        &["store", "import", "--tag", "nightly", &d.s("k.json")],
        &d.path,
    ));
    ok(&with_store(
        &store,
        &run_args(&d.s("f"), &d.s("untagged.json")),
        &d.path,
    ));
    let o = with_store(
        &store,
        &[
            "report",
            "--trend",
            "r.read.iops",
            "--tag",
            "nightly",
            "-o",
            &d.s("t.html"),
            "--png",
            &d.s("png"),
        ],
        &d.path,
    );
    ok(&o);
    assert!(stderr(&o).contains("over 3 runs"), "{}", stderr(&o));
    let html = std::fs::read_to_string(d.file("t.html")).unwrap();
    assert!(
        html.contains("kernel ") && html.contains(" -&gt; 9.9.9-other"),
        "the change is listed"
    );
    // Runs on a categorical axis from zero, the changed run marked.
    assert!(html.contains("\"x\":[\"@1 "), "runs as categories");
    assert!(html.contains("\"rangemode\":\"tozero\""));
    assert!(html.contains("\"name\":\"system changed\""));
    assert_eq!(std::fs::read_dir(d.file("png")).unwrap().count(), 1);
    // A figure no run has, and a malformed one, are said as such.
    let none = with_store(&store, &["report", "--trend", "zz.read.iops"], &d.path);
    assert_eq!(none.status.code(), Some(1));
    assert!(
        stderr(&none).contains("no run of the store"),
        "{}",
        stderr(&none)
    );
    let bad = with_store(&store, &["report", "--trend", "iops"], &d.path);
    assert_eq!(bad.status.code(), Some(2));
}

/// iozone's test file (made and removed by the run) and blogbench's directory are the runs'
/// targets in the store: `history --target DIR` finds both, and only them.
#[test]
fn iozone_and_blogbench_runs_are_found_by_the_directory_they_ran_in() {
    let d = Scratch::new_in("/dev/shm", "store-places");
    let store = d.file("results.db");
    std::fs::create_dir(d.file("place")).unwrap();
    let place = d.s("place");
    let runs: [&[&str]; 3] = [
        // A relative test file: known by the absolute path of its directory.
        &[
            "iozone",
            "-s",
            "256k",
            "-r",
            "64k",
            "-i",
            "0",
            "-f",
            "place/iz.tmp",
        ],
        &["blogbench", "-d", &place, "-i", "1", "-s", "1", "-r", "2"],
        &[
            "run",
            "--name=x",
            "--size=1m",
            "--rw=write",
            "--filename=other.dat",
        ],
    ];
    for a in runs {
        ok(&with_store(&store, a, &d.path));
    }
    assert!(!d.file("place/iz.tmp").exists());
    let found = ok(&with_store(
        &store,
        &["history", "--json", "--target", &place],
        &d.path,
    ));
    let h: Vec<Value> = serde_json::from_str::<Value>(&found)
        .unwrap()
        .as_array()
        .unwrap()
        .clone();
    let got: Vec<(&str, &str)> = h
        .iter()
        .map(|r| {
            (
                r["front_end"].as_str().unwrap(),
                r["targets"][0].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [("iozone", place.as_str()), ("blogbench", place.as_str())],
        "{found}"
    );
}
