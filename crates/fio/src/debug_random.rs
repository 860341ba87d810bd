//! `--debug=random`: the seed lines fio prints for each job clone (`FIO_RAND_NR_OFFS=N`, then
//! `rand_seeds[i]=S` per random stream), prefixed as fio prefixes its debug lines (`random`,
//! the process id). Harnesses that read them (fio's `t/random_seed.py`) check that equal
//! `randseed`s give equal seeds and that runs without `randrepeat` differ.
//!
//! The seeds are fio's derivation from the job's `randseed` and its clone's thread number
//! (1 for the first clone of the first job); iomark draws the read/write mix and the command
//! priorities from exactly these, its other streams from its own seeding of the same
//! `randseed`. A job that is not repeatable gets a `randseed` drawn from the system's random
//! source at parse time (`fresh_randseed`), so what is printed is what the run uses.

use iomark_engine::job::RunPlan;

/// fio 3.33's number of random streams per job (`FIO_RAND_NR_OFFS`).
pub const STREAMS: usize = 21;

/// fio's multiplier of its seed derivation.
const SEED_MUL: u64 = 0x9e37_0001;

/// The seeds of one clone: `randseed` multiplied four times, then per stream
/// `seed * thread_number + stream` with another multiplication between streams.
pub fn clone_seeds(randseed: u64, thread_number: u32) -> [u64; STREAMS] {
    let mut seed = randseed;
    for _ in 0..4 {
        seed = seed.wrapping_mul(SEED_MUL);
    }
    let mut out = [0u64; STREAMS];
    for (i, s) in out.iter_mut().enumerate() {
        *s = seed
            .wrapping_mul(thread_number as u64)
            .wrapping_add(i as u64);
        seed = seed.wrapping_mul(SEED_MUL);
    }
    out
}

/// Every clone's lines, in thread order, as fio prints them (`%-8s %-5u %s`).
pub fn seed_lines(plan: &RunPlan, pid: u32) -> String {
    let mut out = String::new();
    let mut thread_number = 0u32;
    let mut line = |msg: String| out.push_str(&format!("{:<8} {:<5} {msg}\n", "random", pid));
    for job in &plan.jobs {
        for _ in 0..job.numjobs.max(1) {
            thread_number += 1;
            line(format!("FIO_RAND_NR_OFFS={STREAMS}"));
            for (i, s) in clone_seeds(job.randseed, thread_number).iter().enumerate() {
                line(format!("rand_seeds[{i}]={s}"));
            }
        }
    }
    out
}

/// A `randseed` from the system's random source, for a job whose streams are not repeatable.
pub fn fresh_randseed() -> u64 {
    let mut b = [0u8; 8];
    // SAFETY: getrandom writes at most `b.len()` bytes into `b`.
    let n = unsafe { libc::getrandom(b.as_mut_ptr().cast(), b.len(), 0) };
    if n != b.len() as isize {
        // No getrandom (very old kernels): the clock and the process id.
        let t = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        return t ^ (u64::from(std::process::id()) << 40);
    }
    u64::from_ne_bytes(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_follow_fios_derivation() {
        // The mix stream (4) of fio's default seed, first thread: the seed iomark's engine
        // derives for it (crates/engine/src/gen/taus.rs).
        let s = clone_seeds(0x89, 1);
        assert_eq!(s[4], 0x22b5_8261_5b78_008d);
        assert_ne!(clone_seeds(0x89, 2), s);
        assert_ne!(clone_seeds(0x8a, 1), s);
        assert_ne!(fresh_randseed(), fresh_randseed());
    }

    #[test]
    fn lines_per_clone_in_fios_layout() {
        let mut plan = RunPlan::default();
        plan.jobs.push(iomark_engine::job::JobSpec {
            numjobs: 2,
            ..Default::default()
        });
        let text = seed_lines(&plan, 42);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2 * (STREAMS + 1));
        assert_eq!(lines[0], "random   42    FIO_RAND_NR_OFFS=21");
        assert!(lines[1].starts_with("random   42    rand_seeds[0]="));
    }
}
