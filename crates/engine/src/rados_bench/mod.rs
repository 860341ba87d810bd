//! `rados bench` through librados: `write` fills new objects for a number of seconds with
//! `threads` writes in flight, `seq` reads back the objects a write run left in order, `rand`
//! reads them at random, `cleanup` removes them. Each run is a step of the runner
//! ([`BenchStep`]): its live counters (requests started and finished, the last and average
//! latency) feed the progress source, and its result is the runner's. The front end words both.

pub mod objects;
mod step;
mod submit;

use crate::result::LatRecord;
use crate::sys;
use iomark_ceph::{CephError, Cluster, ConnectOptions, Pool};
use objects::{metadata_object, object_name, prefix, Metadata};
use std::sync::Arc;

pub use step::{BenchStep, CLEANUP_JOB};

/// Which run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Write,
    Seq,
    Rand,
}

/// What to run.
#[derive(Clone, Debug)]
pub struct BenchSpec {
    pub mode: Mode,
    pub seconds: u64,
    /// Bytes per write (and object size); reads use the size the write run left.
    pub op_size: u64,
    pub threads: u32,
    pub run_name: Option<String>,
    pub no_cleanup: bool,
}

fn ceph(e: CephError) -> String {
    e.to_string()
}

/// Connects and opens the pool.
pub fn open(connect: &ConnectOptions, pool: &str) -> Result<Arc<Pool>, String> {
    let c = Arc::new(Cluster::connect(connect).map_err(ceph)?);
    Ok(Arc::new(Pool::open(c, pool).map_err(ceph)?))
}

/// The metadata a write run left in `pool`.
fn read_metadata(pool: &Pool, run_name: Option<&str>) -> Result<Metadata, String> {
    let name = metadata_object(run_name);
    let mut b = [0u8; 64];
    let n = pool.read(&name, &mut b, 0).map_err(|e| {
        format!(
            "no benchmark data to read ({e}): a write run that keeps its objects must come first"
        )
    })?;
    Metadata::decode(&b[..n]).ok_or_else(|| format!("object {name} is not benchmark metadata"))
}

/// Removes the objects of the last write run (or the named one) and its metadata; returns how
/// many data objects were removed.
pub fn cleanup(pool: &Pool, run_name: Option<&str>) -> Result<u64, String> {
    remove_run(pool, run_name, &mut LatRecord::default())
}

/// [`cleanup`], each removal of a data object timed into `lat`.
fn remove_run(pool: &Pool, run_name: Option<&str>, lat: &mut LatRecord) -> Result<u64, String> {
    let m = read_metadata(pool, run_name)?;
    let pfx = prefix(m.pid);
    let mut n = 0;
    for i in 0..m.objects as u64 {
        let t0 = sys::now_ns();
        if pool.remove(&object_name(&pfx, i)).is_ok() {
            lat.add(sys::now_ns().saturating_sub(t0));
            n += 1;
        }
    }
    pool.remove(&metadata_object(run_name)).map_err(ceph)?;
    Ok(n)
}
