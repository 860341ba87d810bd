//! `log_compression`, `log_store_compressed` and `--inflate-log` beside fio 3.33: each tool
//! stores the same job's log compressed, and each inflates both files to the same text.

use crate::util::*;

fn store(tool: &str, d: &Scratch, extra: &[&str]) -> Vec<u8> {
    let prefix = format!("--write_bw_log={tool}");
    let mut a = vec![
        "--name=job",
        "--ioengine=null",
        "--filesize=8m",
        "--bs=128k",
        "--rw=write",
        "--per_job_logs=0",
        "--log_offset=1",
        "--output=/dev/null",
        &prefix[..],
    ];
    a.extend_from_slice(extra);
    ok(&run_tool(tool, &a, &d.path));
    let f = d.file(&format!("{tool}_bw.log.fz"));
    let bytes = std::fs::read(&f).unwrap();
    assert!(
        !d.file(&format!("{tool}_bw.log")).exists(),
        "{tool}: no text log beside"
    );
    bytes
}

/// `--inflate-log=FILE` of `tool`: the log's lines without their time and value columns
/// (which differ run to run).
fn inflate(tool: &str, d: &Scratch, file: &str) -> Vec<String> {
    let arg = format!("--inflate-log={}", d.s(file));
    let o = run_tool(tool, &[&arg[..]], &d.path);
    ok(&o);
    assert!(stderr(&o).is_empty(), "{tool}: {}", stderr(&o));
    stdout(&o)
        .lines()
        .map(|l| l.split(", ").skip(2).collect::<Vec<_>>().join(", "))
        .collect()
}

#[test]
fn compressed_logs_read_by_either_tool() {
    for extra in [
        &["--log_compression=10k", "--log_store_compressed=1"][..],
        &["--log_store_compressed=1"][..],
    ] {
        // A directory per case: with per_job_logs=0 fio appends to a log already there.
        let d = Scratch::new("logz");
        let zf = store("fio", &d, extra);
        let zi = store("iomark", &d, extra);
        assert_eq!(&zi[..2], &zf[..2], "zlib streams");
        let expect: Vec<String> = (0..64)
            .map(|i| format!("1, 131072, {}, 0", i * 131072))
            .collect();
        for reader in ["fio", "iomark"] {
            assert_eq!(
                inflate(reader, &d, "fio_bw.log.fz"),
                expect,
                "{reader} reads fio's ({extra:?})"
            );
            assert_eq!(
                inflate(reader, &d, "iomark_bw.log.fz"),
                expect,
                "{reader} reads iomark's ({extra:?})"
            );
        }
    }
}

#[test]
fn log_compression_alone_writes_the_text_log() {
    let d = Scratch::new("logc");
    for tool in ["fio", "iomark"] {
        let prefix = format!("--write_bw_log={tool}");
        ok(&run_tool(
            tool,
            &[
                "--name=job",
                "--ioengine=null",
                "--filesize=4m",
                "--bs=128k",
                "--rw=write",
                "--per_job_logs=0",
                "--log_compression=4k",
                "--output=/dev/null",
                &prefix,
            ],
            &d.path,
        ));
        let text = std::fs::read_to_string(d.file(&format!("{tool}_bw.log"))).unwrap();
        assert_eq!(text.lines().count(), 32, "{tool}");
    }
}

#[test]
fn inflate_log_of_a_bad_file_fails_by_name() {
    let d = Scratch::new("logbad");
    std::fs::write(d.file("bad.fz"), b"plain text, not zlib").unwrap();
    let o = iomark_in(
        &["run", &format!("--inflate-log={}", d.s("bad.fz"))],
        &d.path,
    );
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("not a compressed log"),
        "{}",
        stderr(&o)
    );
}
