//! Every command shown in the README and the guide runs, so the documentation cannot go stale.
//! The commands of each Markdown file run in order in one scratch directory (HOME too), with
//! the example files of `tests/fixtures/docs/` in it, after the rewrite that docs/README.md
//! describes ("How the examples are tested"): example paths taken inside the scratch
//! directory, sizes and times shrunk. Blocks marked `needs-root` run with a loop device standing
//! for the disks they name, `needs-ceph` against the tests' Ceph cluster, `needs-mpi` under
//! mpirun with the MPI build; `not-run: REASON` blocks are never run (the fast tier checks that
//! every block has a known mark).

use crate::blockdev::{root_required, Loop};
use crate::docs_rewrite::{rewrite, Rewritten};
use crate::markdown::{blocks, commands, doc_files, mark, root, table_commands, table_mark, Mark};
use crate::util::*;
use std::path::{Path, PathBuf};
use std::process::Command;

/// One command to run, and where it comes from.
struct Example {
    file: PathBuf,
    line: usize,
    mark: Mark,
    command: String,
}

fn examples(want: &[Mark]) -> Vec<Example> {
    let mut v = Vec::new();
    for f in doc_files() {
        let text = std::fs::read_to_string(&f).unwrap();
        let mut found = Vec::new();
        for b in blocks(&text) {
            let Some(Ok(m)) = mark(&b.info) else {
                continue;
            };
            if !want.contains(&m) {
                continue;
            }
            for (i, c) in commands(&b.body) {
                found.push(Example {
                    file: f.clone(),
                    line: b.line + 1 + i,
                    mark: m.clone(),
                    command: c,
                });
            }
        }
        for (line, c) in table_commands(&text) {
            let m = table_mark(&c);
            if want.contains(&m) {
                found.push(Example {
                    file: f.clone(),
                    line,
                    mark: m,
                    command: c,
                });
            }
        }
        found.sort_by_key(|e| e.line);
        v.append(&mut found);
    }
    v
}

/// A scratch directory holding the example files.
fn chapter_dir(tag: &str) -> Scratch {
    let d = Scratch::new(tag);
    let fx = root().join("tests/fixtures/docs");
    for e in std::fs::read_dir(&fx).unwrap().flatten() {
        std::fs::copy(e.path(), d.file(&e.file_name().to_string_lossy())).unwrap();
    }
    d
}

/// Runs one rewritten command with bash in `dir`; returns a failure message or None.
fn run(ex: &Example, r: &Rewritten, dir: &Path, env: &[(&str, String)]) -> Option<String> {
    for p in &r.dirs {
        std::fs::create_dir_all(p).unwrap();
    }
    let bin_dir = bin().parent().unwrap().to_path_buf();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut c = Command::new("bash");
    c.args(["-o", "pipefail", "-c", &r.command])
        .current_dir(dir)
        .env("PATH", path)
        .env("HOME", dir)
        .env_remove("IOMARK_STORE")
        .env_remove("XDG_DATA_HOME");
    for (k, v) in env {
        c.env(k, v);
    }
    let t0 = std::time::Instant::now();
    let o = c.bounded_output().expect("bash");
    eprintln!("{:>6.1} s  {}", t0.elapsed().as_secs_f64(), r.command);
    let code = o.status.code();
    if code == Some(0) || r.verdicts.contains(&code.unwrap_or(-1)) {
        return None;
    }
    Some(format!(
        "{}:{} ({:?}): {}\n  ran: {}\n  status {:?}\n  stderr: {}",
        ex.file.strip_prefix(root()).unwrap_or(&ex.file).display(),
        ex.line,
        ex.mark,
        ex.command.trim(),
        r.command,
        code,
        stderr(&o)
            .lines()
            .take(8)
            .collect::<Vec<_>>()
            .join("\n          ")
    ))
}

/// Runs the examples file by file, each file in a scratch directory of its own.
fn run_all(list: &[Example], tag: &str, device: Option<&str>, env: &[(&str, String)]) {
    let mut failures = Vec::new();
    let mut current: Option<(PathBuf, Scratch)> = None;
    for ex in list {
        if current.as_ref().map(|(f, _)| f) != Some(&ex.file) {
            current = Some((ex.file.clone(), chapter_dir(tag)));
        }
        let dir = &current.as_ref().unwrap().1.path;
        match rewrite(&ex.command, dir, device) {
            Ok(r) => failures.extend(run(ex, &r, dir, env)),
            Err(e) => failures.push(format!(
                "{}:{}: {e}: {}",
                ex.file.display(),
                ex.line,
                ex.command
            )),
        }
    }
    assert!(
        failures.is_empty(),
        "{} documented commands failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The plain examples of one Markdown file (relative to the repository).
fn run_file(rel: &str) {
    let list: Vec<Example> = examples(&[Mark::Run])
        .into_iter()
        .filter(|e| e.file == root().join(rel))
        .collect();
    assert!(!list.is_empty(), "{rel} has no example to run");
    run_all(&list, "docs", None, &[]);
}

/// One test per file, so the files' examples run side by side.
macro_rules! doc_tests {
    ($($name:ident: $file:literal,)*) => {
        $(
            #[test]
            fn $name() {
                run_file($file);
            }
        )*
        /// Every file with examples to run has its test above.
        #[test]
        fn docs_every_file_with_examples_has_its_test() {
            let listed = [$($file),*];
            let mut with = Vec::new();
            for e in examples(&[Mark::Run]) {
                let rel = e.file.strip_prefix(root()).unwrap().display().to_string();
                if !with.contains(&rel) {
                    with.push(rel);
                }
            }
            for f in &with {
                assert!(listed.contains(&f.as_str()), "no test runs the examples of {f}");
            }
            assert!(examples(&[Mark::Run]).len() > 80);
        }
    };
}

doc_tests! {
    docs_readme: "README.md",
    docs_install: "docs/install.md",
    docs_first_picture: "docs/first-picture.md",
    docs_fio_jobs: "docs/fio-jobs.md",
    docs_classic_tools: "docs/classic-tools.md",
    docs_cloud_disks: "docs/cloud-disks.md",
    docs_comparing: "docs/comparing.md",
    docs_reports: "docs/reports.md",
    docs_history: "docs/history.md",
    docs_clusters: "docs/clusters.md",
}

#[test]
fn docs_commands_needing_a_device_run_on_a_loop_device() {
    root_required();
    let list = examples(&[Mark::NeedsRoot]);
    assert!(!list.is_empty());
    let lo = Loop::new("docs-dev", 256 << 20, false);
    run_all(&list, "docs-dev", Some(&lo.dev), &[]);
}

#[test]
fn docs_commands_needing_ceph_run_on_the_test_cluster() {
    let dir = std::env::var_os("IOMARK_TEST_CEPH").map(PathBuf::from);
    let conf = match dir {
        Some(d) if d.join("ceph.conf").is_file() => d.join("ceph.conf"),
        _ => panic!(
            "the Ceph examples need the test cluster: run them through scripts/test, which \
             starts it (scripts/ceph-cluster start DIR; export IOMARK_TEST_CEPH=DIR)"
        ),
    };
    let list = examples(&[Mark::NeedsCeph]);
    assert!(!list.is_empty());
    let rbd = |args: &[&str]| {
        Command::new("rbd")
            .args(args)
            .env("CEPH_CONF", &conf)
            .bounded_output()
            .expect("rbd (scripts/test installs ceph-common)")
    };
    // The examples' image `img` in the pool `rbd`: 64 MiB, made afresh.
    let _ = rbd(&["rm", "--no-progress", "rbd/img"]);
    ok(&rbd(&["create", "-s", "64M", "rbd/img"]));
    let conf_s = conf.display().to_string();
    let result = std::panic::catch_unwind(|| {
        run_all(&list, "docs-ceph", None, &[("CEPH_CONF", conf_s.clone())])
    });
    let _ = rbd(&["rm", "--no-progress", "rbd/img"]);
    if let Err(e) = result {
        std::panic::resume_unwind(e);
    }
}

#[cfg(feature = "mpi")]
#[test]
fn docs_commands_needing_mpi_run_under_mpirun() {
    let list = examples(&[Mark::NeedsMpi]);
    assert!(!list.is_empty());
    run_all(&list, "docs-mpi", None, &[]);
}
