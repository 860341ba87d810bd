//! The null engine: no data moves. With depth 1 every I/O completes in `queue`; with a deeper
//! queue it emulates queue/commit/getevents, so it measures iomark's own per-I/O overhead.

use super::{Completion, Engine, EngineDecl, EngineFlags, EngineKind, EngineSetup, IoUnit, Queued};
use std::io;

/// No I/O at all.
pub const DECL: EngineDecl = EngineDecl {
    kind: EngineKind::Null,
    name: "null",
    flags: EngineFlags {
        sync: true,
        opens_file: false,
        diskless: true,
        metadata: false,
        direct: false,
    },
    options: &[],
    create: |_, setup| Ok(Box::new(NullEngine::new(setup))),
};

pub struct NullEngine {
    depth: u32,
    /// Slots queued but not yet committed.
    queued: Vec<u32>,
    /// Slots committed, completing at the next getevents.
    inflight: Vec<(u32, i64)>,
    pending_len: Vec<i64>,
}

impl NullEngine {
    pub fn new(setup: &EngineSetup) -> Self {
        let d = setup.depth.max(1) as usize;
        NullEngine {
            depth: setup.depth.max(1),
            queued: Vec::with_capacity(d),
            inflight: Vec::with_capacity(d),
            pending_len: vec![0; d],
        }
    }
}

impl Engine for NullEngine {
    fn name(&self) -> &'static str {
        "null"
    }
    fn is_sync(&self) -> bool {
        self.depth == 1
    }
    #[inline]
    fn queue(&mut self, io: &IoUnit) -> Queued {
        if self.depth == 1 {
            return Queued::Done(io.len as i64);
        }
        self.pending_len[io.slot as usize] = io.len as i64;
        self.queued.push(io.slot);
        Queued::Pending
    }
    fn commit(&mut self) -> io::Result<usize> {
        let n = self.queued.len();
        for &s in &self.queued {
            self.inflight.push((s, self.pending_len[s as usize]));
        }
        self.queued.clear();
        Ok(n)
    }
    fn getevents(
        &mut self,
        _min: usize,
        max: usize,
        out: &mut Vec<Completion>,
    ) -> io::Result<usize> {
        let n = self.inflight.len().min(max.max(1));
        for (slot, result) in self.inflight.drain(..n) {
            out.push(Completion { slot, result });
        }
        Ok(n)
    }
}
