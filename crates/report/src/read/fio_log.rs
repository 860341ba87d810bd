//! fio's bw/iops/lat logs (`write_bw_log`, `write_iops_log`, `write_lat_log`), found beside the
//! fio JSON they belong to: lines `time_ms, value, ddir, bs[, offset][, prio]`. Windowed logs
//! (`log_avg_msec=N`) are read as they are; per-I/O logs (`log_avg_msec=0`, bs non-zero) are
//! averaged over [`WINDOW_MS`] windows: bandwidth from the bytes moved, IOPS from the count,
//! latency as the mean. The logs of a job's clones add (bandwidth, IOPS) or average (latency).

use crate::model::DirSeries;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Window for per-I/O logs.
pub const WINDOW_MS: u64 = 500;

/// One parsed line.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Entry {
    pub t_ms: u64,
    pub value: f64,
    pub ddir: u8,
    pub bs: u64,
}

/// Parse a log's text; lines that are not log lines are skipped.
pub fn parse(text: &str) -> Vec<Entry> {
    text.lines()
        .filter_map(|l| {
            let mut f = l.split(',').map(str::trim);
            Some(Entry {
                t_ms: f.next()?.parse().ok()?,
                value: f.next()?.parse().ok()?,
                ddir: f.next()?.parse().ok()?,
                bs: f.next().and_then(|b| b.parse().ok()).unwrap_or(0),
            })
        })
        .collect()
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum LogKind {
    Bw,
    Iops,
    Lat,
}

/// Per direction (0 read, 1 write, 2 trim): (s, value) points of one log.
fn points(entries: &[Entry], kind: LogKind) -> [BTreeMap<u64, (f64, u32)>; 3] {
    let mut out: [BTreeMap<u64, (f64, u32)>; 3] = Default::default();
    let per_io = entries.iter().any(|e| e.bs != 0);
    for e in entries.iter().filter(|e| e.ddir < 3) {
        let m = &mut out[e.ddir as usize];
        if per_io {
            let w = e.t_ms / WINDOW_MS;
            let a = m.entry(w).or_default();
            match kind {
                // KiB/s over the window from the bytes moved.
                LogKind::Bw => a.0 += e.bs as f64 / 1024.0 / (WINDOW_MS as f64 / 1000.0),
                LogKind::Iops => a.0 += 1000.0 / WINDOW_MS as f64,
                LogKind::Lat => a.0 += e.value,
            }
            a.1 += 1;
        } else {
            let a = m.entry(e.t_ms).or_default();
            a.0 += e.value;
            a.1 += 1;
        }
    }
    if per_io {
        // Window keys to their end time in ms.
        for m in out.iter_mut() {
            *m = std::mem::take(m)
                .into_iter()
                .map(|(w, v)| ((w + 1) * WINDOW_MS, v))
                .collect();
        }
    }
    out
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
    let mut acc: [BTreeMap<u64, (f64, u32)>; 3] = Default::default();
    for p in paths {
        let Ok(text) = std::fs::read_to_string(p) else {
            continue;
        };
        let pts = points(&parse(&text), kind);
        for d in 0..3 {
            for (t, (v, n)) in &pts[d] {
                // Match clones' windows at 100 ms resolution.
                let a = acc[d].entry((t + 50) / 100 * 100).or_default();
                match kind {
                    LogKind::Lat => {
                        a.0 += v;
                        a.1 += n;
                    }
                    _ => {
                        a.0 += v / *n as f64;
                        a.1 = 1;
                    }
                }
            }
        }
    }
    acc.map(|m| {
        m.into_iter()
            .map(|(t, (v, n))| (t as f64 / 1000.0, v / n.max(1) as f64))
            .collect()
    })
}

/// The interval series of a fio job from its logs beside `dir`, per direction.
pub fn job_series(
    dir: &Path,
    bw_prefix: Option<&str>,
    iops_prefix: Option<&str>,
    lat_prefix: Option<&str>,
) -> [DirSeries; 3] {
    let mut out: [DirSeries; 3] = Default::default();
    if let Some(p) = bw_prefix {
        for (d, s) in series_of(&files(dir, p, "bw"), LogKind::Bw)
            .into_iter()
            .enumerate()
        {
            out[d].bw_kib = s;
        }
    }
    if let Some(p) = iops_prefix {
        for (d, s) in series_of(&files(dir, p, "iops"), LogKind::Iops)
            .into_iter()
            .enumerate()
        {
            out[d].iops = s;
        }
    }
    if let Some(p) = lat_prefix {
        for (d, s) in series_of(&files(dir, p, "clat"), LogKind::Lat)
            .into_iter()
            .enumerate()
        {
            out[d].lat_ns = s;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windowed_and_per_io_logs() {
        let w = parse("500, 240312, 0, 0, 0\n1000, 200000, 0, 0, 0\n500, 1000, 1, 0, 0\n");
        let p = points(&w, LogKind::Bw);
        assert_eq!(p[0].len(), 2);
        assert_eq!(p[0][&500], (240312.0, 1));
        assert_eq!(p[1][&500], (1000.0, 1));
        // Per I/O: four 4 KiB reads in the first 500 ms -> 32 KiB/s, 8 IOPS.
        let io = parse("10, 9999, 0, 4096, 0\n100, 9999, 0, 4096, 4096\n200, 1, 0, 4096, 0\n499, 1, 0, 4096, 0\n");
        let bw = points(&io, LogKind::Bw);
        assert_eq!(bw[0][&500], (32.0, 4));
        let iops = points(&io, LogKind::Iops);
        assert_eq!(iops[0][&500].0, 8.0);
        assert!(parse("garbage\n\n").is_empty());
    }
}
