//! Job files that ran under iomark but did something else than fio 3.33 (issue 25), each run
//! under both tools on the same job: a job that ends inside its ramp, percentage offsets and
//! sizes, compressible buffers with a pattern, `random_distribution=normal` without a sigma, and
//! the job-file spellings `[job1]]`, `size=100%%` and `bs=4k-512k`.

use crate::util::*;
use serde_json::Value;
use std::path::Path;

/// Runs `tool` ("fio" or "iomark") with `args` in a fresh scratch directory holding a 64 MiB
/// file `o.dat` (written by fio's layout, so both tools start from the same file); the sorted
/// (offset, length) pairs of the reads and writes its I/O log recorded, and its JSON.
fn logged(tool: &str, args: &[&str]) -> (Vec<(u64, u64)>, Value) {
    let d = Scratch::new("silent3");
    std::fs::write(d.file("o.dat"), vec![0x5a; 64 << 20]).unwrap();
    let mut a = vec!["--output-format=json", "--write_iolog=io.log"];
    a.extend_from_slice(args);
    let v = tool_json(tool, &run_tool(tool, &a, &d.path));
    (log_ios(&d.file("io.log")), v)
}

fn log_ios(p: &Path) -> Vec<(u64, u64)> {
    let text = std::fs::read_to_string(p).unwrap();
    let mut v: Vec<(u64, u64)> = text
        .lines()
        .filter_map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            match w.as_slice() {
                [_, _, "read" | "write", off, len] => Some((off.parse().ok()?, len.parse().ok()?)),
                _ => None,
            }
        })
        .collect();
    v.sort_unstable();
    v
}

/// A 16 MiB write with `ramp_time=2` ends inside the ramp: fio counts its 16 I/Os (it reported
/// none under iomark before).
#[test]
fn a_job_that_ends_inside_its_ramp_keeps_its_io() {
    let d = Scratch::new("ramp");
    let fname = format!("--filename={}", d.s("r.dat"));
    let args = [
        "--name=r",
        &fname,
        "--size=16m",
        "--bs=1m",
        "--rw=write",
        "--ramp_time=2",
    ];
    let (fv, iv) = both_json("ramp", &args);
    let (fw, iw) = (&job(&fv, 0)["write"], &job(&iv, 0)["write"]);
    assert_eq!(u(&fw["total_ios"]), 16);
    assert_eq!(u(&iw["total_ios"]), u(&fw["total_ios"]));
    assert_eq!(u(&iw["io_bytes"]), u(&fw["io_bytes"]));
    assert!(u(&iw["runtime"]) > 0 && f(&iw["bw"]) > 0.0, "{iw}");
}

/// `offset=20%` of a 64 MiB file at 4 KiB is 13,422,592 (rounded up to the block size), not
/// 13,421,772.
#[test]
fn percentage_offset_rounds_up_to_the_block_size() {
    let args = [
        "--name=o",
        "--filename=o.dat",
        "--offset=20%",
        "--rw=read",
        "--bs=4k",
        "--number_ios=1",
    ];
    let (fl, _) = logged("fio", &args);
    let (il, _) = logged("iomark", &args);
    assert_eq!(fl, [(13_422_592, 4096)]);
    assert_eq!(il, fl);
}

/// `offset_increment` and `size` percentages: three clones of 10% each, 15% apart from byte
/// 1000, at 12 KiB blocks; the same reads as fio, block for block.
#[test]
fn percentage_increments_and_sizes_match_fio() {
    let args = [
        "--name=o",
        "--filename=o.dat",
        "--offset=1000",
        "--offset_increment=15%",
        "--size=10%",
        "--numjobs=3",
        "--rw=read",
        "--bs=12k",
    ];
    let (fl, _) = logged("fio", &args);
    let (il, _) = logged("iomark", &args);
    assert_eq!(il.len(), 3 * 546);
    // fio's three clones append to one log at once, so a few of its lines can run together:
    // every line that survives is one of iomark's.
    assert!(fl.len() > 3 * 500, "{}", fl.len());
    assert!(fl.iter().all(|x| il.binary_search(x).is_ok()));
    // Every clone starts on a 12 KiB boundary: 1000, 1000 + 15% and 1000 + 30%, rounded up.
    assert!(il.iter().all(|&(o, _)| o % 12288 == 0));
    for start in [12288, 10_076_160, 20_140_032] {
        assert!(il.binary_search(&(start, 12288)).is_ok(), "{start}");
    }
}

/// Compressible buffers with a pattern: each chunk random, then the pattern, rewritten on every
/// write; as fast as either option alone (it was 4-10 times slower), within a ratio of fio.
#[test]
fn compress_with_pattern_is_as_fast_as_without() {
    let d = Scratch::new_in("/dev/shm", "compress");
    let fname = format!("--filename={}", d.s("c.dat"));
    let run = |tool: &str, extra: &[&str]| -> f64 {
        let mut a = vec![
            "--output-format=json",
            "--name=c",
            &fname,
            "--size=256m",
            "--bs=128k",
            "--rw=write",
            "--buffer_compress_percentage=50",
        ];
        a.extend_from_slice(extra);
        let v = tool_json(tool, &run_tool(tool, &a, &d.path));
        f(&job(&v, 0)["write"]["bw_bytes"])
    };
    let pattern = ["--buffer_pattern=0xdeadbeef"];
    let alone = run("iomark", &[]);
    let with = run("iomark", &pattern);
    let fio_with = run("fio", &pattern);
    assert!(
        with > alone * 0.5,
        "with a pattern {with} B/s, without {alone} B/s"
    );
    assert!(
        with > fio_with * 0.4,
        "iomark {with} B/s, fio {fio_with} B/s"
    );
    // The data: half of each 512-byte chunk is the pattern.
    let data = std::fs::read(d.file("c.dat")).unwrap();
    let tail = &data[256..512];
    assert!(
        tail.chunks(4).all(|c| c == [0xde, 0xad, 0xbe, 0xef]),
        "{tail:x?}"
    );
}

/// `random_distribution=normal` without a sigma runs (fio's default: the spread of its mean of
/// twelve uniform draws), and concentrates its reads as much as fio's do.
#[test]
fn normal_distribution_without_sigma() {
    let args = [
        "--name=n",
        "--filename=o.dat",
        "--size=16m",
        "--rw=randread",
        "--bs=4k",
        "--norandommap",
        "--random_distribution=normal",
        "--number_ios=4096",
    ];
    for tool in ["fio", "iomark"] {
        let (l, v) = logged(tool, &args);
        assert_eq!(u(&job(&v, 0)["read"]["total_ios"]), 4096, "{tool}");
        let distinct: std::collections::BTreeSet<u64> = l.iter().map(|x| x.0).collect();
        // Uniform reads touch about 2,600 of the 4,096 blocks; fio's normal about 1,330.
        let n = distinct.len();
        assert!((900..2000).contains(&n), "{tool}: {n} distinct blocks");
    }
}

/// `[job1]]` is the job "job1]"; `size=100%%` is 100 percent; `bs=4k-512k` is 4 KiB blocks
/// (fio reads the first size), with a warning naming bsrange.
#[test]
fn job_file_spellings_read_as_fio_reads_them() {
    let text = "[job1]]\nfilename=o.dat\nsize=100%%\nbs=4k-512k\nrw=read\nnumber_ios=8\n";
    let mut names = Vec::new();
    for tool in ["fio", "iomark"] {
        let d = Scratch::new("spell");
        std::fs::write(d.file("o.dat"), vec![0u8; 1 << 20]).unwrap();
        std::fs::write(d.file("s.fio"), text).unwrap();
        let o = run_tool(tool, &["--output-format=json", "s.fio"], &d.path);
        let v = tool_json(tool, &o);
        let j = job(&v, 0);
        names.push(j["jobname"].as_str().unwrap().to_string());
        assert_eq!(u(&j["read"]["total_ios"]), 8, "{tool}");
        assert_eq!(u(&j["read"]["io_bytes"]), 8 * 4096, "{tool}");
        if tool == "iomark" {
            let notes = v["iomark"]["notes"].to_string() + &stderr(&o);
            assert!(notes.contains("bsrange=4k-512k"), "{notes}");
        }
    }
    assert_eq!(names, ["job1]", "job1]"]);
}

/// An unset `${VAR}` expands to nothing, as in fio (`x${UNSET}y` is `xy`); a value it leaves
/// empty is refused naming the variable.
#[test]
fn unset_variables_are_named() {
    let d = Scratch::new("unset");
    std::fs::write(
        d.file("v.fio"),
        "[a]\nsize=64k\nfilename=x${IOMARK_TEST_UNSET_25}y\n",
    )
    .unwrap();
    std::fs::write(
        d.file("e.fio"),
        "[a]\nfilename=f\nsize=${IOMARK_TEST_UNSET_25}\n",
    )
    .unwrap();
    ok(&iomark_in(&["run", "v.fio"], &d.path));
    assert!(d.file("xy").exists());
    let o = iomark_in(&["run", "e.fio"], &d.path);
    assert_eq!(o.status.code(), Some(2));
    let all = stdout(&o) + &stderr(&o);
    assert!(
        all.contains("'${IOMARK_TEST_UNSET_25}' is not set"),
        "{all}"
    );
    let o = fio_in(&["e.fio"], &d.path);
    assert!(!o.status.success(), "fio refuses it too");
}
