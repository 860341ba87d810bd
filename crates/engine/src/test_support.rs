//! Helpers for tests: one temporary-directory type for every unit test of the engine and of the
//! front ends (enabled in other crates' tests through the `test-support` feature).

use std::path::{Path, PathBuf};

/// A unique directory (made by the `tempfile` crate), removed with everything in it on drop.
pub struct TempDir(tempfile::TempDir);

impl TempDir {
    /// A new directory in the default temporary directory.
    pub fn new(tag: &str) -> TempDir {
        TempDir::new_in(&std::env::temp_dir(), tag)
    }

    /// A new directory under `base` (e.g. /dev/shm for tmpfs).
    pub(crate) fn new_in(base: &Path, tag: &str) -> TempDir {
        let dir = tempfile::Builder::new()
            .prefix(&format!("iomark-test-{tag}-"))
            .tempdir_in(base)
            .unwrap_or_else(|e| panic!("a temporary directory in {}: {e}", base.display()));
        TempDir(dir)
    }

    pub fn path(&self) -> &Path {
        self.0.path()
    }

    /// `name` inside the directory.
    pub fn join(&self, name: impl AsRef<Path>) -> PathBuf {
        self.0.path().join(name)
    }
}

/// The bases every data test runs on: the default temp dir (a real file system, ext4 here) and,
/// when present, tmpfs.
#[cfg(test)]
pub(crate) fn bases() -> Vec<PathBuf> {
    let mut v = vec![std::env::temp_dir()];
    let shm = PathBuf::from("/dev/shm");
    if shm.is_dir() {
        v.push(shm);
    }
    v
}

/// One temporary directory on each of [`bases`].
#[cfg(test)]
pub(crate) fn temp_dirs(tag: &str) -> Vec<TempDir> {
    bases().iter().map(|b| TempDir::new_in(b, tag)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unique_and_removed() {
        let a = TempDir::new("ts");
        let b = TempDir::new("ts");
        assert_ne!(a.path(), b.path());
        std::fs::write(a.join("f"), b"x").unwrap();
        let p = a.path().to_path_buf();
        drop(a);
        assert!(!p.exists());
        assert!(temp_dirs("ts").iter().all(|d| d.path().is_dir()));
    }
}
