//! The rbd engine: I/O on a Ceph RBD image through librbd, without mapping it (fio's
//! `ioengine=rbd`, with its options `clustername`, `pool`, `rbdname`, `clientname`, `busy_poll`).
//!
//! Reads, writes, discards (trims) and flushes (fsync, fdatasync) are asynchronous librbd requests
//! whose completions land in a queue by slot (`iomark_ceph::AioSlots`); `getevents` takes them,
//! waiting on a condition variable or, with `busy_poll`, spinning. Every file of the job maps onto the one
//! image. librbd answers a completed write with 0: the engine reports the request's length.
//!
//! librbd's cache is set up as fio's engine sets it: `direct=1` turns it off for the job's
//! connection, `direct=0` flushes once after opening so that a cache that is write-through until
//! the first flush (Ceph's default) writes back.

mod connect;
pub(crate) mod probe;

pub(crate) use connect::pool as connect_pool;

use super::{
    Completion, Engine, EngineDecl, EngineError, EngineFlags, EngineKind, EngineOption,
    EngineSetup, IoUnit, Op, Queued,
};
use iomark_ceph::{Aio, AioSlots, AioTarget, CephError, Image};
use std::io;
use std::sync::Arc;

/// The options both Ceph engines read, and rbd's own.
pub(crate) const OPTIONS: &[EngineOption] = &[
    EngineOption::ClusterName,
    EngineOption::Pool,
    EngineOption::RbdName,
    EngineOption::ClientName,
    EngineOption::BusyPoll,
];

/// An image's flags: asynchronous, opens no local file and lays nothing out.
pub(crate) const CEPH_FLAGS: EngineFlags = EngineFlags::REMOTE;

/// RBD images through librbd.
pub(crate) const DECL: EngineDecl = EngineDecl {
    kind: EngineKind::Rbd,
    flags: CEPH_FLAGS,
    options: OPTIONS,
    create: |_, setup| Ok(Box::new(RbdEngine::new(setup)?)),
};

/// A Ceph error as the engine reports it.
pub(crate) fn engine_error(e: CephError) -> EngineError {
    match e {
        CephError::Missing { .. } => EngineError::Unavailable(e.to_string()),
        e => EngineError::Io(e.into()),
    }
}

/// The cache set-up of a job: fio's rule (`direct=1` off, else write-back after a flush) unless
/// the job asks for the configuration's own (rbd-bench).
fn cache_mode(t: &iomark_model::job::CephTarget, direct: bool) -> connect::Cache {
    if t.cache_as_configured {
        connect::Cache::AsConfigured
    } else if direct {
        connect::Cache::Off
    } else {
        connect::Cache::WriteBack
    }
}

pub(crate) struct RbdEngine {
    slots: AioSlots,
    /// The image (also held by the Aio), for the verifier's synchronous reads.
    image: Arc<Image>,
}

impl RbdEngine {
    fn new(setup: &EngineSetup) -> Result<RbdEngine, EngineError> {
        let t = &setup.options.ceph;
        if setup.files.is_empty() && t.pool.is_none() {
            return Err(EngineError::Unavailable("needs a pool and an image".into()));
        }
        let cache = cache_mode(t, setup.direct);
        let image = Arc::new(connect::image(t, false, cache).map_err(engine_error)?);
        let depth = setup.depth.max(1);
        let aio = Aio::new(AioTarget::Image(image.clone()), depth, t.busy_poll);
        Ok(RbdEngine {
            slots: AioSlots::new(aio, depth),
            image,
        })
    }
}

impl Engine for RbdEngine {
    #[cfg(test)]
    fn name(&self) -> &'static str {
        "rbd"
    }
    fn is_sync(&self) -> bool {
        false
    }
    fn queue(&mut self, io: &IoUnit) -> Queued {
        let len = match io.op {
            Op::Fsync | Op::Fdatasync => 0,
            _ => io.len,
        };
        // SAFETY: the worker keeps the slot's buffer untouched until its completion is reaped.
        self.slots
            .submit(io.slot, len, io.op == Op::Read, |aio| unsafe {
                match io.op {
                    Op::Read => aio.read(io.slot, io.offset, io.buf, io.len),
                    Op::Write => aio.write(io.slot, io.offset, io.buf, io.len),
                    Op::Trim => aio.discard(io.slot, io.offset, io.len as u64),
                    Op::Fsync | Op::Fdatasync => aio.flush(io.slot),
                }
            });
        Queued::Pending
    }
    fn commit(&mut self) -> io::Result<usize> {
        Ok(self.slots.commit())
    }
    fn read_at(&mut self, _file: u32, buf: &mut [u8], offset: u64) -> Option<io::Result<usize>> {
        Some(self.image.read_at(buf, offset).map_err(Into::into))
    }
    fn getevents(
        &mut self,
        min: usize,
        max: usize,
        out: &mut Vec<Completion>,
    ) -> io::Result<usize> {
        Ok(self
            .slots
            .reap(min, max, out, |slot, result| Completion { slot, result }))
    }
}

#[cfg(test)]
mod tests {
    use super::{cache_mode, connect::Cache};
    use iomark_model::job::CephTarget;

    #[test]
    fn the_cache_is_set_up_by_direct_as_fio_does_unless_the_job_keeps_the_configuration() {
        let fio = CephTarget::default();
        assert_eq!(cache_mode(&fio, true), Cache::Off);
        assert_eq!(cache_mode(&fio, false), Cache::WriteBack);
        let bench = CephTarget {
            cache_as_configured: true,
            ..CephTarget::default()
        };
        assert_eq!(cache_mode(&bench, true), Cache::AsConfigured);
        assert_eq!(cache_mode(&bench, false), Cache::AsConfigured);
    }
}
