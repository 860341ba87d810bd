//! Zoned-block-device mode (`zonemode=zbd`) emulated on a regular file or a block device that
//! is not zoned, with fio 3.33's rules: the target is cut into zones of the zone size from its
//! start, all empty when the run begins; a write goes to the write pointer of its zone (or of
//! an open zone when the open-zone limits are reached), a full zone is reset before it is
//! written again; a read goes only below a write pointer unless `read_beyond_wp`.
//!
//! - `zones`: one target's zones, shared by every job clone on it (by path, for the run);
//! - `place`: where a write or a read lands, and which zone opens, closes or resets.
//!
//! A zone a write fills is closed when the write is issued (fio closes it when that write
//! completes: the same with a synchronous engine).

mod place;
mod zones;

use crate::job::{Dir, JobSpec, ZbdZones};
use crate::worker_file::WorkerFile;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use zones::Zones;

/// The emulated zones of the run's targets, by path: the first job on a target sets them up,
/// every later one shares them (write pointers carry over from one job group to the next).
#[derive(Debug, Default)]
pub(crate) struct Registry {
    targets: Mutex<HashMap<PathBuf, Arc<Mutex<Zones>>>>,
}

/// One job clone's view of the zones of each of its files (None: no zones on the file).
#[derive(Debug)]
pub(crate) struct WorkerZones {
    spec: ZbdZones,
    files: Vec<FileZones>,
    random: bool,
    mixed: bool,
    min_bs: [u64; 3],
    /// Zones this clone opened and holds open (fio's per-thread count: a clone closing a zone
    /// counts it off its own).
    job_open: u32,
    /// Zones this clone reset.
    pub(crate) resets: u64,
}

#[derive(Debug)]
struct FileZones {
    zones: Arc<Mutex<Zones>>,
    /// The job's region on the file, and its first zone and the zone after its last.
    file_offset: u64,
    io_size: u64,
    min_zone: u32,
    max_zone: u32,
}

/// Where an I/O goes: its offset and length, or nothing (the job ends, as fio's does).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Placed {
    Io { offset: u64, len: u64 },
    End,
}

impl WorkerZones {
    /// The zones of `files` for `spec` (None without `zonemode=zbd`). A job other than a sequential
    /// read has its regions moved in to whole zones, as fio does (start rounded up, end rounded down).
    pub(crate) fn new(
        spec: &JobSpec,
        files: &mut [WorkerFile],
        registry: &Registry,
    ) -> Result<Option<WorkerZones>, (PathBuf, String)> {
        let Some(z) = spec.zbd else {
            return Ok(None);
        };
        // As fio: every job but a sequential read-only one (a random read too).
        let aligned = spec.rw != crate::job::RwMode::Read;
        let mut out = Vec::with_capacity(files.len());
        for f in files.iter_mut() {
            let fail = |reason: String| (f.path.clone(), reason);
            if f.size < z.size {
                return Err(fail(format!(
                    "file/device size {} is smaller than zone size {}",
                    f.size, z.size
                )));
            }
            let zones = registry.zones(f, &z).map_err(fail)?;
            if aligned && f.region_start < f.size {
                align_region(f, z.size).map_err(|r| (f.path.clone(), r))?;
            }
            let g = zones.lock().unwrap();
            let (min_zone, max_zone) = (
                g.index(f.region_start),
                g.index(f.region_start + f.region_len),
            );
            drop(g);
            out.push(FileZones {
                zones,
                file_offset: f.region_start,
                io_size: f.region_len,
                min_zone,
                max_zone,
            });
        }
        Ok(Some(WorkerZones {
            spec: z,
            files: out,
            random: spec.rw.is_random(),
            mixed: spec.rw.is_mixed(),
            min_bs: Dir::ALL.map(|d| spec.bs[d].min().max(1)),
            job_open: 0,
            resets: 0,
        }))
    }

    /// A new pass of a job that writes: the data below the write pointers of its zones is
    /// counted again and the countdown of `zone_reset_frequency` starts again.
    pub(crate) fn new_pass(&mut self, writes: bool) {
        if !writes {
            return;
        }
        for f in &self.files {
            let mut g = f.zones.lock().unwrap();
            g.with_data = (f.min_zone..f.max_zone).map(|i| g.data(i)).sum();
            g.reset_write_cnt(self.spec.reset_frequency);
        }
    }

    /// The direction of a mixed job's next I/O: a read becomes a write while no zone of the
    /// job's files holds data to read (unless reads may go beyond the write pointer).
    pub(crate) fn direction(&self, dir: Dir) -> Dir {
        if dir != Dir::Read || !self.mixed || self.spec.read_beyond_wp {
            return dir;
        }
        let data = |f: &FileZones| f.zones.lock().unwrap().with_data > 0;
        if self.files.iter().any(data) {
            Dir::Read
        } else {
            Dir::Write
        }
    }

    /// Where an I/O of `len` bytes drawn at `offset` of `file` goes.
    pub(crate) fn place(&mut self, file: u32, dir: Dir, offset: u64, len: u64) -> Placed {
        let fi = file as usize;
        match dir {
            Dir::Read if self.spec.read_beyond_wp => Placed::Io { offset, len },
            Dir::Read => self.place_read(fi, offset, len),
            Dir::Write => self.place_write(fi, offset, len),
            // Trims are refused with zones before the job is built.
            Dir::Trim => Placed::Io { offset, len },
        }
    }
}

impl Registry {
    /// The zones of `f`'s target: set up by the first job on it, shared after.
    fn zones(&self, f: &WorkerFile, z: &ZbdZones) -> Result<Arc<Mutex<Zones>>, String> {
        let key = std::fs::canonicalize(&f.path).unwrap_or_else(|_| f.path.clone());
        let mut t = self.targets.lock().unwrap();
        if let Some(zones) = t.get(&key) {
            let g = zones.lock().unwrap();
            if g.size != z.size {
                return Err(format!(
                    "zonesize {} does not match the zone size {} another job set up on it",
                    z.size, g.size
                ));
            }
            if z.max_open_zones > 0 && g.max_open != z.max_open_zones {
                return Err(format!(
                    "max_open_zones {} differs from the {} another job set on it",
                    z.max_open_zones, g.max_open
                ));
            }
            drop(g);
            return Ok(zones.clone());
        }
        let zones = Arc::new(Mutex::new(Zones::new(
            z.size,
            z.capacity,
            f.size,
            z.max_open_zones,
        )));
        t.insert(key, zones.clone());
        Ok(zones)
    }
}

/// Move a job's region in to whole zones: its start up to the next zone start, its end
/// down to a zone start (fio's rule); an error when no whole zone is left.
fn align_region(f: &mut WorkerFile, size: u64) -> Result<(), String> {
    let (start, end) = (f.region_start, f.region_start + f.region_len);
    let new_start = start.div_ceil(size) * size;
    let new_end = end / size * size;
    if new_end <= new_start {
        return Err(format!(
            "the region {start}..{end} holds not even one whole zone of {size} bytes: it needs at least one zone"
        ));
    }
    f.region_start = new_start;
    f.region_len = new_end - new_start;
    Ok(())
}

#[cfg(test)]
mod tests;
