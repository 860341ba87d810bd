//! `iomark blogbench`: blogbench's command line on iomark's engine; its table and scores on
//! stdout, then iomark's latency per operation type.

use super::write_result;
use crate::session::signals;
use iomark_engine::fileops::blogtree::{self, Counts, Tree};
use iomark_engine::fileops::Phase;
use iomark_engine::job::Dir;
use iomark_engine::result::{JobResult, LogEntry};
use iomark_engine::{RunPlan, RunResult};
use iomark_suites::blogbench::{self, output, DirState};
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

fn dir_state(d: &Path) -> DirState {
    match std::fs::read_dir(d) {
        Ok(rd) => {
            if let Err(e) = iomark_engine::targets::dir_writable(d) {
                return DirState::NotWritable(e.raw_os_error().unwrap_or(libc::EACCES));
            }
            match rd.count() as u64 {
                0 => DirState::Empty,
                n => DirState::NonEmpty(n),
            }
        }
        Err(_) if d.exists() => DirState::NotADirectory,
        Err(_) => DirState::Missing,
    }
}

pub fn main(args: &[String]) -> i32 {
    let a = match blogbench::parse(args) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("iomark blogbench: {e}\n\n{}", blogbench::USAGE);
            return 2;
        }
    };
    if a.help {
        return crate::session::pipe::print_text(blogbench::USAGE);
    }
    let dir = a.dir.clone().unwrap_or_default();
    let p = match blogbench::plan(&a, dir_state(&dir)) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("iomark blogbench: {e}");
            return 2;
        }
    };
    if p.create_dir {
        if let Err(e) = std::fs::create_dir(&p.dir) {
            eprintln!(
                "iomark blogbench: -d {}: cannot create the directory: {e}",
                p.dir.display()
            );
            return 1;
        }
    }
    let mut out = std::io::stdout();
    let _ = out.write_all(output::header(&p, &a).as_bytes());
    let _ = out.flush();
    let stop = Arc::new(AtomicBool::new(false));
    signals::install(stop.clone());
    let tree = match Tree::start(p.tree.clone(), stop.clone()) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("iomark blogbench: {e}");
            return 1;
        }
    };
    let start = Instant::now();
    let start_ms = iomark_engine::sys::unix_ms();
    let mut intervals: Vec<(u64, Counts)> = Vec::new();
    let (mut written, mut read) = (0u64, 0u64);
    for _ in 0..p.iterations {
        let end = start + p.sleep * (intervals.len() as u32 + 1);
        while Instant::now() < end && !stop.load(Ordering::Relaxed) {
            std::thread::sleep((end - Instant::now()).min(Duration::from_millis(50)));
        }
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let c = tree.take_interval();
        written += c.blogs_written;
        read += c.blogs_read;
        let _ = out.write_all(output::line(written, &c).as_bytes());
        let _ = out.flush();
        intervals.push((start.elapsed().as_millis() as u64, c));
    }
    let (failures, first) = tree.failures();
    let phase = tree.finish();
    let interrupted = signals::interrupted();
    let _ = out.write_all(output::scores(written, read).as_bytes());
    let _ = out.write_all(output::latencies(&phase.stats).as_bytes());
    let _ = out.flush();
    if failures > 0 {
        eprintln!(
            "iomark blogbench: {failures} rounds failed and backed off (files that raced between threads, as in blogbench){}",
            first.map(|f| format!("; the first: {f}")).unwrap_or_default()
        );
    }
    let mut code = if interrupted { 130 } else { 0 };
    if let Some(path) = &a.result_file {
        let mut r = result(&phase, &intervals, p.sleep, start_ms);
        r.tables = vec![
            blogbench::table::intervals(&intervals),
            blogbench::table::scores(written, read),
        ];
        if let Err(e) = write_result("blogbench", path, &r) {
            eprintln!("{e}");
            code = code.max(1);
        }
    }
    code
}

/// The counters of an interval, each as (job name, direction, count).
fn counters(c: &Counts) -> [(&'static str, Dir, u64); 8] {
    [
        ("blogbench-blogs-written", Dir::Write, c.blogs_written),
        ("blogbench-blogs-read", Dir::Read, c.blogs_read),
        ("blogbench-articles-read", Dir::Read, c.articles_read),
        ("blogbench-articles-written", Dir::Write, c.articles_written),
        ("blogbench-pictures-read", Dir::Read, c.pictures_read),
        ("blogbench-pictures-written", Dir::Write, c.pictures_written),
        ("blogbench-comments-read", Dir::Read, c.comments_read),
        ("blogbench-comments-written", Dir::Write, c.comments_written),
    ]
}

/// The result: a job per operation type (latency histograms), then a job per counter with
/// its total and its rate per interval (per second) as a time series.
fn result(phase: &Phase, intervals: &[(u64, Counts)], sleep: Duration, start_ms: u64) -> RunResult {
    let mut jobs: Vec<JobResult> = blogtree::OPS
        .iter()
        .map(|op| {
            let dir = if [blogtree::READ, blogtree::OPEN, blogtree::PROBE].contains(op) {
                Dir::Read
            } else {
                Dir::Write
            };
            phase.job(&format!("blogbench-{}", op.replace(' ', "-")), op, dir)
        })
        .collect();
    let secs = sleep.as_secs_f64().max(1e-9);
    for (k, (name, dir, _)) in counters(&Counts::default()).iter().enumerate() {
        let mut j = JobResult {
            name: name.to_string(),
            ran: true,
            runtime_ms: phase.elapsed_ns / 1_000_000,
            runtime_us: phase.elapsed_ns / 1000,
            start_unix_ms: start_ms,
            ..Default::default()
        };
        for (t_ms, c) in intervals {
            let n = counters(c)[k].2;
            j.dirs[*dir].total_ios += n;
            j.series.iops.push(LogEntry {
                t_ms: *t_ms,
                value: (n as f64 / secs).round() as u64,
                ddir: *dir as u8,
                bs: 0,
                offset: 0,
                max: None,
                prio: 0,
            });
        }
        jobs.push(j);
    }
    let mut r = RunResult::assemble(
        &RunPlan::default(),
        start_ms,
        iomark_engine::sys::host_info(),
        jobs,
    );
    r.interrupted = signals::interrupted();
    r
}
