//! The worker's side of an access mix: each I/O's line, direction, size and offset come from
//! the mix (see [`crate::gen::MixPicker`]) instead of the job's direction mix, block sizes and
//! offset generators; a burst's delay waits as the rate limit does (completions are reaped,
//! nothing new is issued).

use super::pick::{Next, Pause};
use super::Worker;
use crate::gen::{MixOffsets, MixPicker};
use crate::job::AccessMix;
use crate::worker_file::WorkerFile;

/// A worker's access-mix state: the line picker and the offsets of each file.
pub(super) struct MixRun {
    picker: MixPicker,
    offsets: Vec<MixOffsets>,
}

impl MixRun {
    pub(super) fn new(mix: &AccessMix, files: &[WorkerFile]) -> MixRun {
        MixRun {
            picker: MixPicker::new(mix),
            offsets: files
                .iter()
                .map(|f| MixOffsets::new(f.region_start, f.region_len))
                .collect(),
        }
    }
}

impl Worker {
    /// The next I/O of a job with an access mix.
    #[inline]
    pub(super) fn prepare_mixed(&mut self, now: u64) -> Next {
        let left = self.bytes_left();
        let Some(m) = self.access.as_deref_mut() else {
            return Next::Done;
        };
        let p = match m.picker.next(now, &mut self.rng) {
            Ok(p) => p,
            Err(until) => return Next::Wait(until),
        };
        let mut bs = p.size;
        if !self.spec.time_based {
            bs = bs.min(left).max(1);
        }
        let offsets = &mut m.offsets;
        let next = self
            .file_chooser
            .next(&mut self.rng, |fi, rng| offsets[fi].next(&p, bs, rng));
        match next.filter(|_| self.open_picked()) {
            Some((file, offset)) => self.fill_slot(p.dir, file, offset, bs, now),
            // `openfiles`: the files left open once finished ones are closed.
            None if self.closes_pending() => Next::Drained(Pause::CloseFiles),
            // No file holds an aligned I/O of this size.
            None => Next::Done,
        }
    }
}
