//! `iomark dd`: GNU dd's operands become a plan of engine jobs (one read or write job, plus one
//! for a last partial block), and GNU dd's own lines are written from the result model, followed
//! by one line of IOPS and latency percentiles.

pub mod args;
pub mod human;
pub mod output;
pub mod plan;
pub mod table;

pub use args::{parse, DdArgs, DdError};
pub use plan::{plan, DdPlan, Probe};

/// `iomark dd --help`.
pub const USAGE: &str = "Usage: iomark dd OPERAND...

GNU dd's operands, measured by iomark's engine; prints GNU dd's lines, then one line with IOPS
and latency percentiles (unless status=none).

  if=FILE       read FILE (a file, a block device, /dev/zero or /dev/urandom)
  of=FILE       write FILE (a file or a block device), or /dev/null
  bs=BYTES      read and write BYTES at a time (overrides ibs and obs)
  ibs=BYTES     read BYTES at a time (default 512)
  obs=BYTES     write BYTES at a time (default 512)
  count=N       copy only N input blocks
  skip=N        skip N ibs-sized input blocks
  seek=N        skip N obs-sized output blocks
  iflag=FLAGS   direct, dsync, sync, fullblock, nocache, noatime, count_bytes, skip_bytes
  oflag=FLAGS   direct, dsync, sync, nocache, noatime, seek_bytes
  conv=CONVS    fsync, fdatasync, notrunc, excl, nocreat
  status=LEVEL  none, noxfer or progress

BYTES and N take GNU dd's suffixes: c=1, w=2, b=512, kB=1000, K=1024, MB=1000*1000,
M=1024*1024, GB, G, TB, T, ... (KiB=K, MiB=M, ...), and products such as 2x512.

iomark additions:
  --result=PATH, --result-file=PATH
                          write iomark's result (JSON, with latency histograms) to PATH (the
                          two spellings are the same option)
  --force-device-write    write to a block device that holds a file system or partition table

Differences from GNU dd:
  - One side of the copy is a file or device, the other /dev/zero, /dev/urandom or
    /dev/null (copying file to file is not measured). As in GNU dd, each block is read from
    if= and written to of= with read(2) and write(2), and the time covers both.
  - The final fsync (conv=fsync) or fdatasync (conv=fdatasync) is inside the timing, as in
    GNU dd.
";
