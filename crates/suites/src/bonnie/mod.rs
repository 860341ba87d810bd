//! `iomark bonnie`: bonnie++'s command line; its bulk tests (block output, block input, random
//! seeks) as engine jobs; its text table and its CSV line (format 1.98) from the result model.
//! Per-char I/O, rewrite and the file tests need engine operations that do not exist yet: they
//! are skipped with a note, and their fields stay empty, as bonnie++ leaves skipped tests.

pub mod args;
pub mod output;
pub mod plan;
pub mod table;

pub use args::{parse, BonnieArgs, BonnieError};
pub use plan::{plan, BonniePlan};

/// `iomark bonnie --help`.
pub const USAGE: &str = "Usage: iomark bonnie [-d dir] [-s size(MiB)[:chunk[:seeks[:seekers]]]]
                     [-n number-to-stat(*1024)[:max[:min[:dirs[:chunk]]]]] [-m machine-name]
                     [-r ram-size-in-MiB] [-x number-of-tests] [-u uid-to-use:gid-to-use]
                     [-z seed] [-q] [-f] [-b] [-D] [-p processes | -y p|s] [-c concurrency]

bonnie++'s flags and outputs (text table, CSV format 1.98), measured by iomark's engine.
Measured: block output (write(2) of chunk-size blocks), block input (read(2)), random seeks
(seeker threads sharing the count; 10 % of the I/Os are writes). -b adds an fsync after every
write, -D uses O_DIRECT. The default size is 2 x RAM, refused with the size that fits when it
exceeds the free space; -r 0 disables the RAM check.
Not yet measured (fields left empty, as bonnie++ leaves skipped tests): per-char output and
input, rewrite, and the file tests (-n).
  --result-file=PATH   iomark's result (JSON, latency histograms per test) to PATH
";
