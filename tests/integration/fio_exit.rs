//! `exitall` with `exit_what` (group, stonewall, all), fio 3.33 beside iomark on the same job
//! file: which jobs a finishing job stops.

use crate::util::*;
use serde_json::Value;

/// Job `a` finishes at once and stops others; `b` (its group) and `c` (a group of its own
/// running beside it) would take 2 s at 1 MiB/s; `d` runs after them (stonewall).
const JOBS: &str = "[global]
bs=4k
rw=read
exitall
exit_what=WHAT

[a]
filename=a.dat
size=64k

[b]
filename=b.dat
size=2m
rate=1m

[c]
new_group
filename=c.dat
size=2m
rate=1m

[d]
stonewall
filename=d.dat
size=64k
";

/// Bytes read per job name (0 for a job the output leaves out).
fn bytes(v: &Value, name: &str) -> u64 {
    v["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|j| j["jobname"] == name)
        .map_or(0, |j| u(&j["read"]["io_bytes"]))
}

#[test]
fn exit_what_stops_the_jobs_fio_stops() {
    const FULL: u64 = 2 << 20;
    // (exit_what, b stopped, c stopped, d runs)
    for (what, b_stopped, c_stopped, d_runs) in [
        ("group", true, false, true),
        ("stonewall", true, true, true),
        ("all", true, true, false),
    ] {
        let d = Scratch::new_in("/dev/shm", "exitwhat");
        let file = d.file("jobs.fio");
        std::fs::write(&file, JOBS.replace("WHAT", what)).unwrap();
        let f = file.display().to_string();
        let args = ["--output-format=json", f.as_str()];
        for tool in ["fio", "iomark"] {
            let o = run_tool(tool, &args, &d.path);
            let v = if tool == "fio" {
                fio_json(&o)
            } else {
                json(&o)
            };
            let what = format!("{tool} exit_what={what}");
            assert_eq!(bytes(&v, "a"), 64 << 10, "{what}");
            assert_eq!(
                bytes(&v, "b") < FULL,
                b_stopped,
                "{what}: b read {}",
                bytes(&v, "b")
            );
            assert_eq!(
                bytes(&v, "c") < FULL,
                c_stopped,
                "{what}: c read {}",
                bytes(&v, "c")
            );
            assert_eq!(
                bytes(&v, "d") == 64 << 10,
                d_runs,
                "{what}: d read {}",
                bytes(&v, "d")
            );
            for f in ["a.dat", "b.dat", "c.dat", "d.dat"] {
                let _ = std::fs::remove_file(d.file(f));
            }
        }
    }
}
