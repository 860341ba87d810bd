//! `--bandwidth-log` beside fio 3.33: the run's aggregate bandwidth in `agg-read_bw.log`,
//! `agg-write_bw.log` and `agg-trim_bw.log` (fio's log lines: time in ms, KiB/s, direction,
//! block size 0, priority 0), about one sample per 500 ms tick-aligned (fio samples on its
//! status ticks, and only while it computes its status line: it runs with `--eta=always`).

use crate::util::*;

const FILES: [&str; 3] = ["agg-read_bw.log", "agg-write_bw.log", "agg-trim_bw.log"];

/// The three logs' lines, parsed, after a 3-second rate-capped randrw job of `tool`.
fn logs(tool: &str, extra: &[&str]) -> Vec<Vec<[u64; 5]>> {
    let d = Scratch::new("aggbw");
    let f = format!("--filename={}", d.s("data"));
    let mut args = vec![
        "--bandwidth-log",
        "--name=j",
        f.as_str(),
        "--size=4m",
        "--bs=4k",
        "--rw=randrw",
        "--ioengine=psync",
        "--rate=2m",
        "--time_based",
        "--runtime=3",
        "--output=/dev/null",
    ];
    args.extend_from_slice(extra);
    ok(&run_tool(tool, &args, &d.path));
    FILES
        .iter()
        .map(|name| {
            let text = std::fs::read_to_string(d.file(name))
                .unwrap_or_else(|e| panic!("{tool}: {name}: {e}"));
            text.lines()
                .map(|l| {
                    let v: Vec<u64> = l.split(", ").map(|x| x.parse().unwrap()).collect();
                    v.try_into().unwrap_or_else(|_| panic!("{tool}: {l:?}"))
                })
                .collect()
        })
        .collect()
}

#[test]
fn bandwidth_log_writes_fios_aggregate_logs() {
    // Rate and sample times depend on the machine keeping up (a loaded disk stalls the first
    // second of either tool): three tries, each comparing a fresh pair of runs.
    let mut seen = Vec::new();
    for _ in 0..3 {
        match std::panic::catch_unwind(compare_aggregate_logs) {
            Ok(()) => return,
            Err(e) => seen.push(panic_text(&*e)),
        }
    }
    panic!("three tries failed:\n{}", seen.join("\n"));
}

fn compare_aggregate_logs() {
    let f = logs("fio", &["--eta=always"]);
    let i = logs("iomark", &[]);
    for (d, name) in FILES.iter().enumerate() {
        let (fl, il) = (&f[d], &i[d]);
        assert!(!fl.is_empty() && !il.is_empty(), "{name}: {fl:?} {il:?}");
        assert!(
            fl.len().abs_diff(il.len()) <= 1,
            "{name}: fio {} lines, iomark {}",
            fl.len(),
            il.len()
        );
        for lines in [fl, il] {
            // Every sample of this log is of its direction, with no block size or priority,
            // in time order, at least 500 ms apart.
            assert!(lines
                .iter()
                .all(|l| l[2] == d as u64 && l[3] == 0 && l[4] == 0));
            assert!(
                lines.windows(2).all(|w| w[1][0] >= w[0][0] + 500),
                "{lines:?}"
            );
            assert!(lines.last().unwrap()[0] < 4000, "{lines:?}");
            // The cap (2 MiB/s, 2048 KiB/s) per direction on average between the first and
            // the last samples (which cover the start and the end); trims none.
            let inner = &lines[1..lines.len() - 1];
            assert!(!inner.is_empty(), "{name}: {lines:?}");
            let mean = inner.iter().map(|l| l[1]).sum::<u64>() / inner.len() as u64;
            if d == 2 {
                assert_eq!(mean, 0);
            } else {
                assert!(mean > 1600 && mean < 2500, "{name}: {lines:?}");
            }
        }
    }
}

#[test]
fn without_the_switch_there_are_no_aggregate_logs() {
    let d = Scratch::new("aggbw-off");
    let f = format!("--filename={}", d.s("data"));
    ok(&iomark_in(
        &["run", "--name=j", &f, "--size=64k", "--output=/dev/null"],
        &d.path,
    ));
    for name in FILES {
        assert!(!d.file(name).exists(), "{name}");
    }
    // The short form, as fio's.
    ok(&iomark_in(
        &[
            "run",
            "-b",
            "--name=j",
            &f,
            "--size=64k",
            "--output=/dev/null",
        ],
        &d.path,
    ));
    for name in FILES {
        assert!(d.file(name).exists(), "{name}");
    }
}
