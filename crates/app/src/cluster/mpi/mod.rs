//! Running as one rank of an MPI launch (`mpirun`, `mpiexec`, `srun`; Cargo feature `mpi`).
//! A process started by a launcher with more than one rank runs as a rank without any flag
//! (`--no-mpi` runs it alone). Every rank runs the same jobs on its own targets (`$rank`,
//! `$nranks`, `$hostname` in the target options) or on regions of one shared target; rank 0
//! gathers every rank's whole result and writes the outputs; `iozone -t` runs its children on
//! every rank (iozone's cluster mode). Commands that only read or print
//! (report, compare, help, ...) run on rank 0 alone; commands that do I/O and have no cluster
//! mode are refused.

mod iozone;
mod link;
mod regions;
mod run;

pub use crate::cluster::session::Outcome;

/// A session of ranks over MPI.
pub type Session = crate::cluster::session::Session<link::Link>;

use crate::cluster::args::ClusterOpts;
use crate::cluster::transport::Transport;
use crate::cluster::Role;
use iomark_fio::cluster_words::Place;
use iomark_fio::jobfile::{HostVars, Vars};

/// The world size and this process's rank as the launcher announces them in the environment
/// (Open MPI, MPICH and Intel MPI through PMI, MVAPICH, Slurm's srun), read without starting
/// MPI: a process that was not launched as one of many never loads it.
pub fn launched() -> Option<(usize, usize)> {
    let get = |k: &str| std::env::var(k).ok()?.trim().parse::<usize>().ok();
    let pairs = [
        ("OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_RANK"),
        ("PMI_SIZE", "PMI_RANK"),
        ("MV2_COMM_WORLD_SIZE", "MV2_COMM_WORLD_RANK"),
        ("SLURM_STEP_NUM_TASKS", "SLURM_PROCID"),
    ];
    pairs
        .iter()
        .find_map(|(s, r)| Some((get(s)?, get(r).unwrap_or(0))))
        .filter(|(size, _)| *size > 1)
}

/// `$rank`, `$nranks` and `$hostname` of this rank, the rest of the host's variables as they are.
pub struct RankVars(pub Place);

impl Vars for RankVars {
    fn env(&self, name: &str) -> Option<String> {
        HostVars.env(name)
    }
    fn ncpus(&self) -> u64 {
        HostVars.ncpus()
    }
    fn mb_memory(&self) -> u64 {
        HostVars.mb_memory()
    }
    fn pagesize(&self) -> u64 {
        HostVars.pagesize()
    }
    fn place(&self) -> Place {
        self.0.clone()
    }
}

/// Runs `args` as a rank when launched as many; None to run it as usual (alone, or on rank 0
/// for a command that only reads or prints). `role` is the command line's role under a
/// launcher (from the command table).
pub fn main(args: &[String], opts: &ClusterOpts, role: Role) -> Option<i32> {
    if opts.no_mpi {
        return None;
    }
    let (_, env_rank) = launched()?;
    let command = args.first().map(String::as_str).unwrap_or("");
    match role {
        Role::RankZero => return (env_rank != 0).then_some(0),
        Role::Refused => {
            if env_rank == 0 {
                eprintln!(
                    "iomark: {command} has no mode of many ranks; launch it without mpirun/srun, or give --no-mpi to run it alone on every rank"
                );
            }
            return Some(2);
        }
        Role::Cluster => {}
    }
    let Some((universe, _)) = mpi::initialize_with_threading(mpi::Threading::Funneled) else {
        eprintln!("iomark: MPI could not be started");
        return Some(1);
    };
    let world = universe.world();
    let link = link::Link::new(world);
    if link.size() < 2 {
        drop(link);
        drop(universe);
        return None;
    }
    let host = iomark_engine::sys::host_info().hostname;
    let place = Place {
        rank: link.rank(),
        nranks: link.size(),
        host: host.clone(),
    };
    let mut session = Session {
        link,
        host,
        timeout: opts.timeout,
        verbose: opts.verbose,
    };
    let code = if command == "preset" {
        run::preset(&args[1..], &mut session, &place)
    } else if command == "iozone" {
        iozone::main(&args[1..], &mut session, &place)
    } else {
        let a = if command == "run" { &args[1..] } else { args };
        let member = if place.rank == 0 {
            crate::repeat::Member::Lead
        } else {
            crate::repeat::Member::Other
        };
        let once = |x: &[String]| run::run(x, &mut session, &place);
        crate::repeat::repeat_as(a, once, member)
    };
    drop(session);
    // MPI_Finalize, before the process exits.
    drop(universe);
    Some(code)
}
