//! mmap engine (stub).
use super::{Engine, EngineError, EngineSetup, IoUnit, Queued};

pub struct MmapEngine;
impl MmapEngine {
    pub fn new(_setup: &EngineSetup) -> Result<Self, EngineError> {
        Err(EngineError::Unavailable("not implemented yet".into()))
    }
}
impl Engine for MmapEngine {
    fn name(&self) -> &'static str {
        "mmap"
    }
    fn is_sync(&self) -> bool {
        true
    }
    fn queue(&mut self, _io: &IoUnit) -> Queued {
        Queued::Done(-(libc::ENOSYS as i64))
    }
}
