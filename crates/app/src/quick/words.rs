//! The engine's refusals, notes and progress events worded for `iomark quick`, whose user gives
//! only a PATH and a few switches (no job options). Progress events read as they do for `run`
//! (`iomark_fio::explain::event`).

use iomark_engine::runner::{Note, RunError};

/// A refused quick run: what happened, and what the user of `quick` can do about it.
pub fn run_error(e: &RunError) -> String {
    match e {
        RunError::NoSpace { .. } => format!("{e}; give a smaller --size= or another PATH"),
        RunError::DeviceMounted { .. } => {
            format!("{e}; give a device that is not mounted")
        }
        RunError::DeviceHoldsData { .. } | RunError::DeviceUnreadable { .. } => {
            format!("{e}; quick does not overwrite it, give a blank device or a directory")
        }
        RunError::DirectBlockSize { .. } | RunError::DirectOffset { .. } => {
            format!("{e}; give a directory on another filesystem")
        }
        _ => e.to_string(),
    }
}

/// A note about a quick run.
pub fn note(n: &Note) -> String {
    match n {
        Note::CachedWorkingSet { .. } | Note::BufferedWrites { .. } => {
            format!("{n}; give a larger --size= to measure the device")
        }
        _ => n.to_string(),
    }
}
