//! fio's own `examples/` job files (issue 25): `tests/fixtures/fio-examples.tsv` lists each
//! example of fio 3.33 with whether fio 3.33 parses it here and what `iomark run --parse-only`
//! does with it (parses, or the engine or option it refuses by name). The examples are fio's,
//! not part of this repository: point `IOMARK_FIO_EXAMPLES` at a fio 3.33 checkout's
//! `examples/` directory and run this test with `--ignored`; with `IOMARK_BLESS_EXAMPLES=1`
//! as well it rewrites the table from what fio 3.33 (on the PATH) and iomark do now.

use crate::util::*;
use std::collections::BTreeMap;

const TABLE: &str = include_str!("../fixtures/fio-examples.tsv");

/// The table's rows: example name → (fio parses it, iomark's outcome).
fn table() -> BTreeMap<&'static str, (bool, &'static str)> {
    TABLE
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let mut f = l.splitn(3, '\t');
            let name = f.next().unwrap();
            let fio = f.next().expect("fio column") == "parses";
            let ours = f.next().expect("iomark column");
            (name, (fio, ours))
        })
        .collect()
}

/// What `iomark run --parse-only` does with `file` (run in its directory): "parses", or
/// "refused: " and the first problem without its place.
fn outcome(file: &std::path::Path) -> String {
    let dir = file.parent().unwrap();
    let name = file.file_name().unwrap().to_str().unwrap();
    let o = iomark_in(&["run", "--parse-only", name], dir);
    if o.status.success() {
        return "parses".into();
    }
    let err = stderr(&o);
    let first = err.lines().next().unwrap_or("");
    let why = first.split_once("error: ").map_or(first, |(_, w)| w);
    format!("refused: {}", why.split(" (supported:").next().unwrap())
}

#[test]
fn the_table_is_consistent() {
    let t = table();
    assert!(t.len() >= 80, "{} rows", t.len());
    for (name, (fio, ours)) in &t {
        assert!(name.ends_with(".fio"), "{name}");
        assert!(
            *ours == "parses" || ours.starts_with("refused: "),
            "{name}: {ours}"
        );
        // A refusal of an example fio parses names what is missing.
        if *fio && *ours != "parses" {
            assert!(
                ours.contains("ioengine=") || ours.contains("option"),
                "{name}: {ours}"
            );
        }
    }
}

#[test]
#[ignore = "needs IOMARK_FIO_EXAMPLES=<fio 3.33 checkout>/examples"]
fn fio_examples_parse_as_the_table_says() {
    let dir = std::env::var_os("IOMARK_FIO_EXAMPLES")
        .expect("set IOMARK_FIO_EXAMPLES to the examples/ directory of a fio 3.33 checkout");
    let dir = std::path::PathBuf::from(dir);
    let mut found: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".fio"))
        .collect();
    found.sort();
    if std::env::var_os("IOMARK_BLESS_EXAMPLES").is_some() {
        bless(&dir, &found);
        return;
    }
    let t = table();
    let listed: Vec<&str> = t.keys().copied().collect();
    assert_eq!(found, listed, "the table lists every example");
    let mut wrong = Vec::new();
    for (name, (_, want)) in &t {
        let got = outcome(&dir.join(name));
        if got != *want {
            wrong.push(format!("{name}: table {want:?}, now {got:?}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Rewrite the table: its comment lines, then each example with fio's `--parse-only` verdict
/// and iomark's outcome now.
fn bless(dir: &std::path::Path, found: &[String]) {
    let mut out: String = TABLE
        .lines()
        .take_while(|l| l.starts_with('#'))
        .map(|l| format!("{l}\n"))
        .collect();
    for name in found {
        let fio = fio_in(&["--parse-only", name], dir).status.success();
        let fio = if fio { "parses" } else { "refused" };
        out += &format!("{name}\t{fio}\t{}\n", outcome(&dir.join(name)));
    }
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/fio-examples.tsv"
    );
    std::fs::write(path, out).unwrap();
}
