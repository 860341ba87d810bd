//! A small safe binding to libnbd (`libnbd.so.0`), the Network Block Device client library,
//! opened at run time: building iomark needs nothing of it, and a machine without it gets an
//! error naming the package to install.
//!
//! - [`Export`]: one connection to an NBD export (named by a URI): its size and flags,
//!   synchronous reads, and asynchronous reads, writes, trims and flushes whose completions
//!   are taken by slot.

mod api;
mod error;
mod export;

pub use error::NbdError;
pub use export::{Export, CONNECT_TIMEOUT_SECS};
