//! Strided zones: where the zone of the next I/O lies, and when the offset generators start
//! over within it.

use crate::job::StridedZones;

/// The walk of one file's I/O over strided zones. The offset generators run over
/// `[start, start + range)`; the walk moves their offsets into the current zone.
#[derive(Clone, Debug)]
pub(super) struct ZoneWalk {
    zones: StridedZones,
    start: u64,
    /// End of the file: a zone starting there or beyond wraps to the region start, and no I/O
    /// goes past it.
    file_end: u64,
    /// Offset of the current zone from the region start.
    shift: u64,
    /// Bytes of I/O done in the current zone.
    bytes: u64,
}

impl ZoneWalk {
    pub(super) fn new(zones: StridedZones, start: u64) -> ZoneWalk {
        ZoneWalk {
            zones,
            start,
            file_end: start.saturating_add(zones.range),
            shift: 0,
            bytes: 0,
        }
    }

    pub(super) fn set_file_end(&mut self, end: u64) {
        self.file_end = end;
    }

    /// Before each I/O: move to the next zone once this one had its bytes; true when the
    /// offset generators must start over (a new zone, or another `range` bytes of I/O in this
    /// one: the random map covers the zone once per `range` bytes).
    #[inline]
    pub(super) fn before_io(&mut self) -> bool {
        if self.bytes >= self.zones.size {
            self.bytes = 0;
            self.shift = self
                .shift
                .saturating_add(self.zones.range)
                .saturating_add(self.zones.skip);
            if self.start.saturating_add(self.shift) >= self.file_end {
                self.shift = 0;
            }
        }
        self.bytes % self.zones.range.max(1) == 0
    }

    /// The generators' offset `off` (within the first zone) moved into the current zone, for
    /// an I/O of `len` bytes; None when the I/O would pass the end of the file.
    #[inline]
    pub(super) fn place(&mut self, off: u64, len: u64) -> Option<u64> {
        let o = off.checked_add(self.shift)?;
        if o.checked_add(len)? > self.file_end {
            return None;
        }
        self.bytes += len;
        Some(o)
    }

    /// Start a new pass at the first zone.
    pub(super) fn reset(&mut self) {
        self.shift = 0;
        self.bytes = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn walk(size: u64, range: u64, skip: u64, start: u64, end: u64) -> ZoneWalk {
        let mut w = ZoneWalk::new(StridedZones { size, range, skip }, start);
        w.set_file_end(end);
        w
    }

    #[test]
    fn zones_advance_by_range_and_skip_and_wrap() {
        // 4 KiB zones 12 KiB apart (8 KiB skipped) from 4 KiB in a 40 KiB file, 2 I/Os a zone.
        let mut w = walk(8192, 4096, 8192, 4096, 40960);
        let mut starts = Vec::new();
        for _ in 0..8 {
            let restart = w.before_io();
            let o = w.place(4096, 4096).unwrap();
            starts.push((o, restart));
        }
        let expect = [
            (4096, true),
            (4096, true),
            (16384, true),
            (16384, true),
            (28672, true),
            (28672, true),
            (4096, true),
            (4096, true),
        ];
        assert_eq!(starts, expect);
    }

    #[test]
    fn map_restarts_every_range_bytes_within_a_bigger_zone() {
        let mut w = walk(4 * 4096, 2 * 4096, 0, 0, 1 << 20);
        let r: Vec<bool> = (0..6)
            .map(|_| {
                let r = w.before_io();
                w.place(0, 4096).unwrap();
                r
            })
            .collect();
        assert_eq!(r, [true, false, true, false, true, false]);
        // The fifth I/O was in the second zone.
        let mut w = walk(4096, 4096, 0, 0, 8192);
        w.before_io();
        assert_eq!(w.place(0, 4096), Some(0));
        w.before_io();
        assert_eq!(w.place(0, 4096), Some(4096));
        w.before_io();
        assert_eq!(w.place(0, 4096), Some(0));
        // An I/O past the end of the file ends the pass.
        let mut w = walk(4096, 4096, 0, 0, 6144);
        w.before_io();
        assert_eq!(w.place(4096, 4096), None);
        w.reset();
        assert!(w.before_io());
    }
}
