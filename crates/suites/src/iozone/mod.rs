//! `iomark iozone`: iozone's command line (flags table → typed plan), its tests as timed passes
//! of iomark's engine (`iomark_engine::pass`), and its outputs: the text matrix, the `-R`
//! report, iozone's `.xls` workbook or an XLSX one with a chart per test (`-b`), throughput mode (`-t`) and iomark's
//! result file with every cell's latency.

#[cfg(test)]
mod against_iozone;
pub mod args;
pub mod biff;
pub mod catalog;
pub mod clock;
pub mod cluster;
pub mod excel;
pub mod flags;
mod latency;
pub mod option_lines;
pub mod plan;
pub mod record;
pub mod run;
#[cfg(test)]
mod snapshots;
pub mod table;
pub mod text;
pub mod throughput;
pub mod xls;
pub mod xlsx;

pub use args::{parse, IozoneArgs, IozoneError};
pub use plan::{plan, Plan};

/// `iomark iozone --help`: the introduction, then the flag table.
pub fn usage() -> String {
    format!(
        "Usage: iomark iozone [iozone's flags] [--json] [--result FILE] [--report FILE.html]

iozone's tests, matrix and reports, measured by iomark's engine. An iozone command line runs
with `iozone` replaced by `iomark iozone`. Sizes are in kB (1024 bytes) unless they end in
k, m or g; later flags win over earlier ones; -i may be repeated (-i 0 is added when missing,
since the write test makes the file the other tests use).

Timed as iozone times it: the open, an fsync of what is dirty and one priming read happen
before the clock starts; -e puts fsync (and fflush) inside the timing, -c the close. As
iozone does, the clock's resolution (measured at start, about 1 us) is taken off every
pass's time before its rate is computed.

Deliberate differences from iozone:
  - a figure that was not measured (small records of files above 16m in -a, retests with -+n)
    prints 0 in the matrix and the -R report, as iozone's, so that scripts reading every cell
    as a number keep working; the workbooks leave it empty and the result file leaves it out;
  - -b NAME.xls writes iozone's workbook (one sheet, its layout); any other name gets an XLSX
    workbook with a native chart per test;
  - the throughput block has one layout whatever the options; children are always threads;
  - throughput mode makes its children's files itself: a file already at one of their paths
    (-F, or iozone.DUMMY.N) is refused before any I/O, never replaced or removed;
  - written data is pseudo-random (iozone writes zeros), so compressing file systems are not
    flattered;
  - every cell's latency (mean, p50, p99, max) and system-call counts go to --result/--json;
    the latency of each record is kept only when --result, --json, --report or -+z asks for
    it (reading the clock after every record costs about a tenth of a small cached pass);
  - flags iomark cannot honour faithfully are refused by name with the reason, before any I/O.

iomark's own options:
  --json          print the result (JSON) on stdout instead of the text output
  --result FILE   write the result (JSON, latency histograms per cell) to FILE
  --result-file FILE
                  the same option as --result
  --report FILE   write an HTML report of the run (every pass's figures and latency, charted)

iozone's flags:
{}",
        flags::help_table()
    )
}
