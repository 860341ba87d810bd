//! `iomark blogbench`: the seed line runs (shrunk), its output reads as blogbench's, the scores
//! are the counted blogs, the directory layout after a run, bad input refused.

use crate::util::{bin, iomark, seed_line, stderr, stdout, BoundedOutput, ReadOnlyDir, Scratch};

/// The numbers of blogbench's table lines and final scores.
fn table(out: &str) -> (Vec<Vec<u64>>, u64, u64) {
    let mut rows = Vec::new();
    let mut lines = out.lines();
    for l in lines.by_ref() {
        if l.starts_with("  Nb blogs   R articles    W articles") {
            break;
        }
    }
    for l in lines.by_ref() {
        if l.is_empty() {
            break;
        }
        rows.push(
            l.split_whitespace()
                .map(|v| v.parse().unwrap())
                .collect::<Vec<u64>>(),
        );
    }
    let score = |k: &str| -> u64 {
        let l = out.lines().find(|l| l.starts_with(k)).expect(k);
        l[k.len()..].trim().parse().unwrap()
    };
    (
        rows,
        score("Final score for writes:"),
        score("Final score for reads :"),
    )
}

/// `out` (a run of `-i 2` in `dir`) has blogbench 1.2's lines alone (the fixture captured from
/// it), word for word with any number in place of its numbers.
fn upstream_shape(out: &str, dir: &str) {
    let theirs = std::fs::read_to_string(format!(
        "{}/tests/fixtures/blogbench-1.2/d-i2-s1.txt",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let words = |s: &str| -> Vec<Vec<String>> {
        s.lines()
            .map(|l| {
                l.split_whitespace()
                    .map(|w| match w.parse::<u64>() {
                        Ok(_) => "N".to_string(),
                        Err(_) => w.to_string(),
                    })
                    .collect()
            })
            .collect()
    };
    let ours = out.replace(&format!("[{dir}]"), "[/tmp/blogs]");
    assert_eq!(words(&ours), words(&theirs), "{out}");
    assert!(out.ends_with("\n\n"), "{out:?}");
}

#[test]
fn blogbench_seed_line_scores_and_layout() {
    let d = Scratch::new("blogbench-seed");
    let dir = d.s("scratch");
    let res = d.s("r.json");
    // The seed line, shrunk by appended flags (later flags win); -d does not exist yet.
    let seed = seed_line("blogbench");
    let mut args: Vec<&str> = vec!["blogbench"];
    args.extend(seed.split_whitespace());
    args.extend(["-d", &dir, "-i", "2", "-s", "1", "--result-file", &res]);
    let o = iomark(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.starts_with(&format!("\nFrequency = 1 secs\nScratch dir = [{dir}]\n")),
        "{out}"
    );
    for role in ["10 writers", "10 rewriters", "10 commenters", "10 readers"] {
        assert!(out.contains(&format!("Spawning {role}...\n")), "{out}");
    }
    let (rows, writes, reads) = table(&out);
    assert_eq!(rows.len(), 2, "{out}");
    assert!(rows.iter().all(|r| r.len() == 7));
    // The blog column is cumulative; the final write score is its last value.
    assert!(rows[0][0] <= rows[1][0]);
    assert_eq!(writes, rows[1][0]);
    assert!(writes > 0 && reads > 0, "{out}");
    upstream_shape(&out, &dir);
    // iomark's additions (the mode, latency per operation type) are on stderr.
    let err = stderr(&o);
    assert!(err.contains("missing-file probe"), "{err}");
    assert!(err.contains("Mode (iomark): upstream"), "{err}");
    // The result file counts the same blogs, and has latency per operation type.
    let r: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&res).unwrap()).unwrap();
    let job = |n: &str| {
        r["jobs"]
            .as_array()
            .unwrap()
            .iter()
            .find(|j| j["name"] == n)
            .unwrap_or_else(|| panic!("{n}"))
            .clone()
    };
    let total = |n: &str, d: &str| job(n)["dirs"][d]["total_ios"].as_u64().unwrap();
    assert_eq!(total("blogbench-blogs-written", "write"), writes);
    assert_eq!(total("blogbench-blogs-read", "read"), reads);
    let articles: u64 = rows.iter().map(|r| r[2]).sum();
    assert_eq!(total("blogbench-articles-written", "write"), articles);
    assert_eq!(
        job("blogbench-articles-written")["series"]["iops"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
    for op in ["mkdir", "create", "write", "rename"] {
        assert!(total(&format!("blogbench-{op}"), "write") > 0, "{op}");
    }
    for op in ["open", "read", "missing-file-probe"] {
        assert!(total(&format!("blogbench-{op}"), "read") > 0, "{op}");
    }
    // Layout: blog-N directories of article-K.xml, picture-K.jpg, comment-K.xml; no
    // temporary file left; at least as many blogs as the write score.
    let mut blogs = 0;
    for e in std::fs::read_dir(&dir).unwrap() {
        let e = e.unwrap();
        let name = e.file_name().into_string().unwrap();
        assert!(name.starts_with("blog-") && e.path().is_dir(), "{name}");
        blogs += 1;
        for f in std::fs::read_dir(e.path()).unwrap() {
            let f = f.unwrap().file_name().into_string().unwrap();
            let (kind, rest) = f.split_once('-').unwrap();
            let (n, ext) = rest.split_once('.').unwrap();
            assert!(
                n.parse::<u32>().is_ok_and(|n| (1..=100).contains(&n)),
                "{f}"
            );
            let ok = matches!(
                (kind, ext),
                ("article", "xml") | ("picture", "jpg") | ("comment", "xml")
            );
            assert!(ok, "{f}");
        }
    }
    assert!(blogs >= writes, "{blogs} < {writes}");
}

#[test]
fn blogbench_bad_input_is_refused_and_writes_nothing() {
    let d = Scratch::new("blogbench-bad");
    let full = d.s("full");
    std::fs::create_dir(&full).unwrap();
    std::fs::write(d.file("full/keep"), b"x").unwrap();
    let missing_parent = d.s("no/such/dir");
    for (args, needle) in [
        (
            vec!["blogbench", "-d", full.as_str(), "-i", "1", "-s", "1"],
            "--allow-nonempty",
        ),
        (vec!["blogbench", "-d", full.as_str(), "-k", "1"], "-k"),
        (
            vec!["blogbench", "-d", full.as_str(), "--reader=2"],
            "--readers",
        ),
        (vec!["blogbench", "-d", full.as_str(), "-i", "zero"], "-i"),
        (vec!["blogbench", "-i", "1"], "-d"),
        (
            vec![
                "blogbench",
                "-d",
                missing_parent.as_str(),
                "-i",
                "1",
                "-s",
                "1",
            ],
            "no/such/dir",
        ),
    ] {
        let o = iomark(&args);
        assert!(!o.status.success(), "{args:?}");
        assert!(stderr(&o).contains(needle), "{args:?}: {}", stderr(&o));
        let names: Vec<_> = std::fs::read_dir(&full)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("keep")], "{args:?}");
    }
    assert!(!d.file("no").exists());
}

#[test]
fn blogbench_unwritable_directory_is_refused_and_writes_nothing() {
    let ro = ReadOnlyDir::new("blogbench-ro");
    let dir = ro.s();
    let sub = format!("{dir}/sub");
    for (d, needle) in [
        (dir.as_str(), "cannot create files there"),
        (sub.as_str(), "cannot create the directory"),
    ] {
        let o = iomark(&["blogbench", "-d", d, "-i", "1", "-s", "1"]);
        assert!(!o.status.success(), "{d}: {}", stdout(&o));
        let e = stderr(&o);
        assert!(
            e.contains("-d") && e.contains(d) && e.contains(needle),
            "{e}"
        );
        assert!(!stdout(&o).contains("Final score"), "{}", stdout(&o));
        assert_eq!(ro.entries(), 0, "{d}");
    }
}

/// The reads of blog files in an strace (`-ff`: one file per thread, so no call is split
/// across lines; `-y`: descriptors carry their paths) of `iomark blogbench ARGS`, as
/// (requested, returned) sizes; and its stdout.
/// The reads of blog files traced in a short run, and the run's stdout and stderr.
fn blog_reads(d: &Scratch, extra: &[&str]) -> (Vec<(u64, u64)>, String, String) {
    let dir = d.s(&format!("blogs{}", extra.len()));
    let stem = d.s("trace");
    // Five 1 s iterations with three writers: readers find no blog at first and back off a
    // second, and upstream's readers take only blogs 1 and up of the finished ones (its
    // commenter, writing into blog 0 from the start, competes with the writers for the CPU).
    let o = std::process::Command::new("strace")
        .args(["-ff", "-y", "-qq", "-e", "trace=read", "-o", &stem])
        .arg(bin())
        .args(["blogbench", "-d", &dir, "-i", "5", "-s", "1"])
        .args(["-w", "3", "-W", "1", "-c", "1", "-r", "2"])
        .args(extra)
        .bounded_output()
        .unwrap_or_else(|e| panic!("strace (package strace): {e}"));
    assert!(o.status.success(), "{}", stderr(&o));
    let mut reads = Vec::new();
    for e in std::fs::read_dir(&d.path).unwrap() {
        let p = e.unwrap().path();
        if !p
            .file_name()
            .unwrap()
            .to_string_lossy()
            .starts_with("trace.")
        {
            continue;
        }
        // `read(5</d/blog-3/article-1.xml>, "..."..., 8)   = 8`
        for l in std::fs::read_to_string(&p).unwrap().lines() {
            if !(l.starts_with("read(") && l.contains("/blog-")) {
                continue;
            }
            let Some((call, ret)) = l.rsplit_once(')') else {
                continue;
            };
            let asked = call.rsplit_once(", ").and_then(|(_, n)| n.parse().ok());
            let got = ret.trim().strip_prefix("= ").and_then(|n| n.parse().ok());
            if let (Some(asked), Some(got)) = (asked, got) {
                reads.push((asked, got));
            }
        }
        std::fs::remove_file(&p).unwrap();
    }
    (reads, stdout(&o), stderr(&o))
}

#[test]
fn blogbench_reads_as_upstream_by_default_and_as_intended_with_fixed() {
    let d = Scratch::new("blogbench-modes");
    // Upstream 1.2 reads `sizeof garbage` (a pointer: 8 bytes) per call.
    let (up, out, err) = blog_reads(&d, &[]);
    assert!(!up.is_empty(), "no read of a blog file traced");
    assert!(
        up.iter().all(|&(asked, got)| asked == 8 && got <= 8),
        "{up:?}"
    );
    assert!(
        err.contains("Mode (iomark): upstream blogbench 1.2"),
        "{err}"
    );
    // The mode line is on stderr: stdout ends with blogbench's own last lines (the scores).
    assert!(
        !out.contains("Mode (iomark)") && !out.contains("Latency per operation"),
        "{out}"
    );
    assert!(out
        .trim_end()
        .lines()
        .last()
        .unwrap()
        .starts_with("Final score for reads :"));
    // --fixed: the 64 KiB buffer.
    let (fixed, _, err) = blog_reads(&d, &["--fixed"]);
    assert!(!fixed.is_empty(), "no read of a blog file traced");
    assert!(fixed.iter().all(|&(asked, _)| asked == 65536), "{fixed:?}");
    assert!(fixed.iter().any(|&(_, got)| got > 8), "{fixed:?}");
    assert!(err.contains("Mode (iomark): fixed"), "{err}");
}
