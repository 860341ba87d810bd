//! `zonemode=strided` (`zonesize`, `zonerange`, `zoneskip`) beside fio 3.33 on the same jobs
//! (`zonemode=zbd`: see `fio_zbd`). Offsets come from each tool's IOPS log
//! with `log_offset=1` (one line per I/O, the offset in the fifth column).

use crate::util::*;
use std::collections::BTreeSet;

/// Offsets of a null-engine job's I/Os, in issue order.
fn offsets(tool: &str, d: &Scratch, args: &[&str]) -> Vec<u64> {
    let prefix = d.file(tool);
    let log = format!("--write_iops_log={}", prefix.display());
    let mut all = vec![
        "--name=z",
        "--ioengine=null",
        "--log_offset=1",
        "--output=/dev/null",
        &log[..],
    ];
    all.extend_from_slice(args);
    ok(&run_tool(tool, &all, &d.path));
    let path = d.file(&format!("{tool}_iops.1.log"));
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    text.lines()
        .map(|l| l.split(',').nth(4).unwrap().trim().parse().unwrap())
        .collect()
}

#[test]
fn strided_sequential_offsets_are_fios() {
    let d = Scratch::new("zseq");
    let cases: &[&[&str]] = &[
        // Two passes over an 8k zone per zone, 24k skipped, from an offset, wrapping at the
        // end of the file.
        &[
            "--filesize=256k",
            "--size=256k",
            "--io_size=320k",
            "--zonesize=16k",
            "--zonerange=8k",
            "--zoneskip=24k",
            "--offset=8k",
        ],
        // zonerange defaults to zonesize.
        &["--size=128k", "--io_size=256k", "--zonesize=32k"],
        // Less I/O than the zone per zone.
        &["--size=128k", "--zonesize=8k", "--zonerange=32k"],
    ];
    for args in cases {
        let mut a = vec!["--zonemode=strided", "--rw=read", "--bs=4k"];
        a.extend_from_slice(args);
        let f = offsets("fio", &d, &a);
        let i = offsets("iomark", &d, &a);
        assert!(f.len() > 8, "{args:?}");
        assert_eq!(i, f, "{args:?}: iomark's offsets vs fio's");
    }
}

/// For a random strided job: the zone start of each I/O, and whether every run of
/// `range / bs` I/Os in a zone touched distinct blocks (the random map per zone range).
fn zones_of(offs: &[u64], size: u64, range: u64, skip: u64, bs: u64, file: u64) -> Vec<u64> {
    let per_zone = (size / bs) as usize;
    let per_range = (range / bs) as usize;
    let mut zone = 0u64;
    let mut out = Vec::new();
    for (n, chunk) in offs.chunks(per_zone).enumerate() {
        if n > 0 {
            zone += range + skip;
            if zone >= file {
                zone = 0;
            }
        }
        for run in chunk.chunks(per_range) {
            let distinct: BTreeSet<u64> = run.iter().copied().collect();
            assert_eq!(
                distinct.len(),
                run.len(),
                "a block twice in a zone range: {run:?}"
            );
        }
        for &o in chunk {
            assert!(
                o >= zone && o + bs <= zone + range,
                "offset {o} outside the zone at {zone}"
            );
            out.push(zone);
        }
    }
    out
}

#[test]
fn strided_random_io_stays_in_fios_zones() {
    let d = Scratch::new("zrand");
    for gen in ["tausworthe", "lfsr"] {
        let g = format!("--random_generator={gen}");
        let a = [
            "--zonemode=strided",
            "--rw=randread",
            "--bs=4k",
            "--size=1m",
            "--io_size=768k",
            "--zonesize=64k",
            "--zonerange=32k",
            "--zoneskip=96k",
            &g[..],
        ];
        let f = offsets("fio", &d, &a);
        let i = offsets("iomark", &d, &a);
        assert_eq!(i.len(), f.len(), "{gen}: I/O count");
        let zf = zones_of(&f, 64 << 10, 32 << 10, 96 << 10, 4096, 1 << 20);
        let zi = zones_of(&i, 64 << 10, 32 << 10, 96 << 10, 4096, 1 << 20);
        assert_eq!(zi, zf, "{gen}: the zone of each I/O");
        // Eight zones 128k apart fill the 1m file; the ninth is the first again.
        assert_eq!(zi[8 * 16 - 1], 896 << 10, "{gen}");
        assert_eq!(zi[8 * 16], 0, "{gen}");
    }
}

#[test]
fn zone_options_refused_as_fio_refuses_them() {
    let d = Scratch::new("zref");
    for (args, words) in [
        (
            &["--size=64k", "--zonesize=16k"][..],
            "--zonemode=none and --zonesize are not compatible",
        ),
        (
            &["--size=64k", "--zonemode=strided"][..],
            "--zonesize must be specified when using --zonemode=strided",
        ),
    ] {
        let mut a = vec!["--name=z", "--ioengine=null", "--rw=read"];
        a.extend_from_slice(args);
        for tool in ["fio", "iomark"] {
            let o = run_tool(tool, &a, &d.path);
            assert!(!o.status.success(), "{tool} {args:?}");
            assert!(
                stderr(&o).contains(words) || stdout(&o).contains(words),
                "{tool} {args:?}: {}{}",
                stdout(&o),
                stderr(&o)
            );
        }
    }
}
