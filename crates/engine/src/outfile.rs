//! Output files (reports, result files, logs, exports): checked before any I/O and written
//! whole or not at all. A regular file is written to a temporary name beside it and renamed
//! over it once complete. Never written: a block device, a directory or socket, a character
//! device other than the null device or a terminal, a job's target (data file or device), a
//! new file on the device filesystem (`/dev`). A FIFO, `/dev/null` or a terminal (e.g.
//! `/dev/stdout`) receives the bytes as a stream.

use crate::job::{JobSpec, RunPlan};
use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::{FileTypeExt, MetadataExt, OpenOptionsExt};
use std::path::{Component, Path, PathBuf};

impl JobSpec {
    /// The files clone `clone` of this job uses: its filenames, or its generated names in its
    /// directory (`directory=`, else the working directory).
    pub(crate) fn clone_paths(&self, clone: u32) -> Vec<PathBuf> {
        if !self.filenames.is_empty() {
            return self.filenames.clone();
        }
        let dir = if self.directories.is_empty() {
            PathBuf::from(".")
        } else {
            self.directories[clone as usize % self.directories.len()].clone()
        };
        (0..self.nrfiles.max(1))
            .map(|f| dir.join(self.file_names.expand(&self.name, clone, f)))
            .collect()
    }
}

/// Every file or device the jobs of a plan use.
pub fn plan_targets(plan: &RunPlan) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = Vec::new();
    for j in &plan.jobs {
        if j.ioengine.is_diskless() {
            continue;
        }
        for c in 0..j.numjobs.max(1) {
            for p in j.clone_paths(c) {
                if !out.contains(&p) {
                    out.push(p);
                }
            }
            if !j.filenames.is_empty() {
                break;
            }
        }
    }
    out
}

/// `path` made absolute, `.` and `..` resolved, symbolic links of its existing part followed.
fn absolute(path: &Path) -> PathBuf {
    if let Ok(c) = fs::canonicalize(path) {
        return c;
    }
    let abs = std::env::current_dir()
        .map(|d| d.join(path))
        .unwrap_or_else(|_| path.to_path_buf());
    let mut out = PathBuf::new();
    for c in abs.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            c => out.push(c),
        }
    }
    match (out.parent(), out.file_name()) {
        (Some(p), Some(n)) => fs::canonicalize(p).map(|p| p.join(n)).unwrap_or(out),
        _ => out,
    }
}

/// The null device or a terminal: character devices a report may be streamed to.
fn harmless_char_device(rdev: u64) -> bool {
    let (ma, mi) = (
        libc::major(rdev as libc::dev_t),
        libc::minor(rdev as libc::dev_t),
    );
    (ma == 1 && mi == 3) || ma == 4 || ma == 5 || (136..=143).contains(&ma)
}

/// An output file refused, or not written.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    #[error("an output file name is empty")]
    EmptyName,
    /// The path is a device, a directory or a socket (`what` says which).
    #[error("refusing to write output to {}: it is {what}, not a regular file", path.display())]
    NotRegular { path: PathBuf, what: &'static str },
    /// The path is (or will be) a file or device a job of the run does I/O on.
    #[error("refusing to write output to {}: it is the target of a job ({})", path.display(), target.display())]
    JobTarget { path: PathBuf, target: PathBuf },
    /// A new file on the device filesystem.
    #[error("refusing to write output to {}: no such device, and iomark creates no files on the device filesystem", path.display())]
    NoSuchDevice { path: PathBuf },
}

/// Refuses an output path that would destroy something: see the module documentation.
/// `targets` are the files and devices of the run's jobs. The error says why, naming the path.
pub fn check_output(path: &Path, targets: &[PathBuf]) -> Result<(), OutputError> {
    if path.as_os_str().is_empty() {
        return Err(OutputError::EmptyName);
    }
    if let Ok(m) = fs::metadata(path) {
        let t = m.file_type();
        let what = if t.is_block_device() {
            Some("a block device")
        } else if t.is_dir() {
            Some("a directory")
        } else if t.is_socket() {
            Some("a socket")
        } else if t.is_char_device() && !harmless_char_device(m.rdev()) {
            Some("a character device")
        } else {
            None
        };
        if let Some(what) = what {
            return Err(OutputError::NotRegular {
                path: path.to_path_buf(),
                what,
            });
        }
        for t in targets {
            let same = fs::metadata(t).is_ok_and(|tm| tm.dev() == m.dev() && tm.ino() == m.ino());
            if same && (m.is_file() || m.file_type().is_char_device()) {
                return Err(OutputError::JobTarget {
                    path: path.to_path_buf(),
                    target: t.clone(),
                });
            }
        }
        return Ok(());
    }
    let abs = absolute(path);
    if let Some(t) = targets.iter().find(|t| absolute(t) == abs) {
        return Err(OutputError::JobTarget {
            path: path.to_path_buf(),
            target: t.clone(),
        });
    }
    if crate::targets::missing_device_path(path) {
        return Err(OutputError::NoSuchDevice {
            path: path.to_path_buf(),
        });
    }
    Ok(())
}

/// The temporary name used while `path` is being written: hidden, beside it, with the same
/// extension (image encoders choose the format by it).
pub fn temp_name(path: &Path) -> PathBuf {
    let stem = path
        .file_stem()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".into());
    let ext = path
        .extension()
        .map(|e| format!(".{}", e.to_string_lossy()))
        .unwrap_or_default();
    path.with_file_name(format!(".{stem}.tmp{}{ext}", std::process::id()))
}

/// Where the bytes for `path` really go: a symbolic link's existing destination (the link
/// stays a link), else the path itself.
fn destination(path: &Path) -> PathBuf {
    match fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => fs::canonicalize(path).unwrap_or(absolute(path)),
        _ => path.to_path_buf(),
    }
}

/// A FIFO, the null device or a terminal: written as a stream, never replaced.
fn is_stream(path: &Path) -> bool {
    fs::metadata(path).is_ok_and(|m| {
        let t = m.file_type();
        t.is_fifo() || t.is_char_device()
    })
}

/// Where a stream of output for `path` is written while it grows: its temporary name (renamed
/// by [`commit`]), or `path` itself for a FIFO, the null device or a terminal.
pub fn staging(path: &Path) -> PathBuf {
    if is_stream(path) {
        path.to_path_buf()
    } else {
        temp_name(&destination(path))
    }
}

/// Puts a stream written at [`staging`]`(path)` in place.
pub fn commit(staged: &Path, path: &Path) -> io::Result<()> {
    if staged == path {
        return Ok(());
    }
    fs::rename(staged, destination(path))
}

/// Let `f` write the file at the temporary path it is given, then rename it over `path`; on
/// any error the temporary file is removed and `path` is left as it was. A stream (FIFO, null
/// device, terminal) is written directly. Call [`check_output`] first.
pub fn write_with<E: From<io::Error>>(
    path: &Path,
    f: impl FnOnce(&Path) -> Result<(), E>,
) -> Result<(), E> {
    if is_stream(path) {
        return f(path);
    }
    let dest = destination(path);
    let tmp = temp_name(&dest);
    let res = f(&tmp).and_then(|()| fs::rename(&tmp, &dest).map_err(E::from));
    if res.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    res
}

/// Write `bytes` to `path` (see [`write_with`]): a new file created beside it (never opening
/// an existing one), then renamed.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let stream = is_stream(path);
    write_with(path, |tmp| {
        let mut o = OpenOptions::new();
        o.write(true);
        if !stream {
            o.create_new(true).mode(0o644);
        }
        o.open(tmp).and_then(|mut f| f.write_all(bytes))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::TempDir;

    #[test]
    fn outputs_never_replace_what_they_must_not() {
        let d = TempDir::new("outfile");
        let data = d.path().join("data");
        fs::write(&data, b"user data").unwrap();
        let targets = vec![data.clone()];
        // The target itself, also through another spelling or a hard link.
        for p in [
            data.clone(),
            d.path().join(".").join("data"),
            d.path().join("link"),
        ] {
            if p.ends_with("link") {
                fs::hard_link(&data, &p).unwrap();
            }
            let e = check_output(&p, &targets).unwrap_err();
            assert!(matches!(e, OutputError::JobTarget { .. }), "{e}");
        }
        // A target the run has yet to create.
        let later = d.path().join("later");
        let e = check_output(&later, std::slice::from_ref(&later)).unwrap_err();
        assert!(matches!(e, OutputError::JobTarget { .. }), "{e}");
        // Directories and devices.
        let e = check_output(d.path(), &[]).unwrap_err();
        assert!(
            matches!(e, OutputError::NotRegular { what, .. } if what == "a directory"),
            "{e}"
        );
        let e = check_output(Path::new("/dev/iomark-no-such"), &[]).unwrap_err();
        assert!(matches!(e, OutputError::NoSuchDevice { .. }), "{e}");
        assert!(check_output(Path::new("/dev/null"), &[]).is_ok());
        // A new file and an existing report are fine; writing replaces the report whole and
        // leaves no temporary file behind.
        let out = d.path().join("report.json");
        assert!(check_output(&out, &targets).is_ok());
        write_atomic(&out, b"one").unwrap();
        write_atomic(&out, b"two").unwrap();
        assert_eq!(fs::read(&out).unwrap(), b"two");
        // A symbolic link keeps pointing at the (rewritten) file.
        let sl = d.path().join("sl");
        std::os::unix::fs::symlink(&out, &sl).unwrap();
        write_atomic(&sl, b"three").unwrap();
        assert!(fs::symlink_metadata(&sl).unwrap().file_type().is_symlink());
        assert_eq!(fs::read(&out).unwrap(), b"three");
        write_atomic(Path::new("/dev/null"), b"gone").unwrap();
        let mut names: Vec<_> = fs::read_dir(d.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(names, ["data", "link", "report.json", "sl"]);
        // Generated names of a job without filenames are its targets.
        let j = JobSpec {
            name: "j".into(),
            numjobs: 2,
            ..Default::default()
        };
        let plan = RunPlan {
            jobs: vec![j],
            ..Default::default()
        };
        assert_eq!(
            plan_targets(&plan),
            [PathBuf::from("./j.0.0"), PathBuf::from("./j.1.0")]
        );
    }
}
