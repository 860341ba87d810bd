//! `iomark dd`: the seed dd lines run next to GNU dd with the same operands; records lines and
//! byte counts must be identical, the summary line must parse as GNU dd's does.

use crate::util::{bin, BoundedOutput, ReadOnlyDir, Scratch};
use std::path::Path;
use std::process::{Command, Output};

/// The seed dd lines (tests/fixtures/seed-workloads/commands.txt), without `dd`.
const SEEDS: [&str; 8] = [
    "if=file.dat of=/dev/null iflag=direct bs=1K count=100K",
    "if=file.dat of=/dev/null iflag=direct bs=8K count=100K",
    "if=file.dat of=/dev/null iflag=direct bs=1M count=10K",
    "if=file.dat of=/dev/null iflag=direct bs=8M count=2K",
    "if=/dev/zero of=dd1.dat conv=fsync oflag=direct bs=1K count=100K",
    "if=/dev/zero of=dd1.dat conv=fsync oflag=direct bs=8K count=100K",
    "if=/dev/zero of=dd1.dat conv=fsync oflag=direct bs=1M count=10K",
    "if=/dev/zero of=dd1.dat conv=fsync oflag=direct bs=8M count=2K",
];

fn run(prog: &Path, pre: &[&str], line: &str, cwd: &Path) -> Output {
    Command::new(prog)
        .args(pre)
        .args(line.split_whitespace())
        .current_dir(cwd)
        .bounded_output()
        .expect("run dd")
}

fn gnu(line: &str, cwd: &Path) -> Output {
    run(Path::new("dd"), &[], line, cwd)
}

fn ours(line: &str, cwd: &Path) -> Output {
    run(&bin(), &["dd"], line, cwd)
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// `N bytes (SI, IEC) copied, T s, R/s`: (bytes, the parenthesised sizes, seconds, rate).
fn parse_summary(line: &str) -> (u64, String, f64, String) {
    let (bytes, rest) = line.split_once(' ').expect(line);
    let bytes: u64 = bytes.parse().expect(line);
    let (sizes, rest) = rest.split_once(" copied, ").expect(line);
    let (secs, rate) = rest.split_once(" s, ").expect(line);
    assert!(rate.ends_with("B/s"), "{line}");
    (
        bytes,
        sizes.to_string(),
        secs.parse().expect(line),
        rate.to_string(),
    )
}

/// Compare GNU dd's and iomark's output for the same line: the records lines and the byte
/// counts are identical; iomark adds one line.
fn compare(line: &str, cwd: &Path) {
    let g = gnu(line, cwd);
    assert!(g.status.success(), "dd {line}: {}", stderr(&g));
    let o = ours(line, cwd);
    assert!(o.status.success(), "iomark dd {line}: {}", stderr(&o));
    let (ge, oe) = (stderr(&g), stderr(&o));
    let gl: Vec<&str> = ge.lines().collect();
    let ol: Vec<&str> = oe.lines().collect();
    if line.contains("status=noxfer") {
        // Only the records lines, from both.
        assert_eq!(gl.len(), 2, "{ge}");
        assert_eq!(gl, ol, "{line}");
        return;
    }
    assert_eq!(gl.len(), 3, "{ge}");
    assert_eq!(ol.len(), 4, "{oe}");
    assert_eq!(gl[..2], ol[..2], "records lines of {line}");
    let (gb, gs, _, _) = parse_summary(gl[2]);
    let (ob, os, secs, _) = parse_summary(ol[2]);
    assert_eq!((gb, gs), (ob, os), "{line}");
    assert!(secs > 0.0, "{oe}");
    assert!(ol[3].starts_with("iomark: ") && ol[3].contains(" IOPS ") && ol[3].contains("p99 "));
}

#[test]
fn dd_seed_lines_match_gnu_dd() {
    let d = Scratch::new("dd-seeds");
    // Shrunk by an appended count= (dd's last operand wins), run in the scratch directory.
    let shrink = |s: &str| {
        let count = match s.split("bs=").nth(1).and_then(|r| r.split(' ').next()) {
            Some("1K") => "4K",
            Some("8K") => "1K",
            Some("1M") => "24",
            _ => "3",
        };
        format!("{s} count={count}")
    };
    // The read seeds need file.dat: written by GNU dd, 24 MiB.
    let g = gnu("if=/dev/zero of=file.dat bs=1M count=24", &d.path);
    assert!(g.status.success());
    for s in SEEDS {
        compare(&shrink(s), &d.path);
        if s.contains("of=dd1.dat") {
            let len = std::fs::metadata(d.file("dd1.dat")).unwrap().len();
            let line = shrink(s);
            let a = iomark_suites_bytes(&line);
            assert_eq!(len, a, "{line}");
            std::fs::remove_file(d.file("dd1.dat")).unwrap();
        }
    }
}

/// count × bs of a dd line.
fn iomark_suites_bytes(line: &str) -> u64 {
    let mut bs = 0;
    let mut count = 0;
    for op in line.split_whitespace() {
        let n = |v: &str| {
            let (num, suf) = v.split_at(v.find(|c: char| !c.is_ascii_digit()).unwrap_or(v.len()));
            num.parse::<u64>().unwrap()
                * match suf {
                    "K" => 1024,
                    "M" => 1 << 20,
                    "" => 1,
                    _ => panic!("{v}"),
                }
        };
        if let Some(v) = op.strip_prefix("bs=") {
            bs = n(v);
        }
        if let Some(v) = op.strip_prefix("count=") {
            count = n(v);
        }
    }
    bs * count
}

#[test]
fn dd_partial_blocks_and_reblocking_match_gnu_dd() {
    let d = Scratch::new("dd-partial");
    std::fs::write(d.file("odd.dat"), vec![7u8; 10_000]).unwrap();
    compare("if=odd.dat of=/dev/null bs=4096", &d.path);
    compare("if=odd.dat of=/dev/null ibs=1000 obs=512", &d.path);
    compare("if=odd.dat of=/dev/null bs=4096 skip=1 count=5", &d.path);
    compare("if=/dev/zero of=/dev/null bs=64K count=100", &d.path);
    compare("if=/dev/zero of=out.dat ibs=1000 obs=4096 count=9", &d.path);
    assert_eq!(std::fs::metadata(d.file("out.dat")).unwrap().len(), 9000);
    std::fs::remove_file(d.file("out.dat")).unwrap();
    compare(
        "if=/dev/zero of=out.dat bs=4K count=16 status=noxfer",
        &d.path,
    );
}

#[test]
fn dd_conv_fsync_fsyncs_and_direct_opens_o_direct() {
    let d = Scratch::new("dd-strace");
    let o = Command::new("strace")
        .args(["-f", "-e", "trace=openat,fsync,fdatasync", "-o"])
        .arg(d.file("trace"))
        .arg(bin())
        .args(["dd", "if=/dev/zero", "of=out.dat", "bs=64K", "count=8"])
        .args(["oflag=direct", "conv=fsync"])
        .current_dir(&d.path)
        .bounded_output()
        .expect("strace");
    assert!(o.status.success(), "{}", stderr(&o));
    let t = std::fs::read_to_string(d.file("trace")).unwrap();
    assert!(
        t.lines()
            .any(|l| l.contains("out.dat") && l.contains("O_DIRECT")),
        "{t}"
    );
    assert!(t.lines().any(|l| l.contains("fsync(")), "{t}");
    // Without conv=fsync: no fsync (the result store, which syncs its own file, left out).
    let o = Command::new("strace")
        .args(["-f", "-e", "trace=fsync,fdatasync", "-o"])
        .arg(d.file("trace2"))
        .arg(bin())
        .args([
            "dd",
            "if=/dev/zero",
            "of=out2.dat",
            "bs=64K",
            "count=8",
            "--no-store",
        ])
        .current_dir(&d.path)
        .bounded_output()
        .expect("strace");
    assert!(o.status.success(), "{}", stderr(&o));
    let t = std::fs::read_to_string(d.file("trace2")).unwrap();
    assert!(!t.contains("fsync("), "{t}");
    // conv=fdatasync: fdatasync, as GNU dd, not fsync.
    let o = Command::new("strace")
        .args(["-f", "-e", "trace=fsync,fdatasync", "-o"])
        .arg(d.file("trace3"))
        .arg(bin())
        .args(["dd", "if=/dev/zero", "of=out3.dat", "bs=64K", "count=8"])
        .args(["conv=fdatasync", "--no-store"])
        .current_dir(&d.path)
        .bounded_output()
        .expect("strace");
    assert!(o.status.success(), "{}", stderr(&o));
    let t = std::fs::read_to_string(d.file("trace3")).unwrap();
    assert!(t.contains("fdatasync(") && !t.contains("fsync("), "{t}");
}

/// The `read(2)` and `write(2)` calls of `prog` running `line` in `d`, per file: how many
/// calls on each path moved `bs` bytes (`strace -y` names a descriptor's path).
fn calls_per_path(
    d: &Scratch,
    prog: &Path,
    pre: &[&str],
    line: &str,
    bs: usize,
) -> std::collections::BTreeMap<String, usize> {
    // One trace per thread (-ff), so no call is split into unfinished and resumed halves.
    let stem = d.file("calls");
    let o = Command::new("strace")
        .args(["-ff", "-y", "-e", "trace=read,write", "-o"])
        .arg(&stem)
        .arg(prog)
        .args(pre)
        .args(line.split_whitespace())
        .current_dir(&d.path)
        .bounded_output()
        .expect("strace");
    assert!(o.status.success(), "{line}: {}", stderr(&o));
    let mut n = std::collections::BTreeMap::new();
    let traces: Vec<_> = std::fs::read_dir(&d.path)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("calls.")
        })
        .collect();
    // `read(3</dev/zero>, "\0\0"..., 65536) = 65536`
    let text: String = traces
        .iter()
        .map(|t| std::fs::read_to_string(t).unwrap())
        .collect();
    for t in &traces {
        std::fs::remove_file(t).unwrap();
    }
    for l in text.lines() {
        let Some((call, rest)) = l.split_once("(") else {
            continue;
        };
        let Some((path, _)) = rest
            .split_once(">,")
            .and_then(|(a, b)| a.split_once('<').map(|(_, p)| (p.to_string(), b)))
        else {
            continue;
        };
        if l.ends_with(&format!(", {bs}) = {bs}")) && (call == "read" || call == "write") {
            let name = Path::new(&path).file_name().unwrap().to_string_lossy();
            *n.entry(format!("{call} {name}")).or_insert(0) += 1;
        }
    }
    n
}

#[test]
fn dd_reads_each_block_from_if_and_writes_it_to_of_as_gnu_dd() {
    let d = Scratch::new("dd-calls");
    let bs = 64 << 10;
    for line in [
        "if=/dev/zero of=out.dat bs=64K count=40 oflag=direct conv=fdatasync",
        "if=/dev/zero of=out.dat bs=64K count=40",
        "if=out.dat of=/dev/null bs=64K count=40 iflag=direct",
        "if=/dev/urandom of=out.dat bs=64K count=40",
    ] {
        let theirs = calls_per_path(&d, Path::new("dd"), &[], line, bs);
        let ours = calls_per_path(&d, &bin(), &["dd", "--no-store"], line, bs);
        assert_eq!(ours, theirs, "{line}");
        assert_eq!(theirs.values().sum::<usize>(), 80, "{line}: {theirs:?}");
    }
}

#[test]
fn dd_status_none_and_result_file() {
    let d = Scratch::new("dd-result");
    let o = ours(
        &format!(
            "if=/dev/zero of=/dev/null bs=4K count=256 status=none --result-file={}",
            d.s("r.json")
        ),
        &d.path,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stderr(&o), "");
    let v: serde_json::Value =
        serde_json::from_slice(&std::fs::read(d.file("r.json")).unwrap()).unwrap();
    let read = &v["jobs"][0]["dirs"]["read"];
    assert_eq!(read["io_bytes"], 256 * 4096);
    assert!(read["lat"]["hist"].is_object() || read["lat"]["hist"].is_array());
}

#[test]
fn dd_bad_input_is_refused_and_writes_nothing() {
    let d = Scratch::new("dd-bad");
    for (line, needle) in [
        ("if=/dev/zero of=x.dat bs=1M count=1 bogus=3", "bogus=3"),
        ("if=/dev/zero of=x.dat bs=12Q count=1", "bs="),
        ("if=/dev/zero of=x.dat bs=1M count=1 oflag=fast", "oflag"),
        ("if=/dev/zero of=x.dat bs=1M", "count="),
        ("if=/dev/zero of=nodir/x.dat bs=1M count=1", "nodir"),
        ("if=missing.dat of=/dev/null bs=1M", "missing.dat"),
    ] {
        let o = ours(line, &d.path);
        assert!(!o.status.success(), "{line}");
        assert!(stderr(&o).contains(needle), "{line}: {}", stderr(&o));
        assert!(!d.file("x.dat").exists(), "{line}");
    }
}

#[test]
fn dd_status_progress_reports_while_running() {
    let d = Scratch::new("dd-progress");
    // One-byte reads of /dev/zero: a run of a few seconds whatever the machine.
    let o = ours(
        "if=/dev/zero of=/dev/null bs=1 count=4M status=progress",
        &d.path,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let e = stderr(&o);
    // Progress lines start with a carriage return; the final lines follow as usual.
    assert!(e.matches('\r').count() >= 1, "{e:?}");
    assert!(
        e.contains("4194304+0 records in\n4194304+0 records out\n"),
        "{e:?}"
    );
    assert!(
        e.contains("4194304 bytes (4.2 MB, 4.0 MiB) copied, "),
        "{e:?}"
    );
}

#[test]
fn dd_unwritable_directory_is_refused_and_writes_nothing() {
    let ro = ReadOnlyDir::new("dd-ro");
    let d = Scratch::new("dd-ro-cwd");
    let line = format!("if=/dev/zero of={}/x.dat bs=64K count=4", ro.s());
    let o = ours(&line, &d.path);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(
        e.contains(&format!(
            "of={}/x.dat: cannot create it in {}",
            ro.s(),
            ro.s()
        )),
        "{e}"
    );
    // Refused before any I/O: no records lines.
    assert!(!e.contains("records"), "{e}");
    assert_eq!(ro.entries(), 0);
}

/// Size and allocated 512-byte blocks of a file.
fn size_and_blocks(p: &Path) -> (u64, u64) {
    use std::os::unix::fs::MetadataExt;
    let m = std::fs::metadata(p).unwrap();
    (m.len(), m.blocks())
}

#[test]
fn dd_truncates_its_output_as_gnu_dd_unless_notrunc() {
    let d = Scratch::new("dd-trunc");
    // Each line on a 1 MiB file of 0x5a, by GNU dd and by iomark: the same size, the same
    // allocation (of direct writes), the same bytes (cut at seek=, to nothing without it; kept with notrunc).
    for line in [
        "if=/dev/zero of=F bs=64K count=2 oflag=direct",
        "if=/dev/zero of=F bs=64K count=2 seek=4",
        "if=/dev/zero of=F bs=64K count=2 seek=4096 oflag=seek_bytes",
        "if=/dev/zero of=F bs=64K count=2 conv=notrunc oflag=direct",
        "if=/dev/zero of=F bs=64K count=32 seek=20",
    ] {
        let mut files = Vec::new();
        for who in ["gnu", "ours"] {
            let f = d.file(who);
            std::fs::write(&f, vec![0x5au8; 1 << 20]).unwrap();
            let l = line.replace("of=F", &format!("of={}", f.display()));
            let o = if who == "gnu" {
                gnu(&l, &d.path)
            } else {
                ours(&format!("{l} --no-store"), &d.path)
            };
            assert!(o.status.success(), "{who} {line}: {}", stderr(&o));
            files.push(f);
        }
        let (g, o) = (size_and_blocks(&files[0]), size_and_blocks(&files[1]));
        // Buffered writes are allocated later (delayed allocation): their blocks are not
        // compared, direct writes' are.
        if line.contains("direct") {
            assert_eq!(o, g, "{line}: (size, blocks) iomark vs GNU dd");
        } else {
            assert_eq!(o.0, g.0, "{line}: size iomark vs GNU dd");
        }
        assert_eq!(
            std::fs::read(&files[1]).unwrap(),
            std::fs::read(&files[0]).unwrap(),
            "{line}"
        );
    }
    assert_eq!(size_and_blocks(&d.file("gnu")).0, 52 * 65536);
}

#[test]
fn dd_never_truncates_a_block_device() {
    crate::blockdev::root_required();
    let l = crate::blockdev::Loop::new("dd-trunc-dev", 8 << 20, false);
    std::fs::write(&l.dev, vec![0x5au8; 8 << 20]).unwrap();
    let d = Scratch::new("dd-trunc-dev-cwd");
    let line = format!(
        "if=/dev/zero of={} bs=64K count=2 oflag=direct --no-store",
        l.dev
    );
    let o = ours(&line, &d.path);
    assert!(o.status.success(), "{}", stderr(&o));
    let after = l.checksum();
    assert_eq!(after.len(), 8 << 20);
    assert!(after[..128 << 10].iter().all(|&b| b == 0));
    assert!(
        after[128 << 10..].iter().all(|&b| b == 0x5a),
        "the rest is kept"
    );
}

/// A full file system: the error line words the failure as GNU dd does ("error writing 'PATH':
/// No space left on device"), then the same records lines (the block whose write failed counts
/// in, a part of it written counts out as a partial record), status 1 for both.
#[test]
fn dd_full_filesystem_is_worded_as_gnu_dd() {
    crate::blockdev::root_required();
    let d = Scratch::new("dd-full");
    let mnt = d.file("small");
    crate::util::mount_tmpfs(&mnt, "size=2m");
    let out = mnt.join("out");
    let mut seen = Vec::new();
    // 512 KiB blocks fill it exactly; 768 KiB blocks leave a part of the third written.
    for bs in ["512K", "768K"] {
        let line = format!("if=/dev/zero of={} bs={bs} count=8", out.display());
        let g = gnu(&line, &mnt);
        let _ = std::fs::remove_file(&out);
        let o = ours(&line, &mnt);
        let _ = std::fs::remove_file(&out);
        seen.push((bs, g, o));
    }
    let _ = Command::new("umount").arg(&mnt).status();
    let want = format!("error writing '{}': No space left on device", out.display());
    let records = |e: &str| -> Vec<String> {
        e.lines()
            .filter(|l| l.contains(" records "))
            .map(str::to_string)
            .collect()
    };
    for (bs, g, o) in seen {
        let (ge, oe) = (stderr(&g), stderr(&o));
        assert_eq!(g.status.code(), Some(1), "bs={bs}: {ge}");
        assert_eq!(o.status.code(), Some(1), "bs={bs}: {oe}");
        let dd_line = format!("dd: {want}");
        assert_eq!(ge.lines().next(), Some(dd_line.as_str()), "{ge}");
        let ours_line = format!("iomark dd: {want}");
        assert_eq!(oe.lines().next(), Some(ours_line.as_str()), "{oe}");
        assert_eq!(
            records(&oe),
            records(&ge),
            "bs={bs}: iomark:\n{oe}\nGNU dd:\n{ge}"
        );
    }
}
