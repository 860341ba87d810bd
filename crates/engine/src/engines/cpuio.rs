//! The cpuio engine: each "I/O" burns the CPU for one chunk (`cpuchunks`, 50 ms by default) and
//! moves nothing; the job then thinks for as long as keeps the burnt share at `cpuload` percent
//! (chunk × (100 − load) / load), so a job uses about `cpuload`% of one CPU. `cpumode=noop` spins
//! on the clock for the chunk; `cpumode=qsort` sorts 256 Ki pseudo-random numbers four ways per
//! I/O and takes the time that took as the chunk, so the think time follows the sort's speed.
//! Its I/Os are counted, with no bytes (fio's FIO_NOIO).

use super::{Engine, EngineDecl, EngineFlags, EngineKind, EngineOption, IoUnit};
use super::{EngineError, Queued};
use crate::job::{CpuBurn, CpuMode, JobSpec};
use std::time::{Duration, Instant};

/// How many 32-bit numbers one qsort burn sorts (1 MiB of them).
const SORT_LEN: usize = 256 * 1024;

/// Burns CPU.
pub(crate) const DECL: EngineDecl = EngineDecl {
    kind: EngineKind::Cpuio,
    flags: EngineFlags {
        sync: true,
        opens_file: false,
        diskless: true,
        metadata: false,
        direct: false,
        noio: true,
    },
    options: &[
        EngineOption::CpuLoad,
        EngineOption::CpuMode,
        EngineOption::CpuChunks,
    ],
    create: |_, setup| Ok(Box::new(CpuEngine::new(&setup.options.cpu)?)),
};

/// The think time that keeps a burn of `chunk` at `load` percent of the time.
pub(crate) fn think_after(chunk: Duration, load: u32) -> Duration {
    let load = load.clamp(1, 100);
    chunk * (100 - load) / load
}

/// A cpuio job thinks after every burn for what keeps its load (as fio sets its think time);
/// a qsort burn's engine adjusts it to each sort's time.
pub(crate) fn think_between(spec: &mut JobSpec) {
    let burn = &spec.engine_options.cpu;
    spec.thinktime = think_after(Duration::from_micros(burn.chunk_us() as u64), burn.load);
    spec.thinktime_spin = Duration::ZERO;
    spec.thinktime_blocks = 1;
}

pub(crate) struct CpuEngine {
    mode: CpuMode,
    load: u32,
    chunk: Duration,
    /// qsort: the numbers sorted on each burn.
    data: Vec<i32>,
}

impl CpuEngine {
    pub(crate) fn new(burn: &CpuBurn) -> Result<Self, EngineError> {
        let data = match burn.mode {
            CpuMode::Noop => Vec::new(),
            CpuMode::Qsort => numbers(SORT_LEN),
        };
        Ok(CpuEngine {
            mode: burn.mode,
            load: burn.load.clamp(1, 100),
            chunk: Duration::from_micros(burn.chunk_us() as u64),
            data,
        })
    }

    /// Spin on the clock for one chunk.
    fn spin(&self) {
        let end = Instant::now() + self.chunk;
        while Instant::now() < end {
            std::hint::spin_loop();
        }
    }

    /// Sort the numbers up, down, their bytes up and the numbers down again; the chunk becomes the time
    /// that took.
    fn sort(&mut self) {
        let t = Instant::now();
        self.data.sort_unstable();
        self.data.sort_unstable_by(|a, b| b.cmp(a));
        // SAFETY: the numbers' memory seen as its bytes (any bit pattern is a valid i32 and
        // i8 needs no alignment); the view ends before the numbers are used again.
        let bytes = unsafe {
            std::slice::from_raw_parts_mut(self.data.as_mut_ptr().cast::<i8>(), self.data.len() * 4)
        };
        bytes.sort_unstable();
        self.data.sort_unstable_by(|a, b| b.cmp(a));
        std::hint::black_box(&self.data);
        self.chunk = t.elapsed();
    }
}

/// `n` pseudo-random numbers from a multiply-with-carry generator (fixed seed: every run sorts
/// the same data).
fn numbers(n: usize) -> Vec<i32> {
    let (mut w, mut z) = (521_288_629u32, 362_436_069u32);
    (0..n)
        .map(|_| {
            z = 36969u32.wrapping_mul(z & 0xffff).wrapping_add(z >> 16);
            w = 18000u32.wrapping_mul(w & 0xffff).wrapping_add(w >> 16);
            (z << 16).wrapping_add(w) as i32
        })
        .collect()
}

impl Engine for CpuEngine {
    #[cfg(test)]
    fn name(&self) -> &'static str {
        "cpuio"
    }
    fn is_sync(&self) -> bool {
        true
    }
    fn queue(&mut self, _io: &IoUnit) -> Queued {
        match self.mode {
            CpuMode::Noop => self.spin(),
            CpuMode::Qsort => self.sort(),
        }
        Queued::Done(0)
    }
    fn think_time(&self) -> Option<Duration> {
        Some(think_after(self.chunk, self.load))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::Op;

    fn io() -> IoUnit {
        IoUnit {
            slot: 0,
            file: 0,
            op: Op::Read,
            offset: 0,
            len: 4096,
            buf: std::ptr::null_mut(),
            prio: None,
        }
    }

    #[test]
    fn the_think_time_keeps_the_load() {
        let c = Duration::from_millis(50);
        assert_eq!(think_after(c, 50), c);
        assert_eq!(think_after(c, 100), Duration::ZERO);
        assert_eq!(think_after(c, 25), c * 3);
        assert_eq!(think_after(c, 1), c * 99);
        // Out of range as fio: above 100 is 100.
        assert_eq!(think_after(c, 300), Duration::ZERO);
    }

    #[test]
    fn a_burn_moves_nothing_and_a_sort_sets_the_chunk() {
        let burn = CpuBurn {
            load: 50,
            mode: CpuMode::Noop,
            chunk_us: Some(1000),
        };
        let mut e = CpuEngine::new(&burn).unwrap();
        assert_eq!(e.queue(&io()), Queued::Done(0));
        assert_eq!(e.think_time(), Some(Duration::from_millis(1)));
        let mut q = CpuEngine::new(&CpuBurn {
            mode: CpuMode::Qsort,
            load: 20,
            ..burn
        })
        .unwrap();
        assert_eq!(q.data.len(), SORT_LEN);
        assert_eq!(q.queue(&io()), Queued::Done(0));
        // Sorted down last, and the think time is four chunks at 20 %.
        assert!(q.data.windows(2).all(|w| w[0] >= w[1]));
        assert_eq!(q.think_time(), Some(q.chunk * 4));
        assert_ne!(q.chunk, Duration::from_millis(1));
    }

    #[test]
    fn the_numbers_are_fixed_and_spread() {
        let a = numbers(1000);
        assert_eq!(a, numbers(1000));
        let distinct: std::collections::HashSet<_> = a.iter().collect();
        assert!(distinct.len() > 990);
    }
}
