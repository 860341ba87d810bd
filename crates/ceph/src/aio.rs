//! Asynchronous requests on an image or a pool. Each request carries the slot its caller gave
//! it; librbd/librados call back on their own threads when it completes, and the callback puts
//! (slot, result) in a queue that [`Aio::reap`] takes from (waiting on a condition variable, or
//! spinning with `busy_poll`). One argument block per slot is allocated up front, so a request
//! allocates nothing here (librbd/librados allocate their completion).

use crate::api::{Handle, Rados, Rbd};
use crate::error::CephError;
use crate::image::Image;
use crate::pool::Pool;
use libc::c_void;
use std::ffi::CStr;
use std::ptr;
use std::sync::atomic::{AtomicPtr, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};

/// What requests go to.
pub enum AioTarget {
    Image(Arc<Image>),
    Pool(Arc<Pool>),
}

/// Completed requests, filled by the libraries' threads.
#[derive(Default)]
struct Queue {
    done: Mutex<Vec<(u32, i64)>>,
    ready: Condvar,
    /// Requests submitted and not yet completed.
    in_flight: AtomicUsize,
}

impl Queue {
    fn push(&self, slot: u32, ret: i64) {
        self.done
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push((slot, ret));
        self.in_flight.fetch_sub(1, Ordering::AcqRel);
        self.ready.notify_one();
    }
}

/// The argument a completion callback gets: its queue and slot, and the slot's write operation
/// while one is in flight (released when it completes).
struct SlotArg {
    queue: *const Queue,
    slot: u32,
    rbd: Option<&'static Rbd>,
    rados: Option<&'static Rados>,
    write_op: AtomicPtr<c_void>,
}

extern "C" fn rbd_done(c: Handle, arg: *mut c_void) {
    // SAFETY: arg points to a SlotArg of a live Aio (Drop waits for every request).
    let a = unsafe { &*(arg as *const SlotArg) };
    let api = a.rbd.expect("an rbd request");
    // SAFETY: c is the completion librbd calls back for; released once, here.
    let ret = unsafe { (api.aio_get_return_value)(c) } as i64;
    unsafe { (api.aio_release)(c) };
    // SAFETY: the queue lives as long as the Aio.
    unsafe { &*a.queue }.push(a.slot, ret);
}

extern "C" fn rados_done(c: Handle, arg: *mut c_void) {
    // SAFETY: as rbd_done.
    let a = unsafe { &*(arg as *const SlotArg) };
    let api = a.rados.expect("a rados request");
    // SAFETY: as rbd_done.
    let ret = unsafe { (api.aio_get_return_value)(c) } as i64;
    unsafe { (api.aio_release)(c) };
    let op = a.write_op.swap(ptr::null_mut(), Ordering::AcqRel);
    if !op.is_null() {
        // SAFETY: the operation's request has completed; it was created for it alone.
        unsafe { (api.release_write_op)(op) };
    }
    // SAFETY: as rbd_done.
    unsafe { &*a.queue }.push(a.slot, ret);
}

/// Asynchronous requests with up to `depth` slots.
pub struct Aio {
    target: AioTarget,
    queue: Arc<Queue>,
    args: Box<[SlotArg]>,
    busy_poll: bool,
}

// SAFETY: the raw pointers in `args` point to `queue`, owned by the Aio; the callbacks only push
// to the queue under its mutex.
unsafe impl Send for Aio {}

impl Aio {
    pub fn new(target: AioTarget, depth: u32, busy_poll: bool) -> Aio {
        let queue = Arc::new(Queue::default());
        let (rbd, rados) = match &target {
            AioTarget::Image(i) => (Some(i.api), None),
            AioTarget::Pool(p) => (None, Some(p.cluster.api)),
        };
        let args = (0..depth.max(1))
            .map(|slot| SlotArg {
                queue: Arc::as_ptr(&queue),
                slot,
                rbd,
                rados,
                write_op: AtomicPtr::new(ptr::null_mut()),
            })
            .collect();
        Aio {
            target,
            queue,
            args,
            busy_poll,
        }
    }

    fn image(&self) -> &Image {
        match &self.target {
            AioTarget::Image(i) => i,
            AioTarget::Pool(_) => panic!("an image request on a pool"),
        }
    }

    fn pool(&self) -> &Pool {
        match &self.target {
            AioTarget::Pool(p) => p,
            AioTarget::Image(_) => panic!("an object request on an image"),
        }
    }

    /// Submits an image request through `submit` (given the completion).
    fn rbd(
        &self,
        slot: u32,
        what: &str,
        submit: impl FnOnce(Handle) -> i32,
    ) -> Result<(), CephError> {
        let img = self.image();
        let arg = &self.args[slot as usize] as *const SlotArg as *mut c_void;
        let mut c: Handle = ptr::null_mut();
        // SAFETY: c is an out pointer; arg outlives the request.
        let r = unsafe { (img.api.aio_create_completion)(arg, rbd_done, &mut c) };
        if r < 0 {
            return Err(CephError::call("cannot create an rbd completion", r as i64));
        }
        self.queue.in_flight.fetch_add(1, Ordering::AcqRel);
        let r = submit(c);
        if r < 0 {
            self.queue.in_flight.fetch_sub(1, Ordering::AcqRel);
            // SAFETY: the request was refused, so the completion is ours to release.
            unsafe { (img.api.aio_release)(c) };
            return Err(CephError::call(format!("{what} {}", img.name()), r as i64));
        }
        Ok(())
    }

    /// Reads `len` bytes at `offset` of the image into `buf`.
    ///
    /// # Safety
    /// `buf` must stay valid and untouched until the slot's completion is reaped.
    pub unsafe fn read(
        &self,
        slot: u32,
        offset: u64,
        buf: *mut u8,
        len: usize,
    ) -> Result<(), CephError> {
        let img = self.image();
        // SAFETY: the caller keeps buf valid until completion.
        self.rbd(slot, "cannot read", |c| unsafe {
            (img.api.aio_read)(img.handle, offset, len, buf.cast(), c)
        })
    }

    /// Writes `len` bytes from `buf` at `offset` of the image.
    ///
    /// # Safety
    /// As [`Aio::read`].
    pub unsafe fn write(
        &self,
        slot: u32,
        offset: u64,
        buf: *const u8,
        len: usize,
    ) -> Result<(), CephError> {
        let img = self.image();
        // SAFETY: the caller keeps buf valid until completion.
        self.rbd(slot, "cannot write", |c| unsafe {
            (img.api.aio_write)(img.handle, offset, len, buf.cast(), c)
        })
    }

    /// Discards `len` bytes at `offset` of the image.
    pub fn discard(&self, slot: u32, offset: u64, len: u64) -> Result<(), CephError> {
        let img = self.image();
        // SAFETY: no buffer is involved.
        self.rbd(slot, "cannot discard", |c| unsafe {
            (img.api.aio_discard)(img.handle, offset, len, c)
        })
    }

    /// Flushes the image's cache.
    pub fn flush(&self, slot: u32) -> Result<(), CephError> {
        let img = self.image();
        // SAFETY: no buffer is involved.
        self.rbd(slot, "cannot flush", |c| unsafe {
            (img.api.aio_flush)(img.handle, c)
        })
    }

    /// Submits an object request through `submit` (given the completion).
    fn rados(
        &self,
        slot: u32,
        oid: &CStr,
        submit: impl FnOnce(Handle) -> i32,
    ) -> Result<(), CephError> {
        let pool = self.pool();
        let api = pool.cluster.api;
        let arg = &self.args[slot as usize] as *const SlotArg as *mut c_void;
        let mut c: Handle = ptr::null_mut();
        // SAFETY: c is an out pointer; arg outlives the request.
        let r = unsafe { (api.aio_create_completion2)(arg, rados_done, &mut c) };
        if r < 0 {
            return Err(CephError::call(
                "cannot create a rados completion",
                r as i64,
            ));
        }
        self.queue.in_flight.fetch_add(1, Ordering::AcqRel);
        let r = submit(c);
        if r < 0 {
            self.queue.in_flight.fetch_sub(1, Ordering::AcqRel);
            // SAFETY: the request was refused, so the completion is ours to release.
            unsafe { (api.aio_release)(c) };
            return Err(CephError::call(
                format!(
                    "cannot submit to object {} of pool {}",
                    oid.to_string_lossy(),
                    pool.name()
                ),
                r as i64,
            ));
        }
        Ok(())
    }

    /// Reads `len` bytes at `offset` of object `oid` into `buf`.
    ///
    /// # Safety
    /// As [`Aio::read`].
    pub unsafe fn object_read(
        &self,
        slot: u32,
        oid: &CStr,
        offset: u64,
        buf: *mut u8,
        len: usize,
    ) -> Result<(), CephError> {
        let p = self.pool();
        // SAFETY: librados copies the name; the caller keeps buf valid until completion.
        self.rados(slot, oid, |c| unsafe {
            (p.cluster.api.aio_read)(p.handle, oid.as_ptr(), c, buf.cast(), len, offset)
        })
    }

    /// Writes `len` bytes from `buf` at `offset` of object `oid` (`full`: replacing the object).
    ///
    /// # Safety
    /// As [`Aio::read`].
    pub unsafe fn object_write(
        &self,
        slot: u32,
        oid: &CStr,
        offset: u64,
        buf: *const u8,
        len: usize,
        full: bool,
    ) -> Result<(), CephError> {
        let p = self.pool();
        let api = p.cluster.api;
        // SAFETY: librados copies the name; the caller keeps buf valid until completion.
        self.rados(slot, oid, |c| unsafe {
            if full {
                (api.aio_write_full)(p.handle, oid.as_ptr(), c, buf.cast(), len)
            } else {
                (api.aio_write)(p.handle, oid.as_ptr(), c, buf.cast(), len, offset)
            }
        })
    }

    /// Zeroes `len` bytes at `offset` of object `oid` (fio's trim on an object): a write
    /// operation of one zero step, released when it completes.
    pub fn object_zero(
        &self,
        slot: u32,
        oid: &CStr,
        offset: u64,
        len: u64,
    ) -> Result<(), CephError> {
        let p = self.pool();
        let api = p.cluster.api;
        // SAFETY: creating an operation has no precondition.
        let op = unsafe { (api.create_write_op)() };
        if op.is_null() {
            return Err(CephError::call(
                "cannot create a rados write operation",
                -(libc::ENOMEM as i64),
            ));
        }
        // SAFETY: op is ours until it is submitted.
        unsafe { (api.write_op_zero)(op, offset, len) };
        let arg = &self.args[slot as usize];
        arg.write_op.store(op, Ordering::Release);
        // SAFETY: librados copies the name; op lives until the completion releases it.
        let r = self.rados(slot, oid, |c| unsafe {
            (api.aio_write_op_operate)(op, p.handle, c, oid.as_ptr(), ptr::null_mut(), 0)
        });
        if r.is_err() {
            // Refused: no completion will come; the operation is released here.
            let op = arg.write_op.swap(ptr::null_mut(), Ordering::AcqRel);
            if !op.is_null() {
                // SAFETY: the refused operation is ours.
                unsafe { (api.release_write_op)(op) };
            }
        }
        r
    }

    /// Requests submitted and not yet reaped.
    pub fn in_flight(&self) -> usize {
        self.queue.in_flight.load(Ordering::Acquire) + self.lock().len()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<(u32, i64)>> {
        self.queue.done.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Takes at least `min` (waiting for them) and at most `max` completions into `out`:
    /// (slot, the library's result: bytes read, 0 for a write, or -errno). Returns how many.
    pub fn reap(&self, min: usize, max: usize, out: &mut Vec<(u32, i64)>) -> usize {
        let mut done = self.lock();
        while done.len() < min {
            if self.busy_poll {
                drop(done);
                std::hint::spin_loop();
                done = self.lock();
            } else {
                done = self
                    .queue
                    .ready
                    .wait(done)
                    .unwrap_or_else(|e| e.into_inner());
            }
        }
        let n = done.len().min(max);
        out.extend(done.drain(..n));
        n
    }
}

impl Drop for Aio {
    fn drop(&mut self) {
        // The callbacks point into `args` and `queue`: wait for every request (each ends within
        // the OSD timeout).
        let mut done = self.lock();
        while self.queue.in_flight.load(Ordering::Acquire) > 0 {
            done = self
                .queue
                .ready
                .wait_timeout(done, std::time::Duration::from_millis(10))
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }
}
