//! The engine and the model speak no fio: no string literal in their code (tests aside) names an option the
//! way a user would type it (`allow_mounted_write`, `size=`) or a command-line switch
//! (`--force-device-write`). Front ends word the engine's typed errors and notes for their users.

use std::path::{Path, PathBuf};

/// fio option and switch names a user would type, which the engine must not use as words.
const FIO_WORDS: &[&str] = &[
    "allow_mounted_write",
    "force-device-write",
    "allow-fill",
    "filename_format",
    "iodepth_batch",
    "iodepth_low",
    "verify_only",
    "verify_interval",
    "verify_backlog",
    "verify_pattern",
    "do_verify",
    "fill_device",
    "cpus_allowed",
    "offset_increment",
    "io_size",
    "nrfiles",
    "numjobs",
    "filesize",
    "ioengine",
    "readonly",
    "stonewall",
    "time_based",
    "ramp_time",
    "randrepeat",
];

pub(crate) fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The code of a file before its inline test module (`#[cfg(test)]` then `mod name {`).
pub(crate) fn code_before_tests(text: &str) -> &str {
    let mut offset = 0;
    let mut lines = text.split_inclusive('\n').peekable();
    while let Some(line) = lines.next() {
        if line.trim() == "#[cfg(test)]" {
            let next = lines.peek().map(|l| l.trim()).unwrap_or("");
            if next.contains("mod ") && next.ends_with('{') {
                return &text[..offset];
            }
        }
        offset += line.len();
    }
    text
}

/// The string literals of Rust code, with their line numbers (comments and char literals
/// skipped; escapes kept as written).
fn string_literals(code: &str) -> Vec<(usize, String)> {
    let b = code.as_bytes();
    let mut out = Vec::new();
    let mut line = 1;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\n' => line += 1,
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i + 1 < b.len() && !(b[i] == b'*' && b[i + 1] == b'/') {
                    if b[i] == b'\n' {
                        line += 1;
                    }
                    i += 1;
                }
                i += 2;
                continue;
            }
            // A char literal ('x', '\n', '"'); a lifetime ('a) has no closing quote.
            b'\'' => {
                if b.get(i + 1) == Some(&b'\\') {
                    i += 2;
                    while i < b.len() && b[i] != b'\'' {
                        i += 1;
                    }
                } else if b.get(i + 2) == Some(&b'\'') {
                    i += 2;
                }
            }
            b'r' if matches!(b.get(i + 1), Some(b'"') | Some(b'#'))
                && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_')) =>
            {
                let mut j = i + 1;
                let mut hashes = 0;
                while b.get(j) == Some(&b'#') {
                    hashes += 1;
                    j += 1;
                }
                if b.get(j) == Some(&b'"') {
                    let close: Vec<u8> = std::iter::once(b'"')
                        .chain(std::iter::repeat_n(b'#', hashes))
                        .collect();
                    let start = j + 1;
                    let mut k = start;
                    while k < b.len() && !b[k..].starts_with(&close) {
                        k += 1;
                    }
                    out.push((line, String::from_utf8_lossy(&b[start..k]).into_owned()));
                    line += b[start..k].iter().filter(|&&c| c == b'\n').count();
                    i = k + close.len();
                    continue;
                }
            }
            b'"' => {
                let start = i + 1;
                let mut k = start;
                while k < b.len() && b[k] != b'"' {
                    if b[k] == b'\\' {
                        k += 1;
                    }
                    k += 1;
                }
                out.push((line, String::from_utf8_lossy(&b[start..k]).into_owned()));
                line += b[start..k].iter().filter(|&&c| c == b'\n').count();
                i = k + 1;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// What in a literal reads as fio syntax: a switch (`--name`), an `option=` or a fio word.
fn fio_speech(lit: &str) -> Option<String> {
    let b = lit.as_bytes();
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'-';
    for i in 0..b.len() {
        if b[i..].starts_with(b"--")
            && b.get(i + 2).is_some_and(|c| c.is_ascii_lowercase())
            && (i == 0 || !word(b[i - 1]))
        {
            return Some("a command-line switch".into());
        }
        if b[i] == b'=' && i > 0 && (b[i - 1].is_ascii_lowercase() || b[i - 1] == b'_') {
            let mut s = i;
            while s > 0 && (b[s - 1].is_ascii_alphanumeric() || b[s - 1] == b'_') {
                s -= 1;
            }
            if s == 0 || !(b[s - 1] == b'{' || b[s - 1] == b'$') {
                return Some(format!("the option syntax '{}='", &lit[s..i]));
            }
        }
    }
    for w in FIO_WORDS {
        let mut from = 0;
        while let Some(p) = lit[from..].find(w) {
            let s = from + p;
            let e = s + w.len();
            if (s == 0 || !word(b[s - 1])) && (e == b.len() || !word(b[e])) {
                return Some(format!("the option name '{w}'"));
            }
            from = e;
        }
    }
    None
}

#[test]
fn engine_and_model_sources_name_no_fio_option_or_switch() {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut found = Vec::new();
    for src in [here.join("src"), here.join("../model/src")] {
        found.extend(fio_speech_in(&src));
    }
    assert!(
        found.is_empty(),
        "the engine words messages in fio terms; return typed facts and let the front end \
         word them:\n{}",
        found.join("\n")
    );
}

/// Where the sources under `src` speak fio (tests aside).
fn fio_speech_in(src: &Path) -> Vec<String> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files.sort();
    assert!(files.len() > 10, "{files:?}");
    let mut found = Vec::new();
    for f in &files {
        // Test modules in their own file (or folder) are skipped as `code_before_tests` skips
        // inline ones.
        let in_tests = f
            .strip_prefix(src)
            .is_ok_and(|r| r.components().any(|c| c.as_os_str() == "tests"));
        if f.ends_with("speaks_no_fio.rs") || f.ends_with("tests.rs") || in_tests {
            continue;
        }
        let text = std::fs::read_to_string(f).unwrap();
        for (line, lit) in string_literals(code_before_tests(&text)) {
            if let Some(what) = fio_speech(&lit) {
                let rel = f.strip_prefix(src).unwrap().display();
                found.push(format!("{rel}:{line}: {what} in \"{lit}\""));
            }
        }
    }
    found
}

#[test]
fn the_checker_sees_fio_speech() {
    let code = r##"
        // "--not-code" in a comment
        let a = "use ioengine=psync"; let c = '"'; let l: &'static str = "fine";
        let b = r#"pass --force-device-write"#;
        let d = "{name}: {e}";
        let e = "set allow_mounted_write to 1";
        fn x<'a>(s: &'a str) {}
        let f = "psync, io_uring and libaio";
        #[cfg(test)]
        mod tests {
            let g = "--in-a-test";
        }
    "##;
    let lits = string_literals(code_before_tests(code));
    let texts: Vec<&str> = lits.iter().map(|(_, s)| s.as_str()).collect();
    assert_eq!(
        texts,
        [
            "use ioengine=psync",
            "fine",
            "pass --force-device-write",
            "{name}: {e}",
            "set allow_mounted_write to 1",
            "psync, io_uring and libaio"
        ]
    );
    assert_eq!(lits[0].0, 3);
    let flagged: Vec<bool> = texts.iter().map(|t| fio_speech(t).is_some()).collect();
    assert_eq!(flagged, [true, false, true, false, true, false]);
}
