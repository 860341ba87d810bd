//! The system table of a report, for the result file of every command that writes one (run,
//! quick, sweep, preset, bonnie, blogbench, iozone, dd, hdparm), made here on /dev/shm: the
//! file records the host and its targets, and the report shows each fact it records.

use crate::report_suites::suite_results;
use crate::util::*;
use serde_json::Value;
use std::path::Path;

/// The rows of the system table in the report of `file`, made in `d`.
fn system_rows(d: &Scratch, file: &Path) -> Vec<(String, String)> {
    let html = d.file("system.html");
    let (f, h) = (file.display().to_string(), html.display().to_string());
    ok(&iomark_in(&["report", &f, "-o", &h], &d.path));
    let page = std::fs::read_to_string(&html).unwrap();
    let at = page.find("<table class=facts>").expect("a system table");
    let t = &page[at..];
    let t = &t[..t.find("</table>").unwrap()];
    let unesc = |s: &str| {
        s.replace("&quot;", "\"")
            .replace("&lt;", "<")
            .replace("&gt;", ">")
    };
    t.split("<tr><th class=l>")
        .skip(1)
        .filter_map(|r| {
            let (k, v) = r.split_once("</th><td>")?;
            Some((
                unesc(k),
                unesc(v.split("</td>").next()?).replace("&amp;", "&"),
            ))
        })
        .collect()
}

/// A result file's first run (a preset's holds its runs under `runs`).
fn first_run(file: &Path) -> Value {
    let doc: Value = serde_json::from_slice(&std::fs::read(file).unwrap()).unwrap();
    match doc.get("runs") {
        Some(runs) => runs[0].clone(),
        None => doc,
    }
}

#[test]
fn every_result_file_is_reported_with_its_system() {
    let d = Scratch::new_in("/dev/shm", "report-system");
    let mut files = suite_results(&d);
    let run = d.file("run.json");
    ok(&iomark_in(
        &[
            "run",
            "--name=w",
            "--rw=write",
            "--bs=64k",
            "--size=4m",
            &format!("--filename={}", d.s("run.dat")),
            &format!("--result={}", run.display()),
        ],
        &d.path,
    ));
    files.push(run);
    let quick_dir = d.file("q");
    std::fs::create_dir(&quick_dir).unwrap();
    let quick = d.file("quick.json");
    ok(&iomark_in(
        &[
            "quick",
            &quick_dir.display().to_string(),
            "--size=8m",
            "--runtime=100ms",
            "--ramp=0",
            "--result-file",
            &quick.display().to_string(),
        ],
        &d.path,
    ));
    files.push(quick);
    let iozone = d.file("iz.json");
    ok(&iomark_in(
        &[
            "iozone",
            "-s",
            "256k",
            "-r",
            "64k",
            "-i",
            "0",
            "-f",
            &d.s("iz.dat"),
            "--result",
            &iozone.display().to_string(),
        ],
        &d.path,
    ));
    files.push(iozone);
    let hostname = std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap();
    let kernel = std::fs::read_to_string("/proc/sys/kernel/osrelease").unwrap();
    for file in &files {
        let name = file.display().to_string();
        let r = first_run(file);
        let h = &r["host"];
        // The file records the machine it ran on.
        assert_eq!(h["hostname"], hostname.trim(), "{name}");
        assert_eq!(h["kernel"], kernel.trim(), "{name}");
        let rows = system_rows(&d, file);
        let get = |k: &str| {
            rows.iter()
                .find(|r| r.0 == k)
                .map(|r| r.1.clone())
                .unwrap_or_else(|| panic!("{name}: no '{k}' in {rows:?}"))
        };
        assert_eq!(get("host"), hostname.trim(), "{name}");
        assert_eq!(get("kernel"), kernel.trim(), "{name}");
        assert_eq!(get("CPUs"), h["cpus"].to_string(), "{name}");
        let gib = h["mem_bytes"].as_f64().unwrap() / (1u64 << 30) as f64;
        assert_eq!(get("memory"), format!("{gib:.1} GiB"), "{name}");
        for (k, key) in [
            ("distribution", "os"),
            ("CPU model", "cpu_model"),
            ("machine", "machine"),
            ("virtualization", "virtualization"),
        ] {
            if let Some(v) = h[key].as_str().filter(|v| !v.is_empty()) {
                assert_eq!(get(k), v, "{name}: {k}");
            }
        }
        // Every target a job recorded, with its file system, mount options and scheduler.
        let targets: Vec<&Value> = r["jobs"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|j| j["targets"].as_array().unwrap())
            .collect();
        let null_engine = name.ends_with("sw.json");
        assert!(
            null_engine || !targets.is_empty(),
            "{name}: no target recorded"
        );
        for t in targets {
            let row = get(&format!("target {}", t["path"].as_str().unwrap()));
            for (key, word) in [
                ("fs_type", "filesystem "),
                ("mount_options", "mounted "),
                ("device_model", "model "),
                ("scheduler", "scheduler "),
            ] {
                if let Some(v) = t[key].as_str() {
                    assert!(
                        row.contains(&format!("{word}{v}")),
                        "{name}: {key} in {row}"
                    );
                }
            }
            if t["kind"] == "file" {
                assert_eq!(t["fs_type"], "tmpfs", "{name}: {t}");
                assert!(t["mount_options"].is_string(), "{name}: {t}");
            }
        }
    }
}
