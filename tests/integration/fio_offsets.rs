//! Where I/Os go, cross-checked with fio 3.33 on the same jobs: the `rw=read:N` offset
//! modifiers (holes, backwards), `rw_sequencer`, and `random_distribution=zoned` /
//! `zoned_abs`. fio's offsets come from its `write_iolog`, iomark's from a latency log with
//! `log_offset=1` (offset in its fifth column).

use crate::util::*;
use std::path::Path;

/// Offsets of the I/Os of one run, in issue order, with their direction (0 read, 1 write).
fn offsets(tool: &str, d: &Scratch, args: &[&str]) -> Vec<(u8, u64)> {
    let fname = format!("--filename={}", d.s("f.dat"));
    let mut all = vec!["--name=x", &fname[..]];
    all.extend_from_slice(args);
    if tool == "fio" {
        let log = d.file("fio.iolog");
        let _ = std::fs::remove_file(&log);
        let opt = format!("--write_iolog={}", log.display());
        all.push(&opt);
        ok(&fio_in(&all, &d.path));
        let text = std::fs::read_to_string(&log).unwrap();
        text.lines()
            .filter_map(|l| {
                let w: Vec<&str> = l.split_whitespace().collect();
                let dir = match w.get(2) {
                    Some(&"read") => 0,
                    Some(&"write") => 1,
                    _ => return None,
                };
                Some((dir, w[3].parse().unwrap()))
            })
            .collect()
    } else {
        let prefix = d.file("im");
        let opt = format!("--write_lat_log={}", prefix.display());
        all.extend_from_slice(&["--log_offset=1", &opt]);
        let mut cmd = vec!["run"];
        cmd.extend_from_slice(&all);
        ok(&iomark_in(&cmd, &d.path));
        let text = std::fs::read_to_string(d.file("im_lat.1.log")).unwrap();
        text.lines()
            .map(|l| {
                let w: Vec<&str> = l.split(',').map(str::trim).collect();
                (w[2].parse().unwrap(), w[4].parse().unwrap())
            })
            .collect()
    }
}

fn kib(v: &[(u8, u64)]) -> Vec<u64> {
    v.iter().map(|&(_, o)| o / 1024).collect()
}

fn scratch_with_file(tag: &str, size: usize) -> Scratch {
    let d = Scratch::new(tag);
    std::fs::write(d.file("f.dat"), vec![0x5au8; size]).unwrap();
    d
}

#[test]
fn rw_offset_modifiers_issue_fios_offsets() {
    let d = scratch_with_file("rwmod", 64 << 10);
    let cases: &[&[&str]] = &[
        &["--size=64k", "--rw=read:8k"],
        &["--size=64k", "--rw=read:4k"],
        &["--size=64k", "--rw=read:10k"],
        &["--size=64k", "--rw=read:-8k"],
        &["--size=64k", "--rw=read:-12k"],
        &["--size=64k", "--rw=write:-2k"],
        &["--offset=16k", "--size=32k", "--rw=read:-8k"],
    ];
    for args in cases {
        let mut a = vec!["--bs=4k"];
        a.extend_from_slice(args);
        let f = kib(&offsets("fio", &d, &a));
        let i = kib(&offsets("iomark", &d, &a));
        assert!(!f.is_empty(), "{args:?}");
        assert_eq!(i, f, "{args:?}: iomark vs fio offsets (KiB)");
    }
    // Backwards really runs backwards: after the first I/O, each is 4k below the previous.
    let a = ["--bs=4k", "--size=64k", "--rw=read:-8k"];
    let i = kib(&offsets("iomark", &d, &a));
    assert_eq!(&i[..3], &[0, 56, 52]);
}

/// Counts where an I/O does not follow the previous one as the sequencer says (a new random
/// offset).
fn run_starts(v: &[u64], identical: bool) -> usize {
    v.windows(2)
        .filter(|w| {
            if identical {
                w[1] != w[0]
            } else {
                w[1] != w[0] + 4
            }
        })
        .count()
        + 1
}

#[test]
fn rw_sequencer_runs_as_fio() {
    let d = scratch_with_file("rwseq", 4 << 20);
    for (seq, identical) in [("sequential", false), ("identical", true)] {
        let opt = format!("--rw_sequencer={seq}");
        let a = [
            "--bs=4k",
            "--size=4m",
            "--rw=randread:4",
            "--norandommap",
            &opt,
        ];
        let f = kib(&offsets("fio", &d, &a));
        let i = kib(&offsets("iomark", &d, &a));
        assert_eq!(i.len(), f.len(), "{seq}: I/O count");
        assert_eq!(i.len(), 1024);
        // One random offset every 4 I/Os (a run that would leave the region starts again).
        for (tool, v) in [("fio", &f), ("iomark", &i)] {
            let starts = run_starts(v, identical);
            assert!(
                (250..=262).contains(&starts),
                "{tool} {seq}: {starts} run starts"
            );
        }
    }
}

/// Share of read I/Os in the first `pct` per cent of a `size`-byte region.
fn share_below(v: &[(u8, u64)], dir: u8, size: u64, pct: u64) -> f64 {
    let n = v.iter().filter(|x| x.0 == dir).count();
    let low = v
        .iter()
        .filter(|x| x.0 == dir && x.1 < size * pct / 100)
        .count();
    low as f64 / n.max(1) as f64
}

fn both_refuse(d: &Scratch, dist: &str) {
    let fname = format!("--filename={}", d.s("f.dat"));
    let opt = format!("--random_distribution={dist}");
    let a = ["--name=x", &fname[..], "--size=1m", "--rw=randread", &opt];
    let f = fio_in(&a, &d.path);
    assert!(!f.status.success(), "fio accepted {dist}");
    let i = iomark_in(&[&["run"][..], &a[..]].concat(), &d.path);
    assert_eq!(i.status.code(), Some(2), "iomark accepted {dist}");
    let e = stderr(&i);
    assert!(e.contains("random_distribution"), "{e}");
}

#[test]
fn zoned_distributions_follow_fios_grammar() {
    let size = 4u64 << 20;
    let d = scratch_with_file("zoned", size as usize);
    let base = ["--bs=4k", "--size=4m", "--rw=randread", "--norandommap"];
    // (distribution, share expected in the first 10 %).
    for (dist, expect) in [
        ("zoned:60/10:30/20:8/30:2/40", 0.60),
        // A missing region takes what the others leave.
        ("zoned:50/10:50", 0.50),
        ("zoned_abs:70/400k:30/3m", 0.70),
    ] {
        let opt = format!("--random_distribution={dist}");
        let mut a = base.to_vec();
        a.push(&opt);
        for tool in ["fio", "iomark"] {
            let v = offsets(tool, &d, &a);
            assert_eq!(v.len(), 1024, "{tool} {dist}");
            let s = share_below(&v, 0, size, 10);
            assert!(
                (s - expect).abs() < 0.07,
                "{tool} {dist}: {s:.3} in the first 10%"
            );
        }
    }
    // Access shares must add up to 100, regions to at most 100.
    both_refuse(&d, "zoned:60/10:30/20");
    both_refuse(&d, "zoned:50/60:50/50");
    both_refuse(&d, "zoned:101/100");
}

/// fio documents per-direction zone lists (`read,write,trim`, as for bssplit) but fio 3.33's
/// option parser cuts the value at the first comma and refuses it; iomark reads them as
/// documented.
#[test]
fn zoned_per_direction_lists() {
    let size = 4u64 << 20;
    let d = scratch_with_file("zoneddir", size as usize);
    let opt = "--random_distribution=zoned:100/10,100/50";
    let fname = format!("--filename={}", d.s("f.dat"));
    assert!(!fio_in(
        &["--name=x", &fname, "--size=4m", "--rw=randrw", opt],
        &d.path
    )
    .status
    .success());
    let v = offsets(
        "iomark",
        &d,
        &["--bs=4k", "--size=4m", "--rw=randrw", "--norandommap", opt],
    );
    assert_eq!(share_below(&v, 0, size, 10), 1.0);
    assert_eq!(share_below(&v, 1, size, 50), 1.0);
    assert!(share_below(&v, 1, size, 10) < 0.4);
    // An empty part is uniform.
    let v = offsets(
        "iomark",
        &d,
        &[
            "--bs=4k",
            "--size=4m",
            "--rw=randrw",
            "--norandommap",
            "--random_distribution=zoned:100/10,",
        ],
    );
    assert_eq!(share_below(&v, 0, size, 10), 1.0);
    assert!(share_below(&v, 1, size, 50) < 0.7);
}

fn corrupt(path: &Path, at: u64, bytes: &[u8]) {
    use std::io::{Seek, SeekFrom, Write};
    let mut f = std::fs::OpenOptions::new().write(true).open(path).unwrap();
    f.seek(SeekFrom::Start(at)).unwrap();
    f.write_all(bytes).unwrap();
}

/// `verify=meta` checks each block's header (where it belongs, which write) and not its data:
/// damaged data passes, a damaged header fails, in fio and iomark alike.
#[test]
fn verify_meta_checks_headers_only() {
    for tool in ["fio", "iomark"] {
        let d = Scratch::new("vmeta");
        let fname = format!("--filename={}", d.s("v.dat"));
        let common = [&fname[..], "--size=256k", "--bs=4k", "--verify=meta"];
        let w = [&["--name=w", "--rw=write"][..], &common[..]].concat();
        ok(&run_tool(tool, &w, &d.path));
        let r = [&["--name=r", "--rw=read"][..], &common[..]].concat();
        corrupt(&d.file("v.dat"), 8192 + 2048, b"not the data");
        let o = run_tool(tool, &r, &d.path);
        assert!(
            o.status.success(),
            "{tool}: damaged data failed verify=meta"
        );
        corrupt(&d.file("v.dat"), 16384 + 4, b"\xff\xff\xff\xff");
        let o = run_tool(tool, &r, &d.path);
        assert!(
            !o.status.success(),
            "{tool}: a damaged header passed verify=meta"
        );
    }
}

/// `verify_offset` moves the header into the block: fio's header (magic `0xacca`) and
/// iomark's (`IOMK`) both sit at that offset of every block, and the data still verifies.
#[test]
fn verify_offset_moves_the_header() {
    for (tool, magic) in [("fio", &b"\xca\xac"[..]), ("iomark", &b"IOMK"[..])] {
        let d = Scratch::new("voff");
        let fname = format!("--filename={}", d.s("v.dat"));
        let a = [
            "--name=w",
            &fname[..],
            "--size=64k",
            "--bs=4k",
            "--rw=write",
            "--verify=crc32c",
            "--verify_offset=1k",
            "--verify_async=2",
        ];
        let o = run_tool(tool, &a, &d.path);
        ok(&o);
        assert_eq!(stderr(&o), "", "{tool}");
        let data = std::fs::read(d.file("v.dat")).unwrap();
        for blk in data.chunks(4096) {
            assert_eq!(&blk[1024..1024 + magic.len()], magic, "{tool}");
            assert_ne!(&blk[..magic.len()], magic, "{tool}");
        }
    }
    // A header that would not fit is refused before any I/O.
    let d = Scratch::new("voff2");
    let fname = format!("--filename={}", d.s("v.dat"));
    let o = iomark_in(
        &[
            "run",
            "--name=w",
            &fname,
            "--size=64k",
            "--bs=4k",
            "--rw=write",
            "--verify=crc32c",
            "--verify_offset=4080",
        ],
        &d.path,
    );
    assert!(!o.status.success());
    assert!(stderr(&o).contains("header offset"), "{}", stderr(&o));
}

/// `verify_pattern=%o` fills each block with its offset (8 bytes, little-endian) and a pattern
/// in single quotes is read from a file: past iomark's header (48 bytes for `verify=pattern`,
/// a multiple of both patterns' lengths) the data of every block is the bytes fio 3.33 writes
/// for the same job. Damaged data fails the read-back in both.
#[test]
fn verify_pattern_offset_and_file() {
    let d = Scratch::new("vpat");
    std::fs::write(d.file("pat.bin"), b"0123456789abcdef").unwrap();
    for pattern in ["%o", "'pat.bin'", "0xff%o\"ab\"-12"] {
        let mut files = vec![];
        for tool in ["fio", "iomark"] {
            let name = format!("{tool}.dat");
            let fname = format!("--filename={}", d.s(&name));
            let pat = format!("--verify_pattern={pattern}");
            let common = [
                &fname[..],
                "--size=64k",
                "--bs=4k",
                "--verify=pattern",
                &pat,
            ];
            let w = [&["--name=w", "--rw=randwrite"][..], &common[..]].concat();
            ok(&run_tool(tool, &w, &d.path));
            let r = [&["--name=r", "--rw=read"][..], &common[..]].concat();
            ok(&run_tool(tool, &r, &d.path));
            files.push(std::fs::read(d.file(&name)).unwrap());
            corrupt(&d.file(&name), 8192 + 1000, b"x");
            let o = run_tool(tool, &r, &d.path);
            assert!(!o.status.success(), "{tool} {pattern}: damaged data passed");
        }
        let plen = if pattern == "0xff%o\"ab\"-12" { 15 } else { 8 };
        for (k, (a, b)) in files[0].chunks(4096).zip(files[1].chunks(4096)).enumerate() {
            // From the first pattern repetition after the header on, the bytes agree.
            let from = 48usize.div_ceil(plen) * plen;
            assert_eq!(&a[from..], &b[from..], "{pattern}: block {k}");
            if pattern == "%o" {
                let off = (k as u64 * 4096).to_le_bytes();
                assert_eq!(&b[4088..], &off, "block {k}");
            }
        }
    }
    // fio 3.33 reads no formats in buffer_pattern and refuses %o there: so does iomark.
    let o = iomark_in(
        &[
            "run",
            "--name=w",
            "--filename=x",
            "--size=64k",
            "--buffer_pattern=%o",
        ],
        &d.path,
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("verify_pattern"), "{}", stderr(&o));
}
