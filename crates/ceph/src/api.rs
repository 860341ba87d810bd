//! The C functions of librados and librbd that iomark calls, looked up once when first needed.
//! Their signatures are those of Ceph's public C API (`rados/librados.h`, `rbd/librbd.h`).

use crate::error::CephError;
use libc::{c_char, c_int, c_void, size_t, ssize_t, time_t};
use libloading::Library;
use std::sync::OnceLock;

pub(crate) type Handle = *mut c_void;
/// `rados_callback_t` and `rbd_callback_t`: (completion, argument).
pub(crate) type Callback = extern "C" fn(Handle, *mut c_void);

/// `rbd_image_watcher_t`.
#[repr(C)]
pub(crate) struct RawWatcher {
    pub(crate) addr: *mut c_char,
    pub(crate) id: i64,
    pub(crate) cookie: u64,
}

/// librados.
pub(crate) struct Rados {
    pub(crate) create2:
        unsafe extern "C" fn(*mut Handle, *const c_char, *const c_char, u64) -> c_int,
    pub(crate) conf_read_file: unsafe extern "C" fn(Handle, *const c_char) -> c_int,
    pub(crate) conf_parse_env: unsafe extern "C" fn(Handle, *const c_char) -> c_int,
    pub(crate) conf_set: unsafe extern "C" fn(Handle, *const c_char, *const c_char) -> c_int,
    pub(crate) conf_get: unsafe extern "C" fn(Handle, *const c_char, *mut c_char, size_t) -> c_int,
    pub(crate) connect: unsafe extern "C" fn(Handle) -> c_int,
    pub(crate) shutdown: unsafe extern "C" fn(Handle),
    pub(crate) ioctx_create: unsafe extern "C" fn(Handle, *const c_char, *mut Handle) -> c_int,
    pub(crate) ioctx_destroy: unsafe extern "C" fn(Handle),
    pub(crate) write:
        unsafe extern "C" fn(Handle, *const c_char, *const c_char, size_t, u64) -> c_int,
    pub(crate) write_full:
        unsafe extern "C" fn(Handle, *const c_char, *const c_char, size_t) -> c_int,
    pub(crate) read: unsafe extern "C" fn(Handle, *const c_char, *mut c_char, size_t, u64) -> c_int,
    pub(crate) remove: unsafe extern "C" fn(Handle, *const c_char) -> c_int,
    pub(crate) stat: unsafe extern "C" fn(Handle, *const c_char, *mut u64, *mut time_t) -> c_int,
    pub(crate) aio_create_completion2:
        unsafe extern "C" fn(*mut c_void, Callback, *mut Handle) -> c_int,
    pub(crate) aio_write:
        unsafe extern "C" fn(Handle, *const c_char, Handle, *const c_char, size_t, u64) -> c_int,
    pub(crate) aio_write_full:
        unsafe extern "C" fn(Handle, *const c_char, Handle, *const c_char, size_t) -> c_int,
    pub(crate) aio_read:
        unsafe extern "C" fn(Handle, *const c_char, Handle, *mut c_char, size_t, u64) -> c_int,
    pub(crate) aio_get_return_value: unsafe extern "C" fn(Handle) -> c_int,
    pub(crate) aio_release: unsafe extern "C" fn(Handle),
    pub(crate) create_write_op: unsafe extern "C" fn() -> Handle,
    pub(crate) release_write_op: unsafe extern "C" fn(Handle),
    pub(crate) write_op_zero: unsafe extern "C" fn(Handle, u64, u64),
    pub(crate) aio_write_op_operate:
        unsafe extern "C" fn(Handle, Handle, Handle, *const c_char, *mut time_t, c_int) -> c_int,
    pub(crate) list_open: unsafe extern "C" fn(Handle, *mut Handle) -> c_int,
    pub(crate) list_next: unsafe extern "C" fn(
        Handle,
        *mut *const c_char,
        *mut *const c_char,
        *mut *const c_char,
    ) -> c_int,
    pub(crate) list_close: unsafe extern "C" fn(Handle),
    _lib: Library,
}

/// librbd.
pub(crate) struct Rbd {
    pub(crate) open:
        unsafe extern "C" fn(Handle, *const c_char, *mut Handle, *const c_char) -> c_int,
    pub(crate) open_read_only:
        unsafe extern "C" fn(Handle, *const c_char, *mut Handle, *const c_char) -> c_int,
    pub(crate) close: unsafe extern "C" fn(Handle) -> c_int,
    pub(crate) get_size: unsafe extern "C" fn(Handle, *mut u64) -> c_int,
    pub(crate) get_features: unsafe extern "C" fn(Handle, *mut u64) -> c_int,
    pub(crate) read: unsafe extern "C" fn(Handle, u64, size_t, *mut c_char) -> ssize_t,
    pub(crate) write: unsafe extern "C" fn(Handle, u64, size_t, *const c_char) -> ssize_t,
    pub(crate) flush: unsafe extern "C" fn(Handle) -> c_int,
    pub(crate) aio_create_completion:
        unsafe extern "C" fn(*mut c_void, Callback, *mut Handle) -> c_int,
    pub(crate) aio_read: unsafe extern "C" fn(Handle, u64, size_t, *mut c_char, Handle) -> c_int,
    pub(crate) aio_write: unsafe extern "C" fn(Handle, u64, size_t, *const c_char, Handle) -> c_int,
    pub(crate) aio_discard: unsafe extern "C" fn(Handle, u64, u64, Handle) -> c_int,
    pub(crate) aio_flush: unsafe extern "C" fn(Handle, Handle) -> c_int,
    pub(crate) aio_get_return_value: unsafe extern "C" fn(Handle) -> ssize_t,
    pub(crate) aio_release: unsafe extern "C" fn(Handle),
    pub(crate) watchers_list: unsafe extern "C" fn(Handle, *mut RawWatcher, *mut size_t) -> c_int,
    pub(crate) watchers_list_cleanup: unsafe extern "C" fn(*mut RawWatcher, size_t),
    _lib: Library,
}

/// Opens `file` and copies out each named function pointer.
macro_rules! load {
    ($ty:ident, $file:expr, $package:expr, { $($field:ident = $sym:literal),* $(,)? }) => {{
        // SAFETY: loading a shared library runs its initialisers; Ceph's client libraries are
        // meant to be loaded by any process.
        let lib = unsafe { Library::new($file) }.map_err(|e| CephError::Missing {
            library: $file,
            package: $package,
            detail: e.to_string(),
        })?;
        // SAFETY: each symbol is looked up with the type of its C declaration, and the
        // pointers are used only while `_lib` (moved into the struct) keeps the library loaded.
        unsafe {
            Ok($ty {
                $($field: *lib.get(concat!($sym, "\0").as_bytes()).map_err(|e| CephError::Missing {
                    library: $file,
                    package: $package,
                    detail: e.to_string(),
                })?,)*
                _lib: lib,
            })
        }
    }};
}

fn load_rados() -> Result<Rados, CephError> {
    load!(Rados, "librados.so.2", "librados2", {
        create2 = "rados_create2",
        conf_read_file = "rados_conf_read_file",
        conf_parse_env = "rados_conf_parse_env",
        conf_set = "rados_conf_set",
        conf_get = "rados_conf_get",
        connect = "rados_connect",
        shutdown = "rados_shutdown",
        ioctx_create = "rados_ioctx_create",
        ioctx_destroy = "rados_ioctx_destroy",
        write = "rados_write",
        write_full = "rados_write_full",
        read = "rados_read",
        remove = "rados_remove",
        stat = "rados_stat",
        aio_create_completion2 = "rados_aio_create_completion2",
        aio_write = "rados_aio_write",
        aio_write_full = "rados_aio_write_full",
        aio_read = "rados_aio_read",
        aio_get_return_value = "rados_aio_get_return_value",
        aio_release = "rados_aio_release",
        create_write_op = "rados_create_write_op",
        release_write_op = "rados_release_write_op",
        write_op_zero = "rados_write_op_zero",
        aio_write_op_operate = "rados_aio_write_op_operate",
        list_open = "rados_nobjects_list_open",
        list_next = "rados_nobjects_list_next",
        list_close = "rados_nobjects_list_close",
    })
}

fn load_rbd() -> Result<Rbd, CephError> {
    load!(Rbd, "librbd.so.1", "librbd1", {
        open = "rbd_open",
        open_read_only = "rbd_open_read_only",
        close = "rbd_close",
        get_size = "rbd_get_size",
        get_features = "rbd_get_features",
        read = "rbd_read",
        write = "rbd_write",
        flush = "rbd_flush",
        aio_create_completion = "rbd_aio_create_completion",
        aio_read = "rbd_aio_read",
        aio_write = "rbd_aio_write",
        aio_discard = "rbd_aio_discard",
        aio_flush = "rbd_aio_flush",
        aio_get_return_value = "rbd_aio_get_return_value",
        aio_release = "rbd_aio_release",
        watchers_list = "rbd_watchers_list",
        watchers_list_cleanup = "rbd_watchers_list_cleanup",
    })
}

static RADOS: OnceLock<Result<Rados, CephError>> = OnceLock::new();
static RBD: OnceLock<Result<Rbd, CephError>> = OnceLock::new();

/// librados, loaded on first use.
pub(crate) fn rados() -> Result<&'static Rados, CephError> {
    RADOS.get_or_init(load_rados).as_ref().map_err(Clone::clone)
}

/// librbd, loaded on first use.
pub(crate) fn rbd() -> Result<&'static Rbd, CephError> {
    RBD.get_or_init(load_rbd).as_ref().map_err(Clone::clone)
}
