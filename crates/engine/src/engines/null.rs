//! The null engine: no data moves. With depth 1 every I/O completes in `queue`; with a deeper
//! queue it emulates queue/commit/getevents, so it measures iomark's own per-I/O overhead.
//!
//! With a service time S (`EngineOptions::null_service_ns`) it models a device that serves one
//! I/O at a time: each I/O completes S after the later of its submission and the previous
//! completion, so at queue depth d an I/O waits about d × S and the rate is 1/S, whatever the
//! machine (a deterministic latency for tests of latency searches and for demonstrations).

use super::{Completion, Engine, EngineDecl, EngineFlags, EngineKind, EngineSetup, IoUnit, Queued};
use std::collections::VecDeque;
use std::io;
use std::time::{Duration, Instant};

/// No I/O at all.
pub(crate) const DECL: EngineDecl = EngineDecl {
    kind: EngineKind::Null,
    flags: EngineFlags {
        sync: true,
        opens_file: false,
        diskless: true,
        metadata: false,
        direct: false,
        noio: false,
    },
    options: &[],
    create: |_, setup| Ok(Box::new(NullEngine::new(setup))),
};

pub(crate) struct NullEngine {
    depth: u32,
    /// Slots queued but not yet committed.
    queued: Vec<u32>,
    /// Slots committed, completing at the next getevents (with a service time: at their due
    /// time, in order).
    inflight: Vec<(u32, i64)>,
    pending_len: Vec<i64>,
    /// The modelled device: its service time per I/O, and when its last I/O completes.
    service: Option<Duration>,
    busy_until: Instant,
    due: VecDeque<Instant>,
}

impl NullEngine {
    pub(crate) fn new(setup: &EngineSetup) -> Self {
        let d = setup.depth.max(1) as usize;
        let ns = setup.options.null_service_ns;
        NullEngine {
            depth: setup.depth.max(1),
            queued: Vec::with_capacity(d),
            inflight: Vec::with_capacity(d),
            pending_len: vec![0; d],
            service: (ns > 0).then(|| Duration::from_nanos(ns)),
            busy_until: Instant::now(),
            due: VecDeque::with_capacity(d),
        }
    }

    /// When an I/O submitted now completes on the modelled device.
    fn schedule(&mut self, s: Duration) -> Instant {
        let done = self.busy_until.max(Instant::now()) + s;
        self.busy_until = done;
        done
    }
}

/// Sleep until `t` (at once when it has passed).
fn sleep_until(t: Instant) {
    let now = Instant::now();
    if t > now {
        std::thread::sleep(t - now);
    }
}

impl Engine for NullEngine {
    #[cfg(test)]
    fn name(&self) -> &'static str {
        "null"
    }
    fn is_sync(&self) -> bool {
        self.depth == 1
    }
    #[inline]
    fn queue(&mut self, io: &IoUnit) -> Queued {
        if self.depth == 1 {
            if let Some(s) = self.service {
                sleep_until(self.schedule(s));
            }
            return Queued::Done(io.len as i64);
        }
        self.pending_len[io.slot as usize] = io.len as i64;
        self.queued.push(io.slot);
        Queued::Pending
    }
    fn commit(&mut self) -> io::Result<usize> {
        let n = self.queued.len();
        for i in 0..self.queued.len() {
            let slot = self.queued[i];
            self.inflight.push((slot, self.pending_len[slot as usize]));
            if let Some(s) = self.service {
                let t = self.schedule(s);
                self.due.push_back(t);
            }
        }
        self.queued.clear();
        Ok(n)
    }
    fn getevents(
        &mut self,
        min: usize,
        max: usize,
        out: &mut Vec<Completion>,
    ) -> io::Result<usize> {
        if self.service.is_some() {
            // Completions come in submission order, each at its due time.
            if let Some(&first) = self.due.get(min.min(self.due.len()).saturating_sub(1)) {
                if min > 0 {
                    sleep_until(first);
                }
            }
            let now = Instant::now();
            let ready = self.due.iter().take_while(|&&t| t <= now).count();
            let n = ready.min(max.max(1)).min(self.inflight.len());
            self.due.drain(..n);
            for (slot, result) in self.inflight.drain(..n) {
                out.push(Completion { slot, result });
            }
            return Ok(n);
        }
        let n = self.inflight.len().min(max.max(1));
        for (slot, result) in self.inflight.drain(..n) {
            out.push(Completion { slot, result });
        }
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::{EngineOptions, Op};

    fn engine(depth: u32, service: Duration) -> NullEngine {
        let options = EngineOptions {
            null_service_ns: service.as_nanos() as u64,
            ..Default::default()
        };
        NullEngine::new(&EngineSetup {
            depth,
            files: &[],
            buffers: &[],
            options: &options,
            direct: false,
        })
    }

    fn io(slot: u32) -> IoUnit {
        IoUnit {
            slot,
            file: 0,
            op: Op::Read,
            offset: 0,
            len: 4096,
            buf: std::ptr::null_mut(),
            prio: None,
        }
    }

    /// One I/O at a time: the k-th of a full queue completes no sooner than k service times
    /// after submission, in submission order; at depth 1 each I/O takes one service time.
    #[test]
    fn a_service_time_models_one_io_at_a_time() {
        let s = Duration::from_millis(2);
        let mut e = engine(4, s);
        let t0 = Instant::now();
        for slot in 0..4 {
            assert_eq!(e.queue(&io(slot)), Queued::Pending);
        }
        assert_eq!(e.commit().unwrap(), 4);
        let mut out = Vec::new();
        let mut seen = Vec::new();
        while seen.len() < 4 {
            out.clear();
            e.getevents(1, 4, &mut out).unwrap();
            let at = t0.elapsed();
            for c in &out {
                seen.push(c.slot);
                assert!(
                    at >= s * seen.len() as u32,
                    "slot {} done at {at:?}",
                    c.slot
                );
                assert_eq!(c.result, 4096);
            }
        }
        assert_eq!(seen, [0, 1, 2, 3]);
        // Nothing is due before its time: a non-blocking reap right after a submit is empty.
        assert_eq!(e.queue(&io(0)), Queued::Pending);
        e.commit().unwrap();
        out.clear();
        assert_eq!(e.getevents(0, 4, &mut out).unwrap(), 0);
        assert_eq!(e.getevents(1, 4, &mut out).unwrap(), 1);
        let mut one = engine(1, s);
        let t = Instant::now();
        assert_eq!(one.queue(&io(0)), Queued::Done(4096));
        assert!(t.elapsed() >= s);
    }
}
