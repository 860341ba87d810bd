//! The length of every function outside the tests: from the line of its `fn` to the line of
//! its closing brace, braces counted outside strings, characters and comments. Test modules
//! (`#[cfg(test)] mod ...`, inline or in a file of their own) and `#[test]` functions are left
//! out.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// A function of a file and its length in lines.
#[derive(Debug)]
pub struct Function {
    pub file: PathBuf,
    pub line: usize,
    pub name: String,
    pub lines: usize,
}

/// Every non-test function of the Rust files under `dirs`.
pub fn functions(dirs: &[PathBuf]) -> Vec<Function> {
    let mut files = Vec::new();
    for d in dirs {
        rust_files(d, &mut files);
    }
    let tests = test_files(&files);
    let mut out = Vec::new();
    for f in files.iter().filter(|f| !tests.contains(*f)) {
        let text = std::fs::read_to_string(f).unwrap();
        out.extend(
            of_text(&text)
                .into_iter()
                .map(|(line, name, lines)| Function {
                    file: f.clone(),
                    line,
                    name,
                    lines,
                }),
        );
    }
    out
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The files that are test modules declared elsewhere (`#[cfg(test)] mod name;`).
fn test_files(files: &[PathBuf]) -> BTreeSet<PathBuf> {
    let mut out = BTreeSet::new();
    for f in files {
        let text = std::fs::read_to_string(f).unwrap();
        let lines: Vec<&str> = text.lines().map(str::trim).collect();
        let stem = f.file_stem().unwrap().to_string_lossy();
        let dir = match stem.as_ref() {
            "mod" | "lib" | "main" => f.parent().unwrap().to_path_buf(),
            s => f.parent().unwrap().join(s),
        };
        for w in lines.windows(2) {
            if !is_test_attr(w[0]) {
                continue;
            }
            if let Some(name) = declared_module(w[1]).filter(|_| w[1].ends_with(';')) {
                out.insert(dir.join(format!("{name}.rs")));
                out.insert(dir.join(name).join("mod.rs"));
            }
        }
    }
    out
}

fn is_test_attr(line: &str) -> bool {
    line == "#[test]" || (line.starts_with("#[cfg(") && line.contains("test"))
}

/// The module a line declares (`mod x;`, `pub(crate) mod x {`).
fn declared_module(line: &str) -> Option<&str> {
    let rest = line.split_once("mod ")?;
    let head = rest.0.trim();
    if !(head.is_empty() || head.starts_with("pub")) {
        return None;
    }
    rest.1
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .next()
}

/// The name a line's function has, when the line starts one.
fn function_name(line: &str) -> Option<&str> {
    let mut rest = line;
    loop {
        rest = rest.trim_start();
        let next = [
            "pub(crate) ",
            "pub(super) ",
            "pub ",
            "const ",
            "async ",
            "unsafe ",
        ]
        .iter()
        .find_map(|p| rest.strip_prefix(p))
        .or_else(|| rest.strip_prefix("extern \"C\" "));
        match next {
            Some(r) => rest = r,
            None => break,
        }
    }
    let r = rest.strip_prefix("fn ")?;
    r.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .next()
        .filter(|n| !n.is_empty())
}

/// Each line's code with what is inside strings, characters and comments blanked out, so
/// that only the code's braces are left.
fn code_lines(text: &str) -> Vec<String> {
    let c: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(c.len());
    let mut i = 0;
    while i < c.len() {
        let ch = c[i];
        let next = c.get(i + 1).copied();
        let prev_ident = i > 0 && (c[i - 1].is_alphanumeric() || c[i - 1] == '_');
        if ch == '/' && next == Some('/') {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if ch == '/' && next == Some('*') {
            i += 2;
            while i + 1 < c.len() && !(c[i] == '*' && c[i + 1] == '/') {
                out.extend((c[i] == '\n').then_some('\n'));
                i += 1;
            }
            i += 2;
        } else if ch == 'r' && !prev_ident && matches!(next, Some('"' | '#')) {
            let hashes = c[i + 1..].iter().take_while(|&&x| x == '#').count();
            if c.get(i + 1 + hashes) != Some(&'"') {
                out.push(ch);
                i += 1;
                continue;
            }
            i += 2 + hashes;
            while i < c.len() {
                if c[i] == '"'
                    && c[i + 1..]
                        .iter()
                        .take(hashes)
                        .filter(|&&x| x == '#')
                        .count()
                        == hashes
                {
                    i += 1 + hashes;
                    break;
                }
                out.extend((c[i] == '\n').then_some('\n'));
                i += 1;
            }
        } else if ch == '"' {
            i += 1;
            while i < c.len() && c[i] != '"' {
                if c[i] == '\\' {
                    i += 1;
                }
                out.extend((c.get(i) == Some(&'\n')).then_some('\n'));
                i += 1;
            }
            i += 1;
        } else if ch == '\'' && next == Some('\\') {
            // '\n', '\'', '\u{..}': past the escaped character, then to the closing quote.
            i += 3;
            while i < c.len() && c[i] != '\'' {
                i += 1;
            }
            i += 1;
        } else if ch == '\'' && c.get(i + 2) == Some(&'\'') {
            i += 3;
        } else {
            out.push(ch);
            i += 1;
        }
    }
    out.lines().map(String::from).collect()
}

/// The functions of one file's text outside its tests: (line, name, length in lines).
pub fn of_text(text: &str) -> Vec<(usize, String, usize)> {
    let code = code_lines(text);
    let mut out = Vec::new();
    let mut test_attr = false;
    let mut skip_until: Option<usize> = None;
    for (n, line) in code.iter().enumerate() {
        if skip_until.is_some_and(|end| n <= end) {
            continue;
        }
        let t = line.trim();
        if is_test_attr(t) {
            test_attr = true;
            continue;
        }
        if t.starts_with("#[") || t.is_empty() {
            continue;
        }
        let is_mod = declared_module(t).is_some() && t.ends_with('{');
        let name = function_name(t);
        if test_attr && (is_mod || name.is_some()) {
            skip_until = Some(end_of_block(&code, n));
        } else if let Some(name) = name {
            let end = end_of_block(&code, n);
            out.push((n + 1, name.to_string(), end - n + 1));
        }
        test_attr = false;
    }
    out
}

/// The line where the block opened on or after line `start` closes (`start` itself for a
/// declaration without a body).
fn end_of_block(code: &[String], start: usize) -> usize {
    let mut depth = 0i64;
    let mut opened = false;
    for (n, line) in code.iter().enumerate().skip(start) {
        for ch in line.chars() {
            match ch {
                '{' => {
                    depth += 1;
                    opened = true;
                }
                '}' => depth -= 1,
                ';' if !opened && depth == 0 => return n,
                _ => {}
            }
        }
        if opened && depth <= 0 {
            return n;
        }
    }
    code.len() - 1
}
