//! `iomark rados-bench`: the binary's side (iomark-scenarios parses and words, the engine's
//! rados_bench runs as a step of the runner): the connection, the live table on stdout (an
//! observer of the session's progress source), the summary from the result, cleanup.

use crate::progress::source::{Observer, Sample};
use crate::session::{exit, Session};
use iomark_ceph::ConnectOptions;
use iomark_engine::failure::JobFailure;
use iomark_engine::rados_bench::{self, BenchSpec, BenchStep, Mode};
use iomark_engine::runner::steps::{self, StepRun};
use iomark_scenarios::rados_bench::args::{self, Action, RadosOpts};
use iomark_scenarios::rados_bench::output::{self, Tick};
use std::io::Write;
use std::time::Duration;

/// `iomark rados-bench ARGS...`; returns the exit code.
pub fn main(a: &[String]) -> i32 {
    let o = match args::parse(a) {
        Ok(Some(o)) => o,
        Ok(None) => return crate::session::pipe::print_text(args::USAGE),
        Err(e) => {
            eprintln!("iomark {e}");
            return 2;
        }
    };
    match run(&o) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("iomark rados-bench: {e}");
            1
        }
    }
}

fn connect_options(o: &RadosOpts) -> ConnectOptions {
    let d = ConnectOptions::default();
    ConnectOptions {
        cluster: o.cluster.clone().unwrap_or(d.cluster),
        client: o.client.clone().unwrap_or(d.client),
        conf: o.conf.clone(),
        keyring: o.keyring.clone(),
    }
}

fn run(o: &RadosOpts) -> Result<i32, String> {
    let connect = connect_options(o);
    let pool = rados_bench::open(&connect, &o.pool)?;
    let mode = match o.action {
        Action::Cleanup => {
            let n = rados_bench::cleanup(&pool, o.run_name.as_deref())?;
            println!("Removed {n} objects");
            return Ok(0);
        }
        Action::Bench(m) => m,
    };
    let spec = BenchSpec {
        mode,
        seconds: o.seconds,
        op_size: o.op_size,
        threads: o.threads,
        run_name: o.run_name.clone(),
        no_cleanup: o.no_cleanup,
    };
    let pid = std::process::id() as i32;
    print!(
        "{}",
        output::preamble(
            mode,
            o.op_size,
            o.threads,
            o.seconds,
            &rados_bench::objects::prefix(pid)
        )
    );
    let _ = std::io::stdout().flush();
    let mut step = BenchStep::new(spec, pool)?;
    let session = Session::quiet("rados-bench");
    let live = PerSecond {
        op_size: step.object_size(),
        next: 0,
        prev: 0,
    };
    // rados bench's own per-second lines are its progress: no step line over them.
    let progress = session.watch(vec![Box::new(live)], true);
    let ran = steps::run_steps(&StepRun::default(), &mut [&mut step], &session.ctl);
    progress.stop();
    let mut res = ran.map_err(|e| e.to_string())?.result;
    session.mark(&mut res);
    let job = |name: &str| res.jobs.iter().find(|j| j.name == name);
    let Some(bench) = job(step.job_name()) else {
        // Stopped before it started: nothing ran, nothing to sum up.
        return Ok(session.exit(true));
    };
    for j in &res.jobs {
        if let Some(f) = &j.failure {
            return Err(match f {
                JobFailure::Phase { reason, .. } => reason.clone(),
                f => f.to_string(),
            });
        }
    }
    print!("{}", output::summary(mode, bench, step.object_size()));
    if let Some(c) = job(rados_bench::CLEANUP_JOB) {
        print!(
            "Cleaning up (deleting benchmark objects)\nRemoved {} objects\nClean up completed and total clean up time :{}\n",
            c.dirs.write.total_ios,
            output::g(c.runtime_us as f64 / 1e6)
        );
    }
    let _ = std::io::stdout().flush();
    eprint!("{}", output::percentiles(output::latencies(mode, bench)));
    let ops = output::latencies(mode, bench).stat.n;
    let bad = bench.verify.as_ref().map_or(0, |v| v.bad_blocks);
    if bad > 0 {
        eprintln!(
            "iomark rados-bench: {bad} of {ops} objects read did not hold what the write run wrote"
        );
        return Ok(exit::FAILED);
    }
    Ok(session.exit(mode != Mode::Write && ops == 0))
}

/// Prints rados bench's line each second while the run goes, from the run's live counters
/// (requests started and finished, the last and average latency), the header every 20 lines.
struct PerSecond {
    op_size: u64,
    /// The second of the next line.
    next: u64,
    /// Requests finished at the last line.
    prev: u64,
}

impl Observer for PerSecond {
    fn every(&self) -> Duration {
        Duration::from_millis(20)
    }

    fn sample(&mut self, s: &Sample) {
        let Some(w) = s.workers.first() else { return };
        if w.state().finished() {
            return;
        }
        let Some(f) = w.flight.read(s.now_ns) else {
            return;
        };
        let mut out = std::io::stdout().lock();
        while f.elapsed >= self.next as f64 {
            let t = Tick {
                sec: self.next,
                in_flight: f.started - f.finished,
                started: f.started,
                finished: f.finished,
                elapsed: f.elapsed,
                last_lat: f.last_lat,
                avg_lat: f.avg_lat,
                op_size: self.op_size,
            };
            let _ = out.write_all(output::line(&t, self.prev).as_bytes());
            self.prev = f.finished;
            self.next += 1;
        }
        let _ = out.flush();
    }
}
