//! What can go wrong talking to an NBD server, in words an operator can act on.

use std::fmt;

/// An error from libnbd or from loading it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NbdError {
    /// libnbd is not installed (or lacks a function iomark needs).
    Missing { detail: String },
    /// A call failed: what was being done, libnbd's message and the errno it gave (0: none).
    Call {
        what: String,
        message: String,
        errno: i32,
    },
    /// A URI that cannot be passed to C (an embedded NUL byte).
    BadUri(String),
}

impl NbdError {
    /// The errno of a failed call (EIO when libnbd gave none, 0 for the other errors).
    pub fn errno(&self) -> i32 {
        match self {
            NbdError::Call { errno: 0, .. } => libc::EIO,
            NbdError::Call { errno, .. } => *errno,
            _ => 0,
        }
    }
}

impl fmt::Display for NbdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NbdError::Missing { detail } => f.write_str(&missing(detail, STATIC_BUILD)),
            NbdError::Call { what, message, .. } => write!(f, "{what}: {message}"),
            NbdError::BadUri(s) => write!(f, "{s:?} contains a NUL byte"),
        }
    }
}

/// This binary is linked statically (the musl build): it cannot load shared libraries at all.
const STATIC_BUILD: bool = cfg!(target_feature = "crt-static");

/// Why libnbd did not load and what to do: install it, or, from a statically linked binary
/// (which cannot load any), use the dynamically linked build.
fn missing(detail: &str, static_build: bool) -> String {
    if static_build {
        format!(
            "cannot load the NBD client library libnbd.so.0 ({detail}): this iomark is \
             statically linked, and a static binary cannot load shared libraries; for NBD use \
             the dynamically linked build (cargo build --release, or the .deb package)"
        )
    } else {
        format!(
            "cannot load the NBD client library libnbd.so.0 ({detail}); install it \
             (Debian/Ubuntu: apt-get install libnbd0; Fedora/RHEL: dnf install libnbd)"
        )
    }
}

impl std::error::Error for NbdError {}

impl From<NbdError> for std::io::Error {
    fn from(e: NbdError) -> Self {
        match e {
            NbdError::Call { errno, .. } if errno != 0 => std::io::Error::new(
                std::io::Error::from_raw_os_error(errno).kind(),
                e.to_string(),
            ),
            _ => std::io::Error::other(e.to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_library_names_the_packages() {
        let e = NbdError::Missing {
            detail: "libnbd.so.0: cannot open shared object file".into(),
        };
        let s = e.to_string();
        assert!(s.contains("apt-get install libnbd0") && s.contains("dnf install libnbd)"));
        let m = missing("Dynamic loading not supported", true);
        assert!(
            m.contains("statically linked") && m.contains("dynamically linked build"),
            "{m}"
        );
        assert!(!m.contains("apt-get"), "{m}");
        let call = NbdError::Call {
            what: "cannot connect to nbd://h/e".into(),
            message: "connect: Connection refused".into(),
            errno: 0,
        };
        assert_eq!(call.errno(), libc::EIO);
        assert_eq!(
            call.to_string(),
            "cannot connect to nbd://h/e: connect: Connection refused"
        );
    }
}
