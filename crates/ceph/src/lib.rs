//! A small safe binding to Ceph's client libraries, `librados.so.2` and `librbd.so.1`, opened at
//! run time: building iomark needs nothing of Ceph, and a machine without the libraries gets an
//! error naming the package to install.
//!
//! - [`Cluster`]: a connection (configuration, client name, keyring, bounded timeouts).
//! - [`Pool`]: an I/O context on one pool: whole and partial object reads and writes, listing.
//! - [`Image`]: an open RBD image: size, watchers, synchronous reads and writes.
//! - [`Aio`]: asynchronous requests on an image or a pool whose completions land in a queue.
//! - [`AioSlots`]: an [`Aio`] with what an engine keeps per slot, and its reaping.

mod aio;
mod api;
mod cluster;
mod error;
mod image;
mod pool;
mod slots;

pub use aio::{Aio, AioTarget};
pub use cluster::{Cluster, ConnectOptions, TIMEOUT_SECS};
pub use error::CephError;
pub use image::{Image, Watcher, FEATURE_EXCLUSIVE_LOCK};
pub use pool::Pool;
pub use slots::AioSlots;
