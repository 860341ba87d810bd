//! Metadata engines: filecreate, filestat, filedelete (one file per I/O) (stub).
use super::{Engine, EngineError, EngineSetup, IoUnit, Queued};
use crate::job::EngineKind;

pub struct MetaEngine;
impl MetaEngine {
    pub fn new(_kind: EngineKind, _setup: &EngineSetup) -> Result<Self, EngineError> {
        Err(EngineError::Unavailable("not implemented yet".into()))
    }
}
impl Engine for MetaEngine {
    fn name(&self) -> &'static str {
        "filecreate"
    }
    fn is_sync(&self) -> bool {
        true
    }
    fn queue(&mut self, _io: &IoUnit) -> Queued {
        Queued::Done(-(libc::ENOSYS as i64))
    }
}
