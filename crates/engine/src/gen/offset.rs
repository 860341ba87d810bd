//! The offsets of one file of a worker, in every direction: sequential (with holes,
//! `rw=write:4k`), random (with `rw=randread:N` runs of sequential I/Os after each random one,
//! and `percentage_random`), or one operation per pass for the metadata engines.

use super::dist::RandMode;
use super::random::RandGen;
use super::seq::SeqGen;
use super::strided::ZoneWalk;
use crate::engines::Capabilities;
use crate::job::{Dir, Distribution, JobSpec, RwSequencer};
use crate::rng::Rng;

/// Offset generator of one file of one job clone.
///
/// A random job draws, per I/O, whether it is random (`percentage_random` of its direction, from
/// the worker's RNG, which is passed in so that the job's whole I/O pattern follows one seed). A
/// random I/O starts a run of `N` I/Os (`rw=randread:N`): the next `N - 1` continue sequentially
/// after it while they fit in the region. A sequential I/O of a random job, and every I/O of a
/// sequential job, comes from the direction's own sequential stream.
#[derive(Clone, Debug)]
pub(crate) struct OffsetGen {
    seq: [SeqGen; 3],
    /// One random generator, or one per direction (read, write, trim) when the distribution
    /// differs by direction.
    rand: Vec<RandGen>,
    /// rw=rand*: random offsets (subject to `pct_random`).
    random: bool,
    pct_random: [u32; 3],
    /// I/Os per random offset (`rw=randread:N`).
    run_len: u64,
    /// The I/Os after a random one repeat its offset (`rw_sequencer=identical`).
    identical: bool,
    /// Remaining I/Os at sequential offsets after a random one, and the next of them.
    run_left: u32,
    run_next: u64,
    end: u64,
    last_random: bool,
    /// Metadata engines: one operation (at offset 0) per file and pass.
    one_per_pass: bool,
    pass_done: bool,
    /// Bytes the I/O at the last offset may take (see [`OffsetGen::granted`]).
    granted: u64,
    /// Strided zones: the generators run over the first zone and their offsets move into the
    /// current one.
    zones: Option<ZoneWalk>,
}

impl OffsetGen {
    /// The generator `job` asks for over `[start, start + len)`; `seed` seeds its random
    /// offsets.
    pub(crate) fn for_job(job: &JobSpec, start: u64, len: u64, seed: u64) -> OffsetGen {
        // With strided zones the generators cover one zone.
        let len = job.zones.map_or(len, |z| z.range);
        let random = job.rw.is_random();
        let add = if random { 0 } else { job.rw_modifier.value };
        let align = Dir::ALL
            .iter()
            .filter_map(|&d| job.blockalign[d])
            .min()
            .unwrap_or_else(|| job.min_bs())
            .max(1);
        let mixed_bs = Dir::ALL
            .iter()
            .filter(|&&d| job.rw.has_dir(d))
            .any(|&d| job.bs[d].max() > align);
        let mode = |dist: &Distribution| {
            RandMode::for_job(
                job.norandommap,
                Dir::ALL.iter().any(|&d| job.blockalign[d].is_some()),
                dist,
                job.lfsr,
                mixed_bs,
            )
        };
        let rand = match &job.distribution {
            Distribution::PerDir(ds) => ds
                .iter()
                .enumerate()
                .map(|(i, d)| RandGen::new(start, len, align, seed ^ i as u64, mode(d)))
                .collect(),
            d => vec![RandGen::new(start, len, align, seed, mode(d))],
        };
        OffsetGen {
            seq: std::array::from_fn(|_| SeqGen::new(start, len, add)),
            rand,
            random,
            pct_random: Dir::ALL.map(|d| job.percentage_random[d]),
            run_len: if random {
                job.rw_modifier.value.max(0) as u64
            } else {
                0
            },
            identical: job.rw_modifier.sequencer == RwSequencer::Identical,
            run_left: 0,
            run_next: 0,
            end: start + len,
            last_random: false,
            one_per_pass: job.ioengine.is_metadata(),
            pass_done: false,
            granted: u64::MAX,
            zones: job.zones.map(|z| ZoneWalk::new(z, start)),
        }
    }

    /// The offset of the next I/O of `bs` bytes in direction `dir`; None at the end of the pass
    /// (sequential, random with the random map, or the metadata engines' one operation).
    #[inline]
    pub(crate) fn next(&mut self, dir: Dir, bs: u64, rng: &mut Rng) -> Option<u64> {
        if self.zones.is_some() {
            return self.next_zoned(dir, bs, rng);
        }
        self.next_in_region(dir, bs, rng)
    }

    /// The next offset with strided zones: the generators start over at each new zone and
    /// every zone range of I/O, and go round the zone when they reach its end.
    fn next_zoned(&mut self, dir: Dir, bs: u64, rng: &mut Rng) -> Option<u64> {
        if self.zones.as_mut().is_some_and(|z| z.before_io()) {
            self.restart_generators();
        }
        let off = match self.next_in_region(dir, bs, rng) {
            Some(o) => o,
            None => {
                self.restart_generators();
                self.next_in_region(dir, bs, rng)?
            }
        };
        let len = bs.min(self.granted);
        self.zones.as_mut()?.place(off, len)
    }

    #[inline]
    fn next_in_region(&mut self, dir: Dir, bs: u64, rng: &mut Rng) -> Option<u64> {
        self.granted = u64::MAX;
        if self.one_per_pass {
            if self.pass_done {
                return None;
            }
            self.pass_done = true;
            return Some(0);
        }
        let random = self.random && {
            let pct = self.pct_random[dir.idx()];
            pct >= 100 || (pct > 0 && rng.below(100) < pct as u64)
        };
        if !random {
            self.last_random = false;
            return self.seq[dir.idx()].next(bs);
        }
        if self.run_left > 0 && self.run_next + bs <= self.end {
            self.run_left -= 1;
            self.last_random = false;
            let off = self.run_next;
            if !self.identical {
                self.run_next += bs;
            }
            return Some(off);
        }
        let g = if self.rand.len() == 1 {
            &mut self.rand[0]
        } else {
            &mut self.rand[dir.idx()]
        };
        let off = g.next(bs)?;
        self.granted = g.granted();
        self.last_random = true;
        if self.run_len > 1 {
            self.run_left = (self.run_len - 1) as u32;
            self.run_next = if self.identical {
                off
            } else {
                off + bs.min(self.granted)
            };
        }
        Some(off)
    }

    /// How many bytes the I/O at the last offset may take: u64::MAX, or less than its block
    /// size where a random pass with mixed block sizes met blocks already done (as fio's
    /// random map shortens such an I/O).
    #[inline]
    pub(crate) fn granted(&self) -> u64 {
        self.granted
    }

    /// Whether the last offset came from the random generator (the start of a run).
    #[cfg(test)]
    pub(crate) fn last_was_random(&self) -> bool {
        self.last_random
    }

    /// The size of the file the region lies in (sequential offsets with `rw=read:N` wrap
    /// and end at the file's end, as fio's do).
    pub(crate) fn set_file_size(&mut self, size: u64) {
        if let Some(z) = &mut self.zones {
            z.set_file_end(size);
            return;
        }
        for s in &mut self.seq {
            s.set_file_size(size);
        }
    }

    /// The next sequential I/O in `dir` starts at `pos` (where the last one landed, moved
    /// by emulated zones).
    pub(crate) fn continue_at(&mut self, dir: Dir, pos: u64) {
        self.seq[dir.idx()].continue_at(pos);
    }

    /// Start a new pass.
    pub(crate) fn reset(&mut self) {
        self.restart_generators();
        if let Some(z) = &mut self.zones {
            z.reset();
        }
        self.pass_done = false;
    }

    fn restart_generators(&mut self) {
        for s in &mut self.seq {
            s.reset();
        }
        for r in &mut self.rand {
            r.reset();
        }
        self.run_left = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::job::{RwMode, RwModifier};

    fn job(rw: RwMode, modifier: i64, pct_random: u32, norandommap: bool) -> JobSpec {
        let mut job = JobSpec {
            rw,
            rw_modifier: RwModifier {
                value: modifier,
                ..Default::default()
            },
            norandommap,
            ..Default::default()
        };
        job.percentage_random = crate::job::PerDir::all(pct_random);
        job
    }

    #[test]
    fn rw_modifier_sequential_runs() {
        let align = 4096u64;
        let mut g = OffsetGen::for_job(&job(RwMode::RandRead, 8, 100, true), 0, align * 1000, 1);
        let mut rng = Rng::new(1);
        let end = align * 1000;
        let mut prev = 0;
        let mut since = 0;
        let mut runs = 0;
        for i in 0..8000u64 {
            let o = g.next(Dir::Read, align, &mut rng).unwrap();
            assert!(o + align <= end);
            if g.last_was_random() {
                assert!(
                    i == 0 || since == 8 || prev + 2 * align > end,
                    "i {i} since {since}"
                );
                since = 1;
                runs += 1;
            } else {
                assert_eq!(o, prev + align);
                since += 1;
                assert!(since <= 8);
            }
            prev = o;
        }
        assert!((1000..1010).contains(&runs), "{runs}");

        // With the random map, a pass ends after every block was a run start once.
        let mut g = OffsetGen::for_job(&job(RwMode::RandRead, 4, 100, false), 0, align * 100, 2);
        let mut n = 0;
        while g.next(Dir::Read, align, &mut rng).is_some() {
            n += 1;
            assert!(n < 1000);
        }
        assert!(n > 300 && n <= 400, "{n}");
    }

    #[test]
    fn percentage_random_mix() {
        let align = 4096u64;
        let blocks = 100_000u64;
        let mut g = OffsetGen::for_job(&job(RwMode::RandRead, 0, 30, true), 0, align * blocks, 1);
        let mut rng = Rng::new(9);
        let mut random = 0;
        let mut seq_ok = 0;
        let mut seq_next = 0;
        let draws = 100_000;
        for _ in 0..draws {
            let o = g.next(Dir::Read, align, &mut rng).unwrap();
            if g.last_was_random() {
                random += 1;
            } else if o == seq_next {
                // The sequential I/Os form their own stream from the region start.
                seq_ok += 1;
                seq_next = o + align;
            }
        }
        let frac = random as f64 / draws as f64;
        assert!((frac - 0.30).abs() < 0.01, "{frac}");
        assert_eq!(seq_ok, draws - random);

        // 0% random: purely sequential; each pass ends at the region end and the next starts
        // over at the region start.
        let mut g = OffsetGen::for_job(&job(RwMode::RandRead, 0, 0, false), 0, align * 10, 1);
        let offs: Vec<u64> = (0..25)
            .map(|_| {
                g.next(Dir::Read, align, &mut rng).unwrap_or_else(|| {
                    g.reset();
                    g.next(Dir::Read, align, &mut rng).unwrap()
                })
            })
            .collect();
        let expect: Vec<u64> = (0..25).map(|i| (i % 10) * align).collect();
        assert_eq!(offs, expect);
        // Draws from the RNG only when the percentage leaves a choice.
        let mut a = Rng::new(4);
        let b = Rng::new(4);
        g.next(Dir::Read, align, &mut a);
        assert_eq!(a.clone().next_u64(), b.clone().next_u64());
    }

    #[test]
    fn offset_gen_for_job() {
        let mut rng = Rng::new(1);
        let job = JobSpec {
            rw: RwMode::Write,
            rw_modifier: RwModifier {
                value: 8192,
                ..Default::default()
            },
            ..Default::default()
        };
        let mut g = OffsetGen::for_job(&job, 0, 40960, 1);
        let offs: Vec<u64> = std::iter::from_fn(|| g.next(Dir::Write, 4096, &mut rng)).collect();
        assert_eq!(offs, vec![0, 12288, 24576, 36864]);

        let job = JobSpec {
            rw: RwMode::RandRead,
            ..Default::default()
        };
        let mut g = OffsetGen::for_job(&job, 0, 4096 * 64, 1);
        let mut offs: Vec<u64> = std::iter::from_fn(|| g.next(Dir::Read, 4096, &mut rng)).collect();
        assert_eq!(offs.len(), 64);
        offs.sort_unstable();
        assert_eq!(offs, (0..64).map(|i| i * 4096).collect::<Vec<_>>());
        g.reset();
        assert!(g.next(Dir::Read, 4096, &mut rng).is_some());

        let job = JobSpec {
            rw: RwMode::RandRead,
            norandommap: true,
            ..Default::default()
        };
        let mut g = OffsetGen::for_job(&job, 0, 4096 * 64, 1);
        assert!((0..1000).all(|_| g.next(Dir::Read, 4096, &mut rng).is_some()));
    }

    #[test]
    fn directions_have_their_own_sequential_streams() {
        let mut rng = Rng::new(1);
        let mut g = OffsetGen::for_job(&job(RwMode::ReadWrite, 0, 100, false), 0, 4096 * 4, 1);
        assert_eq!(g.next(Dir::Read, 4096, &mut rng), Some(0));
        assert_eq!(g.next(Dir::Read, 4096, &mut rng), Some(4096));
        assert_eq!(g.next(Dir::Write, 4096, &mut rng), Some(0));
        assert_eq!(g.next(Dir::Read, 4096, &mut rng), Some(8192));
        // An I/O that would cross the region end ends the pass.
        assert_eq!(g.next(Dir::Write, 4096 * 4, &mut rng), None);
    }

    #[test]
    fn metadata_engines_do_one_operation_per_pass() {
        let mut rng = Rng::new(1);
        let mut job = job(RwMode::Write, 0, 100, false);
        job.ioengine = crate::job::EngineKind::FileCreate;
        let mut g = OffsetGen::for_job(&job, 0, 1 << 20, 1);
        assert_eq!(g.next(Dir::Write, 4096, &mut rng), Some(0));
        assert_eq!(g.next(Dir::Write, 4096, &mut rng), None);
        g.reset();
        assert_eq!(g.next(Dir::Write, 4096, &mut rng), Some(0));
    }

    #[test]
    fn rw_sequencer_identical_repeats_the_random_offset() {
        let mut j = job(RwMode::RandRead, 4, 100, true);
        j.rw_modifier.sequencer = RwSequencer::Identical;
        let mut g = OffsetGen::for_job(&j, 0, 4096 * 1000, 3);
        let mut rng = Rng::new(3);
        for _ in 0..50 {
            let first = g.next(Dir::Read, 4096, &mut rng).unwrap();
            assert!(g.last_was_random());
            for _ in 0..3 {
                assert_eq!(g.next(Dir::Read, 4096, &mut rng), Some(first));
                assert!(!g.last_was_random());
            }
        }
    }

    #[test]
    fn zones_per_direction() {
        // Reads in the first tenth, writes uniform over the region.
        let mut j = job(RwMode::RandRw, 0, 100, true);
        j.distribution = Distribution::PerDir(Box::new([
            Distribution::Zoned(vec![(100.0, 10.0)]),
            Distribution::Random,
            Distribution::Random,
        ]));
        let blocks = 1000u64;
        let mut g = OffsetGen::for_job(&j, 0, 4096 * blocks, 5);
        let mut rng = Rng::new(5);
        let mut write_high = 0;
        for _ in 0..2000 {
            let r = g.next(Dir::Read, 4096, &mut rng).unwrap();
            assert!(r < 4096 * blocks / 10, "{r}");
            if g.next(Dir::Write, 4096, &mut rng).unwrap() >= 4096 * blocks / 2 {
                write_high += 1;
            }
        }
        assert!((800..1200).contains(&write_high), "{write_high}");
    }
}
