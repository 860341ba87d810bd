//! Write-buffer contents beside fio 3.33: `buffer_pattern` (and fio's refusal of `%o` in it),
//! and deduplicable data (`dedupe_percentage` with `dedupe_mode=repeat|working_set`,
//! `dedupe_working_set_percentage`, `dedupe_global`), measured on the written files by counting
//! their distinct 4 KiB blocks.

use crate::util::*;
use std::collections::{HashMap, HashSet};
use std::path::Path;

const BS: usize = 4096;

fn blocks(path: &Path) -> Vec<Vec<u8>> {
    let data = std::fs::read(path).unwrap();
    assert_eq!(data.len() % BS, 0);
    data.chunks(BS).map(|c| c.to_vec()).collect()
}

/// Distinct blocks over blocks.
fn unique_ratio(b: &[Vec<u8>]) -> f64 {
    b.iter().collect::<HashSet<_>>().len() as f64 / b.len() as f64
}

/// Writes with `tool` in a fresh directory: the job's files' blocks, in `names` order.
fn write(tool: &str, args: &[&str], names: &[&str]) -> Vec<Vec<Vec<u8>>> {
    let d = Scratch::new("buffers");
    let mut a: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    for n in names {
        a.push(format!("--name={n}"));
        a.push(format!("--filename={}", d.s(n)));
    }
    a.push("--output=/dev/null".into());
    let a: Vec<&str> = a.iter().map(|s| s.as_str()).collect();
    ok(&run_tool(tool, &a, &d.path));
    names.iter().map(|n| blocks(&d.file(n))).collect()
}

#[test]
fn buffer_pattern_bytes_are_fios_and_percent_o_is_refused_by_both() {
    let args = [
        "--size=64k",
        "--bs=4k",
        "--rw=write",
        "--buffer_pattern=0x1234abcd",
    ];
    let f = write("fio", &args, &["p"]);
    let i = write("iomark", &args, &["p"]);
    assert_eq!(i, f);
    assert_eq!(
        &f[0][0][..8],
        &[0x12, 0x34, 0xab, 0xcd, 0x12, 0x34, 0xab, 0xcd]
    );
    // fio 3.33 reads no formats in buffer_pattern: %o fails to parse, and nothing is written.
    for tool in ["fio", "iomark"] {
        let d = Scratch::new("bufpat");
        let f = format!("--filename={}", d.s("x"));
        let o = run_tool(
            tool,
            &["--name=w", &f, "--size=64k", "--buffer_pattern=0xaa%o"],
            &d.path,
        );
        assert!(!o.status.success(), "{tool}");
        assert!(
            stderr(&o).contains("buffer_pattern"),
            "{tool}: {}",
            stderr(&o)
        );
        assert!(!d.file("x").exists(), "{tool}");
    }
}

#[test]
fn dedupe_repeat_repeats_the_last_unique_block_as_fio() {
    let args = [
        "--size=8m",
        "--bs=4k",
        "--rw=write",
        "--dedupe_percentage=40",
    ];
    let mut ratios = Vec::new();
    for tool in ["fio", "iomark"] {
        let b = &write(tool, &args, &["r"])[0];
        let r = unique_ratio(b);
        // A repeated block is the one written just before it (a sequential job).
        let repeats = b.windows(2).filter(|w| w[0] == w[1]).count();
        let distinct = b.iter().collect::<HashSet<_>>().len();
        assert_eq!(repeats, b.len() - distinct, "{tool}");
        assert!((r - 0.6).abs() < 0.04, "{tool}: {r}");
        ratios.push(r);
    }
    assert!((ratios[0] - ratios[1]).abs() < 0.04, "{ratios:?}");
}

/// The blocks that occur more than once all belong to the first `ws` distinct blocks of the
/// file (a sequential job writes its working set first).
fn duplicates_from_working_set(b: &[Vec<u8>], ws: usize) -> bool {
    let mut first: HashMap<&Vec<u8>, usize> = HashMap::new();
    for x in b {
        let n = first.len();
        first.entry(x).or_insert(n);
    }
    let mut seen = HashSet::new();
    b.iter().all(|x| seen.insert(x) || first[x] < ws)
}

#[test]
fn dedupe_working_set_draws_duplicates_from_the_first_blocks_as_fio() {
    // 8 MiB, 10 per cent working set: 204 blocks.
    let args = [
        "--size=8m",
        "--bs=4k",
        "--rw=write",
        "--dedupe_percentage=50",
        "--dedupe_mode=working_set",
        "--dedupe_working_set_percentage=10",
    ];
    let mut ratios = Vec::new();
    for tool in ["fio", "iomark"] {
        let b = &write(tool, &args, &["w"])[0];
        let r = unique_ratio(b);
        assert!((r - 0.5).abs() < 0.04, "{tool}: {r}");
        assert!(duplicates_from_working_set(b, 204), "{tool}");
        // Not the repeat mode: a duplicate is rarely the block before it.
        let repeats = b.windows(2).filter(|w| w[0] == w[1]).count();
        assert!(repeats < 20, "{tool}: {repeats}");
        ratios.push(r);
    }
    assert!((ratios[0] - ratios[1]).abs() < 0.04, "{ratios:?}");
}

#[test]
fn dedupe_global_shares_the_working_set_between_jobs_as_fio() {
    for global in ["1", "0"] {
        let g = format!("--dedupe_global={global}");
        let args = [
            "--size=4m",
            "--bs=4k",
            "--rw=write",
            "--dedupe_percentage=50",
            "--dedupe_mode=working_set",
            "--dedupe_working_set_percentage=20",
            g.as_str(),
        ];
        let mut found = Vec::new();
        for tool in ["fio", "iomark"] {
            let f = write(tool, &args, &["g1", "g2"]);
            let a: HashSet<_> = f[0].iter().collect();
            let b: HashSet<_> = f[1].iter().collect();
            let common = a.intersection(&b).count();
            found.push((common, unique_ratio(&f[0]), unique_ratio(&f[1])));
        }
        let (fc, f1, f2) = found[0];
        let (ic, i1, i2) = found[1];
        if global == "1" {
            // Half of each job's working set (204 blocks) is the other job's first blocks.
            assert!(fc > 100 && ic > 100, "{found:?}");
            assert!((fc as f64 - ic as f64).abs() < 40.0, "{found:?}");
        } else {
            assert_eq!((fc, ic), (0, 0), "{found:?}");
        }
        for (x, y) in [(f1, i1), (f2, i2)] {
            assert!((x - y).abs() < 0.05, "global={global}: {found:?}");
        }
    }
}

#[test]
fn dedupe_working_set_values_are_checked_as_fio() {
    let d = Scratch::new("dedupe-bad");
    let f = format!("--filename={}", d.s("x"));
    let cases: &[(&[&str], &str)] = &[
        (
            &["--size=1m", "--dedupe_working_set_percentage=60"],
            "dedupe_working_set_percentage",
        ),
        (&[], "size"),
    ];
    for (extra, word) in cases {
        let mut a = vec![
            "--name=w",
            f.as_str(),
            "--rw=write",
            "--dedupe_percentage=50",
            "--dedupe_mode=working_set",
        ];
        a.extend_from_slice(extra);
        assert!(!fio_in(&a, &d.path).status.success(), "fio {extra:?}");
        let o = run_tool("iomark", &a, &d.path);
        assert_eq!(o.status.code(), Some(2), "{extra:?}");
        assert!(stderr(&o).contains(word), "{extra:?}: {}", stderr(&o));
    }
    for (opt, v) in [
        ("dedupe_mode", "sometimes"),
        ("dedupe_working_set_percentage", "101"),
    ] {
        let a = format!("--{opt}={v}");
        let o = run_tool("iomark", &["--name=w", &f, "--size=1m", &a], &d.path);
        assert_eq!(o.status.code(), Some(2), "{opt}");
        assert!(
            stderr(&o).contains(opt) && stderr(&o).contains(v),
            "{}",
            stderr(&o)
        );
    }
    assert!(!d.file("x").exists());
}
