//! Synchronous engines: sync (lseek+read/write), psync (pread/pwrite), vsync (readv/writev),
//! pvsync (preadv/pwritev), pvsync2 (preadv2/pwritev2 with RWF_HIPRI / RWF_NOWAIT).
use super::{Engine, EngineError, EngineSetup, IoUnit, Queued};
use crate::job::EngineKind;

pub struct SyncEngine;
impl SyncEngine {
    pub fn new(_kind: EngineKind, _setup: &EngineSetup) -> Result<Self, EngineError> {
        Err(EngineError::Unavailable("not implemented yet".into()))
    }
}
impl Engine for SyncEngine {
    fn name(&self) -> &'static str {
        "psync"
    }
    fn is_sync(&self) -> bool {
        true
    }
    fn queue(&mut self, _io: &IoUnit) -> Queued {
        Queued::Done(-(libc::ENOSYS as i64))
    }
}
