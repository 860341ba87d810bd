//! Which reads and writes carry a request priority of their own (the engine's priority mix): one
//! draw in 0..100 per I/O whose size has a share, from its own stream (seeded as fio seeds its
//! priority stream), and the latency records per priority value.

use super::Worker;
use crate::gen::{stream_seed, Stream, Taus88};
use crate::job::prio_mix::{pick, share, PrioRule};
use crate::job::{Dir, JobSpec};
use crate::result::{DirResult, PrioLat};

/// The draw of a job whose requests carry priorities.
pub(super) struct PrioDraw {
    /// Read and write rules (empty: the direction's I/Os all carry the job's priority).
    rules: [Vec<PrioRule>; 2],
    taus: Taus88,
    /// The records keep total latency, else completion latency.
    pub(super) total_latency: bool,
}

impl PrioDraw {
    /// The draw of `spec`'s clone `thread_number` (0-based), None when no request carries a
    /// priority of its own; creates the per-priority records of the directions that draw.
    pub(super) fn for_job(
        spec: &JobSpec,
        thread_number: u32,
        dirs: &mut crate::job::PerDir<DirResult>,
    ) -> Option<Box<PrioDraw>> {
        let mix = &spec.engine_options.prio_mix;
        if mix.is_off() {
            return None;
        }
        let default = job_prio(spec);
        let mut rules: [Vec<PrioRule>; 2] = Default::default();
        for (i, d) in [Dir::Read, Dir::Write].into_iter().enumerate() {
            let on = match d {
                Dir::Read => spec.rw.has_read(),
                _ => spec.rw.has_write(),
            };
            if !on {
                continue;
            }
            let (r, values) = mix.rules(i, default);
            rules[i] = r;
            dirs[d].prios = values
                .into_iter()
                .map(|ioprio| PrioLat {
                    ioprio,
                    ..Default::default()
                })
                .collect();
        }
        let seed = if spec.repeatable_seeds() {
            stream_seed(spec.randseed, thread_number + 1, Stream::PrioCmds)
        } else {
            crate::rng::job_seed(spec.randseed, false, thread_number, Stream::PrioCmds as u32)
        };
        Some(Box::new(PrioDraw {
            rules,
            taus: Taus88::new(seed),
            total_latency: spec.stats.lat_percentiles,
        }))
    }

    /// The rule the next I/O of direction `d` and `bs` bytes falls under, if any.
    #[inline]
    pub(super) fn draw(&mut self, d: Dir, bs: u64) -> Option<PrioRule> {
        let rules = match d {
            Dir::Read => &self.rules[0],
            Dir::Write => &self.rules[1],
            Dir::Trim => return None,
        };
        let p = share(rules, bs);
        if p == 0 {
            return None;
        }
        let r = self.taus.between(0, 99);
        if r >= p {
            return None;
        }
        pick(rules, bs, r).copied()
    }
}

/// The priority value of the job's own requests (0 when the job sets none).
pub(super) fn job_prio(spec: &JobSpec) -> u16 {
    spec.io_priority.map_or(0, |p| p.value())
}

impl Worker {
    /// Decide the priority of the I/O in `slot` (read or write) before it is queued.
    #[inline]
    pub(super) fn draw_prio(&mut self, slot: u32) {
        let s = &mut self.slots[slot as usize];
        s.prio = None;
        s.prio_rec = 0;
        if let Some(p) = &mut self.prio {
            if matches!(s.op, crate::engines::Op::Read | crate::engines::Op::Write) {
                if let Some(r) = p.draw(s.dir, s.len as u64) {
                    s.prio = Some(r.value);
                    s.prio_rec = r.slot;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::job::prio_mix::{IoPrioMix, PrioSplit};
    use crate::job::{IoPriority, PerDir, RwMode};

    fn spec(mix: IoPrioMix, rw: RwMode) -> JobSpec {
        let mut s = JobSpec::default();
        s.engine_options.prio_mix = mix;
        s.rw = rw;
        s
    }

    #[test]
    fn off_costs_no_draw() {
        let mut dirs = PerDir::<DirResult>::default();
        let s = spec(IoPrioMix::default(), RwMode::RandRead);
        assert!(PrioDraw::for_job(&s, 0, &mut dirs).is_none());
        assert!(dirs.read.prios.is_empty());
    }

    #[test]
    fn share_close_to_the_percentage_and_records_per_direction() {
        let mix = IoPrioMix {
            percent: [30, 30],
            ..Default::default()
        };
        let mut s = spec(mix, RwMode::RandRead);
        s.io_priority = Some(IoPriority { class: 2, level: 4 });
        let mut dirs = PerDir::<DirResult>::default();
        let mut d = PrioDraw::for_job(&s, 0, &mut dirs).unwrap();
        let v: Vec<u16> = dirs.read.prios.iter().map(|p| p.ioprio).collect();
        assert_eq!(v, [(2 << 13) | 4, 1 << 13]);
        assert!(dirs.write.prios.is_empty(), "writes are off in a read job");
        let n = 100_000;
        let hits = (0..n).filter(|_| d.draw(Dir::Read, 4096).is_some()).count();
        assert!((29_000..31_000).contains(&hits), "{hits}");
        assert!(d.draw(Dir::Trim, 4096).is_none());
    }

    #[test]
    fn sizes_without_a_share_draw_nothing() {
        let mut mix = IoPrioMix::default();
        mix.by_size[0] = vec![PrioSplit {
            bs: 8192,
            percent: 100,
            prio: Some(IoPriority { class: 3, level: 1 }),
        }];
        let s = spec(mix, RwMode::RandRw);
        let mut dirs = PerDir::<DirResult>::default();
        let mut d = PrioDraw::for_job(&s, 0, &mut dirs).unwrap();
        let before = d.taus;
        assert!(d.draw(Dir::Read, 4096).is_none());
        assert_eq!(d.taus, before, "no draw for a size without a share");
        assert_eq!(d.draw(Dir::Read, 8192).unwrap().value, (3 << 13) | 1);
        assert!(d.draw(Dir::Write, 8192).is_none());
    }
}
