//! The command table: every command of iomark once, with its lines in the usage, its summary in
//! the manual page, what it does when launched as many ranks (mpirun, srun) and the function
//! that runs it. The dispatcher, the usage text, the manual page, the shell completions and the
//! cluster launcher all read this table, so a new command is one row here.

use crate::suites::{blogbench, bonnie, dd, hdparm, iozone};
use crate::{
    completions, iometer, manual, merge, preset, quick, rados_bench, rbd_bench, repeat, report_cmd,
    run, store_cmd, sweep,
};
use iomark_scenarios as scenarios;
use iomark_suites as suites;

pub use crate::cluster::Role;
pub use crate::command::Command;

/// Help, version and parse-only calls only print: rank 0 answers them alone.
fn informative(a: &str) -> bool {
    matches!(
        a,
        "--help" | "-h" | "--version" | "--showcmd" | "--parse-only"
    ) || a.starts_with("--cmdhelp")
}

fn cluster_unless_informative(args: &[String]) -> Role {
    if args.iter().any(|a| informative(a)) {
        Role::RankZero
    } else {
        Role::Cluster
    }
}

fn rank_zero(_: &[String]) -> Role {
    Role::RankZero
}

fn refused(_: &[String]) -> Role {
    Role::Refused
}

fn preset_role(args: &[String]) -> Role {
    if args.first().map(String::as_str) == Some("run") {
        Role::Cluster
    } else {
        Role::RankZero
    }
}

fn iozone_role(args: &[String]) -> Role {
    if args.iter().any(|a| informative(a) || a == "-v") {
        Role::RankZero
    } else {
        Role::Cluster
    }
}

/// A help text given as a constant.
macro_rules! text {
    ($t:expr) => {
        || $t.to_string()
    };
}

/// Every command, in the order of the usage.
pub const COMMANDS: &[Command] = &[
    Command {
        name: "quick",
        aliases: &[],
        usage: "  iomark quick [PATH] [--json]           quick benchmark (SEQ1M/RND4K, read and write) of a
                                         temporary file in PATH (default: current directory)
",
        summary: "Run a short preset set of jobs against a target and summarise the results.",
        help: text!(scenarios::quick::USAGE),
        role: refused,
        run: quick::main,
    },
    Command {
        name: "preset",
        aliases: &[],
        usage: "  iomark preset list|show NAME|run NAME [TARGET]
                                         ready-made benchmarks (backup repository, cloud
                                         disk, Ceph RBD, CrystalDiskMark profiles, ...)
",
        summary: "List, show and run ready-made benchmarks (backup repository, cloud disk, Ceph RBD, CrystalDiskMark profiles).",
        help: text!(scenarios::preset::args::USAGE),
        role: preset_role,
        run: preset::main,
    },
    Command {
        name: "sweep",
        aliases: &[],
        usage: "  iomark sweep --bs=4k,64k --iodepth=1..64x4 [--rw=randread ...] [--show=iops|bw|p99]
                                         run the cross product of the swept options; matrix
",
        summary: "Run the cross product of swept job options and print a matrix of one figure.",
        help: text!(scenarios::sweep::args::USAGE),
        role: refused,
        run: |a| repeat::maybe_repeated(a, sweep::main),
    },
    Command {
        name: "rbd-bench",
        aliases: &[],
        usage: "  iomark rbd-bench TARGET --io-type write [--io-size 4K --io-threads 16 --io-total 1G ...]
                                         Ceph's rbd bench on an image (POOL/IMAGE), a file or
                                         a device, with latency
",
        summary: "Ceph's rbd bench workload and per\\-second table, with latency.",
        help: text!(scenarios::rbd_bench::args::USAGE),
        role: refused,
        run: rbd_bench::main,
    },
    Command {
        name: "rados-bench",
        aliases: &[],
        usage: "  iomark rados-bench -p POOL SECONDS write|seq|rand [-b 4M -t 16 --no-cleanup ...]
                                         Ceph's rados bench on a pool; cleanup removes its objects
",
        summary: "Ceph's rados bench on a pool through librados, with its table and object naming.",
        help: text!(scenarios::rados_bench::args::USAGE),
        role: refused,
        run: rados_bench::main,
    },
    Command {
        name: "iometer",
        aliases: &[],
        usage: "  iomark iometer [TARGET] --spec 4k,70,100 [--outstanding 16 --workers 2 ...]
                                         an Iometer access specification (--list: named ones)
",
        summary: "Run an Iometer access specification.",
        help: text!(iometer::USAGE),
        role: refused,
        run: iometer::main,
    },
    Command {
        name: "run",
        aliases: &[],
        usage: "  iomark run [SWITCHES] [--name=JOB --OPTION=VALUE ...]
                                         run fio-style jobs given as command-line options
  iomark run --repeat=N [--repeat-pause=TIME] [--repeat-agg=mean|median|best] ...
                                         run the jobs N times; statistics of every figure
                                         (also on sweep, dd, hdparm and bonnie)
  iomark run --help                      the switches and every job option
  iomark run --cmdhelp=OPTION            help for one option
",
        summary: "Run the jobs given by options and job files.",
        help: iomark_fio::doc::help_text,
        role: cluster_unless_informative,
        run: |a| repeat::maybe_repeated(a, run::run),
    },
    Command {
        name: "report",
        aliases: &[],
        usage: "  iomark report RESULT... [-o FILE.html] HTML report with charts of iomark results or fio JSON
                                         (`--report FILE.html` on quick and run charts that run)
",
        summary: "Write an HTML report with charts of iomark result files or fio JSON output.",
        help: report_cmd::report_usage,
        role: rank_zero,
        run: report_cmd::report_main,
    },
    Command {
        name: "compare",
        aliases: &[],
        usage: "  iomark compare A B [C...] [--fail-if RULE] [--report FILE.html]
                                         compare results: deltas, spread test, CI rules
",
        summary: "Compare results: deltas, a spread test and rules that fail a CI job.",
        help: text!(report_cmd::COMPARE_USAGE),
        role: rank_zero,
        run: report_cmd::compare_main,
    },
    Command {
        name: "export",
        aliases: &[],
        usage: "  iomark export RESULT... --csv FILE | --xlsx FILE | --markdown
                                         export results as CSV, XLSX or Markdown tables
",
        summary: "Export results as CSV, XLSX or Markdown tables.",
        help: text!(report_cmd::EXPORT_USAGE),
        role: rank_zero,
        run: report_cmd::export_main,
    },
    Command {
        name: "history",
        aliases: &[],
        usage: "  iomark history [--host H] [--tag T] [--since DATE] [--json] ...
                                         the runs recorded in the result store (filters:
                                         also --command CMD, --target PATH)
",
        summary: "List the runs recorded in the result store, with filters.",
        help: text!(store_cmd::HISTORY_USAGE),
        role: rank_zero,
        run: store_cmd::history_main,
    },
    Command {
        name: "show",
        aliases: &[],
        usage: "  iomark show @ID|@last|@last~N|@tag:NAME [--json]
                                         one run of the store: its facts and figures, or
                                         its whole result document
",
        summary: "Show one run of the result store: its facts and figures, or its whole result document.",
        help: text!(store_cmd::SHOW_USAGE),
        role: rank_zero,
        run: store_cmd::show_main,
    },
    Command {
        name: "store",
        aliases: &[],
        usage: "  iomark store import FILE...|export DIR|prune --keep N|--before DATE|path
                                         manage the result store (import fio JSON too)
",
        summary: "Import result files and fio JSON output into the result store, export its runs, prune it.",
        help: text!(store_cmd::STORE_USAGE),
        role: rank_zero,
        run: store_cmd::store_main,
    },
    Command {
        name: "merge",
        aliases: &[],
        usage: "  iomark merge RESULT... [--output-format=FMT] [--result FILE] [--report FILE.html|DIR]
                                         merge result files of several hosts as one run of
                                         many clients (exact percentiles, stonewall figures)
",
        summary: "Merge result files written by \\fBiomark run \\-\\-result\\fR on several hosts into one run of many
clients: fio's client output (\\fBclient_stats\\fR with an \\fBAll clients\\fR entry whose percentiles
come from the merged histograms), stonewall and all\\-done figures, the slowest ranks, a result
file with every rank (\\fB\\-\\-result\\fR) and an HTML report with per\\-host charts (\\fB\\-\\-report\\fR).",
        help: text!(merge::USAGE),
        role: rank_zero,
        run: merge::main,
    },
    Command {
        name: "man",
        aliases: &[],
        usage: "  iomark man [COMMAND]                   the manual page of iomark or of one command (roff)
",
        summary: "Print the manual pages: iomark(1) and one per command (roff).",
        help: text!(manual::USAGE),
        role: rank_zero,
        run: |a| manual::main(a, COMMANDS),
    },
    Command {
        name: "dd",
        aliases: &[],
        usage: "  iomark dd OPERAND...                   GNU dd's operands and output (iomark dd --help)
",
        summary: "GNU dd's operands and output.",
        help: text!(suites::dd::USAGE),
        role: refused,
        run: |a| repeat::maybe_repeated(a, dd::main),
    },
    Command {
        name: "hdparm",
        aliases: &[],
        usage: "  iomark hdparm -t -T [--direct] PATH    hdparm's read timings, on devices and files
",
        summary: "hdparm's cached and device read timings, on devices and files.",
        help: text!(suites::hdparm::USAGE),
        role: refused,
        run: |a| repeat::maybe_repeated(a, hdparm::main),
    },
    Command {
        name: "bonnie",
        aliases: &["bonnie++"],
        usage: "  iomark bonnie [-d DIR] [-s MiB] ...    bonnie++'s tests, text tables and CSV
",
        summary: "bonnie++'s tests, with its text tables and CSV line.",
        help: text!(suites::bonnie::USAGE),
        role: refused,
        run: |a| repeat::maybe_repeated(a, bonnie::main),
    },
    Command {
        name: "iozone",
        aliases: &[],
        usage: "  iomark iozone [-a] [-i N] [-s -r] ...  iozone's tests, matrix, -R report, workbook, -t mode
",
        summary: "iozone's tests, its automatic matrix, \\-R report, workbook and throughput mode.",
        help: suites::iozone::usage,
        role: iozone_role,
        run: iozone::main,
    },
    Command {
        name: "blogbench",
        aliases: &[],
        usage: "  iomark blogbench -d DIR [-w N] ...     blogbench's workload, table and scores
",
        summary: "blogbench's file-server workload, its table and scores.",
        help: text!(suites::blogbench::USAGE),
        role: refused,
        run: blogbench::main,
    },
    Command {
        name: "completions",
        aliases: &[],
        usage: "  iomark completions bash|zsh|fish       shell completion script (where to put it: --help)
",
        summary: "Print the completion script for bash, zsh or fish.",
        help: text!(completions::USAGE),
        role: rank_zero,
        run: |a| completions::main(a, COMMANDS),
    },
];

/// The command named `word` (by its name or an alias).
pub fn find(word: &str) -> Option<&'static Command> {
    COMMANDS.iter().find(|c| c.is(word))
}

/// A fio command line without a command word (`iomark --name=x --rw=read`) runs as `iomark run`.
pub fn fio_style(args: &[String]) -> bool {
    args.first().is_some_and(|a| a.starts_with('-'))
}

/// The role of a whole command line (command word included) under a launcher.
#[cfg(any(test, feature = "mpi"))]
pub fn role(args: &[String]) -> Role {
    match args.first().map(String::as_str) {
        _ if fio_style(args) => cluster_unless_informative(args),
        Some(w) => find(w).map_or(Role::RankZero, |c| (c.role)(&args[1..])),
        None => Role::RankZero,
    }
}

const HEAD: &str = "iomark: measure storage, run fio workloads, compare results

Usage:
";

const TAIL: &str = "  iomark --version | -v

Under mpirun or srun (a build with the mpi feature), run and preset run on every rank at once,
merged on rank 0 (see docs/clusters.md):
  --no-mpi                               run alone even when launched as many ranks
  --mpi-timeout=TIME                     how long a rank may stay silent (default 60s)
  --mpi-verbose                          each phase and the gather's cost on stderr

Every run is recorded in the result store (iomark history, compare @last~1 @last):
  --store=PATH|URL                       the store: a file, or a team's PostgreSQL database
                                         (postgres://USER@HOST/DB); default $IOMARK_STORE,
                                         else $XDG_DATA_HOME/iomark/results.db or
                                         ~/.local/share/iomark/results.db
  --no-store                             do not record this run
  --tag=NAME                             tag the run in the store (repeatable)

A long command shows its progress (step i of n, rate, elapsed time, ETA) on one line of stderr
when stderr is a terminal, never in piped output:
  --progress                             draw it even when stderr is not a terminal
  --no-progress                          never draw it

Exit status: 0 ok, 1 the run failed (a job errored, a check or expected figure missed),
2 bad input (found before any I/O), 130 interrupted (the result file is still written).

A fio command line runs unchanged with `iomark run` in place of `fio`:
  iomark run --name=rr --filename=/data/t --size=1g --rw=randread --bs=4k \\
             --ioengine=io_uring --iodepth=32 --direct=1 --runtime=30 --time_based
";

/// The usage text: the head, every command's lines, the launcher's switches and an example.
pub fn usage() -> String {
    let mut s = String::from(HEAD);
    for c in COMMANDS {
        s.push_str(c.usage);
    }
    s.push_str(TAIL);
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &[&str]) -> Vec<String> {
        s.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn commands_find_their_role() {
        assert_eq!(role(&v(&["run", "--name=a"])), Role::Cluster);
        assert_eq!(role(&v(&["--name=a", "--rw=read"])), Role::Cluster);
        assert_eq!(role(&v(&["--name=a", "--parse-only"])), Role::RankZero);
        assert_eq!(role(&v(&["run", "jobs.fio"])), Role::Cluster);
        assert_eq!(role(&v(&["preset", "run", "x"])), Role::Cluster);
        assert_eq!(role(&v(&["preset", "list"])), Role::RankZero);
        assert_eq!(role(&v(&["run", "--help"])), Role::RankZero);
        assert_eq!(role(&v(&["report", "r.json"])), Role::RankZero);
        assert_eq!(role(&v(&["dd", "if=/dev/zero"])), Role::Refused);
        assert_eq!(role(&v(&["bonnie++", "-d", "x"])), Role::Refused);
        assert_eq!(role(&v(&["iozone", "-t", "2"])), Role::Cluster);
        assert_eq!(role(&v(&["iozone", "-h"])), Role::RankZero);
        assert_eq!(role(&v(&["nonsense"])), Role::RankZero);
    }

    /// Every command has its lines in the usage, starting with its name, and names are unique.
    #[test]
    fn every_command_is_in_the_usage_once() {
        let text = usage();
        for c in COMMANDS {
            assert!(
                c.usage.starts_with(&format!("  iomark {}", c.name)),
                "{}",
                c.name
            );
            assert!(text.contains(c.usage));
            assert_eq!(COMMANDS.iter().filter(|d| d.name == c.name).count(), 1);
        }
    }
}
