//! `iomark rbd-bench`: the binary's side (iomark-scenarios parses, plans and formats): the
//! target, the run, and the output from the result model.

use crate::signals;
use iomark_engine::result::RunResult;
use iomark_engine::runner::{self, RunCtl};
use iomark_scenarios::preset::target;
use iomark_scenarios::rbd_bench::args::{self, RbdOpts};
use iomark_scenarios::rbd_bench::window::{self, Sample};
use std::collections::BTreeMap;
use std::sync::Arc;

/// `iomark rbd-bench ARGS...`; returns the exit code.
pub fn main(a: &[String]) -> i32 {
    let o = match args::parse(a) {
        Ok(Some(o)) => o,
        Ok(None) => {
            return crate::pipe::print_text(args::USAGE);
        }
        Err(e) => {
            eprintln!("iomark {e}");
            return 2;
        }
    };
    // Reading an existing file or device needs no permission; writing does.
    let existing = o.target.as_ref().filter(|p| p.exists() && !p.is_dir());
    let t = match existing {
        Some(p) if o.io_type == "read" => target::Target {
            path: p.clone(),
            temp: false,
            size: o.io_total,
            direct: true,
            notices: Vec::new(),
        },
        _ => match target::choose(
            "rbd-bench",
            o.target.as_deref(),
            o.allow_write,
            o.io_total,
            false,
        ) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("iomark rbd-bench: {e}");
                return 2;
            }
        },
    };
    for n in &t.notices {
        eprintln!("iomark rbd-bench: {n}");
    }
    let mut plan = match o.plan(&t.path.display().to_string(), t.temp.then_some(t.size)) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("iomark rbd-bench: {e}");
            return 2;
        }
    };
    for j in &mut plan.jobs {
        j.direct = t.direct;
    }
    let ctl = Arc::new(RunCtl::new(|m| eprintln!("{m}")));
    signals::install(ctl.stop.clone());
    if t.temp {
        signals::register_temp(&t.path);
    }
    print!(
        "{}",
        window::header(
            &o.io_type,
            o.io_size,
            o.io_threads,
            o.ops() * o.io_size,
            o.pattern_word()
        )
    );
    let res = runner::run(&plan, &ctl);
    if t.temp {
        let _ = std::fs::remove_file(&t.path);
        signals::clear_temp();
    }
    let res = match res {
        Ok(r) => r,
        Err(e) => {
            eprintln!("iomark rbd-bench: {e}");
            return 1;
        }
    };
    print!("{}", output(&o, &res));
    if signals::interrupted() {
        return 130;
    }
    if res.jobs.iter().any(|j| j.error != 0) {
        1
    } else {
        0
    }
}

/// The per-second lines, the summary (and read_/write_ lines for a mix), then latency.
fn output(o: &RbdOpts, res: &RunResult) -> String {
    // Per-second I/O counts from every slot's IOPS log: each entry is a rate over the time
    // since the slot's previous entry (a second, shorter for the last).
    let mut per_sec: BTreeMap<u64, f64> = BTreeMap::new();
    for j in &res.jobs {
        let mut prev = 0;
        for e in &j.series.iops {
            let dt = e.t_ms.saturating_sub(prev) as f64 / 1000.0;
            prev = e.t_ms;
            *per_sec.entry(e.t_ms.div_ceil(1000).max(1)).or_default() += e.value as f64 * dt;
        }
    }
    let total: u64 = res
        .jobs
        .iter()
        .map(|j| j.dirs.read.total_ios + j.dirs.write.total_ios)
        .sum();
    let mut samples = Vec::new();
    let mut ops = 0.0;
    for (sec, n) in per_sec {
        ops += n;
        let whole = (ops.round() as u64).min(total);
        samples.push(Sample {
            t: sec as f64,
            ops: whole,
            bytes: whole * o.io_size,
        });
    }
    // The logs' averages round; the last line shows the exact count.
    if let Some(last) = samples.last_mut() {
        last.ops = total;
        last.bytes = total * o.io_size;
    }
    let mut out = String::new();
    for l in window::lines(&samples) {
        out.push_str(&window::format_line(&l));
    }
    let elapsed = res.jobs.iter().map(|j| j.runtime_ms).max().unwrap_or(0) as f64 / 1000.0;
    let (mut r_ops, mut r_bytes, mut w_ops, mut w_bytes) = (0, 0, 0, 0);
    let mut lat = iomark_engine::result::LatRecord::default();
    for j in &res.jobs {
        r_ops += j.dirs.read.total_ios;
        r_bytes += j.dirs.read.io_bytes;
        w_ops += j.dirs.write.total_ios;
        w_bytes += j.dirs.write.io_bytes;
        lat.merge(&j.dirs.read.lat);
        lat.merge(&j.dirs.write.lat);
    }
    out.push_str(&window::summary(
        "",
        elapsed,
        r_ops + w_ops,
        r_bytes + w_bytes,
    ));
    if o.io_type == "readwrite" {
        out.push_str(&window::summary("read_", elapsed, r_ops, r_bytes));
        out.push_str(&window::summary("write_", elapsed, w_ops, w_bytes));
    }
    let us = |p: f64| lat.hist.percentile(p) as f64 / 1000.0;
    out.push_str(&format!(
        "latency (µs): mean {:.1}  p50 {:.1}  p90 {:.1}  p99 {:.1}  p99.9 {:.1}  max {:.1}\n",
        lat.stat.mean() / 1000.0,
        us(50.0),
        us(90.0),
        us(99.0),
        us(99.9),
        us(100.0)
    ));
    out
}
