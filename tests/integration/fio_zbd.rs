//! `zonemode=zbd` on a regular file and on a loop device (zones emulated on a target that is
//! not zoned) beside fio 3.33 on the same jobs: the offsets and counts of both tools'
//! `write_iolog`, the zone resets each prints, writes only at write pointers within the open
//! zone limit, reads only below the write pointers unless `read_beyond_wp`, and fio's two zbd
//! examples with a small target and a short run.

use crate::blockdev::{root_required, Loop};
use crate::util::*;
use std::collections::{BTreeMap, BTreeSet};

const ZONE: u64 = 256 << 10;

/// One logged I/O: direction ("read" or "write"), offset, length.
type Io = (String, u64, u64);

/// Run `args` (a job file and options, or options alone) with `tool` in `d`, every job
/// logging to its own `write_iolog` (`<job>.<tool>.log` given in the job file, or
/// `tool.log` added here): the stdout and each log's I/Os by log name.
fn run(tool: &str, d: &Scratch, args: &[&str], log: bool) -> (String, BTreeMap<String, Vec<Io>>) {
    let opt = format!("--write_iolog={}.log", tool);
    let mut all: Vec<&str> = args.to_vec();
    if log {
        all.push(&opt);
    }
    if tool == "iomark" {
        all.push("--force-device-write");
    }
    let o = run_tool(tool, &all, &d.path);
    ok(&o);
    let mut logs = BTreeMap::new();
    for e in std::fs::read_dir(&d.path).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        if !name.ends_with(".log") || !name.contains(tool) {
            continue;
        }
        let text = std::fs::read_to_string(&p).unwrap();
        std::fs::remove_file(&p).unwrap();
        let ios = text
            .lines()
            .filter_map(|l| {
                let w: Vec<&str> = l.split_whitespace().collect();
                matches!(w.get(2), Some(&"read") | Some(&"write")).then(|| {
                    (
                        w[2].to_string(),
                        w[3].parse().unwrap(),
                        w[4].parse().unwrap(),
                    )
                })
            })
            .collect();
        logs.insert(name.replace(tool, "TOOL"), ios);
    }
    (stdout(&o), logs)
}

/// The zone resets a normal output's write lines report, summed.
fn resets(out: &str) -> u64 {
    out.lines()
        .filter_map(|l| {
            l.split("; ")
                .nth(1)?
                .strip_suffix(" zone resets")?
                .parse::<u64>()
                .ok()
        })
        .sum()
}

/// fio, then iomark, on the same job: each one's stdout and logs (as [`run`]).
fn both(d: &Scratch, args: &[&str], log: bool) -> [(String, BTreeMap<String, Vec<Io>>); 2] {
    ["fio", "iomark"].map(|tool| run(tool, d, args, log))
}

/// The options of a job on `target` with emulated zones of `ZONE` bytes, then `extra`.
fn zbd_job(target: &str, extra: &[&str]) -> Vec<String> {
    let mut a: Vec<String> = ["--name=z", "--zonemode=zbd", "--zonesize=256k"]
        .map(String::from)
        .into();
    a.push(format!("--filename={target}"));
    a.extend(extra.iter().map(|s| s.to_string()));
    a
}

fn strs(a: &[String]) -> Vec<&str> {
    a.iter().map(String::as_str).collect()
}

/// Both tools on the same job: the same logs (offsets, lengths, directions) and resets.
fn same_as_fio(d: &Scratch, args: &[&str], log: bool) -> BTreeMap<String, Vec<Io>> {
    let [(fo, f), (io, i)] = both(d, args, log);
    assert_eq!(i, f, "{args:?}: iomark's I/O logs vs fio's");
    assert_eq!(
        resets(&io),
        resets(&fo),
        "{args:?}: zone resets\n{io}\n{fo}"
    );
    f
}

fn file_of(d: &Scratch, size: u64) -> String {
    std::fs::write(d.file("f.dat"), vec![0u8; size as usize]).unwrap();
    d.s("f.dat")
}

/// `check` on a 1 MiB regular file in a scratch directory named after `tag`.
fn on_file(tag: &str, check: fn(&Scratch, &str)) {
    let d = Scratch::new(tag);
    let target = file_of(&d, 1 << 20);
    check(&d, &target);
}

/// `check` on a 1 MiB loop device (as root), with a scratch directory named after `tag`.
fn on_loop(tag: &str, check: fn(&Scratch, &str)) {
    root_required();
    let l = Loop::new(tag, 1 << 20, false);
    let d = Scratch::new(&format!("{tag}-dir"));
    check(&d, &l.dev);
}

#[test]
fn zbd_sequential_writes_are_fios() {
    let d = Scratch::new("zbdseq");
    let f = file_of(&d, 1 << 20);
    let job = |extra: &[&str]| zbd_job(&f, &[&["--bs=64k"], extra].concat());
    // Two passes: the second resets each full zone before writing it again.
    let a = job(&["--rw=write", "--size=1m", "--loops=2"]);
    let logs = same_as_fio(&d, &strs(&a), true);
    let w = &logs["TOOL.log"];
    assert_eq!(w.len(), 32);
    assert_eq!(w[16].1, 0, "the second pass starts again at the first zone");
    let (out, _) = run("iomark", &d, &strs(&a), false);
    assert_eq!(resets(&out), 4, "{out}");
    // A region that is not whole zones is moved in to whole zones (100k..700k: 256k..512k);
    // `2z` is two zones.
    let a = job(&["--rw=write", "--offset=100k", "--size=600k"]);
    let logs = same_as_fio(&d, &strs(&a), true);
    assert_eq!(logs["TOOL.log"].first().unwrap().1, ZONE);
    assert_eq!(logs["TOOL.log"].len(), 4);
    let a = job(&["--rw=write", "--offset=1z", "--size=2z"]);
    let logs = same_as_fio(&d, &strs(&a), true);
    assert_eq!(logs["TOOL.log"].len(), 8);
}

/// Replay a log of writes over zones of `ZONE` bytes: every write is at its zone's write
/// pointer (a full zone starts again at its start: a reset), and no more than `max_open`
/// zones are open (written, not yet full) at once. The resets seen.
fn check_writes(ios: &[Io], max_open: usize) -> u64 {
    let mut wp: BTreeMap<u64, u64> = BTreeMap::new();
    let mut open = BTreeSet::new();
    let mut resets = 0;
    for (dir, off, len) in ios {
        assert_eq!(dir, "write");
        let z = off / ZONE;
        let at = wp.entry(z).or_insert(z * ZONE);
        if *at == (z + 1) * ZONE && *off == z * ZONE {
            *at = z * ZONE;
            resets += 1;
        }
        assert_eq!(
            off, at,
            "a write away from its zone's write pointer: {ios:?}"
        );
        *at += len;
        if *at == (z + 1) * ZONE {
            open.remove(&z);
        } else {
            open.insert(z);
        }
        assert!(open.len() <= max_open, "{} zones open: {ios:?}", open.len());
    }
    resets
}

fn random_writes_on(d: &Scratch, target: &str) {
    let a = zbd_job(
        target,
        &[
            "--bs=64k",
            "--rw=randwrite",
            "--size=1m",
            "--max_open_zones=2",
        ],
    );
    let [(fo, f), (io, i)] = both(d, &strs(&a), true);
    let (f, i) = (&f["TOOL.log"], &i["TOOL.log"]);
    assert_eq!(i.len(), f.len(), "I/O count");
    assert_eq!(f.len(), 16);
    // Random offsets are drawn differently by the two tools; both keep the zone rules.
    let (rf, ri) = (check_writes(f, 2), check_writes(i, 2));
    assert_eq!(resets(&io), ri, "{io}");
    assert_eq!(rf, resets(&fo), "{fo}");
}

#[test]
fn zbd_random_writes_keep_fios_zone_rules() {
    on_file("zbdrand", random_writes_on);
}

#[test]
fn zbd_random_writes_on_a_loop_device() {
    on_loop("zbdloopw", random_writes_on);
}

/// A write job then (stonewall) a read job on the same target: the reads find what the first
/// job wrote in the shared zones.
fn write_then_read(target: &str, rw: &str, beyond: u32) -> String {
    format!(
        "[global]\nfilename={target}\nzonemode=zbd\nzonesize=256k\nbs=64k\n\
         [w]\nrw=write\nsize=384k\nwrite_iolog=w.TOOL.log\n\
         [r]\nstonewall\nrw={rw}\nsize=1m\nread_beyond_wp={beyond}\nwrite_iolog=r.TOOL.log\n"
    )
}

fn reads_on(d: &Scratch, target: &str) {
    for (rw, beyond, reads) in [("read", 0, 4), ("read", 1, 16), ("randread", 0, 16)] {
        let run_both = |tool: &str| {
            let job = write_then_read(target, rw, beyond).replace("TOOL", tool);
            std::fs::write(d.file("z.fio"), job).unwrap();
            run(tool, d, &["z.fio"], false)
        };
        let (_, f) = run_both("fio");
        let (_, i) = run_both("iomark");
        assert_eq!(i["w.TOOL.log"], f["w.TOOL.log"], "{rw} {beyond}: writes");
        assert_eq!(f["w.TOOL.log"].len(), 4, "writes of whole zones only");
        let (fr, ir) = (&f["r.TOOL.log"], &i["r.TOOL.log"]);
        assert_eq!(ir.len(), fr.len(), "{rw} read_beyond_wp={beyond}: reads");
        assert_eq!(fr.len(), reads, "{rw} read_beyond_wp={beyond}");
        if rw == "read" {
            assert_eq!(ir, fr, "{rw} read_beyond_wp={beyond}: read offsets");
        } else {
            // Random reads stay in the written zone (below its write pointer).
            assert!(ir.iter().all(|(_, o, l)| o + l <= ZONE), "{ir:?}");
        }
    }
    // Nothing written: a read job reads nothing (fio's too).
    let a = zbd_job(target, &["--rw=read", "--bs=64k"]);
    let logs = same_as_fio(d, &strs(&a), true);
    assert!(
        logs.get("TOOL.log").is_none_or(|l| l.is_empty()),
        "{logs:?}"
    );
}

#[test]
fn zbd_reads_stay_below_the_write_pointer_as_fios() {
    on_file("zbdread", reads_on);
}

#[test]
fn zbd_reads_on_a_loop_device() {
    on_loop("zbdloopr", reads_on);
}

/// fio 3.33's `examples/zbd-rand-write.fio` and `examples/zbd-seq-read.fio` (their settings,
/// with a 16 MiB loop device, 1 MiB zones, fewer clones and a one-second run): both tools run
/// them; the random writes stay at write pointers and resets are reported, the sequential
/// read of emulated zones (all empty at the start) reads nothing.
#[test]
fn zbd_examples_run_on_a_loop_device() {
    root_required();
    let l = Loop::new("zbdex", 16 << 20, false);
    let d = Scratch::new("zbdex2");
    let rand = format!(
        "[global]\nname=zbd-rand-write\ngroup_reporting\nrw=randwrite\nzonemode=zbd\n\
         zonesize=1M\nmax_open_zones=4\nbs=512K\ndirect=1\nnumjobs=2\ntime_based\nruntime=1\n\
         [dev1]\nfilename={}\nioengine=psync\n",
        l.dev
    );
    let seq = format!(
        "[global]\nname=zbd-seq-read\nrw=read\nbs=256K\ndirect=1\nnumjobs=1\nzonemode=zbd\n\
         zonesize=1M\nread_beyond_wp=0\n\
         [dev1]\nfilename={}\noffset=4194304\nsize=8M\nioengine=libaio\niodepth=16\n",
        l.dev
    );
    std::fs::write(d.file("rand.fio"), rand).unwrap();
    std::fs::write(d.file("seq.fio"), seq).unwrap();
    for tool in ["fio", "iomark"] {
        let (out, _) = run(tool, &d, &["rand.fio"], false);
        assert!(out.contains("zone resets"), "{tool}: {out}");
        assert!(out.contains("WRITE: bw="), "{tool}: {out}");
        let (out, _) = run(tool, &d, &["seq.fio"], false);
        assert!(!out.contains("READ: bw="), "{tool} read something: {out}");
    }
}
