//! `--bandwidth-log`: the run's aggregate bandwidth (every job together) per direction, in fio's
//! `agg-read_bw.log`, `agg-write_bw.log` and `agg-trim_bw.log`. A sampler looks at the jobs'
//! byte counters every tick (250 ms, as fio's helper thread) and takes a sample once more than
//! the averaging time (the smallest `bwavgtime` of the jobs, 500 ms by default) has passed
//! since the last one: the KiB/s moved since then. Each line is fio's log line
//! `time_ms, KiB/s, direction, 0, 0` (no block size, priority 0).

use iomark_engine::job::{Dir, RunPlan, UnifiedRw};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How often the sampler looks at the counters.
pub const TICK: Duration = Duration::from_millis(250);

/// The log files, in direction order.
pub const FILES: [&str; 3] = ["agg-read_bw.log", "agg-write_bw.log", "agg-trim_bw.log"];

/// The aggregate samples of one run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AggBw {
    avg_ms: u64,
    /// Time of the last sample (ms since the start) and the byte counts then.
    last_ms: u64,
    last_bytes: [u64; 3],
    /// `unified_rw_reporting=mixed`: everything in the read log.
    mixed: bool,
    /// (time in ms, KiB/s) per direction.
    pub samples: [Vec<(u64, u64)>; 3],
}

impl AggBw {
    /// A sampler for `plan`'s jobs.
    pub fn new(plan: &RunPlan) -> AggBw {
        let avg_ms = plan
            .jobs
            .iter()
            .map(|j| j.stats.bwavgtime.as_millis() as u64)
            .min()
            .unwrap_or(500);
        let mixed = plan
            .jobs
            .iter()
            .any(|j| j.stats.unified_rw == UnifiedRw::Mixed);
        AggBw {
            avg_ms,
            mixed,
            ..Default::default()
        }
    }

    /// A tick at `now_ms` since the start, with the bytes moved so far per direction (all jobs
    /// together). Takes a sample when more than the averaging time has passed.
    pub fn tick(&mut self, now_ms: u64, bytes: [u64; 3]) {
        let span = now_ms.saturating_sub(self.last_ms);
        if span <= self.avg_ms {
            return;
        }
        let mut rate = [0u64; 3];
        for (d, r) in rate.iter_mut().enumerate() {
            let diff = bytes[d].saturating_sub(self.last_bytes[d]);
            *r = diff * 1000 / span / 1024;
        }
        if self.mixed {
            rate = [rate.iter().sum(), 0, 0];
        }
        for (d, r) in rate.iter().enumerate() {
            self.samples[d].push((now_ms, *r));
        }
        self.last_ms = now_ms;
        self.last_bytes = bytes;
    }

    /// The text of direction `d`'s log.
    pub fn text(&self, d: Dir) -> String {
        let i = d.idx();
        self.samples[i]
            .iter()
            .map(|(t, v)| format!("{t}, {v}, {i}, 0, 0\n"))
            .collect()
    }

    /// Writes the three logs into `dir` (empty ones too, as fio); the paths.
    pub fn write(&self, dir: &Path) -> std::io::Result<Vec<PathBuf>> {
        let mut out = Vec::new();
        for d in Dir::ALL {
            let p = dir.join(FILES[d.idx()]);
            std::fs::write(&p, self.text(d))?;
            out.push(p);
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use iomark_engine::job::JobSpec;

    fn plan() -> RunPlan {
        RunPlan {
            jobs: vec![JobSpec::default()],
            ..Default::default()
        }
    }

    #[test]
    fn samples_once_the_averaging_time_has_passed() {
        let mut a = AggBw::new(&plan());
        a.tick(250, [1 << 20, 0, 0]);
        a.tick(500, [2 << 20, 0, 0]);
        assert!(a.samples[0].is_empty(), "not past 500 ms yet");
        a.tick(750, [3 << 20, 1 << 20, 0]);
        // 3 MiB and 1 MiB in 750 ms: 4096 and 1365 KiB/s.
        assert_eq!(a.samples[0], vec![(750, 4096)]);
        assert_eq!(a.samples[1], vec![(750, 1365)]);
        assert_eq!(a.samples[2], vec![(750, 0)]);
        a.tick(1000, [4 << 20, 1 << 20, 0]);
        // 750 ms after the last sample: 1 MiB in 750 ms.
        a.tick(1500, [4 << 20, 1 << 20, 0]);
        a.tick(1501, [5 << 20, 1 << 20, 0]);
        assert_eq!(a.samples[0], vec![(750, 4096), (1500, 1365)]);
        assert_eq!(a.text(Dir::Write), "750, 1365, 1, 0, 0\n1500, 0, 1, 0, 0\n");
        assert_eq!(a.text(Dir::Trim), "750, 0, 2, 0, 0\n1500, 0, 2, 0, 0\n");
    }

    #[test]
    fn the_shortest_averaging_time_of_the_jobs_counts() {
        let mut p = plan();
        let mut j = JobSpec::default();
        j.stats.bwavgtime = Duration::from_millis(200);
        p.jobs.push(j);
        let mut a = AggBw::new(&p);
        a.tick(250, [1 << 20, 0, 0]);
        assert_eq!(a.samples[0].len(), 1);
    }
}
