//! A crate's modules and the names its files use, read as text (rustfmt'ed code): enough to
//! follow `crate::`, `super::`, `self::` and child-module paths and explicit re-exports.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// A module path from the crate root (`worker/pick.rs` -> ["worker", "pick"]).
pub type ModPath = Vec<String>;

pub struct Crate {
    /// Every module of the crate outside the tests, with its code (comments and the inline
    /// test module removed).
    pub modules: BTreeMap<ModPath, String>,
}

impl Crate {
    /// The crate whose root file is `src/lib.rs`.
    pub fn read(src: &Path) -> Crate {
        let mut files = Vec::new();
        rust_files(src, src, &mut files);
        let texts: Vec<(String, String)> = files
            .into_iter()
            .map(|rel| {
                let text = std::fs::read_to_string(src.join(&rel)).unwrap();
                (rel, text)
            })
            .collect();
        let refs: Vec<(&str, &str)> = texts
            .iter()
            .map(|(a, b)| (a.as_str(), b.as_str()))
            .collect();
        Crate::from_files(&refs)
    }

    /// A crate from (path relative to `src`, text) pairs; the modules reached from `lib.rs`
    /// through declarations that are not for the tests only.
    pub fn from_files(files: &[(&str, &str)]) -> Crate {
        let by_module: BTreeMap<ModPath, &str> = files
            .iter()
            .map(|(rel, text)| (module_of(rel), *text))
            .collect();
        let mut modules = BTreeMap::new();
        let mut todo = vec![Vec::new()];
        while let Some(m) = todo.pop() {
            let Some(text) = by_module.get(&m) else {
                continue;
            };
            let code = strip(text);
            for child in declared_children(&code) {
                let mut c = m.clone();
                c.push(child);
                todo.push(c);
            }
            modules.insert(m, code);
        }
        Crate { modules }
    }

    fn is_module(&self, p: &[String]) -> bool {
        self.modules.contains_key(p)
    }

    /// The module that defines what `path` names: the longest module prefix, followed through
    /// the explicit re-exports (`pub use a::X`, `pub use a::*` of a child) of that module.
    fn resolve(&self, path: &[String]) -> ModPath {
        let mut p: ModPath = path.to_vec();
        for _ in 0..8 {
            let n = (0..=p.len())
                .rev()
                .find(|n| self.is_module(&p[..*n]))
                .unwrap_or(0);
            if n == p.len() {
                return p;
            }
            let module = &p[..n];
            let item = &p[n];
            match self.reexport(module, item) {
                Some(to) => {
                    let mut next = to;
                    next.extend_from_slice(&p[n + 1..]);
                    p = next;
                }
                None => return module.to_vec(),
            }
        }
        p
    }

    /// Where `module` re-exports `item` from, as an absolute path to the item.
    fn reexport(&self, module: &[String], item: &str) -> Option<ModPath> {
        let code = &self.modules[module];
        for stmt in use_statements(code, true) {
            for (path, glob) in expand_use(&stmt) {
                let Some(abs) = absolute(self, module, &path) else {
                    continue;
                };
                if glob {
                    // `pub use child::*`: the item if that module defines or re-exports it.
                    if self.is_module(&abs) && self.defines(&abs, item) {
                        let mut to = abs;
                        to.push(item.to_string());
                        return Some(to);
                    }
                } else if path.last().map(String::as_str) == Some(item) {
                    return Some(abs);
                }
            }
        }
        None
    }

    /// Whether `module` defines an item named `item` (or re-exports it by name).
    fn defines(&self, module: &[String], item: &str) -> bool {
        let code = &self.modules[module];
        let kinds = [
            "struct", "enum", "fn", "trait", "type", "const", "static", "mod", "union",
        ];
        code.lines().any(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            words.windows(2).any(|w| {
                kinds.contains(&w[0])
                    && w[1]
                        .trim_end_matches(|c: char| !c.is_alphanumeric() && c != '_')
                        .split(['<', '(', ':', ';', '{'])
                        .next()
                        == Some(item)
            })
        }) || use_statements(code, true)
            .iter()
            .flat_map(|s| expand_use(s))
            .any(|(p, glob)| !glob && p.last().map(String::as_str) == Some(item))
    }
}

/// For every level of the module tree, which sibling depends on which: the keys and values
/// are sibling paths joined with `::` (`worker` -> {`job`, ...} at the top level).
pub fn sibling_dependencies(krate: &Crate) -> BTreeMap<String, BTreeSet<String>> {
    witnessed_dependencies(krate).0
}

/// Which sibling depends on which.
pub type Deps = BTreeMap<String, BTreeSet<String>>;
/// For each (from, to), the first module and path that make the dependency.
pub type Witnesses = BTreeMap<(String, String), String>;

/// The sibling dependencies and what makes each.
pub fn witnessed_dependencies(krate: &Crate) -> (Deps, Witnesses) {
    let mut deps: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut why = BTreeMap::new();
    for (module, code) in &krate.modules {
        if !module.is_empty() {
            deps.entry(module.join("::")).or_default();
        }
        for named in named_paths(krate, module, code) {
            let target = krate.resolve(&named);
            let common = module
                .iter()
                .zip(&target)
                .take_while(|(a, b)| a == b)
                .count();
            // One contains the other (a parent and its child): no edge between siblings.
            if common == module.len() || common == target.len() {
                continue;
            }
            let from = module[..=common].join("::");
            let to = target[..=common].join("::");
            why.entry((from.clone(), to.clone()))
                .or_insert_with(|| format!("{} names {}", module.join("::"), named.join("::")));
            deps.entry(from).or_default().insert(to);
        }
    }
    (deps, why)
}

/// Every absolute path a module's code names through `crate::`, `super::`, `self::` or one of
/// its child modules.
fn named_paths(krate: &Crate, module: &[String], code: &str) -> Vec<ModPath> {
    let children = declared_children(code);
    let mut out = Vec::new();
    for stmt in use_statements(code, false) {
        for (path, _) in expand_use(&stmt) {
            if let Some(abs) = absolute(krate, module, &path) {
                out.push(abs);
            }
        }
    }
    // Paths written in the code itself (`crate::sys::now_ns()`, `super::x::y`).
    let b = code.as_bytes();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut i = 0;
    while i < b.len() {
        if (i > 0 && (ident(b[i - 1]) || b[i - 1] == b':')) || !ident(b[i]) {
            i += 1;
            continue;
        }
        let start = i;
        let mut parts = Vec::new();
        loop {
            let s = i;
            while i < b.len() && ident(b[i]) {
                i += 1;
            }
            parts.push(code[s..i].to_string());
            if b[i..].starts_with(b"::") && i + 2 < b.len() && ident(b[i + 2]) {
                i += 2;
            } else {
                break;
            }
        }
        let first = parts[0].as_str();
        let rooted = matches!(first, "crate" | "super" | "self") || children.contains(&parts[0]);
        if parts.len() > 1 && rooted && !code[..start].ends_with("mod ") {
            if let Some(abs) = absolute(krate, module, &parts) {
                out.push(abs);
            }
        }
    }
    out
}

/// `path` as written in `module` made absolute, or None when it does not start in the crate.
fn absolute(krate: &Crate, module: &[String], path: &[String]) -> Option<ModPath> {
    let mut base: ModPath = module.to_vec();
    let mut rest = path;
    match rest.first().map(String::as_str) {
        Some("crate") => {
            base.clear();
            rest = &rest[1..];
        }
        Some("self") => rest = &rest[1..],
        Some("super") => {
            while rest.first().map(String::as_str) == Some("super") {
                base.pop()?;
                rest = &rest[1..];
            }
        }
        Some(first) => {
            let mut child = module.to_vec();
            child.push(first.to_string());
            if !krate.is_module(&child) {
                return None;
            }
        }
        None => return None,
    }
    base.extend(rest.iter().cloned());
    Some(base)
}

/// The `use` statements of some code, whole (`use a::{b, c::d};`); with `public`, only the
/// `pub use` ones (re-exports).
fn use_statements(code: &str, public: bool) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("use ") {
        let before = &rest[..at];
        let line_start = before.rfind('\n').map_or(0, |n| n + 1);
        let head = before[line_start..].trim();
        let is_pub = head.starts_with("pub");
        let is_use = head.is_empty() || head.starts_with("pub");
        if !is_use {
            rest = &rest[at + 4..];
            continue;
        }
        let Some(end) = rest[at..].find(';') else {
            break;
        };
        let stmt = &rest[at + 4..at + end];
        let path_like = stmt
            .chars()
            .all(|c| c.is_alphanumeric() || " \n_:{},*".contains(c));
        if (!public || is_pub) && path_like {
            out.push(stmt.to_string());
        }
        rest = &rest[at + end..];
    }
    out
}

/// The paths of one `use` tree (`a::{b, c::{d, e}}` -> a::b, a::c::d, a::c::e), each with
/// whether it is a glob (`a::*`); `self` inside braces names the prefix; `as` renames dropped.
fn expand_use(stmt: &str) -> Vec<(ModPath, bool)> {
    fn walk(prefix: &ModPath, tree: &str, out: &mut Vec<(ModPath, bool)>) {
        let tree = tree.trim();
        if let Some(open) = tree.find('{') {
            let mut p = prefix.clone();
            p.extend(split_path(&tree[..open]));
            let close = tree.rfind('}').filter(|c| *c > open).unwrap_or(tree.len());
            let inner = &tree[open + 1..close];
            let mut depth = 0;
            let mut start = 0;
            for (i, c) in inner.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        walk(&p, &inner[start..i], out);
                        start = i + 1;
                    }
                    _ => {}
                }
            }
            walk(&p, &inner[start..], out);
            return;
        }
        let tree = tree.split(" as ").next().unwrap_or("").trim();
        if tree.is_empty() {
            return;
        }
        let mut p = prefix.clone();
        let parts = split_path(tree);
        let glob = parts.last().map(String::as_str) == Some("*");
        for part in parts {
            if part != "*" && part != "self" {
                p.push(part);
            }
        }
        out.push((p, glob));
    }
    let mut out = Vec::new();
    walk(&Vec::new(), stmt, &mut out);
    out
}

fn split_path(s: &str) -> ModPath {
    s.split("::")
        .map(str::trim)
        .filter(|x| !x.is_empty())
        .map(String::from)
        .collect()
}

/// The child modules a file declares (`mod x;`, `pub mod x;`, `pub(crate) mod x;`), but those
/// declared for the tests only (`#[cfg(test)]` or a `cfg` naming `test` on the line before).
fn declared_children(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut prev = "";
    for line in code.lines() {
        let l = line.trim();
        let decl = l
            .strip_prefix("pub ")
            .or_else(|| l.strip_prefix("pub(crate) "))
            .or_else(|| l.strip_prefix("pub(super) "))
            .unwrap_or(l);
        if let Some(name) = decl.strip_prefix("mod ").and_then(|n| n.strip_suffix(';')) {
            let for_tests = prev.starts_with("#[cfg(") && prev.contains("test");
            if !for_tests {
                out.push(name.trim().to_string());
            }
        }
        prev = l;
    }
    out
}

/// A file's code without comments and without its inline test module.
fn strip(text: &str) -> String {
    let mut out = String::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let t = line.trim();
        if t == "#[cfg(test)]" {
            let next = lines.peek().map(|l| l.trim()).unwrap_or("");
            if next.contains("mod ") && next.ends_with('{') {
                break;
            }
        }
        if t.starts_with("//") {
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

fn module_of(rel: &str) -> ModPath {
    let mut parts: ModPath = rel
        .trim_end_matches(".rs")
        .split('/')
        .map(String::from)
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

fn rust_files(src: &Path, dir: &Path, out: &mut Vec<String>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(src, &p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p.strip_prefix(src).unwrap().to_string_lossy().into_owned());
        }
    }
}

/// A cycle through `deps`, if there is one (the nodes in order, the first repeated last).
pub fn find_cycle(deps: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        f: &str,
        deps: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        state.insert(f.to_string(), 1);
        path.push(f.to_string());
        for g in deps.get(f).into_iter().flatten() {
            match state.get(g).copied().unwrap_or(0) {
                1 => {
                    let at = path.iter().position(|p| p == g).unwrap();
                    let mut c = path[at..].to_vec();
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
        state.insert(f.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for f in deps.keys() {
        if state.get(f).copied().unwrap_or(0) == 0 {
            if let Some(c) = visit(f, deps, &mut state, &mut Vec::new()) {
                return Some(c);
            }
        }
    }
    None
}
