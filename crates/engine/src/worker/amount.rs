//! How much a job that ends by size moves, and in how many passes over its files, by fio's
//! rules: a pass moves at most the job's size (it ends earlier when every file finished it);
//! the job issues at most `io_size` (or the size) times `loops` in all; it makes `loops`
//! passes, then more while it has moved less than `io_size` by at least a block (so an
//! `io_size` larger than the size wraps around the files, each pass starting over as a new
//! loop does). An empty pass ends the job; `number_ios` counts per loop too.

use crate::job::JobSpec;

/// The amount limits of one job clone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Amount {
    /// The most one pass moves: the job's size (with `norandommap` random writes, at least
    /// `io_size`, which such a pass never reaches the end of anyway).
    pub(crate) pass_cap: u64,
    /// `io_size`, or the size without it.
    limit: u64,
    /// Passes made whatever was moved (`loops`).
    loops: u32,
    /// Passes go on past `loops` while less than `limit` was moved: `io_size` was given, and
    /// the files start over after a pass (fio starts them over with `do_verify`, the default,
    /// or several loops).
    wraps: bool,
    /// The largest block size: a rest smaller than one block starts no new pass.
    max_bs: u64,
    /// `limit` times `loops`: the bytes the job issues in all, computed once (the per-I/O
    /// check compares against it).
    issue_limit: u64,
    /// `number_ios` times `loops`: the I/Os the job issues in all (u64::MAX: no limit),
    /// computed once.
    ios_limit: u64,
}

/// What comes after a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AfterPass {
    /// Another pass, from the start of the files.
    Again,
    /// The job is done.
    Done,
}

impl Amount {
    /// The limits of `job` over a region of `region` bytes (the sum of its files' regions),
    /// with `limit` bytes to move per loop (`io_size`, or the region; u64::MAX for an engine
    /// that moves nothing, which ends by its files or its time).
    pub(crate) fn new(job: &JobSpec, region: u64, limit: u64) -> Amount {
        let unbounded = limit == u64::MAX;
        let random_overwrite = job.rw.is_random() && job.rw.has_write() && job.norandommap;
        // Strided zones go round the file themselves (the zone after the last is the first):
        // such a pass ends only at the job's limit, as in fio.
        let endless = random_overwrite || job.zones.is_some();
        let pass_cap = if unbounded {
            u64::MAX
        } else if endless {
            region.max(limit)
        } else {
            region
        };
        let do_verify = job.verify.as_ref().is_none_or(|v| v.do_verify);
        let loops = job.loops.max(1);
        Amount {
            pass_cap,
            limit,
            loops,
            wraps: !unbounded && job.io_size.is_some() && (do_verify || job.loops > 1),
            max_bs: job.max_bs().max(1),
            issue_limit: limit.saturating_mul(loops as u64),
            ios_limit: match job.number_ios {
                0 => u64::MAX,
                n => n.saturating_mul(loops as u64),
            },
        }
    }

    /// The most the job issues in all: `limit` times `loops`.
    #[inline]
    pub(crate) fn issue_limit(&self) -> u64 {
        self.issue_limit
    }

    /// Whether `issued` bytes and `ios` I/Os in all end the job: two comparisons against
    /// limits computed once.
    #[inline]
    pub(crate) fn job_done(&self, issued: u64, ios: u64) -> bool {
        issued >= self.issue_limit || self.ios_done(ios)
    }

    /// Whether `ios` I/Os in all reach `number_ios` times `loops`.
    #[inline]
    pub(crate) fn ios_done(&self, ios: u64) -> bool {
        ios >= self.ios_limit
    }

    /// Whether the job may make more than one pass (each then verified on its own).
    pub(crate) fn passes_may_repeat(&self) -> bool {
        self.loops > 1 || self.wraps
    }

    /// What follows pass number `passes` (1 for the first) that issued `pass_bytes`, with
    /// `issued` bytes and `ios` I/Os issued in all so far, and `moved` bytes moved in all (the
    /// issued ones and those the verify phases read).
    pub(crate) fn after_pass(
        &self,
        passes: u32,
        pass_bytes: u64,
        issued: u64,
        moved: u64,
        ios: u64,
    ) -> AfterPass {
        if pass_bytes == 0 || self.job_done(issued, ios) {
            return AfterPass::Done;
        }
        if passes < self.loops {
            return AfterPass::Again;
        }
        if self.wraps && moved < self.limit && self.limit - moved >= self.max_bs {
            return AfterPass::Again;
        }
        AfterPass::Done
    }

    /// The bytes the job is expected to move, for a progress display.
    pub(crate) fn expected_total(&self) -> u64 {
        let loops = self.loops as u64;
        let by_passes = self.pass_cap.saturating_mul(loops);
        let passes = if self.wraps {
            by_passes.max(self.limit)
        } else {
            by_passes
        };
        self.issue_limit().min(passes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::job::{RwMode, SizeSpec};

    const M: u64 = 1 << 20;

    fn job(rw: RwMode, io_size: Option<u64>, loops: u32) -> JobSpec {
        JobSpec {
            rw,
            io_size: io_size.map(SizeSpec::Bytes),
            loops,
            ..Default::default()
        }
    }

    /// Bytes moved pass by pass when every pass ends at the files' end (`region`) or at a
    /// limit, as the worker runs them.
    fn passes(a: &Amount, region: u64) -> Vec<u64> {
        let mut out = Vec::new();
        let mut issued = 0u64;
        loop {
            let mut pass = 0;
            while pass < region.min(a.pass_cap) && !a.job_done(issued, 0) {
                pass += 4096;
                issued += 4096;
            }
            out.push(pass);
            if a.after_pass(out.len() as u32, pass, issued, issued, 0) == AfterPass::Done {
                return out;
            }
        }
    }

    #[test]
    fn io_size_past_the_size_wraps_as_in_fio() {
        // fio 3.33, size=1m bs=4k rw=read: the passes (file opens) and bytes of its I/O log.
        let cases = [
            (Some(4 * M), 1, vec![M, M, M, M]),
            (Some(4 * M), 2, vec![M, M, M, M]),
            (Some(1536 << 10), 2, vec![M, M]),
            (Some(2560 << 10), 1, vec![M, M, M / 2]),
            (None, 3, vec![M, M, M]),
            (Some(M / 2), 1, vec![M / 2]),
        ];
        for (io_size, loops, want) in cases {
            let j = job(RwMode::Read, io_size, loops);
            let a = Amount::new(&j, M, io_size.unwrap_or(M));
            assert_eq!(passes(&a, M), want, "io_size={io_size:?} loops={loops}");
            assert_eq!(a.expected_total(), want.iter().sum::<u64>());
        }
    }

    #[test]
    fn io_size_below_the_size_over_loops_is_one_pass() {
        // fio 3.33, size=4m io_size=1m loops=2: one pass of 2 MiB (offsets up to 2 MiB).
        let j = job(RwMode::Read, Some(M), 2);
        let a = Amount::new(&j, 4 * M, M);
        assert_eq!(passes(&a, 4 * M), vec![2 * M]);
    }

    #[test]
    fn no_wrap_without_do_verify_on_one_loop() {
        let mut j = job(RwMode::Read, Some(4 * M), 1);
        j.verify = Some(crate::job::VerifySpec {
            do_verify: false,
            ..Default::default()
        });
        let a = Amount::new(&j, M, 4 * M);
        assert_eq!(passes(&a, M), vec![M]);
    }

    #[test]
    fn a_rest_below_a_block_starts_no_pass() {
        let j = job(RwMode::Read, Some(2 * M + 2048), 1);
        let a = Amount::new(&j, M, 2 * M + 2048);
        assert_eq!(passes(&a, M), vec![M, M]);
    }

    #[test]
    fn verify_reads_count_toward_io_size() {
        // fio 3.33, rw=write size=1m io_size=4m verify=crc32c: each pass writes 1 MiB and
        // its verify phase reads it back, so two passes move the 4 MiB.
        let j = job(RwMode::Write, Some(4 * M), 1);
        let a = Amount::new(&j, M, 4 * M);
        assert_eq!(a.after_pass(1, M, M, 2 * M, 0), AfterPass::Again);
        assert_eq!(a.after_pass(2, M, 2 * M, 4 * M, 0), AfterPass::Done);
        assert!(a.passes_may_repeat());
        assert!(!Amount::new(&job(RwMode::Write, None, 1), M, M).passes_may_repeat());
    }

    #[test]
    fn number_ios_counts_per_loop() {
        let mut j = job(RwMode::Read, None, 2);
        j.number_ios = 10;
        let a = Amount::new(&j, M, M);
        assert!(!a.job_done(0, 19));
        assert!(a.job_done(0, 20));
    }
}
