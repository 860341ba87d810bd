//! The rados engine: each of the job's files is a RADOS object of the same name in `pool=`
//! (fio's `ioengine=rados`, with `clustername`, `pool`, `clientname`, `conf`, `busy_poll` and
//! `touch_objects`). Reads and writes are asynchronous librados requests at the I/O's offset in
//! its object; with `touch_objects` (the default) the objects are created when the engine
//! starts, and they are removed when it ends, as fio's engine does. A trim zeroes its range of
//! the object (a write operation of one zero step, as fio's engine does it); syncs complete at
//! once (each write is durable when it completes).

use super::rbd::{connect_pool, engine_error, CEPH_FLAGS, OPTIONS};
use super::{
    Completion, Engine, EngineDecl, EngineError, EngineKind, EngineOption, EngineSetup, IoUnit, Op,
    Queued,
};
use iomark_ceph::{Aio, AioSlots, AioTarget, Pool};
use std::ffi::CString;
use std::io;
use std::sync::Arc;

const RADOS_OPTIONS: [EngineOption; 7] = {
    let mut a = [EngineOption::Conf; 7];
    let mut i = 0;
    while i < OPTIONS.len() {
        a[i] = OPTIONS[i];
        i += 1;
    }
    a[5] = EngineOption::Conf;
    a[6] = EngineOption::TouchObjects;
    a
};

/// RADOS objects through librados.
pub(crate) const DECL: EngineDecl = EngineDecl {
    kind: EngineKind::Rados,
    flags: CEPH_FLAGS,
    options: &RADOS_OPTIONS,
    create: |_, setup| Ok(Box::new(RadosEngine::new(setup)?)),
};

pub(crate) struct RadosEngine {
    slots: AioSlots,
    pool: Arc<Pool>,
    /// The object of each file.
    objects: Vec<CString>,
}

impl RadosEngine {
    fn new(setup: &EngineSetup) -> Result<RadosEngine, EngineError> {
        let t = &setup.options.ceph;
        if setup.files.is_empty() && t.pool.is_none() {
            return Err(EngineError::Unavailable("needs a pool".into()));
        }
        let pool = connect_pool(t).map_err(engine_error)?;
        let mut objects = Vec::with_capacity(setup.files.len());
        for f in setup.files {
            let name = f.path.to_string_lossy().into_owned();
            if t.touch_objects.unwrap_or(true) {
                pool.write(&name, &[], 0).map_err(engine_error)?;
            }
            objects.push(
                CString::new(name)
                    .map_err(|_| EngineError::Io(io::Error::from_raw_os_error(libc::EINVAL)))?,
            );
        }
        let depth = setup.depth.max(1);
        let aio = Aio::new(AioTarget::Pool(pool.clone()), depth, t.busy_poll);
        Ok(RadosEngine {
            slots: AioSlots::new(aio, depth),
            pool,
            objects,
        })
    }
}

impl Engine for RadosEngine {
    #[cfg(test)]
    fn name(&self) -> &'static str {
        "rados"
    }
    fn is_sync(&self) -> bool {
        false
    }
    fn queue(&mut self, io: &IoUnit) -> Queued {
        if matches!(io.op, Op::Fsync | Op::Fdatasync) {
            return Queued::Done(0);
        }
        let oid = &self.objects[io.file as usize];
        // SAFETY: the worker keeps the slot's buffer untouched until its completion is reaped.
        self.slots
            .submit(io.slot, io.len, io.op == Op::Read, |aio| unsafe {
                match io.op {
                    Op::Read => aio.object_read(io.slot, oid, io.offset, io.buf, io.len),
                    Op::Write => aio.object_write(io.slot, oid, io.offset, io.buf, io.len, false),
                    _ => aio.object_zero(io.slot, oid, io.offset, io.len as u64),
                }
            });
        Queued::Pending
    }
    fn commit(&mut self) -> io::Result<usize> {
        Ok(self.slots.commit())
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

impl Drop for RadosEngine {
    fn drop(&mut self) {
        // Wait for what is in flight (Aio's Drop would too), then remove the objects.
        self.slots.drain();
        for o in &self.objects {
            let _ = self.pool.remove(&o.to_string_lossy());
        }
    }
}
