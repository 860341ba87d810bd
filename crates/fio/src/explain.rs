//! The engine's refusals, notes and progress events worded for a user of the fio front end: the
//! job options to change (`size=`, `allow_mounted_write=1`) and the switches to pass
//! (`--force-device-write`, `--allow-fill`).

use iomark_engine::failure::{FlushPoint, JobFailure};
use iomark_engine::runner::{Event, Note, RunError};

/// A plan that asks for more memory or AIO events than the system has, in fio terms.
pub fn budget_error(e: &iomark_engine::budget::BudgetError) -> String {
    use iomark_engine::budget::BudgetError;
    match e {
        BudgetError::Memory { .. } => format!("{e} (bs=, iodepth=, numjobs=)"),
        BudgetError::AioEvents { .. } => format!("{e} (iodepth=)"),
    }
}

/// A refused run, in fio terms: the options of the job to change, the switches that take
/// responsibility for a target holding data, or the engine's own words where no option helps.
pub fn run_error(e: &RunError) -> String {
    match e {
        RunError::ReadonlyWrites { .. }
        | RunError::IsDirectory { .. }
        | RunError::VerifyOnlyMissing { .. }
        | RunError::PercentOfMissing { .. }
        | RunError::FreeSpaceUnknown { .. }
        | RunError::NoSize { .. }
        | RunError::BlockLargerThanRegion { .. }
        | RunError::DirectBlockSize { .. }
        | RunError::DirectOffset { .. } => job_error(e),
        RunError::DeviceMounted { .. }
        | RunError::DeviceBusy { .. }
        | RunError::BackingFileInUse { .. }
        | RunError::DeviceHoldsData { .. }
        | RunError::ImageWatched { .. }
        | RunError::ImageHoldsData { .. }
        | RunError::ExportHoldsData { .. }
        | RunError::DeviceUnreadable { .. }
        | RunError::ReadonlyUnlink { .. }
        | RunError::ReadonlyLayout { .. }
        | RunError::NoSpace { .. }
        | RunError::NotFileOrDevice { .. }
        | RunError::NotASocket { .. }
        | RunError::NeedsExt4 { .. }
        | RunError::NoSuchCpu { .. }
        | RunError::NoSuchNumaNode { .. }
        | RunError::TooManyJobs { .. } => target_error(e),
        // The engine's own words name no option.
        RunError::OffsetBeyondEnd { .. }
        | RunError::EmptyRegion { .. }
        | RunError::DirectoryUnusable { .. }
        | RunError::LayoutFailed { .. }
        | RunError::TruncateFailed { .. }
        | RunError::SocketRemoveFailed { .. }
        | RunError::NoSuchDevice { .. }
        | RunError::MetadataOnSpecial { .. }
        | RunError::ThreadSpawn(_)
        | RunError::BackingFile { .. }
        | RunError::Ceph { .. }
        | RunError::ExportReadOnly { .. }
        | RunError::Nbd { .. }
        | RunError::WorkDir { .. } => e.to_string(),
    }
}

/// A job whose options cannot run as written (its size, block size, alignment, `--readonly`
/// against its direction): the options to change.
fn job_error(e: &RunError) -> String {
    match e {
        RunError::ReadonlyWrites { job, rw, engine } => format!(
            "{job}: refusing to run a job that writes (rw={}, ioengine={}) with --readonly",
            rw.fio_name(),
            engine.name()
        ),
        RunError::IsDirectory { job, path } => format!(
            "{job}: {} is a directory; use directory= for a place to create files, or filename= for a file or device",
            path.display()
        ),
        RunError::VerifyOnlyMissing { job, path } => format!(
            "{job}: verify_only checks data an earlier run wrote, but {} does not exist",
            path.display()
        ),
        RunError::PercentOfMissing { job, path, percent } => format!(
            "{job}: size={percent}% needs an existing file or device, but {} does not exist",
            path.display()
        ),
        RunError::FreeSpaceUnknown { job, dir, source } => format!(
            "{job}: fill_device: cannot read the free space of {}: {source}",
            dir.display()
        ),
        RunError::NoSize { .. } => format!("{e}; set size= or filesize="),
        RunError::BlockLargerThanRegion {
            job,
            path,
            block_size,
            region,
        } => format!(
            "{job}: bs ({block_size}) is larger than the I/O region of {} ({region} bytes)",
            path.display()
        ),
        RunError::DirectBlockSize {
            job,
            path,
            logical_block_size,
            dir,
            block_size,
        } => format!(
            "{job}: direct=1 needs block sizes that are multiples of the logical block size of {} ({logical_block_size} bytes), but {} bs is {block_size}",
            path.display(),
            dir.name()
        ),
        RunError::DirectOffset {
            job,
            path,
            logical_block_size,
            start,
        } => format!(
            "{job}: direct=1 needs an offset aligned to the logical block size of {} ({logical_block_size} bytes), but the region starts at {start}",
            path.display()
        ),
        _ => e.to_string(),
    }
}

/// A target that holds data or is in use, has no room, is of the wrong kind, or a system
/// that lacks what the job asks for: the option or switch that takes responsibility for it.
fn target_error(e: &RunError) -> String {
    match e {
        RunError::DeviceMounted { .. }
        | RunError::DeviceBusy { .. }
        | RunError::BackingFileInUse { .. } => {
            format!("{e}; set allow_mounted_write=1 to write anyway")
        }
        RunError::DeviceHoldsData { .. } => {
            format!("{e}. Pass --force-device-write to overwrite it")
        }
        RunError::ImageWatched { .. } => {
            format!("{e}; set allow_mounted_write=1 to write anyway")
        }
        RunError::ImageHoldsData { .. } => {
            format!("{e}. Set allow_mounted_write=1 (or pass --force-device-write) to overwrite it")
        }
        RunError::ExportHoldsData { .. } => {
            format!("{e}. Pass --force-device-write to overwrite it")
        }
        RunError::DeviceUnreadable { .. } => {
            format!("{e}. Pass --force-device-write to write anyway")
        }
        RunError::ReadonlyUnlink { job } => {
            format!("{job}: unlink=1 deletes the job's files but --readonly is set")
        }
        RunError::ReadonlyLayout { job, path, bytes } => format!(
            "{job}: {} would have to be created ({bytes} bytes) but --readonly is set",
            path.display()
        ),
        RunError::NoSpace { .. } => format!(
            "{e}. Make the jobs smaller (size=, filesize=, nrfiles=, numjobs=), point them elsewhere (directory=, filename=), or pass --allow-fill to fill it on purpose"
        ),
        RunError::NotFileOrDevice { .. } => format!(
            "{e} (fio: failed to get file size); name a regular file, a block or character device, or a directory= to create files in"
        ),
        RunError::NotASocket { .. } => {
            format!("{e}; give hostname= a path where nothing is, or where a socket is")
        }
        RunError::NeedsExt4 { .. } => {
            format!("{e}; put filename= (or directory=) and donorname= on an ext4 file system")
        }
        RunError::NoSuchCpu { job, cpu, cpus } => format!(
            "{job}: cpus_allowed: CPU {cpu} too large (max={}): this system has CPUs 0-{}",
            cpus.saturating_sub(1),
            cpus.saturating_sub(1)
        ),
        RunError::NoSuchNumaNode { job, node, nodes } => format!(
            "{job}: numa_cpu_nodes/numa_mem_policy: NUMA node {node} out of range: this machine has NUMA nodes {nodes:?} (fio: numa_parse_nodestring failed, the job is dropped)"
        ),
        RunError::TooManyJobs { threads, max } => format!(
            "maximum number of jobs reached: the jobs ask for {threads} threads (numjobs= counted), the limit is {max}; lower numjobs= or split the run"
        ),
        _ => e.to_string(),
    }
}

/// The C library's words for an error number (`strerror`), without Rust's "(os error N)".
pub fn strerror(errno: i32) -> String {
    let s = std::io::Error::from_raw_os_error(errno).to_string();
    match s.rfind(" (os error ") {
        Some(i) => s[..i].to_string(),
        None => s,
    }
}

/// A note about a run, in fio terms.
pub fn note(n: &Note) -> String {
    match n {
        Note::CachedWorkingSet {
            job,
            working_set,
            available,
            invalidate,
        } => format!(
            "{job}: buffered I/O (direct=0) over a working set of {} MiB that fits in the page cache ({} MiB available): read figures may come from memory rather than the device{}",
            working_set >> 20,
            available >> 20,
            if *invalidate { "" } else { " (invalidate=0 keeps cached data)" }
        ),
        Note::BufferedWrites {
            job,
            working_set,
            available,
        } => format!(
            "{job}: buffered writes (direct=0) over a working set of {} MiB that fits in the page cache ({} MiB available) complete once copied into memory and reach the device later: write figures may describe memory rather than the device (fsync=N, end_fsync=1 or direct=1 count the device)",
            working_set >> 20,
            available >> 20
        ),
        Note::KeptExisting { .. } => format!(
            "{n} (pass --allow-unlink-existing to delete it, as fio does)"
        ),
        Note::Tolerated { failure: f } => failure(f),
        // fio's words for each error it dumps.
        Note::IoError {
            dir,
            path,
            offset,
            len,
            errno,
            ..
        } => format!(
            "fio: io_u error on file {}: {}: {} offset={offset}, buflen={len}",
            path.display(),
            strerror(*errno),
            dir.name()
        ),
        // The engine's own words name no job option, or only its engine's own options.
        Note::StoppedDuringLayout
        | Note::KeptBackingFile { .. }
        | Note::AffinityNotApplied { .. }
        | Note::EngineFallback { .. }
        | Note::RegisteredFilesOff { .. }
        | Note::FixedBuffersTooFew { .. }
        | Note::FixedBuffersOff { .. }
        | Note::DeviceFull { .. }
        | Note::Text(_) => n.to_string(),
    }
}

/// The notes of a run (or a job), in fio terms.
/// Errors reported one by one (error_dump) go to stderr only, as in fio.
pub fn notes(n: &[Note]) -> Vec<String> {
    let kept: Vec<Note> = n
        .iter()
        .filter(|n| !matches!(n, Note::IoError { .. }))
        .cloned()
        .collect();
    iomark_engine::note::worded(&kept, note)
}

/// Why a job stopped, in fio terms: a failed flush names the option that asked for it.
pub fn failure(f: &JobFailure) -> String {
    match f {
        JobFailure::FlushFile {
            job,
            when,
            path,
            errno,
        } => format!(
            "{job}: {}: fsync of {} failed: {}",
            match when {
                FlushPoint::BeforeVerify => "verify",
                FlushPoint::End => "end_fsync",
                FlushPoint::Close => "fsync_on_close",
            },
            path.display(),
            std::io::Error::from_raw_os_error(*errno)
        ),
        JobFailure::IoPriority {
            job,
            class,
            level,
            errno,
        } => format!(
            "{job}: ioprio_set (prioclass={class}, prio={level}) failed: {}",
            std::io::Error::from_raw_os_error(*errno)
        ),
        // fio's words (its message for max_latency, and for latency_target at depth 1).
        JobFailure::Latency {
            dir,
            path,
            offset,
            len,
            latency_ns,
            limit_ns,
            ..
        } => format!(
            "fio: latency of {latency_ns} nsec exceeds specified max ({limit_ns} nsec): {} {} {offset} {len}",
            path.display(),
            dir.name()
        ),
        _ => f.to_string(),
    }
}

/// A progress event, as fio shows it.
pub fn event(e: &Event) -> String {
    match e {
        Event::LayingOut {
            job, files, bytes, ..
        } => {
            let (plural, total) = if *files == 1 {
                ("", "")
            } else {
                ("s", "total ")
            };
            format!(
                "{job}: Laying out IO file{plural} ({files} file{plural} / {total}{})",
                human_size(*bytes)
            )
        }
    }
}

fn human_size(b: u64) -> String {
    if b >= 1 << 30 && b % (1 << 30) == 0 {
        format!("{}GiB", b >> 30)
    } else if b >= 1 << 20 {
        format!("{}MiB", b >> 20)
    } else if b >= 1 << 10 {
        format!("{}KiB", b >> 10)
    } else {
        format!("{b}B")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    #[test]
    fn device_refusals_name_the_switches() {
        let e = RunError::DeviceMounted {
            job: "j".into(),
            path: PathBuf::from("/dev/x"),
            mount_point: "/mnt".into(),
        };
        assert_eq!(
            run_error(&e),
            "j: refusing to write to /dev/x: it (or a partition or holder of it) is mounted on /mnt; set allow_mounted_write=1 to write anyway"
        );
        let e = RunError::DeviceHoldsData {
            job: "j".into(),
            path: PathBuf::from("/dev/x"),
            signature: "ext4 filesystem".into(),
        };
        assert_eq!(
            run_error(&e),
            "j: refusing to write to /dev/x: it holds ext4 filesystem; writing would destroy it. Pass --force-device-write to overwrite it"
        );
        let e = RunError::NoSpace {
            dir: PathBuf::from("/t"),
            needed: 64 << 20,
            free: 8 << 20,
        };
        assert!(run_error(&e).starts_with(
            "refusing to lay out 64 MiB of files in /t: only 8 MiB are free on that filesystem. Make"
        ));
    }

    #[test]
    fn layout_event_as_fio_prints_it() {
        let e = Event::LayingOut {
            job: "seqw".into(),
            path: PathBuf::from("f"),
            files: 1,
            bytes: 64 << 20,
        };
        assert_eq!(event(&e), "seqw: Laying out IO file (1 file / 64MiB)");
        let e = Event::LayingOut {
            job: "many".into(),
            path: PathBuf::from("many.0.0"),
            files: 2000,
            bytes: 2000 << 12,
        };
        assert_eq!(
            event(&e),
            "many: Laying out IO files (2000 files / total 7MiB)"
        );
        assert_eq!(human_size(1 << 30), "1GiB");
        assert_eq!(human_size(1536), "1KiB");
    }
}
