//! What a path is (file, block device, ...), from the engine's target probe: the tools' plans
//! depend on it (dd caps a read at the end of its input, hdparm says what it timed).

use std::path::Path;

/// What a path is, as far as the plan needs to know (from the engine's target probe).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Probe {
    Missing,
    File { size: u64 },
    Block { size: u64 },
    Char,
    Directory,
}

impl Probe {
    /// Probe `path` with the engine's target probe.
    pub fn of(path: &Path) -> Probe {
        match iomark_engine::targets::probe(path) {
            Err(_) => Probe::Missing,
            Ok(t) => match t.kind.as_str() {
                "file" => Probe::File { size: t.size_bytes },
                "block" => Probe::Block { size: t.size_bytes },
                "directory" => Probe::Directory,
                _ => Probe::Char,
            },
        }
    }
}
