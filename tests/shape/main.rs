//! The shape of the code, kept by tests (the fast tier: no root, no system tools):
//! - within every crate, the modules at each level of the tree (the top-level modules, the
//!   modules of one folder) name each other without a cycle, so a reader can take them in
//!   order, leaves first. A file that names `crate::a::X`, `super::b`, a child module of its own
//!   or an item that its parent re-exports (`pub use a::X`) depends on the module defining it;
//!   the dependency counts between the two siblings that hold the two files;
//! - the binary reaches the product through the application layer alone;
//! - no function outside the tests is longer than 100 lines.

mod functions;
mod modules;

use modules::{find_cycle, sibling_dependencies, witnessed_dependencies, Crate};
use std::path::Path;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn no_crate_has_a_cycle_between_its_modules() {
    let mut checked = 0;
    let mut cycles = Vec::new();
    for entry in std::fs::read_dir(root().join("crates")).unwrap() {
        let src = entry.unwrap().path().join("src");
        if !src.join("lib.rs").exists() {
            continue;
        }
        let krate = Crate::read(&src);
        let (deps, why) = witnessed_dependencies(&krate);
        if let Some(c) = find_cycle(&deps) {
            let steps: Vec<String> = c
                .windows(2)
                .map(|w| {
                    format!(
                        "  {} -> {}: {}",
                        w[0],
                        w[1],
                        why[&(w[0].clone(), w[1].clone())]
                    )
                })
                .collect();
            cycles.push(format!(
                "the modules of {} depend on each other in a cycle:\n{}",
                src.display(),
                steps.join("\n")
            ));
        }
        checked += 1;
    }
    assert!(cycles.is_empty(), "{}", cycles.join("\n"));
    assert!(checked >= 6, "only {checked} crates found");
}

/// The engine's known shape is seen: the worker depends on the engines, the runner on the
/// workers.
#[test]
fn the_engines_dependencies_are_seen() {
    let krate = Crate::read(&root().join("crates/engine/src"));
    let deps = sibling_dependencies(&krate);
    assert!(deps["worker"].contains("engines"), "{:?}", deps["worker"]);
    assert!(deps["runner"].contains("worker"), "{:?}", deps["runner"]);
}

#[test]
fn a_cycle_through_a_re_export_and_a_child_module_is_found() {
    let krate = Crate::from_files(&[
        (
            "lib.rs",
            "pub mod job;\npub mod engines;\npub use job::Spec;\n",
        ),
        (
            "job/mod.rs",
            "mod settings;\npub use settings::Priority;\npub use crate::engines::Kind;\n",
        ),
        ("job/settings.rs", "pub struct Priority;\n"),
        (
            "engines/mod.rs",
            "mod decl;\nmod mix;\npub use decl::Kind;\n",
        ),
        (
            "engines/decl.rs",
            "use super::mix::Mix;\npub struct Kind;\n",
        ),
        (
            "engines/mix.rs",
            "use crate::job::Priority;\npub struct Mix;\n",
        ),
    ]);
    let deps = sibling_dependencies(&krate);
    assert!(deps["engines"].contains("job"), "{deps:?}");
    let c = find_cycle(&deps).expect("the cycle job -> engines -> job");
    assert_eq!(c.first(), c.last());
    // Within a folder, a child naming its parent's items is no cycle.
    let krate = Crate::from_files(&[
        ("lib.rs", "mod worker;\n"),
        (
            "worker/mod.rs",
            "mod pick;\nuse pick::next;\npub struct Worker;\n",
        ),
        ("worker/pick.rs", "use super::Worker;\npub fn next() {}\n"),
    ]);
    assert_eq!(find_cycle(&sibling_dependencies(&krate)), None);
}

/// `src/` is the entry point only: it names no crate but the application layer.
#[test]
fn the_binary_uses_only_the_application_layer() {
    let main = std::fs::read_to_string(root().join("src/main.rs")).unwrap();
    for krate in [
        "iomark_engine",
        "iomark_fio",
        "iomark_suites",
        "iomark_scenarios",
        "iomark_report",
    ] {
        assert!(!main.contains(krate), "src/main.rs names {krate}");
    }
    assert!(main.contains("iomark_app::main"));
    let files = std::fs::read_dir(root().join("src")).unwrap().count();
    assert_eq!(files, 1, "src/ holds the entry point alone");
}

/// The model is plain data: its code (tests aside) opens no file, socket or process and calls
/// no system function, and it names no other iomark crate.
#[test]
fn the_model_does_no_io() {
    let src = root().join("crates/model/src");
    let mut files = Vec::new();
    let mut dirs = vec![src.clone()];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                if p.file_name().is_some_and(|n| n != "tests") {
                    dirs.push(p);
                }
            } else if p.extension().is_some_and(|x| x == "rs")
                && !p.to_string_lossy().ends_with("tests.rs")
            {
                files.push(p);
            }
        }
    }
    assert!(files.len() > 10, "{files:?}");
    let io = [
        "std::fs",
        "std::net",
        "std::process",
        "File::",
        "OpenOptions",
        "iomark_engine",
        "iomark_fio",
        "iomark_app",
    ];
    let mut found = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let code = text
            .split("#[cfg(test)]\nmod tests")
            .next()
            .unwrap_or(&text);
        for (n, line) in code.lines().enumerate() {
            let line = line.split("//").next().unwrap_or("");
            let syscall = line
                .match_indices("libc::")
                .any(|(i, _)| line[i + 6..].starts_with(|c: char| c.is_ascii_lowercase()));
            if syscall || io.iter().any(|w| line.contains(w)) {
                found.push(format!("{}:{}: {}", f.display(), n + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "the model does I/O:\n{}",
        found.join("\n")
    );
}

/// The longest a function outside the tests may be, in lines.
const MAX_FUNCTION_LINES: usize = 100;

#[test]
fn no_function_outside_the_tests_is_over_100_lines() {
    let mut dirs = vec![root().join("src")];
    for entry in std::fs::read_dir(root().join("crates")).unwrap() {
        dirs.push(entry.unwrap().path().join("src"));
    }
    let all = functions::functions(&dirs);
    assert!(all.len() > 1000, "only {} functions found", all.len());
    let long: Vec<String> = all
        .iter()
        .filter(|f| f.lines > MAX_FUNCTION_LINES)
        .map(|f| {
            format!(
                "  {}:{} {} ({} lines)",
                f.file.display(),
                f.line,
                f.name,
                f.lines
            )
        })
        .collect();
    assert!(
        long.is_empty(),
        "functions over {MAX_FUNCTION_LINES} lines (split them into named steps):\n{}",
        long.join("\n")
    );
}

/// The counter sees a function's end through braces in strings, characters and comments,
/// and leaves the tests out.
#[test]
fn the_function_counter_skips_strings_comments_and_tests() {
    let text =
        "pub fn a() {\n    let s = \"}}\";\n    let c = '}';\n    // }\n    let r = r#\"{\"#;\n}\n\
                fn b<'x>(v: &'x str) -> char {\n    '\\''\n}\n\
                #[cfg(test)]\nmod tests {\n    fn t() {\n    }\n}\n";
    let f = functions::of_text(text);
    let got: Vec<(String, usize)> = f.into_iter().map(|(_, n, l)| (n, l)).collect();
    assert_eq!(got, [("a".to_string(), 6), ("b".to_string(), 3)]);
}
