//! fio's bw/iops/lat logs (`write_bw_log`, `write_iops_log`, `write_lat_log`), found beside the
//! fio JSON they belong to: lines `time_ms, value, ddir, bs[, offset][, prio]`. Windowed logs
//! (`log_avg_msec=N`) are read as they are; per-I/O logs (`log_avg_msec=0`, bs non-zero) are
//! put in [`super::resample::PER_IO_WINDOW_MS`] windows: bandwidth from the bytes moved, IOPS from the count,
//! latency as the mean. The logs of a job's clones add (bandwidth, IOPS) or average (latency).

use super::log_line::{self, Entry};
use super::resample::{resample, Combine, PerIoWindows, Sample};
use crate::model::DirSeries;
use std::io::BufRead;
use std::path::{Path, PathBuf};

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum LogKind {
    Bw,
    Iops,
    Lat,
}

impl LogKind {
    /// A sample's amount: for a per-I/O log the I/O's amount (1 for IOPS, its KiB for
    /// bandwidth, its latency), for a windowed log the logged value.
    fn amount(self, e: &Entry, per_io: bool) -> f64 {
        match (per_io, self) {
            (true, LogKind::Bw) => e.bs as f64 / 1024.0,
            (true, LogKind::Iops) => 1.0,
            _ => e.value,
        }
    }
}

/// The logs of one kind of a job (one per clone), read line by line: per-I/O samples go
/// straight into their windows (a 1 M-I/O log is never held), windowed ones are kept per file.
struct Logs {
    kind: LogKind,
    /// A file was a per-I/O log.
    per_io: bool,
    /// Per direction (0 read, 1 write, 2 trim).
    windows: [PerIoWindows; 3],
    windowed: [Vec<Vec<Sample>>; 3],
}

impl Logs {
    fn new(kind: LogKind) -> Self {
        Logs {
            kind,
            per_io: false,
            windows: Default::default(),
            windowed: Default::default(),
        }
    }

    /// Read one log; a file that cannot be read adds nothing, one that fails midway what was
    /// read. A log is per-I/O when a line has a block size; the lines before it are held until
    /// then.
    fn read(&mut self, path: &Path) {
        let Ok(f) = std::fs::File::open(path) else {
            return;
        };
        let mut r = std::io::BufReader::with_capacity(1 << 20, f);
        let mut line = Vec::with_capacity(128);
        let mut held: Vec<Entry> = Vec::new();
        let mut per_io = false;
        loop {
            line.clear();
            match r.read_until(b'\n', &mut line) {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
            let Some(e) = log_line::parse(line.strip_suffix(b"\n").unwrap_or(&line)) else {
                continue;
            };
            if !per_io && e.bs != 0 {
                per_io = true;
                for h in std::mem::take(&mut held) {
                    self.add_io(&h);
                }
            }
            if per_io {
                self.add_io(&e);
            } else if e.ddir < 3 {
                held.push(e);
            }
        }
        if per_io {
            self.per_io = true;
            return;
        }
        let mut by_dir: [Vec<Sample>; 3] = Default::default();
        for e in &held {
            by_dir[e.ddir as usize].push((e.t_ms, self.kind.amount(e, false)));
        }
        for (d, v) in by_dir.into_iter().enumerate() {
            self.windowed[d].push(v);
        }
    }

    fn add_io(&mut self, e: &Entry) {
        if let Some(w) = self.windows.get_mut(e.ddir as usize) {
            w.add(e.t_ms, self.kind.amount(e, true));
        }
    }

    /// Per direction, the series of every file read (clones add, latency averages).
    fn series(self) -> [Vec<(f64, f64)>; 3] {
        let how = match self.kind {
            LogKind::Lat => Combine::Mean,
            _ => Combine::Add,
        };
        let per_io = self.per_io;
        let mut windows = self.windows;
        let mut out: [Vec<(f64, f64)>; 3] = Default::default();
        for (d, srcs) in self.windowed.into_iter().enumerate() {
            out[d] = if per_io {
                // A windowed log beside per-I/O ones: its values count as amounts.
                let mut w = std::mem::take(&mut windows[d]);
                for &(t, v) in srcs.iter().flatten() {
                    w.add(t, v);
                }
                w.series(how)
            } else {
                resample(&srcs, false, how)
            };
        }
        out
    }
}

/// The log files of a job: `<prefix>_<kind>.<n>.log` (per job) or `<prefix>_<kind>.log`.
pub fn files(dir: &Path, prefix: &str, kind: &str) -> Vec<PathBuf> {
    let mut v = Vec::new();
    let single = dir.join(format!("{prefix}_{kind}.log"));
    if single.is_file() {
        v.push(single);
    }
    for n in 1..=1024 {
        let p = dir.join(format!("{prefix}_{kind}.{n}.log"));
        if !p.is_file() {
            if n > 64 {
                break;
            }
            continue;
        }
        v.push(p);
    }
    v
}

/// Series of every direction from a set of logs of one kind (clones add, latency averages).
fn series_of(paths: &[PathBuf], kind: LogKind) -> [Vec<(f64, f64)>; 3] {
    let mut logs = Logs::new(kind);
    for p in paths {
        logs.read(p);
    }
    logs.series()
}

/// The interval series of a fio job from its logs beside `dir`, per direction.
pub fn job_series(
    dir: &Path,
    bw_prefix: Option<&str>,
    iops_prefix: Option<&str>,
    lat_prefix: Option<&str>,
) -> [DirSeries; 3] {
    // The three kinds read side by side: each log of a 1 M-I/O job is tens of MB.
    let read = |prefix: Option<&str>, name: &str, kind: LogKind| {
        prefix.map(|p| series_of(&files(dir, p, name), kind))
    };
    let (bw, iops, lat) = std::thread::scope(|s| {
        let bw = s.spawn(|| read(bw_prefix, "bw", LogKind::Bw));
        let iops = s.spawn(|| read(iops_prefix, "iops", LogKind::Iops));
        let lat = read(lat_prefix, "clat", LogKind::Lat);
        (join(bw), join(iops), lat)
    });
    let mut out: [DirSeries; 3] = Default::default();
    for (d, o) in out.iter_mut().enumerate() {
        if let Some(s) = &bw {
            o.bw_kib.clone_from(&s[d]);
        }
        if let Some(s) = &iops {
            o.iops.clone_from(&s[d]);
        }
        if let Some(s) = &lat {
            o.lat_ns.clone_from(&s[d]);
        }
    }
    out
}

/// A reading thread's series (a panic in it is passed on).
fn join<T>(h: std::thread::ScopedJoinHandle<'_, T>) -> T {
    h.join().unwrap_or_else(|p| std::panic::resume_unwind(p))
}

#[cfg(test)]
mod tests {
    use super::super::resample::time_weighted_mean;
    use super::*;

    #[test]
    fn windowed_logs_are_read_as_they_are() {
        let dir = std::env::temp_dir().join(format!("iomark-fio-wlog-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("w_bw.1.log"),
            "500, 240312, 0, 0, 0\n1000, 200000, 0, 0, 0\ngarbage\n\n500, 1000, 1, 0, 0\n",
        )
        .unwrap();
        std::fs::write(dir.join("g_bw.log"), "garbage\n\n").unwrap();
        let s = job_series(&dir, Some("w"), None, None);
        let g = job_series(&dir, Some("g"), None, None);
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(s[0].bw_kib, vec![(0.5, 240312.0), (1.0, 200000.0)]);
        assert_eq!(s[1].bw_kib, vec![(0.5, 1000.0)]);
        assert!(s[0].iops.is_empty() && s[2].bw_kib.is_empty());
        assert!(g.iter().all(|d| d.bw_kib.is_empty()));
    }

    /// A per-I/O log read line by line gives the series of its samples put in windows.
    #[test]
    fn per_io_logs_stream_into_the_windows_of_their_samples() {
        let dir = std::env::temp_dir().join(format!("iomark-fio-plog-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut text = String::new();
        let mut samples: Vec<Sample> = Vec::new();
        for k in 0..10_000u64 {
            let (t, lat) = (k * 1234 / 10_000, 1000 + k % 77);
            text.push_str(&format!("{t}, {lat}, 1, 4096, 0\n"));
            samples.push((t, lat as f64));
        }
        std::fs::write(dir.join("p_clat.1.log"), &text).unwrap();
        let s = job_series(&dir, None, None, Some("p"));
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(s[1].lat_ns, resample(&[samples], true, Combine::Mean));
        assert_eq!(s[1].lat_ns.len(), 3);
    }

    /// fio's per-I/O logs of a 25,000 IOPS job (4 KiB writes for 3 s, as fio 3.33 writes them
    /// with `--write_iops_log --write_bw_log --log_avg_msec=0`) read as 25,000 IOPS and
    /// ~97.7 MiB/s, the same as the windowed logs of the same job.
    #[test]
    fn per_io_logs_read_as_the_jobs_rate() {
        let dir = std::env::temp_dir().join(format!("iomark-fio-log-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut io = String::new();
        for k in 0..75_000u64 {
            io.push_str(&format!("{}, 1, 1, 4096, 0\n", k * 3000 / 75_000));
        }
        std::fs::write(dir.join("j_iops.1.log"), &io).unwrap();
        std::fs::write(dir.join("j_bw.1.log"), &io).unwrap();
        let mut win = String::new();
        for (t, v) in [
            (503, 24833),
            (1004, 25224),
            (1504, 24776),
            (2004, 23322),
            (2505, 26878),
        ] {
            win.push_str(&format!("{t}, {v}, 1, 0, 0\n"));
        }
        std::fs::write(dir.join("w_iops.1.log"), &win).unwrap();
        let s = job_series(&dir, Some("j"), Some("j"), None);
        let w = job_series(&dir, None, Some("w"), None);
        std::fs::remove_dir_all(&dir).unwrap();
        let iops = time_weighted_mean(&s[1].iops);
        let bw = time_weighted_mean(&s[1].bw_kib);
        assert!(
            (iops - 25_000.0).abs() < 250.0,
            "{iops} IOPS: {:?}",
            s[1].iops
        );
        assert!((bw - 100_000.0).abs() < 1_000.0, "{bw} KiB/s");
        let wi = time_weighted_mean(&w[1].iops);
        assert!(
            (iops - wi).abs() < 0.02 * wi,
            "per-I/O {iops} against windowed {wi}"
        );
        for (a, b) in s[1].iops.iter().zip(&w[1].iops) {
            assert!((a.1 - b.1).abs() < 0.1 * b.1, "{a:?} against {b:?}");
        }
    }
}
