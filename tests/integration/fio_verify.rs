//! Two-pass verification, as fio does it: a write job with `verify=crc32c` stamps every block,
//! a later read job with the same `verify=` checks each block it reads and names the bad ones.
//! Each tool reads back its own data (the block header formats differ).

use crate::util::*;
use std::io::{Seek, SeekFrom, Write};

#[test]
fn read_job_checks_blocks_written_earlier() {
    for tool in ["fio", "iomark"] {
        let d = Scratch::new("twopass");
        let fname = format!("--filename={}", d.s("v.dat"));
        let common = [&fname[..], "--size=1m", "--bs=8k", "--verify=crc32c"];
        let write = run_tool(
            tool,
            &[
                &["--name=w", "--rw=write", "--do_verify=0"][..],
                &common[..],
            ]
            .concat(),
            &d.path,
        );
        ok(&write);
        // Read back in another order, with a verify_interval larger than the block (fio
        // shrinks it to the block size).
        let o = run_tool(
            tool,
            &[
                &[
                    "--name=r",
                    "--rw=randread",
                    "--verify_interval=32k",
                    "--output-format=json",
                ][..],
                &common[..],
            ]
            .concat(),
            &d.path,
        );
        let v = tool_json(tool, &o);
        let j = job(&v, 0);
        assert_eq!(u(&j["error"]), 0, "{tool}");
        assert_eq!(u(&j["read"]["io_bytes"]), 1 << 20, "{tool}");
        // One block damaged after its header's start: the read job fails and names it.
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .open(d.file("v.dat"))
            .unwrap();
        f.seek(SeekFrom::Start(16384 + 16)).unwrap();
        f.write_all(b"garbage").unwrap();
        drop(f);
        let o = run_tool(
            tool,
            &[&["--name=r", "--rw=read"][..], &common[..]].concat(),
            &d.path,
        );
        assert_eq!(o.status.code(), Some(1), "{tool}: {}", stderr(&o));
        let e = stderr(&o);
        assert!(e.contains("offset 16384"), "{tool}: {e}");
    }
}

#[test]
fn read_verify_of_a_file_without_headers_fails() {
    let d = Scratch::new("noheaders");
    std::fs::write(d.file("z.dat"), vec![0u8; 256 << 10]).unwrap();
    let fname = format!("--filename={}", d.s("z.dat"));
    let o = iomark_in(
        &[
            "run",
            "--name=r",
            &fname,
            "--rw=read",
            "--size=256k",
            "--verify=crc32c",
            "--output-format=json",
        ],
        &d.path,
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("bad block"), "{}", stderr(&o));
}

/// fio's t0005: with verify_backlog the blocks checked inline are not read again at the end, so
/// the job reads what it wrote once (and the verify reads count as reads).
#[test]
fn verify_backlog_reads_each_block_once() {
    for tool in ["fio", "iomark"] {
        let d = Scratch::new("backlog");
        let fname = format!("--filename={}", d.s("b.dat"));
        let o = run_tool(
            tool,
            &[
                "--name=write",
                &fname,
                "--bs=4k",
                "--ioengine=sync",
                "--size=4m",
                "--direct=1",
                "--verify=md5",
                "--verify_backlog=32",
                "--rw=write",
                "--output-format=json",
            ],
            &d.path,
        );
        let v = tool_json(tool, &o);
        let j = job(&v, 0);
        assert_eq!(u(&j["read"]["io_kbytes"]), 4096, "{tool}");
        assert_eq!(u(&j["write"]["io_kbytes"]), 4096, "{tool}");
    }
}
