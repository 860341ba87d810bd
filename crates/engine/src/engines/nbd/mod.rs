//! The nbd engine: I/O on a Network Block Device export through libnbd (fio's
//! `ioengine=nbd`, with its option `uri`: `nbd://host[:port]/export`,
//! `nbd+unix:///export?socket=PATH`, ...).
//!
//! Each job (each clone) has its own connection. Reads, writes, trims and flushes (fsync,
//! fdatasync) are asynchronous libnbd requests, up to `iodepth` at once, whose completions are
//! taken by slot (`iomark_nbd::Export`). Every file of the job maps onto the one export, whose
//! size is the job's default size.

pub(crate) mod probe;

use super::{
    Completion, Engine, EngineDecl, EngineError, EngineFlags, EngineKind, EngineOption,
    EngineSetup, IoUnit, Op, Queued,
};
use iomark_nbd::{Export, NbdError, CONNECT_TIMEOUT_SECS};
use std::io;
use std::time::Duration;

/// NBD exports through libnbd.
pub(crate) const DECL: EngineDecl = EngineDecl {
    kind: EngineKind::Nbd,
    flags: EngineFlags::REMOTE,
    options: &[EngineOption::Uri],
    create: |_, setup| Ok(Box::new(NbdEngine::new(setup)?)),
};

/// An NBD error as the engine reports it.
fn engine_error(e: NbdError) -> EngineError {
    match e {
        NbdError::Missing { .. } => EngineError::Unavailable(e.to_string()),
        e => EngineError::Io(e.into()),
    }
}

/// Connects to `uri`, giving up after the binding's bounded time.
pub(crate) fn connect(uri: &str, depth: u32) -> Result<Export, NbdError> {
    Export::connect(uri, Duration::from_secs(CONNECT_TIMEOUT_SECS), depth)
}

pub(crate) struct NbdEngine {
    export: Export,
    /// Each slot's request length: a completed write, trim or flush is reported as it.
    lens: Box<[i64]>,
    /// The completions of one reap, before they are mapped.
    reaped: Vec<(u32, i32)>,
    submitted: usize,
}

impl NbdEngine {
    fn new(setup: &EngineSetup) -> Result<NbdEngine, EngineError> {
        let Some(uri) = setup.options.nbd_uri.as_deref() else {
            return Err(EngineError::Unavailable("needs the export's uri".into()));
        };
        let depth = setup.depth.max(1);
        Ok(NbdEngine {
            export: connect(uri, depth).map_err(engine_error)?,
            lens: vec![0; depth as usize].into(),
            reaped: Vec::with_capacity(depth as usize),
            submitted: 0,
        })
    }
}

impl Engine for NbdEngine {
    #[cfg(test)]
    fn name(&self) -> &'static str {
        "nbd"
    }
    fn is_sync(&self) -> bool {
        false
    }
    fn queue(&mut self, io: &IoUnit) -> Queued {
        let e = &mut self.export;
        let (slot, offset, len) = (io.slot, io.offset, io.len);
        // SAFETY: the worker keeps the slot's buffer untouched until its completion is reaped.
        let r = unsafe {
            match io.op {
                Op::Read => e.read(slot, offset, io.buf, len),
                Op::Write => e.write(slot, offset, io.buf, len),
                Op::Trim => e.trim(slot, offset, len as u64),
                Op::Fsync | Op::Fdatasync => e.flush(slot),
            }
        };
        match r {
            Ok(()) => {
                self.lens[slot as usize] = match io.op {
                    Op::Fsync | Op::Fdatasync => 0,
                    _ => len as i64,
                };
                self.submitted += 1;
                Queued::Pending
            }
            Err(e) => Queued::Done(-(e.errno() as i64)),
        }
    }
    fn commit(&mut self) -> io::Result<usize> {
        Ok(std::mem::take(&mut self.submitted))
    }
    fn read_at(&mut self, _file: u32, buf: &mut [u8], offset: u64) -> Option<io::Result<usize>> {
        Some(self.export.read_at(buf, offset).map_err(Into::into))
    }
    fn getevents(
        &mut self,
        min: usize,
        max: usize,
        out: &mut Vec<Completion>,
    ) -> io::Result<usize> {
        self.reaped.clear();
        let n = self.export.reap(min, max, &mut self.reaped)?;
        let lens = &self.lens;
        out.extend(self.reaped.iter().map(|&(slot, errno)| Completion {
            slot,
            result: if errno != 0 {
                -(errno as i64)
            } else {
                lens[slot as usize]
            },
        }));
        Ok(n)
    }
}
