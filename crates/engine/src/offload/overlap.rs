//! The byte ranges of the I/Os in flight that must not be overlapped: an I/O entering the set
//! waits until no range in it overlaps its own, and leaves it when it completes. One set is
//! shared by every job of a run that serializes overlapping I/O across submit threads. Ranges
//! are compared by offset and length alone, whatever their file.

use std::sync::{Condvar, Mutex, MutexGuard};

/// The ranges in flight, with a wake-up for the I/Os waiting on one of them.
#[derive(Debug, Default)]
pub(crate) struct InFlight {
    ranges: Mutex<Ranges>,
    freed: Condvar,
}

#[derive(Debug, Default)]
struct Ranges {
    /// `[start, end)` and the key the range leaves with.
    live: Vec<(u64, u64, u64)>,
    next_key: u64,
}

impl Ranges {
    fn overlaps(&self, start: u64, end: u64) -> bool {
        self.live.iter().any(|&(s, e, _)| start < e && s < end)
    }
}

/// A range in the set; it leaves the set when dropped.
#[derive(Debug)]
pub(crate) struct Entered<'a> {
    set: &'a InFlight,
    key: u64,
}

impl InFlight {
    fn lock(&self) -> MutexGuard<'_, Ranges> {
        self.ranges.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Enter `[offset, offset + len)`, first waiting until no range in flight overlaps it.
    pub(crate) fn enter(&self, offset: u64, len: u64) -> Entered<'_> {
        let end = offset.saturating_add(len);
        let mut g = self.lock();
        while g.overlaps(offset, end) {
            g = self.freed.wait(g).unwrap_or_else(|e| e.into_inner());
        }
        let key = g.next_key;
        g.next_key += 1;
        g.live.push((offset, end, key));
        Entered { set: self, key }
    }

    /// How many ranges are in flight.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.lock().live.len()
    }

    /// Whether no range is in flight.
    #[cfg(test)]
    pub(crate) fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl Drop for Entered<'_> {
    fn drop(&mut self) {
        let mut g = self.set.lock();
        if let Some(i) = g.live.iter().position(|&(_, _, k)| k == self.key) {
            g.live.swap_remove(i);
        }
        drop(g);
        self.set.freed.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    use std::time::Duration;

    #[test]
    fn disjoint_ranges_go_together() {
        let set = InFlight::default();
        let a = set.enter(0, 4096);
        let b = set.enter(4096, 4096);
        assert_eq!(set.len(), 2);
        drop(a);
        drop(b);
        assert!(set.is_empty());
    }

    #[test]
    fn an_overlapping_range_waits_for_the_one_in_flight() {
        let set = Arc::new(InFlight::default());
        let first = set.enter(0, 8192);
        let released = Arc::new(AtomicBool::new(false));
        let h = {
            let (set, released) = (set.clone(), released.clone());
            std::thread::spawn(move || {
                let _g = set.enter(4096, 4096);
                // It only got in once the first range had left.
                released.load(Ordering::SeqCst)
            })
        };
        std::thread::sleep(Duration::from_millis(50));
        assert_eq!(
            set.len(),
            1,
            "the overlapping range entered while the first was in flight"
        );
        released.store(true, Ordering::SeqCst);
        drop(first);
        assert!(h.join().unwrap());
        assert!(set.is_empty());
    }

    #[test]
    fn touching_ranges_do_not_overlap() {
        let r = Ranges {
            live: vec![(4096, 8192, 0)],
            next_key: 1,
        };
        assert!(!r.overlaps(0, 4096));
        assert!(!r.overlaps(8192, 12288));
        assert!(r.overlaps(8191, 8192));
        assert!(r.overlaps(0, 4097));
    }
}
