//! Writing an output file whole or not at all: the bytes go to a temporary name beside the
//! target, which is renamed over it only once complete, so an error never leaves a partial file.

use crate::ReportError;
use std::path::{Path, PathBuf};

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

/// Write `bytes` to `path` through a temporary file and a rename.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), ReportError> {
    write_with(path, |tmp| {
        std::fs::write(tmp, bytes).map_err(|e| e.to_string())
    })
}

/// Let `f` write the file at the temporary path it is given, then rename it to `path`; on any
/// error the temporary file is removed and `path` is left as it was.
pub fn write_with(
    path: &Path,
    f: impl FnOnce(&Path) -> Result<(), String>,
) -> Result<(), ReportError> {
    let tmp = temp_name(path);
    let res = f(&tmp).and_then(|()| std::fs::rename(&tmp, path).map_err(|e| e.to_string()));
    match res {
        Ok(()) => Ok(()),
        Err(detail) => {
            let _ = std::fs::remove_file(&tmp);
            Err(ReportError::Export {
                path: path.to_path_buf(),
                detail: format!("cannot write: {detail}"),
            })
        }
    }
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
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
