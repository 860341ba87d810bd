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
    let name = t.pool.as_deref().ok_or_else(|| CephError::Call {
        what: "no pool given".into(),
        errno: libc::EINVAL,
    })?;
    let cluster = Arc::new(Cluster::connect(&options(t))?);
    Ok(Arc::new(Pool::open(cluster, name)?))
}

/// The image named by `rbdname=`, opened.
pub(crate) fn image(t: &CephTarget, read_only: bool) -> Result<Image, CephError> {
    let name = t.image.as_deref().ok_or_else(|| CephError::Call {
        what: "no image given".into(),
        errno: libc::EINVAL,
    })?;
    Image::open(pool(t)?, name, read_only)
}
