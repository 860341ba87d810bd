//! The kind of engine a job uses: a plain value that the job model, notes and failures name
//! without depending on the engines themselves (what each kind can do is in `decl`).

use serde::{Deserialize, Serialize};

/// Which engine a job uses. The discriminant is the engine's index in `engines::ENGINES`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EngineKind {
    Sync,
    Psync,
    Vsync,
    Pvsync,
    Pvsync2,
    Libaio,
    IoUring,
    PosixAio,
    Mmap,
    Null,
    FileCreate,
    FileStat,
    FileDelete,
}
