//! Why a job stopped, as a typed value with the facts (the job, the operation, the errno, the
//! file and offset). The engine words it in its own neutral terms (`Display`); each front end
//! words it for its users. A result file written before failures were typed holds the text
//! instead, read back as [`JobFailure::Text`].

use crate::job::io::Dir;
use crate::job::EngineKind;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::PathBuf;

/// Where the job flushed its files when an fsync of one of them failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FlushPoint {
    /// Before reading the data back to verify it.
    BeforeVerify,
    /// At the end of the job.
    End,
    /// When closing the files.
    Close,
}

impl FlushPoint {
    /// The engine's neutral name of the moment.
    pub fn name(self) -> &'static str {
        match self {
            FlushPoint::BeforeVerify => "verify",
            FlushPoint::End => "end of job",
            FlushPoint::Close => "close",
        }
    }
}

/// The first bad block of a failed verification.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BadBlock {
    pub file: String,
    pub offset: u64,
    /// What the check found, in the verifier's words.
    pub reason: String,
}

/// Why a job stopped (or, tolerated, what went wrong while it ran).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum JobFailure {
    /// A target could not be opened (`reason`: the system's words, with the path).
    Open {
        job: String,
        path: PathBuf,
        errno: i32,
        reason: String,
    },
    /// The I/O engine could not be set up; `fallback_from` names the engine that was
    /// unavailable when this one was its fallback.
    Engine {
        job: String,
        engine: EngineKind,
        fallback_from: Option<EngineKind>,
        errno: i32,
        reason: String,
    },
    /// The verifier could not be set up with the job's settings.
    Verifier { job: String, reason: String },
    /// An I/O failed: direction, file, offset, and the bytes done in that direction before.
    Io {
        job: String,
        dir: Dir,
        path: PathBuf,
        offset: u64,
        done: u64,
        errno: i32,
    },
    /// A flush requested every N writes failed.
    Fsync { job: String, errno: i32 },
    /// Flushing a file at `when` failed.
    FlushFile {
        job: String,
        when: FlushPoint,
        path: PathBuf,
        errno: i32,
    },
    /// Reaping completions from the engine failed.
    Reap { errno: i32 },
    /// Submitting queued I/O to the engine failed.
    Submit { errno: i32 },
    /// Verification found bad blocks.
    Verify {
        job: String,
        bad_blocks: u64,
        checked: u64,
        first: Option<BadBlock>,
    },
    /// A phase of a classic tool's test failed (`reason`: the system's words).
    Phase { job: String, reason: String },
    /// The job's I/O trace (the record of every I/O it issues) could not be opened or written.
    Trace {
        job: String,
        path: PathBuf,
        errno: i32,
    },
    /// The job thread's I/O priority could not be set.
    IoPriority {
        job: String,
        class: u8,
        level: u8,
        errno: i32,
    },
    /// An I/O took longer than the job allows: over its latency limit, or over its latency
    /// target at queue depth 1 when every I/O must meet the target (`target`).
    Latency {
        job: String,
        dir: Dir,
        path: PathBuf,
        offset: u64,
        len: u64,
        latency_ns: u64,
        limit_ns: u64,
        target: bool,
    },
    /// The emulated zones of a target (`zonemode=zbd`) cannot serve the job (`reason`: the
    /// zone rule it breaks, with the sizes).
    Zones {
        job: String,
        path: PathBuf,
        reason: String,
    },
    /// The worker thread panicked.
    Panicked,
    /// A failure as text: from a result file written before failures were typed.
    #[serde(untagged)]
    Text(String),
}

/// The system's words for an errno ("Input/output error (os error 5)").
pub fn errno_words(errno: i32) -> std::io::Error {
    std::io::Error::from_raw_os_error(errno)
}

impl fmt::Display for JobFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JobFailure::Open {
                job, path, reason, ..
            } => write!(f, "{job}: cannot open {}: {reason}", path.display()),
            JobFailure::Engine {
                job,
                engine,
                fallback_from: None,
                reason,
                ..
            } => write!(f, "{job}: engine {}: {reason}", engine.name()),
            JobFailure::Engine { job, reason, .. } | JobFailure::Verifier { job, reason } => {
                write!(f, "{job}: {reason}")
            }
            JobFailure::Io {
                job,
                dir,
                path,
                offset,
                done,
                errno,
            } => write!(
                f,
                "{job}: {} error on {} at offset {offset} (after {done} bytes of this direction): {}",
                dir.name(),
                path.display(),
                errno_words(*errno)
            ),
            JobFailure::Fsync { job, errno } => {
                write!(f, "{job}: fsync failed: {}", errno_words(*errno))
            }
            JobFailure::FlushFile {
                job,
                when,
                path,
                errno,
            } => write!(
                f,
                "{job}: {}: fsync of {} failed: {}",
                when.name(),
                path.display(),
                errno_words(*errno)
            ),
            JobFailure::Reap { errno } => {
                write!(f, "reaping completions: {}", errno_words(*errno))
            }
            JobFailure::Submit { errno } => write!(f, "submitting I/O: {}", errno_words(*errno)),
            JobFailure::Verify {
                job,
                bad_blocks,
                checked,
                first,
            } => write_verify(f, job, *bad_blocks, *checked, first.as_ref()),
            JobFailure::Phase { job, reason } => write!(f, "{job}: {reason}"),
            JobFailure::Zones { job, path, reason } => {
                write!(f, "{job}: {}: {reason}", path.display())
            }
            JobFailure::Trace { job, path, errno } => write!(
                f,
                "{job}: writing the I/O trace {} failed: {}",
                path.display(),
                errno_words(*errno)
            ),
            JobFailure::IoPriority {
                job,
                class,
                level,
                errno,
            } => write!(
                f,
                "{job}: setting the thread's I/O priority (class {class}, level {level}) failed: {}",
                errno_words(*errno)
            ),
            JobFailure::Latency {
                job,
                dir,
                path,
                offset,
                len,
                latency_ns,
                limit_ns,
                target,
            } => {
                write!(
                    f,
                    "{job}: a {} of {len} bytes at offset {offset} of {} took {latency_ns} ns, over the {} of {limit_ns} ns",
                    dir.name(),
                    path.display(),
                    if *target { "latency target" } else { "latency limit" }
                )?;
                if *target {
                    f.write_str(" even at queue depth 1")?;
                }
                Ok(())
            }
            JobFailure::Panicked => f.write_str("worker thread panicked"),
            JobFailure::Text(t) => f.write_str(t),
        }
    }
}

/// The words of a failed verification: the counts, then the first bad block when known.
fn write_verify(
    f: &mut fmt::Formatter<'_>,
    job: &str,
    bad_blocks: u64,
    checked: u64,
    first: Option<&BadBlock>,
) -> fmt::Result {
    write!(
        f,
        "{job}: verify: {bad_blocks} bad block(s) of {checked} checked; first: "
    )?;
    match first {
        Some(b) => write!(f, "{}: {}", b.file, b.reason),
        None => Ok(()),
    }
}

impl std::error::Error for JobFailure {}

#[cfg(test)]
mod tests {
    use super::*;

    fn io() -> JobFailure {
        JobFailure::Io {
            job: "j".into(),
            dir: Dir::Read,
            path: PathBuf::from("/dev/x"),
            offset: 4096,
            done: 8192,
            errno: libc::EIO,
        }
    }

    #[test]
    fn worded_with_the_facts() {
        assert_eq!(
            io().to_string(),
            "j: read error on /dev/x at offset 4096 (after 8192 bytes of this direction): Input/output error (os error 5)"
        );
        let v = JobFailure::Verify {
            job: "v".into(),
            bad_blocks: 2,
            checked: 10,
            first: None,
        };
        assert_eq!(
            v.to_string(),
            "v: verify: 2 bad block(s) of 10 checked; first: "
        );
    }

    #[test]
    fn typed_round_trip_and_old_text_read_back() {
        let j = serde_json::to_string(&io()).unwrap();
        assert!(
            j.starts_with(r#"{"kind":"io","job":"j","dir":"read""#),
            "{j}"
        );
        assert_eq!(serde_json::from_str::<JobFailure>(&j).unwrap(), io());
        let old: JobFailure = serde_json::from_str(r#""j: cannot open f: gone""#).unwrap();
        assert_eq!(old, JobFailure::Text("j: cannot open f: gone".into()));
        assert_eq!(
            serde_json::to_string(&old).unwrap(),
            r#""j: cannot open f: gone""#
        );
    }
}
