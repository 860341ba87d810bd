//! The rbd engine: I/O on a Ceph RBD image through librbd, without mapping it (fio's
//! `ioengine=rbd`, with its options `clustername`, `pool`, `rbdname`, `clientname`, `busy_poll`).
//!
//! Reads, writes, discards (trims) and flushes (fsync, fdatasync) are asynchronous librbd requests
//! whose completions land in a queue by slot (`iomark_ceph::Aio`); `getevents` takes them, waiting
//! on a condition variable or, with `busy_poll`, spinning. Every file of the job maps onto the one
//! image. librbd answers a completed write with 0: the engine reports the request's length.

mod connect;
pub(crate) mod probe;

pub(crate) use connect::pool as connect_pool;

use super::{
    Completion, Engine, EngineDecl, EngineError, EngineFlags, EngineKind, EngineOption,
    EngineSetup, IoUnit, Op, Queued,
};
use iomark_ceph::{Aio, AioTarget, CephError, Image};
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
pub(crate) const CEPH_FLAGS: EngineFlags = EngineFlags {
    sync: false,
    opens_file: false,
    diskless: true,
    metadata: false,
    direct: false,
    noio: false,
};

/// RBD images through librbd.
pub(crate) const DECL: EngineDecl = EngineDecl {
    kind: EngineKind::Rbd,
    name: "rbd",
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

pub(crate) struct RbdEngine {
    aio: Aio,
    /// The image (also held by `aio`), for the verifier's synchronous reads.
    image: Arc<Image>,
    /// The length of each slot's request (librbd answers a write with 0).
    lens: Box<[i64]>,
    /// Whether each slot's request is a read.
    reads: Box<[bool]>,
    /// Requests refused at submission, reported by the next getevents.
    failed: Vec<Completion>,
    reaped: Vec<(u32, i64)>,
    submitted: usize,
}

impl RbdEngine {
    fn new(setup: &EngineSetup) -> Result<RbdEngine, EngineError> {
        let t = &setup.options.ceph;
        if setup.files.is_empty() && t.pool.is_none() {
            return Err(EngineError::Unavailable("needs a pool and an image".into()));
        }
        let image = Arc::new(connect::image(t, false).map_err(engine_error)?);
        let depth = setup.depth.max(1);
        Ok(RbdEngine {
            aio: Aio::new(AioTarget::Image(image.clone()), depth, t.busy_poll),
            image,
            lens: vec![0; depth as usize].into(),
            reads: vec![false; depth as usize].into(),
            failed: Vec::new(),
            reaped: Vec::with_capacity(depth as usize),
            submitted: 0,
        })
    }
}

/// Moves refused submissions, then reaped completions (mapped by `map`), into `out`: at least
/// `min` (waiting) and at most `max`. Shared with the rados engine.
pub(crate) fn take(
    aio: &Aio,
    failed: &mut Vec<Completion>,
    reaped: &mut Vec<(u32, i64)>,
    (min, max): (usize, usize),
    out: &mut Vec<Completion>,
    map: impl Fn(u32, i64) -> i64,
) -> usize {
    let mut n = failed.len().min(max);
    out.extend(failed.drain(..n));
    if n < max {
        reaped.clear();
        let want = min.saturating_sub(n).min(aio.in_flight());
        n += aio.reap(want, max - n, reaped);
        out.extend(reaped.iter().map(|&(slot, r)| Completion {
            slot,
            result: map(slot, r),
        }));
    }
    n
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
        let s = io.slot as usize;
        self.lens[s] = io.len as i64;
        self.reads[s] = io.op == Op::Read;
        // SAFETY: the worker keeps the slot's buffer untouched until its completion is reaped.
        let r = unsafe {
            match io.op {
                Op::Read => self.aio.read(io.slot, io.offset, io.buf, io.len),
                Op::Write => self.aio.write(io.slot, io.offset, io.buf, io.len),
                Op::Trim => self.aio.discard(io.slot, io.offset, io.len as u64),
                Op::Fsync | Op::Fdatasync => {
                    self.lens[s] = 0;
                    self.aio.flush(io.slot)
                }
            }
        };
        match r {
            Ok(()) => self.submitted += 1,
            Err(e) => self.failed.push(Completion {
                slot: io.slot,
                result: -(e.errno().max(1) as i64),
            }),
        }
        Queued::Pending
    }
    fn commit(&mut self) -> io::Result<usize> {
        Ok(std::mem::take(&mut self.submitted))
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
        let (lens, reads) = (&self.lens, &self.reads);
        Ok(take(
            &self.aio,
            &mut self.failed,
            &mut self.reaped,
            (min, max),
            out,
            |slot, r| {
                if r < 0 || reads[slot as usize] {
                    r
                } else {
                    lens[slot as usize]
                }
            },
        ))
    }
}
