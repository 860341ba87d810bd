//! Where a preset runs, safe by default: a temporary file in the current directory (or in
//! TARGET when it is a directory), removed afterwards; an existing file or a device only with
//! `--allow-write`, because every preset writes; and no file larger than the free space. A Ceph
//! RBD image (`rbd:POOL/IMAGE`) is an existing device reached through librbd.

use iomark_engine::targets;
use std::path::{Path, PathBuf};

/// The chosen target.
#[derive(Clone, Debug, PartialEq)]
pub struct Target {
    pub path: PathBuf,
    /// `path` is a temporary file the caller removes after the run (and on a signal).
    pub temp: bool,
    /// Bytes the jobs use.
    pub size: u64,
    /// O_DIRECT works there.
    pub direct: bool,
    /// What the user should know about these choices.
    pub notices: Vec<String>,
}

/// Why a preset cannot run where it was asked to.
#[derive(Debug, thiserror::Error)]
pub enum TargetError {
    #[error("{0} does not exist (give a directory, a file or a block device)")]
    Missing(PathBuf),
    #[error("{} is an existing {}; the test writes to it, destroying its data: pass --allow-write to do that, or give a directory to test with a temporary file", path.display(), if *device { "device" } else { "file" })]
    NeedsAllowWrite { path: PathBuf, device: bool },
    #[error("refusing to lay out {} MiB in {}: only {} MiB are free on that filesystem (use a smaller size or another directory)", need >> 20, dir.display(), free >> 20)]
    NoSpace { need: u64, free: u64, dir: PathBuf },
    #[error("cannot create the test file in {}: read-only file system (give a writable directory)", .0.display())]
    ReadOnlyFs(PathBuf),
    #[error("cannot create the test file in {}: {source} (give a directory you may write to)", dir.display())]
    NotWritable {
        dir: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot use {}: {source}", dir.display())]
    Unusable {
        dir: PathBuf,
        source: std::io::Error,
    },
}

/// The Ceph RBD image `target` names as `rbd:POOL/IMAGE`: (pool, image).
pub fn rbd_image(target: &Path) -> Option<(String, String)> {
    target.to_str()?.strip_prefix("rbd:")?;
    crate::rbd_bench::image::image_spec(target)
}

/// Choose the target for preset `name`. `size` is the preset's size, `size_given` whether the
/// user chose it (a default is shrunk to half the free space; a given size is refused when it
/// does not fit).
pub fn choose(
    name: &str,
    target: Option<&Path>,
    allow_write: bool,
    size: u64,
    size_given: bool,
) -> Result<Target, TargetError> {
    let mut notices = Vec::new();
    let dir = match target {
        None => PathBuf::from("."),
        Some(p) if p.is_dir() => p.to_path_buf(),
        Some(p) if p.exists() => {
            let device = p.metadata().map(|m| !m.is_file()).unwrap_or(false);
            if !allow_write {
                return Err(TargetError::NeedsAllowWrite {
                    path: p.to_path_buf(),
                    device,
                });
            }
            let parent = p
                .parent()
                .filter(|d| !d.as_os_str().is_empty())
                .unwrap_or(Path::new("."));
            let direct = device || crate::quick::direct_supported(parent);
            return Ok(Target {
                path: p.to_path_buf(),
                temp: false,
                size,
                direct,
                notices,
            });
        }
        Some(p) => return Err(TargetError::Missing(p.to_path_buf())),
    };
    // Whether a file can be made there at all, before its free space and direct I/O are
    // probed: a read-only or forbidden directory is said as such, not as a lack of space.
    match crate::quick::probe_create(&dir) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::ReadOnlyFilesystem => {
            return Err(TargetError::ReadOnlyFs(dir))
        }
        Err(source) => return Err(TargetError::NotWritable { dir, source }),
    }
    let free = targets::free_space(&dir).map_err(|source| TargetError::Unusable {
        dir: dir.clone(),
        source,
    })?;
    let mut size = size;
    if size_given {
        if size > free {
            return Err(TargetError::NoSpace {
                need: size,
                free,
                dir,
            });
        }
    } else {
        let cap = (free / 2) & !((1 << 20) - 1);
        if cap < (16 << 20) {
            return Err(TargetError::NoSpace {
                need: 32 << 20,
                free,
                dir,
            });
        }
        if size > cap {
            notices.push(format!(
                "shrinking the test file from {} MiB to {} MiB to fit the free space of {} ({} MiB free)",
                size >> 20,
                cap >> 20,
                dir.display(),
                free >> 20
            ));
            size = cap;
        }
    }
    let direct = crate::quick::direct_supported(&dir);
    if !direct {
        notices.push(
            "the filesystem does not support direct I/O; using buffered I/O (figures may include the page cache)"
                .to_string(),
        );
    }
    Ok(Target {
        path: dir.join(format!("iomark-{name}.{}.tmp", std::process::id())),
        temp: true,
        size,
        direct,
        notices,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals() {
        let e = choose(
            "x",
            Some(Path::new("/nonexistent/t")),
            false,
            1 << 20,
            false,
        );
        assert!(matches!(e, Err(TargetError::Missing(_))));
        // An existing file is written only with --allow-write.
        let dir = std::env::temp_dir().join(format!("iomark-target-test.{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("f");
        std::fs::write(&f, b"keep").unwrap();
        let e = choose("x", Some(&f), false, 1 << 20, false).unwrap_err();
        assert!(e.to_string().contains("is an existing file"), "{e}");
        let t = choose("x", Some(&f), true, 1 << 20, false).unwrap();
        assert!(!t.temp && t.path == f);
        // A size larger than the free space is refused, naming both.
        let e = choose("x", Some(&dir), false, u64::MAX / 2, true).unwrap_err();
        assert!(e.to_string().starts_with("refusing to lay out"), "{e}");
        // A directory gets a temporary file inside it.
        let t = choose("backup-repo", Some(&dir), false, 1 << 20, false).unwrap();
        assert!(t.temp && t.path.starts_with(&dir));
        assert!(t.path.to_string_lossy().contains("iomark-backup-repo."));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn rbd_images_need_the_prefix() {
        assert_eq!(
            rbd_image(Path::new("rbd:rbd/img")),
            Some(("rbd".into(), "img".into()))
        );
        // A relative path stays a path for a preset.
        assert_eq!(rbd_image(Path::new("rbd/img")), None);
        assert_eq!(rbd_image(Path::new("rbd:img")), None);
    }

    #[test]
    fn devices_need_allow_write() {
        let e = choose("x", Some(Path::new("/dev/null")), false, 1 << 20, false).unwrap_err();
        assert!(e.to_string().contains("existing device"), "{e}");
    }
}
