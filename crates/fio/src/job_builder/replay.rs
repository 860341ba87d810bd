//! `read_iolog`: the job replays the log's I/O on the log's files (or `replay_redirect`)
//! instead of generating its own; the directions, block sizes and file extent follow the log.

use super::BuildError;
use crate::iolog;
use crate::options::Pending;
use iomark_engine::job::{BlockSize, Dir, JobSpec, RwMode};

/// Load the replayed log into `spec` (when `read_iolog` was given).
pub(super) fn finish_replay(spec: &mut JobSpec, st: &mut Pending) -> Result<(), BuildError> {
    let Some(logs) = st.read_iolog.take() else {
        return Ok(());
    };
    let names = crate::values::parse_path_list(&logs);
    if names.len() > 1 {
        return Err(BuildError::ReplayManyLogs {
            count: names.len(),
            logs,
        });
    }
    // fio: a replayed log overrides write_iolog.
    spec.record = None;
    let log = iolog::read(&names[0], &st.replay)?;
    let r = &log.replay;
    let (reads, writes, trims) = (r.has(Dir::Read), r.has(Dir::Write), r.has(Dir::Trim));
    if !writes && !trims {
        // Nothing creates the files: they must be there, as fio opens them without O_CREAT.
        if let Some(p) = log.files.iter().find(|p| !p.exists()) {
            return Err(BuildError::ReplayMissingFile {
                log: names[0].clone(),
                file: p.clone(),
            });
        }
    }
    spec.rw = match (reads, writes, trims) {
        (_, _, true) if !reads => RwMode::TrimWrite,
        (true, false, false) => RwMode::Read,
        (false, true, false) => RwMode::Write,
        _ => RwMode::ReadWrite,
    };
    for d in Dir::ALL {
        let m = r.max_len(d);
        if m > 0 {
            spec.bs[d] = BlockSize::Fixed(m);
        }
    }
    let extent = r.extent().max(1);
    spec.filesize = Some((extent, extent));
    spec.size = None;
    spec.io_size = None;
    spec.nrfiles = log.files.len() as u32;
    spec.filenames = log.files;
    spec.grow_file = true;
    spec.time_based = false;
    spec.replay = Some(log.replay);
    Ok(())
}
