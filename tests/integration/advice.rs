//! Every option an error message advises is one that front end takes: a refusal that says
//! "pass --allow-write" or "use a smaller --size" must name a flag the same command accepts,
//! as its own `--help` lists it.

use crate::util::*;
use std::collections::BTreeSet;

/// The `--flag` words of `text`.
fn flags(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let b = text.as_bytes();
    let mut i = 0;
    while i + 2 < b.len() {
        let starts =
            b[i] == b'-' && b[i + 1] == b'-' && (i == 0 || !b[i - 1].is_ascii_alphanumeric());
        if starts && b[i + 2].is_ascii_lowercase() {
            let mut j = i + 2;
            while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'-' || b[j] == b'_') {
                j += 1;
            }
            out.insert(text[i..j].trim_end_matches('-').to_string());
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

#[test]
fn advised_options_are_accepted() {
    let d = Scratch::new("advice");
    let file = d.path.join("existing");
    std::fs::write(&file, vec![0u8; 1 << 20]).unwrap();
    let f = file.to_str().unwrap();
    let dir = d.path.to_str().unwrap();
    // (command, arguments that make it refuse with advice)
    let cases: &[(&str, Vec<&str>)] = &[
        ("preset", vec!["run", "backup-repo", f]),
        ("preset", vec!["run", "backup-repo", "--size=100t", dir]),
        ("rbd-bench", vec!["--io-type", "write", f]),
        ("iometer", vec![f, "--spec", "4k,100,0"]),
        ("iometer", vec![dir, "--spec", "4k,100,100,3"]),
        ("iometer", vec![dir, "--spec", "4k,100,0", "--size", "100t"]),
        ("quick", vec![f, "--runtime", "0"]),
        ("sweep", vec!["--filename", f, "--bs=4k,8k"]),
        ("sweep", vec!["--bs=4k,8k", "--iodepth=1..100000+1"]),
    ];
    let mut checked = 0;
    for (cmd, args) in cases {
        let mut all = vec![*cmd];
        all.extend(args.iter().copied());
        let o = iomark_in(&all, d.path.as_path());
        assert!(!o.status.success(), "iomark {all:?} should refuse");
        let err = stderr(&o);
        let help = stdout(&iomark(&[cmd, "--help"])) + &stderr(&iomark(&[cmd, "--help"]));
        let known = flags(&help);
        for flag in flags(&err) {
            assert!(
                known.contains(&flag),
                "iomark {all:?} advises {flag}, which `iomark {cmd} --help` does not list:\n{err}"
            );
            checked += 1;
        }
    }
    // The cases above advise at least --allow-write in four commands.
    assert!(checked >= 4, "only {checked} advised flags seen");
}

#[test]
fn flags_are_read_from_text() {
    let f = flags("pass --allow-write to do that, or --size=1g; not x--y or ---");
    assert_eq!(
        f.into_iter().collect::<Vec<_>>(),
        ["--allow-write", "--size"]
    );
}
