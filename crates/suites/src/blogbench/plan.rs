//! blogbench's workload as an engine tree workload: its thread counts, file kinds (name, size
//! range, how many per blog), write and read chunk sizes, and think times. By default upstream
//! 1.2's behaviour, so scores compare with published ones: its threads never pause (its sleep
//! calls name macros that do not exist), its readers read 8 bytes, the size of a pointer, per
//! call (touching each page of their 64 KiB buffer after each), all threads draw from the C
//! library's rand(), and a random draw of blog 0 is a failed round (a second's backoff).
//! `--fixed` runs the intended workload: think times really sleep, reads use the 64 KiB buffer,
//! blog 0 is read like any other, each thread has its own random generator.

use super::args::{BlogArgs, BlogError};
use iomark_engine::fileops::blogtree::{FileKind, Role, TreeSpec};
use std::path::PathBuf;
use std::time::Duration;

/// What the plan needs to know about `-d`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DirState {
    Missing,
    Empty,
    /// Holds this many entries.
    NonEmpty(u64),
    NotADirectory,
    /// An existing directory where files cannot be created: the errno (a read-only file
    /// system, permissions).
    NotWritable(i32),
}

#[derive(Clone, Debug, PartialEq)]
pub struct BlogPlan {
    pub tree: TreeSpec,
    pub dir: PathBuf,
    /// The directory the run makes for its blogs (mode 0700, refused when anything is at its
    /// path) and keeps: `-d` itself when it does not exist, a new `blogbench.PID` in it with
    /// `--allow-nonempty`, so no file of the directory's is ever touched. None: an empty `-d`.
    pub work_dir: Option<PathBuf>,
    pub iterations: u32,
    pub sleep: Duration,
    pub mode: Mode,
}

pub const ARTICLE: FileKind = FileKind {
    prefix: "article-",
    suffix: ".xml",
    min: 1024,
    max: 32768,
    most: 100,
};
pub const PICTURE: FileKind = FileKind {
    prefix: "picture-",
    suffix: ".jpg",
    min: 8192,
    max: 65536,
    most: 100,
};
pub const COMMENT: FileKind = FileKind {
    prefix: "comment-",
    suffix: ".xml",
    min: 2048,
    max: 10240,
    most: 100,
};
pub const WRITE_CHUNK: usize = 8192;
pub const READ_CHUNK: usize = 65536;
/// What upstream 1.2 reads per call: `sizeof garbage`, a pointer.
pub const UPSTREAM_READ: usize = 8;

/// Which workload ran: upstream 1.2's or the intended one (`--fixed`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Upstream,
    Fixed,
}

impl Mode {
    /// The line saying which mode ran (after blogbench's own lines).
    pub fn describe(self) -> &'static str {
        match self {
            Mode::Upstream => "Mode (iomark): upstream blogbench 1.2 (8-byte reads, no think time; scores compare with blogbench 1.2's); --fixed runs the intended workload",
            Mode::Fixed => "Mode (iomark): fixed (64 KiB reads, think times of 10 ms and 1 s; scores do not compare with blogbench 1.2's)",
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Mode::Upstream => "upstream 1.2",
            Mode::Fixed => "fixed",
        }
    }
}

fn role(threads: u32, think_us: u64) -> Role {
    Role {
        threads,
        think: Duration::from_micros(think_us),
    }
}

pub fn plan(a: &BlogArgs, state: DirState, pid: u32) -> Result<BlogPlan, BlogError> {
    let dir = a.dir.clone().ok_or(BlogError::NoDir)?;
    let bad = |why: String| BlogError::Bad {
        flag: "-d".into(),
        value: dir.display().to_string(),
        why,
    };
    let work_dir = match state {
        DirState::Missing => Some(dir.clone()),
        DirState::Empty => None,
        DirState::NonEmpty(n) if !a.allow_nonempty => {
            return Err(bad(format!(
                "the directory holds {n} entries; give an empty or new directory (or --allow-nonempty to run among them)"
            )))
        }
        DirState::NonEmpty(_) => Some(dir.join(format!("blogbench.{pid}"))),
        DirState::NotADirectory => return Err(bad("not a directory".into())),
        DirState::NotWritable(errno) => {
            return Err(bad(format!(
                "cannot create files there: {}",
                std::io::Error::from_raw_os_error(errno)
            )))
        }
    };
    let mode = if a.fixed { Mode::Fixed } else { Mode::Upstream };
    // Think times in µs: upstream's never happen.
    let think = |us: u64| if a.fixed { us } else { 0 };
    Ok(BlogPlan {
        tree: TreeSpec {
            root: work_dir.clone().unwrap_or_else(|| dir.clone()),
            writers: role(a.writers, think(10_000)),
            rewriters: role(a.rewriters, think(1_000_000)),
            commenters: role(a.commenters, think(10_000)),
            readers: role(a.readers, 0),
            article: ARTICLE,
            picture: PICTURE,
            comment: COMMENT,
            write_chunk: WRITE_CHUNK,
            read_chunk: if a.fixed { READ_CHUNK } else { UPSTREAM_READ },
            read_buffer: READ_CHUNK,
            backoff: Duration::from_secs(1),
            upstream: !a.fixed,
            seed: 1,
        },
        dir,
        work_dir,
        iterations: a.iterations,
        sleep: Duration::from_secs(u64::from(a.sleep)),
        mode,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::blogbench::args::parse;

    fn a(s: &str) -> BlogArgs {
        parse(&s.split_whitespace().map(String::from).collect::<Vec<_>>()).unwrap()
    }

    #[test]
    fn seed_line_plan() {
        let p = plan(
            &a("-d /x -c 10 -i 10 -r 10 -w 10 -W 10 -s 10 --fixed"),
            DirState::Empty,
            7,
        )
        .unwrap();
        let t = &p.tree;
        assert_eq!(
            (
                t.writers.threads,
                t.rewriters.threads,
                t.commenters.threads,
                t.readers.threads
            ),
            (10, 10, 10, 10)
        );
        assert_eq!(t.writers.think, Duration::from_millis(10));
        assert_eq!(t.rewriters.think, Duration::from_secs(1));
        assert_eq!(t.readers.think, Duration::ZERO);
        assert_eq!(
            (t.write_chunk, t.read_chunk, t.read_buffer),
            (8192, 65536, 65536)
        );
        assert!(!t.upstream);
        assert_eq!(p.mode, Mode::Fixed);
        assert_eq!((p.iterations, p.sleep), (10, Duration::from_secs(10)));
        assert_eq!((p.work_dir, &t.root), (None, &PathBuf::from("/x")));
        let m = plan(&a("-d /x"), DirState::Missing, 7).unwrap();
        assert_eq!(m.work_dir.as_deref(), Some(std::path::Path::new("/x")));
    }

    #[test]
    fn upstream_mode_by_default() {
        let p = plan(&a("-d /x"), DirState::Empty, 7).unwrap();
        let t = &p.tree;
        assert_eq!(p.mode, Mode::Upstream);
        for r in [t.writers, t.rewriters, t.commenters, t.readers] {
            assert_eq!(r.think, Duration::ZERO);
        }
        assert_eq!(
            (t.write_chunk, t.read_chunk, t.read_buffer),
            (8192, 8, 65536)
        );
        assert!(t.upstream);
        assert_eq!(t.backoff, Duration::from_secs(1));
        assert!(p.mode.describe().contains("upstream") && Mode::Fixed.describe().contains("fixed"));
    }

    #[test]
    fn non_empty_directory_refused_unless_allowed() {
        let e = plan(&a("-d /x"), DirState::NonEmpty(3), 7)
            .unwrap_err()
            .to_string();
        assert!(e.contains("-d") && e.contains("3 entries") && e.contains("--allow-nonempty"));
        let n = plan(&a("-d /x --allow-nonempty"), DirState::NonEmpty(3), 7).unwrap();
        let private = std::path::Path::new("/x/blogbench.7");
        assert_eq!(
            (n.work_dir.as_deref(), n.tree.root.as_path()),
            (Some(private), private)
        );
        // EACCES (Linux).
        let e = plan(&a("-d /x"), DirState::NotWritable(13), 7)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("-d") && e.contains("cannot create files there: Permission denied"),
            "{e}"
        );
        assert!(plan(&a("-d /x"), DirState::NotADirectory, 7).is_err());
    }
}
