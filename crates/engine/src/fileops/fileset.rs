//! A set of small files in one directory (or spread over numbered subdirectories), created,
//! stat-ed (and read, when they have a size) and deleted, in name order or in a random order,
//! with the naming of bonnie++'s file tests: a sequential name is the file's index in 10 hex
//! digits followed by 0 to 12 random letters and digits, a random name the same parts the other
//! way round; subdirectories are `00000`, `00001`, ... Paths are resolved relative to the open
//! directory (`openat`, `fstatat`, `unlinkat`), as a program working in its current directory.
//! A create or delete pass ends with `sync(2)` inside its timing, as bonnie++ does, so that
//! its rate includes writing the metadata back and the next pass starts on a clean file system.
//! With [`Links`] other than `Files`, the first file is created empty and every other name is a
//! hard link to it or a symbolic link holding its bare name (bonnie++'s `-n num:-1` and `-2`).

use super::at::{self, check, cstr};
use super::{Clock, OpStats, Phase};
use crate::rng::Rng;
use crate::sys;
use std::fs::File;
use std::io;
use std::os::fd::AsRawFd;
use std::os::unix::ffi::OsStrExt;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};

/// Operation types.
pub const CREATE: &str = "create";
pub const STAT: &str = "stat";
pub const DELETE: &str = "delete";

const NAME_CHARS: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
/// At most this many random characters in a name.
const EXTRA_LEN: u64 = 12;

/// What the set is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileSetSpec {
    /// The directory the set lives in: created by [`FileSet::create`] (it must not exist),
    /// removed by [`FileSet::delete`].
    pub root: PathBuf,
    pub count: u64,
    /// File sizes: uniform in `min..=max` bytes (0 = empty files).
    pub min: u64,
    pub max: u64,
    /// Subdirectories (1 = the files are in `root` itself).
    pub dirs: u32,
    /// Size of each write and read of file contents.
    pub chunk: usize,
    /// fsync each file after it is written, and its directory after each create and delete.
    pub sync: bool,
    pub seed: u64,
    pub links: Links,
}

/// What the names of the set are.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Links {
    /// Every name is a file of its own.
    #[default]
    Files,
    /// The first name is an empty file, every other a hard link to it.
    Hard,
    /// The first name is an empty file, every other a symbolic link holding its bare name
    /// (which resolves only in the first file's directory, as bonnie++'s do).
    Symbolic,
}

/// The order of a pass over the set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// Create in name order; stat and delete in directory (readdir) order.
    Sequential,
    /// Names start with random characters; stat and delete in a shuffled order.
    Random,
}

pub struct FileSet {
    spec: FileSetSpec,
    /// (subdirectory index, file name) per file.
    names: Vec<(u32, String)>,
    rng: Rng,
    buf: Vec<u8>,
    /// The root was made by `create` (so `clean_up` may remove it).
    made_root: bool,
}

/// `sync(2)`: everything the file system holds dirty is written back.
fn sync_all() {
    // SAFETY: no arguments, cannot fail.
    unsafe { libc::sync() }
}

impl FileSet {
    pub fn new(spec: FileSetSpec) -> FileSet {
        let buf = vec![0x5a; spec.chunk.max(1)];
        FileSet {
            rng: Rng::new(spec.seed),
            spec,
            names: Vec::new(),
            buf,
            made_root: false,
        }
    }

    /// The name of file `i` of the set (as it is after [`FileSet::create`]).
    #[cfg(test)]
    pub(crate) fn names(&self) -> impl Iterator<Item = PathBuf> + '_ {
        self.names.iter().map(|(d, n)| self.dir_path(*d).join(n))
    }

    fn dir_path(&self, d: u32) -> PathBuf {
        if self.spec.dirs > 1 {
            self.spec.root.join(format!("{d:05}"))
        } else {
            self.spec.root.clone()
        }
    }

    fn make_names(&mut self, order: Order) {
        let n = self.spec.count;
        let per_dir = n / u64::from(self.spec.dirs.max(1));
        let (mut in_dir, mut dir) = (0u64, 0u32);
        self.names.clear();
        for i in 0..n {
            let len = self.rng.below(EXTRA_LEN + 1);
            let extra: String = (0..len)
                .map(|_| NAME_CHARS[self.rng.below(NAME_CHARS.len() as u64) as usize] as char)
                .collect();
            let name = match order {
                Order::Sequential => format!("{i:010x}{extra}"),
                Order::Random => format!("{extra}{i:010x}"),
            };
            let d = if self.spec.dirs > 1 { dir } else { 0 };
            self.names.push((d, name));
            // bonnie++ moves on once a directory holds one more than its share.
            in_dir += 1;
            if in_dir > per_dir {
                in_dir = 0;
                dir = (dir + 1).min(self.spec.dirs.saturating_sub(1));
            }
        }
    }

    fn open_dirs(&self) -> io::Result<Vec<File>> {
        (0..self.spec.dirs.max(1))
            .map(|d| {
                let p = self.dir_path(d);
                File::open(&p).map_err(|e| super::path_err(e, "cannot open", &p))
            })
            .collect()
    }

    fn shuffle(&mut self) {
        for i in (1..self.names.len()).rev() {
            let j = self.rng.below(i as u64 + 1) as usize;
            self.names.swap(i, j);
        }
    }

    /// Make the directories (untimed), then create every file (timed), writing its size in
    /// chunks. The root must not exist.
    pub fn create(&mut self, order: Order, stop: &AtomicBool) -> Phase {
        self.make_names(order);
        let root = self.spec.root.clone();
        let setup = (|| {
            std::fs::create_dir(&root).map_err(|e| super::path_err(e, "cannot create", &root))?;
            self.made_root = true;
            if self.spec.dirs > 1 {
                for d in 0..self.spec.dirs {
                    let p = self.dir_path(d);
                    std::fs::create_dir(&p).map_err(|e| super::path_err(e, "cannot create", &p))?;
                }
            }
            self.open_dirs()
        })();
        let clock = Clock::start();
        let mut stats = OpStats::default();
        let r = setup.and_then(|dirs| {
            for k in 0..self.names.len() {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                let linked = self.spec.links != Links::Files;
                let size = if linked {
                    0
                } else if self.spec.max > self.spec.min {
                    self.rng.range(self.spec.min, self.spec.max)
                } else {
                    self.spec.max
                };
                let (d, name) = &self.names[k];
                let dir = &dirs[*d as usize];
                let t0 = sys::now_ns();
                let r = if linked && k > 0 {
                    let (d0, first) = &self.names[0];
                    self.link_one(&dirs[*d0 as usize], first, dir, name)
                } else {
                    self.create_one(dir, name, size)
                };
                r.map_err(|e| super::path_err(e, "cannot create", &self.dir_path(*d).join(name)))?;
                stats.record(CREATE, sys::now_ns().saturating_sub(t0), size);
            }
            sync_all();
            Ok(())
        });
        clock.finish(stats, r, stop)
    }

    /// Name `name` in `dir` as a link to the set's first file `first` in `first_dir`.
    fn link_one(&self, first_dir: &File, first: &str, dir: &File, name: &str) -> io::Result<()> {
        let (from, to) = (cstr(first.as_bytes())?, cstr(name.as_bytes())?);
        // SAFETY: valid directory descriptors and NUL-terminated names.
        check(unsafe {
            match self.spec.links {
                Links::Symbolic => libc::symlinkat(from.as_ptr(), dir.as_raw_fd(), to.as_ptr()),
                _ => libc::linkat(
                    first_dir.as_raw_fd(),
                    from.as_ptr(),
                    dir.as_raw_fd(),
                    to.as_ptr(),
                    0,
                ),
            }
        })?;
        if self.spec.sync {
            dir.sync_all()?;
        }
        Ok(())
    }

    fn create_one(&self, dir: &File, name: &str, size: u64) -> io::Result<()> {
        let f = at::create_new(dir, &cstr(name.as_bytes())?)?;
        let mut left = size;
        while left > 0 {
            let n = left.min(self.buf.len() as u64) as usize;
            std::io::Write::write_all(&mut &f, &self.buf[..n])?;
            left -= n as u64;
        }
        if self.spec.sync {
            f.sync_all()?;
            dir.sync_all()?;
        }
        Ok(())
    }

    fn stat_one(dir: &File, name: &[u8], buf: &mut [u8]) -> io::Result<u64> {
        let c = cstr(name)?;
        let mut st = std::mem::MaybeUninit::<libc::stat>::uninit();
        // SAFETY: valid descriptor, NUL-terminated name, `st` is filled by the kernel.
        check(unsafe { libc::fstatat(dir.as_raw_fd(), c.as_ptr(), st.as_mut_ptr(), 0) })?;
        // SAFETY: fstatat succeeded.
        let size = unsafe { st.assume_init() }.st_size as u64;
        if size == 0 {
            return Ok(0);
        }
        let mut f = at::open_read(dir, &c)?;
        let mut total = 0;
        loop {
            let n = std::io::Read::read(&mut f, buf)?;
            if n == 0 {
                return Ok(total);
            }
            total += n as u64;
        }
    }

    /// The files of directory `d` in readdir order (dot files skipped).
    fn listing(&self, d: u32) -> io::Result<Vec<Vec<u8>>> {
        let p = self.dir_path(d);
        let mut v = Vec::new();
        for e in std::fs::read_dir(&p).map_err(|e| super::path_err(e, "cannot read", &p))? {
            let n = e?.file_name();
            if !n.as_bytes().starts_with(b".") {
                v.push(n.as_bytes().to_vec());
            }
        }
        Ok(v)
    }

    /// Stat every file, and read those that have a size.
    pub fn stat(&mut self, order: Order, stop: &AtomicBool) -> Phase {
        if order == Order::Random {
            self.shuffle();
        }
        let clock = Clock::start();
        let mut stats = OpStats::default();
        let mut buf = std::mem::take(&mut self.buf);
        let r = self
            .each(order, stop, |dir, name| {
                let t0 = sys::now_ns();
                let n = Self::stat_one(dir, name, &mut buf)?;
                stats.record(STAT, sys::now_ns().saturating_sub(t0), n);
                Ok(())
            })
            .map(|_| ());
        self.buf = buf;
        clock.finish(stats, r, stop)
    }

    /// Delete every file, then the subdirectories and the root.
    pub fn delete(&mut self, order: Order, stop: &AtomicBool) -> Phase {
        if order == Order::Random {
            self.shuffle();
        }
        let clock = Clock::start();
        let mut stats = OpStats::default();
        let sync = self.spec.sync;
        let r = self
            .each(order, stop, |dir, name| {
                let c = cstr(name)?;
                let t0 = sys::now_ns();
                at::unlink(dir, &c)?;
                if sync {
                    dir.sync_all()?;
                }
                stats.record(DELETE, sys::now_ns().saturating_sub(t0), 0);
                Ok(())
            })
            .and_then(|n| {
                if stop.load(Ordering::Relaxed) {
                    return Ok(());
                }
                if n != self.spec.count {
                    return Err(io::Error::other(format!(
                        "expected {} files but found {n}",
                        self.spec.count
                    )));
                }
                self.remove_dirs()?;
                sync_all();
                Ok(())
            });
        clock.finish(stats, r, stop)
    }

    fn remove_dirs(&self) -> io::Result<()> {
        if self.spec.dirs > 1 {
            for d in 0..self.spec.dirs {
                let p = self.dir_path(d);
                std::fs::remove_dir(&p).map_err(|e| super::path_err(e, "cannot remove", &p))?;
            }
        }
        let r = &self.spec.root;
        std::fs::remove_dir(r).map_err(|e| super::path_err(e, "cannot remove", r))?;
        Ok(())
    }

    /// Remove whatever is left of the set after an error or a stop: only a root that
    /// [`FileSet::create`] made itself.
    pub fn clean_up(&self) {
        if self.made_root {
            let _ = std::fs::remove_dir_all(&self.spec.root);
        }
    }

    /// Call `f` on (directory, name) of every file in the pass's order; returns how many.
    fn each(
        &self,
        order: Order,
        stop: &AtomicBool,
        mut f: impl FnMut(&File, &[u8]) -> io::Result<()>,
    ) -> io::Result<u64> {
        let dirs = self.open_dirs()?;
        let mut n = 0;
        let mut one = |d: u32, name: &[u8]| -> io::Result<bool> {
            if stop.load(Ordering::Relaxed) {
                return Ok(false);
            }
            f(&dirs[d as usize], name).map_err(|e| {
                let p = self.dir_path(d).join(std::ffi::OsStr::from_bytes(name));
                super::path_err(e, "cannot handle", &p)
            })?;
            n += 1;
            Ok(true)
        };
        match order {
            Order::Random => {
                for (d, name) in &self.names {
                    if !one(*d, name.as_bytes())? {
                        break;
                    }
                }
            }
            Order::Sequential => {
                'dirs: for d in 0..self.spec.dirs.max(1) {
                    for name in self.listing(d)? {
                        if !one(d, &name)? {
                            break 'dirs;
                        }
                    }
                }
            }
        }
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::TempDir;

    fn spec(root: PathBuf, count: u64, min: u64, max: u64, dirs: u32, sync: bool) -> FileSetSpec {
        FileSetSpec {
            root,
            count,
            min,
            max,
            dirs,
            chunk: 64,
            sync,
            seed: 5,
            links: Links::Files,
        }
    }

    #[test]
    fn sequential_pass_with_names_dirs_and_sizes() {
        let d = TempDir::new("fileset");
        let root = d.join("Bonnie.1");
        let stop = AtomicBool::new(false);
        let mut s = FileSet::new(spec(root.clone(), 100, 10, 200, 3, true));
        let c = s.create(Order::Sequential, &stop);
        assert!(c.error.is_none(), "{:?}", c.error);
        assert_eq!(c.stats.ops(CREATE), 100);
        let names: Vec<PathBuf> = s.names().collect();
        let first = names[0].strip_prefix(&root).unwrap().to_str().unwrap();
        assert!(first.starts_with("00000/0000000000"), "{first}");
        let last = names[99].file_name().unwrap().to_str().unwrap();
        assert!(last.starts_with("0000000063") && last.len() <= 22, "{last}");
        for sub in ["00000", "00001", "00002"] {
            assert!(root.join(sub).is_dir());
        }
        // 100 / 3 = 33 a directory, one more each as bonnie++ fills them.
        assert_eq!(std::fs::read_dir(root.join("00000")).unwrap().count(), 34);
        let bytes: u64 = names
            .iter()
            .map(|p| std::fs::metadata(p).unwrap().len())
            .sum();
        assert!(names.iter().all(|p| {
            let l = std::fs::metadata(p).unwrap().len();
            (10..=200).contains(&l)
        }));
        let st = s.stat(Order::Sequential, &stop);
        assert!(st.error.is_none(), "{:?}", st.error);
        assert_eq!(st.stats.ops(STAT), 100);
        assert_eq!(st.stats.get(STAT).unwrap().bytes, bytes);
        let del = s.delete(Order::Sequential, &stop);
        assert!(del.error.is_none(), "{:?}", del.error);
        assert_eq!(del.stats.ops(DELETE), 100);
        assert!(!root.exists());
    }

    #[test]
    fn random_pass_and_refusals() {
        let d = TempDir::new("fileset");
        let root = d.join("set");
        let stop = AtomicBool::new(false);
        let mut s = FileSet::new(spec(root.clone(), 50, 0, 0, 1, false));
        let c = s.create(Order::Random, &stop);
        assert!(c.error.is_none());
        let names: Vec<String> = s
            .names()
            .map(|p| p.file_name().unwrap().to_str().unwrap().to_string())
            .collect();
        assert!(names[3].ends_with("0000000003"), "{}", names[3]);
        assert!(names.iter().all(|n| n.len() >= 10 && n.len() <= 22));
        let st = s.stat(Order::Random, &stop);
        assert_eq!(
            (st.stats.ops(STAT), st.stats.get(STAT).unwrap().bytes),
            (50, 0)
        );
        let del = s.delete(Order::Random, &stop);
        assert!(del.error.is_none(), "{:?}", del.error);
        assert!(!root.exists());
        // The root must not exist: nothing of an existing directory is touched.
        std::fs::create_dir(&root).unwrap();
        std::fs::write(root.join("keep"), b"x").unwrap();
        let mut s = FileSet::new(spec(root.clone(), 5, 0, 0, 1, false));
        let c = s.create(Order::Sequential, &stop);
        assert!(c.error.unwrap().contains("cannot create"));
        s.clean_up();
        assert!(root.join("keep").exists());
    }

    #[test]
    fn hard_and_symbolic_links_to_the_first_file() {
        use std::os::unix::fs::MetadataExt;
        let d = TempDir::new("fileset");
        let stop = AtomicBool::new(false);
        for links in [Links::Hard, Links::Symbolic] {
            let root = d.join("links");
            let mut s = FileSet::new(FileSetSpec {
                links,
                ..spec(root.clone(), 20, 0, 0, 1, true)
            });
            let c = s.create(Order::Random, &stop);
            assert!(c.error.is_none(), "{:?}", c.error);
            assert_eq!(c.stats.ops(CREATE), 20);
            let names: Vec<PathBuf> = s.names().collect();
            let first = std::fs::symlink_metadata(&names[0]).unwrap();
            assert!(first.is_file() && first.len() == 0);
            for n in &names[1..] {
                let m = std::fs::symlink_metadata(n).unwrap();
                match links {
                    Links::Hard => assert_eq!((m.ino(), m.nlink()), (first.ino(), 20)),
                    _ => {
                        assert!(m.file_type().is_symlink());
                        let t = std::fs::read_link(n).unwrap();
                        assert_eq!(t, names[0].file_name().unwrap());
                    }
                }
            }
            let st = s.stat(Order::Sequential, &stop);
            assert_eq!((st.error, st.stats.ops(STAT)), (None, 20));
            let del = s.delete(Order::Random, &stop);
            assert!(del.error.is_none(), "{:?}", del.error);
            assert!(!root.exists());
        }
    }
}
