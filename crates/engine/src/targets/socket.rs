//! The path of a unix-socket listener: binding creates a socket there, so a socket an
//! earlier run left at the path is removed first; anything else at the path (a file, a
//! directory, a link, a device) is never removed: the run is refused before any I/O, and the
//! removal itself looks again (without following a link) at the moment it removes.

use std::io;
use std::os::unix::fs::FileTypeExt;
use std::path::Path;

/// What is at `path` if it is something a listener must not remove: `None` when nothing is
/// there or a socket is (which the listener replaces).
pub fn not_a_socket(path: &Path) -> Option<&'static str> {
    let t = std::fs::symlink_metadata(path).ok()?.file_type();
    match () {
        _ if t.is_socket() => None,
        _ if t.is_symlink() => Some("a symbolic link"),
        _ if t.is_dir() => Some("a directory"),
        _ if t.is_file() => Some("a regular file"),
        _ if t.is_fifo() => Some("a FIFO"),
        _ if t.is_block_device() || t.is_char_device() => Some("a device node"),
        _ => Some("a special file"),
    }
}

/// Remove the socket an earlier run left at `path` (nothing there: nothing to do); anything
/// else at the path is an error and stays.
pub(crate) fn remove_stale_socket(path: &Path) -> io::Result<()> {
    if let Some(what) = not_a_socket(path) {
        return Err(io::Error::new(
            io::ErrorKind::AlreadyExists,
            format!(
                "{} is {what}, not a socket: a listener replaces only a socket",
                path.display()
            ),
        ));
    }
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::TempDir;

    #[test]
    fn only_a_socket_is_removed() {
        let d = TempDir::new("socket-gate");
        let sock = d.join("s");
        let l = std::os::unix::net::UnixListener::bind(&sock).unwrap();
        drop(l);
        assert_eq!(not_a_socket(&sock), None);
        remove_stale_socket(&sock).unwrap();
        assert!(!sock.exists());
        // Nothing there: nothing to do.
        remove_stale_socket(&sock).unwrap();
        let file = d.join("f");
        std::fs::write(&file, b"keep").unwrap();
        assert_eq!(not_a_socket(&file), Some("a regular file"));
        assert!(remove_stale_socket(&file).is_err());
        assert_eq!(std::fs::read(&file).unwrap(), b"keep");
        // A link to a socket is a link: neither it nor the socket goes.
        let s2 = d.join("s2");
        let _l2 = std::os::unix::net::UnixListener::bind(&s2).unwrap();
        let link = d.join("l");
        std::os::unix::fs::symlink(&s2, &link).unwrap();
        assert_eq!(not_a_socket(&link), Some("a symbolic link"));
        assert!(remove_stale_socket(&link).is_err());
        assert!(link.symlink_metadata().is_ok() && s2.exists());
        assert_eq!(not_a_socket(&d.join("missing")), None);
    }
}
