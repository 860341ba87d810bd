//! What can go wrong talking to Ceph, in words an operator can act on.

use std::fmt;

/// An error from the Ceph client libraries or from loading them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CephError {
    /// The client library is not installed (or lacks a function iomark needs).
    Missing {
        library: &'static str,
        package: &'static str,
        detail: String,
    },
    /// A call failed: what was being done and the negative errno Ceph returned.
    Call { what: String, errno: i32 },
    /// A name or value that cannot be passed to C (an embedded NUL byte).
    BadName(String),
}

impl CephError {
    /// The error of a failed call `what` that returned `ret` (< 0).
    pub(crate) fn call(what: impl Into<String>, ret: i64) -> CephError {
        CephError::Call {
            what: what.into(),
            errno: (-ret) as i32,
        }
    }

    /// The errno of a failed call (0 for the other errors).
    pub fn errno(&self) -> i32 {
        match self {
            CephError::Call { errno, .. } => *errno,
            _ => 0,
        }
    }
}

/// What an errno means for a Ceph client, where a hint helps.
fn hint(errno: i32) -> &'static str {
    match errno {
        libc::ENOENT => " (no such pool, image or object)",
        libc::EACCES | libc::EPERM => {
            " (the client's key or capabilities were refused: check --id/--name and the keyring)"
        }
        libc::ETIMEDOUT => {
            " (no answer in time: is a monitor running and reachable at the configured mon_host?)"
        }
        libc::EBUSY => " (in use)",
        _ => "",
    }
}

impl fmt::Display for CephError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CephError::Missing {
                library,
                package,
                detail,
            } => f.write_str(&missing(library, package, detail, STATIC_BUILD)),
            CephError::Call { what, errno } => {
                let e = std::io::Error::from_raw_os_error(*errno).to_string();
                let e = e.split(" (os error ").next().unwrap_or_default();
                write!(f, "{what}: {e}{}", hint(*errno))
            }
            CephError::BadName(s) => write!(f, "{s:?} contains a NUL byte"),
        }
    }
}

/// This binary is linked statically (the musl build): it cannot load shared libraries at all.
const STATIC_BUILD: bool = cfg!(target_feature = "crt-static");

/// Why a client library did not load and what to do: install it, or, from a statically linked
/// binary (which cannot load any), use the dynamically linked build.
fn missing(library: &str, package: &str, detail: &str, static_build: bool) -> String {
    if static_build {
        format!(
            "cannot load Ceph's client library {library} ({detail}): this iomark is statically \
             linked, and a static binary cannot load shared libraries; for Ceph use the \
             dynamically linked build (cargo build --release, or the .deb package)"
        )
    } else {
        format!(
            "cannot load Ceph's client library {library} ({detail}); install it \
             (Debian/Ubuntu: apt-get install {package}; Fedora/RHEL: dnf install {package})"
        )
    }
}

impl std::error::Error for CephError {}

impl From<CephError> for std::io::Error {
    fn from(e: CephError) -> Self {
        match e {
            CephError::Call { errno, .. } => std::io::Error::new(
                std::io::Error::from_raw_os_error(errno).kind(),
                e.to_string(),
            ),
            _ => std::io::Error::other(e.to_string()),
        }
    }
}

/// A C string of `s`.
pub(crate) fn cstr(s: &str) -> Result<std::ffi::CString, CephError> {
    std::ffi::CString::new(s).map_err(|_| CephError::BadName(s.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_library_names_its_package_or_the_build_that_loads_it() {
        let m = missing("librbd.so.1", "librbd1", "not found", false);
        assert!(m.contains("apt-get install librbd1"), "{m}");
        let m = missing(
            "librbd.so.1",
            "librbd1",
            "Dynamic loading not supported",
            true,
        );
        assert!(
            m.contains("statically linked") && m.contains("dynamically linked build"),
            "{m}"
        );
        assert!(!m.contains("apt-get"), "{m}");
    }
}
