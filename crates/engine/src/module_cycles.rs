//! The engine's files form no cycle: a file that names another (`crate::a::b`, `super::c`,
//! `use x::{y, z}`) depends on the file defining that module, and following those names from
//! any file never leads back to it. A reader can then take the files in order, leaves first.

use super::speaks_no_fio::{code_before_tests, rust_files};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// A file's module path from the crate root (`worker/pick.rs` -> ["worker", "pick"]).
fn module_of(rel: &str) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .trim_end_matches(".rs")
        .split('/')
        .map(String::from)
        .collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    parts
}

/// The paths a piece of code names, as module paths from the crate root: `crate::a::b`,
/// `super::c` (relative to `module`), each name of a `{...}` list after one.
fn named_paths(code: &str, module: &[String]) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let b = code.as_bytes();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut i = 0;
    while i < b.len() {
        let start_word = i == 0 || !ident(b[i - 1]);
        let root = if start_word && b[i..].starts_with(b"crate::") {
            Some((Vec::new(), 7))
        } else if start_word && b[i..].starts_with(b"super::") {
            Some((module[..module.len().saturating_sub(1)].to_vec(), 7))
        } else {
            None
        };
        let Some((mut path, skip)) = root else {
            i += 1;
            continue;
        };
        i += skip;
        loop {
            let s = i;
            while i < b.len() && ident(b[i]) {
                i += 1;
            }
            if s < i {
                path.push(code[s..i].to_string());
            }
            if b[i..].starts_with(b"::{") {
                i += 3;
                let end = code[i..].find('}').map_or(b.len(), |e| i + e);
                for item in code[i..end].split(',') {
                    let first = item.trim().split([':', ' ']).next().unwrap_or("");
                    if !first.is_empty() {
                        let mut p = path.clone();
                        p.push(first.to_string());
                        out.push(p);
                    }
                }
                i = end;
                break;
            }
            if b[i..].starts_with(b"::") {
                i += 2;
            } else {
                out.push(path);
                break;
            }
        }
    }
    out
}

/// Every file's dependencies on the other files of the crate rooted at `src`.
fn dependencies(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let mut modules: BTreeMap<Vec<String>, String> = BTreeMap::new();
    let mut code = BTreeMap::new();
    for f in &files {
        let rel = f
            .strip_prefix(src)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        // Test files and folders belong to the tests, not to the code's order.
        if rel
            .split('/')
            .any(|p| p == "tests" || p == "tests.rs" || p.ends_with("_tests.rs"))
        {
            continue;
        }
        let text = std::fs::read_to_string(f).unwrap();
        modules.insert(module_of(&rel), rel.clone());
        code.insert(rel, code_before_tests(&text).to_string());
    }
    let mut deps = BTreeMap::new();
    for (rel, text) in &code {
        let me = module_of(rel);
        let mut to = BTreeSet::new();
        for path in named_paths(text, &me) {
            // The file of the longest prefix of the path that is a module.
            if let Some(f) = (1..=path.len()).rev().find_map(|n| modules.get(&path[..n])) {
                if f != rel {
                    to.insert(f.clone());
                }
            }
        }
        deps.insert(rel.clone(), to);
    }
    deps
}

/// A cycle through `deps`, if there is one (the files in order, the first repeated last).
fn find_cycle(deps: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    // 0 = not seen, 1 = on the current path, 2 = done.
    let mut state: BTreeMap<&str, u8> = BTreeMap::new();
    let mut path: Vec<&str> = Vec::new();
    fn visit<'a>(
        f: &'a str,
        deps: &'a BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<&'a str, u8>,
        path: &mut Vec<&'a str>,
    ) -> Option<Vec<String>> {
        state.insert(f, 1);
        path.push(f);
        for g in deps.get(f).into_iter().flatten() {
            match state.get(g.as_str()).copied().unwrap_or(0) {
                1 => {
                    let at = path.iter().position(|p| *p == g).unwrap();
                    let mut c: Vec<String> = path[at..].iter().map(|s| s.to_string()).collect();
                    c.push(g.clone());
                    return Some(c);
                }
                0 => {
                    if let Some(c) = visit(g, deps, state, path) {
                        return Some(c);
                    }
                }
                _ => {}
            }
        }
        path.pop();
        state.insert(f, 2);
        None
    }
    for f in deps.keys() {
        if state.get(f.as_str()).copied().unwrap_or(0) == 0 {
            if let Some(c) = visit(f, deps, &mut state, &mut path) {
                return Some(c);
            }
        }
    }
    None
}

#[test]
fn the_engines_files_form_no_cycle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let deps = dependencies(&src);
    assert!(deps.contains_key("worker/pick.rs") && deps["worker/pick.rs"].contains("job/mod.rs"));
    if let Some(c) = find_cycle(&deps) {
        panic!(
            "the engine's files depend on each other in a cycle: {}",
            c.join(" -> ")
        );
    }
}

#[test]
fn a_cycle_is_found_and_named() {
    let mut deps = BTreeMap::new();
    let dep = |to: &[&str]| to.iter().map(|s| s.to_string()).collect::<BTreeSet<_>>();
    deps.insert("a.rs".to_string(), dep(&["b/mod.rs"]));
    deps.insert("b/mod.rs".to_string(), dep(&["c.rs"]));
    deps.insert("c.rs".to_string(), dep(&[]));
    assert_eq!(find_cycle(&deps), None);
    deps.insert("c.rs".to_string(), dep(&["a.rs"]));
    assert_eq!(
        find_cycle(&deps).unwrap(),
        ["a.rs", "b/mod.rs", "c.rs", "a.rs"]
    );
}

#[test]
fn paths_resolve_from_crate_and_super() {
    let me = module_of("worker/pick.rs");
    assert_eq!(me, ["worker", "pick"]);
    let p = named_paths(
        "use super::trace::Recorder;\nuse crate::job::{Dir, io::PerDir};\nlet x = crate::sys::now_ns();",
        &me,
    );
    let p: Vec<String> = p.iter().map(|v| v.join("::")).collect();
    assert_eq!(
        p,
        [
            "worker::trace::Recorder",
            "job::Dir",
            "job::io",
            "sys::now_ns"
        ]
    );
}
