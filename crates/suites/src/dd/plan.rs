//! dd's operands -> a plan of engine jobs. One side of the copy is a file or block device (the
//! engine's target); the other is /dev/zero, /dev/urandom or /dev/null (or, for /dev/zero ->
//! /dev/null, the source device is the target), which the engine reads each block from before
//! writing it, or writes each block to after reading it, as dd does. A copy whose
//! length is not a multiple of the block size gets a second job for the last partial block,
//! buffered, as GNU dd drops O_DIRECT for it.

use super::args::{DdArgs, DdError, Flags};
pub use crate::common::probe::Probe;
use iomark_engine::job::{
    BlockSize, Dir, EngineKind, FadviseHint, FallocateMode, JobSpec, PerDir, RunPlan, RwMode,
    SizeSpec, SyncMode,
};
use std::path::{Path, PathBuf};

/// The two ends of the copy.
#[derive(Clone, Debug, PartialEq, Eq)]
enum End {
    Zero,
    Random,
    Null,
    Path(PathBuf),
}

fn end(p: &Path) -> End {
    match p.to_str() {
        Some("/dev/zero") => End::Zero,
        Some("/dev/urandom") | Some("/dev/random") => End::Random,
        Some("/dev/null") => End::Null,
        _ => End::Path(p.to_path_buf()),
    }
}

/// The plan and what the output needs to turn the results back into dd's lines.
#[derive(Clone, Debug, PartialEq)]
pub struct DdPlan {
    pub run: RunPlan,
    /// The engine's direction (Read when the target is the input).
    pub dir: Dir,
    pub ibs: u64,
    pub obs: u64,
    /// Each input block is written as read (`bs=`), else output is re-blocked to `obs`.
    pub bs_given: bool,
    /// Bytes the plan moves in total.
    pub bytes: u64,
    /// Messages for stderr (before the run).
    pub notes: Vec<String>,
    /// The copy asked for more than fits before the end of the output device: GNU dd's
    /// error for the short write (said after the run, which writes what fits; status 1).
    pub short_write: Option<String>,
}

fn refused(msg: impl Into<String>) -> DdError {
    DdError::Refused(msg.into())
}

/// The engine's side of the copy: what it reads or writes, in which blocks, from where, how
/// much, and with which of the operand's flags.
struct Target<'a> {
    dir: Dir,
    path: PathBuf,
    /// `ibs` for a read, `obs` for a write.
    block: u64,
    /// The first byte (`skip=` for a read, `seek=` for a write).
    start: u64,
    bytes: u64,
    /// `iflag=` for a read, `oflag=` for a write.
    flags: &'a Flags,
    /// The copy's other end: of= for a read, if= for a write.
    other: &'a Path,
}

/// Build the plan. `probe` says what a path is (the engine's target probe in the binary; a
/// table in tests).
pub fn plan(a: &DdArgs, probe: &dyn Fn(&Path) -> Probe) -> Result<DdPlan, DdError> {
    let input = a.input.as_deref().ok_or_else(|| {
        refused("if= is needed: iomark dd does not measure standard input (if=/dev/zero to write)")
    })?;
    let output = a.output.as_deref().ok_or_else(|| {
        refused("of= is needed: iomark dd does not write standard output (of=/dev/null to read)")
    })?;
    let (src, dst) = (end(input), end(output));
    let mut notes = Vec::new();
    let mut target = match (&src, &dst) {
        (End::Path(_), End::Path(_)) => {
            return Err(refused(
                "copying a file to a file is not measured by iomark dd: measure the read (of=/dev/null) and the write (if=/dev/zero) separately",
            ))
        }
        (End::Null, _) => {
            return Err(refused(
                "if=/dev/null: there is nothing to read (dd copies 0 bytes)",
            ))
        }
        (End::Path(_), End::Null | End::Zero) | (End::Zero | End::Random, End::Null) => {
            // The target is the input: a read job.
            read_target(a, input, output, probe, &mut notes)?
        }
        (End::Zero | End::Random, End::Path(p)) => {
            write_target(a, input, p, probe)?
        }
        _ => {
            return Err(refused(format!(
                "if={} of={}: one side must be a file or block device, the other /dev/zero, /dev/urandom or /dev/null",
                input.display(),
                output.display()
            )))
        }
    };
    check_offsets(a, &target)?;
    let short_write = match probe(&target.path) {
        Probe::Block { size } if target.dir == Dir::Write => {
            let end = target.start + target.bytes;
            if target.start >= size {
                return Err(refused(format!(
                    "of={}: seek= is at or past the end of the device ({size} bytes): nothing can be written",
                    target.path.display()
                )));
            }
            if end > size {
                target.bytes = size - target.start;
                Some(format!(
                    "error writing '{}': No space left on device",
                    target.path.display()
                ))
            } else {
                None
            }
        }
        _ => None,
    };
    Ok(DdPlan {
        short_write,
        run: run_plan(a, &target, &src),
        dir: target.dir,
        ibs: a.ibs,
        obs: a.obs,
        bs_given: a.bs_given,
        bytes: target.bytes,
        notes,
    })
}

/// The largest file offset (off_t).
const MAX_OFFSET: u64 = i64::MAX as u64;

/// `skip=`/`seek=` and the copy must stay within the largest file offset: GNU dd refuses a
/// number too large, never copies 0 bytes and calls it success.
fn check_offsets(a: &DdArgs, t: &Target) -> Result<(), DdError> {
    let (op, n, unit, by_bytes) = match t.dir {
        Dir::Read => ("skip", a.skip, a.ibs, a.iflag.skip_bytes),
        _ => ("seek", a.seek, a.obs, a.oflag.seek_bytes),
    };
    let start = if by_bytes {
        Some(n)
    } else {
        n.checked_mul(unit)
    };
    let end = start.and_then(|s| s.checked_add(t.bytes));
    match end {
        Some(e) if e <= MAX_OFFSET => Ok(()),
        _ => Err(refused(format!(
            "{op}={n}: offset too large: the copy would reach past byte {MAX_OFFSET}, the largest file offset"
        ))),
    }
}

/// The input as the engine's target (a read job): from `skip=`, up to `count=` and the end
/// of a file or block device; a character device never ends, so it needs `count=`.
fn read_target<'a>(
    a: &'a DdArgs,
    input: &Path,
    output: &'a Path,
    probe: &dyn Fn(&Path) -> Probe,
    notes: &mut Vec<String>,
) -> Result<Target<'a>, DdError> {
    let p = input.to_path_buf();
    let start = a.skip_bytes();
    let bytes = match probe(&p) {
        Probe::Missing => {
            return Err(refused(format!(
                "if={}: no such file or directory",
                p.display()
            )))
        }
        Probe::Directory => return Err(refused(format!("if={}: is a directory", p.display()))),
        Probe::Char => a.count_bytes().ok_or_else(|| {
            refused(format!(
                "count= is needed when reading {}: it never ends",
                p.display()
            ))
        })?,
        Probe::File { size } | Probe::Block { size } => {
            if start > size {
                notes.push(format!(
                    "'{}': cannot skip to specified offset",
                    p.display()
                ));
            }
            let avail = size.saturating_sub(start);
            a.count_bytes().map_or(avail, |c| c.min(avail))
        }
    };
    Ok(Target {
        dir: Dir::Read,
        path: p,
        block: a.ibs,
        start,
        bytes,
        flags: &a.iflag,
        other: output,
    })
}

/// The output as the engine's target (a write job) of `input`'s data: from `seek=`, `count=`
/// bytes (or to the end of a block device).
fn write_target<'a>(
    a: &'a DdArgs,
    input: &'a Path,
    p: &Path,
    probe: &dyn Fn(&Path) -> Probe,
) -> Result<Target<'a>, DdError> {
    let start = a.seek_bytes();
    let existing = probe(p);
    check_output(a, p, existing)?;
    let bytes = match (a.count_bytes(), existing) {
        (Some(c), _) => c,
        (None, Probe::Block { size }) => size.saturating_sub(start),
        (None, _) => {
            return Err(refused(
                "count= is needed to write a file: the source never ends and iomark dd does not fill file systems",
            ))
        }
    };
    Ok(Target {
        dir: Dir::Write,
        path: p.to_path_buf(),
        block: a.obs,
        start,
        bytes,
        flags: &a.oflag,
        other: input,
    })
}

/// The refusals of an output that is now `existing`: a directory, a character device,
/// conv=nocreat and conv=excl, and a new file whose directory is missing or not writable.
fn check_output(a: &DdArgs, p: &Path, existing: Probe) -> Result<(), DdError> {
    match existing {
        Probe::Directory => return Err(refused(format!("of={}: is a directory", p.display()))),
        Probe::Char => {
            return Err(refused(format!(
                "of={}: writing a character device is not measured by iomark dd",
                p.display()
            )))
        }
        Probe::Missing if a.conv.nocreat => {
            return Err(refused(format!(
                "of={}: no such file (conv=nocreat)",
                p.display()
            )))
        }
        Probe::File { .. } | Probe::Block { .. } if a.conv.excl => {
            return Err(refused(format!(
                "of={}: file exists (conv=excl)",
                p.display()
            )))
        }
        Probe::Missing => {
            let parent = p.parent().filter(|d| !d.as_os_str().is_empty());
            let d = parent.unwrap_or(Path::new("."));
            if !d.is_dir() {
                return Err(refused(format!(
                    "of={}: directory {} does not exist",
                    p.display(),
                    d.display()
                )));
            }
            if let Err(e) = iomark_engine::targets::dir_writable(d) {
                return Err(refused(format!(
                    "of={}: cannot create it in {}: {e}",
                    p.display(),
                    d.display()
                )));
            }
        }
        _ => {}
    }
    Ok(())
}

/// The engine's jobs: the whole blocks (direct when the flags say so), then the last partial
/// block buffered, as GNU dd drops O_DIRECT for it.
fn run_plan(a: &DdArgs, t: &Target, src: &End) -> RunPlan {
    let mut run = RunPlan {
        force_device_write: a.force_device_write,
        ..Default::default()
    };
    let full = t.bytes / t.block * t.block;
    let tail = t.bytes - full;
    let base = |name: &str, bs: u64, offset: u64, size: u64, direct: bool| {
        let mut j = JobSpec {
            name: name.to_string(),
            rw: if t.dir == Dir::Read {
                RwMode::Read
            } else {
                RwMode::Write
            },
            bs: PerDir::all(BlockSize::Fixed(bs)),
            size: Some(SizeSpec::Bytes(size)),
            offset: SizeSpec::Bytes(offset),
            filenames: vec![t.path.clone()],
            ioengine: EngineKind::Sync,
            direct,
            invalidate: t.flags.nocache,
            fadvise_hint: FadviseHint::Off,
            fallocate: FallocateMode::None,
            readonly: t.dir == Dir::Read,
            stonewall: true,
            shown_options: a.raw.clone().into(),
            ..Default::default()
        };
        if t.dir == Dir::Write {
            write_settings(&mut j, t.flags, src);
        }
        // dd's other end of the copy: each block is read from if= before it is written, or
        // written to of= after it is read, with dd's own system calls.
        let other = Some(t.other.to_path_buf());
        match t.dir {
            Dir::Read => j.engine_options.copy_to = other,
            _ => j.engine_options.copy_from = other,
        }
        j
    };
    if full > 0 {
        run.jobs
            .push(base("dd", t.block, t.start, full, t.flags.direct));
    }
    if tail > 0 {
        run.jobs
            .push(base("dd-tail", tail, t.start + full, tail, false));
    }
    // As GNU dd opens its output: without conv=notrunc a regular file is cut at seek= before
    // the copy, to nothing when seek= is under one output block (GNU dd counts whole blocks
    // to decide, so oflag=seek_bytes below obs= truncates it all); the engine leaves a block
    // device as it is.
    if t.dir == Dir::Write && !a.conv.notrunc {
        if let Some(first) = run.jobs.first_mut() {
            first.truncate_to = Some(if t.start < a.obs { 0 } else { t.start });
        }
    }
    // conv=fsync / fdatasync: one fsync (fdatasync) after the last write, inside the timing.
    if t.dir == Dir::Write && (a.conv.fsync || a.conv.fdatasync) {
        if let Some(last) = run.jobs.last_mut() {
            last.end_fsync = true;
            last.end_sync_data_only = a.conv.fdatasync && !a.conv.fsync;
        }
    }
    run
}

/// What a write job adds: oflag='s sync or dsync, a file that grows with the writes, and
/// buffers that start as zeros (from /dev/zero) or pseudo-random data (each block is then
/// read from if= into its buffer, so the engine does not scramble them).
fn write_settings(j: &mut JobSpec, flags: &Flags, src: &End) {
    j.sync = if flags.sync {
        SyncMode::Sync
    } else if flags.dsync {
        SyncMode::Dsync
    } else {
        SyncMode::None
    };
    // A new output file grows with the writes, as GNU dd's does (on ext4, writes that
    // extend the file cost more than writes into a file already at its size).
    j.grow_file = true;
    j.buffers.zero_buffers = *src == End::Zero;
    j.buffers.scramble_buffers = false;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dd::args::parse;

    /// The plan of `s`, a relative `of=` placed in the temporary directory: the plan checks
    /// that the output's directory is writable, and the tests run where they are checked out,
    /// which may not be (a read-only checkout, another user's).
    fn plan_of(s: &str, probe: Probe) -> Result<DdPlan, DdError> {
        let tmp = std::env::temp_dir();
        let words: Vec<String> = s
            .split_whitespace()
            .map(|w| match w.strip_prefix("of=") {
                Some(o) if !o.starts_with('/') => format!("of={}", tmp.join(o).display()),
                _ => w.to_string(),
            })
            .collect();
        let a = parse(&words).unwrap();
        plan(&a, &|p: &Path| {
            if p.starts_with("/dev/") {
                Probe::Char
            } else {
                probe
            }
        })
    }

    #[test]
    fn seed_read_is_one_direct_read_job() {
        let p = plan_of(
            "if=file.dat of=/dev/null iflag=direct bs=1M count=10K",
            Probe::File { size: 1 << 40 },
        )
        .unwrap();
        assert_eq!(p.dir, Dir::Read);
        assert_eq!(p.bytes, 10240 << 20);
        let j = &p.run.jobs[..];
        assert_eq!(j.len(), 1);
        assert_eq!(j[0].rw, RwMode::Read);
        assert!(j[0].direct && j[0].readonly && !j[0].invalidate);
        assert_eq!(j[0].size, Some(SizeSpec::Bytes(10240 << 20)));
        assert_eq!(j[0].ioengine, EngineKind::Sync);
    }

    #[test]
    fn conv_fdatasync_syncs_data_only_and_fsync_wins() {
        let last = |s: &str| plan_of(s, Probe::Missing).unwrap().run.jobs.pop().unwrap();
        let j = last("if=/dev/zero of=o bs=4K count=3 conv=fdatasync");
        assert!(j.end_fsync && j.end_sync_data_only);
        let j = last("if=/dev/zero of=o bs=4K count=3 conv=fdatasync,fsync");
        assert!(j.end_fsync && !j.end_sync_data_only);
    }

    #[test]
    fn each_block_passes_through_the_other_end_as_in_dd() {
        // A write reads each block from if= (both jobs: the whole blocks and the tail).
        let p = plan_of(
            "if=/dev/urandom of=out bs=4K count=10000 iflag=count_bytes",
            Probe::Missing,
        )
        .unwrap();
        assert_eq!(p.run.jobs.len(), 2);
        for j in &p.run.jobs {
            let o = &j.engine_options;
            assert_eq!(o.copy_from.as_deref(), Some(Path::new("/dev/urandom")));
            assert_eq!(o.copy_to, None);
            assert!(!j.buffers.scramble_buffers);
        }
        assert!(p.notes.is_empty(), "{:?}", p.notes);
        // A read writes each block to of=.
        let p = plan_of(
            "if=f of=/dev/null bs=4K count=10",
            Probe::File { size: 10_000 },
        )
        .unwrap();
        assert_eq!(p.run.jobs.len(), 2);
        for j in &p.run.jobs {
            let o = &j.engine_options;
            assert_eq!(o.copy_to.as_deref(), Some(Path::new("/dev/null")));
            assert_eq!(o.copy_from, None);
        }
    }

    #[test]
    fn read_stops_at_end_of_file_with_a_partial_block() {
        let p = plan_of(
            "if=f of=/dev/null iflag=direct bs=4K count=10",
            Probe::File { size: 10_000 },
        )
        .unwrap();
        assert_eq!(p.bytes, 10_000);
        assert_eq!(p.run.jobs.len(), 2);
        assert_eq!(p.run.jobs[0].size, Some(SizeSpec::Bytes(8192)));
        assert_eq!(p.run.jobs[1].offset, SizeSpec::Bytes(8192));
        assert_eq!(p.run.jobs[1].bs.read, BlockSize::Fixed(10_000 - 8192));
        assert!(!p.run.jobs[1].direct);
    }

    #[test]
    fn seed_write_is_direct_zero_write_with_final_fsync() {
        let p = plan_of(
            "if=/dev/zero of=dd1.dat conv=fsync oflag=direct bs=8K count=100K",
            Probe::Missing,
        )
        .unwrap();
        let j = &p.run.jobs[0];
        assert_eq!(p.dir, Dir::Write);
        assert_eq!(j.rw, RwMode::Write);
        assert!(j.direct && j.end_fsync && j.buffers.zero_buffers && !j.readonly);
        assert!(!j.end_sync_data_only);
        assert_eq!(j.size, Some(SizeSpec::Bytes(8192 * 102400)));
        assert_eq!(j.fallocate, FallocateMode::None);
    }

    #[test]
    fn zero_to_null_reads_dev_zero() {
        let p = plan_of("if=/dev/zero of=/dev/null bs=1M count=4", Probe::Missing).unwrap();
        assert_eq!(p.dir, Dir::Read);
        assert_eq!(p.run.jobs[0].filenames, vec![PathBuf::from("/dev/zero")]);
        assert!(plan_of("if=/dev/zero of=/dev/null", Probe::Missing).is_err());
    }

    #[test]
    fn refusals_are_clear() {
        let e = plan_of("if=a of=b", Probe::File { size: 1 }).unwrap_err();
        assert!(e.to_string().contains("file to a file"), "{e}");
        let e = plan_of("if=/dev/zero of=x", Probe::Missing).unwrap_err();
        assert!(e.to_string().contains("count="), "{e}");
        let e = plan_of("if=missing of=/dev/null", Probe::Missing).unwrap_err();
        assert!(e.to_string().contains("if=missing"), "{e}");
        let e = plan_of(
            "if=/dev/zero of=x count=1 conv=excl",
            Probe::File { size: 5 },
        );
        assert!(e.unwrap_err().to_string().contains("conv=excl"));
        let e = plan_of("if=/dev/zero of=/nonexistent-dir/x count=1", Probe::Missing);
        assert!(e.unwrap_err().to_string().contains("does not exist"));
        assert!(plan_of("bs=1", Probe::Missing).is_err());
    }

    #[test]
    fn output_is_truncated_at_seek_unless_notrunc() {
        let p = plan_of(
            "if=/dev/zero of=x bs=1K count=3 seek=2",
            Probe::File { size: 1 << 20 },
        )
        .unwrap();
        assert!(p.notes.is_empty(), "{:?}", p.notes);
        assert_eq!(p.run.jobs[0].truncate_to, Some(2048));
        let p = plan_of(
            "if=/dev/zero of=x bs=64K count=2 seek=4096 oflag=seek_bytes",
            Probe::File { size: 1 << 20 },
        )
        .unwrap();
        assert_eq!(p.run.jobs[0].truncate_to, Some(0));
        let p = plan_of("if=/dev/zero of=x bs=1K count=1", Probe::Missing).unwrap();
        assert_eq!(p.run.jobs[0].truncate_to, Some(0));
        let p = plan_of(
            "if=/dev/zero of=x bs=1K count=1 conv=notrunc",
            Probe::File { size: 1 << 20 },
        )
        .unwrap();
        assert!(p.notes.is_empty() && p.run.jobs[0].truncate_to.is_none());
        // Reads truncate nothing.
        let p = plan_of(
            "if=x of=/dev/null bs=1K count=1",
            Probe::File { size: 1 << 20 },
        )
        .unwrap();
        assert!(p.run.jobs[0].truncate_to.is_none());
    }
}
