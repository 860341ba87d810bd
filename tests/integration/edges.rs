//! Behaviour at the edges a newcomer meets first: output into a closed pipe, no arguments,
//! the version switches.

use crate::util::*;
use std::process::Command;

/// Runs `iomark ARGS | head -1` in bash; returns (iomark's exit status, iomark's stderr).
fn into_head(args: &str, cwd: &std::path::Path) -> (i32, String) {
    let script = format!(
        "'{}' {args} 2>stderr.txt | head -1 >/dev/null; echo ${{PIPESTATUS[0]}}",
        bin().display()
    );
    let o = Command::new("bash")
        .args(["-c", &script])
        .current_dir(cwd)
        .bounded_output()
        .unwrap();
    let code = stdout(&o).trim().parse().unwrap();
    let err = std::fs::read_to_string(cwd.join("stderr.txt")).unwrap_or_default();
    (code, err)
}

#[test]
fn a_closed_pipe_never_panics() {
    let dir = Scratch::new("pipe");
    // Texts: always status 0, nothing on stderr.
    for args in ["--help", "--version", "man", "run --help", "quick --help"] {
        for _ in 0..30 {
            let (code, err) = into_head(args, &dir.path);
            assert_eq!((code, err.as_str()), (0, ""), "iomark {args} | head -1");
        }
    }
    // A run's report: a quiet end, by SIGPIPE (141) or after writing it all (0).
    let run = format!(
        "run --name=p --filename={} --size=1m --rw=read --bs=4k --output-format=json+",
        dir.s("f")
    );
    for _ in 0..10 {
        let (code, err) = into_head(&run, &dir.path);
        assert!(
            code == 0 || code == 141,
            "iomark {run} | head -1: {code}\n{err}"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn no_arguments_is_a_usage_error_and_help_is_not() {
    let o = iomark(&[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stdout(&o).is_empty());
    assert!(stderr(&o).contains("Usage:"), "{}", stderr(&o));
    let h = iomark(&["--help"]);
    assert_eq!(h.status.code(), Some(0));
    assert!(stdout(&h).contains("Usage:"));
    // The same text either way.
    assert_eq!(stdout(&h), stderr(&o));
    let u = iomark(&["nonsense"]);
    assert_eq!(u.status.code(), Some(2));
}

#[test]
fn top_level_help_names_the_version_switches() {
    let h = stdout(&iomark(&["--help"]));
    assert!(h.contains("--version | -v"), "{h}");
    for v in ["-v", "-V", "--version"] {
        let o = iomark(&[v]);
        ok(&o);
        assert!(stdout(&o).starts_with("iomark-"), "{v}: {}", stdout(&o));
    }
}

#[test]
fn a_missing_directory_is_found_before_the_header() {
    let o = iomark(&[
        "run",
        "--name=x",
        "--filename=/nonexistent-iomark-dir/t",
        "--size=1m",
        "--rw=read",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o), "", "nothing of the run is printed");
    assert!(
        stderr(&o).contains("/nonexistent-iomark-dir"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_data_file_named_by_iomark_is_announced() {
    let cwd = Scratch::new("datafile");
    let o = iomark_in(&["run", "--name=x", "--size=1m", "--rw=read"], &cwd.path);
    ok(&o);
    let file = cwd.file("x.0.0");
    // In the output's notes (stderr stays empty on success, as with fio).
    let e = stdout(&o);
    assert!(
        e.contains(&format!("data file {}", file.display())) && e.contains("kept"),
        "{e}"
    );
    assert!(file.exists());
    // The file exists before this run: unlink removes it only when allowed to.
    let o = iomark_in(
        &[
            "run",
            "--allow-unlink-existing",
            "--name=x",
            "--size=1m",
            "--rw=read",
            "--unlink=1",
        ],
        &cwd.path,
    );
    ok(&o);
    assert!(stdout(&o).contains("x.0.0 (named JOB.N.M as fio does): removed"));
    assert!(!file.exists());
    // A file the user named is not announced.
    let o = iomark_in(
        &["run", "--name=x", "--filename=f", "--size=1m", "--rw=read"],
        &cwd.path,
    );
    ok(&o);
    assert!(!stdout(&o).contains("data file"), "{}", stdout(&o));
}

#[test]
fn quick_usage_errors_name_the_program() {
    let o = iomark(&["quick", "--bogus"]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(
        e.starts_with("iomark quick: unknown option '--bogus'"),
        "{e}"
    );
}

#[test]
fn quick_on_an_existing_file_reports_its_real_size() {
    let dir = Scratch::new("quick-size");
    let f = dir.file("existing");
    std::fs::write(&f, vec![7u8; 8 << 20]).unwrap();
    let o = iomark_in(
        &[
            "quick",
            f.to_str().unwrap(),
            "--json",
            "--runtime=200ms",
            "--ramp=0",
        ],
        &dir.path,
    );
    let v = json(&o);
    assert_eq!(u(&v["size_bytes"]), 8 << 20, "{v}");
}

#[test]
fn quick_interrupted_says_so_in_json() {
    let dir = Scratch::new("quick-int");
    let child = Command::new(bin())
        .args([
            "quick",
            dir.path.to_str().unwrap(),
            "--json",
            "--size=16m",
            "--runtime=3s",
            "--ramp=0",
        ])
        .current_dir(&dir.path)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    // SAFETY: signalling the child started above.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(130), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["interrupted"], true, "{v}");
    let tests = v["tests"].as_array().unwrap();
    assert_eq!(
        tests.iter().filter(|t| t["partial"] == true).count(),
        1,
        "{v}"
    );
    // Nothing is left behind: the temporary file was removed, and quick says so.
    assert!(
        stderr(&o).contains("removed the temporary file"),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read_dir(&dir.path).unwrap().count(), 0);
}

#[test]
fn quick_without_a_terminal_reports_each_finished_test() {
    let dir = Scratch::new("quick-lines");
    let o = iomark_in(
        &[
            "quick",
            dir.path.to_str().unwrap(),
            "--size=16m",
            "--runtime=200ms",
            "--ramp=0",
        ],
        &dir.path,
    );
    ok(&o);
    let e = stderr(&o);
    for i in 1..=8 {
        assert!(e.contains(&format!("test {i} of 8 done: ")), "{e}");
    }
    assert!(e.contains("test 8 of 8 done: RND4K-Q1T1-write ("), "{e}");
}

#[test]
fn bash_completion_is_valid_and_lists_the_options() {
    let s = stdout(&iomark(&["completions", "bash"]));
    let dir = Scratch::new("compl");
    let f = dir.file("iomark.bash");
    std::fs::write(&f, &s).unwrap();
    let o = Command::new("bash")
        .arg("-n")
        .arg(&f)
        .bounded_output()
        .unwrap();
    assert!(o.status.success(), "bash -n: {}", stderr(&o));
    // Complete `iomark run --rw` and `iomark qu` in bash itself.
    let script = format!(
        ". '{}'; COMP_WORDS=(iomark run --rw); COMP_CWORD=2; _iomark; echo \"${{COMPREPLY[@]}}\"; \
         COMP_WORDS=(iomark qu); COMP_CWORD=1; _iomark; echo \"${{COMPREPLY[@]}}\"",
        f.display()
    );
    let o = Command::new("bash")
        .args(["-c", &script])
        .bounded_output()
        .unwrap();
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].split(' ').any(|w| w == "--rw="), "{out}");
    assert!(lines[0].split(' ').any(|w| w == "--rwmixread="), "{out}");
    assert_eq!(lines[1], "quick", "{out}");
    // Each command completes its own options, values from the tables and preset names; `=`
    // is a word of its own in bash (COMP_WORDBREAKS), or part of the word.
    let complete = |words: &[&str]| {
        let script = format!(
            ". '{}'; COMP_WORDS=({}); COMP_CWORD={}; _iomark; echo \"${{COMPREPLY[@]}}\"",
            f.display(),
            words
                .iter()
                .map(|w| format!("'{w}'"))
                .collect::<Vec<_>>()
                .join(" "),
            words.len() - 1
        );
        let o = Command::new("bash")
            .args(["-c", &script])
            .bounded_output()
            .unwrap();
        stdout(&o).trim().to_string()
    };
    let has = |out: &str, w: &str| out.split(' ').any(|x| x == w);
    let out = complete(&["iomark", "run", "--rw", "=", "rand"]);
    assert!(
        has(&out, "randread") && has(&out, "randrw") && !has(&out, "read"),
        "{out}"
    );
    let out = complete(&["iomark", "run", "--ioengine=io"]);
    assert_eq!(out, "--ioengine=io_uring");
    let out = complete(&["iomark", "iozone", "-"]);
    assert!(
        has(&out, "-i") && has(&out, "-+u") && !has(&out, "--rw="),
        "{out}"
    );
    let out = complete(&["iomark", "bonnie", "-"]);
    assert!(
        has(&out, "-d") && has(&out, "-D") && !has(&out, "--bs="),
        "{out}"
    );
    let out = complete(&["iomark", "dd", "i"]);
    assert_eq!(out, "ibs= if= iflag=");
    let out = complete(&["iomark", "preset", "run", "cdm-n"]);
    assert_eq!(out, "cdm-nvme");
    let out = complete(&["iomark", "preset", "s"]);
    assert_eq!(out, "show");
    let out = complete(&["iomark", "man", "ioz"]);
    assert_eq!(out, "iozone");
    // Every option of the table and the switches are offered.
    for w in [
        "--bs=",
        "--iodepth=",
        "--output-format=",
        "--readonly",
        "--time_based=",
    ] {
        assert!(s.contains(&format!(" {w} ")), "{w} missing");
    }
    for sh in ["zsh", "fish"] {
        let t = stdout(&iomark(&["completions", sh]));
        assert!(t.contains("rwmixread"), "{sh}");
    }
    assert_eq!(iomark(&["completions", "tcsh"]).status.code(), Some(2));
}

/// The commands `iomark --help` lists (`  iomark WORD ...` lines), so a new command is covered
/// as soon as it is in the usage.
fn commands_in_usage() -> Vec<String> {
    let usage = stdout(&iomark(&["--help"]));
    let mut cmds: Vec<String> = Vec::new();
    for line in usage.lines() {
        let Some(rest) = line.strip_prefix("  iomark ") else {
            continue;
        };
        let word = rest.split_whitespace().next().unwrap_or("");
        if word.starts_with(|c: char| c.is_ascii_lowercase()) && !cmds.iter().any(|c| c == word) {
            cmds.push(word.to_string());
        }
    }
    cmds
}

#[test]
fn every_command_help_ends_quietly_on_a_closed_pipe() {
    let cmds = commands_in_usage();
    for c in [
        "quick",
        "run",
        "dd",
        "hdparm",
        "bonnie",
        "completions",
        "report",
    ] {
        assert!(cmds.iter().any(|x| x == c), "{c} not in {cmds:?}");
    }
    for c in &cmds {
        // The reader is gone before iomark writes: every write fails with EPIPE.
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let o = Command::new(bin())
            .args([c.as_str(), "--help"])
            .stdout(writer)
            .bounded_output()
            .unwrap();
        assert_eq!(
            (o.status.code(), stderr(&o).as_str()),
            (Some(0), ""),
            "iomark {c} --help into a closed pipe"
        );
        // And with a reader, the help is on stdout.
        let o = iomark(&[c.as_str(), "--help"]);
        assert!(
            o.status.success() && !o.stdout.is_empty(),
            "iomark {c} --help"
        );
    }
}

/// Runs `shell ARGS...`; fails naming the package when the shell is missing.
fn shell(name: &str, args: &[&str]) -> std::process::Output {
    Command::new(name).args(args).bounded_output().unwrap_or_else(|e| {
        panic!("{name} is needed by this test ({e}); install the {name} package (scripts/test does as root)")
    })
}

#[test]
fn zsh_and_fish_accept_their_completion_scripts_and_complete() {
    let dir = Scratch::new("compl-sh");
    let zf = dir.file("_iomark");
    std::fs::write(&zf, stdout(&iomark(&["completions", "zsh"]))).unwrap();
    let ff = dir.file("iomark.fish");
    std::fs::write(&ff, stdout(&iomark(&["completions", "fish"]))).unwrap();

    let o = shell("zsh", &["-n", zf.to_str().unwrap()]);
    assert!(o.status.success(), "zsh -n: {}", stderr(&o));
    let o = shell("fish", &["--no-execute", ff.to_str().unwrap()]);
    assert!(o.status.success(), "fish --no-execute: {}", stderr(&o));

    // zsh: the completion function, with the completion system's builtins standing in as
    // functions that print what they were given.
    let script = format!(
        "compdef() {{ :; }}; compadd() {{ print -r -- \"compadd $*\"; }}; _files() {{ print _files; }}; \
         iomark() {{ print -r -- 'ID  TIME'; print -r -- '@5  2026-11-01'; }}; \
         source '{}'; CURRENT=2; PREFIX=qu; _iomark; CURRENT=3; PREFIX=--rw; _iomark; \
         CURRENT=3; PREFIX=/tm; _iomark; words=(iomark show ''); CURRENT=3; PREFIX=''; _iomark; \
         words=(iomark compare ''); _iomark",
        zf.display()
    );
    let o = shell("zsh", &["-f", "-c", &script]);
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 5, "{out}{}", stderr(&o));
    // `show` takes store references; `compare` result files too.
    assert_eq!(
        lines[3], "compadd -- @last @last~1 @last~2 @last~3 @5",
        "{out}"
    );
    assert_eq!(lines[4], "_files", "{out}");
    assert!(lines[0].split(' ').any(|w| w == "quick"), "{out}");
    assert!(lines[1].split(' ').any(|w| w == "--rwmixread="), "{out}");
    assert_eq!(lines[2], "_files", "{out}");

    // fish: its own completion query.
    let script = format!(
        "source '{}'; complete -C 'iomark --rwmix'; echo ---; complete -C 'iomark qu'",
        ff.display()
    );
    let o = shell("fish", &["--no-config", "-c", &script]);
    let out = stdout(&o);
    let (opts, cmds) = out.split_once("---\n").unwrap_or_else(|| panic!("{out}"));
    let opts: Vec<&str> = opts
        .lines()
        .map(|l| l.split('\t').next().unwrap())
        .collect();
    assert!(opts.contains(&"--rwmixread"), "{out}");
    assert!(opts.contains(&"--rwmixwrite"), "{out}");
    assert_eq!(cmds.trim(), "quick", "{out}");
}
