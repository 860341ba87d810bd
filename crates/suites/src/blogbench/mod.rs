//! `iomark blogbench`: blogbench's command line, its workload as an engine tree workload
//! (writers, rewriters, commenters and readers on a directory of blogs), its per-iteration
//! table and final scores, and iomark's latency per operation type.

pub mod args;
pub mod output;
pub mod plan;
pub mod table;

pub use args::{parse, BlogArgs, BlogError};
pub use plan::{plan, BlogPlan, DirState, Mode};

/// `iomark blogbench --help`.
pub const USAGE: &str = "Usage: iomark blogbench -d DIR [-w writers] [-W rewriters] [-c commenters]
                         [-r readers] [-i iterations] [-s seconds] [--allow-nonempty]
                         [--fixed]

blogbench's workload and output on iomark's engine. In DIR (created when missing; a directory
holding files is refused unless --allow-nonempty) threads work on blogs (blog-N directories):
  writers     (-w, default 3)   make a blog: 1-100 articles (1-32 KiB), 1-100 pictures (8-64 KiB)
  rewriters   (-W, default 1)   replace a random picture (every other time) and article
  commenters  (-c, default 5)   write 1-100 comments (2-10 KiB) into a random blog
  readers     (-r, default 100) read a random blog's comments (every other time), pictures
                                and articles until one is missing
Every file is written to NAME.tmp in 8 KiB writes and renamed into place. Every -s seconds
(default 10), for -i iterations (default 30), a line gives the blogs written so far and the
articles, pictures and comments read and written in the interval; the final scores are the
blogs written and read over the run. Then iomark adds latency percentiles per operation
(mkdir, create, write, rename, open, read, missing-file probe).
By default the workload is upstream blogbench 1.2's, so the scores compare with its published
ones: readers read 8 bytes per call (touching each page of a 64 KiB buffer after each), every
random number comes from the C library's rand() shared by all threads, no thread ever sleeps
between rounds, and a random draw of blog 0 counts as a failure (a second's pause). --fixed
runs the intended workload instead: reads use the 64 KiB buffer, think times really sleep
(writers and commenters 10 ms, rewriters 1 s), blog 0 is read like any other, and each thread
has its own random generator. A line after the scores says which mode ran. The blogs stay in
DIR (with --allow-nonempty, in a new directory blogbench.PID in it: no file already there is
touched).
At most 1000 threads in all. An error other than files racing between threads (a full or
read-only file system, an I/O error) ends the run with status 1.
  --directory=DIR --writers=N --rewriters=N --commenters=N --readers=N --iterations=N
  --sleep=N            long forms
  --fixed              the intended workload instead of upstream 1.2's (see above)
  --result=PATH, --result-file=PATH
                       iomark's result (JSON: latency histograms per operation type, the
                       counts of every interval) to PATH (the two spellings are the same
                       option)
";
