//! fio's bw/iops/lat logs (`write_bw_log`, `write_iops_log`, `write_lat_log`), found beside the
//! fio JSON they belong to: lines `time_ms, value, ddir, bs[, offset][, prio]`. Windowed logs
//! (`log_avg_msec=N`) are read as they are; per-I/O logs (`log_avg_msec=0`, bs non-zero) are
//! put in [`super::resample::PER_IO_WINDOW_MS`] windows: bandwidth from the bytes moved, IOPS from the count,
//! latency as the mean. The logs of a job's clones add (bandwidth, IOPS) or average (latency).

use super::resample::{resample, Combine, Sample};
use crate::model::DirSeries;
use std::path::{Path, PathBuf};

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

/// Per direction (0 read, 1 write, 2 trim): the samples of one log, and whether it is a
/// per-I/O log. A per-I/O sample is the I/O's amount: 1 (IOPS), its KiB (bandwidth) or its
/// latency; a windowed sample is the log's value.
fn samples(entries: &[Entry], kind: LogKind) -> ([Vec<Sample>; 3], bool) {
    let mut out: [Vec<Sample>; 3] = Default::default();
    let per_io = entries.iter().any(|e| e.bs != 0);
    for e in entries.iter().filter(|e| e.ddir < 3) {
        let v = match (per_io, kind) {
            (true, LogKind::Bw) => e.bs as f64 / 1024.0,
            (true, LogKind::Iops) => 1.0,
            _ => e.value,
        };
        out[e.ddir as usize].push((e.t_ms, v));
    }
    (out, per_io)
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
    let mut by_dir: [Vec<Vec<Sample>>; 3] = Default::default();
    let mut per_io = false;
    for p in paths {
        let Ok(text) = std::fs::read_to_string(p) else {
            continue;
        };
        let (s, io) = samples(&parse(&text), kind);
        per_io |= io;
        for (d, v) in s.into_iter().enumerate() {
            by_dir[d].push(v);
        }
    }
    let how = match kind {
        LogKind::Lat => Combine::Mean,
        _ => Combine::Add,
    };
    by_dir.map(|srcs| resample(&srcs, per_io, how))
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
    use super::super::resample::time_weighted_mean;
    use super::*;

    #[test]
    fn windowed_and_per_io_logs() {
        let w = parse("500, 240312, 0, 0, 0\n1000, 200000, 0, 0, 0\n500, 1000, 1, 0, 0\n");
        let (p, io) = samples(&w, LogKind::Bw);
        assert!(!io);
        assert_eq!(p[0], vec![(500, 240312.0), (1000, 200000.0)]);
        assert_eq!(p[1], vec![(500, 1000.0)]);
        assert!(parse("garbage\n\n").is_empty());
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
