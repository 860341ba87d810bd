//! Command-line behaviour: help, version, errors, JSON cleanliness.

use crate::util::*;

#[test]
fn version_and_help() {
    let o = iomark(&["--version"]);
    ok(&o);
    assert!(stdout(&o).starts_with("iomark-"));
    let o = iomark(&["run", "--help"]);
    ok(&o);
    let h = stdout(&o);
    for opt in [
        "rw",
        "bs",
        "iodepth",
        "ioengine",
        "time_based",
        "rate_iops",
        "bssplit",
    ] {
        assert!(h.contains(opt), "help lacks {opt}");
    }
    let o = iomark(&["run", "--cmdhelp=iodepth"]);
    ok(&o);
    assert!(stdout(&o).contains("iodepth"));
    let o = iomark(&["man"]);
    ok(&o);
    assert!(stdout(&o).starts_with(".TH IOMARK 1"));
}

/// `iomark man COMMAND` prints each command's own page; `iomark man --help` the help of man.
#[test]
fn every_command_has_its_manual_page() {
    let list = stdout(&iomark(&["man", "--list"]));
    let names: Vec<&str> = list.lines().collect();
    for c in [
        "run", "quick", "iozone", "bonnie", "dd", "preset", "compare", "man",
    ] {
        assert!(names.contains(&c), "{c} not in {names:?}");
    }
    let overview = stdout(&iomark(&["man"]));
    for c in &names {
        let o = iomark(&["man", c]);
        ok(&o);
        let page = stdout(&o);
        let title = format!(".TH IOMARK\\-{} 1", c.to_uppercase().replace('-', "\\-"));
        assert!(
            page.starts_with(&title),
            "{c}: {}",
            &page[..80.min(page.len())]
        );
        assert!(page.contains(".SH SYNOPSIS\n.nf\niomark "), "{c}");
        assert!(overview.contains(&format!(".BR iomark\\-{} (1)", c.replace('-', "\\-"))));
    }
    assert!(stdout(&iomark(&["man", "bonnie++"])).starts_with(".TH IOMARK\\-BONNIE 1"));
    let o = iomark(&["man", "--help"]);
    ok(&o);
    assert!(
        stdout(&o).starts_with("Usage: iomark man [COMMAND]"),
        "{}",
        stdout(&o)
    );
    let o = iomark(&["man", "nonsense"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("no command 'nonsense'"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn unknown_option_suggests_nearest() {
    let o = iomark(&["run", "--name=x", "--blocksiz=4k"]);
    assert!(!o.status.success());
    let e = stderr(&o);
    assert!(e.contains("blocksiz"), "{e}");
    assert!(e.contains("blocksize"), "{e}");
    assert!(o.stdout.is_empty());
}

#[test]
fn invalid_values_are_refused_before_io() {
    let d = Scratch::new("badval");
    let f = d.s("f");
    for bad in [
        vec!["--bs=4q"],
        vec!["--iodepth=0"],
        vec!["--rwmixread=150", "--rw=randrw"],
        vec!["--bs=1m", "--size=64k"],
    ] {
        let mut args = vec!["run", "--name=x", "--size=1m"];
        let fa = format!("--filename={f}");
        args.push(&fa);
        args.extend(bad.iter().copied());
        let o = iomark(&args);
        assert!(!o.status.success(), "{bad:?} accepted");
        assert!(!stderr(&o).is_empty());
        assert!(
            !d.file("f").exists() || bad[0] == "--bs=1m",
            "{bad:?} created the file"
        );
    }
}

#[test]
fn direct_io_alignment_is_checked_up_front() {
    let d = Scratch::new("align");
    let f = format!("--filename={}", d.s("f"));
    let o = iomark(&[
        "run",
        "--name=x",
        &f,
        "--size=1m",
        "--bs=1000",
        "--direct=1",
        "--rw=read",
    ]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("logical block size"), "{}", stderr(&o));
    assert!(!d.file("f").exists());
}

#[test]
fn json_stdout_is_only_json() {
    let d = Scratch::new("json");
    let f = format!("--filename={}", d.s("f"));
    let o = iomark(&[
        "run",
        "--output-format=json",
        "--name=w",
        &f,
        "--size=2m",
        "--rw=write",
        "--bs=64k",
    ]);
    let v = json(&o);
    assert_eq!(u(&job(&v, 0)["write"]["io_bytes"]), 2 << 20);
    assert!(v["fio version"].as_str().unwrap().starts_with("iomark-"));
    // No layout message in JSON output (fio prints it in its normal output only), and
    // nothing on stderr.
    assert!(!stdout(&o).contains("Laying out"));
    assert!(stderr(&o).is_empty(), "{}", stderr(&o));
}

#[test]
fn parse_only_does_no_io() {
    let d = Scratch::new("parseonly");
    let f = format!("--filename={}", d.s("f"));
    let o = iomark(&[
        "run",
        "--parse-only",
        "--name=w",
        &f,
        "--size=2m",
        "--rw=write",
    ]);
    ok(&o);
    assert!(!d.file("f").exists());
}

#[test]
fn readonly_refuses_writes() {
    let d = Scratch::new("ro");
    let f = format!("--filename={}", d.s("f"));
    let o = iomark(&[
        "run",
        "--readonly",
        "--name=w",
        &f,
        "--size=2m",
        "--rw=write",
    ]);
    assert!(!o.status.success());
    assert!(!d.file("f").exists());
}

#[test]
fn result_file_is_lossless_json() {
    let d = Scratch::new("result");
    let f = format!("--filename={}", d.s("f"));
    let r = format!("--result={}", d.s("r.json"));
    let o = iomark(&[
        "run",
        "--output-format=json",
        &r,
        "--name=rr",
        &f,
        "--size=4m",
        "--rw=randread",
    ]);
    let v = json(&o);
    let raw = std::fs::read(d.file("r.json")).unwrap();
    let res: iomark_engine::RunResult = serde_json::from_slice(&raw).unwrap();
    assert_eq!(res.jobs.len(), 1);
    let rd = &res.jobs[0].dirs.read;
    assert_eq!(rd.total_ios, 1024);
    assert_eq!(rd.clat.hist.count(), 1024);
    assert_eq!(u(&job(&v, 0)["read"]["total_ios"]), 1024);
    assert_eq!(res.plan.jobs[0].name, "rr");
}

#[test]
fn logs_are_written_in_fio_format() {
    let d = Scratch::new("logs");
    let f = format!("--filename={}", d.s("f"));
    let o = iomark_in(
        &[
            "run",
            "--name=l",
            &f,
            "--size=1m",
            "--rw=read",
            "--bs=4k",
            "--write_bw_log=l",
            "--write_lat_log=l",
            "--write_iops_log=l",
        ],
        &d.path,
    );
    ok(&o);
    let clat = std::fs::read_to_string(d.file("l_clat.1.log")).expect("clat log");
    let lines: Vec<&str> = clat.lines().collect();
    assert_eq!(lines.len(), 256);
    let fields: Vec<&str> = lines[0].split(',').map(str::trim).collect();
    assert!(fields.len() >= 5, "{}", lines[0]);
    assert_eq!(fields[2], "0");
    assert_eq!(fields[3], "4096");
    assert!(d.file("l_bw.1.log").exists());
    assert!(d.file("l_iops.1.log").exists());
}

#[test]
fn group_reporting_merges_clones() {
    let d = Scratch::new("group");
    let dir = format!("--directory={}", d.path.display());
    let o = iomark(&[
        "run",
        "--output-format=json",
        "--name=g",
        &dir,
        "--size=1m",
        "--rw=randread",
        "--numjobs=3",
        "--group_reporting",
    ]);
    let v = json(&o);
    assert_eq!(v["jobs"].as_array().unwrap().len(), 1);
    assert_eq!(u(&job(&v, 0)["read"]["total_ios"]), 3 * 256);
    assert_eq!(u(&job(&v, 0)["read"]["clat_ns"]["N"]), 3 * 256);
    let o = iomark(&[
        "run",
        "--output-format=json",
        "--name=g",
        &dir,
        "--size=1m",
        "--rw=randread",
        "--numjobs=3",
    ]);
    let v = json(&o);
    assert_eq!(v["jobs"].as_array().unwrap().len(), 3);
}

#[test]
fn stonewall_runs_jobs_in_order() {
    let d = Scratch::new("stonewall");
    let f = format!("--filename={}", d.s("f"));
    let o = iomark(&[
        "run",
        "--output-format=json",
        &f,
        "--size=2m",
        "--name=w",
        "--rw=write",
        "--name=r",
        "--stonewall",
        "--rw=read",
    ]);
    let v = json(&o);
    assert_eq!(u(&job(&v, 0)["groupid"]), 0);
    assert_eq!(u(&job(&v, 1)["groupid"]), 1);
    assert_eq!(u(&job(&v, 1)["read"]["io_bytes"]), 2 << 20);
}

#[test]
fn time_based_runs_for_the_runtime() {
    let d = Scratch::new("timebased");
    let f = format!("--filename={}", d.s("f"));
    let o = iomark(&[
        "run",
        "--output-format=json",
        "--name=t",
        &f,
        "--size=1m",
        "--rw=randread",
        "--runtime=1",
        "--time_based",
        "--ioengine=null",
    ]);
    let v = json(&o);
    let rt = u(&job(&v, 0)["read"]["runtime"]);
    assert!((950..=1500).contains(&rt), "runtime {rt}");
    assert!(
        u(&job(&v, 0)["read"]["total_ios"]) > 256,
        "time_based loops over the file"
    );
}

#[test]
fn rate_iops_caps_the_rate() {
    // On tmpfs: the cap is what is tested, not the disk (which other tests keep busy).
    let d = Scratch::new_in("/dev/shm", "rate");
    let f = format!("--filename={}", d.s("f"));
    let o = iomark(&[
        "run",
        "--output-format=json",
        "--name=t",
        &f,
        "--size=1m",
        "--rw=randread",
        "--runtime=2",
        "--time_based",
        "--rate_iops=200",
    ]);
    let v = json(&o);
    let iops = crate::util::f(&job(&v, 0)["read"]["iops"]);
    assert!((180.0..=215.0).contains(&iops), "iops {iops}");
}

#[test]
fn runs_with_single_dash_options() {
    let d = Scratch::new("dash");
    let f = format!("-filename={}", d.s("f"));
    let o = iomark(&[
        "run",
        "-output-format=json",
        &f,
        "-rw=write",
        "-bs=8k",
        "-size=1m",
        "-name=w",
    ]);
    let v = json(&o);
    assert_eq!(u(&job(&v, 0)["write"]["total_ios"]), 128);
}

#[test]
fn normal_output_has_fio_layout() {
    let d = Scratch::new("normal");
    let f = format!("--filename={}", d.s("f"));
    let o = iomark(&[
        "run",
        "--name=seqw",
        &f,
        "--size=4m",
        "--rw=write",
        "--bs=1m",
        "--fsync=3",
    ]);
    ok(&o);
    let s = stdout(&o);
    for needle in [
        "seqw: (g=0): rw=write",
        "seqw: (groupid=0, jobs=1): err= 0",
        "  write: IOPS=",
        "clat percentiles",
        "  cpu          :",
        "  IO depths    :",
        "issued rwts: total=0,4,0,1 ",
        "Run status group 0 (all jobs):",
        "  WRITE: bw=",
        "fsync/fdatasync/sync_file_range:",
    ] {
        assert!(s.contains(needle), "missing {needle:?} in\n{s}");
    }
}

#[test]
fn terse_output_has_v3_fields() {
    let d = Scratch::new("terse");
    let f = format!("--filename={}", d.s("f"));
    let o = iomark(&[
        "run",
        "--minimal",
        "--name=t",
        &f,
        "--size=1m",
        "--rw=randread",
    ]);
    ok(&o);
    let line = stdout(&o);
    let line = line.lines().next().unwrap();
    assert!(line.starts_with("3;iomark-"), "{line}");
    let sample = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/fio-3.33-output/fio-terse-v3.txt"
    ))
    .unwrap_or_default();
    let ours = line.split(';').count();
    if let Some(s) = sample.lines().find(|l| l.starts_with("3;")) {
        // Same number of fields up to the disk-util part (which depends on the devices).
        let theirs_nodisk = s.split(';').count() - 9 * s.matches("vda").count();
        let ours_nodisk =
            ours - 9 * line.matches(";vd").count() - 9 * line.matches(";loop").count();
        assert_eq!(ours_nodisk, theirs_nodisk, "{line}");
    }
}

/// Every terse version has fio's field count and layout (the same job run by both).
#[test]
fn terse_versions_match_fio() {
    let d = Scratch::new("tersev");
    for v in ["2", "3", "4", "5"] {
        let tv = format!("--terse-version={v}");
        let common = [
            "--minimal",
            tv.as_str(),
            "--name=t",
            "--size=4m",
            "--rw=randread",
            "--description=a b",
        ];
        let fname = format!("--filename={}", d.s("f"));
        let mut a = vec!["run", fname.as_str()];
        a.extend(common);
        let ours = stdout(&{
            let o = iomark(&a);
            ok(&o);
            o
        });
        let mut b = vec![fname.as_str()];
        b.extend(common);
        let theirs = stdout(&{
            let o = fio_in(&b, &d.path);
            ok(&o);
            o
        });
        let lines = |s: &str| s.lines().count();
        assert_eq!(lines(&ours), lines(&theirs), "v{v}:\n{ours}\n{theirs}");
        let fields = |s: &str| -> Vec<usize> { s.lines().map(|l| l.split(';').count()).collect() };
        assert_eq!(fields(&ours), fields(&theirs), "v{v}:\n{ours}\n{theirs}");
        let first = |s: &str| s.split(';').next().unwrap_or("").to_string();
        assert_eq!(first(&ours), v);
        assert!(ours.trim_end().ends_with("a b"), "v{v}: {ours}");
    }
}

/// `--status-interval` with JSON: newline-delimited documents, cumulative, the final one last.
#[test]
fn status_interval_gives_ndjson_reports() {
    let d = Scratch::new("statusint");
    let out = d.s("r.json");
    for to_file in [false, true] {
        let mut a = vec![
            "run",
            "--output-format=json",
            "--status-interval=1",
            "--name=s",
            "--ioengine=null",
            "--size=64m",
            "--rw=randread",
            "--time_based",
            "--runtime=2500ms",
        ];
        let o_arg = format!("--output={out}");
        if to_file {
            a.push(&o_arg);
        }
        let o = iomark(&a);
        ok(&o);
        let text = if to_file {
            assert!(stdout(&o).is_empty());
            std::fs::read_to_string(&out).unwrap()
        } else {
            stdout(&o)
        };
        let docs: Vec<serde_json::Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
            .collect();
        assert!(docs.len() >= 3, "{} documents:\n{text}", docs.len());
        let ios: Vec<u64> = docs
            .iter()
            .map(|v| u(&job(v, 0)["read"]["total_ios"]))
            .collect();
        assert!(ios.windows(2).all(|w| w[0] <= w[1]), "{ios:?}");
        let last = docs.last().unwrap();
        assert!(u(&job(last, 0)["read"]["runtime"]) >= 2400);
    }
}

/// Log options: per-I/O offsets (`log_offset`), window maxima (`log_max_value`) and the
/// histogram log, whose counts add up to the I/Os of the run.
#[test]
fn log_offset_max_value_and_hist_log() {
    let d = Scratch::new("logs");
    let f = format!("--filename={}", d.s("f"));
    let o = iomark_in(
        &[
            "run",
            "--output-format=json",
            "--name=l",
            &f,
            "--size=1m",
            "--rw=randread",
            "--write_lat_log=lat",
            "--log_offset=1",
            "--write_hist_log=h",
            "--log_hist_msec=1",
        ],
        &d.path,
    );
    let v = json(&o);
    let n = u(&job(&v, 0)["read"]["total_ios"]);
    assert_eq!(n, 256);
    let clat = std::fs::read_to_string(d.file("lat_clat.1.log")).unwrap();
    let mut offsets: Vec<u64> = clat
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split(", ").collect();
            assert_eq!(f.len(), 6, "{l}");
            assert_eq!(f[3], "4096", "{l}");
            f[4].parse().unwrap()
        })
        .collect();
    offsets.sort();
    let want: Vec<u64> = (0..256).map(|i| i * 4096).collect();
    assert_eq!(offsets, want, "every block once, with its offset");
    let hist = std::fs::read_to_string(d.file("h_clat_hist.1.log")).unwrap();
    let mut total = 0u64;
    for l in hist.lines() {
        let f: Vec<u64> = l.split(", ").map(|x| x.parse().unwrap()).collect();
        assert_eq!(f.len(), 3 + 1856, "fio's 1856 bins");
        assert_eq!(f[1], 0, "reads only");
        total += f[3..].iter().sum::<u64>();
    }
    assert_eq!(total, n);

    let o = iomark_in(
        &[
            "run",
            "--name=m",
            "--ioengine=null",
            "--size=64m",
            "--rw=read",
            "--time_based",
            "--runtime=600ms",
            "--write_lat_log=m",
            "--log_avg_msec=100",
            "--log_max_value=2",
        ],
        &d.path,
    );
    ok(&o);
    let lat = std::fs::read_to_string(d.file("m_lat.1.log")).unwrap();
    assert!(lat.lines().count() >= 5, "{lat}");
    for l in lat.lines() {
        let f: Vec<u64> = l.split(", ").map(|x| x.parse().unwrap()).collect();
        assert_eq!(f.len(), 6, "time, avg, max, ddir, bs, prio: {l}");
        assert!(f[1] <= f[2], "avg above max: {l}");
    }
}
