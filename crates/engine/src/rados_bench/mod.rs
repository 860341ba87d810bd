//! `rados bench` through librados: `write` fills new objects for a number of seconds with
//! `threads` writes in flight, `seq` reads back the objects a write run left in order, `rand`
//! reads them at random, `cleanup` removes them. A tick each second gives the progress line's
//! figures; the result has every latency for the summary. The front end words both.

pub mod objects;

use crate::rng::Rng;
use iomark_ceph::{Aio, AioTarget, CephError, Cluster, ConnectOptions, Pool};
use objects::{content_ok, fill_content, metadata_object, object_name, prefix, Metadata};
use std::ffi::CString;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Which run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Write,
    Seq,
    Rand,
}

/// What to run.
#[derive(Clone, Debug)]
pub struct BenchSpec {
    pub connect: ConnectOptions,
    pub pool: String,
    pub mode: Mode,
    pub seconds: u64,
    /// Bytes per write (and object size); reads use the size the write run left.
    pub op_size: u64,
    pub threads: u32,
    pub run_name: Option<String>,
    pub no_cleanup: bool,
}

/// One second's figures.
#[derive(Clone, Copy, Debug, Default)]
pub struct Tick {
    pub sec: u64,
    pub in_flight: u64,
    pub started: u64,
    pub finished: u64,
    /// Seconds since the start.
    pub elapsed: f64,
    pub last_lat: Option<f64>,
    pub avg_lat: f64,
    pub op_size: u64,
}

/// What a run did.
#[derive(Clone, Debug, Default)]
pub struct BenchResult {
    pub elapsed: f64,
    pub ops: u64,
    pub op_size: u64,
    pub object_size: u64,
    /// Latencies in seconds, in completion order.
    pub lats: Vec<f64>,
    /// Operations finished in each whole second.
    pub per_sec: Vec<u64>,
    /// The data objects' prefix.
    pub prefix: String,
    /// Objects read whose content was not what the write run wrote.
    pub bad: u64,
    /// Objects removed after a write run (None: kept).
    pub removed: Option<(u64, f64)>,
}

fn ceph(e: CephError) -> String {
    e.to_string()
}

/// Connects and opens the pool.
pub fn open(connect: &ConnectOptions, pool: &str) -> Result<Arc<Pool>, String> {
    let c = Arc::new(Cluster::connect(connect).map_err(ceph)?);
    Ok(Arc::new(Pool::open(c, pool).map_err(ceph)?))
}

/// The metadata a write run left in `pool`.
pub fn read_metadata(pool: &Pool, run_name: Option<&str>) -> Result<Metadata, String> {
    let name = metadata_object(run_name);
    let mut b = [0u8; 64];
    let n = pool.read(&name, &mut b, 0).map_err(|e| {
        format!(
            "no benchmark data to read ({e}): a write run that keeps its objects must come first"
        )
    })?;
    Metadata::decode(&b[..n]).ok_or_else(|| format!("object {name} is not benchmark metadata"))
}

/// Runs `spec`, calling `tick` each second; `stop` ends it early.
pub fn run(
    spec: &BenchSpec,
    pool: &Arc<Pool>,
    mut tick: impl FnMut(&Tick),
    stop: &AtomicBool,
) -> Result<BenchResult, String> {
    let pid = std::process::id() as i32;
    let (meta, pfx) = match spec.mode {
        Mode::Write => {
            let m = Metadata {
                object_size: spec.op_size,
                objects: 0,
                pid,
                op_size: spec.op_size,
            };
            (m, prefix(pid))
        }
        _ => {
            let m = read_metadata(pool, spec.run_name.as_deref())?;
            (m, prefix(m.pid))
        }
    };
    let size = if spec.mode == Mode::Write {
        spec.op_size
    } else {
        meta.object_size
    };
    let depth = spec.threads.max(1);
    let mut bufs: Vec<Vec<u8>> = (0..depth).map(|_| vec![b'z'; size as usize]).collect();
    let mut l = Loop::new(spec, pool, depth, size, meta.objects as u64, pfx.clone());
    l.go(&mut bufs, &mut tick, stop)?;
    let mut res = l.result(size);
    res.prefix = pfx;
    if spec.mode == Mode::Write {
        let m = Metadata {
            objects: res.ops as u32,
            ..meta
        };
        let name = metadata_object(spec.run_name.as_deref());
        pool.write_full(&name, &m.encode()).map_err(ceph)?;
        if !spec.no_cleanup {
            let t0 = Instant::now();
            let n = cleanup(pool, spec.run_name.as_deref())?;
            res.removed = Some((n, t0.elapsed().as_secs_f64()));
        }
    }
    Ok(res)
}

/// Removes the objects of the last write run (or the named one) and its metadata; returns how
/// many data objects were removed.
pub fn cleanup(pool: &Pool, run_name: Option<&str>) -> Result<u64, String> {
    let m = read_metadata(pool, run_name)?;
    let pfx = prefix(m.pid);
    let mut n = 0;
    for i in 0..m.objects as u64 {
        if pool.remove(&object_name(&pfx, i)).is_ok() {
            n += 1;
        }
    }
    pool.remove(&metadata_object(run_name)).map_err(ceph)?;
    Ok(n)
}

/// The submission loop.
struct Loop<'a> {
    spec: &'a BenchSpec,
    aio: Aio,
    size: u64,
    objects: u64,
    prefix: String,
    submitted_at: Vec<Instant>,
    /// The object each slot's request is on.
    object_of: Vec<u64>,
    /// Reads whose data was not what the write run wrote.
    pub(crate) bad: u64,
    free: Vec<u32>,
    started: u64,
    finished: u64,
    lats: Vec<f64>,
    per_sec: Vec<u64>,
    t0: Instant,
    elapsed: f64,
    rng: Rng,
}

impl<'a> Loop<'a> {
    fn new(
        spec: &'a BenchSpec,
        pool: &Arc<Pool>,
        depth: u32,
        size: u64,
        objects: u64,
        prefix: String,
    ) -> Loop<'a> {
        Loop {
            spec,
            aio: Aio::new(AioTarget::Pool(pool.clone()), depth, false),
            size,
            objects,
            prefix,
            submitted_at: vec![Instant::now(); depth as usize],
            object_of: vec![0; depth as usize],
            bad: 0,
            free: (0..depth).rev().collect(),
            started: 0,
            finished: 0,
            lats: Vec::new(),
            per_sec: Vec::new(),
            t0: Instant::now(),
            elapsed: 0.0,
            rng: Rng::new(std::process::id() as u64 ^ 0x5eed),
        }
    }

    /// The next object, or None when a read run has read them all (seq).
    fn next_object(&mut self) -> Option<u64> {
        match self.spec.mode {
            Mode::Write => Some(self.started),
            Mode::Seq => (self.started < self.objects).then_some(self.started),
            Mode::Rand => (self.objects > 0).then(|| self.rng.next_u64() % self.objects),
        }
    }

    fn submit(&mut self, slot: u32, n: u64, buf: &mut [u8]) -> Result<(), String> {
        let oid = CString::new(object_name(&self.prefix, n)).map_err(|e| e.to_string())?;
        if self.spec.mode == Mode::Write {
            fill_content(buf, n);
        }
        self.object_of[slot as usize] = n;
        self.submitted_at[slot as usize] = Instant::now();
        // SAFETY: buf (the slot's) is not touched until the slot's completion is reaped.
        let r = unsafe {
            match self.spec.mode {
                Mode::Write => self
                    .aio
                    .object_write(slot, &oid, 0, buf.as_ptr(), buf.len(), true),
                _ => self
                    .aio
                    .object_read(slot, &oid, 0, buf.as_mut_ptr(), buf.len()),
            }
        };
        r.map_err(ceph)?;
        self.started += 1;
        Ok(())
    }

    fn go(
        &mut self,
        bufs: &mut [Vec<u8>],
        tick: &mut impl FnMut(&Tick),
        stop: &AtomicBool,
    ) -> Result<(), String> {
        let limit = Duration::from_secs(self.spec.seconds);
        let mut next_tick = 0u64;
        let mut done = Vec::new();
        let mut last_lat = None;
        let mut last_finished = 0;
        self.t0 = Instant::now();
        loop {
            let now = self.t0.elapsed();
            while now >= Duration::from_secs(next_tick) {
                if next_tick > 0 {
                    self.per_sec.push(self.finished - last_finished);
                    last_finished = self.finished;
                }
                tick(&self.tick(next_tick, last_lat));
                next_tick += 1;
            }
            let ending = now >= limit || stop.load(Ordering::Relaxed);
            while !ending && !self.free.is_empty() {
                let Some(n) = self.next_object() else { break };
                let slot = self.free.pop().expect("a free slot");
                self.submit(slot, n, &mut bufs[slot as usize])?;
            }
            if self.aio.in_flight() == 0 {
                break;
            }
            done.clear();
            self.aio.reap(1, usize::MAX, &mut done);
            for &(slot, r) in &done {
                if r < 0 {
                    return Err(format!(
                        "a benchmark {} failed: {}",
                        if self.spec.mode == Mode::Write {
                            "write"
                        } else {
                            "read"
                        },
                        std::io::Error::from_raw_os_error((-r) as i32)
                    ));
                }
                let lat = self.submitted_at[slot as usize].elapsed().as_secs_f64();
                if self.spec.mode != Mode::Write
                    && !content_ok(
                        &bufs[slot as usize][..r as usize],
                        self.object_of[slot as usize],
                    )
                {
                    self.bad += 1;
                }
                self.lats.push(lat);
                last_lat = Some(lat);
                self.finished += 1;
                self.free.push(slot);
            }
        }
        self.elapsed = self.t0.elapsed().as_secs_f64();
        Ok(())
    }

    fn tick(&self, sec: u64, last_lat: Option<f64>) -> Tick {
        let avg_lat = if self.lats.is_empty() {
            0.0
        } else {
            self.lats.iter().sum::<f64>() / self.lats.len() as f64
        };
        Tick {
            sec,
            in_flight: self.started - self.finished,
            started: self.started,
            finished: self.finished,
            elapsed: self.t0.elapsed().as_secs_f64(),
            last_lat,
            avg_lat,
            op_size: self.size,
        }
    }

    fn result(self, size: u64) -> BenchResult {
        BenchResult {
            bad: self.bad,
            elapsed: self.elapsed,
            ops: self.finished,
            op_size: size,
            object_size: size,
            lats: self.lats,
            per_sec: self.per_sec,
            prefix: String::new(),
            removed: None,
        }
    }
}
