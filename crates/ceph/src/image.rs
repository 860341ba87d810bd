//! An open RBD image: its size, features and watchers, and synchronous reads and writes (the
//! safety probe and small tools; measured I/O goes through [`crate::Aio`]).

use crate::api::{self, Handle, RawWatcher, Rbd};
use crate::error::{cstr, CephError};
use crate::pool::Pool;
use std::ffi::CStr;
use std::ptr;
use std::sync::Arc;

/// `RBD_FEATURE_EXCLUSIVE_LOCK`.
pub const FEATURE_EXCLUSIVE_LOCK: u64 = 1 << 2;

/// A client watching an image (it has the image open read-write, or mapped).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Watcher {
    pub addr: String,
    pub id: i64,
    pub cookie: u64,
}

/// An open image.
pub struct Image {
    pub(crate) api: &'static Rbd,
    pub(crate) handle: Handle,
    _pool: Arc<Pool>,
    name: String,
}

// SAFETY: librbd's image handles are thread-safe for I/O.
unsafe impl Send for Image {}
// SAFETY: as above.
unsafe impl Sync for Image {}

impl Image {
    /// Opens image `name` of `pool` (read-only opens register no watch on the image).
    pub fn open(pool: Arc<Pool>, name: &str, read_only: bool) -> Result<Image, CephError> {
        let api = api::rbd()?;
        let n = cstr(name)?;
        let mut handle: Handle = ptr::null_mut();
        let f = if read_only {
            api.open_read_only
        } else {
            api.open
        };
        // SAFETY: handle is an out pointer; a NULL snapshot name opens the image's head.
        let r = unsafe { f(pool.handle, n.as_ptr(), &mut handle, ptr::null()) };
        if r < 0 {
            return Err(CephError::call(
                format!("cannot open image {}/{name}", pool.name()),
                r as i64,
            ));
        }
        Ok(Image {
            api,
            handle,
            name: format!("{}/{name}", pool.name()),
            _pool: pool,
        })
    }

    /// `pool/image`.
    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn size(&self) -> Result<u64, CephError> {
        let mut size = 0u64;
        // SAFETY: out pointer to a local.
        let r = unsafe { (self.api.get_size)(self.handle, &mut size) };
        if r < 0 {
            return Err(CephError::call(
                format!("cannot get the size of {}", self.name),
                r as i64,
            ));
        }
        Ok(size)
    }

    pub fn features(&self) -> Result<u64, CephError> {
        let mut f = 0u64;
        // SAFETY: out pointer to a local.
        let r = unsafe { (self.api.get_features)(self.handle, &mut f) };
        if r < 0 {
            return Err(CephError::call(
                format!("cannot get the features of {}", self.name),
                r as i64,
            ));
        }
        Ok(f)
    }

    /// The clients watching the image.
    pub fn watchers(&self) -> Result<Vec<Watcher>, CephError> {
        let mut cap = 8usize;
        loop {
            let mut raw: Vec<RawWatcher> = Vec::with_capacity(cap);
            let mut n = cap;
            // SAFETY: raw has room for `n` entries; librbd sets n to the count (or the needed
            // count with -ERANGE).
            let r = unsafe { (self.api.watchers_list)(self.handle, raw.as_mut_ptr(), &mut n) };
            if r == -libc::ERANGE && n > cap {
                cap = n;
                continue;
            }
            if r < 0 {
                return Err(CephError::call(
                    format!("cannot list the watchers of {}", self.name),
                    r as i64,
                ));
            }
            // SAFETY: librbd filled the first n entries.
            unsafe { raw.set_len(n) };
            let out = raw
                .iter()
                .map(|w| Watcher {
                    // SAFETY: addr is a NUL-terminated string owned by the list.
                    addr: unsafe { CStr::from_ptr(w.addr) }
                        .to_string_lossy()
                        .into_owned(),
                    id: w.id,
                    cookie: w.cookie,
                })
                .collect();
            // SAFETY: frees the strings librbd allocated for these n entries.
            unsafe { (self.api.watchers_list_cleanup)(raw.as_mut_ptr(), n) };
            return Ok(out);
        }
    }

    /// Reads into `buf` at `offset`; returns the bytes read.
    pub fn read_at(&self, buf: &mut [u8], offset: u64) -> Result<usize, CephError> {
        // SAFETY: buf is writable for its length.
        let r = unsafe { (self.api.read)(self.handle, offset, buf.len(), buf.as_mut_ptr().cast()) };
        if r < 0 {
            return Err(CephError::call(
                format!("cannot read {}", self.name),
                r as i64,
            ));
        }
        Ok(r as usize)
    }

    /// Writes `data` at `offset`.
    pub fn write_at(&self, data: &[u8], offset: u64) -> Result<(), CephError> {
        // SAFETY: data is readable for its length.
        let r = unsafe { (self.api.write)(self.handle, offset, data.len(), data.as_ptr().cast()) };
        if r < 0 {
            return Err(CephError::call(
                format!("cannot write {}", self.name),
                r as i64,
            ));
        }
        Ok(())
    }

    pub fn flush(&self) -> Result<(), CephError> {
        // SAFETY: a plain call on an open image.
        let r = unsafe { (self.api.flush)(self.handle) };
        if r < 0 {
            return Err(CephError::call(
                format!("cannot flush {}", self.name),
                r as i64,
            ));
        }
        Ok(())
    }
}

impl Drop for Image {
    fn drop(&mut self) {
        // SAFETY: the handle came from rbd_open and is closed once; asynchronous requests hold
        // the image (Arc) until they complete.
        unsafe { (self.api.close)(self.handle) };
    }
}
