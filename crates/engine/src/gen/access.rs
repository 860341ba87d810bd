//! The per-I/O choices of an access mix ([`crate::job::AccessMix`]): which line (once per
//! burst, by weight), which direction and whether random (per I/O, by the line's shares), and
//! the offset in a file (random and aligned, or sequential: where the previous I/O in that file
//! ended, rounded up to the line's alignment, wrapping to the region start at its end). Each
//! choice that leaves a choice draws the RNG once; nothing here allocates after `new`.

use crate::job::{AccessMix, Dir};
use crate::rng::Rng;

/// What the next I/O of an access mix is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct MixPick {
    /// The index of the line.
    pub(crate) line: usize,
    pub(crate) dir: Dir,
    pub(crate) size: u64,
    pub(crate) random: bool,
    pub(crate) align: u64,
}

/// The line and direction choices of one worker.
#[derive(Clone, Debug)]
pub(crate) struct MixPicker {
    mix: AccessMix,
    /// The lines' cumulative weights.
    cum: Vec<u64>,
    cur: usize,
    /// I/Os left in the current burst (0: pick a line).
    left: u32,
    /// Nothing may be issued before this time (the current burst's delay).
    not_before: u64,
}

impl MixPicker {
    /// The picker of `mix` (lines with a zero weight are never picked; alignments and bursts
    /// under 1 count as 1).
    pub(crate) fn new(mix: &AccessMix) -> MixPicker {
        let mut mix = mix.clone();
        for l in &mut mix.lines {
            l.align = l.align.max(1);
            l.burst = l.burst.max(1);
            l.size = l.size.max(1);
        }
        let mut sum = 0u64;
        let cum = mix
            .lines
            .iter()
            .map(|l| {
                sum += u64::from(l.weight);
                sum
            })
            .collect();
        MixPicker {
            mix,
            cum,
            cur: 0,
            left: 0,
            not_before: 0,
        }
    }

    /// The next I/O's line, direction and kind at `now` (ns); `Err(t)`: nothing before `t`
    /// (the delay before a burst), ask again then.
    #[inline]
    pub(crate) fn next(&mut self, now: u64, rng: &mut Rng) -> Result<MixPick, u64> {
        if self.left == 0 {
            let total = self.cum.last().copied().unwrap_or(0);
            self.cur = if self.cum.len() <= 1 || total == 0 {
                0
            } else {
                let r = rng.below(total);
                self.cum.iter().position(|&c| r < c).unwrap_or(0)
            };
            let l = &self.mix.lines[self.cur];
            self.left = l.burst;
            self.not_before = if l.delay_ns > 0 { now + l.delay_ns } else { 0 };
        }
        if self.not_before > now {
            return Err(self.not_before);
        }
        self.left -= 1;
        let l = &self.mix.lines[self.cur];
        let dir = if rng.percent(l.read_pct) {
            Dir::Read
        } else {
            Dir::Write
        };
        Ok(MixPick {
            line: self.cur,
            dir,
            size: l.size,
            random: rng.percent(l.random_pct),
            align: l.align,
        })
    }
}

/// The offsets of an access mix in one file's region `[start, end)`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct MixOffsets {
    start: u64,
    end: u64,
    /// Where the previous I/O ended.
    pos: u64,
}

fn align_up(x: u64, a: u64) -> u64 {
    x.div_ceil(a).saturating_mul(a)
}

impl MixOffsets {
    pub(crate) fn new(start: u64, len: u64) -> MixOffsets {
        MixOffsets {
            start,
            end: start.saturating_add(len),
            pos: start,
        }
    }

    /// The offset of an I/O of `bs` bytes for `p`; None when no aligned I/O of that size fits
    /// in the region. Offsets are multiples of the alignment (from the start of the file).
    #[inline]
    pub(crate) fn next(&mut self, p: &MixPick, bs: u64, rng: &mut Rng) -> Option<u64> {
        let first = align_up(self.start, p.align);
        if first.saturating_add(bs) > self.end {
            return None;
        }
        let off = if p.random {
            let slots = (self.end - bs - first) / p.align + 1;
            first + p.align * rng.below(slots)
        } else {
            let o = align_up(self.pos, p.align);
            if o.saturating_add(bs) > self.end {
                first
            } else {
                o
            }
        };
        self.pos = off + bs;
        Some(off)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::job::AccessLine;

    fn line(weight: u32, size: u64, read: u32, random: u32, align: u64) -> AccessLine {
        AccessLine {
            weight,
            size,
            read_pct: read,
            random_pct: random,
            align,
            delay_ns: 0,
            burst: 1,
        }
    }

    /// Weights, % read, % random and alignment per line hold over many I/Os; sequential I/Os
    /// continue where the previous I/O ended.
    #[test]
    fn lines_keep_their_shares() {
        let mix = AccessMix {
            lines: vec![line(3, 4096, 70, 100, 4096), line(1, 65536, 100, 0, 65536)],
        };
        let mut p = MixPicker::new(&mix);
        let mut o = MixOffsets::new(0, 64 << 20);
        let mut rng = Rng::new(7);
        let mut n = [0u64; 2];
        let mut reads = [0u64; 2];
        let mut seq = [0u64; 2];
        let mut end = 0;
        for _ in 0..100_000 {
            let k = p.next(0, &mut rng).unwrap();
            let off = o.next(&k, k.size, &mut rng).unwrap();
            assert_eq!(off % k.align, 0);
            assert!(off + k.size <= 64 << 20);
            n[k.line] += 1;
            reads[k.line] += u64::from(k.dir == Dir::Read);
            if off == align_up(end, k.align) {
                seq[k.line] += 1;
            }
            end = off + k.size;
        }
        let pct = |a: u64, b: u64| a as f64 * 100.0 / b as f64;
        assert!((pct(n[0], 100_000) - 75.0).abs() < 1.0, "{n:?}");
        assert!((pct(reads[0], n[0]) - 70.0).abs() < 1.0, "{reads:?}");
        assert_eq!(reads[1], n[1]);
        assert!(pct(seq[0], n[0]) < 1.0, "{seq:?}");
        // Every 64 KiB I/O continues (its wraps at the region end aside).
        assert!(pct(seq[1], n[1]) > 99.0, "{seq:?}");
    }

    /// A burst keeps its line; its delay comes before it, and nothing is drawn while waiting.
    #[test]
    fn bursts_and_delays() {
        let mut l = line(1, 4096, 100, 100, 4096);
        l.delay_ns = 1000;
        l.burst = 3;
        let mix = AccessMix {
            lines: vec![l, line(1, 8192, 0, 100, 4096)],
        };
        let mut p = MixPicker::new(&mix);
        let mut rng = Rng::new(3);
        let mut now = 0;
        let mut seen_delay = 0;
        let mut i = 0;
        while i < 1000 {
            match p.next(now, &mut rng) {
                Err(t) => {
                    assert_eq!(t, now + 1000);
                    let before = rng.clone().next_u64();
                    assert_eq!(p.next(now + 999, &mut rng), Err(t));
                    assert_eq!(rng.clone().next_u64(), before);
                    now = t;
                    seen_delay += 1;
                    for _ in 0..3 {
                        let k = p.next(now, &mut rng).unwrap();
                        assert_eq!((k.line, k.dir), (0, Dir::Read));
                        i += 1;
                    }
                }
                Ok(k) => {
                    assert_eq!((k.line, k.dir), (1, Dir::Write));
                    i += 1;
                }
            }
        }
        assert!((200..300).contains(&seen_delay), "{seen_delay}");
    }

    #[test]
    fn sequential_wraps_and_aligns() {
        let mut rng = Rng::new(1);
        let mut o = MixOffsets::new(1000, 10_000);
        let k = MixPick {
            line: 0,
            dir: Dir::Read,
            size: 4096,
            random: false,
            align: 512,
        };
        assert_eq!(o.next(&k, 4096, &mut rng), Some(1024));
        assert_eq!(o.next(&k, 4096, &mut rng), Some(5120));
        // 9216 + 4096 > 11000: back to the first aligned offset.
        assert_eq!(o.next(&k, 4096, &mut rng), Some(1024));
        assert_eq!(o.next(&k, 20_000, &mut rng), None);
    }
}
