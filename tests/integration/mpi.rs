//! Runs of many ranks on this host (`--features mpi` only; scripts/test builds with it):
//! `mpirun -np 4 iomark run ...` merges the four ranks' counts exactly, starts each group on
//! every rank together, gives each rank its own files (`$rank`) or its own region of a shared
//! one (`offset_increment`), stops every rank before any I/O when one refuses the plan, and ends
//! with a message naming the rank and host when one is killed or stops answering.

use crate::util::{bin, stderr, stdout, BoundedOutput, Scratch};
use serde_json::Value;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// `mpirun -np N iomark ARGS` on this host, in `cwd`.
pub(crate) fn mpirun(np: usize, args: &[&str], cwd: &Path) -> Command {
    let mut c = Command::new("mpirun");
    c.args(["--allow-run-as-root", "--oversubscribe", "-np"])
        .arg(np.to_string())
        // Shared memory between the ranks without ptrace rights (containers).
        .args(["--mca", "btl_vader_single_copy_mechanism", "none"])
        .arg(bin())
        .args(args)
        .current_dir(cwd);
    c
}

pub(crate) fn run(np: usize, args: &[&str], cwd: &Path) -> Output {
    mpirun(np, args, cwd)
        .bounded_output()
        .expect("mpirun must be installed (scripts/test installs openmpi-bin)")
}

fn host() -> String {
    let o = Command::new("uname").arg("-n").bounded_output().unwrap();
    String::from_utf8_lossy(&o.stdout).trim().to_string()
}

/// A figure of all ranks together (`dir` `read` or `write`, `key` such as `total_ios`): from
/// fio's "All clients" entry of `client_stats`, or added over the merged jobs.
fn all_clients(v: &Value, dir: &str, key: &str) -> u64 {
    match v["client_stats"].as_array() {
        // One "All clients" entry per job: their sum.
        Some(c) => {
            let all: Vec<&Value> = c.iter().filter(|e| e["jobname"] == "All clients").collect();
            assert!(!all.is_empty(), "no All clients entry");
            all.iter().map(|e| e[dir][key].as_u64().unwrap()).sum()
        }
        None => v["jobs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|j| j[dir][key].as_u64().unwrap())
            .sum(),
    }
}

/// A run of 8 MiB of 4 KiB random reads on the null engine, its result as JSON on stdout.
pub(crate) const NULL_JOB: [&str; 7] = [
    "run",
    "--name=m",
    "--ioengine=null",
    "--rw=randread",
    "--bs=4k",
    "--size=8m",
    "--output-format=json",
];

#[test]
fn four_ranks_merge_to_the_sum_of_their_counts() {
    let d = Scratch::new("mpi-merge");
    let job = NULL_JOB;
    // One rank's own count, from a run alone.
    let alone = crate::util::json(&crate::util::iomark_in(&job, &d.path));
    let one = alone["jobs"][0]["read"]["total_ios"].as_u64().unwrap();
    assert_eq!(one, 2048);
    let o = run(4, &job, &d.path);
    let v = crate::util::json(&o);
    assert_eq!(
        all_clients(&v, "read", "total_ios"),
        4 * one,
        "{}",
        stdout(&o)
    );
    assert_eq!(all_clients(&v, "read", "io_bytes"), 4 * (8 << 20));
    if let Some(c) = v["client_stats"].as_array() {
        let ranks: Vec<&Value> = c.iter().filter(|e| e["jobname"] != "All clients").collect();
        assert_eq!(ranks.len(), 4);
        let sum: u64 = ranks
            .iter()
            .map(|e| e["read"]["total_ios"].as_u64().unwrap())
            .sum();
        assert_eq!(sum, 4 * one);
    }
    // Under --no-mpi every rank runs alone and prints its own output.
    let o = run(2, &[&job[..], &["--no-mpi"]].concat(), &d.path);
    crate::util::ok(&o);
    assert_eq!(
        stdout(&o).matches("\"fio version\"").count(),
        2,
        "{}",
        stdout(&o)
    );
}

/// Per group, the instants at which the ranks were ready for it (`what` "ready for") or
/// started it ("starts"), from `--mpi-verbose`.
fn instants(err: &str, what: &str) -> Vec<Vec<u128>> {
    let mut out: Vec<Vec<u128>> = Vec::new();
    for l in err.lines() {
        let Some(rest) = l.split(&format!("{what} group ")).nth(1) else {
            continue;
        };
        let mut w = rest.split_whitespace();
        let g: usize = w.next().unwrap().parse().unwrap();
        let ns: u128 = w.last().unwrap().parse().unwrap();
        if out.len() <= g {
            out.resize(g + 1, Vec::new());
        }
        out[g].push(ns);
    }
    out
}

#[test]
fn every_rank_starts_each_group_together_and_time_based_jobs_end_together() {
    let d = Scratch::new("mpi-barrier");
    // Rank 3 lays out its file first, the others find theirs: without the barrier rank 3 would
    // start later. The second group follows a stonewall.
    for r in 0..3 {
        std::fs::write(d.file(&format!("f.{r}")), vec![7u8; 16 << 20]).unwrap();
    }
    let o = run(
        4,
        &[
            "run",
            "--mpi-verbose",
            "--name=a",
            "--ioengine=psync",
            "--rw=read",
            "--bs=64k",
            &format!("--filename={}/f.$rank", d.path.display()),
            "--size=16m",
            "--runtime=2",
            "--time_based",
            "--name=b",
            "--stonewall",
            "--ioengine=null",
            "--rw=write",
            "--size=1m",
            "--runtime=1",
            "--time_based",
            "--output-format=json",
        ],
        &d.path,
    );
    let v = crate::util::json(&o);
    let s = instants(&stderr(&o), "starts");
    let ready = instants(&stderr(&o), "ready for");
    assert_eq!(s.len(), 2, "{}", stderr(&o));
    for (g, t) in s.iter().enumerate() {
        assert_eq!(t.len(), 4, "group {g}: {}", stderr(&o));
        assert_eq!(ready[g].len(), 4, "group {g}: {}", stderr(&o));
        // The barrier: no rank starts before the last one is ready.
        assert!(
            t.iter().min() >= ready[g].iter().max(),
            "group {g}: a rank started before all were ready\n{}",
            stderr(&o)
        );
        let spread = t.iter().max().unwrap() - t.iter().min().unwrap();
        // The first group runs 2 s: starts must be far closer than that (a loaded 2-core host
        // running four ranks delays some by a scheduling slice or more).
        assert!(
            spread < 400_000_000,
            "group {g} started over {spread} ns on the four ranks"
        );
    }
    // The second group starts after the first ended on every rank: at least its runtime later.
    let gap = s[1].iter().min().unwrap() - s[0].iter().max().unwrap();
    assert!(gap >= 1_900_000_000, "{gap} ns between the groups");
    assert!(all_clients(&v, "read", "total_ios") > 0);
    assert!(all_clients(&v, "write", "total_ios") > 0);
}

#[test]
fn each_rank_has_its_own_files_or_its_own_region_of_a_shared_one() {
    let d = Scratch::new("mpi-files");
    let o = run(
        4,
        &[
            "run",
            "--name=w",
            "--ioengine=psync",
            "--rw=write",
            "--bs=64k",
            "--size=1m",
            &format!("--filename={}/f.$rank.of.$nranks", d.path.display()),
            "--output-format=json",
        ],
        &d.path,
    );
    crate::util::ok(&o);
    for r in 0..4 {
        let f = d.file(&format!("f.{r}.of.4"));
        assert_eq!(
            std::fs::metadata(&f).map(|m| m.len()).ok(),
            Some(1 << 20),
            "{}",
            f.display()
        );
    }
    // One file for all: two clones per rank, each 1 MiB further than the one before, across
    // the ranks as across the clones of one job: the last region ends at 8 MiB.
    let shared = d.s("shared");
    let o = run(
        4,
        &[
            "run",
            "--name=s",
            "--ioengine=psync",
            "--rw=write",
            "--bs=64k",
            "--size=1m",
            "--numjobs=2",
            "--offset_increment=1m",
            &format!("--filename={shared}"),
            "--output-format=json",
        ],
        &d.path,
    );
    let v = crate::util::json(&o);
    assert_eq!(all_clients(&v, "write", "io_bytes"), 8 << 20);
    assert_eq!(std::fs::metadata(&shared).unwrap().len(), 8 << 20);
    assert!(stderr(&o).is_empty(), "{}", stderr(&o));
}

#[test]
fn one_rank_refusing_stops_every_rank_before_any_io() {
    let d = Scratch::new("mpi-refuse");
    for r in [0, 1, 3] {
        std::fs::create_dir(d.file(&r.to_string())).unwrap();
    }
    let o = run(
        4,
        &[
            "run",
            "--name=w",
            "--ioengine=psync",
            "--rw=write",
            "--size=1m",
            &format!("--directory={}/$rank", d.path.display()),
        ],
        &d.path,
    );
    assert!(!o.status.success());
    let e = stderr(&o);
    assert!(e.contains(&format!("rank 2 on {}", host())), "{e}");
    assert!(e.contains("no rank did any I/O"), "{e}");
    for r in [0, 1, 3] {
        let n = std::fs::read_dir(d.file(&r.to_string())).unwrap().count();
        assert_eq!(n, 0, "rank {r} wrote before the refusal");
    }
    assert!(stdout(&o).is_empty(), "{}", stdout(&o));
}

#[test]
fn repeat_and_report_work_on_a_merged_run() {
    let d = Scratch::new("mpi-repeat");
    let job = [
        "run",
        "--name=m",
        "--ioengine=null",
        "--rw=randread",
        "--bs=4k",
        "--size=4m",
        "--output-format=terse",
        "--repeat=2",
        "--result=r.json",
        "--report=rep.html",
    ];
    let o = run(4, &job, &d.path);
    crate::util::ok(&o);
    let out = stdout(&o);
    // Each repetition's output (rank 0's: four clients and All clients), then one table.
    assert_eq!(out.matches(";All clients;").count(), 2, "{out}");
    assert_eq!(out.matches("repetitions: 2 runs").count(), 1, "{out}");
    assert_eq!(stderr(&o).matches("iomark: run 1 of 2").count(), 1);
    let doc: Value = serde_json::from_slice(&std::fs::read(d.file("r.json")).unwrap()).unwrap();
    let runs = doc["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 2);
    for r in runs {
        assert_eq!(r["ranks"].as_array().unwrap().len(), 4);
        // The merged job: all four ranks' I/Os.
        assert_eq!(
            r["jobs"][0]["dirs"]["read"]["total_ios"],
            4 * 1024,
            "{}",
            r["jobs"][0]
        );
    }
    // The statistics are over the merged job's figures, one sample per repetition.
    let figs = doc["repetitions"]["figures"].as_array().unwrap();
    let iops = figs
        .iter()
        .find(|f| f["job"] == "m" && f["figure"] == "IOPS")
        .expect("an IOPS row");
    assert_eq!(iops["samples"].as_array().unwrap().len(), 2, "{iops}");
    // The report of the last repetition, with a chart per rank.
    let page = std::fs::read_to_string(d.file("rep.html")).unwrap();
    for r in 0..4 {
        assert!(
            page.contains(&format!("rank {r}")),
            "rank {r} missing from the report"
        );
    }
    // No log file on any rank: the series the report draws stay in the results.
    let mut left: Vec<String> = std::fs::read_dir(&d.path)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(left, ["r.json", "rep.html"]);
}

#[test]
fn status_interval_is_refused_by_name_on_a_launch() {
    let d = Scratch::new("mpi-status");
    let o = run(
        2,
        &[
            "run",
            "--name=m",
            "--ioengine=null",
            "--size=1m",
            "--status-interval=1",
        ],
        &d.path,
    );
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("--status-interval... is not supported yet in a run of many ranks"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_preset_runs_on_every_rank_and_rank_zero_shows_its_summary() {
    let d = Scratch::new("mpi-preset");
    let result = d.s("r.json");
    let o = run(
        4,
        &[
            "preset",
            "run",
            "cdm-peak",
            &d.s(""),
            "--size=8m",
            "--runtime=500ms",
            "--warmup=0",
            "--repeat=1",
            &format!("--result={result}"),
        ],
        &d.path,
    );
    crate::util::ok(&o);
    assert_eq!(
        stdout(&o).matches("cdm-peak summary").count(),
        1,
        "{}",
        stdout(&o)
    );
    // Every rank had a temporary file of its own, and removed it.
    let doc: Value = serde_json::from_slice(&std::fs::read(&result).unwrap()).unwrap();
    let targets = doc["runs"][0]["jobs"][0]["targets"].as_array().unwrap();
    assert_eq!(targets.len(), 4, "{targets:?}");
    let left: Vec<_> = std::fs::read_dir(&d.path)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, vec![std::ffi::OsString::from("r.json")]);
}

/// The ranks' processes of a launch: (rank, pid), children of mpirun.
fn ranks_of(mpirun: u32) -> Vec<(usize, u32)> {
    let mut out = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = e.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        let ppid = stat
            .rsplit(')')
            .next()
            .and_then(|s| s.split_whitespace().nth(1))
            .and_then(|p| p.parse::<u32>().ok());
        if ppid != Some(mpirun) {
            continue;
        }
        let env = std::fs::read(format!("/proc/{pid}/environ")).unwrap_or_default();
        let rank = env
            .split(|b| *b == 0)
            .filter_map(|kv| std::str::from_utf8(kv).ok())
            .find_map(|kv| kv.strip_prefix("OMPI_COMM_WORLD_RANK="))
            .and_then(|r| r.parse().ok());
        if let Some(r) = rank {
            out.push((r, pid));
        }
    }
    out
}

/// Kills what is left of a launch, whatever happens in the test.
struct Launch(Child);

impl Drop for Launch {
    fn drop(&mut self) {
        for (_, pid) in ranks_of(self.0.id()) {
            // SAFETY: signals to processes this test started.
            unsafe {
                libc::kill(pid as i32, libc::SIGKILL);
            }
        }
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts a long time-based run of four ranks, sends `signal` to rank 2 once every rank runs,
/// and returns how long the launch took to end, its status and its stderr.
fn lose_rank_two(signal: i32) -> (Duration, bool, String) {
    let d = Scratch::new("mpi-lost");
    let child = mpirun(
        4,
        &[
            "run",
            "--mpi-timeout=3",
            "--name=long",
            "--ioengine=null",
            "--rw=read",
            "--size=1m",
            "--runtime=120",
            "--time_based",
        ],
        &d.path,
    )
    .stdout(Stdio::piped())
    .stderr(Stdio::piped())
    .spawn()
    .expect("mpirun must be installed (scripts/test installs openmpi-bin)");
    let mut launch = Launch(child);
    let t0 = Instant::now();
    let victim = loop {
        let r = ranks_of(launch.0.id());
        if r.len() == 4 {
            break r.into_iter().find(|(rank, _)| *rank == 2).unwrap().1;
        }
        assert!(
            t0.elapsed() < Duration::from_secs(30),
            "the ranks did not start"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    // Into the run: past MPI's start and the barrier.
    std::thread::sleep(Duration::from_secs(2));
    // SAFETY: a signal to a process this test started.
    unsafe {
        libc::kill(victim as i32, signal);
    }
    let t1 = Instant::now();
    let status = loop {
        if let Some(s) = launch.0.try_wait().unwrap() {
            break s;
        }
        assert!(
            t1.elapsed() < Duration::from_secs(60),
            "the launch did not end after rank 2 was lost"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    let took = t1.elapsed();
    let mut err = String::new();
    use std::io::Read;
    launch
        .0
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    (took, status.success(), err)
}

#[test]
fn a_rank_that_stops_answering_ends_the_run_within_the_timeout() {
    let (took, ok, err) = lose_rank_two(libc::SIGSTOP);
    assert!(!ok, "{err}");
    assert!(
        err.contains(&format!("rank 2 on {} stopped answering", host())),
        "{err}"
    );
    // The timeout (3 s) and the time to abort, far below the runtime (120 s).
    assert!(took < Duration::from_secs(20), "{took:?}");
}

#[test]
fn a_killed_rank_ends_the_run_with_its_rank_and_host() {
    let (took, ok, err) = lose_rank_two(libc::SIGKILL);
    assert!(!ok, "{err}");
    // Named by iomark when it sees the silence first, or by the launcher when it sees the death.
    assert!(
        err.contains(&format!("rank 2 on {}", host())) || err.contains("rank 2 with PID"),
        "{err}"
    );
    assert!(err.contains(&host()), "{err}");
    assert!(took < Duration::from_secs(20), "{took:?}");
}

#[test]
fn an_interrupted_rank_ends_the_run_everywhere_marked_interrupted() {
    // Ctrl-C on one rank: the others stop too (not at the end of their 120 s), and the merged
    // run says it was interrupted.
    let (took, ok, err) = lose_rank_two(libc::SIGINT);
    assert!(!ok, "{err}");
    assert!(err.contains("a rank was interrupted"), "{err}");
    assert!(took < Duration::from_secs(20), "{took:?}");
}

#[test]
fn ctrl_c_on_mpirun_keeps_the_result_file_whole_and_marked_interrupted() {
    // mpirun stops forwarding the ranks' output when interrupted (the JSON on its standard
    // output is cut); rank 0 writes its files first, so the result file is whole and says the
    // run was interrupted.
    let d = Scratch::new("mpi-ctrl-c");
    let result = d.s("r.json");
    let child = mpirun(
        2,
        &[
            "run",
            "--name=long",
            "--ioengine=null",
            "--rw=read",
            "--size=1m",
            "--runtime=120",
            "--time_based",
            "--output-format=json",
            &format!("--result={result}"),
        ],
        &d.path,
    )
    .stdout(Stdio::null())
    .stderr(Stdio::null())
    .spawn()
    .expect("mpirun must be installed (scripts/test installs openmpi-bin)");
    let mut launch = Launch(child);
    let t0 = Instant::now();
    while ranks_of(launch.0.id()).len() < 2 {
        assert!(
            t0.elapsed() < Duration::from_secs(30),
            "the ranks did not start"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_secs(2));
    // SAFETY: a signal to a process this test started.
    unsafe {
        libc::kill(launch.0.id() as i32, libc::SIGINT);
    }
    let t1 = Instant::now();
    while launch.0.try_wait().unwrap().is_none() {
        assert!(
            t1.elapsed() < Duration::from_secs(60),
            "the launch did not end"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let r: Value = serde_json::from_str(&std::fs::read_to_string(&result).unwrap()).unwrap();
    assert_eq!(r["interrupted"], true, "{}", &r.to_string()[..200]);
    // A merged launch reports as fio's client/server mode does: an entry per client.
    let c = &r["jobs"];
    assert!(
        c.as_array().is_some_and(|j| !j.is_empty()),
        "{}",
        &r.to_string()[..200]
    );
}

#[test]
fn a_bad_result_file_is_refused_with_status_2_on_every_rank_before_any_io() {
    let d = Scratch::new("mpi-result-file");
    let t = d.s("t.$rank");
    let run_args = vec![
        "run".to_string(),
        "--name=w".into(),
        "--ioengine=psync".into(),
        "--rw=write".into(),
        "--size=64k".into(),
        format!("--filename={t}"),
    ];
    let iozone_args: Vec<String> = [
        "iozone",
        "-t",
        "2",
        "-s",
        "64k",
        "-r",
        "4k",
        "-i",
        "0",
        "-F",
        "f.$rank.0",
        "f.$rank.1",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    std::fs::create_dir(d.file("dir")).unwrap();
    let cases = [
        (&run_args, d.s("dir")),
        (&run_args, "/dev/zero".to_string()),
        (&run_args, d.s("t.0")),
        (&iozone_args, d.s("dir")),
        (&iozone_args, "/dev/zero".to_string()),
        (&iozone_args, d.s("f.0.1")),
    ];
    for (args, bad) in cases {
        let mut a: Vec<&str> = args.iter().map(String::as_str).collect();
        let switch = format!("--result={bad}");
        a.push(&switch);
        let o = run(2, &a, &d.path);
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{} {switch}: {e}", a[0]);
        assert!(e.contains("no rank did any I/O"), "{} {switch}: {e}", a[0]);
        let names: Vec<String> = std::fs::read_dir(&d.path)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            names,
            ["dir"],
            "{} {switch}: files made before the refusal",
            a[0]
        );
        assert_eq!(std::fs::read_dir(d.file("dir")).unwrap().count(), 0);
    }
}
