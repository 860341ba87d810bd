//! `iomark iozone -t N` under `mpirun -np 4` (`--features mpi` only): every rank runs its N
//! children, each rank on its own files (`$rank` in `-F`), and rank 0 prints iozone's
//! throughput blocks over all 4 × N children, whose per-child figures add up to the total;
//! the files are removed after the run (kept with `-w`); the result file holds each rank's share.

use crate::mpi::run;
use crate::util::{stderr, stdout, Scratch};

/// One block of the text output: its label, the "Children see" figure, and the Child[i] lines
/// (xfer kB, throughput).
type Block = (String, f64, Vec<(f64, f64)>);

fn blocks(out: &str) -> Vec<Block> {
    let num = |s: &str| s.split_whitespace().next().unwrap().parse::<f64>().unwrap();
    let mut v: Vec<Block> = Vec::new();
    for line in out.lines() {
        let l = line.trim();
        if let Some(rest) = l.strip_prefix("Children see throughput for") {
            let (who, fig) = rest.split_once('=').unwrap();
            v.push((who.trim().to_string(), num(fig), Vec::new()));
        } else if l.starts_with("Child[") {
            let (_, x) = l.split_once("xfer count =").unwrap();
            let (xfer, t) = x.split_once(", Throughput =").unwrap();
            v.last_mut().unwrap().2.push((num(xfer), num(t)));
        }
    }
    v
}

#[test]
fn iozone_throughput_mode_runs_every_ranks_children_and_adds_them_up() {
    let d = Scratch::new("mpi-iozone");
    let args = [
        "iozone",
        "-t",
        "2",
        "-s",
        "1m",
        "-r",
        "64k",
        "-i",
        "0",
        "-i",
        "1",
        "-C",
        "-F",
        "f.$rank.0",
        "f.$rank.1",
        "--result",
        "r.json",
    ];
    let o = run(4, &args, &d.path);
    let out = stdout(&o);
    assert!(o.status.success(), "{out}\n{}", stderr(&o));
    let b = blocks(&out);
    let labels: Vec<&str> = b.iter().map(|x| x.0.as_str()).collect();
    assert_eq!(
        labels,
        [
            "8 initial writers",
            "8 rewriters",
            "8 readers",
            "8 re-readers"
        ],
        "{out}"
    );
    assert_eq!(
        out.matches("Min throughput per process").count(),
        4,
        "{out}"
    );
    assert_eq!(
        out.matches("Parent sees throughput for  8 ").count(),
        4,
        "{out}"
    );
    for (who, total, children) in &b {
        assert_eq!(children.len(), 8, "{who}: {out}");
        let sum: f64 = children.iter().map(|c| c.1).sum();
        // Each printed figure is rounded to 0.01.
        assert!((sum - total).abs() <= 0.05, "{who}: {sum} vs {total}");
        assert!(*total > 0.0, "{who}");
    }
    // iozone removes the children's files after the run.
    let left: Vec<String> = std::fs::read_dir(&d.path)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != "r.json")
        .collect();
    assert!(left.is_empty(), "left behind: {left:?}");
    // The result: every child of every rank, and each rank's share adding up to the whole.
    let r: serde_json::Value =
        serde_json::from_slice(&std::fs::read(d.file("r.json")).unwrap()).unwrap();
    let tp = r["iozone"]["throughput"].as_array().unwrap();
    assert_eq!(tp.len(), 4);
    for t in tp {
        assert_eq!(t["children"], 8);
        assert_eq!(t["per_child"].as_array().unwrap().len(), 8);
        let ranks = t["ranks"].as_array().unwrap();
        let rank_ids: Vec<u64> = ranks.iter().map(|x| x["rank"].as_u64().unwrap()).collect();
        assert_eq!(rank_ids, [0, 1, 2, 3]);
        let sum: f64 = ranks
            .iter()
            .map(|x| x["children_see"].as_f64().unwrap())
            .sum();
        let all = t["children_see"].as_f64().unwrap();
        assert!((sum - all).abs() <= 1e-6 * all.max(1.0), "{sum} vs {all}");
        assert!(ranks.iter().all(|x| x["children"] == 2));
    }
}

#[test]
fn iozone_without_stonewall_writes_every_file_of_every_rank() {
    let d = Scratch::new("mpi-iozone-x");
    // No `$rank`: each rank's files get the suffix .RANK; -w keeps them, -x runs every child
    // to its end.
    let args = [
        "iozone", "-t", "2", "-s", "256k", "-r", "64k", "-i", "0", "-x", "-w", "-C", "-F", "a", "b",
    ];
    let o = run(4, &args, &d.path);
    let out = stdout(&o);
    assert!(o.status.success(), "{out}\n{}", stderr(&o));
    assert!(stderr(&o).contains("suffix .RANK"), "{}", stderr(&o));
    for (who, _, children) in blocks(&out) {
        assert_eq!(children.len(), 8, "{who}");
        assert!(children.iter().all(|c| c.0 == 256.0), "{who}: {out}");
    }
    for r in 0..4 {
        for f in ["a", "b"] {
            let p = d.file(&format!("{f}.{r}"));
            let len = std::fs::metadata(&p).map(|m| m.len()).unwrap_or(0);
            assert_eq!(len, 256 << 10, "{}", p.display());
        }
    }
}

#[test]
fn iozone_outside_throughput_mode_is_refused_on_every_rank() {
    let d = Scratch::new("mpi-iozone-matrix");
    let o = run(4, &["iozone", "-s", "64k", "-r", "4k", "-i", "0"], &d.path);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("throughput mode only"),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read_dir(&d.path).unwrap().count(), 0);
}
