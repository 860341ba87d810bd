//! Every fio command line of the seed workloads that names no job file runs under `iomark run`
//! with its options unchanged (filename redirected, size/runtime scaled down by appended
//! options), and its JSON carries the same keys as fio's for that command.

use crate::util::*;
use std::collections::BTreeSet;

fn seed_lines() -> Vec<Vec<String>> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/seed-workloads/commands.txt"
    );
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("the seed workloads must be in tests/fixtures ({path}): {e}"));
    text.lines()
        .map(str::trim)
        .filter(|l| l.starts_with("fio "))
        .filter(|l| !l.ends_with(".ini"))
        .map(|l| l.split_whitespace().skip(1).map(String::from).collect())
        .collect()
}

fn shrink(args: &[String], file: &str) -> Vec<String> {
    let has = |k: &str| {
        args.iter()
            .any(|a| a.trim_start_matches('-').starts_with(k))
    };
    let mut v = vec!["--output-format=json".to_string()];
    // fio adds a file for every `filename` given, so the target is replaced, not appended.
    v.extend(
        args.iter()
            .filter(|a| !a.trim_start_matches('-').starts_with("filename="))
            .cloned(),
    );
    v.push(format!("--filename={file}"));
    v.push("--size=4m".into());
    if has("filesize") {
        v.push("--filesize=4m".into());
    }
    if has("offset_increment") {
        v.push("--offset_increment=4m".into());
    }
    if has("runtime") {
        v.push("--runtime=1".into());
    }
    if has("ramp_time") {
        v.push("--ramp_time=100ms".into());
    }
    v
}

#[test]
fn seed_command_lines_run_and_match_fio_keys() {
    let lines = seed_lines();
    assert!(
        lines.len() >= 15,
        "expected the seed command lines, found {}",
        lines.len()
    );
    for (i, args) in lines.iter().enumerate() {
        let d = Scratch::new(&format!("seed{i}"));
        let ours = shrink(args, &d.s("iomark.dat"));
        let theirs = shrink(args, &d.s("fio.dat"));
        let mut run_args = vec!["run".to_string()];
        run_args.extend(ours);
        let run_args: Vec<&str> = run_args.iter().map(String::as_str).collect();
        let o = iomark_in(&run_args, &d.path);
        let iv = json(&o);
        let theirs: Vec<&str> = theirs.iter().map(String::as_str).collect();
        let fo = fio_in(&theirs, &d.path);
        let fv = fio_json(&fo);
        let ij = iv["jobs"].as_array().unwrap();
        let fj = fv["jobs"].as_array().unwrap();
        assert_eq!(ij.len(), fj.len(), "line {i}: job count");
        for (a, b) in ij.iter().zip(fj) {
            assert_eq!(a["jobname"], b["jobname"], "line {i}");
            assert_eq!(u(&a["error"]), 0, "line {i}: {}", stderr(&o));
            let moved = u(&a["read"]["io_bytes"]) + u(&a["write"]["io_bytes"]);
            assert!(moved > 0, "line {i}: no I/O");
        }
        let fk = key_paths(&fv);
        let ik = key_paths(&iv);
        let missing: BTreeSet<_> = fk.difference(&ik).collect();
        assert!(
            missing.is_empty(),
            "line {i} {args:?}: keys fio has and iomark lacks: {missing:?}"
        );
    }
}

/// The README's "Recipes" section shows every seed scenario as one iomark command: each group
/// of seed lines (by its heading) is named there, and each seed tool has its iomark command.
#[test]
fn readme_recipes_cover_every_seed_scenario() {
    let root = env!("CARGO_MANIFEST_DIR");
    let readme = std::fs::read_to_string(format!("{root}/README.md")).unwrap();
    let recipes = readme
        .split("\n## Recipes\n")
        .nth(1)
        .and_then(|r| r.split("\n## ").next())
        .expect("a Recipes section in README.md");
    let seeds =
        std::fs::read_to_string(format!("{root}/tests/fixtures/seed-workloads/commands.txt"))
            .unwrap();
    for line in seeds.lines() {
        if let Some(h) = line.strip_prefix("# --- ") {
            let first = h.split_whitespace().next().unwrap();
            if first != "the" {
                assert!(recipes.contains(first), "no recipe for the {h}");
            }
            continue;
        }
        let Some(tool) = line
            .split_whitespace()
            .next()
            .filter(|t| !t.starts_with('#'))
        else {
            continue;
        };
        let cmd = match tool {
            "fio" => "iomark preset run ".to_string(),
            "bonnie++" => "iomark bonnie ".to_string(),
            "rbd" => "iomark rbd-bench ".to_string(),
            t => format!("iomark {t} "),
        };
        assert!(
            recipes.contains(&format!("`{cmd}")),
            "no recipe runs {tool}: {line}"
        );
    }
}
