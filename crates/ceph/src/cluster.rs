//! A connection to a Ceph cluster: the configuration read as the `rados`/`rbd` commands read it
//! (`--conf`, else `$CEPH_CONF`, else the cluster's file under /etc/ceph; `$CEPH_ARGS`), the client
//! name and keyring, and timeouts so that a cluster that does not answer ends the call rather
//! than hanging (librados waits forever by default).

use crate::api::{self, Handle, Rados};
use crate::error::{cstr, CephError};
use std::path::PathBuf;
use std::ptr;

/// Seconds iomark waits for the monitors (connecting, and each monitor request) unless the
/// configuration sets another bound.
pub const TIMEOUT_SECS: u32 = 15;
/// Seconds iomark waits for one OSD request unless the configuration sets another bound.
pub const OSD_TIMEOUT_SECS: u32 = 60;

/// How to reach a cluster.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConnectOptions {
    /// The cluster's name (`ceph` by default): names its configuration file and keyring.
    pub cluster: String,
    /// The client: an id (`admin`) or a full name (`client.admin`).
    pub client: String,
    /// The configuration file (`None`: `$CEPH_CONF` or the default places).
    pub conf: Option<PathBuf>,
    /// The keyring (`None`: the configuration's).
    pub keyring: Option<PathBuf>,
}

impl Default for ConnectOptions {
    fn default() -> Self {
        ConnectOptions {
            cluster: "ceph".into(),
            client: "admin".into(),
            conf: None,
            keyring: None,
        }
    }
}

impl ConnectOptions {
    /// The client's full name (`client.ID`).
    pub fn full_name(&self) -> String {
        if self.client.contains('.') {
            self.client.clone()
        } else {
            format!("client.{}", self.client)
        }
    }
}

/// A connected cluster handle (thread-safe, as librados's handles are).
pub struct Cluster {
    pub(crate) api: &'static Rados,
    pub(crate) handle: Handle,
}

// SAFETY: a rados_t may be used from any thread (librados locks internally).
unsafe impl Send for Cluster {}
// SAFETY: as above.
unsafe impl Sync for Cluster {}

impl Cluster {
    /// Connects (at most `TIMEOUT_SECS` when no monitor answers).
    pub fn connect(o: &ConnectOptions) -> Result<Cluster, CephError> {
        let api = api::rados()?;
        let cluster = cstr(&o.cluster)?;
        let name = cstr(&o.full_name())?;
        let mut handle: Handle = ptr::null_mut();
        // SAFETY: handle is an out pointer; the strings live across the call.
        let r = unsafe { (api.create2)(&mut handle, cluster.as_ptr(), name.as_ptr(), 0) };
        if r < 0 {
            return Err(CephError::call("cannot create the Ceph client", r as i64));
        }
        // From here Drop shuts the handle down, also on error.
        let c = Cluster { api, handle };
        c.configure(o)?;
        // SAFETY: the handle is configured and not yet connected.
        let r = unsafe { (api.connect)(c.handle) };
        if r < 0 {
            let waited = if r == -libc::ETIMEDOUT {
                let secs = c.get("client_mount_timeout").unwrap_or_default();
                let secs = secs.trim_end_matches('0').trim_end_matches('.');
                format!(" (waited {secs} s)")
            } else {
                String::new()
            };
            return Err(CephError::call(
                format!(
                    "cannot connect to Ceph cluster '{}' as {}{waited}",
                    o.cluster,
                    o.full_name()
                ),
                r as i64,
            ));
        }
        Ok(c)
    }

    fn configure(&self, o: &ConnectOptions) -> Result<(), CephError> {
        let conf = match &o.conf {
            Some(p) => Some(cstr(&p.to_string_lossy())?),
            None => None,
        };
        let path = conf.as_ref().map_or(ptr::null(), |c| c.as_ptr());
        // SAFETY: path is NULL (the default places) or a C string living across the call.
        let r = unsafe { (self.api.conf_read_file)(self.handle, path) };
        if let (true, Some(p)) = (r < 0, &o.conf) {
            let p = p.display();
            return Err(CephError::call(
                format!("cannot read Ceph configuration {p}"),
                r as i64,
            ));
        }
        // SAFETY: NULL means $CEPH_ARGS.
        unsafe { (self.api.conf_parse_env)(self.handle, ptr::null()) };
        if let Some(k) = &o.keyring {
            self.set("keyring", &k.to_string_lossy())?;
        }
        // Bounds unless the configuration chose its own.
        let unbounded = |v: Option<String>, default: f64| {
            v.and_then(|s| s.trim().parse::<f64>().ok())
                .is_none_or(|x| x == 0.0 || x == default)
        };
        if unbounded(self.get("client_mount_timeout"), 300.0) {
            self.set("client_mount_timeout", &TIMEOUT_SECS.to_string())?;
        }
        if unbounded(self.get("rados_mon_op_timeout"), 0.0) {
            self.set("rados_mon_op_timeout", &TIMEOUT_SECS.to_string())?;
        }
        if unbounded(self.get("rados_osd_op_timeout"), 0.0) {
            self.set("rados_osd_op_timeout", &OSD_TIMEOUT_SECS.to_string())?;
        }
        Ok(())
    }

    /// Sets a configuration option.
    pub fn set(&self, option: &str, value: &str) -> Result<(), CephError> {
        let (o, v) = (cstr(option)?, cstr(value)?);
        // SAFETY: both strings live across the call.
        let r = unsafe { (self.api.conf_set)(self.handle, o.as_ptr(), v.as_ptr()) };
        if r < 0 {
            return Err(CephError::call(
                format!("cannot set {option}={value}"),
                r as i64,
            ));
        }
        Ok(())
    }

    /// A configuration option's value.
    pub fn get(&self, option: &str) -> Option<String> {
        let o = cstr(option).ok()?;
        let mut buf = vec![0u8; 256];
        // SAFETY: buf is writable for its length.
        let r = unsafe {
            (self.api.conf_get)(self.handle, o.as_ptr(), buf.as_mut_ptr().cast(), buf.len())
        };
        if r < 0 {
            return None;
        }
        let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
        Some(String::from_utf8_lossy(&buf[..end]).into_owned())
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        // SAFETY: the handle came from rados_create2 and is shut down once; pools and images
        // hold the cluster, so none outlives it.
        unsafe { (self.api.shutdown)(self.handle) }
    }
}
