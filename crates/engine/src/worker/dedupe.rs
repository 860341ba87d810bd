//! Deduplicable write data: a share of the write buffers repeat earlier data, either the last
//! unique buffer (`Repeat`) or a buffer drawn from a working set, the first unique buffers of
//! the job (`WorkingSet`), optionally shared between the jobs of the run (`global`).
//!
//! Every buffer is named by (stream, index): the `index`-th unique buffer of stream `stream`
//! (a job clone's thread number). Its bytes come from a generator seeded by that name, so equal
//! names give equal bytes, in this job or another.

use super::buffers::fill_buffer;
use crate::job::{DedupeMode, JobSpec};
use crate::rng::{mix64, Rng};

pub(super) struct Dedupe {
    pct: u32,
    mode: DedupeMode,
    /// Which buffers repeat, and which working-set buffer.
    draw: Rng,
    /// Seed shared by every job with the same `randseed`, so a global working set matches.
    base: u64,
    thread: u32,
    threads: u32,
    /// Unique buffers generated so far.
    unique: u64,
    /// Buffers in the working set, and per stream when it is shared.
    ws_pages: u64,
    per_stream: u64,
    global: bool,
}

impl Dedupe {
    /// The job's dedupe data, or `None` without `dedupe_percentage`. `region` is the bytes the
    /// job's files cover (the working set is a share of it), `threads` the clones of the run.
    pub(super) fn new(spec: &JobSpec, thread: u32, threads: u32, region: u64) -> Option<Dedupe> {
        let b = &spec.buffers;
        if b.dedupe_percentage == 0 {
            return None;
        }
        let bs = spec.min_bs().max(1);
        let ws_pages = (region * u64::from(b.dedupe_working_set_percentage) / 100 / bs).max(1);
        let threads = threads.max(1);
        Some(Dedupe {
            pct: b.dedupe_percentage,
            mode: b.dedupe_mode,
            draw: Rng::new(crate::rng::job_seed(
                spec.randseed,
                spec.repeatable_seeds(),
                thread,
                12,
            )),
            base: crate::rng::job_seed(spec.randseed, true, 0, 13),
            thread,
            threads,
            unique: 0,
            ws_pages,
            per_stream: (ws_pages / u64::from(threads)).max(1),
            global: b.dedupe_global,
        })
    }

    /// The (stream, index) of the next buffer.
    fn next_name(&mut self) -> (u32, u64) {
        let repeat = self.unique > 0 && self.draw.percent(self.pct);
        if !repeat {
            self.unique += 1;
            return (self.thread, self.unique - 1);
        }
        match self.mode {
            DedupeMode::Repeat => (self.thread, self.unique - 1),
            DedupeMode::WorkingSet => {
                let i = self.draw.below(self.ws_pages);
                if self.global {
                    // Spread over every clone's first buffers, starting with this one's.
                    let g = i / self.per_stream;
                    let stream = (u64::from(self.thread) + g) % u64::from(self.threads);
                    (stream as u32, i % self.per_stream)
                } else {
                    (self.thread, i)
                }
            }
        }
    }

    /// Fill a write buffer (the job's buffer options apply to every buffer alike).
    pub(super) fn fill(&mut self, spec: &JobSpec, buf: &mut [u8]) {
        let (stream, index) = self.next_name();
        let seed = mix64(self.base ^ mix64((u64::from(stream) << 40) ^ index));
        fill_buffer(spec, buf, &mut Rng::new(seed));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    fn spec(pct: u32, mode: DedupeMode, ws: u32, global: bool) -> JobSpec {
        let mut s = JobSpec::default();
        s.buffers.dedupe_percentage = pct;
        s.buffers.dedupe_mode = mode;
        s.buffers.dedupe_working_set_percentage = ws;
        s.buffers.dedupe_global = global;
        s
    }

    fn blocks(d: &mut Dedupe, s: &JobSpec, n: usize) -> Vec<Vec<u8>> {
        (0..n)
            .map(|_| {
                let mut b = vec![0u8; 4096];
                d.fill(s, &mut b);
                b
            })
            .collect()
    }

    #[test]
    fn off_without_a_percentage() {
        assert!(Dedupe::new(&JobSpec::default(), 0, 1, 1 << 20).is_none());
    }

    #[test]
    fn repeat_copies_the_last_unique_buffer() {
        let s = spec(40, DedupeMode::Repeat, 5, false);
        let mut d = Dedupe::new(&s, 0, 1, 16 << 20).unwrap();
        let b = blocks(&mut d, &s, 4096);
        let uniq: HashSet<_> = b.iter().collect();
        let ratio = uniq.len() as f64 / b.len() as f64;
        assert!((ratio - 0.6).abs() < 0.03, "{ratio}");
        // A repeated buffer equals the one before it.
        let repeats = b.windows(2).filter(|w| w[0] == w[1]).count();
        assert_eq!(repeats, b.len() - uniq.len());
        // 100 per cent: every buffer is the first.
        let s = spec(100, DedupeMode::Repeat, 0, false);
        let mut d = Dedupe::new(&s, 0, 1, 1 << 20).unwrap();
        assert_eq!(
            blocks(&mut d, &s, 10).iter().collect::<HashSet<_>>().len(),
            1
        );
    }

    #[test]
    fn working_set_duplicates_come_from_the_first_unique_buffers() {
        // 16 MiB, 10 per cent working set: 409 buffers of 4 KiB.
        let s = spec(50, DedupeMode::WorkingSet, 10, false);
        let mut d = Dedupe::new(&s, 3, 4, 16 << 20).unwrap();
        let b = blocks(&mut d, &s, 4096);
        let uniq: HashSet<_> = b.iter().collect();
        let ratio = uniq.len() as f64 / b.len() as f64;
        assert!((ratio - 0.5).abs() < 0.03, "{ratio}");
        // Every buffer that occurs twice is one of the first 409 distinct ones.
        let mut first = Vec::new();
        for x in &b {
            if !first.contains(&x) {
                first.push(x);
            }
        }
        let ws: HashSet<_> = first.iter().take(409).collect();
        let mut seen = HashSet::new();
        for x in &b {
            if !seen.insert(x) {
                assert!(ws.contains(&x), "a duplicate outside the working set");
            }
        }
    }

    #[test]
    fn a_global_working_set_is_shared_between_clones() {
        let s = spec(60, DedupeMode::WorkingSet, 20, true);
        let mut a = Dedupe::new(&s, 0, 2, 4 << 20).unwrap();
        let mut b = Dedupe::new(&s, 1, 2, 4 << 20).unwrap();
        let ba: HashSet<_> = blocks(&mut a, &s, 1024).into_iter().collect();
        let bb: HashSet<_> = blocks(&mut b, &s, 1024).into_iter().collect();
        assert!(ba.intersection(&bb).count() > 50);
        // Not shared: nothing in common.
        let s = spec(60, DedupeMode::WorkingSet, 20, false);
        let mut a = Dedupe::new(&s, 0, 2, 4 << 20).unwrap();
        let mut b = Dedupe::new(&s, 1, 2, 4 << 20).unwrap();
        let ba: HashSet<_> = blocks(&mut a, &s, 1024).into_iter().collect();
        let bb: HashSet<_> = blocks(&mut b, &s, 1024).into_iter().collect();
        assert_eq!(ba.intersection(&bb).count(), 0);
    }
}
