//! An `io_size` larger than the job's size: fio goes round the files again, pass after pass
//! (each pass starting over as a new loop does), until it moved `io_size`. Both tools run the
//! same jobs on the same 1 MiB files; the I/O counts of their JSON and the offsets of their
//! `write_iolog` must be the same.

use crate::util::*;

/// One I/O of a `write_iolog`: file name, direction, offset, length.
type Logged = (String, String, u64, u64);

/// The I/Os `tool` logs for `args` (run in a fresh copy of the files), and its JSON document.
fn run_logged(tool: &str, d: &Scratch, args: &[&str]) -> (Vec<Logged>, serde_json::Value) {
    let dir = d.file(tool);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for f in ["a.dat", "b.dat"] {
        std::fs::write(dir.join(f), vec![0x5au8; 1 << 20]).unwrap();
    }
    let mut all = vec![
        "--name=w",
        "--bs=4k",
        "--output-format=json",
        "--write_iolog=io.log",
    ];
    all.extend_from_slice(args);
    let v = tool_json(tool, &run_tool(tool, &all, &dir));
    let text = std::fs::read_to_string(dir.join("io.log")).unwrap();
    let ios = text
        .lines()
        .filter_map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            match w.as_slice() {
                [_, f, act @ ("read" | "write"), off, len] => Some((
                    f.to_string(),
                    act.to_string(),
                    off.parse().unwrap(),
                    len.parse().unwrap(),
                )),
                _ => None,
            }
        })
        .collect();
    (ios, v)
}

/// Times the log opens a file: fio opens its files anew for every pass.
fn passes(ios: &[Logged], pass_len: usize) -> usize {
    ios.len().div_ceil(pass_len.max(1))
}

#[test]
fn io_size_past_the_size_wraps_as_fio() {
    let d = Scratch::new("wrap");
    let cases: &[(&str, bool)] = &[
        // (the arguments, whether the offsets are compared in order: random ones are compared
        // as a multiset per pass where the generators differ)
        ("--filename=a.dat --size=1m --io_size=4m --rw=read", true),
        ("--filename=a.dat --size=1m --io_size=2560k --rw=write", true),
        ("--filename=a.dat --size=1m --io_size=4m --rw=read --loops=2", true),
        ("--filename=a.dat --size=1m --io_size=1536k --rw=read --loops=2", true),
        ("--filename=a.dat --size=1m --io_size=512k --rw=read --loops=2", true),
        ("--filename=a.dat --size=512k --offset=256k --io_size=2m --rw=read", true),
        ("--filename=a.dat:b.dat --size=2m --io_size=5m --rw=write", true),
        ("--filename=a.dat --size=1m --io_size=4m --rw=read --number_ios=300", true),
        ("--filename=a.dat --size=1m --io_size=2m --rw=read --zonemode=strided --zonesize=64k --zoneskip=64k", true),
        ("--filename=a.dat --size=1m --io_size=3m --rw=randread", false),
        ("--filename=a.dat --size=1m --io_size=3m --rw=randwrite --randrepeat=0", false),
        ("--filename=a.dat --size=1m --io_size=3m --rw=randwrite --norandommap", false),
    ];
    for (line, ordered) in cases {
        let args: &[&str] = &line.split(' ').collect::<Vec<_>>();
        let (f, fv) = run_logged("fio", &d, args);
        let (i, iv) = run_logged("iomark", &d, args);
        assert_eq!(
            job_ios(&iv),
            job_ios(&fv),
            "{args:?}: I/O counts (reads, writes)"
        );
        assert_eq!(i.len(), f.len(), "{args:?}: logged I/Os");
        if *ordered {
            assert_eq!(i, f, "{args:?}: the I/Os in order");
        } else {
            // Each pass covers the same blocks in both tools (random offsets of a pass come
            // from each tool's own generator).
            let per = (1usize << 20) / 4096;
            let pass = |v: &[Logged], k: usize| {
                let mut p: Vec<u64> = v.iter().skip(k * per).take(per).map(|x| x.2).collect();
                p.sort_unstable();
                p
            };
            let norandommap = args.contains(&"--norandommap");
            for k in 0..passes(&f, per) {
                if norandommap {
                    // Without the random map a block may come twice: the same range only.
                    let (a, b) = (pass(&f, k), pass(&i, k));
                    assert!(
                        b.iter().all(|&o| o < 1 << 20) && a.len() == b.len(),
                        "{args:?}"
                    );
                } else {
                    assert_eq!(pass(&i, k), pass(&f, k), "{args:?}: pass {k}'s blocks");
                }
            }
        }
    }
}

#[test]
fn random_passes_repeat_the_first_with_randrepeat_in_both_tools() {
    let d = Scratch::new("wrap-rr");
    let args = [
        "--filename=a.dat",
        "--size=1m",
        "--io_size=3m",
        "--rw=randread",
    ];
    for tool in ["fio", "iomark"] {
        let (v, _) = run_logged(tool, &d, &args);
        assert_eq!(v.len(), 768, "{tool}");
        let offs: Vec<u64> = v.iter().map(|x| x.2).collect();
        assert_eq!(offs[..256], offs[256..512], "{tool}: pass 2 repeats pass 1");
        assert_eq!(offs[..256], offs[512..], "{tool}: pass 3 repeats pass 1");
    }
}

#[test]
fn verify_checks_what_each_pass_wrote_as_fio() {
    let d = Scratch::new("wrap-verify");
    let args = [
        "--filename=a.dat",
        "--size=1m",
        "--io_size=2m",
        "--rw=write",
        "--verify=crc32c",
    ];
    let (_, fv) = run_logged("fio", &d, &args);
    let (_, iv) = run_logged("iomark", &d, &args);
    assert_eq!(job_ios(&iv), job_ios(&fv), "(verify reads, writes)");
}
