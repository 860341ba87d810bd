//! fsync=N and fdatasync=N beside fio 3.33: a sync is due whenever the writes issued so far are
//! a multiple of N and the last I/O to complete was not a sync, so the reads of a mixed job
//! that follow the Nth write get syncs too; each sync goes to the file whose turn it is; fio
//! counts only fsyncs in `total_ios` and `issued rwts` (fdatasyncs are in the latencies).

use crate::util::*;

/// (reads, writes, fsyncs counted, sync latency samples) of a 1 MiB 4 KiB job.
fn sync_counts(tool: &str, d: &Scratch, extra: &[&str]) -> [u64; 4] {
    let mut a = vec![
        "--name=j",
        "--directory=.",
        "--size=1m",
        "--bs=4k",
        "--randseed=5",
        "--output-format=json",
    ];
    a.extend_from_slice(extra);
    let o = run_tool(tool, &a, &d.path);
    let v = tool_json(tool, &o);
    let j = job(&v, 0);
    [
        u(&j["read"]["total_ios"]),
        u(&j["write"]["total_ios"]),
        u(&j["sync"]["total_ios"]),
        u(&j["sync"]["lat_ns"]["N"]),
    ]
}

#[test]
fn syncs_follow_fios_rule_on_mixed_and_multi_file_jobs() {
    let cases: &[(&[&str], Option<[u64; 4]>)] = &[
        (&["--rw=randwrite", "--fsync=4"], Some([0, 256, 63, 63])),
        // The reads after every 4th write each get a sync until the next write.
        (&["--rw=randrw", "--fsync=4"], None),
        (&["--rw=randrw", "--fsync=1"], None),
        (&["--rw=randrw", "--rwmixread=90", "--fsync=2"], None),
        // Both counts: fsync when fsync=N's is due, else fdatasync; only fsyncs counted.
        (&["--rw=randrw", "--fsync=3", "--fdatasync=2"], None),
        (&["--rw=rw", "--fdatasync=3"], None),
        (
            &["--rw=randwrite", "--fsync=4", "--nrfiles=4"],
            Some([0, 256, 63, 63]),
        ),
        (
            &[
                "--rw=randwrite",
                "--fsync=4",
                "--ioengine=libaio",
                "--iodepth=4",
            ],
            Some([0, 256, 63, 63]),
        ),
    ];
    for (extra, want) in cases {
        let d = Scratch::new("sync");
        let fio = sync_counts("fio", &d, extra);
        let d = Scratch::new("sync");
        let iomark = sync_counts("iomark", &d, extra);
        assert_eq!(iomark, fio, "{extra:?}");
        if let Some(w) = want {
            assert_eq!(&fio, w, "{extra:?}");
        }
    }
    // The rule makes a mixed job sync far more often than its writes alone would.
    let d = Scratch::new("sync");
    let c = sync_counts(
        "iomark",
        &d,
        &["--rw=randrw", "--rwmixread=90", "--fsync=2"],
    );
    assert!(c[2] > c[1] * 2, "{c:?}");
}

#[test]
fn each_sync_goes_to_the_file_whose_turn_it_is() {
    let lines = |tool: &str| -> Vec<String> {
        let d = Scratch::new("sync-files");
        let a = [
            "--name=j",
            "--directory=.",
            "--size=64k",
            "--nrfiles=4",
            "--bs=4k",
            "--rw=write",
            "--fsync=4",
            "--write_iolog=io.log",
            "--output=/dev/null",
        ];
        ok(&run_tool(tool, &a, &d.path));
        // File and action of every I/O and sync, without the time (fio writes a stale offset
        // on sync lines).
        std::fs::read_to_string(d.file("io.log"))
            .unwrap()
            .lines()
            .filter(|l| l.contains(" write ") || l.contains(" sync "))
            .map(|l| {
                l.split_whitespace()
                    .skip(1)
                    .take(2)
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect()
    };
    let (fio, iomark) = (lines("fio"), lines("iomark"));
    assert_eq!(iomark, fio);
    let syncs: Vec<&String> = iomark.iter().filter(|l| l.ends_with(" sync")).collect();
    assert_eq!(syncs.len(), 3, "{iomark:?}");
    assert_eq!(syncs[0], "./j.0.0 sync");
    assert_eq!(syncs[1], "./j.0.1 sync");
}

#[test]
fn fdatasync_only_jobs_print_the_sync_latency_and_count_no_fsync() {
    let d = Scratch::new("sync-normal");
    let a = [
        "--name=j",
        "--directory=.",
        "--size=256k",
        "--bs=4k",
        "--rw=write",
        "--fdatasync=4",
    ];
    for tool in ["fio", "iomark"] {
        let o = run_tool(tool, &a, &d.path);
        ok(&o);
        let s = stdout(&o);
        assert!(
            s.contains("fsync/fdatasync/sync_file_range:"),
            "{tool}\n{s}"
        );
        assert!(s.contains("issued rwts: total=0,64,0,0 "), "{tool}\n{s}");
    }
}
