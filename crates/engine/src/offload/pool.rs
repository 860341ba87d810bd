//! The submit pool: one thread per queue slot, each with an engine of its own. The job's thread
//! hands each prepared I/O to the pool (`queue`), any idle thread takes it, waits for overlapping
//! I/O in flight when asked to, runs it to completion (submit and reap), stamps when it was
//! issued and when it completed, and sends it back; the job's thread reaps those (`getevents`)
//! and reads the times from [`SlotTimes`]. To the worker the pool is just another engine.

use super::overlap::InFlight;
use crate::engines::{
    self, Completion, Engine, EngineBuf, EngineError, EngineFile, EngineKind, EngineOptions,
    EngineSetup, IoUnit, Queued,
};
use crate::sys;
use std::io;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// When each slot's last I/O was issued and completed by its submit thread (ns, `sys::now_ns`).
#[derive(Debug)]
pub(crate) struct SlotTimes {
    times: Vec<[AtomicU64; 2]>,
}

impl SlotTimes {
    fn new(slots: usize) -> SlotTimes {
        SlotTimes {
            times: (0..slots).map(|_| Default::default()).collect(),
        }
    }

    /// The issue and completion times of the slot's last I/O.
    #[inline]
    pub(crate) fn get(&self, slot: u32) -> (u64, u64) {
        let t = &self.times[slot as usize];
        (t[0].load(Ordering::Relaxed), t[1].load(Ordering::Relaxed))
    }

    fn set(&self, slot: u32, issue: u64, done: u64) {
        let t = &self.times[slot as usize];
        t[0].store(issue, Ordering::Relaxed);
        t[1].store(done, Ordering::Relaxed);
    }
}

/// One I/O handed to the pool. Its buffer belongs to the job's worker, which does not touch
/// it until the I/O comes back and outlives the pool (the pool joins its threads when dropped).
struct Work(IoUnit);
// SAFETY: the buffer pointer is used by exactly one submit thread while the I/O is in flight;
// the worker keeps the buffer alive and untouched until the completion comes back.
unsafe impl Send for Work {}

/// What a submit thread sends back.
struct Done {
    slot: u32,
    result: i64,
}

/// The job's buffers, handed to each submit thread's engine.
struct Bufs(Vec<EngineBuf>);
// SAFETY: the buffers outlive the pool (see `Work`); an engine only reads the pointers.
unsafe impl Send for Bufs {}

/// What the submit threads' engines are made of.
pub(crate) struct PoolSetup<'a> {
    pub(crate) kind: EngineKind,
    /// Submit threads, and slots of the job's queue.
    pub(crate) threads: u32,
    pub(crate) files: &'a [EngineFile],
    pub(crate) buffers: &'a [EngineBuf],
    pub(crate) options: &'a EngineOptions,
    pub(crate) direct: bool,
    /// Wait for overlapping I/O in flight (in any pool sharing the set) before each I/O.
    pub(crate) overlap: Option<Arc<InFlight>>,
}

/// A pool of submit threads, used by the worker as its engine.
pub(crate) struct OffloadPool {
    work: Option<Sender<Work>>,
    done: Receiver<Done>,
    threads: Vec<JoinHandle<()>>,
    times: Arc<SlotTimes>,
    #[cfg(test)]
    name: &'static str,
}

impl OffloadPool {
    /// Start the threads, each creating its engine; fails with the first engine's error.
    pub(crate) fn start(s: PoolSetup<'_>) -> Result<OffloadPool, EngineError> {
        let n = s.threads.max(1);
        let (work_tx, work_rx) = mpsc::channel::<Work>();
        let work_rx = Arc::new(Mutex::new(work_rx));
        let (done_tx, done_rx) = mpsc::channel::<Done>();
        let (ready_tx, ready_rx) = mpsc::channel::<Result<(), EngineError>>();
        let times = Arc::new(SlotTimes::new(n as usize));
        let mut pool = OffloadPool {
            work: Some(work_tx),
            done: done_rx,
            threads: Vec::with_capacity(n as usize),
            times: times.clone(),
            #[cfg(test)]
            name: s.kind.name(),
        };
        for _ in 0..n {
            let files = s.files.to_vec();
            let bufs = Bufs(s.buffers.to_vec());
            let options = s.options.clone();
            let (kind, direct) = (s.kind, s.direct);
            let (work_rx, done_tx, ready_tx) = (work_rx.clone(), done_tx.clone(), ready_tx.clone());
            let (overlap, times) = (s.overlap.clone(), times.clone());
            let spawned = std::thread::Builder::new()
                .name("iomark-submit".into())
                .spawn(move || {
                    let bufs = bufs;
                    let setup = EngineSetup {
                        depth: n,
                        files: &files,
                        buffers: &bufs.0,
                        options: &options,
                        direct,
                    };
                    match engines::create(kind, &setup) {
                        Ok(engine) => {
                            let _ = ready_tx.send(Ok(()));
                            drop(ready_tx);
                            let t = SubmitThread {
                                engine,
                                work: work_rx,
                                done: done_tx,
                                overlap,
                                times,
                            };
                            t.run();
                        }
                        Err(e) => {
                            let _ = ready_tx.send(Err(e));
                        }
                    }
                });
            match spawned {
                Ok(h) => pool.threads.push(h),
                Err(e) => return Err(EngineError::Io(e)),
            }
        }
        drop(ready_tx);
        for _ in 0..n {
            match ready_rx.recv() {
                Ok(Ok(())) => {}
                Ok(Err(e)) => return Err(e),
                Err(_) => return Err(EngineError::Io(io::Error::from_raw_os_error(libc::EIO))),
            }
        }
        Ok(pool)
    }

    /// Where the submit threads stamp each slot's issue and completion times.
    pub(crate) fn times(&self) -> Arc<SlotTimes> {
        self.times.clone()
    }

    /// How many submit threads run.
    #[cfg(test)]
    pub(crate) fn threads(&self) -> usize {
        self.threads.len()
    }

    fn push(&self, d: Done, out: &mut Vec<Completion>) {
        out.push(Completion {
            slot: d.slot,
            result: d.result,
        });
    }
}

impl Engine for OffloadPool {
    #[cfg(test)]
    fn name(&self) -> &'static str {
        self.name
    }
    fn is_sync(&self) -> bool {
        false
    }
    fn queue(&mut self, io: &IoUnit) -> Queued {
        match &self.work {
            Some(tx) if tx.send(Work(*io)).is_ok() => Queued::Pending,
            _ => Queued::Done(-(libc::EIO as i64)),
        }
    }
    fn getevents(
        &mut self,
        min: usize,
        max: usize,
        out: &mut Vec<Completion>,
    ) -> io::Result<usize> {
        let max = max.max(min).max(1);
        let mut got = 0;
        while got < min {
            match self.done.recv() {
                Ok(d) => self.push(d, out),
                Err(_) => return Err(io::Error::from_raw_os_error(libc::EIO)),
            }
            got += 1;
        }
        while got < max {
            match self.done.try_recv() {
                Ok(d) => self.push(d, out),
                Err(_) => break,
            }
            got += 1;
        }
        Ok(got)
    }
}

impl Drop for OffloadPool {
    fn drop(&mut self) {
        // The threads finish what was handed to them, then see the queue closed.
        self.work = None;
        for h in self.threads.drain(..) {
            let _ = h.join();
        }
    }
}

/// One submit thread: takes the next I/O, runs it, sends it back.
struct SubmitThread {
    engine: Box<dyn Engine>,
    work: Arc<Mutex<Receiver<Work>>>,
    done: Sender<Done>,
    overlap: Option<Arc<InFlight>>,
    times: Arc<SlotTimes>,
}

impl SubmitThread {
    fn run(mut self) {
        let mut comps = Vec::with_capacity(1);
        loop {
            let next = {
                let rx = self.work.lock().unwrap_or_else(|e| e.into_inner());
                rx.recv()
            };
            let Ok(Work(io)) = next else { break };
            let overlap = self.overlap.clone();
            let entered = overlap.as_ref().map(|o| o.enter(io.offset, io.len as u64));
            let issue = sys::now_ns();
            let result = self.run_one(&io, &mut comps);
            let done = sys::now_ns();
            drop(entered);
            self.times.set(io.slot, issue, done);
            if self
                .done
                .send(Done {
                    slot: io.slot,
                    result,
                })
                .is_err()
            {
                break;
            }
        }
    }

    /// Run one I/O to completion: its result (bytes, or -errno).
    fn run_one(&mut self, io: &IoUnit, comps: &mut Vec<Completion>) -> i64 {
        match self.engine.queue(io) {
            Queued::Done(r) => r,
            Queued::Pending => {
                if let Err(e) = self.engine.commit() {
                    return -(e.raw_os_error().unwrap_or(libc::EIO) as i64);
                }
                comps.clear();
                match self.engine.getevents(1, 1, comps) {
                    Ok(_) => comps.first().map_or(-(libc::EIO as i64), |c| c.result),
                    Err(e) => -(e.raw_os_error().unwrap_or(libc::EIO) as i64),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::Op;

    fn pool(kind: EngineKind, threads: u32, overlap: Option<Arc<InFlight>>) -> OffloadPool {
        let mut mem = vec![0u8; 4096 * threads as usize];
        let bufs: Vec<EngineBuf> = mem
            .chunks_mut(4096)
            .map(|c| EngineBuf {
                ptr: c.as_mut_ptr(),
                len: 4096,
            })
            .collect();
        std::mem::forget(mem);
        OffloadPool::start(PoolSetup {
            kind,
            threads,
            files: &[EngineFile {
                fd: -1,
                path: "null".into(),
                size: 1 << 20,
                is_block: false,
            }],
            buffers: &bufs,
            options: &EngineOptions::default(),
            direct: false,
            overlap,
        })
        .unwrap()
    }

    fn io(slot: u32, offset: u64) -> IoUnit {
        IoUnit {
            slot,
            file: 0,
            op: Op::Read,
            offset,
            len: 4096,
            buf: std::ptr::null_mut(),
            prio: None,
        }
    }

    #[test]
    fn every_io_comes_back_once_from_the_submit_threads() {
        let mut p = pool(EngineKind::Null, 4, None);
        assert_eq!(p.threads(), 4);
        let mut seen = [0u32; 4];
        let mut out = Vec::new();
        for round in 0..100u64 {
            for slot in 0..4 {
                assert_eq!(p.queue(&io(slot, round * 4096)), Queued::Pending);
            }
            out.clear();
            assert_eq!(p.getevents(4, 4, &mut out).unwrap(), 4);
            for c in &out {
                assert_eq!(c.result, 4096);
                seen[c.slot as usize] += 1;
                let (issue, done) = p.times().get(c.slot);
                assert!(issue > 0 && done >= issue);
            }
        }
        assert_eq!(seen, [100; 4]);
    }

    #[test]
    fn overlapping_ios_run_one_after_another() {
        let set = Arc::new(InFlight::default());
        let mut p = pool(EngineKind::Null, 8, Some(set.clone()));
        for slot in 0..8 {
            p.queue(&io(slot, 0));
        }
        let mut out = Vec::new();
        let mut got = 0;
        while got < 8 {
            got += p.getevents(1, 8, &mut out).unwrap();
        }
        assert!(set.is_empty());
        let mut spans: Vec<(u64, u64)> = (0..8).map(|s| p.times().get(s)).collect();
        spans.sort();
        for w in spans.windows(2) {
            assert!(
                w[1].0 >= w[0].1,
                "two I/Os of one range in flight together: {w:?}"
            );
        }
    }
}
