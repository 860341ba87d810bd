//! iozone's tests: their columns (text header, report title) and the engine passes each one is
//! made of, with what iozone puts inside the timed region. Common to every pass (the engine's
//! `pass` module): the open, an fsync of what is dirty and, for reads, one priming read happen
//! before the clock starts; `-e` puts an fsync (after fflush for streams) and `-c` the close
//! inside it; without `-c` the writes are fsynced and the file closed after the clock stops.
//! With `-B` the tests that iozone moves through a mapping (0 to 5, and the mix) load and
//! store through one: the mapping is made before the clock starts, `-e` is an msync(MS_SYNC)
//! of the whole file inside it, `-c` the munmap and close.

use iomark_engine::pass::{Calls, OpenFlags, Order, PassOp, PassSpec, Prelude};
use std::path::Path;

/// One column of iozone's matrix (one figure per cell).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Column {
    /// The `-i` test it belongs to.
    pub test: u32,
    /// The two header lines of the text output.
    pub top: &'static str,
    pub head: &'static str,
    /// The title of its `-R` block and workbook sheet.
    pub title: &'static str,
    /// Its key in iomark's result file.
    pub key: &'static str,
    /// Its title in iozone's BIFF workbook (`-b name.xls`).
    pub sheet: &'static str,
}

const fn col(
    test: u32,
    top: &'static str,
    head: &'static str,
    title: &'static str,
    key: &'static str,
    sheet: &'static str,
) -> Column {
    Column {
        test,
        top,
        head,
        title,
        key,
        sheet,
    }
}

/// Every column, in iozone's order.
pub const COLUMNS: [Column; 21] = [
    col(0, "", "write", "Writer report", "write", "Writer Report"),
    col(
        0,
        "",
        "rewrite",
        "Re-writer report",
        "rewrite",
        "Re-writer Report",
    ),
    col(1, "", "read", "Reader report", "read", "Reader Report"),
    col(
        1,
        "",
        "reread",
        "Re-Reader report",
        "reread",
        "Re-reader Report",
    ),
    col(
        2,
        "random",
        "read",
        "Random read report",
        "random_read",
        "Random Read Report",
    ),
    col(
        2,
        "random",
        "write",
        "Random write report",
        "random_write",
        "Random Write Report",
    ),
    col(
        3,
        "bkwd",
        "read",
        "Backward read report",
        "backward_read",
        "Backward Read Report",
    ),
    col(
        4,
        "record",
        "rewrite",
        "Record rewrite report",
        "record_rewrite",
        "Record Rewrite Report",
    ),
    col(
        5,
        "stride",
        "read",
        "Stride read report",
        "stride_read",
        "Stride Read Report",
    ),
    col(6, "", "fwrite", "Fwrite report", "fwrite", "Fwrite Report"),
    col(
        6,
        "",
        "frewrite",
        "Re-Fwrite report",
        "frewrite",
        "Re-fwrite Report",
    ),
    col(7, "", "fread", "Fread report", "fread", "Fread Report"),
    col(
        7,
        "",
        "freread",
        "Re-Fread report",
        "freread",
        "Re-fread Report",
    ),
    col(9, "", "pwrite", "Pwrite report", "pwrite", "Pwrite Report"),
    col(
        9,
        "",
        "repwrite",
        "Re-Pwrite report",
        "repwrite",
        "Re-pwrite Report",
    ),
    col(10, "", "pread", "Pread report", "pread", "Pread Report"),
    col(
        10,
        "",
        "repread",
        "Re-Pread report",
        "repread",
        "Re-pread Report",
    ),
    col(
        11,
        "",
        "pwritev",
        "Pwritev report",
        "pwritev",
        "Pwritev Report",
    ),
    col(
        11,
        "",
        "repwritev",
        "Re-Pwritev report",
        "repwritev",
        "Re-pwritev Report",
    ),
    col(12, "", "preadv", "Preadv report", "preadv", "Preadv Report"),
    col(
        12,
        "",
        "repreadv",
        "Re-Preadv report",
        "repreadv",
        "Re-preadv Report",
    ),
];

/// The index in [`COLUMNS`] of the first column of `test`.
pub fn first_column(test: u32) -> usize {
    COLUMNS.iter().position(|c| c.test == test).unwrap_or(0)
}

/// How every pass of a run opens and times its file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Timing {
    pub open: OpenFlags,
    pub fsync_timed: bool,
    pub close_timed: bool,
    /// `-+n`: the second pass of a pair (rewrite, reread, ...) is not run.
    pub no_retest: bool,
    /// `-j`: stride of the stride read, in records.
    pub stride: u64,
    /// `-B`: the mapped calls (msync and madvise as asked) that replace read/write.
    pub mapped: Option<Calls>,
    /// `-+d`: writers stamp and readers verify every record.
    pub verify: bool,
    /// Every record's latency kept (a clock read after each): only when an output shows it
    /// (the result file, `--json`, `--report`, `-+z`), since on a small cached file the
    /// reads cost about a tenth of the pass.
    pub latency: bool,
}

/// iozone's pwritev/preadv move up to 16 records per call.
const VECTORS: u64 = 16;

/// What every pass of one cell shares: its file, record size, number of records and timing.
struct PassBase<'a> {
    path: &'a Path,
    record: u64,
    /// Records in the file.
    n: u64,
    t: Timing,
}

impl PassBase<'_> {
    /// A pass of `op` on every record of the file in `order`, through `calls`.
    fn pass(&self, op: PassOp, order: Order, calls: Calls) -> PassSpec {
        PassSpec {
            path: self.path.to_path_buf(),
            op,
            order,
            calls,
            record: self.record,
            file_records: self.n,
            ops: self.n,
            open: self.t.open,
            create: false,
            fsync_timed: self.t.fsync_timed,
            close_timed: self.t.close_timed,
            latency: self.t.latency,
            seed: 0x10_20_30,
            verify: self.t.verify,
            prelude: Prelude::SyncAndPrime,
        }
    }

    /// The pwritev (`op` Write) or preadv pass: each call carries up to 16 consecutive
    /// records (at most 16m, and a number that divides the file's records), one buffer each.
    fn vectored(&self, op: PassOp) -> PassSpec {
        let n = self.n;
        let mut k = VECTORS.min(n).min((16 << 20) / self.record).max(1);
        while n % k != 0 {
            k -= 1;
        }
        PassSpec {
            record: self.record * k,
            file_records: n / k,
            ops: n / k,
            ..self.pass(op, Order::Forward, Calls::Vectored { pieces: k as u32 })
        }
    }
}

/// `spec` with nothing between its open and its clock.
pub fn bare(spec: PassSpec) -> PassSpec {
    PassSpec {
        prelude: Prelude::Nothing,
        ..spec
    }
}

/// The passes of `test` on one file of `file` bytes with `record`-byte records, each with the
/// index of the column it fills, in the order iozone runs them.
pub fn passes(test: u32, path: &Path, file: u64, record: u64, t: Timing) -> Vec<(usize, PassSpec)> {
    let b = PassBase {
        path,
        record,
        n: file / record,
        t,
    };
    let c = first_column(test);
    let pair = |first: PassSpec, second: PassSpec| {
        let mut v = vec![(c, first)];
        if !t.no_retest {
            v.push((c + 1, second));
        }
        v
    };
    use Calls::*;
    use PassOp::*;
    // read(2)/write(2), or the mapping with -B.
    let rw = t.mapped.unwrap_or(Plain);
    match test {
        // Write: the file is removed and created anew before the clock starts; rewrite
        // overwrites it in place (no allocation).
        0 => {
            let w = b.pass(Write, Order::Forward, rw);
            pair(
                PassSpec {
                    create: true,
                    ..w.clone()
                },
                w,
            )
        }
        // Read and reread: read(2) of each record in order.
        1 => pair(
            b.pass(Read, Order::Forward, rw),
            b.pass(Read, Order::Forward, rw),
        ),
        // Random read, then random write: every record once, in a shuffled order that is the
        // same for both (lseek + read/write), whatever -+n says (as iozone).
        // iozone starts their clock right after the open (no fsync, no priming read).
        2 => vec![
            (c, bare(b.pass(Read, Order::Shuffled { seed: 0 }, rw))),
            (c + 1, bare(b.pass(Write, Order::Shuffled { seed: 0 }, rw))),
        ],
        // Backwards read: from the last record to the first, a seek before every read; an
        // fsync before the clock, no priming read (as iozone).
        3 => vec![(
            c,
            PassSpec {
                prelude: Prelude::Sync,
                ..b.pass(Read, Order::Backward, rw)
            },
        )],
        // Record rewrite: the first record written over and over (write, seek back).
        4 => vec![(c, b.pass(Write, Order::SameRecord, rw))],
        // Stride read: every `-j` records, wrapping one record further each time; an fsync
        // before the clock, no priming read (as iozone).
        5 => vec![(
            c,
            PassSpec {
                prelude: Prelude::Sync,
                ..b.pass(
                    Read,
                    Order::Stride {
                        stride: t.stride.max(1),
                    },
                    rw,
                )
            },
        )],
        // fwrite/frewrite and fread/freread: a user-space stream whose buffer is one record
        // (iozone's setvbuf); the existing file is written in place.
        6 => {
            let s = b.pass(Write, Order::Forward, Stream { buffer: record });
            pair(s.clone(), s)
        }
        7 => {
            let s = b.pass(Read, Order::Forward, Stream { buffer: record });
            pair(s.clone(), s)
        }
        9 => {
            let s = b.pass(Write, Order::Forward, Positional);
            pair(s.clone(), s)
        }
        10 => {
            let s = b.pass(Read, Order::Forward, Positional);
            pair(s.clone(), s)
        }
        // pwritev/preadv: each call carries up to 16 consecutive records, one buffer each.
        11 | 12 => {
            let s = b.vectored(if test == 11 { Write } else { Read });
            pair(s.clone(), s)
        }
        _ => Vec::new(),
    }
}

/// The mix (`-i 8`, throughput mode only): which of `children` children read, as iozone picks
/// them: with `-+p P` the first P% of the children (rounded down), otherwise every other child
/// from the first.
pub fn mix_reader(child: u32, children: u32, pct_read: Option<u32>) -> bool {
    match pct_read {
        Some(p) => child < p * children / 100,
        None => child % 2 == 0,
    }
}

/// The one pass of a mix child on its file: a random read or random write of every record
/// (each once, shuffled), or with `-+B` a sequential read or rewrite.
pub fn mix_pass(
    path: &Path,
    file: u64,
    record: u64,
    t: Timing,
    reader: bool,
    sequential: bool,
) -> PassSpec {
    let test = if sequential {
        if reader {
            1
        } else {
            0
        }
    } else {
        2
    };
    let v = passes(
        test,
        path,
        file,
        record,
        Timing {
            no_retest: false,
            ..t
        },
    );
    // Sequential: the reread / rewrite pass (no new file); random: read or write.
    let k = usize::from(!reader || sequential);
    v[k.min(v.len() - 1)].1.clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What iozone does between the open and its clock: an fsync and a priming read for the
    /// read test, an fsync for the backwards and stride reads, nothing for the random pair.
    #[test]
    fn each_test_starts_its_clock_as_iozone() {
        let p = Path::new("/x/f");
        let t = Timing {
            stride: 17,
            ..Default::default()
        };
        let prelude = |test: u32| -> Vec<Prelude> {
            passes(test, p, 1 << 20, 4096, t)
                .into_iter()
                .map(|(_, s)| s.prelude)
                .collect()
        };
        assert_eq!(prelude(0), [Prelude::SyncAndPrime; 2]);
        assert_eq!(prelude(1), [Prelude::SyncAndPrime; 2]);
        assert_eq!(prelude(2), [Prelude::Nothing; 2]);
        assert_eq!(prelude(3), [Prelude::Sync]);
        assert_eq!(prelude(5), [Prelude::Sync]);
        assert_eq!(
            bare(passes(1, p, 1 << 20, 4096, t)[0].1.clone()).prelude,
            Prelude::Nothing
        );
    }

    #[test]
    fn each_test_fills_its_columns() {
        let t = Timing {
            stride: 17,
            ..Default::default()
        };
        let p = Path::new("/x/f");
        for test in [0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12] {
            let v = passes(test, p, 1 << 20, 4096, t);
            assert!(!v.is_empty());
            for (c, s) in &v {
                assert_eq!(COLUMNS[*c].test, test);
                assert_eq!(s.record * s.ops, 1 << 20, "test {test}");
            }
        }
        assert!(passes(0, p, 1 << 20, 4096, t)[0].1.create);
        assert!(!passes(0, p, 1 << 20, 4096, t)[1].1.create);
        let no = Timing {
            no_retest: true,
            ..t
        };
        assert_eq!(passes(1, p, 1 << 20, 4096, no).len(), 1);
        assert_eq!(passes(2, p, 1 << 20, 4096, no).len(), 2);
        let m = Timing {
            mapped: Some(Calls::Mapped {
                sync: iomark_engine::pass::MapSync::Async,
                advice: None,
            }),
            ..t
        };
        for test in 0..=5 {
            assert!(passes(test, p, 1 << 20, 4096, m)
                .iter()
                .all(|(_, s)| matches!(s.calls, Calls::Mapped { .. })));
        }
        assert!(matches!(
            passes(6, p, 1 << 20, 4096, m)[0].1.calls,
            Calls::Stream { .. }
        ));
        let v = passes(11, p, 1 << 20, 4096, t);
        assert_eq!(v[0].1.calls, Calls::Vectored { pieces: 16 });
        assert_eq!(v[0].1.record, 16 * 4096);
    }

    #[test]
    fn mix_children_and_passes() {
        let readers = |n, p| (0..n).filter(|&c| mix_reader(c, n, p)).count();
        assert_eq!(readers(4, None), 2);
        assert!(mix_reader(0, 3, None) && !mix_reader(1, 3, None) && mix_reader(2, 3, None));
        assert_eq!(readers(4, Some(75)), 3);
        assert_eq!(readers(3, Some(50)), 1);
        assert_eq!(readers(4, Some(1)), 0);
        assert_eq!(readers(4, Some(100)), 4);
        let t = Timing::default();
        let p = Path::new("/x/f");
        let r = mix_pass(p, 1 << 20, 4096, t, true, false);
        assert_eq!((r.op, r.order), (PassOp::Read, Order::Shuffled { seed: 0 }));
        let w = mix_pass(p, 1 << 20, 4096, t, false, false);
        assert_eq!(
            (w.op, w.order),
            (PassOp::Write, Order::Shuffled { seed: 0 })
        );
        let w = mix_pass(p, 1 << 20, 4096, t, false, true);
        assert_eq!(
            (w.op, w.order, w.create),
            (PassOp::Write, Order::Forward, false)
        );
        let r = mix_pass(p, 1 << 20, 4096, t, true, true);
        assert_eq!((r.op, r.order), (PassOp::Read, Order::Forward));
    }
}
