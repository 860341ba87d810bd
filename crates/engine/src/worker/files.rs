//! Which file the next I/O goes to (file_service_type), and which files finished their pass.

use crate::job::{FileService, FileServiceType};
use crate::rng::Rng;

/// The file choice of one worker over its `n` files.
pub(super) struct FileChooser {
    kind: FileServiceType,
    /// I/Os per file before switching (`random:N`, `roundrobin:N`), at least 1.
    batch: u32,
    cursor: usize,
    batch_left: u32,
    /// Files whose offsets ran out in this pass.
    done: Vec<bool>,
}

impl FileChooser {
    pub(super) fn new(service: &FileService, n: usize) -> FileChooser {
        let batch = service.batch.max(1);
        FileChooser {
            kind: service.kind,
            batch,
            cursor: 0,
            batch_left: batch,
            done: vec![false; n],
        }
    }

    /// The file of the next I/O.
    #[inline]
    fn pick(&mut self, rng: &mut Rng) -> usize {
        let n = self.done.len();
        if n <= 1 {
            return 0;
        }
        match self.kind {
            FileServiceType::Random => {
                if self.batch_left == 0 {
                    self.cursor = rng.below(n as u64) as usize;
                    self.batch_left = self.batch;
                }
            }
            FileServiceType::RoundRobin => {
                if self.batch_left == 0 {
                    self.cursor = (self.cursor + 1) % n;
                    self.batch_left = self.batch;
                }
            }
            FileServiceType::Sequential => {}
        }
        self.batch_left = self.batch_left.saturating_sub(1);
        self.cursor
    }

    /// The next I/O's file and offset: `next_in(file, rng)` gives a file's next offset, None at
    /// the end of its pass. None once every file finished its pass. On the per-I/O path: always
    /// inlined into the worker (a call here cost ~2 % of a null-engine I/O).
    #[inline(always)]
    pub(super) fn next(
        &mut self,
        rng: &mut Rng,
        mut next_in: impl FnMut(usize, &mut Rng) -> Option<u64>,
    ) -> Option<(u32, u64)> {
        let n = self.done.len();
        for _ in 0..n {
            let fi = self.pick(rng);
            if self.done[fi] {
                self.batch_left = 0;
                if self.kind == FileServiceType::Sequential {
                    self.cursor = (self.cursor + 1) % n;
                }
                continue;
            }
            if let Some(off) = next_in(fi, rng) {
                return Some((fi as u32, off));
            }
            self.done[fi] = true;
            self.batch_left = 0;
            if self.kind != FileServiceType::Random {
                self.cursor = (self.cursor + 1) % n;
            }
        }
        // Check every file once more in order (random service may have missed one).
        for fi in 0..n {
            if !self.done[fi] {
                if let Some(off) = next_in(fi, rng) {
                    return Some((fi as u32, off));
                }
                self.done[fi] = true;
            }
        }
        None
    }

    /// Start a new pass over every file.
    pub(super) fn reset(&mut self) {
        self.done.fill(false);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chooser(kind: FileServiceType, batch: u32, n: usize) -> FileChooser {
        FileChooser::new(&FileService { kind, batch }, n)
    }

    /// Files of `count` I/Os when every file has `per_file` I/Os per pass.
    fn files_of(c: &mut FileChooser, per_file: u32, count: usize) -> Vec<Option<u32>> {
        let mut left = vec![per_file; c.done.len()];
        let mut rng = Rng::new(1);
        (0..count)
            .map(|_| {
                c.next(&mut rng, |fi, _| {
                    (left[fi] > 0).then(|| {
                        left[fi] -= 1;
                        0
                    })
                })
                .map(|(f, _)| f)
            })
            .collect()
    }

    #[test]
    fn round_robin_in_batches() {
        let mut c = chooser(FileServiceType::RoundRobin, 2, 3);
        let got = files_of(&mut c, 100, 8);
        let want = [0, 0, 1, 1, 2, 2, 0, 0].map(Some);
        assert_eq!(got, want);
    }

    #[test]
    fn sequential_finishes_each_file_first() {
        let mut c = chooser(FileServiceType::Sequential, 1, 3);
        let got = files_of(&mut c, 2, 7);
        let want = [Some(0), Some(0), Some(1), Some(1), Some(2), Some(2), None];
        assert_eq!(got, want);
        // A new pass serves every file again, going on from where the cursor stands.
        c.reset();
        assert_eq!(files_of(&mut c, 1, 4), [Some(2), Some(0), Some(1), None]);
    }

    #[test]
    fn random_uses_every_file_and_ends_the_pass() {
        let mut c = chooser(FileServiceType::Random, 1, 4);
        let got = files_of(&mut c, 50, 201);
        assert_eq!(got[200], None);
        let mut per_file = [0; 4];
        for f in got[..200].iter() {
            per_file[f.unwrap() as usize] += 1;
        }
        assert_eq!(per_file, [50; 4]);
    }

    #[test]
    fn random_batches_stay_on_one_file() {
        let mut c = chooser(FileServiceType::Random, 4, 8);
        let got = files_of(&mut c, 1000, 400);
        for run in got.chunks(4) {
            assert!(run.iter().all(|f| *f == run[0]), "{run:?}");
        }
    }

    #[test]
    fn one_file_is_always_file_zero() {
        let mut c = chooser(FileServiceType::Random, 1, 1);
        assert_eq!(files_of(&mut c, 3, 4), [Some(0), Some(0), Some(0), None]);
    }
}
