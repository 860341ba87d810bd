//! The random numbers of a blog tree's threads.
//!
//! Upstream blogbench 1.2 draws every number from the C library's `rand()`: one generator,
//! never seeded (so seeded with 1), shared by all its threads. The first blogs' sizes come from
//! the start of that sequence, and they shape the readers' score of a short run: in its first
//! seconds every reader picks among the first few blogs, and a reader takes seconds to read a
//! large one. So in upstream mode the tree draws from the same C library generator, reseeded
//! with 1 when the tree starts, and its first blogs come out as upstream's do (in the order the
//! threads happen to draw, as upstream's). Otherwise each thread has a generator of its own.

use crate::rng::Rng;

pub(super) enum Draws {
    /// A thread's own generator.
    Own(Rng),
    /// The C library's `rand()`, shared by every thread of the process (upstream mode).
    CLibrary,
}

/// One value of the C library's generator (0..=RAND_MAX).
fn c_rand() -> u64 {
    // SAFETY: glibc's rand() takes a lock around its shared state, so calls from several
    // threads are sound (the very use blogbench makes of it).
    let v = unsafe { libc::rand() };
    v as u64
}

/// Start the C library's generator where a new process's starts (seed 1).
pub(super) fn restart_c_library() {
    // SAFETY: as for rand(): glibc's srand() takes the same lock.
    unsafe { libc::srand(1) }
}

impl Draws {
    /// A number in `0..n` (`n` > 0): upstream's `rand() % n`.
    pub(super) fn below(&mut self, n: u64) -> u64 {
        match self {
            Draws::Own(r) => r.below(n),
            Draws::CLibrary => c_rand() % n,
        }
    }

    /// A blog id in `0..n` (`n` > 0): upstream builds 64 bits from four draws, shifted by 0,
    /// 16, 32 and 48 bits and XOR-ed, then takes them modulo `n`.
    pub(super) fn blog_below(&mut self, n: u64) -> u64 {
        match self {
            Draws::Own(r) => r.below(n),
            Draws::CLibrary => {
                let wide = (0..4).fold(0u64, |acc, i| acc ^ (c_rand() << (16 * i)));
                wide % n
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_c_library_draws_cover_their_range() {
        // The generator is the process's (other tests may draw from it at the same time), so
        // only what holds whatever the interleaving: every value in range, each one seen.
        restart_c_library();
        let mut d = Draws::CLibrary;
        let mut seen = [0u32; 7];
        for _ in 0..2000 {
            seen[d.blog_below(7) as usize] += 1;
            assert!(d.below(100) < 100);
        }
        assert!(seen.iter().all(|n| *n > 150), "{seen:?}");
    }
}
