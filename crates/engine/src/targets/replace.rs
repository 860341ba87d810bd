//! Replacing a named file: what a creating pass (iozone's write test, which makes its file anew
//! as iozone does) removes at its path just before it creates the file with `O_EXCL`. The run's
//! gate checked the path before any step; this looks again at the moment of removal, without
//! following a link, so that what is removed is only ever a regular file (or a symbolic link
//! itself, never what it points to) and never the backing file of a loop device.

use std::io;
use std::path::Path;

/// Remove what is at `path` so that a new file can be created there: nothing there is fine; a
/// regular file that backs no loop device, or a symbolic link (the link itself), is removed;
/// anything else (a directory, a device, a FIFO, a socket, a loop device's backing file) is
/// refused with an error that names it, and stays.
pub fn remove_for_replace(path: &Path) -> io::Result<()> {
    let meta = match std::fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e),
    };
    let t = meta.file_type();
    if !(t.is_file() || t.is_symlink()) {
        return Err(io::Error::other(format!(
            "{} is not a regular file: it is kept",
            path.display()
        )));
    }
    if t.is_file() {
        if let Some(dev) = super::loops_backed_by(path).first() {
            return Err(io::Error::other(format!(
                "{} backs the loop device {}: it is kept",
                path.display(),
                dev.display()
            )));
        }
    }
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn removes_files_and_links_only() {
        let d = tempfile::tempdir().unwrap();
        let f = d.path().join("f");
        std::fs::write(&f, b"x").unwrap();
        remove_for_replace(&f).unwrap();
        assert!(!f.exists());
        // Nothing there: nothing to do.
        remove_for_replace(&f).unwrap();
        // A link goes, what it points to stays.
        let kept = d.path().join("kept");
        std::fs::write(&kept, b"y").unwrap();
        let link = d.path().join("link");
        std::os::unix::fs::symlink(&kept, &link).unwrap();
        remove_for_replace(&link).unwrap();
        assert!(std::fs::symlink_metadata(&link).is_err());
        assert_eq!(std::fs::read(&kept).unwrap(), b"y");
        // A directory is refused and stays.
        let sub = d.path().join("sub");
        std::fs::create_dir(&sub).unwrap();
        let e = remove_for_replace(&sub).unwrap_err();
        assert!(e.to_string().contains("not a regular file"), "{e}");
        assert!(sub.is_dir());
    }
}
