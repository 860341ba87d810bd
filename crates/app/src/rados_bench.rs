//! `iomark rados-bench`: the binary's side (iomark-scenarios parses and words, the engine's
//! rados_bench runs): the connection, the live table on stdout, the summary, cleanup.

use crate::session::{exit, Session};
use iomark_ceph::ConnectOptions;
use iomark_engine::rados_bench::{self, BenchSpec, Mode};
use iomark_scenarios::rados_bench::args::{self, Action, RadosOpts};
use iomark_scenarios::rados_bench::output;
use std::io::Write;

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
        connect,
        pool: o.pool.clone(),
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
    let session = Session::quiet("rados-bench");
    let stop = session.ctl.stop.clone();
    let mut prev = 0;
    let res = rados_bench::run(
        &spec,
        &pool,
        |t| {
            let mut out = std::io::stdout().lock();
            let _ = out.write_all(output::line(t, prev).as_bytes());
            let _ = out.flush();
            prev = t.finished;
        },
        &stop,
    )?;
    print!("{}", output::summary(mode, &res));
    if let Some((n, secs)) = res.removed {
        print!(
            "Cleaning up (deleting benchmark objects)\nRemoved {n} objects\nClean up completed and total clean up time :{}\n",
            output::g(secs)
        );
    }
    let _ = std::io::stdout().flush();
    eprint!("{}", output::percentiles(&res.lats));
    if res.bad > 0 {
        eprintln!(
            "iomark rados-bench: {} of {} objects read did not hold what the write run wrote",
            res.bad, res.ops
        );
        return Ok(exit::FAILED);
    }
    Ok(session.exit(mode != Mode::Write && res.ops == 0))
}
