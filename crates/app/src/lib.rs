//! iomark's application layer: the command table and what every command runs in (signals,
//! progress, output writing, exit codes), over the front ends (fio, suites, scenarios), the
//! engine and the back ends (fio outputs, reports). The binary calls [`main`].

mod cluster;
mod command;
mod commands;
mod completions;
mod iometer;
mod manual;
mod merge;
mod preset;
mod progress;
mod quick;
mod rados_bench;
mod rbd_bench;
mod repeat;
mod report_cmd;
mod run;
mod session;
mod store_cmd;
mod suites;
mod sweep;

pub use commands::{Command, Role, COMMANDS};

/// Runs the command line `argv` (the program's name first); returns the exit status.
pub fn main(argv: Vec<String>) -> i32 {
    session::pipe::default_sigpipe();
    session::pipe::exit_on_stdout_errors();
    // Recorded in every result: the program by its name, not the path it was started from.
    let mut line = argv.clone();
    if let Some(first) = line.first_mut() {
        if let Some(n) = std::path::Path::new(first.as_str()).file_name() {
            *first = n.to_string_lossy().into_owned();
        }
    }
    session::set_command_line(line);
    let (args, cluster) = match cluster::args::take(argv.into_iter().skip(1).collect()) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("iomark: {e}");
            return 2;
        }
    };
    let args = progress::steps::take(args);
    let args = match session::record::take(args) {
        Ok((args, store)) => {
            session::record::set(store, &front_end(&args));
            args
        }
        Err(e) => {
            eprintln!("iomark: {e}");
            return 2;
        }
    };
    // Launched as many ranks (mpirun, srun): this process runs as one of them.
    #[cfg(feature = "mpi")]
    if let Some(code) = cluster::mpi::main(&args, &cluster, commands::role(&args)) {
        return session::pipe::finish_stdout(code);
    }
    #[cfg(not(feature = "mpi"))]
    {
        let _ = cluster;
        if let Some(n) = launched_as_ranks() {
            eprintln!(
                "iomark: warning: started as one of {n} ranks (mpirun or srun), but this iomark is built without MPI: each rank runs alone and the results are not merged (build with --features mpi, or merge the --result files with iomark merge)"
            );
        }
    }
    session::pipe::finish_stdout(dispatch(&args))
}

/// The number of ranks an MPI launcher started, when more than one (Open MPI's
/// `OMPI_COMM_WORLD_SIZE`, PMI's `PMI_SIZE`).
#[cfg(not(feature = "mpi"))]
fn launched_as_ranks() -> Option<u64> {
    ["OMPI_COMM_WORLD_SIZE", "PMI_SIZE"]
        .iter()
        .filter_map(|k| std::env::var(k).ok()?.trim().parse::<u64>().ok())
        .find(|n| *n > 1)
}

/// The command a run is recorded under in the store: the command's name, `run` for a fio
/// command line without one.
fn front_end(args: &[String]) -> String {
    match args.first() {
        Some(w) if !commands::fio_style(args) => commands::find(w).map_or(w.as_str(), |c| c.name),
        _ => "run",
    }
    .to_string()
}

/// Runs one command line (without the program's name) in this process.
fn dispatch(args: &[String]) -> i32 {
    let usage = commands::usage;
    match args.first().map(String::as_str) {
        // No arguments is a usage error: the usage goes to stderr, status 2 (as for an unknown
        // command); asking for it (`--help`) prints it on stdout, status 0.
        None => {
            eprint!("{}", usage());
            2
        }
        Some("-h" | "--help" | "help") => session::pipe::print_text(&usage()),
        Some("--version" | "-V" | "-v" | "version") => {
            session::pipe::print_text(&format!("iomark-{}", iomark_engine::VERSION))
        }
        // fio style without a subcommand: `iomark --name=x --rw=read ...`
        _ if commands::fio_style(args) => run::run(args),
        Some(word) => match commands::find(word) {
            Some(c) => (c.run)(&args[1..]),
            None => {
                eprintln!(
                    "iomark: unknown command {}\n\n{}",
                    iomark_output::echo::quote(word),
                    usage()
                );
                2
            }
        },
    }
}
