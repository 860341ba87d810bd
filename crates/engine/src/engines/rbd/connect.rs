//! From a job's Ceph options (fio's `clustername`, `pool`, `rbdname`, `clientname`, `conf`) to a
//! connection, a pool and an image: shared by the rbd and rados engines and the plan's probe.

use crate::job::CephTarget;
use iomark_ceph::{CephError, Cluster, ConnectOptions, Image, Pool};
use std::path::PathBuf;
use std::sync::Arc;

/// How to connect for `t` (fio's defaults: cluster "ceph", client "admin").
pub(crate) fn options(t: &CephTarget) -> ConnectOptions {
    let d = ConnectOptions::default();
    ConnectOptions {
        cluster: t.cluster.clone().unwrap_or(d.cluster),
        client: t.client.clone().unwrap_or(d.client),
        conf: t.conf.as_ref().map(PathBuf::from),
        keyring: None,
    }
}

/// The pool named by `pool=`, connected.
pub(crate) fn pool(t: &CephTarget) -> Result<Arc<Pool>, CephError> {
    pool_with(t, |_| Ok(()))
}

/// The pool, with `configure` applied to the connection before the pool opens.
fn pool_with(
    t: &CephTarget,
    configure: impl FnOnce(&Cluster) -> Result<(), CephError>,
) -> Result<Arc<Pool>, CephError> {
    let name = t.pool.as_deref().ok_or_else(|| CephError::Call {
        what: "no pool given".into(),
        errno: libc::EINVAL,
    })?;
    let cluster = Cluster::connect(&options(t))?;
    configure(&cluster)?;
    Ok(Arc::new(Pool::open(Arc::new(cluster), name)?))
}

/// How librbd's client-side cache serves the job, as fio's rbd engine sets it up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Cache {
    /// Read-only probes: whatever the configuration says, nothing flushed.
    AsConfigured,
    /// `direct=1`: the cache off (`rbd_cache=false`), every request goes to the cluster.
    Off,
    /// `direct=0`: one flush right after opening, which moves a cache configured write-through
    /// until the first flush (Ceph's default) to write-back.
    WriteBack,
}

/// The image named by `rbdname=`, opened with the cache set up as `cache` says.
pub(crate) fn image(t: &CephTarget, read_only: bool, cache: Cache) -> Result<Image, CephError> {
    let name = t.image.as_deref().ok_or_else(|| CephError::Call {
        what: "no image given".into(),
        errno: libc::EINVAL,
    })?;
    let pool = pool_with(t, |c| match cache {
        Cache::Off => c.set("rbd_cache", "false"),
        _ => Ok(()),
    })?;
    let image = Image::open(pool, name, read_only)?;
    if cache == Cache::WriteBack {
        // A failed flush leaves the cache as configured: the I/O itself is still right.
        let _ = image.flush();
    }
    Ok(image)
}
