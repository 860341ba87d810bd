//! The cpuio engine beside fio 3.33 (issue 25): the same job burns about `cpuload`% of a CPU,
//! counts its I/Os without bytes or a direction's runtime, and prints the same blocks.

use crate::util::*;
use serde_json::Value;

/// The job under fio and under iomark at the same time (so both see the same machine load):
/// their JSON documents and normal outputs.
fn side_by_side(extra: &[&str]) -> [(Value, String); 2] {
    let d = Scratch::new("cpuio");
    let mut args = vec![
        "--name=burn",
        "--ioengine=cpuio",
        "--cpuload=50",
        "--cpuchunks=20000",
        "--runtime=2",
        "--time_based",
    ];
    args.extend_from_slice(extra);
    let run = |tool: &'static str, format: &'static str| {
        let dir = d.file(&format!("{tool}-{format}"));
        std::fs::create_dir_all(&dir).unwrap();
        let mut a = vec![format!("--output-format={format}")];
        a.extend(args.iter().map(|s| s.to_string()));
        std::thread::spawn(move || {
            let a: Vec<&str> = a.iter().map(String::as_str).collect();
            run_tool(tool, &a, &dir)
        })
    };
    let runs = [
        run("fio", "json"),
        run("iomark", "json"),
        run("fio", "normal"),
        run("iomark", "normal"),
    ];
    let mut outs: Vec<_> = runs.into_iter().map(|h| h.join().unwrap()).collect();
    let normal_iomark = outs.pop().unwrap();
    let normal_fio = outs.pop().unwrap();
    ok(&normal_fio);
    ok(&normal_iomark);
    [
        (fio_json(&outs[0]), stdout(&normal_fio)),
        (json(&outs[1]), stdout(&normal_iomark)),
    ]
}

/// The figures compared: I/Os per direction, read bytes and runtime, error, usr CPU %.
fn figures(v: &Value) -> ([u64; 3], u64, u64, u64, f64) {
    let j = job(v, 0);
    (
        [
            u(&j["read"]["total_ios"]),
            u(&j["write"]["total_ios"]),
            u(&j["trim"]["total_ios"]),
        ],
        u(&j["read"]["io_bytes"]),
        u(&j["read"]["runtime"]),
        u(&j["error"]),
        f(&j["usr_cpu"]),
    )
}

#[test]
fn cpuio_burns_and_counts_as_fio() {
    for mode in ["noop", "qsort"] {
        let m = format!("--cpumode={mode}");
        let [(fv, fnormal), (iv, inormal)] = side_by_side(&[&m]);
        let (fios, fbytes, fruntime, ferr, fusr) = figures(&fv);
        let (iios, ibytes, iruntime, ierr, iusr) = figures(&iv);
        // No data moves and no direction has a runtime: the I/Os are counted, without bytes.
        assert_eq!((ibytes, iruntime, ierr), (fbytes, fruntime, ferr), "{mode}");
        assert_eq!((ibytes, iruntime, ierr), (0, 0, 0), "{mode}");
        assert_eq!(&iios[1..], &fios[1..], "{mode}");
        // noop: each I/O is a 20 ms burn and a 20 ms think, by the clock, so both count about
        // 50 in 2 s whatever the load. A qsort burn is a sort's time, and iomark's sort is
        // faster than fio's (libc's qsort through a comparison function): more I/Os, the same
        // share of the CPU.
        let (a, b) = (iios[0] as f64, fios[0] as f64);
        assert!(a > 0.0 && b > 0.0, "{mode}: {iios:?} {fios:?}");
        if mode == "noop" {
            assert!(
                (a - b).abs() <= (b * 0.25).max(3.0),
                "{mode}: iomark {a} I/Os, fio {b}"
            );
        }
        // The CPU used: at most the load asked for (with a margin for the process's own
        // threads), and like fio's on the same loaded machine.
        assert!(iusr > 0.0 && iusr <= 60.0, "{mode}: usr {iusr}%");
        assert!(
            iusr >= fusr * 0.4 && iusr <= fusr * 2.5 + 5.0,
            "{mode}: usr iomark {iusr}%, fio {fusr}%"
        );
        // The normal output's shape: the engine's set-up line, no per-job header, no read
        // block, an empty group line.
        let setup = format!("burn ({mode}): ioengine=cpuio, cpuload=50, cpucycle=");
        for (tool, out) in [("fio", &fnormal), ("iomark", &inormal)] {
            assert!(out.contains(&setup), "{tool}:\n{out}");
            assert!(!out.contains("(g=0)"), "{tool}:\n{out}");
            assert!(!out.contains("  read: IOPS"), "{tool}:\n{out}");
            assert!(!out.contains("READ: bw"), "{tool}:\n{out}");
            assert!(out.contains("issued rwts: total="), "{tool}:\n{out}");
        }
    }
}

#[test]
fn cpuio_needs_cpuload_before_anything_runs() {
    let d = Scratch::new("cpuio-noload");
    let o = iomark_in(
        &["run", "--name=burn", "--ioengine=cpuio", "--runtime=1"],
        &d.path,
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("needs cpuload="), "{}", stderr(&o));
    // fio refuses it too, when the engine starts.
    let f = fio_in(&["--name=burn", "--ioengine=cpuio", "--runtime=1"], &d.path);
    let said = format!("{}{}", stdout(&f), stderr(&f));
    assert!(!f.status.success() && said.contains("cpuload="), "{said}");
    assert_eq!(std::fs::read_dir(&d.path).unwrap().count(), 0);
}
