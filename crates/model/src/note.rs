//! What the user should know about a run that does not stop it, as typed values with the facts:
//! the page cache, an engine that fell back to another, an error tolerated, a device filled.
//! The engine words them in its own neutral terms (`Display`); each front end words them for
//! its users. Notes a front end adds itself, and those of result files written before notes were
//! typed, are held as [`Note::Text`].

use crate::failure::JobFailure;
use crate::job::io::Dir;
use crate::job::EngineKind;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::PathBuf;

/// The locked-memory limit of the process (RLIMIT_MEMLOCK).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Memlock {
    Bytes(u64),
    Unlimited,
    /// The limit could not be read.
    Unknown,
}

/// Something the user should know about a run that does not stop it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Note {
    /// Buffered reads over a working set that fits in the page cache: read figures may come
    /// from memory rather than the device.
    CachedWorkingSet {
        job: String,
        working_set: u64,
        available: u64,
        /// Whether cached pages are dropped before the job starts.
        invalidate: bool,
    },
    /// Buffered writes (no O_SYNC/O_DSYNC, no fsync/fdatasync during the job) over a working
    /// set that fits in the page cache: they complete once copied into memory and reach the
    /// device later, so write figures may describe memory.
    BufferedWrites {
        job: String,
        working_set: u64,
        available: u64,
    },
    /// A stop came while files were being laid out: no job ran.
    StoppedDuringLayout,
    /// `unlink` kept a file that existed before the run (it deletes only files the run created).
    KeptExisting { job: String, path: PathBuf },
    /// `unlink` kept a file that is the backing file of a loop device (never deleted).
    KeptBackingFile { job: String, path: PathBuf },
    /// The job's CPU affinity could not be set (`reason`: the system's words).
    AffinityNotApplied { job: String, reason: String },
    /// The engine asked for is unavailable here; the job ran with `to` instead.
    EngineFallback {
        job: String,
        from: EngineKind,
        to: EngineKind,
        reason: String,
    },
    /// Registering the job's files with the kernel failed: the engine uses plain descriptors.
    RegisteredFilesOff { files: usize, reason: String },
    /// Fewer buffers than slots: the engine does not register its buffers.
    FixedBuffersTooFew { buffers: usize, slots: u32 },
    /// Registering the I/O buffers (`bytes` in all) with the kernel failed; `memlock` is the
    /// locked-memory limit when the kernel said it was out of memory.
    FixedBuffersOff {
        bytes: u64,
        reason: String,
        memlock: Option<Memlock>,
    },
    /// Filling the device, the job found it full after `written` bytes.
    DeviceFull {
        job: String,
        path: PathBuf,
        written: u64,
    },
    /// An error the job was told to tolerate (the first one of the job).
    Tolerated { failure: JobFailure },
    /// One failed I/O, reported as it happened (when the job asks for every error).
    IoError {
        job: String,
        dir: Dir,
        path: PathBuf,
        offset: u64,
        len: u64,
        errno: i32,
    },
    /// A note as text: one a front end adds, or from a result file written before notes were
    /// typed.
    #[serde(untagged)]
    Text(String),
}

/// A size in the largest binary unit that divides it ("8 MiB", "4 KiB", "100 B").
pub fn format_bytes(n: u64) -> String {
    const UNITS: [&str; 4] = ["GiB", "MiB", "KiB", "B"];
    let mut unit = 1u64 << 30;
    for u in UNITS {
        if n >= unit && n % unit == 0 {
            return format!("{} {u}", n / unit);
        }
        unit >>= 10;
    }
    format!("{n} B")
}

impl fmt::Display for Memlock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Memlock::Bytes(b) => f.write_str(&format_bytes(*b)),
            Memlock::Unlimited => f.write_str("unlimited"),
            Memlock::Unknown => f.write_str("unknown"),
        }
    }
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Note::CachedWorkingSet {
                job,
                working_set,
                available,
                invalidate,
            } => write!(
                f,
                "{job}: buffered I/O over a working set of {} MiB that fits in the page cache ({} MiB available): read figures may come from memory rather than the device{}",
                working_set >> 20,
                available >> 20,
                if *invalidate { "" } else { " (cached data is kept)" }
            ),
            Note::BufferedWrites {
                job,
                working_set,
                available,
            } => write!(
                f,
                "{job}: buffered writes over a working set of {} MiB that fits in the page cache ({} MiB available) complete once copied into memory and reach the device later: write figures may describe memory rather than the device",
                working_set >> 20,
                available >> 20
            ),
            Note::StoppedDuringLayout => f.write_str("stopped while laying out files, before any I/O was measured (a file being laid out was removed or put back as it was)"),
            Note::KeptExisting { job, path } => write!(
                f,
                "{job}: kept {}: it existed before the run, and unlink deletes only files the run created",
                path.display()
            ),
            Note::KeptBackingFile { job, path } => write!(
                f,
                "{job}: kept {}: it is the backing file of a loop device, which unlink never deletes",
                path.display()
            ),
            Note::AffinityNotApplied { reason, .. } => {
                write!(f, "the CPU affinity could not be applied: {reason}")
            }
            Note::EngineFallback {
                job, to, reason, ..
            } => write!(f, "{job}: {reason}; falling back to {}", to.name()),
            Note::RegisteredFilesOff { files, reason } => write!(
                f,
                "registerfiles disabled: registering {files} file(s) failed: {reason}"
            ),
            Note::FixedBuffersTooFew { buffers, slots } => {
                write!(f, "fixedbufs disabled: {buffers} buffers for {slots} slots")
            }
            Note::FixedBuffersOff {
                bytes,
                reason,
                memlock,
            } => {
                write!(
                    f,
                    "fixedbufs disabled: registering {} of I/O buffers failed: {reason}",
                    format_bytes(*bytes)
                )?;
                match memlock {
                    Some(m) => write!(
                        f,
                        "; RLIMIT_MEMLOCK is {m} (raise it with ulimit -l, or run with CAP_IPC_LOCK)"
                    ),
                    None => Ok(()),
                }
            }
            Note::DeviceFull { job, path, written } => write!(
                f,
                "{job}: {} is full after {written} bytes written (filling the device)",
                path.display()
            ),
            Note::Tolerated { failure } => write!(f, "{failure}"),
            Note::IoError {
                job,
                dir,
                path,
                offset,
                len,
                errno,
            } => write!(
                f,
                "{job}: {} of {len} bytes at offset {offset} of {} failed: {}",
                dir.name(),
                path.display(),
                crate::failure::errno_words(*errno)
            ),
            Note::Text(t) => f.write_str(t),
        }
    }
}

/// Notes worded by `words`, in order.
pub fn worded(notes: &[Note], words: impl Fn(&Note) -> String) -> Vec<String> {
    notes.iter().map(words).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_round_trip_and_old_text_read_back() {
        let n = Note::DeviceFull {
            job: "j".into(),
            path: PathBuf::from("/t/f"),
            written: 4096,
        };
        let j = serde_json::to_string(&n).unwrap();
        assert!(j.starts_with(r#"{"kind":"device_full","job":"j""#), "{j}");
        assert_eq!(serde_json::from_str::<Note>(&j).unwrap(), n);
        let old: Vec<Note> = serde_json::from_str(r#"["j: cached"]"#).unwrap();
        assert_eq!(old, [Note::Text("j: cached".into())]);
        let t = Note::Tolerated {
            failure: JobFailure::Reap { errno: 5 },
        };
        let j = serde_json::to_string(&t).unwrap();
        assert_eq!(serde_json::from_str::<Note>(&j).unwrap(), t);
        assert_eq!(
            t.to_string(),
            "reaping completions: Input/output error (os error 5)"
        );
    }

    #[test]
    fn sizes_in_the_largest_unit_that_divides_them() {
        assert_eq!(format_bytes(8 << 20), "8 MiB");
        assert_eq!(format_bytes(1536), "1536 B");
        assert_eq!(Memlock::Bytes(64 << 10).to_string(), "64 KiB");
    }
}
