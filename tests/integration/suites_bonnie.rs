//! `iomark bonnie`: the seed line runs (shrunk), its CSV has bonnie++'s 50 fields and Debian's
//! bon_csv2html and bon_csv2txt read it, text and CSV agree, -q and -x, bad input.

use crate::util::{bin, stderr, stdout, Scratch};
use std::io::Write;
use std::process::{Command, Stdio};

fn bonnie(args: &[&str]) -> std::process::Output {
    Command::new(bin())
        .arg("bonnie")
        .args(args)
        .output()
        .unwrap()
}

fn pipe(prog: &str, input: &str) -> std::process::Output {
    let mut c = Command::new(prog)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{prog} (Debian's bonnie++ package): {e}"));
    c.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    c.wait_with_output().unwrap()
}

#[test]
fn bonnie_seed_line_csv_and_converters() {
    let d = Scratch::new("bonnie-seed");
    let dir = d.path.display().to_string();
    // The seed line, shrunk and redirected by appended flags (the last -d wins).
    let seed = "-d /mnt/raw_disk -D -b -m kvm-guest -x 3 -u root";
    let mut args: Vec<&str> = seed.split_whitespace().collect();
    args.extend(["-d", &dir, "-s", "8", "-r", "0", "-n", "0"]);
    let o = bonnie(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let csv: Vec<&str> = out.lines().filter(|l| l.starts_with("1.98,")).collect();
    assert_eq!(csv.len(), 3, "-x 3 streams three CSV rows:\n{out}");
    for row in &csv {
        let f: Vec<&str> = row.split(',').collect();
        assert_eq!(f.len(), 50, "{row}");
        assert_eq!((f[2], f[5], f[7], f[8]), ("kvm-guest", "8M", "8192", "5"));
        // Block output, block input and seeks measured (or +++++); the rest empty.
        for i in [11, 17, 19] {
            assert!(
                f[i] == "+++++" || f[i].parse::<f64>().unwrap() > 0.0,
                "{row}"
            );
        }
        for i in [9, 10, 13, 14, 15, 16] {
            assert_eq!(f[i], "", "{row}");
        }
        assert!(f[39].ends_with("us") || f[39].ends_with("ms"), "{row}");
    }
    assert_eq!(out.matches("Name:Size etc").count(), 3, "{out}");
    let html = pipe("bon_csv2html", &format!("{}\n", csv.join("\n")));
    assert!(html.status.success(), "{}", stderr(&html));
    let h = stdout(&html);
    assert!(h.contains("<table") && h.contains("kvm-guest"), "{h}");
    let txt = pipe("bon_csv2txt", &format!("{}\n", csv[0]));
    assert!(txt.status.success(), "{}", stderr(&txt));
    // bon_csv2txt cuts the name to 8 characters.
    assert!(
        stdout(&txt).contains("kvm-gues 8M::8192:5"),
        "{}",
        stdout(&txt)
    );
    assert_eq!(
        std::fs::read_dir(&d.path).unwrap().count(),
        0,
        "test file left behind"
    );
}

#[test]
fn bonnie_text_and_csv_agree_and_quiet_splits_them() {
    let d = Scratch::new("bonnie-agree");
    let dir = d.path.display().to_string();
    let o = bonnie(&[
        "-d", &dir, "-s", "16", "-r", "0", "-n", "0", "-q", "-m", "h",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let (out, err) = (stdout(&o), stderr(&o));
    assert_eq!(out.lines().count(), 1, "-q: only CSV on stdout:\n{out}");
    assert!(err.contains("Name:Size etc"), "{err}");
    let f: Vec<&str> = out.trim().split(',').collect();
    let row = err.lines().find(|l| l.starts_with("h ")).expect("text row");
    // Columns of the text row: block out (fields 12-13), block in (18-19), seeks (20-21).
    let cells: Vec<&str> = row.split_whitespace().collect();
    let text_fields: Vec<&str> = cells[2..].to_vec();
    let csv_fields = [f[11], f[12], f[17], f[18], f[19], f[20]];
    assert_eq!(text_fields.len(), 6, "{row}");
    for (t, c) in text_fields.iter().zip(csv_fields) {
        if c.starts_with('+') {
            assert_eq!(*t, c, "{row} / {out}");
        } else if let Some(m) = t.strip_suffix('m') {
            let kib: f64 = c.parse().unwrap();
            let m: f64 = m.parse().unwrap();
            assert!((kib / 1024.0 - m).abs() <= 0.5 + m * 0.005, "{row} / {out}");
        } else if let Some(k) = t.strip_suffix('k') {
            assert_eq!(k, c, "{row} / {out}");
        } else {
            assert_eq!(*t, c, "{row} / {out}");
        }
    }
}

#[test]
fn bonnie_bad_input_is_refused_and_writes_nothing() {
    let d = Scratch::new("bonnie-bad");
    let dir = d.path.display().to_string();
    let missing = d.s("missing");
    for (args, needle) in [
        (vec!["-d", dir.as_str(), "-k"], "-k"),
        (vec!["-d", dir.as_str(), "-s", "lots"], "-s"),
        (vec!["-d", dir.as_str(), "-s", "8:3000", "-r", "0"], "-s"),
        (
            vec!["-d", missing.as_str(), "-s", "8", "-r", "0"],
            "missing",
        ),
        (vec!["-d", dir.as_str(), "-s", "8"], "double RAM"),
        (
            vec!["-d", dir.as_str(), "-s", "100000000", "-r", "0"],
            "largest size that fits",
        ),
    ] {
        let o = bonnie(&args);
        assert!(!o.status.success(), "{args:?}");
        assert!(stderr(&o).contains(needle), "{args:?}: {}", stderr(&o));
        assert_eq!(std::fs::read_dir(&d.path).unwrap().count(), 0, "{args:?}");
    }
}
