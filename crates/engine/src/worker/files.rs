//! Which file the next I/O goes to (file_service_type), which files finished their pass, and
//! with `openfiles` which files are open: a file is opened when first picked while fewer than
//! the limit are open, else it is passed over (the next in turn, or another draw) as fio passes
//! over it; a file is closed once it finished its pass, and counts against the limit until the
//! worker really closed it (after the I/O in flight completed), as in fio.

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
    /// With `openfiles` below the number of files.
    limit: Option<Box<OpenFiles>>,
}

/// Which files are open under an `openfiles` limit, and the opens and closes the worker has
/// still to make.
pub(super) struct OpenFiles {
    limit: usize,
    /// Open and taking I/O (a finished file waiting to be closed is not).
    open: Vec<bool>,
    /// Descriptors held: open files and finished ones not closed yet.
    count: usize,
    /// Picked for the first time (or again after being closed): to open before the I/O.
    pub(super) to_open: Vec<u32>,
    /// Finished their pass: to close once nothing is in flight.
    pub(super) to_close: Vec<u32>,
}

impl FileChooser {
    /// `open_limit`: at most that many files open at once (below `n`), else None.
    pub(super) fn new(service: &FileService, n: usize, open_limit: Option<usize>) -> FileChooser {
        let mut c = FileChooser {
            kind: service.kind,
            batch: service.batch.max(1),
            cursor: 0,
            batch_left: 0,
            done: vec![false; n],
            limit: open_limit.map(|limit| {
                Box::new(OpenFiles {
                    limit,
                    open: vec![false; n],
                    count: 0,
                    to_open: Vec::new(),
                    to_close: Vec::new(),
                })
            }),
        };
        c.restart();
        c
    }

    /// The opens and closes to make, with an `openfiles` limit.
    #[inline]
    pub(super) fn open_files(&mut self) -> Option<&mut OpenFiles> {
        self.limit.as_deref_mut()
    }

    /// Whether file `fi` is open under the limit (always, without one).
    pub(super) fn is_open(&self, fi: usize) -> bool {
        self.limit.as_deref().is_none_or(|l| l.open[fi])
    }

    /// Whether a picked file may take the I/O: under a limit, a file that is not open is
    /// opened if there is room, else passed over.
    #[inline]
    fn usable(&mut self, fi: usize) -> bool {
        let Some(l) = self.limit.as_deref_mut() else {
            return true;
        };
        if l.open[fi] {
            return true;
        }
        if l.count >= l.limit {
            return false;
        }
        l.open[fi] = true;
        l.count += 1;
        l.to_open.push(fi as u32);
        true
    }

    /// File `fi` finished its pass: under a limit it is to be closed.
    fn finished(&mut self, fi: usize) {
        self.done[fi] = true;
        if let Some(l) = self.limit.as_deref_mut() {
            if l.open[fi] {
                l.open[fi] = false;
                l.to_close.push(fi as u32);
            }
        }
    }

    /// The worker closed a file (or kept it open because it was picked again, which counted
    /// it a second time): it no longer counts against the limit.
    pub(super) fn closed(&mut self) {
        if let Some(l) = self.limit.as_deref_mut() {
            l.count -= 1;
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
    /// the end of its pass. None once every file finished its pass, or under an `openfiles`
    /// limit while the files left wait for finished ones to be closed. On the per-I/O path: always
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
            if self.done[fi] || !self.usable(fi) {
                self.batch_left = 0;
                if self.kind == FileServiceType::Sequential {
                    self.cursor = (self.cursor + 1) % n;
                }
                continue;
            }
            if let Some(off) = next_in(fi, rng) {
                return Some((fi as u32, off));
            }
            self.finished(fi);
            // As for a file already done: the next pick moves on (round robin and random do
            // so themselves).
            self.batch_left = 0;
            if self.kind == FileServiceType::Sequential {
                self.cursor = (self.cursor + 1) % n;
            }
        }
        // Check every file once more in order (random service may have missed one; under a
        // limit only the open ones, or one there is room to open).
        for fi in 0..n {
            if !self.done[fi] && self.usable(fi) {
                if let Some(off) = next_in(fi, rng) {
                    return Some((fi as u32, off));
                }
                self.finished(fi);
            }
        }
        None
    }

    /// The choice starts as at the first loop: from the first file, or (random service) with
    /// a draw for the first file. At the start, and for a loop that repeats the first.
    pub(super) fn restart(&mut self) {
        self.cursor = 0;
        self.batch_left = if self.kind == FileServiceType::Random {
            0
        } else {
            self.batch
        };
    }

    /// Start a new pass over every file. `new_loop`: under a limit every open file is closed
    /// first (fio closes the files between loops and opens them again as it picks them).
    pub(super) fn reset(&mut self, new_loop: bool) {
        self.done.fill(false);
        if new_loop && self.kind == FileServiceType::Random {
            self.batch_left = 0;
        }
        if let Some(l) = self.limit.as_deref_mut().filter(|_| new_loop) {
            for fi in 0..l.open.len() {
                if l.open[fi] {
                    l.open[fi] = false;
                    l.to_close.push(fi as u32);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chooser(kind: FileServiceType, batch: u32, n: usize) -> FileChooser {
        FileChooser::new(&FileService { kind, batch }, n, None)
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
        c.reset(true);
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

    /// Like `files_of`, with the worker's part under a limit: closes made (and the chooser
    /// told) whenever the chooser is blocked on them; the most files open at once.
    fn files_limited(c: &mut FileChooser, per_file: u32, count: usize) -> (Vec<u32>, usize) {
        let mut left = vec![per_file; c.done.len()];
        let mut rng = Rng::new(7);
        let (mut got, mut open, mut most) = (Vec::new(), 0usize, 0usize);
        while got.len() < count {
            let next = c.next(&mut rng, |fi, _| {
                (left[fi] > 0).then(|| {
                    left[fi] -= 1;
                    0
                })
            });
            let l = c.open_files().unwrap();
            open += std::mem::take(&mut l.to_open).len();
            most = most.max(open);
            match next {
                Some((f, _)) => got.push(f),
                None => {
                    let closes = std::mem::take(&mut c.open_files().unwrap().to_close);
                    if closes.is_empty() {
                        break;
                    }
                    for _ in closes {
                        c.closed();
                        open -= 1;
                    }
                }
            }
        }
        (got, most)
    }

    #[test]
    fn open_limit_serves_the_open_files_until_they_are_done() {
        // Round robin over 4 files, 2 open: fio's order (0 1 0 1 ..., then 2 3 2 3 ...).
        let mut c = FileChooser::new(
            &FileService {
                kind: FileServiceType::RoundRobin,
                batch: 1,
            },
            4,
            Some(2),
        );
        let (got, most) = files_limited(&mut c, 3, 100);
        assert_eq!(got, [0, 1, 0, 1, 0, 1, 2, 3, 2, 3, 2, 3]);
        assert_eq!(most, 2);
        // Random service, one open: each file finishes before another is opened.
        let mut c = FileChooser::new(
            &FileService {
                kind: FileServiceType::Random,
                batch: 1,
            },
            5,
            Some(1),
        );
        let (got, most) = files_limited(&mut c, 4, 100);
        assert_eq!(got.len(), 20);
        assert_eq!(most, 1);
        for run in got.chunks(4) {
            assert!(run.iter().all(|f| *f == run[0]), "{got:?}");
        }
    }
}
