//! The e4defrag engine beside fio 3.33 on ext4 in a loop image: the same I/O counts, the file
//! keeps its data, its blocks moved (the donor holds the old ones), `inplace=1` leaves the
//! donor empty; a file system without EXT4_IOC_MOVE_EXT is refused before any I/O.

use crate::blockdev::{root_required, Loop};
use crate::util::*;
use std::path::Path;

/// The file's data, its donor's size, and the (reads, writes) of the tool's JSON, after `tool`
/// ran `args` in `dir` on a fresh 4 MiB file.
fn run_defrag(tool: &str, dir: &Path, args: &[&str]) -> (Vec<u8>, u64, Vec<(u64, u64)>) {
    let f = dir.join("f1");
    let donor = dir.join("f1.def");
    let _ = std::fs::remove_file(&donor);
    let data: Vec<u8> = (0..4u32 << 20).map(|i| (i % 251) as u8).collect();
    std::fs::write(&f, &data).unwrap();
    let dirarg = format!("--directory={}", dir.display());
    let mut all = vec![
        "--name=d",
        "--ioengine=e4defrag",
        "--donorname=f1.def",
        "--filename=f1",
        "--filesize=4m",
        "--bs=64k",
        "--output-format=json",
        &dirarg,
    ];
    all.extend_from_slice(args);
    let v = tool_json(tool, &run_tool(tool, &all, dir));
    let after = std::fs::read(&f).unwrap();
    assert_eq!(after, data, "{tool} {args:?}: the file keeps its data");
    let dsize = std::fs::metadata(&donor).map_or(0, |m| m.len());
    (after, dsize, job_ios(&v))
}

#[test]
fn e4defrag_moves_extents_as_fio() {
    root_required();
    let mut l = Loop::new("e4defrag", 64 << 20, true);
    let mnt = l.mount(None);
    for args in [
        &["--rw=write"][..],
        &["--rw=randwrite"][..],
        &["--rw=write", "--inplace=1"][..],
        &["--rw=write", "--size=1m", "--io_size=3m"][..],
    ] {
        let (_, fd, fi) = run_defrag("fio", &mnt, args);
        let (_, id, ii) = run_defrag("iomark", &mnt, args);
        assert_eq!(ii, fi, "{args:?}: (reads, writes)");
        assert!(fi[0].1 > 0, "{args:?}");
        assert_eq!(id, fd, "{args:?}: the donor's size afterwards");
    }
}

#[test]
fn e4defrag_is_refused_off_ext4_before_any_io() {
    let d = Scratch::new_in("/dev/shm", "e4defrag-shm");
    std::fs::write(d.file("f1"), vec![1u8; 1 << 20]).unwrap();
    let o = iomark_in(
        &[
            "run",
            "--name=d",
            "--ioengine=e4defrag",
            "--donorname=f1.def",
            "--filename=f1",
            "--filesize=1m",
            "--rw=write",
        ],
        &d.path,
    );
    assert!(!o.status.success());
    let e = stderr(&o);
    assert!(e.contains("only ext4 has") && e.contains("tmpfs"), "{e}");
    assert!(
        !d.file("f1.def").exists(),
        "nothing is created before the refusal"
    );
    // Without donorname, or without filesize (and not inplace): refused by name.
    let o = iomark_in(
        &[
            "run",
            "--name=d",
            "--ioengine=e4defrag",
            "--filename=f1",
            "--rw=write",
        ],
        &d.path,
    );
    assert!(
        !o.status.success() && stderr(&o).contains("donorname"),
        "{}",
        stderr(&o)
    );
    let o = iomark_in(
        &[
            "run",
            "--name=d",
            "--ioengine=e4defrag",
            "--donorname=x",
            "--filename=f1",
            "--rw=write",
        ],
        &d.path,
    );
    assert!(
        !o.status.success() && stderr(&o).contains("filesize"),
        "{}",
        stderr(&o)
    );
}
