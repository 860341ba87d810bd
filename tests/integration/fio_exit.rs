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
            // On a loaded machine fio may start b or c only after a has ended (then nothing
            // stops them): fio gets three tries to show its rule.
            let tries = if tool == "fio" { 3 } else { 1 };
            let mut v = Value::Null;
            for _ in 0..tries {
                v = tool_json(tool, &run_tool(tool, &args, &d.path));
                if (bytes(&v, "c") < FULL) == c_stopped && (bytes(&v, "b") < FULL) == b_stopped {
                    break;
                }
                for f in ["a.dat", "b.dat", "c.dat", "d.dat"] {
                    let _ = std::fs::remove_file(d.file(f));
                }
            }
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

#[test]
fn exitall_on_error_stops_the_group_when_a_job_fails() {
    crate::blockdev::root_required();
    let fs = crate::faultfs::FaultFs {
        data: std::sync::Mutex::new(vec![0u8; 1 << 20]),
        bad_read: vec![(40960, 45056)],
        bad_write: Vec::new(),
        short_read: Vec::new(),
        short_write: Vec::new(),
        errno: 0,
    };
    let fm = crate::faultfs::FuseMount::new("exiterr", fs);
    const FULL: u64 = 2 << 20;
    for (opt, b_stopped) in [("exitall_on_error", true), ("", false)] {
        let d = Scratch::new_in("/dev/shm", "exiterr");
        let file = d.file("jobs.fio");
        let jobs = format!(
            "[global]\nbs=4k\nrw=read\n\n[a]\nfilename={}\nsize=1m\n{opt}\n\n[b]\nfilename=b.dat\nsize=2m\nrate=1m\n",
            fm.file.display()
        );
        std::fs::write(&file, jobs).unwrap();
        let f = file.display().to_string();
        let args = ["--output-format=json", f.as_str()];
        for tool in ["fio", "iomark"] {
            let o = run_tool(tool, &args, &d.path);
            // a fails: the run's exit status is 1 on both sides; the JSON is complete.
            assert!(!o.status.success(), "{tool}");
            let s = stdout(&o);
            let v: Value = serde_json::from_str(&s[s.find('{').unwrap()..]).unwrap();
            let what = format!("{tool} {opt:?}");
            assert_eq!(u(&job(&v, 0)["error"]), libc::EIO as u64, "{what}");
            assert_eq!(
                bytes(&v, "b") < FULL,
                b_stopped,
                "{what}: b read {}",
                bytes(&v, "b")
            );
            let _ = std::fs::remove_file(d.file("b.dat"));
        }
    }
}
