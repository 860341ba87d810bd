//! The read/write choice of mixed workloads, drawn as fio draws it.
//!
//! fio keeps a current direction and only draws a new one (1..=100 against the read share,
//! from a Tausworthe stream of its own) once the current direction has issued as many I/Os as
//! its last switch allowed: on a switch from `old` to `new` the allowance is
//! `issued[old] * share[new] / 100`, against the cumulative count of the new direction. With
//! the same seed the sequence of directions, and so the bytes of each, is fio's.

use super::taus::Taus88;
use crate::job::Dir;

/// Chooses read or write for mixed workloads.
#[derive(Clone, Debug)]
pub(crate) struct DirMix {
    read_pct: u32,
    seed: u64,
    taus: Taus88,
    /// The current direction (read until the first draw).
    cur: Dir,
    /// Issues of the current direction before the next draw.
    allowance: u64,
    /// I/Os issued per direction (verification reads aside).
    issued: [u64; 3],
    /// The current direction is kept for the next I/O without a draw (it waited for its rate).
    held: bool,
}

impl DirMix {
    /// A mix reading `rwmixread` percent of the time, drawing from the stream `seed`.
    pub(crate) fn new(rwmixread: u32, seed: u64) -> DirMix {
        DirMix {
            read_pct: rwmixread.min(100),
            seed,
            taus: Taus88::new(seed),
            cur: Dir::Read,
            allowance: 0,
            issued: [0; 3],
            held: false,
        }
    }

    /// The share of `d` in percent.
    #[inline]
    pub(crate) fn share(&self, d: Dir) -> u32 {
        match d {
            Dir::Read => self.read_pct,
            Dir::Write => 100 - self.read_pct,
            Dir::Trim => 0,
        }
    }

    /// The direction of the next I/O.
    #[inline]
    pub(crate) fn choose(&mut self) -> Dir {
        if self.held {
            self.held = false;
            return self.cur;
        }
        if self.issued[self.cur.idx()] >= self.allowance {
            let v = self.taus.between(1, 100);
            let d = if v <= self.read_pct {
                Dir::Read
            } else {
                Dir::Write
            };
            if d != self.cur {
                self.allowance = self.issued[self.cur.idx()] * self.share(d) as u64 / 100;
            }
            self.cur = d;
        }
        self.cur
    }

    /// Make `d` the current direction (the chosen one was ahead of its rate); with `hold`
    /// the next `choose` returns it without a draw (the I/O waits for its issue time).
    #[inline]
    pub(crate) fn switch_to(&mut self, d: Dir, hold: bool) {
        self.cur = d;
        self.held = hold;
    }

    /// One I/O of `d` was issued.
    #[inline]
    pub(crate) fn count(&mut self, d: Dir) {
        self.issued[d.idx()] += 1;
    }

    /// A new loop over the files: the allowance starts again, and a repeatable run draws the
    /// same sequence again.
    pub(crate) fn new_loop(&mut self, reseed: bool) {
        self.allowance = 0;
        if reseed {
            self.taus = Taus88::new(self.seed);
        }
    }

    /// The measured phase begins (after the ramp): the counts start from zero.
    pub(crate) fn restart_counts(&mut self) {
        self.issued = [0; 3];
        self.allowance = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::super::taus::{stream_seed, Stream};
    use super::*;

    fn writes_of(mix: &mut DirMix, n: usize) -> usize {
        let mut w = 0;
        for _ in 0..n {
            let d = mix.choose();
            mix.count(d);
            w += (d == Dir::Write) as usize;
        }
        w
    }

    #[test]
    fn fio_default_seed_gives_fios_write_count() {
        // fio 3.33, rw=readwrite bs=4k size=32m (8192 I/Os), default seed: 4142 writes
        // (16568 KiB, the figure fio's own test t0008 expects).
        let mut m = DirMix::new(50, stream_seed(0x89, 1, Stream::Mix));
        assert_eq!(writes_of(&mut m, 8192), 4142);
        // A repeatable new loop draws the same directions again.
        let mut a = DirMix::new(70, 5);
        let mut b = DirMix::new(70, 5);
        let first: Vec<Dir> = (0..50).map(|_| a.choose()).collect();
        a.new_loop(true);
        a.restart_counts();
        let again: Vec<Dir> = (0..50).map(|_| a.choose()).collect();
        let fresh: Vec<Dir> = (0..50).map(|_| b.choose()).collect();
        assert_eq!(first, again);
        assert_eq!(first, fresh);
    }

    #[test]
    fn shares_hold_and_extremes_never_switch() {
        let mut m = DirMix::new(70, 11);
        let w = writes_of(&mut m, 100_000);
        assert!((w as f64 / 100_000.0 - 0.30).abs() < 0.01, "{w}");
        let mut m = DirMix::new(0, 11);
        assert_eq!(writes_of(&mut m, 1000), 1000);
        let mut m = DirMix::new(100, 11);
        assert_eq!(writes_of(&mut m, 1000), 0);
    }

    #[test]
    fn allowance_keeps_a_direction_after_a_switch() {
        // After 90 reads, a switch to write at 50 % allows 45 writes before the next draw.
        let mut m = DirMix::new(50, 3);
        m.issued = [90, 0, 0];
        m.cur = Dir::Read;
        m.allowance = 90;
        // Draw until the mix switches to write.
        while m.choose() == Dir::Read {
            m.count(Dir::Read);
            m.allowance = m.issued[0];
        }
        let at_switch = m.issued[0];
        assert_eq!(m.allowance, at_switch / 2);
        let mut writes = 1;
        m.count(Dir::Write);
        while m.choose() == Dir::Write && writes < at_switch / 2 {
            m.count(Dir::Write);
            writes += 1;
        }
        assert_eq!(
            writes,
            at_switch / 2,
            "no draw before the allowance is used"
        );
        // A held direction is returned once without a draw.
        let before = m.taus;
        m.switch_to(Dir::Read, true);
        assert_eq!(m.choose(), Dir::Read);
        assert_eq!(m.taus, before);
    }
}
