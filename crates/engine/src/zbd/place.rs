//! Where a write or a read lands in emulated zones, with fio 3.33's rules: a write goes to the
//! write pointer of its zone when that zone is (or can be) open, else to an open zone chosen
//! from the offset drawn; a full zone is reset before it is written again; a read stays below
//! the write pointer, moving to the next zone holding data (sequential) or the nearest one on
//! either side (random).

use super::zones::Zones;
use super::{FileZones, Placed, WorkerZones};
use crate::job::Dir;
use std::sync::MutexGuard;

impl WorkerZones {
    pub(super) fn place_write(&mut self, fi: usize, offset: u64, len: u64) -> Placed {
        let min_bs = self.min_bs[Dir::Write.idx()];
        let f = &self.files[fi];
        let zones = f.zones.clone();
        let mut g = zones.lock().unwrap();
        let mut z = g.index(offset);
        if !self.open_zone(&mut g, z) {
            match self.open_another(&mut g, fi, offset, min_bs) {
                Some(o) => z = o,
                None => return Placed::End,
            }
        }
        let f = &self.files[fi];
        let mut reset = false;
        if self.spec.reset_frequency > 0.0
            && g.with_data as f64 >= f.io_size as f64 * self.spec.reset_threshold
            && g.dec_write_cnt(self.spec.reset_frequency)
        {
            reset = true;
        }
        if (reset || g.full(z, min_bs)) && g.reset(z) {
            self.resets += 1;
        }
        let at = g.wp[z as usize];
        if at.wrapping_sub(f.file_offset) >= f.io_size {
            return Placed::End;
        }
        let room = g.cap_end(z) - at;
        let len = len.min(room) / min_bs * min_bs;
        if len < min_bs {
            return Placed::End;
        }
        g.advance(z, at + len);
        if at + len >= g.cap_end(z) && g.close(z) {
            self.job_open = self.job_open.saturating_sub(1);
        }
        Placed::Io { offset: at, len }
    }

    pub(super) fn place_read(&mut self, fi: usize, offset: u64, len: u64) -> Placed {
        let min_bs = self.min_bs[Dir::Read.idx()];
        let f = &self.files[fi];
        let g = f.zones.lock().unwrap();
        let orig = g.index(offset);
        let mut z = orig;
        let mut off = offset;
        let mut range = g.data(z);
        if range < min_bs || (!self.random && offset + min_bs > g.wp[z as usize]) {
            match find_zone(&g, f, z, min_bs, self.random) {
                Some(n) => z = n,
                None => return Placed::End,
            }
            range = g.data(z);
            if !self.random {
                off = g.start(z);
            }
        }
        if range <= len {
            off = g.start(z);
        } else if self.random {
            off = g.start(z) + ((offset - g.start(orig)) % (range - len)) / min_bs * min_bs;
        }
        let left = g.wp[z as usize] - off;
        let len = len.min(left) / min_bs * min_bs;
        Placed::Io { offset: off, len }
    }

    /// Open zone `z` for writing: true when it is open already (and not filled by writes
    /// issued) or it could be opened within the limits (always, without a limit).
    fn open_zone(&mut self, g: &mut Zones, z: u32) -> bool {
        if g.max_open == 0 {
            return true;
        }
        if g.open[z as usize] {
            return g.wp[z as usize] < g.cap_end(z);
        }
        let job_max = self.spec.job_max_open_zones;
        if (job_max > 0 && self.job_open >= job_max) || g.num_open >= g.max_open as usize {
            return false;
        }
        g.push_open(z);
        self.job_open += 1;
        true
    }

    /// The open zone among the open ones the drawn offset picks, by its share of the region
    /// (fio's `pick_random_zone_idx`).
    fn pick(g: &Zones, f: &FileZones, offset: u64) -> usize {
        ((offset - f.file_offset) as u128 * g.num_open as u128 / f.io_size.max(1) as u128) as usize
    }

    /// A zone to write when the drawn one cannot be opened: an open zone of the region picked
    /// from the drawn offset if it has room, else the next zones round the region that can be
    /// opened, else any open zone with room; None when there is none.
    fn open_another(&mut self, g: &mut Zones, fi: usize, offset: u64, min_bs: u64) -> Option<u32> {
        let f = &self.files[fi];
        let (lo, hi) = (f.min_zone, f.max_zone);
        let (file_offset, io_size) = (f.file_offset, f.io_size);
        let limited = g.max_open > 0 || self.spec.job_max_open_zones > 0;
        let mut z = if limited {
            g.open_list[Self::pick(g, f, offset)]
        } else {
            g.index(offset)
        };
        z = z.clamp(lo, hi.saturating_sub(1).max(lo));
        let examine = loop {
            if !limited {
                break true;
            }
            if g.num_open == 0 {
                break false;
            }
            let n = g.num_open;
            let mut i = Self::pick(g, f, offset);
            let mut found = None;
            for _ in 0..n {
                if i >= n {
                    i = 0;
                }
                let cand = g.open_list[i];
                if (lo..hi).contains(&cand) {
                    found = Some(cand);
                    break;
                }
                i += 1;
            }
            let cand = found?;
            if cand == z {
                break true;
            }
            z = cand;
        };
        if examine && g.wp[z as usize] + min_bs <= g.cap_end(z) {
            return Some(z);
        }
        // Try opening the next zones round the region, then any open zone with room; once
        // more after that, as fio does after waiting for I/O in flight.
        for _ in 0..2 {
            for _ in 0..io_size / g.size {
                z += 1;
                if g.start(z).wrapping_sub(file_offset) >= io_size {
                    z = lo;
                }
                if g.open[z as usize] {
                    continue;
                }
                if self.open_zone(g, z) {
                    return Some(z);
                }
            }
            if let Some(&o) = g.open_list[..g.num_open]
                .iter()
                .find(|&&o| (lo..hi).contains(&o) && g.wp[o as usize] + min_bs <= g.cap_end(o))
            {
                return Some(o);
            }
        }
        None
    }
}

/// The zone nearest `z` holding at least `min_bytes` of data: after it (sequential), or
/// after or before it (random, alternating, after first).
fn find_zone(
    g: &MutexGuard<'_, Zones>,
    f: &FileZones,
    z: u32,
    min_bytes: u64,
    random: bool,
) -> Option<u32> {
    let (first, last) = (f.min_zone as i64, f.max_zone as i64);
    let (mut up, mut down) = (z as i64 + 1, z as i64 - 1);
    while up < last || down >= first {
        if up < last {
            if g.data(up as u32) >= min_bytes {
                return Some(up as u32);
            }
        } else if !random {
            break;
        }
        if random && down >= first && g.data(down as u32) >= min_bytes {
            return Some(down as u32);
        }
        up += 1;
        down -= 1;
    }
    None
}
