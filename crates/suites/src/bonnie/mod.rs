//! `iomark bonnie`: bonnie++'s command line; its tests in its order as engine work (per-char
//! output and input with one-byte system calls, block output and input, rewrite, random seeks,
//! the `-n` file tests); its text tables and its CSV line (format 1.98) from the result model.

pub mod args;
pub mod output;
pub mod plan;
pub mod table;
pub mod text;

pub use args::{parse, BonnieArgs, BonnieError};
pub use plan::{plan, BonniePlan, Step};

/// `iomark bonnie --help`.
pub const USAGE: &str = "Usage: iomark bonnie [-d dir] [-s size(MiB)[:chunk[:seeks[:seekers]]]]
                     [-n number-to-stat(*1024)[:max[:min[:dirs[:chunk]]]]] [-m machine-name]
                     [-r ram-size-in-MiB] [-x number-of-tests] [-u uid-to-use:gid-to-use]
                     [-z seed] [-q] [-f] [-b] [-D] [-p processes | -y p|s] [-c concurrency]

bonnie++'s flags and outputs (text tables, CSV format 1.98), measured by iomark's engine, in
bonnie++'s order and with its system calls:
  per-char output   write(2) of one byte at a time to a new file (3 MiB, or -s when smaller,
                    as bonnie++ 2.x), fsync, file removed
  block output      write(2) of chunk-size blocks growing a new file of -s MiB, fsync
  rewrite           read a chunk, change it, seek back, write it; fsync at the end
  per-char input    read(2) of one byte at a time (3 MiB, or -s when smaller)
  block input       read(2) of chunk-size blocks
  random seeks      seeker threads sharing the seeks: lseek to a random chunk, read it; one
                    in ten also writes it back; the rate counts seeks; the seekers read
                    their tickets from one pipe (4 bytes before each seek), as bonnie++ 2.00a;
                    each seeker removes the file as it ends, so the last one's close, which
                    frees the file, is part of the time, as in bonnie++
  file tests (-n)   num*1024 files, sequential then random: create (with max..min bytes of
                    data in chunk writes), stat (reading files that have data), delete;
                    names and directories as bonnie++ (index in hex plus random characters,
                    subdirectories 00000...); create and delete end with sync(2); max -1
                    makes hard links, -2 symbolic links to one file
Everything happens in a directory Bonnie.PID that the run creates in -d (mode 0700; refused when
anything is at that name, which is left as it is) and removes at the end: no file of someone
else's is opened, truncated or removed, and no planted symbolic link is followed.
-f skips the per-char tests. -b adds an fsync after every write (and of the directory after each create and delete), -D
uses O_DIRECT for the block tests, rewrite and seeks. The default size is 2 x RAM, refused with
the size that fits when it exceeds the free space; -r 0 disables the RAM check.
-c N is written in the CSV and multiplies the size in the RAM check; each test runs once, as
bonnie++ 2.00a runs it. -fN sets the per-char tests to N MiB, as bonnie++.
Differences from bonnie++ 2.00a: the text table's file-test rates are the CSV's (bonnie++
prints an unformatted double there); -D applies to rewrite, block input and seeks too (bonnie++
only opens the new file with O_DIRECT); symbolic links with dirs > 1 are refused.
  --result=PATH, --result-file=PATH
                       iomark's result (JSON, latency histograms per test) to PATH (the two
                       spellings are the same option)
  --char-size=SIZE     bytes of the per-char tests (k/m suffixes; default as bonnie++)
";
