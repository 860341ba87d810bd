//! Output files (reports, result files, logs, exports): checked before any I/O and written
//! whole or not at all. A regular file is written to a temporary name beside it and renamed
//! over it once complete. Never written: a block device, a directory or socket, a character
//! device other than the null device or a terminal, a job's target (data file or device), a
//! new file on the device filesystem (`/dev`). A FIFO, `/dev/null` or a terminal (e.g.
//! `/dev/stdout`) receives the bytes as a stream. Never written either: a file the command
//! reads as an input (same device and inode, so also through a symbolic or hard link): inputs
//! read with [`read_input`] or named with [`note_input`] are remembered for the process.
//!
//! An existing output keeps what it is: through a symbolic link the link's destination is
//! written (the link stays a link); the new file takes the old one's owner and mode; a file
//! with other hard links is rewritten in place (same inode), so every name sees the new
//! bytes.
//!
//! Inputs (result files, spec files) are read with [`read_input`]: regular files only, at most
//! a stated size, so a device (`/dev/zero`) or a FIFO is an error rather than endless memory
//! or a hang.

use iomark_engine::engines::Capabilities;
use iomark_engine::job::RunPlan;
use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::{FileTypeExt, MetadataExt, OpenOptionsExt};
use std::path::{Component, Path, PathBuf};
use std::sync::Mutex;

/// The largest result file (iomark's or fio's JSON) the result tools read: 256 MiB, far
/// above a merge of many ranks with full histograms, small enough that `/dev/zero` or a
/// runaway file ends in an error instead of eating memory.
pub const MAX_RESULT_BYTES: u64 = 256 << 20;

/// The inputs of this process (device, inode, the name given), which no output may replace.
static INPUTS: Mutex<Vec<(u64, u64, PathBuf)>> = Mutex::new(Vec::new());

fn remember(dev: u64, ino: u64, path: &Path) {
    let mut v = INPUTS.lock().unwrap_or_else(|e| e.into_inner());
    if !v.iter().any(|(d, i, _)| *d == dev && *i == ino) {
        v.push((dev, ino, path.to_path_buf()));
    }
}

/// Remember `path` (when it exists, through symbolic links) as an input of this command: no
/// output is written over it. A directory's regular files are inputs too; what is not a
/// regular file (a FIFO, `/dev/null`) is not remembered.
pub fn note_input(path: &Path) {
    let Ok(m) = fs::metadata(path) else { return };
    if m.is_dir() {
        for e in fs::read_dir(path).into_iter().flatten().flatten() {
            let p = e.path();
            if let Ok(m) = fs::metadata(&p) {
                if m.is_file() {
                    remember(m.dev(), m.ino(), &p);
                }
            }
        }
    } else if m.is_file() {
        remember(m.dev(), m.ino(), path);
    }
}

/// The input an existing file is, if it is one.
fn input_named(m: &fs::Metadata) -> Option<PathBuf> {
    let v = INPUTS.lock().unwrap_or_else(|e| e.into_inner());
    v.iter()
        .find(|(d, i, _)| *d == m.dev() && *i == m.ino())
        .map(|(_, _, p)| p.clone())
}

/// What a file that is not regular is, in words.
fn kind_of(t: &fs::FileType) -> &'static str {
    if t.is_dir() {
        "a directory"
    } else if t.is_fifo() {
        "a FIFO (named pipe)"
    } else if t.is_char_device() {
        "a character device"
    } else if t.is_block_device() {
        "a block device"
    } else if t.is_socket() {
        "a socket"
    } else {
        "not a regular file"
    }
}

/// Read the input at `path` whole: a regular file of at most `cap` bytes, else an error that
/// says what it is or states the cap (`what` names the kind of input: "a result file"). A
/// FIFO is refused without waiting for a writer. The file is remembered as an input
/// ([`note_input`]).
pub fn read_input(path: &Path, cap: u64, what: &str) -> io::Result<Vec<u8>> {
    use std::io::Read;
    let not_regular = |t: &fs::FileType| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("it is {}, not a regular file", kind_of(t)),
        )
    };
    let too_large = || {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "larger than {} MiB, the most iomark reads as {what}",
                cap >> 20
            ),
        )
    };
    let m = fs::metadata(path)?;
    if !m.is_file() {
        return Err(not_regular(&m.file_type()));
    }
    let f = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)?;
    let m = f.metadata()?;
    if !m.is_file() {
        return Err(not_regular(&m.file_type()));
    }
    if m.len() > cap {
        return Err(too_large());
    }
    remember(m.dev(), m.ino(), path);
    let mut out = Vec::with_capacity(m.len() as usize);
    f.take(cap + 1).read_to_end(&mut out)?;
    if out.len() as u64 > cap {
        return Err(too_large());
    }
    Ok(out)
}

/// Every file or device the jobs of a plan use.
pub fn plan_targets(plan: &RunPlan) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for j in &plan.jobs {
        if j.ioengine.is_diskless() {
            continue;
        }
        for c in 0..j.numjobs.max(1) {
            for p in j.clone_paths(c) {
                if seen.insert(p.clone()) {
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
    /// A directory for outputs is something else.
    #[error("refusing to write output into {}: it is {what}, not a directory", path.display())]
    NotDirectory { path: PathBuf, what: &'static str },
    /// The directory the file would be written in is missing or not a directory.
    #[error("cannot write output to {}: no such directory {}", path.display(), dir.display())]
    NoDirectory { path: PathBuf, dir: PathBuf },
    /// The directory the file would be written in refuses new files.
    #[error("cannot write output to {}: cannot create files in {}: {error}", path.display(), dir.display())]
    Unwritable {
        path: PathBuf,
        dir: PathBuf,
        error: io::Error,
    },
    /// The path is (also through a link) a file this command reads.
    #[error("refusing to write output to {}: it is an input of this command ({})", path.display(), input.display())]
    Input { path: PathBuf, input: PathBuf },
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
        if let Some(input) = input_named(&m) {
            return Err(OutputError::Input {
                path: path.to_path_buf(),
                input,
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
        if t.is_fifo() || t.is_char_device() {
            return Ok(());
        }
        return writable_parent(path);
    }
    let abs = absolute(path);
    if let Some(t) = targets.iter().find(|t| absolute(t) == abs) {
        return Err(OutputError::JobTarget {
            path: path.to_path_buf(),
            target: t.clone(),
        });
    }
    if iomark_engine::targets::missing_device_path(path) {
        return Err(OutputError::NoSuchDevice {
            path: path.to_path_buf(),
        });
    }
    writable_parent(path)
}

/// Whether new files can be made in `dir` (its permissions, a read-only filesystem).
fn can_create_in(dir: &Path) -> io::Result<()> {
    use std::os::unix::ffi::OsStrExt;
    let c = std::ffi::CString::new(dir.as_os_str().as_bytes())
        .map_err(|_| io::Error::from(io::ErrorKind::InvalidInput))?;
    // SAFETY: c is a valid NUL-terminated path.
    if unsafe { libc::access(c.as_ptr(), libc::W_OK | libc::X_OK) } == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

/// The directory the bytes for `path` are written in (its temporary file and rename) exists
/// and takes new files.
fn writable_parent(path: &Path) -> Result<(), OutputError> {
    let dest = destination(path);
    let dir = match dest.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    if !dir.is_dir() {
        return Err(OutputError::NoDirectory {
            path: path.to_path_buf(),
            dir,
        });
    }
    can_create_in(&dir).map_err(|error| OutputError::Unwritable {
        path: path.to_path_buf(),
        dir,
        error,
    })
}

/// Refuses a directory outputs are written into (chart images, a report directory) when it
/// cannot be: an existing path that is not a directory, or one that cannot be made or written
/// (its nearest existing ancestor refuses new files).
pub fn check_output_dir(dir: &Path) -> Result<(), OutputError> {
    if dir.as_os_str().is_empty() {
        return Err(OutputError::EmptyName);
    }
    let mut d = dir.to_path_buf();
    loop {
        match fs::metadata(&d) {
            Ok(m) if m.is_dir() => {
                return can_create_in(&d).map_err(|error| OutputError::Unwritable {
                    path: dir.to_path_buf(),
                    dir: d,
                    error,
                })
            }
            Ok(m) => {
                return Err(OutputError::NotDirectory {
                    path: d,
                    what: if m.is_file() {
                        "a regular file"
                    } else {
                        kind_of(&m.file_type())
                    },
                })
            }
            Err(_) if d.as_os_str() == "." => {
                return Err(OutputError::NoDirectory {
                    path: dir.to_path_buf(),
                    dir: d,
                })
            }
            Err(_) => {
                if !d.pop() || d.as_os_str().is_empty() {
                    d = PathBuf::from(".");
                }
            }
        }
    }
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
    put_in_place(staged, &destination(path))
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
    let res = f(&tmp).and_then(|()| put_in_place(&tmp, &dest).map_err(E::from));
    if res.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    res
}

/// Put the complete file `tmp` at `dest`: renamed over it, taking the old file's owner and
/// mode; a file with other hard links is rewritten in place (same inode).
fn put_in_place(tmp: &Path, dest: &Path) -> io::Result<()> {
    match fs::metadata(dest).ok().filter(|m| m.is_file()) {
        Some(m) if m.nlink() > 1 => {
            // Not fs::copy: it would also give the file the new one's mode.
            let r = fs::File::open(tmp).and_then(|mut from| {
                let mut to = OpenOptions::new().write(true).truncate(true).open(dest)?;
                io::copy(&mut from, &mut to).map(|_| ())
            });
            let _ = fs::remove_file(tmp);
            r
        }
        Some(m) => {
            keep_owner_and_mode(tmp, &m);
            fs::rename(tmp, dest)
        }
        None => fs::rename(tmp, dest),
    }
}

/// Give the new file `tmp` the owner and mode of the file it replaces (best effort: a user
/// may not give a file away).
fn keep_owner_and_mode(tmp: &Path, old: &fs::Metadata) {
    use std::os::unix::fs::PermissionsExt;
    let _ = std::os::unix::fs::chown(tmp, Some(old.uid()), Some(old.gid()));
    let _ = fs::set_permissions(tmp, fs::Permissions::from_mode(old.mode() & 0o7777));
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
fn forget_inputs_under(dir: &Path) {
    let mut v = INPUTS.lock().unwrap_or_else(|e| e.into_inner());
    v.retain(|(_, _, p)| !p.starts_with(dir));
}

#[cfg(test)]
mod tests {
    use super::*;
    use iomark_engine::job::JobSpec;
    use iomark_engine::test_support::TempDir;

    #[test]
    fn inputs_are_regular_capped_and_never_overwritten() {
        let d = TempDir::new("infile");
        let a = d.path().join("a.json");
        fs::write(&a, b"{}").unwrap();
        let other = d.path().join("b.json");
        fs::write(&other, b"{}").unwrap();
        assert!(check_output(&a, &[]).is_ok());
        assert_eq!(read_input(&a, 1 << 20, "a result file").unwrap(), b"{}");
        // The input itself, through a symbolic link, through a hard link.
        let sl = d.path().join("sl.json");
        std::os::unix::fs::symlink(&a, &sl).unwrap();
        let hl = d.path().join("hl.json");
        fs::hard_link(&a, &hl).unwrap();
        for p in [&a, &sl, &hl] {
            let e = check_output(p, &[]).unwrap_err();
            assert!(matches!(e, OutputError::Input { .. }), "{e}");
            assert!(
                e.to_string().contains("it is an input of this command"),
                "{e}"
            );
        }
        // Named (not yet read) inputs, also in a directory.
        let sub = d.path().join("reps");
        fs::create_dir(&sub).unwrap();
        let rep = sub.join("1.json");
        fs::write(&rep, b"{}").unwrap();
        assert!(check_output(&rep, &[]).is_ok());
        note_input(&sub);
        assert!(matches!(
            check_output(&rep, &[]),
            Err(OutputError::Input { .. })
        ));
        assert!(check_output(&other, &[]).is_ok());
        // The cap is stated; devices, FIFOs and directories are refused without reading.
        let big = d.path().join("big.json");
        fs::File::create(&big).unwrap().set_len(2 << 20).unwrap();
        let e = read_input(&big, 1 << 20, "a result file").unwrap_err();
        assert_eq!(
            e.to_string(),
            "larger than 1 MiB, the most iomark reads as a result file"
        );
        let e = read_input(Path::new("/dev/zero"), 1 << 20, "x").unwrap_err();
        assert_eq!(
            e.to_string(),
            "it is a character device, not a regular file"
        );
        let fifo = d.path().join("fifo");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: c is a valid path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let e = read_input(&fifo, 1 << 20, "x").unwrap_err();
        assert_eq!(
            e.to_string(),
            "it is a FIFO (named pipe), not a regular file"
        );
        let e = read_input(d.path(), 1 << 20, "x").unwrap_err();
        assert_eq!(e.to_string(), "it is a directory, not a regular file");
        // Outputs in a missing or read-only directory are refused before any work.
        let e = check_output(&d.path().join("no/such/r.html"), &[]).unwrap_err();
        assert!(matches!(e, OutputError::NoDirectory { .. }), "{e}");
        assert!(e.to_string().contains("no such directory"), "{e}");
        let e = check_output(&a.join("r.html"), &[]).unwrap_err();
        assert!(matches!(e, OutputError::NoDirectory { .. }), "{e}");
        assert!(check_output_dir(&d.path().join("new/images")).is_ok());
        let e = check_output_dir(&a.join("images")).unwrap_err();
        assert!(matches!(e, OutputError::NotDirectory { .. }), "{e}");
        // Before the files go (their inodes may be reused by another test's files).
        forget_inputs_under(d.path());
    }

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
        // A symbolic link keeps pointing at the (rewritten) file, which keeps its mode.
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(&out, fs::Permissions::from_mode(0o600)).unwrap();
        let sl = d.path().join("sl");
        std::os::unix::fs::symlink(&out, &sl).unwrap();
        write_atomic(&sl, b"three").unwrap();
        assert!(fs::symlink_metadata(&sl).unwrap().file_type().is_symlink());
        assert_eq!(fs::read(&out).unwrap(), b"three");
        assert_eq!(fs::metadata(&out).unwrap().mode() & 0o7777, 0o600);
        // A hard-linked output stays one inode: both names see the new bytes.
        let hl = d.path().join("hl");
        fs::hard_link(&out, &hl).unwrap();
        fs::set_permissions(&out, fs::Permissions::from_mode(0o640)).unwrap();
        let ino = fs::metadata(&out).unwrap().ino();
        write_atomic(&hl, b"four").unwrap();
        assert_eq!(fs::read(&out).unwrap(), b"four");
        assert_eq!(fs::metadata(&hl).unwrap().ino(), ino);
        assert_eq!(fs::metadata(&hl).unwrap().mode() & 0o7777, 0o640);
        fs::remove_file(&hl).unwrap();
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
