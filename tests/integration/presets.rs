//! `iomark preset`: every preset's job file is accepted by fio and run by iomark; every preset
//! runs (shrunk) on tmpfs, its summary's arithmetic matches the jobs' figures, and it leaves
//! nothing behind; the safety refusals.

use crate::util::*;
use serde_json::Value;

const PRESETS: [&str; 11] = [
    "backup-repo",
    "cloud-disk",
    "rbd-matrix",
    "virt-compare",
    "cdm-standard",
    "cdm-nvme",
    "cdm-peak",
    "cdm-real-world",
    "oltp",
    "vm-boot-storm",
    "file-server",
];

const SHRINK: [&str; 6] = ["--size", "16m", "--runtime", "200ms", "--warmup", "100ms"];

#[test]
fn list_names_every_preset() {
    let o = iomark(&["preset", "list"]);
    ok(&o);
    let s = stdout(&o);
    for p in PRESETS {
        assert!(s.lines().any(|l| l.starts_with(p)), "{p} missing:\n{s}");
    }
    let o = iomark(&["preset", "run", "nope"]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(
        e.contains("unknown preset 'nope'; the presets are: backup-repo, cloud-disk"),
        "{e}"
    );
}

#[test]
fn shown_job_files_parse_in_fio_and_run_in_iomark() {
    let d = Scratch::new("preset-show");
    for p in PRESETS {
        let mut args = vec!["preset", "show", p];
        args.extend(SHRINK);
        let o = iomark_in(&args, &d.path);
        ok(&o);
        let file = d.file(&format!("{p}.fio"));
        std::fs::write(&file, stdout(&o)).unwrap();
        let f = fio_in(&["--parse-only", &file.display().to_string()], &d.path);
        assert!(
            f.status.success(),
            "fio rejects {p}: {}",
            String::from_utf8_lossy(&f.stderr)
        );
        let r = iomark_in(
            &["run", "--output-format=json", &file.display().to_string()],
            &d.path,
        );
        let v = json(&r);
        assert!(!v["jobs"].as_array().unwrap().is_empty(), "{p}");
        std::fs::remove_file(d.file(&format!("iomark-{p}.tmp"))).unwrap();
        std::fs::remove_file(&file).unwrap();
    }
}

/// A figure recomputed from the jobs of one run in the result file: the per-clone bytes (or
/// I/Os) over each clone's measured time, summed, for the jobs and directions named.
fn from_jobs(run: &Value, jobs: &[&str], dirs: &[&str], ios: bool) -> f64 {
    // As fio's figure of a job: its clones' total over the longest clone's runtime, added over
    // the named jobs and the directions.
    let plan = run["plan"]["jobs"].as_array().unwrap();
    let mut per: std::collections::BTreeMap<(u64, &str), (f64, f64)> = Default::default();
    for j in run["jobs"].as_array().unwrap() {
        let index = u(&j["job_index"]);
        let name = plan[index as usize]["name"].as_str().unwrap();
        if !jobs.contains(&name) {
            continue;
        }
        for d in dirs {
            let x = &j["dirs"][d];
            let n = if ios {
                f(&x["total_ios"])
            } else {
                f(&x["io_bytes"])
            };
            let e = per.entry((index, d)).or_default();
            e.0 += n;
            e.1 = e.1.max(f(&x["runtime_ms"]));
        }
    }
    per.values()
        .filter(|(_, ms)| *ms > 0.0)
        .map(|(n, ms)| n * 1000.0 / ms)
        .sum()
}

fn headline(doc: &Value, label: &str) -> f64 {
    let figs = doc["summary"]["figures"].as_array().unwrap();
    let fig = figs
        .iter()
        .find(|x| x["figure"] == label)
        .unwrap_or_else(|| panic!("no figure {label}"));
    f(&fig["headline"])
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-6 * a.abs().max(b.abs()).max(1.0)
}

#[test]
fn every_preset_runs_on_tmpfs_and_cleans_up() {
    let d = Scratch::new_in("/dev/shm", "preset-run");
    let out = Scratch::new("preset-out");
    for p in PRESETS {
        let rf = out.s(&format!("{p}.json"));
        let mut args = vec!["preset", "run", p, d.path.to_str().unwrap()];
        args.extend(SHRINK);
        args.extend(["--repeat", "1", "--result", &rf]);
        let o = iomark_in(&args, &out.path);
        ok(&o);
        let s = stdout(&o);
        assert!(s.contains(&format!("{p} summary (1 run)")), "{s}");
        assert!(s.contains("Run status group"), "{p}: no job output");
        assert_eq!(
            std::fs::read_dir(&d.path).unwrap().count(),
            0,
            "{p} left its file"
        );
        let doc: Value = serde_json::from_slice(&std::fs::read(&rf).unwrap()).unwrap();
        assert_eq!(doc["runs"].as_array().unwrap().len(), 1);
        for fig in doc["summary"]["figures"].as_array().unwrap() {
            assert!(f(&fig["headline"]) > 0.0, "{p}: {fig}");
        }
        let run = &doc["runs"][0];
        let both = ["read", "write"];
        match p {
            "backup-repo" => {
                let mb = |jobs: &[&str], dirs: &[&str]| from_jobs(run, jobs, dirs, false) / 1e6;
                assert!(close(
                    headline(&doc, "active full / forward incremental"),
                    mb(&["active-full"], &both)
                ));
                assert!(close(
                    headline(&doc, "synthetic full (merge)"),
                    mb(&["synthetic-full"], &both) / 2.0
                ));
                assert!(close(
                    headline(&doc, "reverse incremental"),
                    mb(&["reverse-incremental"], &both) / 3.0
                ));
                assert!(close(
                    headline(&doc, "restore from random reads (lower bound)"),
                    mb(&["restore-fragmented"], &["read"])
                ));
                assert!(s.contains("restore: "), "{s}");
            }
            "cloud-disk" => {
                assert!(close(
                    headline(&doc, "max write IOPS (8 KiB)"),
                    from_jobs(run, &["max-write-iops"], &["write"], true)
                ));
                assert!(close(
                    headline(&doc, "mixed IOPS (4 KiB, writers capped)"),
                    from_jobs(run, &["mixed-read", "mixed-write"], &both, true)
                ));
                assert_eq!(doc["summary"]["warmups"].as_array().unwrap().len(), 2);
                assert!(s.contains("warm-up warmup-write (not in the figures)"));
            }
            "virt-compare" => {
                let mb = |jobs: &[&str], dirs: &[&str]| from_jobs(run, jobs, dirs, false) / 1e6;
                assert!(close(
                    headline(&doc, "bonnie++ block output"),
                    mb(&["bonnie-block-output"], &["write"])
                ));
                assert!(close(
                    headline(&doc, "bonnie++ rewrite"),
                    mb(&["bonnie-rewrite"], &both) / 2.0
                ));
                // Three seekers' seeks per second, added up.
                assert!(close(
                    headline(&doc, "bonnie++ random seeks (/s)"),
                    from_jobs(run, &["bonnie-random-seeks"], &both, true)
                ));
                let seekers = run["jobs"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|j| {
                        run["plan"]["jobs"][u(&j["job_index"]) as usize]["name"]
                            == "bonnie-random-seeks"
                    })
                    .count();
                assert_eq!(seekers, 3);
                assert!(s.contains("(read + write) / 2"), "{s}");
            }
            _ => {}
        }
    }
}

/// virt-compare runs three times by default (figures are their mean, every run kept), and two
/// guests' result files go side by side in `iomark compare`.
#[test]
fn virt_compare_runs_three_times_and_compares() {
    let d = Scratch::new_in("/dev/shm", "preset-virt");
    let out = Scratch::new("preset-virt-out");
    let mut files = Vec::new();
    for guest in ["virtio", "ide"] {
        let rf = out.s(&format!("{guest}.json"));
        let o = iomark_in(
            &[
                "preset",
                "run",
                "virt-compare",
                d.path.to_str().unwrap(),
                "--size",
                "8m",
                "--result",
                &rf,
            ],
            &out.path,
        );
        ok(&o);
        assert!(
            stdout(&o).contains("virt-compare summary (3 runs, headline = mean of the runs)"),
            "{}",
            stdout(&o)
        );
        let doc: Value = serde_json::from_slice(&std::fs::read(&rf).unwrap()).unwrap();
        assert_eq!(doc["runs"].as_array().unwrap().len(), 3);
        files.push(rf);
    }
    let o = iomark_in(&["compare", &files[0], &files[1]], &out.path);
    ok(&o);
    let s = stdout(&o);
    for want in ["bonnie-random-seeks", "dd-read-8m", "fio-randwrite", "ide"] {
        assert!(s.contains(want), "compare lacks {want}:\n{s}");
    }
    assert_eq!(std::fs::read_dir(&d.path).unwrap().count(), 0);
}

/// cloud-disk, small and short with no warm-up, on a new directory of /dev/shm with `extra`
/// options and a result file `r.json` in a directory of its own, which the run starts in:
/// the output, the target directory and the result's directory.
fn cloud_disk(tag: &str, extra: &[&str]) -> (std::process::Output, Scratch, Scratch) {
    let d = Scratch::new_in("/dev/shm", tag);
    let out = Scratch::new(&format!("{tag}-out"));
    let rf = out.s("r.json");
    let dir = d.path.to_str().unwrap();
    let mut args = vec![
        "preset",
        "run",
        "cloud-disk",
        dir,
        "--size=16m",
        "--runtime=100ms",
    ];
    args.extend(["--warmup=0", "--result", &rf]);
    args.extend(extra);
    let o = iomark_in(&args, &out.path);
    (o, d, out)
}

#[test]
fn repeat_and_expectations() {
    let (o, d, out) = cloud_disk(
        "preset-repeat",
        &[
            "--repeat=3",
            "--repeat-agg=median",
            "--expect-iops=1e12",
            "--expect-mbps=1",
        ],
    );
    // A FAIL against the provisioned limits exits 1, as a failed check does.
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let s = stdout(&o);
    assert!(
        s.contains("cloud-disk summary (3 runs, headline = median of the runs)"),
        "{s}"
    );
    assert!(s.contains("±95% CI"));
    assert!(s.contains("max write IOPS (8 KiB): "));
    assert!(s.contains("against the expected limits:\n"), "{s}");
    assert!(s.contains(": missed ("), "{s}");
    assert!(s.contains("max read throughput (64 KiB): "));
    let doc: Value = serde_json::from_slice(&std::fs::read(out.file("r.json")).unwrap()).unwrap();
    assert_eq!(doc["runs"].as_array().unwrap().len(), 3);
    assert_eq!(doc["outputs"].as_array().unwrap().len(), 3);
    let fig = &doc["summary"]["figures"][0];
    assert_eq!(fig["samples"].as_array().unwrap().len(), 3);
    // --warmup=0 leaves the warm-up out.
    assert_eq!(doc["summary"]["warmups"].as_array().unwrap().len(), 0);
    assert_eq!(std::fs::read_dir(&d.path).unwrap().count(), 0);
}

#[test]
fn presets_refuse_existing_targets_and_absurd_sizes() {
    let d = Scratch::new("preset-safety");
    let f = d.file("precious");
    std::fs::write(&f, b"data").unwrap();
    let o = iomark(&["preset", "run", "backup-repo", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("pass --allow-write"), "{}", stderr(&o));
    assert_eq!(std::fs::read(&f).unwrap(), b"data");
    let o = iomark(&["preset", "run", "oltp", "/dev/null"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("is an existing device"));
    let o = iomark(&[
        "preset",
        "run",
        "oltp",
        d.path.to_str().unwrap(),
        "--size=1000t",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("refusing to lay out"), "{}", stderr(&o));
    assert_eq!(std::fs::read_dir(&d.path).unwrap().count(), 1);
}

/// cloud-disk against a disk type's published limits and one figure's own limit, in one run:
/// each set of limits checked on its own, every figure met or missed; the summary says how
/// the jobs ran.
#[test]
fn cloud_disk_against_disk_types_and_per_figure_limits() {
    let o = iomark(&["preset", "disks"]);
    ok(&o);
    assert!(stdout(&o).contains("azure-p10"), "{}", stdout(&o));
    let (o, d, out) = cloud_disk(
        "preset-disks",
        &["--disk=azure-p10", "--expect", "write.iops=1e12"],
    );
    // 10^12 IOPS is missed: the run failed its check, exit status 1.
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let s = stdout(&o);
    assert!(
        s.contains("against the expected limits:\n  max write IOPS (8 KiB): "),
        "{s}"
    );
    assert!(s.contains(" of 1000000000000 IOPS: missed ("), "{s}");
    assert!(s.contains("against azure-p10:\n"), "{s}");
    assert!(
        s.contains("  max combined throughput (64 KiB, 50 % reads): "),
        "{s}"
    );
    assert!(
        s.contains("  limits: Azure Premium SSD P10 (128 GiB): "),
        "{s}"
    );
    assert!(s.contains("\nengine: libaio\n"), "{s}");
    assert!(s.contains("\nqueue depth: "), "{s}");
    assert!(s.contains("\nI/O: "), "{s}");
    let doc: Value = serde_json::from_slice(&std::fs::read(out.file("r.json")).unwrap()).unwrap();
    let targets = doc["summary"]["targets"].as_array().unwrap();
    assert_eq!(targets.len(), 2);
    assert_eq!(targets[1]["limits"]["read.iops"], 500.0);
    let checks = doc["summary"]["checks"].as_array().unwrap();
    assert_eq!(checks.len(), 1 + 6);
    assert_eq!(checks[0]["pass"], false);
    assert_eq!(std::fs::read_dir(&d.path).unwrap().count(), 0);
    // A limit for a figure the preset does not have is refused before any I/O.
    let o = iomark(&[
        "preset",
        "run",
        "cloud-disk",
        d.path.to_str().unwrap(),
        "--expect",
        "reads.iops=5",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("cloud-disk has no such figure"),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read_dir(&d.path).unwrap().count(), 0);
}
