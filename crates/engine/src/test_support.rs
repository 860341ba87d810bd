//! Helpers for tests: one temporary-directory type for every unit test of the engine and of the
//! front ends (enabled in other crates' tests through the `test-support` feature).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// A unique directory, removed with everything in it on drop.
pub struct TempDir(pub PathBuf);

impl TempDir {
    /// A new directory in the default temporary directory.
    pub fn new(tag: &str) -> TempDir {
        TempDir::new_in(&std::env::temp_dir(), tag)
    }

    /// A new directory under `base` (e.g. /dev/shm for tmpfs).
    pub(crate) fn new_in(base: &Path, tag: &str) -> TempDir {
        static N: AtomicU64 = AtomicU64::new(0);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.subsec_nanos())
            .unwrap_or(0);
        let p = base.join(format!(
            "iomark-test-{tag}-{}-{}-{nanos}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&p).unwrap();
        TempDir(p)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }

    /// `name` inside the directory.
    pub fn join(&self, name: impl AsRef<Path>) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
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
