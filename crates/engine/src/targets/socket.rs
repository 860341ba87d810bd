//! The path of a unix-socket listener: binding creates a socket there, so a socket an
//! earlier run left at the path is removed first (by the run's gate of named files, see
//! `runner::steps::remove_stale_socket`); anything else at the path (a file, a directory, a
//! link, a device) is never removed: the run is refused before any I/O.

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
