//! A tree of "blogs" (directories `blog-N`) written, rewritten, commented and read by concurrent
//! threads, the workload of blogbench:
//! - writers make a new blog: `mkdir blog-N`, then `article-K.xml` for K from a random count
//!   (1..=max) down to 1, then `picture-K.jpg` the same way;
//! - rewriters replace a random picture (every other time) and a random article of a random blog;
//! - commenters write `comment-K.xml` for K from a random count down to 1 into a random blog;
//! - readers pick a random blog, read its comments (every other time) from `comment-1.xml` until
//!   one is missing, then `picture-K.jpg` and `article-K.xml` for K = 1, 2, ... until an article
//!   is missing.
//!
//! Every file is written atomically: created under `NAME.tmp`, written in `write_chunk` pieces,
//! closed, renamed to `NAME`. Reads ask for `read_chunk` bytes per call and touch one byte per
//! page of the `read_buffer` after each call. Each thread has its own random generator (in
//! upstream mode all share the C library's, as blogbench's do) and sleeps its think time after
//! each round. Blogs count
//! once complete (written) or read; the counts per kind of file are kept for interval reports.

use super::at;
use super::blogdraw::{restart_c_library, Draws};
use super::{Clock, OpStats, Phase};
use crate::job::Dir;
use crate::rng::Rng;
use crate::sys;
use std::ffi::CString;
use std::fs::File;
use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// Operation types.
pub(crate) const MKDIR: &str = "mkdir";
pub(crate) const CREATE: &str = "create";
pub(crate) const WRITE: &str = "write";
pub(crate) const RENAME: &str = "rename";
pub const OPEN: &str = "open";
/// A file read to its end (all its read calls, one time).
pub const READ: &str = "read";
/// An open of a file that does not exist (how readers find the end of a list).
pub const PROBE: &str = "missing-file probe";

/// Every operation type, in report order.
pub const OPS: [&str; 7] = [MKDIR, CREATE, WRITE, RENAME, OPEN, READ, PROBE];

/// The counters of an interval, in blogbench's column order after the blog count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub blogs_written: u64,
    pub blogs_read: u64,
    pub articles_read: u64,
    pub articles_written: u64,
    pub pictures_read: u64,
    pub pictures_written: u64,
    pub comments_read: u64,
    pub comments_written: u64,
}

impl Counts {
    /// Each counter with its name and the direction it counts in, in column order.
    pub fn named(&self) -> [(&'static str, Dir, u64); 8] {
        [
            ("blogs-written", Dir::Write, self.blogs_written),
            ("blogs-read", Dir::Read, self.blogs_read),
            ("articles-read", Dir::Read, self.articles_read),
            ("articles-written", Dir::Write, self.articles_written),
            ("pictures-read", Dir::Read, self.pictures_read),
            ("pictures-written", Dir::Write, self.pictures_written),
            ("comments-read", Dir::Read, self.comments_read),
            ("comments-written", Dir::Write, self.comments_written),
        ]
    }
}

/// The direction an operation type counts in.
pub fn op_dir(op: &str) -> Dir {
    if [READ, OPEN, PROBE].contains(&op) {
        Dir::Read
    } else {
        Dir::Write
    }
}

/// A kind of file: its name prefix and suffix, its size range (`min..max` bytes, max
/// excluded) and how many a blog has at most.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileKind {
    pub prefix: &'static str,
    pub suffix: &'static str,
    pub min: u64,
    pub max: u64,
    pub most: u64,
}

/// Threads per role and their think times (slept after each round).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Role {
    pub threads: u32,
    pub think: Duration,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TreeSpec {
    /// The directory the blogs are made in (it must exist).
    pub root: PathBuf,
    pub writers: Role,
    pub rewriters: Role,
    pub commenters: Role,
    pub readers: Role,
    pub article: FileKind,
    pub picture: FileKind,
    pub comment: FileKind,
    pub write_chunk: usize,
    /// Bytes asked for per read call.
    pub read_chunk: usize,
    /// The readers' buffer: after each read call one byte of each of its pages is touched,
    /// however much the call read (blogbench's readers touch their whole 64 KiB buffer even
    /// when a call reads 8 bytes). At least `read_chunk`.
    pub read_buffer: usize,
    /// Wait after a failed round (no blog yet, a file raced away).
    pub backoff: Duration,
    /// Upstream blogbench 1.2's ways: its random blog id 0 means "no blog yet", so a draw of
    /// 0 is a failed round for readers and rewriters, while commenters (which do not check
    /// it) write into blog 0; and every error is a failed round (upstream prints it, sleeps
    /// a second and goes on: a full file system does not end the run); and every random number
    /// comes from the C library's `rand()`, as upstream's (see `blogdraw`).
    pub upstream: bool,
    pub seed: u64,
}

#[derive(Default)]
struct Counters([AtomicU64; 8]);

const BW: usize = 0;
const BR: usize = 1;
const AR: usize = 2;
const AW: usize = 3;
const PR: usize = 4;
const PW: usize = 5;
const CR: usize = 6;
const CW: usize = 7;

struct Shared {
    spec: TreeSpec,
    /// `spec.root`, open: every name is relative to it, as blogbench's are to its working
    /// directory.
    root: File,
    next_blog: AtomicU64,
    counts: Counters,
    done: AtomicBool,
    stop: Arc<AtomicBool>,
    errors: AtomicU64,
    /// The first failure's reason, and whether it was a race (a later failure that is no
    /// race takes its place: it says more).
    first_error: Mutex<Option<(String, bool)>>,
    /// The error that ended the run (not a race).
    fatal: Mutex<Option<String>>,
}

impl Shared {
    fn bump(&self, c: usize) {
        self.counts.0[c].fetch_add(1, Ordering::Relaxed);
    }
    fn ending(&self) -> bool {
        self.done.load(Ordering::Relaxed) || self.stop.load(Ordering::Relaxed)
    }
    /// Sleep `d` in short pieces, returning early when the run ends.
    fn nap(&self, d: Duration) {
        let end = std::time::Instant::now() + d;
        while !self.ending() {
            let now = std::time::Instant::now();
            if now >= end {
                break;
            }
            std::thread::sleep((end - now).min(Duration::from_millis(20)));
        }
    }
    /// A random existing blog: uniform below the newest one started (None before two, and for
    /// a draw of 0 in upstream mode).
    fn random_blog(&self, rng: &mut Draws) -> Option<u64> {
        let last = self.next_blog.load(Ordering::Relaxed).checked_sub(1)?;
        let id = (last > 0).then(|| rng.blog_below(last))?;
        (id > 0 || !self.spec.upstream).then_some(id)
    }
    /// The blog a commenter writes into: upstream 1.2 uses its draw unchecked, so before two
    /// blogs exist, and for a draw of 0, that is blog 0 (not there yet: a failed round).
    fn comment_blog(&self, rng: &mut Draws) -> Option<u64> {
        if !self.spec.upstream {
            return self.random_blog(rng);
        }
        let last = self.next_blog.load(Ordering::Relaxed).saturating_sub(1);
        Some(if last > 0 { rng.blog_below(last) } else { 0 })
    }
    fn failed(&self, e: &io::Error) {
        self.errors.fetch_add(1, Ordering::Relaxed);
        let mut f = self.first_error.lock().unwrap();
        if f.as_ref().is_none_or(|(_, race)| *race && !is_race(e)) {
            *f = Some((e.to_string(), is_race(e)));
        }
    }
}

/// Errors of files racing between threads: a file or directory gone or already there.
fn is_race(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::NotFound | io::ErrorKind::AlreadyExists
    ) || e.raw_os_error() == Some(libc::ENOTEMPTY)
}

/// One round of a role; Ok(false) when there was nothing to do yet.
type RoundFn = fn(&mut Actor) -> io::Result<bool>;

/// One thread's state.
struct Actor {
    sh: Arc<Shared>,
    rng: Draws,
    stats: OpStats,
    buf: Vec<u8>,
}

fn timed_io<T>(
    stats: &mut OpStats,
    op: &'static str,
    bytes: impl Fn(&T) -> u64,
    f: impl FnOnce() -> io::Result<T>,
) -> io::Result<T> {
    let t0 = sys::now_ns();
    let r = f()?;
    stats.record(op, sys::now_ns().saturating_sub(t0), bytes(&r));
    Ok(r)
}

impl Actor {
    /// File `n` of kind `k` in `blog`, relative to the root (with `tail` after its name).
    fn file(blog: u64, k: &FileKind, n: u64, tail: &str) -> CString {
        let name = format!("blog-{blog}/{}{n}{}{tail}", k.prefix, k.suffix);
        CString::new(name).expect("no NUL in a generated name")
    }

    /// Write file `n` of kind `k` in `blog` atomically, with a random size of that kind.
    fn write_atomic(&mut self, blog: u64, k: &FileKind, n: u64) -> io::Result<()> {
        let path = Self::file(blog, k, n, "");
        let tmp = Self::file(blog, k, n, ".tmp");
        let root = &self.sh.root;
        let size = k.min + self.rng.below((k.max - k.min).max(1));
        let chunk = self.sh.spec.write_chunk.max(1);
        let r = (|| {
            let mut f = timed_io(
                &mut self.stats,
                CREATE,
                |_| 0,
                // Only a file of its own: never one that is there (a symbolic link included),
                // so no file the run did not make is truncated.
                || at::create_new(root, &tmp),
            )?;
            let mut left = size;
            while left > 0 {
                let n = left.min(chunk as u64) as usize;
                let b = &self.buf[..n];
                timed_io(&mut self.stats, WRITE, |n| *n as u64, || f.write(b))?;
                left -= n as u64;
            }
            drop(f);
            timed_io(
                &mut self.stats,
                RENAME,
                |_| 0,
                || at::rename(root, &tmp, &path),
            )
        })();
        // A temporary file that is another thread's (it was there) is left to that thread.
        if r.as_ref()
            .is_err_and(|e| e.kind() != io::ErrorKind::AlreadyExists)
        {
            let _ = at::unlink(root, &tmp);
        }
        r
    }

    /// Read file `n` of kind `k` in `blog` to its end; Ok(false) when it does not exist.
    fn read_file(&mut self, blog: u64, k: &FileKind, n: u64) -> io::Result<bool> {
        let path = Self::file(blog, k, n, "");
        let t0 = sys::now_ns();
        let mut f = match at::open_read(&self.sh.root, &path) {
            Ok(f) => f,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                self.stats
                    .record(PROBE, sys::now_ns().saturating_sub(t0), 0);
                return Ok(false);
            }
            Err(e) => return Err(e),
        };
        let t1 = sys::now_ns();
        self.stats.record(OPEN, t1.saturating_sub(t0), 0);
        // One time for all the file's read calls: a clock read on each side of each 8-byte
        // read (upstream mode) would add a large share to the cost of that read.
        let spec = &self.sh.spec;
        let chunk = spec.read_chunk.max(1);
        let span = spec.read_buffer.max(chunk);
        let mut bytes = 0u64;
        loop {
            let n = f.read(&mut self.buf[..chunk])?;
            if n == 0 {
                break;
            }
            bytes += n as u64;
            // Touch one byte per page of the whole buffer, as blogbench's readers do.
            let touched = self.buf[..span]
                .iter()
                .step_by(4096)
                .fold(0u8, |x, v| x ^ v);
            std::hint::black_box(touched);
        }
        self.stats
            .record(READ, sys::now_ns().saturating_sub(t1), bytes);
        Ok(true)
    }

    /// Files `most..=1` of kind `k` in `blog`, `most` random.
    fn write_many(&mut self, blog: u64, k: FileKind, counter: usize) -> io::Result<()> {
        let n = 1 + self.rng.below(k.most.max(1));
        for i in (1..=n).rev() {
            if self.sh.ending() {
                break;
            }
            self.write_atomic(blog, &k, i)?;
            self.sh.bump(counter);
        }
        Ok(())
    }

    fn writer_round(&mut self) -> io::Result<bool> {
        let id = self.sh.next_blog.fetch_add(1, Ordering::Relaxed);
        let dir = CString::new(format!("blog-{id}")).expect("no NUL in a generated name");
        let root = &self.sh.root;
        timed_io(
            &mut self.stats,
            MKDIR,
            |_| 0,
            || at::mkdir(root, &dir, 0o700),
        )?;
        let s = self.sh.spec.clone();
        self.write_many(id, s.article, AW)?;
        self.write_many(id, s.picture, PW)?;
        if !self.sh.ending() {
            self.sh.bump(BW);
        }
        Ok(true)
    }

    fn rewriter_round(&mut self) -> io::Result<bool> {
        let Some(id) = self.sh.random_blog(&mut self.rng) else {
            return Ok(false);
        };
        let s = self.sh.spec.clone();
        if self.rng.below(2) == 0 {
            let n = 1 + self.rng.below(s.picture.most.max(1));
            self.write_atomic(id, &s.picture, n)?;
            self.sh.bump(PW);
        }
        let n = 1 + self.rng.below(s.article.most.max(1));
        self.write_atomic(id, &s.article, n)?;
        self.sh.bump(AW);
        Ok(true)
    }

    fn commenter_round(&mut self) -> io::Result<bool> {
        let Some(id) = self.sh.comment_blog(&mut self.rng) else {
            return Ok(false);
        };
        let k = self.sh.spec.comment;
        self.write_many(id, k, CW)?;
        Ok(true)
    }

    fn reader_round(&mut self) -> io::Result<bool> {
        let Some(id) = self.sh.random_blog(&mut self.rng) else {
            return Ok(false);
        };
        let s = self.sh.spec.clone();
        if self.rng.below(2) == 0 {
            for i in 1.. {
                if self.sh.ending() || !self.read_file(id, &s.comment, i)? {
                    break;
                }
                self.sh.bump(CR);
            }
        }
        for i in 1.. {
            if self.sh.ending() {
                break;
            }
            if self.read_file(id, &s.picture, i)? {
                self.sh.bump(PR);
            }
            if !self.read_file(id, &s.article, i)? {
                break;
            }
            self.sh.bump(AR);
        }
        if !self.sh.ending() {
            self.sh.bump(BR);
        }
        Ok(true)
    }

    fn run(mut self, round: RoundFn, think: Duration) -> OpStats {
        while !self.sh.ending() {
            match round(&mut self) {
                Ok(true) => self.sh.nap(think),
                Ok(false) => self.sh.nap(self.sh.spec.backoff),
                Err(e) if is_race(&e) || self.sh.spec.upstream => {
                    // Files race between threads as in blogbench (a rename finds its temporary
                    // file gone, two threads write the same file): counted, the thread backs
                    // off and goes on. Upstream 1.2 does so on any error (a full file system
                    // included).
                    self.sh.failed(&e);
                    self.sh.nap(self.sh.spec.backoff);
                }
                Err(e) => {
                    // Anything else (a full or read-only file system, an I/O error) ends the
                    // run of the fixed workload: it is no race and would only repeat.
                    let mut f = self.sh.fatal.lock().unwrap();
                    if f.is_none() {
                        *f = Some(e.to_string());
                    }
                    self.sh.done.store(true, Ordering::Relaxed);
                }
            }
        }
        self.stats
    }
}

/// A running tree workload.
pub struct Tree {
    sh: Arc<Shared>,
    threads: Vec<JoinHandle<OpStats>>,
    clock: Clock,
}

impl Tree {
    /// Start every thread. `stop` (a signal) ends the threads as [`Tree::finish`] does.
    pub fn start(spec: TreeSpec, stop: Arc<AtomicBool>) -> io::Result<Tree> {
        if !spec.root.is_dir() {
            return Err(io::Error::new(
                io::ErrorKind::NotFound,
                format!("{}: no such directory", spec.root.display()),
            ));
        }
        let root = at::open_dir(&spec.root)?;
        let buf_len = spec
            .write_chunk
            .max(spec.read_chunk)
            .max(spec.read_buffer)
            .max(1);
        let roles: [(Role, RoundFn); 4] = [
            (spec.writers, Actor::writer_round),
            (spec.rewriters, Actor::rewriter_round),
            (spec.commenters, Actor::commenter_round),
            (spec.readers, Actor::reader_round),
        ];
        let sh = Arc::new(Shared {
            spec,
            root,
            next_blog: AtomicU64::new(0),
            counts: Counters::default(),
            done: AtomicBool::new(false),
            stop,
            errors: AtomicU64::new(0),
            first_error: Mutex::new(None),
            fatal: Mutex::new(None),
        });
        if sh.spec.upstream {
            restart_c_library();
        }
        let clock = Clock::start();
        let mut threads = Vec::new();
        let mut n = 0u64;
        for (role, round) in roles {
            for _ in 0..role.threads {
                n += 1;
                let a = Actor {
                    sh: sh.clone(),
                    rng: if sh.spec.upstream {
                        Draws::CLibrary
                    } else {
                        Draws::Own(Rng::new(crate::rng::mix64(
                            sh.spec.seed ^ n.wrapping_mul(0x9e37),
                        )))
                    },
                    stats: OpStats::default(),
                    buf: vec![0x61; buf_len],
                };
                let think = role.think;
                let t = std::thread::Builder::new()
                    .name(format!("tree-{n}"))
                    .spawn(move || a.run(round, think));
                match t {
                    Ok(h) => threads.push(h),
                    Err(e) => {
                        sh.done.store(true, Ordering::Relaxed);
                        for h in threads {
                            let _ = h.join();
                        }
                        return Err(e);
                    }
                }
            }
        }
        Ok(Tree { sh, threads, clock })
    }

    /// The counts since the last call (blogs written: since the start), reset to zero.
    pub fn take_interval(&self) -> Counts {
        let c = &self.sh.counts.0;
        let t = |i: usize| c[i].swap(0, Ordering::Relaxed);
        Counts {
            blogs_written: t(BW),
            blogs_read: t(BR),
            articles_read: t(AR),
            articles_written: t(AW),
            pictures_read: t(PR),
            pictures_written: t(PW),
            comments_read: t(CR),
            comments_written: t(CW),
        }
    }

    /// Rounds that failed so far (files that raced between threads; in upstream mode, any
    /// error), and the first reason (the first that was no race, if any).
    pub fn failures(&self) -> (u64, Option<String>) {
        (
            self.sh.errors.load(Ordering::Relaxed),
            self.sh.first_error.lock().unwrap().clone().map(|(e, _)| e),
        )
    }

    /// The run ended by an error that is not a race (see [`Tree::finish`]).
    pub fn ended_by_error(&self) -> bool {
        self.sh.fatal.lock().unwrap().is_some()
    }

    /// Stop every thread, wait for them, and return the operations of all of them (with the
    /// error that ended the run, if one did).
    pub fn finish(self) -> Phase {
        self.sh.done.store(true, Ordering::Relaxed);
        let mut stats = OpStats::default();
        let mut r = match self.sh.fatal.lock().unwrap().take() {
            Some(e) => Err(io::Error::other(e)),
            None => Ok(()),
        };
        for h in self.threads {
            match h.join() {
                Ok(s) => stats.merge(&s),
                Err(_) => r = Err(io::Error::other("a thread panicked")),
            }
        }
        let stop = AtomicBool::new(self.sh.stop.load(Ordering::Relaxed));
        self.clock.finish(stats, r, &stop)
    }
}

#[cfg(test)]
#[path = "blogtree_tests.rs"]
mod tests;
