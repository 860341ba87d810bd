//! Writing an output file whole or not at all: the bytes go to a temporary name beside the
//! target, which is renamed over it only once complete, so an error never leaves a partial file;
//! a device, a directory or a new file under `/dev` is refused (`iomark_output::outfile`).

use crate::ReportError;
use iomark_output::outfile;
use std::path::Path;

/// Why writing an output at its temporary path failed: an encoder's error or the system's.
pub type WriteFailure = Box<dyn std::error::Error + Send + Sync>;

pub use outfile::temp_name;

/// Write `bytes` to `path` through a temporary file and a rename.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), ReportError> {
    write_with(path, |tmp| Ok(std::fs::write(tmp, bytes)?))
}

/// Let `f` write the file at the temporary path it is given, then rename it to `path`; on any
/// error the temporary file is removed and `path` is left as it was.
pub fn write_with(
    path: &Path,
    f: impl FnOnce(&Path) -> Result<(), WriteFailure>,
) -> Result<(), ReportError> {
    let export = |detail: String| ReportError::Export {
        path: path.to_path_buf(),
        detail,
    };
    outfile::check_output(path, &[]).map_err(|e| export(e.to_string()))?;
    outfile::write_with(path, f).map_err(|e| export(format!("cannot write: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failed_writes_leave_nothing() {
        let dir = std::env::temp_dir().join(format!("iomark-report-out-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("a.html");
        assert!(write_with(&p, |t| {
            std::fs::write(t, b"half").unwrap();
            Err("boom".into())
        })
        .is_err());
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
        write_atomic(&p, b"whole").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"whole");
        // Never onto a device.
        assert!(write_atomic(Path::new("/dev/iomark-no-such"), b"x").is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
