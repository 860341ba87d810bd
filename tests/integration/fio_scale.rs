//! Work that grows with the job (issue 25): a long job file, timed at two sizes four times apart
//! (linear work takes about four times as long, the quadratic work it replaced sixteen), and
//! many files, timed beside fio on the same job.

use crate::util::*;
use std::time::Instant;

/// Wall time of `iomark ARGS` in `cwd`, which must succeed.
fn timed(args: &[&str], cwd: &std::path::Path) -> f64 {
    let t = Instant::now();
    let o = iomark_in(args, cwd);
    ok(&o);
    t.elapsed().as_secs_f64()
}

/// One job of `lines` option lines (it took over 120 s to read 40,000 of them).
#[test]
fn a_long_job_file_parses_in_linear_time() {
    let d = Scratch::new("longjob");
    for n in [10_000, 40_000] {
        let mut text = String::from("[global]\nioengine=null\nsize=1m\n[j]\n");
        for i in 0..n {
            text.push_str(&format!("bs={}k\n", 4 + (i % 4) * 4));
        }
        std::fs::write(d.file(&format!("j{n}.fio")), text).unwrap();
    }
    let small = timed(&["run", "--parse-only", "j10000.fio"], &d.path);
    let big = timed(&["run", "--parse-only", "j40000.fio"], &d.path);
    assert!(
        big < small * 8.0,
        "10,000 lines {small:.3} s, 40,000 lines {big:.3} s"
    );
}

/// nrfiles on the null engine and filecreate, beside fio on the same job: the per-file checks
/// are asked once per directory, and the targets gathered without comparing each with all the
/// others (40,000 files on the null engine took 24 s, fio 0.9 s).
#[test]
fn many_files_take_no_longer_than_with_fio() {
    let d = Scratch::new("manyfiles");
    let run = |tool: &str, engine: &str| -> f64 {
        let dir = d.file(&format!("{tool}-{engine}"));
        std::fs::create_dir(&dir).unwrap();
        let n = 20_000;
        let args = [
            "--name=m".to_string(),
            format!("--ioengine={engine}"),
            format!("--nrfiles={n}"),
            format!("--size={}", n * 4096),
            format!("--directory={}", dir.display()),
            "--openfiles=1000".to_string(),
            "--output-format=json".to_string(),
        ];
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let t = Instant::now();
        let o = run_tool(tool, &args, &d.path);
        let took = t.elapsed().as_secs_f64();
        let v = tool_json(tool, &o);
        assert!(u(&job(&v, 0)["read"]["total_ios"]) >= n, "{tool} {engine}");
        if engine == "filecreate" {
            assert_eq!(
                std::fs::read_dir(&dir).unwrap().count(),
                n as usize,
                "{tool}"
            );
        }
        took
    };
    for engine in ["null", "filecreate"] {
        let theirs = run("fio", engine);
        let ours = run("iomark", engine);
        assert!(
            ours < theirs * 3.0,
            "{engine}: iomark {ours:.3} s, fio {theirs:.3} s"
        );
    }
}

/// The system calls on file names (strace's %file: open, stat, readlink, ...) a filecreate job
/// makes, at 1,000 files and at 4,000 in a fresh directory, beside fio: the calls per file do
/// not grow with the number of files (the checks and the disk lookup are not repeated per file
/// against the others, and the walk through sysfs for the disk is made once per filesystem),
/// and stay within a few of fio's (which opens and closes each file).
#[test]
fn filecreate_makes_the_same_calls_per_file_at_any_file_count() {
    let d = Scratch::new("percall");
    let calls = |tool: &str, n: u64| -> u64 {
        let dir = d.file(&format!("{tool}-{n}"));
        std::fs::create_dir(&dir).unwrap();
        let args = [
            "--name=c".to_string(),
            "--ioengine=filecreate".to_string(),
            format!("--nrfiles={n}"),
            "--filesize=4k".to_string(),
            "--openfiles=1000".to_string(),
            format!("--directory={}", dir.display()),
        ];
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let trace = strace_tool(tool, "%file", &d.path, &args);
        std::fs::remove_dir_all(&dir).unwrap();
        trace
            .lines()
            .filter(|l| !l.contains("resumed>") && !l.starts_with("+++"))
            .count() as u64
    };
    let per_file = |tool: &str| -> (f64, f64) {
        let small = calls(tool, 1_000);
        let big = calls(tool, 4_000);
        assert!(
            big > small,
            "{tool}: {small} calls at 1,000 files, {big} at 4,000"
        );
        (small as f64 / 1_000.0, (big - small) as f64 / 3_000.0)
    };
    let (fio_avg, fio_added) = per_file("fio");
    let (avg, added) = per_file("iomark");
    assert!(
        added <= avg + 0.5,
        "iomark: {avg:.2} calls per file at 1,000 files, {added:.2} per added file up to 4,000"
    );
    assert!(
        added <= fio_added + 4.0,
        "iomark {added:.2} calls per added file, fio {fio_added:.2} (fio {fio_avg:.2} per file at 1,000)"
    );
}
