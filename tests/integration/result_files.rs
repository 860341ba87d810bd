//! Every command's result file passes one gate: a directory, a device or one of the run's
//! targets is refused before any I/O with exit status 2 (nothing created, nothing recorded in
//! the store), and a good one is written whole after the run, which is recorded once. Every
//! command names it the same way: `--result=FILE`, or `--result-file FILE` (the same option).

use crate::store::{history, with_store};
use crate::util::*;

/// A command of the table and its words; all its files are made in the scratch directory, so
/// a refusal leaves that directory as it was.
struct Case {
    name: &'static str,
    args: Vec<String>,
    /// A target named on the command line, refused as the result file.
    target: Option<String>,
}

fn cases(d: &Scratch) -> Vec<Case> {
    let t = d.s("t.dat");
    let dir = d.s("");
    let blog = d.s("blog");
    let words = |w: &[&str]| w.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let run = words(&[
        "run",
        "--name=x",
        &format!("--filename={t}"),
        "--size=1m",
        "--rw=write",
        "--bs=64k",
    ]);
    let merge_inputs = (d.s("m1.json"), d.s("m2.json"));
    vec![
        Case {
            name: "run",
            args: run.clone(),
            target: Some(t.clone()),
        },
        Case {
            name: "repeat",
            args: [run.clone(), words(&["--repeat=2"])].concat(),
            target: None,
        },
        Case {
            name: "sweep",
            args: words(&[
                "sweep",
                &format!("--filename={t}"),
                "--size=1m",
                "--rw=write",
                "--bs=4k,8k",
                "--allow-write",
            ]),
            target: Some(t.clone()),
        },
        Case {
            name: "preset",
            args: words(&[
                "preset",
                "run",
                "cloud-disk",
                &dir,
                "--size",
                "8m",
                "--runtime",
                "100ms",
                "--warmup",
                "0",
            ]),
            target: None,
        },
        Case {
            name: "iozone",
            args: words(&["iozone", "-s", "256k", "-r", "64k", "-i", "0", "-f", &t]),
            target: Some(t.clone()),
        },
        Case {
            name: "iometer",
            args: words(&[
                "iometer",
                &dir,
                "--spec",
                "4k,70,100",
                "--size",
                "8m",
                "--runtime",
                "100ms",
            ]),
            target: None,
        },
        Case {
            name: "dd",
            args: words(&[
                "dd",
                "if=/dev/zero",
                &format!("of={t}"),
                "bs=64k",
                "count=8",
            ]),
            target: Some(t.clone()),
        },
        Case {
            name: "bonnie",
            args: words(&["bonnie", "-d", &dir, "-s", "2", "-r", "0", "-n", "0"]),
            target: None,
        },
        Case {
            name: "blogbench",
            args: words(&["blogbench", "-d", &blog, "-i", "1", "-s", "1", "-r", "2"]),
            target: None,
        },
        Case {
            name: "merge",
            args: words(&["merge", &merge_inputs.0, &merge_inputs.1]),
            target: Some(t),
        },
    ]
}

/// Two result files of `run` on t.dat, for `merge`, kept out of the command's store.
fn merge_inputs(d: &Scratch) {
    for r in ["m1.json", "m2.json"] {
        let a = [
            "run",
            "--name=x",
            &format!("--filename={}", d.s("t.dat")),
            "--size=1m",
            "--rw=read",
            "--bs=64k",
            &format!("--result={}", d.s(r)),
            "--no-store",
        ];
        let o = iomark_in(&a, &d.path);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    std::fs::remove_file(d.file("t.dat")).unwrap();
}

/// The names under `dir`, with their sizes: what a refusal before any I/O leaves unchanged.
fn listing(dir: &std::path::Path) -> Vec<(String, u64)> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let m = e.metadata().unwrap();
        out.push((e.path().display().to_string(), m.len()));
        if m.is_dir() {
            out.extend(listing(&e.path()));
        }
    }
    out.sort();
    out
}

#[test]
fn every_command_refuses_a_bad_result_file_before_any_io_and_keeps_a_good_one_once() {
    let n = cases(&Scratch::new("rf-names")).len();
    for i in 0..n {
        let d = Scratch::new_in("/dev/shm", &format!("rf{i}"));
        let c = &cases(&d)[i];
        std::fs::create_dir(d.file("blog")).unwrap();
        if c.name == "merge" {
            merge_inputs(&d);
        }
        // The store lives outside the scratch directory, whose listing is compared.
        let stores = Scratch::new_in("/dev/shm", &format!("rf{i}-store"));
        let store = stores.file("store.db");
        let mut bad = vec![d.s(""), "/dev/zero".to_string()];
        bad.extend(c.target.clone());
        for (k, b) in bad
            .iter()
            .flat_map(|b| [("--result", b), ("--result-file", b)])
        {
            let before = listing(&d.path);
            let a = [c.args.clone(), vec![format!("{k}={b}")]].concat();
            let o = with_store(&store, &a, &d.path);
            let e = stderr(&o);
            assert_eq!(o.status.code(), Some(2), "{} {k}={b}: {e}", c.name);
            assert!(e.starts_with("iomark"), "{}: {e}", c.name);
            assert_eq!(listing(&d.path), before, "{} {k}={b}: {e}", c.name);
            assert!(!store.exists(), "{} {k}={b}: recorded", c.name);
        }
        // One run per spelling: `--result=FILE`, then `--result-file FILE` (two words).
        let (rf1, rf2) = (d.s("result.json"), d.s("result2.json"));
        let spellings = [
            (&rf1, vec![format!("--result={rf1}")]),
            (&rf2, vec!["--result-file".to_string(), rf2.clone()]),
        ];
        for (n, (rf, spelled)) in spellings.into_iter().enumerate() {
            // blogbench runs in a new directory again.
            std::fs::remove_dir_all(d.file("blog")).unwrap();
            std::fs::create_dir(d.file("blog")).unwrap();
            let a = [c.args.clone(), spelled].concat();
            let o = with_store(&store, &a, &d.path);
            assert!(o.status.success(), "{} {a:?}: {}", c.name, stderr(&o));
            let text =
                std::fs::read_to_string(rf).unwrap_or_else(|e| panic!("{} {a:?}: {e}", c.name));
            let v: serde_json::Value =
                serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", c.name));
            assert!(v.is_object(), "{}: {text}", c.name);
            let h = history(&store, &d.path);
            assert_eq!(h.len(), n + 1, "{}: recorded {} times", c.name, h.len());
        }
    }
}
