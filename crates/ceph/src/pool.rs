//! An I/O context on one pool: the object operations `rados bench` and the `rados` engine do.

use crate::api::Handle;
use crate::cluster::Cluster;
use crate::error::{cstr, CephError};
use std::ffi::CStr;
use std::ptr;
use std::sync::Arc;

/// An open pool.
pub struct Pool {
    pub(crate) cluster: Arc<Cluster>,
    pub(crate) handle: Handle,
    name: String,
}

// SAFETY: a rados_ioctx_t may be used from several threads for I/O (librados locks
// internally); iomark changes none of its settings after opening.
unsafe impl Send for Pool {}
// SAFETY: as above.
unsafe impl Sync for Pool {}

/// The result of a call returning 0 or -errno.
fn check(r: i32, what: impl FnOnce() -> String) -> Result<i32, CephError> {
    if r < 0 {
        Err(CephError::call(what(), r as i64))
    } else {
        Ok(r)
    }
}

impl Pool {
    /// An I/O context on pool `name` of `cluster`.
    pub fn open(cluster: Arc<Cluster>, name: &str) -> Result<Pool, CephError> {
        let c = cstr(name)?;
        let mut handle: Handle = ptr::null_mut();
        // SAFETY: handle is an out pointer; the name lives across the call.
        let r = unsafe { (cluster.api.ioctx_create)(cluster.handle, c.as_ptr(), &mut handle) };
        check(r, || format!("cannot open pool '{name}'"))?;
        Ok(Pool {
            cluster,
            handle,
            name: name.to_string(),
        })
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// Replaces object `oid` with `data`.
    pub fn write_full(&self, oid: &str, data: &[u8]) -> Result<(), CephError> {
        let o = cstr(oid)?;
        // SAFETY: data is readable for its length; o lives across the call.
        let r = unsafe {
            (self.cluster.api.write_full)(self.handle, o.as_ptr(), data.as_ptr().cast(), data.len())
        };
        check(r, || {
            format!("cannot write object {oid} in pool {}", self.name)
        })
        .map(drop)
    }

    /// Writes `data` at `offset` of object `oid`.
    pub fn write(&self, oid: &str, data: &[u8], offset: u64) -> Result<(), CephError> {
        let o = cstr(oid)?;
        // SAFETY: as write_full.
        let r = unsafe {
            (self.cluster.api.write)(
                self.handle,
                o.as_ptr(),
                data.as_ptr().cast(),
                data.len(),
                offset,
            )
        };
        check(r, || {
            format!("cannot write object {oid} in pool {}", self.name)
        })
        .map(drop)
    }

    /// Reads into `buf` from `offset` of object `oid`; returns the bytes read.
    pub fn read(&self, oid: &str, buf: &mut [u8], offset: u64) -> Result<usize, CephError> {
        let o = cstr(oid)?;
        // SAFETY: buf is writable for its length.
        let r = unsafe {
            (self.cluster.api.read)(
                self.handle,
                o.as_ptr(),
                buf.as_mut_ptr().cast(),
                buf.len(),
                offset,
            )
        };
        check(r, || {
            format!("cannot read object {oid} in pool {}", self.name)
        })
        .map(|n| n as usize)
    }

    /// Removes object `oid`.
    pub fn remove(&self, oid: &str) -> Result<(), CephError> {
        let o = cstr(oid)?;
        // SAFETY: o lives across the call.
        let r = unsafe { (self.cluster.api.remove)(self.handle, o.as_ptr()) };
        check(r, || {
            format!("cannot remove object {oid} from pool {}", self.name)
        })
        .map(drop)
    }

    /// The size of object `oid`.
    pub fn stat(&self, oid: &str) -> Result<u64, CephError> {
        let o = cstr(oid)?;
        let (mut size, mut mtime) = (0u64, 0 as libc::time_t);
        // SAFETY: out pointers to locals; o lives across the call.
        let r = unsafe { (self.cluster.api.stat)(self.handle, o.as_ptr(), &mut size, &mut mtime) };
        check(r, || {
            format!("cannot stat object {oid} in pool {}", self.name)
        })?;
        Ok(size)
    }

    /// The names of the pool's objects (default namespace) starting with `prefix`.
    pub fn list(&self, prefix: &str) -> Result<Vec<String>, CephError> {
        let api = self.cluster.api;
        let mut ctx: Handle = ptr::null_mut();
        // SAFETY: ctx is an out pointer.
        let r = unsafe { (api.list_open)(self.handle, &mut ctx) };
        check(r, || format!("cannot list pool {}", self.name))?;
        let mut out = Vec::new();
        let result = loop {
            let (mut entry, mut key, mut ns) = (ptr::null(), ptr::null(), ptr::null());
            // SAFETY: out pointers; the strings stay valid until the next call on ctx.
            let r = unsafe { (api.list_next)(ctx, &mut entry, &mut key, &mut ns) };
            if r == -libc::ENOENT {
                break Ok(out);
            }
            if r < 0 {
                break Err(CephError::call(
                    format!("cannot list pool {}", self.name),
                    r as i64,
                ));
            }
            // SAFETY: librados returned a NUL-terminated name.
            let name = unsafe { CStr::from_ptr(entry) }.to_string_lossy();
            if name.starts_with(prefix) {
                out.push(name.into_owned());
            }
        };
        // SAFETY: ctx came from list_open and is closed once.
        unsafe { (api.list_close)(ctx) };
        result
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        // SAFETY: the handle came from ioctx_create and is destroyed once, before the cluster
        // (held by the Arc) shuts down.
        unsafe { (self.cluster.api.ioctx_destroy)(self.handle) }
    }
}
