//! `iomark rbd-bench`: the binary's side (iomark-scenarios parses, plans and formats): the
//! target, the run, and the output from the result model.

use crate::progress::source::{self as progress, Observer};
use crate::session::{signals, Session};
use iomark_engine::result::RunResult;
use iomark_engine::runner;
use iomark_engine::runner::{WorkerProgress, WorkerState};
use iomark_scenarios::preset::target;
use iomark_scenarios::rbd_bench::args::{self, RbdOpts};
use iomark_scenarios::rbd_bench::image_plan;
use iomark_scenarios::rbd_bench::window::{self, Sample};
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// `iomark rbd-bench ARGS...`; returns the exit code.
pub fn main(a: &[String]) -> i32 {
    let o = match args::parse(a) {
        Ok(Some(o)) => o,
        Ok(None) => {
            return crate::session::pipe::print_text(args::USAGE);
        }
        Err(e) => {
            eprintln!("iomark {e}");
            return 2;
        }
    };
    if o.ceph.image.is_some() {
        return on_image(&o);
    }
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
    let mut plan = o.plan(&t.path.display().to_string(), t.temp.then_some(t.size));
    for j in &mut plan.jobs {
        j.direct = t.direct;
    }
    run(&o, &plan, t.temp.then_some(t.path.as_path()))
}

/// rbd-bench on an image through librbd: the client options reach librados as the `rbd`
/// command's do (`--conf` as `$CEPH_CONF`, `--keyring` through `$CEPH_ARGS`).
fn on_image(o: &RbdOpts) -> i32 {
    let c = &o.ceph;
    if o.io_type != "read" && !o.allow_write {
        eprintln!(
            "iomark rbd-bench: --io-type {} overwrites the data of image {}; pass --allow-write to write it",
            o.io_type,
            c.spec()
        );
        return 2;
    }
    // SAFETY (set_var): nothing else runs yet; the variables are read by librados later.
    if let Some(conf) = &c.conf {
        std::env::set_var("CEPH_CONF", conf);
    }
    if let Some(k) = &c.keyring {
        let args = std::env::var("CEPH_ARGS").unwrap_or_default();
        std::env::set_var("CEPH_ARGS", format!("{args} --keyring {}", k.display()));
    }
    if o.pattern == "seq" && o.io_threads > 1 {
        eprintln!(
            "iomark rbd-bench: on an image, seq runs as one sequential stream at depth {} from one client (the image's exclusive lock makes several writing clients take turns)",
            o.io_threads
        );
    }
    run(o, &image_plan::plan(o, c), None)
}

/// Runs the plan with the live per-second lines, then prints the summary; removes `temp`.
/// rbd bench's header reaches stdout only once the I/O has begun (the library loaded, the
/// cluster and the image reached): a run that cannot start leaves stdout empty.
fn run(o: &RbdOpts, plan: &iomark_engine::job::RunPlan, temp: Option<&std::path::Path>) -> i32 {
    let session = Session::said("rbd-bench");
    if let Some(p) = temp {
        signals::register_temp(p);
    }
    let header = Header {
        text: window::header(
            &o.type_word(),
            o.io_size,
            o.io_threads,
            o.ops() * o.io_size,
            o.pattern_word(),
        ),
        shown: Arc::new(AtomicBool::new(false)),
    };
    let live = PerSecond {
        header: header.clone(),
        io_size: o.io_size,
        start: None,
        next: 1,
        samples: Vec::new(),
    };
    // rbd bench's own per-second lines are its progress: no step line over them.
    let progress = session.watch(vec![Box::new(live)], true);
    let res = runner::run(plan, &session.ctl);
    progress.stop();
    if let Some(p) = temp {
        let _ = std::fs::remove_file(p);
        signals::clear_temp();
    }
    let mut res = match res {
        Ok(r) => r,
        Err(e) => {
            eprintln!("iomark rbd-bench: {e}");
            return session.exit(true);
        }
    };
    // A run too short for the sampler to see it still has its header; a run whose every
    // job failed before its first I/O has none, nor a summary.
    let began = res
        .jobs
        .iter()
        .any(|j| j.error == 0 || j.dirs.read.total_ios + j.dirs.write.total_ios > 0);
    if !began {
        for j in &res.jobs {
            match &j.failure {
                Some(f) => eprintln!("iomark rbd-bench: {f}"),
                None => eprintln!(
                    "iomark rbd-bench: {}",
                    std::io::Error::from_raw_os_error(j.error)
                ),
            }
        }
        return session.exit(true);
    }
    header.show();
    session.mark(&mut res);
    print!("{}", output(o, &res));
    let _ = std::io::stdout().flush();
    let kept = session.keep(&res);
    session.exit(!kept || res.jobs.iter().any(|j| j.error != 0))
}

/// rbd bench's header line, printed once.
#[derive(Clone)]
struct Header {
    text: String,
    shown: Arc<AtomicBool>,
}

impl Header {
    fn show(&self) {
        if !self.shown.swap(true, Ordering::Relaxed) {
            let mut out = std::io::stdout().lock();
            let _ = out.write_all(self.text.as_bytes());
            let _ = out.flush();
        }
    }
}

/// Prints one `SEC OPS OPS/SEC BYTES/SEC` line a second while the run goes, as rbd bench does:
/// the operations done so far by every slot (the workers' published counters) and the rates
/// over the rolling window. The clock starts, and the header is printed, when the first worker
/// starts its I/O (after any layout, once its engine reached the image).
struct PerSecond {
    header: Header,
    io_size: u64,
    start: Option<Instant>,
    /// The second of the next line.
    next: u64,
    samples: Vec<Sample>,
}

impl Observer for PerSecond {
    fn every(&self) -> Duration {
        Duration::from_millis(20)
    }

    fn sample(&mut self, s: &progress::Sample) {
        if self.start.is_none() {
            let started = |w: &Arc<WorkerProgress>| {
                matches!(w.state(), WorkerState::Running | WorkerState::Done)
            };
            if !s.workers.iter().any(started) {
                return;
            }
            self.header.show();
        }
        let t0 = *self.start.get_or_insert_with(Instant::now);
        if t0.elapsed() < Duration::from_secs(self.next) {
            return;
        }
        let ops: u64 = s
            .workers
            .iter()
            .map(|w| w.ios.iter().map(|i| i.load(Ordering::Relaxed)).sum::<u64>())
            .sum();
        self.samples.push(Sample {
            t: self.next as f64,
            ops,
            bytes: ops * self.io_size,
        });
        if let Some(l) = window::lines(&self.samples).last() {
            let mut out = std::io::stdout().lock();
            let _ = out.write_all(window::format_line(l).as_bytes());
            let _ = out.flush();
        }
        self.next += 1;
    }
}

/// After the run: the summary (and read_/write_ lines for a mix) on stdout, as rbd bench
/// prints it; iomark's latency figures on stderr.
fn output(o: &RbdOpts, res: &RunResult) -> String {
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
    let mut out = window::summary("", elapsed, r_ops + w_ops, r_bytes + w_bytes);
    if o.io_type == "readwrite" {
        out.push_str(&window::summary("read_", elapsed, r_ops, r_bytes));
        out.push_str(&window::summary("write_", elapsed, w_ops, w_bytes));
    }
    let us = |p: f64| lat.hist.percentile(p) as f64 / 1000.0;
    eprintln!(
        "iomark rbd-bench: latency (µs): mean {:.1}  p50 {:.1}  p90 {:.1}  p99 {:.1}  p99.9 {:.1}  max {:.1}",
        lat.stat.mean() / 1000.0,
        us(50.0),
        us(90.0),
        us(99.0),
        us(99.9),
        us(100.0)
    );
    out
}
