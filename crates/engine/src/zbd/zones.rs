//! The emulated zones of one target, shared by every job clone on it: each zone's write
//! pointer, which zones are open for writing (in the order they were opened), and the bytes
//! written below the write pointers.

/// The most zones open at once (`max_open_zones` cannot be larger).
pub(crate) const MAX_OPEN_ZONES: usize = 4096;

/// The zones of one target. Zone `i` spans `[i * size, (i + 1) * size)`; the target's last
/// zone may be partial (then no job's region holds it).
#[derive(Debug)]
pub(crate) struct Zones {
    pub(crate) size: u64,
    pub(crate) capacity: u64,
    /// Each zone's write pointer.
    pub(crate) wp: Vec<u64>,
    /// Each zone is open for writing (tracked only with an open-zone limit).
    pub(crate) open: Vec<bool>,
    /// The open zones, oldest first, in a table of fixed length whose entries past the count
    /// hold what moved down over them (a pick beyond the count reads such an entry, as in fio).
    pub(crate) open_list: Vec<u32>,
    pub(crate) num_open: usize,
    /// The limit on open zones shared by every job on the target (0: none).
    pub(crate) max_open: u32,
    /// Bytes written below the write pointers.
    pub(crate) with_data: u64,
    /// Writes left before the next reset forced by `zone_reset_frequency`.
    pub(crate) write_cnt: u32,
}

impl Zones {
    /// Empty zones of `size` bytes (`capacity` of them writable) over a target of
    /// `target_size` bytes.
    pub(crate) fn new(size: u64, capacity: u64, target_size: u64, max_open: u32) -> Zones {
        let n = target_size.div_ceil(size) as usize;
        Zones {
            size,
            capacity,
            wp: (0..n as u64).map(|i| i * size).collect(),
            open: vec![false; n],
            open_list: vec![0; MAX_OPEN_ZONES],
            num_open: 0,
            max_open,
            with_data: 0,
            write_cnt: u32::MAX,
        }
    }

    /// The zone holding `offset` (the count of zones for an offset past the last).
    pub(crate) fn index(&self, offset: u64) -> u32 {
        (offset / self.size).min(self.wp.len() as u64) as u32
    }

    pub(crate) fn start(&self, z: u32) -> u64 {
        z as u64 * self.size
    }

    /// The end of the writable part of zone `z`.
    pub(crate) fn cap_end(&self, z: u32) -> u64 {
        self.start(z) + self.capacity
    }

    /// Fewer than `need` writable bytes are left in zone `z`.
    pub(crate) fn full(&self, z: u32, need: u64) -> bool {
        self.wp[z as usize] + need > self.cap_end(z)
    }

    /// Bytes of data in zone `z`.
    pub(crate) fn data(&self, z: u32) -> u64 {
        self.wp[z as usize] - self.start(z)
    }

    /// Empty zone `z` (its write pointer back at its start); true when it held data.
    pub(crate) fn reset(&mut self, z: u32) -> bool {
        let d = self.data(z);
        if d == 0 {
            return false;
        }
        self.with_data -= d;
        self.wp[z as usize] = self.start(z);
        true
    }

    /// Take zone `z` off the open list; true when it was on it.
    pub(crate) fn close(&mut self, z: u32) -> bool {
        if !self.open[z as usize] {
            return false;
        }
        let Some(i) = self.open_list[..self.num_open].iter().position(|&o| o == z) else {
            return false;
        };
        // Entries after it move down; the last entry keeps its value.
        self.open_list.copy_within(i + 1.., i);
        self.num_open -= 1;
        self.open[z as usize] = false;
        true
    }

    /// Put zone `z` on the open list.
    pub(crate) fn push_open(&mut self, z: u32) {
        self.open_list[self.num_open] = z;
        self.num_open += 1;
        self.open[z as usize] = true;
    }

    /// Move zone `z`'s write pointer to the end of a write ending at `end`.
    pub(crate) fn advance(&mut self, z: u32, end: u64) {
        let end = end.min(self.cap_end(z));
        let wp = &mut self.wp[z as usize];
        if *wp <= end {
            self.with_data += end - *wp;
        }
        *wp = end;
    }

    /// Start the countdown of writes to the next forced reset (`zone_reset_frequency`).
    pub(crate) fn reset_write_cnt(&mut self, frequency: f64) {
        self.write_cnt = if frequency > 0.0 {
            (1.0 / frequency).min(u32::MAX as f64) as u32
        } else {
            u32::MAX
        };
    }

    /// Count one write down; true (and the countdown starts again) when it reaches zero.
    pub(crate) fn dec_write_cnt(&mut self, frequency: f64) -> bool {
        self.write_cnt = self.write_cnt.saturating_sub(1);
        if self.write_cnt == 0 {
            self.reset_write_cnt(frequency);
            return true;
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zones_cover_the_target_and_keep_their_data() {
        let mut z = Zones::new(256, 192, 1000, 2);
        assert_eq!(z.wp.len(), 4);
        assert_eq!(z.index(999), 3);
        assert_eq!(z.index(5000), 4);
        assert_eq!(z.cap_end(1), 448);
        z.advance(1, 300);
        z.advance(1, 600);
        assert_eq!(z.wp[1], 448);
        assert_eq!(z.with_data, 192);
        assert!(z.full(1, 1));
        assert!(z.reset(1));
        assert!(!z.reset(1));
        assert_eq!(z.with_data, 0);
    }

    #[test]
    fn closing_keeps_the_stale_tail_of_the_open_list() {
        let mut z = Zones::new(64, 64, 256, 3);
        z.push_open(2);
        z.push_open(0);
        z.push_open(3);
        assert!(z.close(0));
        assert!(!z.close(0));
        assert_eq!(&z.open_list[..3], &[2, 3, 0]);
        assert_eq!(z.num_open, 2);
    }

    #[test]
    fn reset_frequency_counts_down() {
        let mut z = Zones::new(64, 64, 256, 0);
        z.reset_write_cnt(0.5);
        assert!(!z.dec_write_cnt(0.5));
        assert!(z.dec_write_cnt(0.5));
        assert_eq!(z.write_cnt, 2);
        z.reset_write_cnt(0.0);
        assert_eq!(z.write_cnt, u32::MAX);
    }
}
