//! The C functions of libnbd that iomark calls, looked up once when first needed. Their
//! signatures are those of libnbd's public C API (`libnbd.h`, stable since libnbd 1.0).

use crate::error::NbdError;
use libc::{c_char, c_int, c_void, size_t};
use libloading::Library;
use std::sync::OnceLock;

/// `struct nbd_handle *`.
pub(crate) type Handle = *mut c_void;

/// `nbd_completion_callback`, passed by value: called once when a command completes, with the
/// command's errno in `*error` (0: success); returning 1 retires the command.
#[repr(C)]
#[derive(Clone, Copy)]
pub(crate) struct Completion {
    pub(crate) callback: Option<extern "C" fn(*mut c_void, *mut c_int) -> c_int>,
    pub(crate) user_data: *mut c_void,
    pub(crate) free: Option<extern "C" fn(*mut c_void)>,
}

/// libnbd.
pub(crate) struct Nbd {
    pub(crate) create: unsafe extern "C" fn() -> Handle,
    pub(crate) close: unsafe extern "C" fn(Handle),
    pub(crate) get_error: unsafe extern "C" fn() -> *const c_char,
    pub(crate) get_errno: unsafe extern "C" fn() -> c_int,
    pub(crate) aio_connect_uri: unsafe extern "C" fn(Handle, *const c_char) -> c_int,
    pub(crate) aio_is_ready: unsafe extern "C" fn(Handle) -> c_int,
    pub(crate) aio_is_dead: unsafe extern "C" fn(Handle) -> c_int,
    pub(crate) aio_is_closed: unsafe extern "C" fn(Handle) -> c_int,
    pub(crate) poll: unsafe extern "C" fn(Handle, c_int) -> c_int,
    pub(crate) get_size: unsafe extern "C" fn(Handle) -> i64,
    pub(crate) is_read_only: unsafe extern "C" fn(Handle) -> c_int,
    pub(crate) pread: unsafe extern "C" fn(Handle, *mut c_void, size_t, u64, u32) -> c_int,
    pub(crate) aio_pread:
        unsafe extern "C" fn(Handle, *mut c_void, size_t, u64, Completion, u32) -> i64,
    pub(crate) aio_pwrite:
        unsafe extern "C" fn(Handle, *const c_void, size_t, u64, Completion, u32) -> i64,
    pub(crate) aio_trim: unsafe extern "C" fn(Handle, u64, u64, Completion, u32) -> i64,
    pub(crate) aio_flush: unsafe extern "C" fn(Handle, Completion, u32) -> i64,
    _lib: Library,
}

/// Opens libnbd and copies out each named function pointer.
macro_rules! load {
    ($file:expr, { $($field:ident = $sym:literal),* $(,)? }) => {{
        let missing = |e: libloading::Error| NbdError::Missing { detail: e.to_string() };
        // SAFETY: loading a shared library runs its initialisers; libnbd is meant to be loaded
        // by any process.
        let lib = unsafe { Library::new($file) }.map_err(missing)?;
        // SAFETY: each symbol is looked up with the type of its C declaration, and the
        // pointers are used only while `_lib` (moved into the struct) keeps the library loaded.
        unsafe {
            Ok(Nbd {
                $($field: *lib.get(concat!($sym, "\0").as_bytes()).map_err(missing)?,)*
                _lib: lib,
            })
        }
    }};
}

fn load_nbd() -> Result<Nbd, NbdError> {
    load!("libnbd.so.0", {
        create = "nbd_create",
        close = "nbd_close",
        get_error = "nbd_get_error",
        get_errno = "nbd_get_errno",
        aio_connect_uri = "nbd_aio_connect_uri",
        aio_is_ready = "nbd_aio_is_ready",
        aio_is_dead = "nbd_aio_is_dead",
        aio_is_closed = "nbd_aio_is_closed",
        poll = "nbd_poll",
        get_size = "nbd_get_size",
        is_read_only = "nbd_is_read_only",
        pread = "nbd_pread",
        aio_pread = "nbd_aio_pread",
        aio_pwrite = "nbd_aio_pwrite",
        aio_trim = "nbd_aio_trim",
        aio_flush = "nbd_aio_flush",
    })
}

static NBD: OnceLock<Result<Nbd, NbdError>> = OnceLock::new();

/// libnbd, loaded on first use.
pub(crate) fn nbd() -> Result<&'static Nbd, NbdError> {
    NBD.get_or_init(load_nbd).as_ref().map_err(Clone::clone)
}

impl Nbd {
    /// The error of the call `what` that just failed on this thread (libnbd keeps its message
    /// and errno per thread).
    pub(crate) fn last_error(&self, what: impl Into<String>) -> NbdError {
        // SAFETY: both read the calling thread's last error; the message is copied at once.
        let (message, errno) = unsafe {
            let m = (self.get_error)();
            let m = if m.is_null() {
                "unknown error".to_string()
            } else {
                std::ffi::CStr::from_ptr(m).to_string_lossy().into_owned()
            };
            (m, (self.get_errno)())
        };
        NbdError::Call {
            what: what.into(),
            message,
            errno,
        }
    }
}
