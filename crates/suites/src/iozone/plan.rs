//! The plan of a run: which tests, which (file size, record size) cells in which order (the
//! `-a` matrix with iozone's defaults and skip rule, or the `-s`/`-r` values), the files, and
//! the checks made before any I/O (record larger than file, free space).

use super::args::{IozoneArgs, IozoneError};
use super::catalog::{Timing, COLUMNS};
use crate::common::probe::Probe;
use iomark_engine::pass::{Calls, MapAdvice, MapSync, OpenFlags};
use std::path::{Path, PathBuf};

/// iozone's auto-mode defaults: files 64 kB to 512 MB, records 4 kB to 16 MB, doubling.
pub const AUTO_MIN_FILE: u64 = 64 << 10;
pub const AUTO_MAX_FILE: u64 = 512 << 20;
pub const AUTO_MIN_RECORD: u64 = 4 << 10;
pub const AUTO_MAX_RECORD: u64 = 16 << 20;
/// Files above this size skip records under [`LARGE_RECORD`] in auto mode (unless `-z`).
pub const CROSSOVER: u64 = 16 << 20;
pub const LARGE_RECORD: u64 = 64 << 10;
/// Without `-s` / `-r`: 512 kB files, 4 kB records.
pub const DEFAULT_FILE: u64 = 512 << 10;
pub const DEFAULT_RECORD: u64 = 4 << 10;
pub const DEFAULT_STRIDE: u64 = 17;

/// One cell of the matrix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cell {
    pub file: u64,
    pub record: u64,
}

/// Throughput mode.
#[derive(Clone, Debug, PartialEq)]
pub struct Throughput {
    /// Child counts to run, in order (`-l` to `-u`, or `-t`).
    pub counts: Vec<u32>,
    /// One file per child (the largest count's worth).
    pub files: Vec<PathBuf>,
    pub stonewall: bool,
    pub delay_us: u64,
    /// `-+p`: percent of the mix's children that read (None: every other child).
    pub pct_read: Option<u32>,
    /// `-+B`: the mix is sequential.
    pub seq_mix: bool,
    /// `-P`: child i runs on CPU P+i (modulo the online CPUs).
    pub first_cpu: Option<usize>,
    /// `-T`: the children share one table of open files, as iozone's threads do (without it
    /// each has its own, as iozone's processes do).
    pub threads: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// The tests, in iozone's order.
    pub tests: Vec<u32>,
    /// Indices into [`COLUMNS`] of the columns shown.
    pub columns: Vec<usize>,
    pub cells: Vec<Cell>,
    /// The record sizes of the `-R` header row.
    pub record_axis: Vec<u64>,
    pub file: PathBuf,
    pub timing: Timing,
    pub throughput: Option<Throughput>,
    /// Notes for stderr before the run.
    pub notes: Vec<String>,
}

/// Sizes from `lo` to `hi`, each `mult` times the one before.
fn ladder(lo: u64, hi: u64, mult: u64) -> Vec<u64> {
    let mut v = Vec::new();
    let mut x = lo;
    while x <= hi {
        v.push(x);
        match x.checked_mul(mult) {
            Some(n) => x = n,
            None => break,
        }
    }
    v
}

/// The auto-mode matrix: rows of file sizes, each with the record sizes that fit in the file;
/// large files skip the small records unless `skip` is off.
pub fn auto_cells(files: &[u64], records: &[u64], skip: bool) -> Vec<Cell> {
    let mut v = Vec::new();
    for &file in files {
        for &record in records {
            if record > file {
                break;
            }
            if skip && file > CROSSOVER && record < LARGE_RECORD {
                continue;
            }
            v.push(Cell { file, record });
        }
    }
    v
}

/// `16m`, `512k`: a size as a flag value.
pub fn size_word(b: u64) -> String {
    if b >= 1 << 30 && b % (1 << 30) == 0 {
        format!("{}g", b >> 30)
    } else if b % (1 << 20) == 0 {
        format!("{}m", b >> 20)
    } else {
        format!("{}k", b >> 10)
    }
}

/// A refusal of the command line, as iozone's plan reports it.
fn bad(s: String) -> IozoneError {
    IozoneError::Invalid(s)
}

/// Build the plan. `free` gives the free bytes of a directory (None when it does not exist).
pub fn plan(a: &IozoneArgs, free: &dyn Fn(&Path) -> Option<u64>) -> Result<Plan, IozoneError> {
    let mut notes = Vec::new();
    let children = a.children.or(a.max_children).or(a.min_children);
    let tests = select_tests(a, children.is_some(), &mut notes)?;
    let columns: Vec<usize> = (0..COLUMNS.len())
        .filter(|&c| tests.contains(&COLUMNS[c].test))
        .collect();
    let mult = a.multiplier.unwrap_or(2);
    let (cells, record_axis) = if a.auto && children.is_none() {
        auto_matrix(a, mult)?
    } else {
        given_cells(a)?
    };
    check_records(a, &cells)?;
    let file = a
        .file
        .clone()
        .unwrap_or_else(|| PathBuf::from("iozone.tmp"));
    let throughput = match children {
        None => None,
        Some(t) => Some(throughput_mode(a, t, &tests, &file)?),
    };
    check_free_space(a, &cells, &file, throughput.as_ref(), mult, free)?;
    if a.diag {
        notes.push(
            "-+d: every record written is stamped and every record read is verified, inside the timing".into(),
        );
    }
    Ok(Plan {
        tests,
        columns,
        cells,
        record_axis,
        file,
        timing: timing(a),
        throughput,
        notes,
    })
}

/// The tests to run, sorted: the `-i` values (or iozone's defaults) checked against the
/// other flags, with `-i 0` added when missing; notes say what was added or left out.
fn select_tests(
    a: &IozoneArgs,
    throughput: bool,
    notes: &mut Vec<String>,
) -> Result<Vec<u32>, IozoneError> {
    let mut tests: Vec<u32> = if a.tests.is_empty() {
        default_tests(a, throughput, notes)
    } else {
        a.tests.clone()
    };
    check_tests(a, &tests, throughput)?;
    if !tests.contains(&8) && (a.pct_read.is_some() || a.seq_mix) {
        notes.push("-+p and -+B shape the mix test, which is not run (-i 8 with -t N)".into());
    }
    if !tests.contains(&0) {
        notes.push("-i 0 added: the write test creates the file the other tests use".into());
        tests.push(0);
    }
    tests.sort_unstable();
    Ok(tests)
}

/// The tests run without `-i`: 0 to 7 (the mix instead of record rewrite in throughput
/// mode), and with `-E` the extension tests that fit the mode.
fn default_tests(a: &IozoneArgs, throughput: bool, notes: &mut Vec<String>) -> Vec<u32> {
    // Throughput mode has no record rewrite (nor vectored tests) but has the mix, as in
    // iozone; mapped files drop the positional and vectored tests (they are system calls).
    let mut t: Vec<u32> = (0..=8)
        .filter(|&t| (t != 4 && t != 8) || (throughput == (t == 8)))
        .collect();
    if a.extension && a.mmap {
        notes.push(
            "-E with -B: pwrite/pread and pwritev/preadv are system calls, not mapped; they are not run (nor by iozone)".into(),
        );
    } else if a.extension {
        t.extend(if throughput { 9..=10 } else { 9..=12 });
    }
    t
}

/// The refusals that depend on the tests: the mix needs throughput mode, mapped files have no
/// positional or vectored tests, and `-G` / `-+A` need mapped files.
fn check_tests(a: &IozoneArgs, tests: &[u32], throughput: bool) -> Result<(), IozoneError> {
    if tests.contains(&8) && !throughput {
        return Err(bad(
            "-i 8 (random mix) is a throughput test: give -t N (iozone measures nothing for it without -t)".into(),
        ));
    }
    if a.mmap {
        if let Some(x) = tests.iter().find(|&&x| x >= 9) {
            return Err(bad(format!(
                "-i {x} with -B: pwrite/pread and pwritev/preadv are system calls, not mapped (iozone does not run them with -B)"
            )));
        }
    } else {
        for (on, f) in [(a.msync_sync, "G"), (a.madvise.is_some(), "+A")] {
            if on {
                return Err(bad(format!(
                    "-{f} applies to mmap files: give -B (iozone ignores it without)"
                )));
            }
        }
    }
    Ok(())
}

/// The `-a` matrix and its record axis: file sizes from `-n` (or the first `-s`) to `-g` (or
/// the last `-s`), records from `-y` (or the first `-r`) to `-q` (or the last `-r`), each
/// `mult` times the one before; large files skip small records unless sizes were given.
fn auto_matrix(a: &IozoneArgs, mult: u64) -> Result<(Vec<Cell>, Vec<u64>), IozoneError> {
    let lo = a
        .min_file
        .or(a.sizes.first().copied())
        .unwrap_or(AUTO_MIN_FILE);
    let hi = a
        .max_file
        .or(a.sizes.last().copied())
        .unwrap_or(AUTO_MAX_FILE);
    let rlo = a
        .min_record
        .or(a.records.first().copied())
        .unwrap_or(AUTO_MIN_RECORD);
    let rhi = a
        .max_record
        .or(a.records.last().copied())
        .unwrap_or(AUTO_MAX_RECORD);
    if lo > hi {
        return Err(bad(format!(
            "-n {} is larger than -g {}",
            size_word(lo),
            size_word(hi)
        )));
    }
    if rlo > rhi {
        return Err(bad(format!(
            "-y {} is larger than -q {}",
            size_word(rlo),
            size_word(rhi)
        )));
    }
    if rlo > lo {
        return Err(bad(format!(
            "record length {} is greater than the smallest file {} (iozone's error 23)",
            size_word(rlo),
            size_word(lo)
        )));
    }
    let explicit = !a.sizes.is_empty()
        || !a.records.is_empty()
        || a.min_record.is_some()
        || a.max_record.is_some();
    let skip = !a.all_records && !explicit;
    let records = ladder(rlo, rhi, mult);
    Ok((auto_cells(&ladder(lo, hi, mult), &records, skip), records))
}

/// Without `-a` (or in throughput mode): every `-s` size with every `-r` record (iozone's
/// defaults when not given), and the records as the record axis.
fn given_cells(a: &IozoneArgs) -> Result<(Vec<Cell>, Vec<u64>), IozoneError> {
    let sizes = if a.sizes.is_empty() {
        vec![DEFAULT_FILE]
    } else {
        a.sizes.clone()
    };
    let recs = if a.records.is_empty() {
        vec![DEFAULT_RECORD]
    } else {
        a.records.clone()
    };
    let mut cells = Vec::new();
    for &file in &sizes {
        for &record in &recs {
            if record > file {
                return Err(bad(format!(
                    "record length {} is greater than the file size {}",
                    size_word(record),
                    size_word(file)
                )));
            }
            cells.push(Cell { file, record });
        }
    }
    Ok((cells, recs))
}

/// Every cell's record must be one iozone takes (128 bytes to 16m) and, with `-I`, a
/// multiple of 512 bytes.
fn check_records(a: &IozoneArgs, cells: &[Cell]) -> Result<(), IozoneError> {
    for c in cells {
        if c.record < 128 || c.record > AUTO_MAX_RECORD {
            return Err(bad(format!(
                "record size {} bytes: iozone's records are 128 bytes to 16m",
                c.record
            )));
        }
        if a.direct && c.record % 512 != 0 {
            return Err(bad(format!(
                "-I (O_DIRECT) needs records that are a multiple of 512 bytes, not {}",
                c.record
            )));
        }
    }
    Ok(())
}

/// Children a throughput run may start.
pub const MAX_CHILDREN: u32 = 1000;

/// Throughput mode with `t` children (`-t`, or `-l` to `-u`): the child counts and one file
/// per child (`-F`, or iozone.DUMMY.i beside the `-f` file).
fn throughput_mode(
    a: &IozoneArgs,
    t: u32,
    tests: &[u32],
    file: &Path,
) -> Result<Throughput, IozoneError> {
    let lo = a.min_children.unwrap_or(t).max(1);
    let hi = a.max_children.unwrap_or(t).max(lo);
    if hi > MAX_CHILDREN {
        return Err(bad(format!(
            "{hi} children: at most {MAX_CHILDREN} (each is a thread with a file of its own)"
        )));
    }
    if let Some(&x) = tests.iter().find(|&&x| [4, 11, 12].contains(&x)) {
        return Err(bad(format!(
            "-i {x} has no throughput form (iozone's throughput mode has none either)"
        )));
    }
    let files: Vec<PathBuf> = if a.files.is_empty() {
        let dir = file.parent().map(Path::to_path_buf).unwrap_or_default();
        (0..hi)
            .map(|i| dir.join(format!("iozone.DUMMY.{i}")))
            .collect()
    } else if a.files.len() < hi as usize {
        return Err(bad(format!(
            "-F names {} files for {hi} children: give one file per child",
            a.files.len()
        )));
    } else {
        let files = &a.files[..hi as usize];
        let same = |x: &Path, y: &Path| {
            let here = |c: &std::path::Component| *c != std::path::Component::CurDir;
            x.components().filter(here).eq(y.components().filter(here))
        };
        for (i, f) in files.iter().enumerate() {
            if files[..i].iter().any(|g| same(f, g)) {
                return Err(bad(format!(
                    "-F names {} twice: give one file per child",
                    f.display()
                )));
            }
        }
        files.to_vec()
    };
    Ok(Throughput {
        counts: (lo..=hi).collect(),
        files,
        stonewall: !a.no_stonewall,
        delay_us: a.delay_us,
        pct_read: a.pct_read,
        seq_mix: a.seq_mix,
        first_cpu: a.cpu,
        threads: a.threads,
    })
}

/// Free space: the largest file (or every child's file) must fit before anything is written;
/// the refusal says the largest size that would fit.
fn check_free_space(
    a: &IozoneArgs,
    cells: &[Cell],
    file: &Path,
    throughput: Option<&Throughput>,
    mult: u64,
    free: &dyn Fn(&Path) -> Option<u64>,
) -> Result<(), IozoneError> {
    let largest = cells.iter().map(|c| c.file).max().unwrap_or(0);
    let targets: Vec<&Path> = match throughput {
        Some(t) => t.files.iter().map(PathBuf::as_path).collect(),
        None => vec![file],
    };
    for (dir, need) in &need_by_dir(&targets, largest) {
        let Some(have) = free(dir) else {
            return Err(bad(format!("{}: no such directory", dir.display())));
        };
        if *need > have {
            let per = *need / largest.max(1);
            let fit = have / per.max(1);
            let hint = fit_hint(a.auto && throughput.is_none(), cells, fit, mult);
            return Err(bad(format!(
                "{} needs {} but has {} free{hint}",
                dir.display(),
                size_word(*need),
                size_word(have)
            )));
        }
    }
    Ok(())
}

/// The bytes each directory needs: `largest` for every target file in it (a file without a
/// directory is in `.`), directories in the order first met.
fn need_by_dir(targets: &[&Path], largest: u64) -> Vec<(PathBuf, u64)> {
    let mut by_dir: Vec<(PathBuf, u64)> = Vec::new();
    for f in targets {
        let dir = match f.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        match by_dir.iter_mut().find(|(d, _)| *d == dir) {
            Some((_, n)) => *n += largest,
            None => by_dir.push((dir, largest)),
        }
    }
    by_dir
}

/// The end of the free-space refusal: the largest `-g` of the auto ladder (`auto_rows`) or
/// the largest `-s` whose files fit in `fit` bytes each.
fn fit_hint(auto_rows: bool, cells: &[Cell], fit: u64, mult: u64) -> String {
    if auto_rows {
        let lo = cells.first().map(|c| c.file).unwrap_or(AUTO_MIN_FILE);
        match ladder(lo, fit, mult).last() {
            Some(&g) => format!("; the largest -g that fits is -g {}", size_word(g)),
            None => "; not even the smallest file fits".into(),
        }
    } else {
        format!(
            "; the largest -s that fits is -s {}",
            size_word(fit.max(1024) & !1023)
        )
    }
}

/// How every pass opens and times its file: the open flags, `-e`, `-c`, `-+n`, `-j`, the
/// mapped calls of `-B` and `-+d`.
fn timing(a: &IozoneArgs) -> Timing {
    Timing {
        open: OpenFlags {
            direct: a.direct,
            sync: a.osync,
            dsync: a.dsync,
            rsync: a.rsync,
        },
        fsync_timed: a.fsync_timed,
        close_timed: a.close_timed,
        no_retest: a.no_retest,
        stride: a.stride.unwrap_or(DEFAULT_STRIDE),
        mapped: a.mmap.then_some(mapped_calls(a)),
        verify: a.diag,
        latency: a.latency_hist || a.json || a.result.is_some(),
    }
}

/// The mapped calls of `-B`: msync after each record (`-G` sync, `-D` async) and `-+A`'s
/// madvise.
fn mapped_calls(a: &IozoneArgs) -> Calls {
    Calls::Mapped {
        sync: if a.msync_sync {
            MapSync::Sync
        } else if a.msync_async {
            MapSync::Async
        } else {
            MapSync::None
        },
        advice: a.madvise.map(|m| match m {
            0 => MapAdvice::Normal,
            1 => MapAdvice::Random,
            2 => MapAdvice::Sequential,
            3 => MapAdvice::DontNeed,
            _ => MapAdvice::WillNeed,
        }),
    }
}

/// What the files of the plan are now: anything but a regular file (a device, a directory) is
/// refused, since the write test removes and re-creates its file. An existing regular file is
/// overwritten in the matrix mode (as iozone does), but not removed after it, and a note says
/// so; in throughput mode [`refuse_existing_throughput_files`] refuses it.
pub fn check_files(
    plan: &Plan,
    probe: &dyn Fn(&Path) -> Probe,
) -> Result<Vec<String>, IozoneError> {
    let files: Vec<&PathBuf> = match &plan.throughput {
        Some(t) => t.files.iter().collect(),
        None => vec![&plan.file],
    };
    let mut notes = Vec::new();
    for f in files {
        match probe(f) {
            Probe::Missing => {}
            Probe::File { .. } if plan.throughput.is_some() => {}
            Probe::File { size } => notes.push(format!(
                "{} exists ({size} bytes): the write test replaces it, and it is kept after the run",
                f.display()
            )),
            other => {
                let what = match other {
                    Probe::Block { .. } => "a block device",
                    Probe::Directory => "a directory",
                    _ => "not a regular file",
                };
                return Err(IozoneError::Invalid(format!(
                    "{} is {what}: iozone's tests remove and re-create their file, so they take a file name (-f, -F)",
                    f.display()
                )));
            }
        }
    }
    Ok(notes)
}

/// Throughput mode makes its children's files itself and removes them after the run: anything
/// already at one of their paths is refused (after the gate's own checks, which name a device
/// or a loop device's backing file), so that no file that was there before the run is
/// replaced or removed.
pub fn refuse_existing_throughput_files(
    plan: &Plan,
    probe: &dyn Fn(&Path) -> Probe,
) -> Result<(), IozoneError> {
    let Some(tp) = &plan.throughput else {
        return Ok(());
    };
    match tp.files.iter().find(|f| probe(f) != Probe::Missing) {
        Some(f) => Err(IozoneError::Invalid(format!(
            "{} exists: throughput mode makes its children's files itself and removes them after the run (-w keeps them), and replaces no file it did not make; remove it, or name other files with -F",
            f.display()
        ))),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::iozone::args::parse;

    fn p(s: &str, free: u64) -> Result<Plan, IozoneError> {
        let a = parse(&s.split_whitespace().map(String::from).collect::<Vec<_>>()).unwrap();
        plan(&a, &|_| Some(free))
    }

    #[test]
    fn default_auto_matrix_shape() {
        let pl = p("-a", 1 << 40).unwrap();
        // 14 file sizes (64k..512m); rows are ragged below 16m and start at 64k above it.
        let rows = |f: u64| pl.cells.iter().filter(|c| c.file == f).count();
        assert_eq!(rows(64 << 10), 5);
        assert_eq!(rows(16 << 20), 13);
        assert_eq!(rows(32 << 20), 9);
        assert_eq!(rows(512 << 20), 9);
        assert_eq!(
            pl.cells.len(),
            5 + 6 + 7 + 8 + 9 + 10 + 11 + 12 + 13 + 5 * 9
        );
        assert_eq!(pl.record_axis.len(), 13);
        assert_eq!(pl.tests, [0, 1, 2, 3, 4, 5, 6, 7]);
        let z = p("-a -z", 1 << 40).unwrap();
        assert_eq!(z.cells.iter().filter(|c| c.file == 32 << 20).count(), 13);
        let y = p("-a -y 4k", 1 << 40).unwrap();
        assert_eq!(y.cells.iter().filter(|c| c.file == 32 << 20).count(), 13);
    }

    #[test]
    fn per_record_latency_only_when_an_output_shows_it() {
        assert!(!p("-s 64k -r 4k -i 0", 1 << 40).unwrap().timing.latency);
        for more in ["-+z", "--json", "--result r.json"] {
            let pl = p(&format!("-s 64k -r 4k -i 0 {more}"), 1 << 40).unwrap();
            assert!(pl.timing.latency, "{more}");
        }
    }

    #[test]
    fn seed_line_shrunk() {
        let pl = p("-i 0 -i 1 -Rab t.xls -g 4g -n 1M -C -g 2m -n 64k", 1 << 40).unwrap();
        assert_eq!(pl.tests, [0, 1]);
        assert_eq!(pl.columns, [0, 1, 2, 3]);
        assert_eq!(pl.cells.len(), 5 + 6 + 7 + 8 + 9 + 10);
        assert!(pl.notes.is_empty(), "{:?}", pl.notes);
        let pl = p("-i 2 -s 1m -r 64k -r 128k", 1 << 40).unwrap();
        assert_eq!(pl.tests, [0, 2]);
        assert!(pl.notes[0].contains("-i 0 added"));
        assert_eq!(pl.cells.len(), 2);
    }

    #[test]
    fn refusals_before_any_io() {
        let e = p("-a -g 1g", 100 << 20).unwrap_err().to_string();
        assert!(e.contains("the largest -g that fits is -g 64m"), "{e}");
        let e = p("-s 64m", 10 << 20).unwrap_err().to_string();
        assert!(e.contains("-s 10m"), "{e}");
        let e = p("-s 4k -r 8k", 1 << 40).unwrap_err().to_string();
        assert!(e.contains("greater than the file size"), "{e}");
        let e = p("-t 4 -F a b", 1 << 40).unwrap_err().to_string();
        assert!(e.contains("one file per child"), "{e}");
        let e = p("-t 3 -F a b ./a", 1 << 40).unwrap_err().to_string();
        assert!(e.contains("-F names ./a twice"), "{e}");
        let e = p("-t 100000 -s 1m", 1 << 40).unwrap_err().to_string();
        assert!(e.contains("100000 children: at most 1000"), "{e}");
        let e = p("-t 2 -i 0 -i 4", 1 << 40).unwrap_err().to_string();
        assert!(e.contains("-i 4"), "{e}");
        let t = p("-t 4 -s 1m -x", 1 << 40).unwrap().throughput.unwrap();
        assert_eq!((t.counts, t.files.len(), t.stonewall), (vec![4], 4, false));
        let e = p("-s 1m -i 8", 1 << 40).unwrap_err().to_string();
        assert!(e.contains("-i 8 (random mix) is a throughput test"), "{e}");
        let e = p("-s 1m -B -i 9", 1 << 40).unwrap_err().to_string();
        assert!(e.contains("-i 9 with -B"), "{e}");
        let e = p("-s 1m -G", 1 << 40).unwrap_err().to_string();
        assert!(e.contains("-G applies to mmap files"), "{e}");
        let pl = p("-s 1m -B -E -G", 1 << 40).unwrap();
        assert_eq!(pl.tests, [0, 1, 2, 3, 4, 5, 6, 7]);
        assert!(pl.notes[0].contains("-E with -B"), "{:?}", pl.notes);
        assert_eq!(
            pl.timing.mapped,
            Some(Calls::Mapped {
                sync: MapSync::Sync,
                advice: None
            })
        );
        let pl = p("-t 2 -s 1m -+p 25 -+B -P 1", 1 << 40).unwrap();
        assert_eq!(pl.tests, [0, 1, 2, 3, 5, 6, 7, 8]);
        let t = pl.throughput.unwrap();
        assert_eq!(
            (t.pct_read, t.seq_mix, t.first_cpu),
            (Some(25), true, Some(1))
        );
        let pl = p("-s 1m -+p 25", 1 << 40).unwrap();
        assert!(pl.notes[0].contains("-+p and -+B"), "{:?}", pl.notes);
        let t = p("-l 1 -u 3 -t 1", 1 << 40).unwrap().throughput.unwrap();
        assert_eq!(t.counts, [1, 2, 3]);
        let pl = p("-s 1m -f /dev/vda", 1 << 40).unwrap();
        let e = check_files(&pl, &|_| Probe::Block { size: 1 << 30 }).unwrap_err();
        assert!(e.to_string().contains("/dev/vda is a block device"), "{e}");
        let n = check_files(&pl, &|_| Probe::File { size: 5 }).unwrap();
        assert!(n[0].contains("replaces it"), "{n:?}");
        assert!(check_files(&pl, &|_| Probe::Missing).unwrap().is_empty());
        // Throughput mode's files are the run's own: one already there is refused.
        let pl = p("-t 2 -s 1m", 1 << 40).unwrap();
        let e = refuse_existing_throughput_files(&pl, &|f| match f.ends_with("iozone.DUMMY.1") {
            true => Probe::File { size: 5 },
            false => Probe::Missing,
        })
        .unwrap_err();
        assert!(e.to_string().contains("iozone.DUMMY.1 exists"), "{e}");
        assert!(refuse_existing_throughput_files(&pl, &|_| Probe::Missing).is_ok());
        let matrix = p("-s 1m", 1 << 40).unwrap();
        assert!(refuse_existing_throughput_files(&matrix, &|_| Probe::File { size: 5 }).is_ok());
    }
}
