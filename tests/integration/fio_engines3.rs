//! The space engines (issue 25), each beside fio 3.33 on the same job: `falloc` (a write
//! allocates, a read allocates keeping the size, a trim punches a hole) and `ftruncate` (a
//! write sets the file's size to its offset).

use crate::util::*;
use std::os::unix::fs::MetadataExt;

/// Runs the job under `tool` in a fresh directory; the I/O counts per direction, the job's
/// error, and the file's size and allocated 512-byte blocks afterwards.
fn run(tool: &str, engine: &str, rw: &str) -> ((u64, u64, u64), u64, u64, u64) {
    let d = Scratch::new("space");
    let engine = format!("--ioengine={engine}");
    let rw = format!("--rw={rw}");
    let args = [
        "--output-format=json",
        "--name=s",
        "--filename=s.dat",
        "--size=1m",
        "--bs=64k",
        &engine,
        &rw,
    ];
    let o = run_tool(tool, &args, &d.path);
    let out = stdout(&o);
    let v: serde_json::Value = serde_json::from_str(&out[out.find('{').expect("JSON")..])
        .unwrap_or_else(|e| panic!("{tool}: {e}\n{out}\n{}", stderr(&o)));
    let j = job(&v, 0);
    let n = |d: &str| u(&j[d]["total_ios"]);
    let m = std::fs::metadata(d.file("s.dat")).unwrap();
    (
        (n("read"), n("write"), n("trim")),
        u(&j["error"]),
        m.len(),
        m.blocks(),
    )
}

#[test]
fn falloc_allocates_keeps_size_and_punches_as_fio() {
    for rw in ["write", "read", "trim"] {
        let theirs = run("fio", "falloc", rw);
        let ours = run("iomark", "falloc", rw);
        assert_eq!(ours, theirs, "rw={rw}");
    }
    // The trim punched the whole file: nothing is allocated.
    assert_eq!(run("iomark", "falloc", "trim").3, 0);
}

#[test]
fn ftruncate_sets_the_size_as_fio() {
    let theirs = run("fio", "ftruncate", "write");
    let ours = run("iomark", "ftruncate", "write");
    assert_eq!(ours, theirs);
    // The last write's offset: 15 × 64 KiB.
    assert_eq!(ours.2, 15 * 65536);
    // A read is refused with EINVAL (22), as in fio.
    assert_eq!(run("iomark", "ftruncate", "read").1, 22);
}
