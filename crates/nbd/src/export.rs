//! One connection to an NBD export. Requests are issued at once (libnbd writes them to the
//! socket as far as it can) and carry the slot their caller gave them; libnbd calls back, on
//! the thread that drives the connection (inside [`Export::reap`]'s polls or a later request),
//! when one completes, and the callback puts (slot, errno) in a queue `reap` takes from. The
//! callback's argument for each slot is allocated up front, so a request allocates nothing
//! here.

use crate::api::{self, Completion, Handle, Nbd};
use crate::error::NbdError;
use libc::{c_int, c_void};
use std::cell::{Cell, UnsafeCell};
use std::collections::VecDeque;
use std::ffi::CString;
use std::time::{Duration, Instant};

/// How long connecting (the socket and the handshake) may take before it is given up.
pub const CONNECT_TIMEOUT_SECS: u64 = 30;

/// The requests of one connection: which slots are in flight and what completed.
struct Ring {
    /// Per slot: issued and not yet called back.
    pending: Box<[Cell<bool>]>,
    in_flight: Cell<usize>,
    /// (slot, errno) of completed requests, in completion order (never more than the slots).
    done: UnsafeCell<VecDeque<(u32, i32)>>,
}

impl Ring {
    /// Slot `slot`'s request ended with `errno`; false when it was not in flight.
    fn complete(&self, slot: u32, errno: i32) -> bool {
        let p = &self.pending[slot as usize];
        if !p.replace(false) {
            return false;
        }
        self.in_flight.set(self.in_flight.get() - 1);
        // SAFETY: the queue is touched only on the connection's thread, by this callback
        // (inside a libnbd call) or by `reap` between libnbd calls, never both at once.
        unsafe { &mut *self.done.get() }.push_back((slot, errno));
        true
    }
}

/// The argument of a slot's completion callback.
struct SlotArg {
    ring: *const Ring,
    slot: u32,
}

extern "C" fn completed(arg: *mut c_void, error: *mut c_int) -> c_int {
    // SAFETY: arg points to a SlotArg of a live Export (its Drop closes the handle, which ends
    // every callback, before freeing them), and error to the command's errno.
    let a = unsafe { &*(arg as *const SlotArg) };
    let errno = unsafe { *error };
    // SAFETY: as above.
    unsafe { &*a.ring }.complete(a.slot, errno);
    // Retire the command: its result is in the queue.
    1
}

/// A connected export.
pub struct Export {
    api: &'static Nbd,
    handle: Handle,
    uri: String,
    ring: *mut Ring,
    args: Box<[SlotArg]>,
}

// SAFETY: libnbd's handles may be used from any thread; an Export is driven by one thread at
// a time (it is not Sync), which is the thread its callbacks run on.
unsafe impl Send for Export {}

impl Export {
    /// Connects to the export `uri` (`nbd://`, `nbds://`, `nbd+unix://`, ...), giving up
    /// after `timeout`, with `depth` slots for requests.
    pub fn connect(uri: &str, timeout: Duration, depth: u32) -> Result<Export, NbdError> {
        let api = api::nbd()?;
        let c = CString::new(uri).map_err(|_| NbdError::BadUri(uri.to_string()))?;
        // SAFETY: a new handle, closed by Drop (or below on failure).
        let handle = unsafe { (api.create)() };
        if handle.is_null() {
            return Err(api.last_error("cannot create an NBD handle"));
        }
        let depth = depth.max(1) as usize;
        let ring = Box::into_raw(Box::new(Ring {
            pending: (0..depth).map(|_| Cell::new(false)).collect(),
            in_flight: Cell::new(0),
            done: UnsafeCell::new(VecDeque::with_capacity(depth)),
        }));
        let args = (0..depth as u32)
            .map(|slot| SlotArg { ring, slot })
            .collect();
        let export = Export {
            api,
            handle,
            uri: uri.to_string(),
            ring,
            args,
        };
        export.handshake(&c, timeout)?;
        Ok(export)
    }

    /// Connects and waits for the handshake to end, at most `timeout`.
    fn handshake(&self, uri: &CString, timeout: Duration) -> Result<(), NbdError> {
        let api = self.api;
        let what = || format!("cannot connect to {}", self.uri);
        // SAFETY: a live handle and a C string.
        if unsafe { (api.aio_connect_uri)(self.handle, uri.as_ptr()) } == -1 {
            return Err(api.last_error(what()));
        }
        let deadline = Instant::now() + timeout;
        loop {
            // SAFETY: a live handle.
            if unsafe { (api.aio_is_ready)(self.handle) } == 1 {
                return Ok(());
            }
            // SAFETY: as above.
            let dead = unsafe {
                (api.aio_is_dead)(self.handle) == 1 || (api.aio_is_closed)(self.handle) == 1
            };
            if dead {
                return Err(NbdError::Call {
                    what: what(),
                    message: "the connection ended during the handshake".into(),
                    errno: libc::ECONNRESET,
                });
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(NbdError::Call {
                    what: what(),
                    message: format!(
                        "no answer within {} s (is the server running and reachable?)",
                        timeout.as_secs()
                    ),
                    errno: libc::ETIMEDOUT,
                });
            }
            let ms = left.as_millis().clamp(1, 1000) as c_int;
            // SAFETY: a live handle.
            if unsafe { (api.poll)(self.handle, ms) } == -1 {
                return Err(api.last_error(what()));
            }
        }
    }

    /// The URI connected to.
    pub fn uri(&self) -> &str {
        &self.uri
    }

    /// The export's size in bytes.
    pub fn size(&self) -> Result<u64, NbdError> {
        // SAFETY: a live, connected handle.
        let s = unsafe { (self.api.get_size)(self.handle) };
        if s < 0 {
            return Err(self
                .api
                .last_error(format!("cannot get the size of {}", self.uri)));
        }
        Ok(s as u64)
    }

    /// Whether the server refuses writes to the export.
    pub fn is_read_only(&self) -> Result<bool, NbdError> {
        // SAFETY: a live, connected handle.
        match unsafe { (self.api.is_read_only)(self.handle) } {
            -1 => Err(self
                .api
                .last_error(format!("cannot ask {} whether it is read-only", self.uri))),
            r => Ok(r == 1),
        }
    }

    /// Reads `buf.len()` bytes at `offset`, synchronously (nothing may be in flight).
    pub fn read_at(&mut self, buf: &mut [u8], offset: u64) -> Result<usize, NbdError> {
        // SAFETY: buf is valid for its length for the whole (blocking) call.
        let r =
            unsafe { (self.api.pread)(self.handle, buf.as_mut_ptr().cast(), buf.len(), offset, 0) };
        if r == -1 {
            return Err(self
                .api
                .last_error(format!("cannot read {} at {offset}", self.uri)));
        }
        Ok(buf.len())
    }

    /// Requests issued and not yet taken by [`Export::reap`]'s completions.
    pub fn in_flight(&self) -> usize {
        self.ring().in_flight.get()
    }

    fn ring(&self) -> &Ring {
        // SAFETY: the ring lives until Drop.
        unsafe { &*self.ring }
    }

    /// Issues slot `slot`'s request through `issue` (given the slot's completion); an error
    /// when it could not be issued (nothing will complete for it then).
    fn issue(
        &mut self,
        slot: u32,
        what: &str,
        issue: impl FnOnce(&Nbd, Handle, Completion) -> i64,
    ) -> Result<(), NbdError> {
        let ring = self.ring();
        let s = slot as usize;
        assert!(
            s < ring.pending.len() && !ring.pending[s].get(),
            "slot {slot} busy"
        );
        ring.pending[s].set(true);
        ring.in_flight.set(ring.in_flight.get() + 1);
        let cb = Completion {
            callback: Some(completed),
            user_data: &self.args[s] as *const SlotArg as *mut c_void,
            free: None,
        };
        if issue(self.api, self.handle, cb) != -1 {
            return Ok(());
        }
        let e = self.api.last_error(format!("cannot {what} {}", self.uri));
        // Whether or not libnbd called back for the refused request, it is no longer in flight.
        if ring.pending[s].replace(false) {
            ring.in_flight.set(ring.in_flight.get() - 1);
            return Err(e);
        }
        Ok(())
    }

    /// Reads `len` bytes at `offset` into `buf` as slot `slot`.
    ///
    /// # Safety
    /// `buf` must stay valid, and untouched by the caller, for `len` bytes until the slot's
    /// completion is reaped (or the Export is dropped).
    pub unsafe fn read(
        &mut self,
        slot: u32,
        offset: u64,
        buf: *mut u8,
        len: usize,
    ) -> Result<(), NbdError> {
        self.issue(slot, "read from", |api, h, cb| unsafe {
            (api.aio_pread)(h, buf.cast(), len, offset, cb, 0)
        })
    }

    /// Writes `len` bytes of `buf` at `offset` as slot `slot`.
    ///
    /// # Safety
    /// As [`Export::read`].
    pub unsafe fn write(
        &mut self,
        slot: u32,
        offset: u64,
        buf: *const u8,
        len: usize,
    ) -> Result<(), NbdError> {
        self.issue(slot, "write to", |api, h, cb| unsafe {
            (api.aio_pwrite)(h, buf.cast(), len, offset, cb, 0)
        })
    }

    /// Trims (discards) `len` bytes at `offset` as slot `slot`.
    pub fn trim(&mut self, slot: u32, offset: u64, len: u64) -> Result<(), NbdError> {
        // SAFETY: a live handle; a trim carries no buffer.
        self.issue(slot, "trim", |api, h, cb| unsafe {
            (api.aio_trim)(h, len, offset, cb, 0)
        })
    }

    /// Flushes what the server holds in its caches to stable storage, as slot `slot`.
    pub fn flush(&mut self, slot: u32) -> Result<(), NbdError> {
        // SAFETY: a live handle; a flush carries no buffer.
        self.issue(slot, "flush", |api, h, cb| unsafe {
            (api.aio_flush)(h, cb, 0)
        })
    }

    /// Moves completed requests into `out` as (slot, errno; 0 for success): at least `min`
    /// (waiting for them, as far as requests are in flight) and at most `max`. Returns how
    /// many; an error when the connection fails.
    pub fn reap(
        &mut self,
        min: usize,
        max: usize,
        out: &mut Vec<(u32, i32)>,
    ) -> Result<usize, NbdError> {
        let mut n = self.take(max, out);
        if n == 0 && min == 0 && self.in_flight() > 0 {
            // Without a wait, one look at the socket brings in what has arrived.
            self.poll(0)?;
            n += self.take(max, out);
        }
        while n < min && n < max && self.in_flight() > 0 {
            self.poll(-1)?;
            n += self.take(max - n, out);
        }
        Ok(n)
    }

    /// Drives the connection, waiting at most `timeout_ms` (-1: until something happens);
    /// completions arrive through the callbacks.
    fn poll(&mut self, timeout_ms: c_int) -> Result<(), NbdError> {
        // SAFETY: a live handle.
        if unsafe { (self.api.poll)(self.handle, timeout_ms) } == -1 {
            return Err(self
                .api
                .last_error(format!("the connection to {} failed", self.uri)));
        }
        Ok(())
    }

    /// Moves up to `max` completions from the queue into `out`.
    fn take(&mut self, max: usize, out: &mut Vec<(u32, i32)>) -> usize {
        // SAFETY: no libnbd call is running on this thread, so no callback touches the queue.
        let done = unsafe { &mut *self.ring().done.get() };
        let n = done.len().min(max);
        out.extend(done.drain(..n));
        n
    }
}

impl Drop for Export {
    fn drop(&mut self) {
        // Let what is in flight end (briefly) before the connection closes under it.
        let deadline = Instant::now() + Duration::from_secs(5);
        while self.in_flight() > 0 && Instant::now() < deadline {
            // SAFETY: a live handle.
            if unsafe { (self.api.poll)(self.handle, 1000) } == -1 {
                break;
            }
        }
        // SAFETY: closing ends every callback; the ring is freed after, once.
        unsafe {
            (self.api.close)(self.handle);
            drop(Box::from_raw(self.ring));
        }
    }
}
