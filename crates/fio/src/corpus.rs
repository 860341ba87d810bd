//! Job-file corpus tests (`testdata/jobs`).
//!
//! - `good/NAME.fio` (or `NAME.args`: one command-line argument per line, job files relative to
//!   the corpus) parses, and its job model matches `NAME.model`: for each job, every field of the
//!   typed model that differs from the defaults.
//! - `broken/NAME.fio` / `NAME.args` is refused, and the diagnostics match `NAME.diag`.
//! - Every good case round-trips: `--showcmd` gives a command line that yields the same jobs.
//!
//! `IOMARK_BLESS=1 cargo test -p iomark-fio corpus` rewrites the expected files; review the diff.

use crate::cmdline::{parse_run_args_with, showcmd, CliError, CliRun};
use crate::jobfile::tests::FixedVars;
use iomark_engine::job::{JobSpec, RunPlan};
use std::path::{Path, PathBuf};

fn corpus(kind: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata/jobs")
        .join(kind)
}

fn cases(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| matches!(p.extension().and_then(|e| e.to_str()), Some("fio" | "args")))
        .collect();
    v.sort();
    assert!(!v.is_empty(), "no cases in {}", dir.display());
    v
}

fn args_of(case: &Path) -> Vec<String> {
    let dir = case.parent().unwrap();
    if case.extension().and_then(|e| e.to_str()) == Some("fio") {
        return vec![case.display().to_string()];
    }
    std::fs::read_to_string(case)
        .unwrap()
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with(';'))
        .map(|l| {
            let p = dir.join(l);
            if !l.starts_with('-') && p.exists() {
                p.display().to_string()
            } else {
                l.to_string()
            }
        })
        .collect()
}

fn parse(args: &[String]) -> Result<CliRun, CliError> {
    parse_run_args_with(args, &FixedVars)
}

/// Each job's fields that differ from the defaults, one per line.
fn model_text(plan: &RunPlan) -> String {
    // The model of a job given no options at all.
    let bare = crate::job_builder::RawJob {
        name: "bare".into(),
        ..Default::default()
    };
    let bare = crate::job_builder::build_job(&bare, false, &mut Vec::new()).unwrap();
    let default = serde_json::to_value(bare).unwrap();
    let mut out = String::new();
    if !plan.shown_overrides.is_empty() {
        out += &format!("overrides = {:?}\n", plan.shown_overrides);
    }
    for j in &plan.jobs {
        out += &format!("[{}]\n", j.name);
        let v = serde_json::to_value(j).unwrap();
        let obj = v.as_object().unwrap();
        let mut keys: Vec<&String> = obj.keys().collect();
        keys.sort();
        for k in keys {
            if k == "options" || k == "name" || obj[k] == default[k] {
                continue;
            }
            out += &format!("  {k} = {}\n", obj[k]);
        }
    }
    out
}

fn check_expected(path: &Path, actual: &str, failures: &mut Vec<String>) {
    if std::env::var_os("IOMARK_BLESS").is_some() {
        std::fs::write(path, actual).unwrap();
        return;
    }
    match std::fs::read_to_string(path) {
        Ok(expected) if expected == actual => {}
        Ok(expected) => failures.push(format!(
            "{} differs\n--- expected\n{expected}\n--- actual\n{actual}",
            path.display()
        )),
        Err(e) => failures.push(format!(
            "{}: {e} (IOMARK_BLESS=1 writes it)\n--- actual\n{actual}",
            path.display()
        )),
    }
}

/// Split a `--showcmd` line into arguments (single quotes as the line writes them).
fn shell_words(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut quoted = false;
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                quoted = !quoted;
                in_word = true;
            }
            '\\' if !quoted => {
                if let Some(n) = chars.next() {
                    cur.push(n);
                }
                in_word = true;
            }
            ' ' if !quoted => {
                if in_word {
                    out.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            c => {
                cur.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        out.push(cur);
    }
    out
}

fn without_options(plan: &RunPlan) -> Vec<JobSpec> {
    plan.jobs
        .iter()
        .map(|j| JobSpec {
            shown_options: Default::default(),
            ..j.clone()
        })
        .collect()
}

#[test]
fn good_job_files_give_the_expected_model() {
    let mut failures = Vec::new();
    for case in cases(&corpus("good")) {
        let run = match parse(&args_of(&case)) {
            Ok(r) => r,
            Err(e) => {
                failures.push(format!("{}: refused:\n{e}", case.display()));
                continue;
            }
        };
        check_expected(
            &case.with_extension("model"),
            &model_text(&run.plan),
            &mut failures,
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn broken_job_files_give_the_expected_diagnostics() {
    let mut failures = Vec::new();
    let dir = corpus("broken");
    let prefix = format!("{}/", dir.display());
    for case in cases(&dir) {
        match parse(&args_of(&case)) {
            Ok(_) => failures.push(format!("{}: accepted", case.display())),
            Err(e) => check_expected(
                &case.with_extension("diag"),
                &format!("{}\n", e.to_string().replace(&prefix, "")),
                &mut failures,
            ),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn showcmd_round_trips_for_the_corpus() {
    for case in cases(&corpus("good")) {
        let first = parse(&args_of(&case)).unwrap();
        let line = showcmd(&first.raw);
        let words = shell_words(&line);
        assert_eq!(&words[..2], ["iomark", "run"], "{line}");
        let again = parse(&words[2..]).unwrap_or_else(|e| panic!("{line}\n{e}"));
        assert_eq!(
            without_options(&again.plan),
            without_options(&first.plan),
            "{}: {line}",
            case.display()
        );
        assert_eq!(again.plan.shown_overrides, first.plan.shown_overrides);
        // And the line is stable.
        assert_eq!(showcmd(&again.raw), line, "{}", case.display());
    }
}

#[test]
fn shell_words_undo_quoting() {
    assert_eq!(
        shell_words(r"a 'b c' '--d=it'\''s' e"),
        ["a", "b c", "--d=it's", "e"]
    );
}

use crate::fuzz_tests::Gen;

const TOKENS: &[&str] = &[
    "[",
    "]",
    "=",
    "\n",
    " ",
    ";",
    "#",
    "\"",
    "include ",
    "${",
    "}",
    "$ncpus",
    "$mb_memory",
    "$pagesize",
    "(",
    ")",
    "*",
    "+",
    "-",
    "/",
    "%",
    "^",
    ":",
    ",",
    "k",
    "m",
    "g",
    "0x",
    "1",
    "4k",
    "99999999999999999999",
    "-1",
    "1e308",
    "global",
    "bs",
    "size",
    "rw",
    "randrw",
    "bssplit",
    "4k/50:",
    "iodepth",
    "numjobs",
    "rate",
    "ioengine",
    "io_uring",
    "hipri",
    "wait_for",
    "stonewall",
    "random_distribution",
    "zipf:",
    "zoned:",
    "percentile_list",
    "filename",
    "offset_increment",
    "\u{feff}",
    "\r",
    "é",
    "\0",
];

/// Hostile input never panics the job-file reader or the command-line parser: random bytes,
/// token soup, and mutations of the corpus. `IOMARK_FUZZ_ITERS` sets the count (by hand: 10^6).
#[test]
fn job_file_parsing_never_panics() {
    let iters: usize = std::env::var("IOMARK_FUZZ_ITERS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3000);
    let seeds: Vec<Vec<u8>> = cases(&corpus("good"))
        .into_iter()
        .chain(cases(&corpus("broken")))
        .filter(|p| p.extension().and_then(|e| e.to_str()) == Some("fio"))
        .map(|p| std::fs::read(p).unwrap())
        .collect();
    let dir = std::env::temp_dir().join(format!("iomark-fuzz-jobfile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("f.fio");
    let mut g = Gen::new(0x1f2e_3d4c_5b6a_7988);
    for i in 0..iters {
        let bytes: Vec<u8> = match i % 3 {
            0 => (0..g.below(300)).map(|_| g.next() as u8).collect(),
            1 => {
                let mut s = String::new();
                for _ in 0..g.below(80) {
                    s.push_str(TOKENS[g.below(TOKENS.len())]);
                }
                s.into_bytes()
            }
            _ => {
                let mut b = seeds[g.below(seeds.len())].clone();
                for _ in 0..1 + g.below(6) {
                    let at = g.below(b.len() + 1);
                    match g.below(4) {
                        0 if !b.is_empty() => {
                            let at = at.min(b.len() - 1);
                            b[at] = g.next() as u8;
                        }
                        1 => {
                            let t = TOKENS[g.below(TOKENS.len())].as_bytes();
                            b.splice(at..at, t.iter().copied());
                        }
                        2 if at < b.len() => {
                            let end = (at + g.below(20)).min(b.len());
                            b.drain(at..end);
                        }
                        _ => {
                            let end = (at + g.below(40)).min(b.len());
                            let dup: Vec<u8> = b[at..end].to_vec();
                            b.splice(at..at, dup);
                        }
                    }
                }
                b
            }
        };
        std::fs::write(&file, &bytes).unwrap();
        let args = vec![file.display().to_string()];
        let outcome = std::panic::catch_unwind(|| {
            if let Ok(run) = parse_run_args_with(&args, &FixedVars) {
                let _ = showcmd(&run.raw);
            }
        });
        if outcome.is_err() {
            let _ = std::fs::remove_dir_all(&dir);
            panic!(
                "iteration {i}: the parser panicked on:\n{:?}",
                String::from_utf8_lossy(&bytes)
            );
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn filenames_add_up_and_overrides_replace_them() {
    let args = |s: &str| -> Vec<String> { s.split_whitespace().map(String::from).collect() };
    let r = parse(&args(
        "--filename=/a --name=x --filename=/b:/c --filename=/a",
    ))
    .unwrap();
    let files: Vec<String> = r.plan.jobs[0]
        .filenames
        .iter()
        .map(|p| p.display().to_string())
        .collect();
    assert_eq!(files, ["/a", "/b", "/c"]);
    let r = parse(&args(
        "--filename=/a --name=x --filename=/b --override=filename=/z",
    ))
    .unwrap();
    assert_eq!(r.plan.jobs[0].filenames, [PathBuf::from("/z")]);
}
