//! `iomark hdparm -t -T [--direct] [--offset GiB] PATH...`: hdparm's read timings as engine jobs,
//! hdparm's lines from the result model plus latency percentiles. Works on files as well as
//! block devices (and says which).

pub mod args;
pub mod output;
pub mod plan;
pub mod table;

pub use args::{parse, HdparmArgs, HdparmError};
pub use plan::{plan, HdparmPlan, Kind};

/// hdparm's timing buffer: every timed read is 2 MiB.
pub const TIMING_BUF: u64 = 2 << 20;

/// `iomark hdparm --help`.
pub const USAGE: &str = "Usage: iomark hdparm [-t] [-T] [--direct] [--offset GiB] PATH...

hdparm's read timings, measured by iomark's engine, on block devices and on regular files.

  -T            cached reads: the first 2 MiB read once, then re-read for 2 s (only the time
                inside the reads counts, as hdparm subtracts its seek and timer overhead)
  -t            disk reads: sync and wait 3 s for the I/O to settle (as hdparm does), drop
                the cache, then sequential 2 MiB reads for at least 3 s or to the end of the
                device or file
  --direct      O_DIRECT (-T then times the drive's own cache)
  --offset N    start -t at N GiB
  --result=PATH, --result-file=PATH
                iomark's result (JSON, latency histograms) to PATH (the two spellings are
                the same option)

Output: hdparm's lines (its \"MB\" are MiB: 2 MiB reads), each followed by an iomark line with
the read latency percentiles. Unlike hdparm, files are accepted, and -t drops the cache
before its reads (hdparm drops it after them).
";
