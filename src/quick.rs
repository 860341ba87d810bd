//! `iomark quick [PATH]`: the embedded default benchmark. SEQ1M Q8T1, SEQ1M Q1T1, RND4K Q32T1
//! and RND4K Q1T1, each read then write, on a temporary file that iomark creates (and removes).

use crate::signals;
use anyhow::anyhow;
use iomark_engine::job::{BlockSize, EngineKind, JobSpec, PerDir, RunPlan, RwMode, SizeSpec};
use iomark_engine::result::RunResult;
use iomark_engine::runner::{self, RunCtl};
use iomark_engine::{sys, target};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

pub struct QuickOpts {
    pub path: Option<PathBuf>,
    pub json: bool,
    pub allow_write: bool,
    pub size: u64,
    pub runtime: Duration,
    pub ramp: Duration,
    pub engine: Option<EngineKind>,
}

const USAGE: &str = "Usage: iomark quick [PATH] [--json] [--allow-write] [--size=SIZE] [--runtime=TIME] [--ramp=TIME] [--ioengine=NAME]

Runs SEQ1M Q8T1, SEQ1M Q1T1, RND4K Q32T1 and RND4K Q1T1, each read then write, and prints
one table (MB/s, MiB/s, IOPS, mean and 99th percentile latency).

PATH      a directory (default: the current one) in which a temporary file is created and
          removed afterwards; or an existing file or block device, which is only read unless
          --allow-write is given
--json            print the results as JSON on stdout
--allow-write     allow writing to an existing file or device given as PATH (destroys its data)
--size=SIZE       size of the test file (default 1g, shrunk to fit the free space)
--runtime=TIME    measured time per test (default 5s)
--ramp=TIME       warm-up time per test before measuring (default 1s)
--ioengine=NAME   engine for the tests (default io_uring, falling back to libaio)";

pub fn parse(args: &[String]) -> anyhow::Result<Option<QuickOpts>> {
    let mut o = QuickOpts {
        path: None,
        json: false,
        allow_write: false,
        size: 1 << 30,
        runtime: Duration::from_secs(5),
        ramp: Duration::from_secs(1),
        engine: None,
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let (k, v) = match a.split_once('=') {
            Some((k, v)) => (k.to_string(), Some(v.to_string())),
            None => (a.clone(), None),
        };
        let mut val = |k: &str| -> anyhow::Result<String> {
            v.clone()
                .or_else(|| it.next().cloned())
                .ok_or_else(|| anyhow!("quick: {k} needs a value"))
        };
        match k.as_str() {
            "-h" | "--help" => {
                println!("{USAGE}");
                return Ok(None);
            }
            "--json" => o.json = true,
            "--allow-write" => o.allow_write = true,
            "--size" => {
                let s = val("--size")?;
                o.size = iomark_fio::values::parse_size(&s, 1024)
                    .map_err(|e| anyhow!("quick: --size={s}: {e}"))?;
            }
            "--runtime" => {
                let s = val("--runtime")?;
                o.runtime = parse_time(&s)?;
            }
            "--ramp" => {
                let s = val("--ramp")?;
                o.ramp = parse_time(&s)?;
            }
            "--ioengine" => {
                let s = val("--ioengine")?;
                o.engine = Some(
                    EngineKind::from_fio_name(&s)
                        .filter(|e| !e.is_metadata())
                        .ok_or_else(|| anyhow!("quick: unknown or unsuitable ioengine '{s}'"))?,
                );
            }
            s if s.starts_with('-') => {
                return Err(anyhow!("quick: unknown option '{s}'\n\n{USAGE}"));
            }
            _ => {
                if o.path.is_some() {
                    return Err(anyhow!("quick: only one PATH may be given\n\n{USAGE}"));
                }
                o.path = Some(PathBuf::from(a));
            }
        }
    }
    Ok(Some(o))
}

fn parse_time(s: &str) -> anyhow::Result<Duration> {
    iomark_fio::values::parse_time(s, iomark_fio::values::TimeUnit::S)
        .map_err(|e| anyhow!("quick: {s}: {e}"))
}

struct Test {
    label: &'static str,
    bs: u64,
    depth: u32,
    random: bool,
}

const TESTS: [Test; 4] = [
    Test {
        label: "SEQ1M Q8T1",
        bs: 1 << 20,
        depth: 8,
        random: false,
    },
    Test {
        label: "SEQ1M Q1T1",
        bs: 1 << 20,
        depth: 1,
        random: false,
    },
    Test {
        label: "RND4K Q32T1",
        bs: 4096,
        depth: 32,
        random: true,
    },
    Test {
        label: "RND4K Q1T1",
        bs: 4096,
        depth: 1,
        random: true,
    },
];

/// Whether O_DIRECT works for files in `dir`.
fn direct_supported(dir: &Path) -> bool {
    let probe = dir.join(format!(".iomark-direct-probe.{}", std::process::id()));
    let ok = target::open_target(
        &probe,
        true,
        true,
        true,
        true,
        iomark_engine::job::SyncMode::None,
    )
    .is_ok();
    let _ = std::fs::remove_file(&probe);
    ok
}

fn engine_available(kind: EngineKind) -> bool {
    // Creating an engine with no files is enough to learn whether the kernel allows it.
    let opts = iomark_engine::job::EngineOptions::default();
    let setup = iomark_engine::engines::EngineSetup {
        depth: 1,
        files: &[],
        buffers: &[],
        options: &opts,
        direct: false,
    };
    iomark_engine::engines::create(kind, &setup).is_ok()
}

pub fn run(o: QuickOpts) -> i32 {
    let eprint = |m: &str| eprintln!("{m}");
    // Choose the target.
    let (file, temp, writable) = match &o.path {
        None => (None, true, true),
        Some(p) if p.is_dir() => (Some(p.clone()), true, true),
        Some(p) if p.exists() => (Some(p.clone()), false, o.allow_write),
        Some(p) => {
            eprint(&format!(
                "iomark quick: {} does not exist (give a directory, a file or a block device)",
                p.display()
            ));
            return 2;
        }
    };
    let dir = if temp {
        file.clone().unwrap_or_else(|| PathBuf::from("."))
    } else {
        PathBuf::from(".")
    };
    let path = if temp {
        dir.join(format!("iomark-quick.{}.tmp", std::process::id()))
    } else {
        file.clone().unwrap()
    };
    let mut size = o.size;
    if temp {
        match target::free_space(&dir) {
            Ok(free) => {
                // Leave room for others: use at most half of what is free.
                let cap = (free / 2) & !((1 << 20) - 1);
                if cap < (16 << 20) {
                    eprint(&format!(
                        "iomark quick: only {} MiB free in {}; need at least 32 MiB",
                        free >> 20,
                        dir.display()
                    ));
                    return 1;
                }
                if size > cap {
                    eprint(&format!(
                        "iomark quick: shrinking the test file from {} MiB to {} MiB to fit the free space of {} ({} MiB free)",
                        size >> 20,
                        cap >> 20,
                        dir.display(),
                        free >> 20
                    ));
                    size = cap;
                }
            }
            Err(e) => {
                eprint(&format!("iomark quick: cannot use {}: {e}", dir.display()));
                return 1;
            }
        }
    } else if !writable {
        eprint(&format!(
            "iomark quick: {} already exists; running the read tests only (pass --allow-write to also write to it, destroying its data)",
            path.display()
        ));
    }
    let direct = direct_supported(if temp {
        &dir
    } else {
        path.parent().unwrap_or(Path::new("."))
    }) || (!temp && path.metadata().map(|m| !m.is_file()).unwrap_or(false));
    if !direct {
        eprint("iomark quick: the filesystem does not support direct I/O; using buffered I/O (figures may include the page cache)");
    }
    let engine = o.engine.unwrap_or_else(|| {
        if engine_available(EngineKind::IoUring) {
            EngineKind::IoUring
        } else {
            eprint("iomark quick: io_uring is not available here; using libaio");
            EngineKind::Libaio
        }
    });
    let mut plan = RunPlan::default();
    let mut labels = Vec::new();
    for t in &TESTS {
        for write in [false, true] {
            if write && !writable {
                continue;
            }
            let rw = match (t.random, write) {
                (false, false) => RwMode::Read,
                (false, true) => RwMode::Write,
                (true, false) => RwMode::RandRead,
                (true, true) => RwMode::RandWrite,
            };
            let mut j = JobSpec {
                name: format!(
                    "{}-{}",
                    t.label.replace(' ', "-"),
                    if write { "write" } else { "read" }
                ),
                group_id: plan.jobs.len() as u32,
                stonewall: true,
                rw,
                bs: PerDir::all(BlockSize::Fixed(t.bs)),
                size: if temp {
                    Some(SizeSpec::Bytes(size))
                } else {
                    None
                },
                filenames: vec![path.clone()],
                runtime: Some(o.runtime),
                time_based: true,
                ramp_time: o.ramp,
                ioengine: if t.depth == 1 {
                    EngineKind::Psync
                } else {
                    engine
                },
                iodepth: t.depth,
                iodepth_low: t.depth,
                direct,
                norandommap: true,
                ..Default::default()
            };
            j.stats.lat_percentiles = true;
            j.options = vec![
                ("rw".into(), rw.fio_name().into()),
                ("bs".into(), t.bs.to_string()),
                ("iodepth".into(), t.depth.to_string()),
            ];
            plan.jobs.push(j);
            labels.push((t.label, write));
        }
    }
    let ctl = Arc::new(
        RunCtl::new(|e| eprintln!("{}", iomark_fio::explain::event(e)))
            .with_note_words(crate::quick_words::note),
    );
    signals::install(ctl.stop.clone());
    if temp {
        signals::register_temp(&path);
    }
    let tty = crate::status::stderr_is_tty();
    let done = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let status = tty.then(|| crate::status::spawn(ctl.clone(), done.clone()));
    if !o.json {
        eprintln!(
            "iomark quick: {} on {} ({} MiB, {}, {} s per test after {} s warm-up)",
            engine.fio_name(),
            path.display(),
            size >> 20,
            if direct { "direct I/O" } else { "buffered I/O" },
            o.runtime.as_secs_f64(),
            o.ramp.as_secs_f64()
        );
    }
    let res = runner::run(&plan, &ctl);
    done.store(true, std::sync::atomic::Ordering::Relaxed);
    if let Some(h) = status {
        let _ = h.join();
    }
    if signals::interrupted() {
        ctl.interrupted
            .store(true, std::sync::atomic::Ordering::Relaxed);
    }
    if temp {
        let _ = std::fs::remove_file(&path);
        signals::clear_temp();
    }
    let res = match res {
        Ok(r) => r,
        Err(e) => {
            eprint(&format!(
                "iomark quick: {}",
                crate::quick_words::run_error(&e)
            ));
            return 1;
        }
    };
    let rows = rows(&res, &labels);
    if o.json {
        println!("{}", to_json(&rows, &res, &path, size, direct, engine));
    } else {
        print!("{}", table(&rows));
        for n in &res.notes {
            eprintln!("note: {n}");
        }
    }
    let failed = res.jobs.iter().any(|j| j.error != 0);
    if res.interrupted || signals::interrupted() {
        130
    } else if failed {
        for j in res.jobs.iter().filter(|j| j.error != 0) {
            eprintln!(
                "iomark quick: {} failed: {}",
                j.name,
                j.error_msg.clone().unwrap_or_default()
            );
        }
        1
    } else {
        0
    }
}

pub struct Row {
    pub label: &'static str,
    pub write: bool,
    pub bytes_per_s: f64,
    pub iops: f64,
    pub mean_lat_us: f64,
    pub p99_lat_us: f64,
    pub ran: bool,
}

fn rows(res: &RunResult, labels: &[(&'static str, bool)]) -> Vec<Row> {
    res.jobs
        .iter()
        .zip(labels)
        .map(|(j, &(label, write))| {
            let d = if write { &j.dirs.write } else { &j.dirs.read };
            let secs = d.runtime_ms as f64 / 1000.0;
            let ran = d.total_ios > 0 && secs > 0.0;
            Row {
                label,
                write,
                bytes_per_s: if ran { d.io_bytes as f64 / secs } else { 0.0 },
                iops: if ran { d.total_ios as f64 / secs } else { 0.0 },
                mean_lat_us: d.lat.stat.mean() / 1000.0,
                p99_lat_us: d.lat.hist.percentile(99.0) as f64 / 1000.0,
                ran,
            }
        })
        .collect()
}

fn lat(us: f64) -> String {
    if us >= 10_000.0 {
        format!("{:.1} ms", us / 1000.0)
    } else if us >= 1000.0 {
        format!("{:.2} ms", us / 1000.0)
    } else {
        format!("{us:.1} µs")
    }
}

pub fn table(rows: &[Row]) -> String {
    let mut out = String::new();
    out.push_str(&format!(
        "{:<12} {:<5} {:>10} {:>10} {:>10} {:>11} {:>11}\n",
        "test", "dir", "MB/s", "MiB/s", "IOPS", "mean lat", "p99 lat"
    ));
    for r in rows {
        if !r.ran {
            out.push_str(&format!(
                "{:<12} {:<5} {:>10} {:>10} {:>10} {:>11} {:>11}\n",
                r.label,
                if r.write { "write" } else { "read" },
                "-",
                "-",
                "-",
                "-",
                "-"
            ));
            continue;
        }
        out.push_str(&format!(
            "{:<12} {:<5} {:>10.1} {:>10.1} {:>10.0} {:>11} {:>11}\n",
            r.label,
            if r.write { "write" } else { "read" },
            r.bytes_per_s / 1e6,
            r.bytes_per_s / (1024.0 * 1024.0),
            r.iops,
            lat(r.mean_lat_us),
            lat(r.p99_lat_us)
        ));
    }
    out
}

fn to_json(
    rows: &[Row],
    res: &RunResult,
    path: &Path,
    size: u64,
    direct: bool,
    engine: EngineKind,
) -> String {
    let tests: Vec<serde_json::Value> = rows
        .iter()
        .map(|r| {
            let mut v = serde_json::json!({
                "test": r.label,
                "direction": if r.write { "write" } else { "read" },
            });
            if r.ran {
                v["MB_per_s"] = serde_json::json!(r.bytes_per_s / 1e6);
                v["MiB_per_s"] = serde_json::json!(r.bytes_per_s / (1024.0 * 1024.0));
                v["iops"] = serde_json::json!(r.iops);
                v["mean_lat_us"] = serde_json::json!(r.mean_lat_us);
                v["p99_lat_us"] = serde_json::json!(r.p99_lat_us);
            }
            v
        })
        .collect();
    let v = serde_json::json!({
        "iomark_version": iomark_engine::VERSION,
        "target": path.display().to_string(),
        "size_bytes": size,
        "direct": direct,
        "ioengine": engine.fio_name(),
        "interrupted": res.interrupted,
        "notes": res.notes,
        "tests": tests,
        "unix_ms": sys::unix_ms(),
    });
    serde_json::to_string_pretty(&v).unwrap_or_default()
}
