//! What the worker records over time: the bw/iops samples (bwavgtime), the progress counters the
//! status thread reads, snapshots for `--status-interval`, the averaged (log_avg_msec) and per-I/O
//! log entries of write_bw/iops/lat_log, and the write_hist_log entries.

use super::{Worker, NS_PER_MS};
use crate::job::{Dir, LogSpec};
use crate::result::{JobResult, LogEntry};
use crate::sys;
use std::sync::atomic::Ordering;

/// Where the last bw/iops sample was taken.
pub(super) struct Interval {
    pub(super) last_ns: u64,
    pub(super) last_bytes: [u64; 3],
    pub(super) last_ios: [u64; 3],
}

impl Interval {
    pub(super) fn starting_at(now: u64) -> Interval {
        Interval {
            last_ns: now,
            last_bytes: [0; 3],
            last_ios: [0; 3],
        }
    }
}

/// Completions since the last averaged log entry (log_avg_msec), per direction; latencies in the
/// order slat, clat, lat.
pub(super) struct LogWindow {
    pub(super) start_ns: u64,
    bytes: [u64; 3],
    ios: [u64; 3],
    lat_sum: [[u64; 3]; 3],
    lat_max: [[u64; 3]; 3],
    lat_n: [u64; 3],
}

impl LogWindow {
    /// A window when the job writes a log averaged over `avg_msec`.
    pub(super) fn for_job(logs: &LogSpec) -> Option<LogWindow> {
        (logs.any() && logs.avg_msec > 0).then_some(LogWindow {
            start_ns: 0,
            bytes: [0; 3],
            ios: [0; 3],
            lat_sum: [[0; 3]; 3],
            lat_max: [[0; 3]; 3],
            lat_n: [0; 3],
        })
    }

    /// One completion of `bytes` in direction `d` with latencies `[slat, clat, lat]`.
    #[inline]
    pub(super) fn add(&mut self, d: usize, bytes: u64, lats: [u64; 3]) {
        self.bytes[d] += bytes;
        self.ios[d] += 1;
        for (k, v) in lats.into_iter().enumerate() {
            self.lat_sum[d][k] += v;
            self.lat_max[d][k] = self.lat_max[d][k].max(v);
        }
        self.lat_n[d] += 1;
    }

    /// The window spans `avg_msec` at `now`.
    #[inline]
    pub(super) fn is_due(&self, now: u64, avg_msec: u64) -> bool {
        now.saturating_sub(self.start_ns) >= avg_msec * NS_PER_MS
    }

    /// The entries of the window ending at `now` (`t_ms` into the measured phase) into `series`,
    /// then start a new window at `now`. Does nothing for an empty span.
    fn flush(
        &mut self,
        now: u64,
        t_ms: u64,
        logs: &LogSpec,
        series: &mut crate::result::TimeSeries,
    ) {
        let span = now.saturating_sub(self.start_ns);
        if span == 0 {
            return;
        }
        for d in 0..3 {
            if self.ios[d] == 0 {
                continue;
            }
            let ddir = d as u8;
            let span_ms = span as f64 / NS_PER_MS as f64;
            if logs.bw_log.is_some() {
                series.bw.push(LogEntry {
                    t_ms,
                    value: (self.bytes[d] as f64 * 1000.0 / span_ms / 1024.0) as u64,
                    ddir,
                    bs: 0,
                    offset: 0,
                    max: None,
                    prio: 0,
                });
            }
            if logs.iops_log.is_some() {
                series.iops.push(LogEntry {
                    t_ms,
                    value: (self.ios[d] as f64 * 1000.0 / span_ms) as u64,
                    ddir,
                    bs: 0,
                    offset: 0,
                    max: None,
                    prio: 0,
                });
            }
            if logs.lat_log.is_some() && self.lat_n[d] > 0 {
                let n = self.lat_n[d];
                let mode = logs.max_value;
                for (k, list) in [&mut series.slat, &mut series.clat, &mut series.lat]
                    .into_iter()
                    .enumerate()
                {
                    let (avg, max) = (self.lat_sum[d][k] / n, self.lat_max[d][k]);
                    list.push(LogEntry {
                        t_ms,
                        value: if mode == 1 { max } else { avg },
                        ddir,
                        bs: 0,
                        offset: 0,
                        max: (mode == 2).then_some(max),
                        prio: 0,
                    });
                }
            }
        }
        self.start_ns = now;
        self.bytes = [0; 3];
        self.ios = [0; 3];
        self.lat_sum = [[0; 3]; 3];
        self.lat_max = [[0; 3]; 3];
        self.lat_n = [0; 3];
    }
}

/// `write_hist_log`: the histograms at the last entry, per direction.
pub(super) struct HistLog {
    pub(super) period_ns: u64,
    pub(super) last_ns: u64,
    pub(super) last: [crate::hist::Histogram; 3],
}

impl HistLog {
    /// The state of a job that writes a histogram log every hist_msec.
    pub(super) fn for_job(logs: &LogSpec) -> Option<HistLog> {
        match (&logs.hist_log, logs.hist_msec) {
            (Some(_), ms) if ms > 0 => Some(HistLog {
                period_ns: ms * NS_PER_MS,
                last_ns: 0,
                last: Default::default(),
            }),
            _ => None,
        }
    }
}

impl Worker {
    /// Take the bw/iops samples when a `bwavgtime` period has passed. Called per I/O: the
    /// period check is inlined, the sampling is out of line.
    #[inline(always)]
    pub(super) fn sample_intervals(&mut self, now: u64) {
        let period = self.spec.stats.bwavgtime.as_nanos().max(1) as u64;
        if now.saturating_sub(self.interval.last_ns) >= period {
            self.take_interval_samples(now);
        }
    }

    #[cold]
    #[inline(never)]
    fn take_interval_samples(&mut self, now: u64) {
        let dt_ms = (now - self.interval.last_ns) as f64 / NS_PER_MS as f64;
        for d in Dir::ALL {
            let i = d.idx();
            let db = self.bytes[i] - self.interval.last_bytes[i];
            let di = self.ios[i] - self.interval.last_ios[i];
            if di == 0 {
                continue;
            }
            let bw = db as f64 * 1000.0 / dt_ms / 1024.0;
            let iops = di as f64 * 1000.0 / dt_ms;
            let r = &mut self.res.dirs[d];
            r.bw_samples.add(bw);
            r.iops_samples.add(iops);
        }
        self.interval.last_ns = now;
        self.interval.last_bytes = self.bytes;
        self.interval.last_ios = self.ios;
        self.publish_progress(now);
        self.flush_log_window(now, false);
    }

    /// Answer a `--status-interval` request with the results so far.
    #[cold]
    pub(super) fn answer_snapshot(&mut self) {
        let now = sys::now_ns();
        let mut r = copy_for_report(&mut self.res);
        self.fill_totals(&mut r, now);
        if let Ok(mut slot) = self.progress.snapshot.lock() {
            *slot = Some(r);
        }
        self.progress.snapshot_req.store(false, Ordering::Release);
    }

    pub(super) fn publish_progress(&self, now: u64) {
        for i in 0..3 {
            self.progress.bytes[i].store(self.bytes[i], Ordering::Relaxed);
            self.progress.ios[i].store(self.ios[i], Ordering::Relaxed);
        }
        self.progress.published_ns.store(now, Ordering::Release);
        if self.measuring {
            self.progress
                .elapsed_ms
                .store((now - self.meas_start_ns) / NS_PER_MS, Ordering::Relaxed);
        }
    }

    /// Close the log window when it spans log_avg_msec at `now` (or whenever `force`).
    pub(super) fn flush_log_window(&mut self, now: u64, force: bool) {
        let logs = &self.spec.logs;
        let Some(w) = &mut self.log_window else {
            return;
        };
        if !force && !w.is_due(now, logs.avg_msec) {
            return;
        }
        let t_ms = now.saturating_sub(self.meas_start_ns) / NS_PER_MS;
        w.flush(now, t_ms, logs, &mut self.res.series);
    }

    /// One `write_hist_log` entry per direction with completions since the last one.
    #[cold]
    pub(super) fn flush_hist_log(&mut self, now: u64) {
        let Some(h) = &mut self.hist_log else {
            return;
        };
        let t_ms = now.saturating_sub(self.meas_start_ns) / NS_PER_MS;
        for d in Dir::ALL {
            let cur = &self.res.dirs[d].clat.hist;
            let delta = cur.delta_since(&h.last[d.idx()]);
            if delta.is_empty() {
                continue;
            }
            self.res.series.hist.push(crate::result::HistLogEntry {
                t_ms,
                ddir: d.idx() as u8,
                bs: 0,
                hist: delta,
            });
            h.last[d.idx()] = cur.clone();
        }
        h.last_ns = now;
    }

    /// One entry per I/O in each log asked for; `lats` are slat, clat and lat, `prio` the
    /// request's priority value.
    #[cold]
    pub(super) fn log_per_io(
        &mut self,
        dir: Dir,
        bytes: u64,
        lats: [u64; 3],
        now: u64,
        offset: u64,
        prio: u16,
    ) {
        let [slat, clat, lat] = lats;
        let t_ms = now.saturating_sub(self.meas_start_ns) / NS_PER_MS;
        let ddir = dir.idx() as u8;
        let series = &mut self.res.series;
        let logs = &self.spec.logs;
        let offset = if logs.log_offset { offset } else { 0 };
        let e = |value| LogEntry {
            t_ms,
            value,
            ddir,
            bs: bytes,
            offset,
            max: None,
            prio,
        };
        if logs.bw_log.is_some() {
            let v = if clat > 0 {
                (bytes as u128 * 1_000_000_000 / clat as u128 / 1024) as u64
            } else {
                0
            };
            series.bw.push(e(v));
        }
        if logs.iops_log.is_some() {
            series.iops.push(e(1));
        }
        if logs.lat_log.is_some() {
            if !self.one_stage {
                series.slat.push(e(slat));
            }
            series.clat.push(e(clat));
            series.lat.push(e(lat));
        }
    }
}

/// A copy of the results for a `--status-interval` report, without the log time series (reports
/// do not show them, and they can be long).
pub(super) fn copy_for_report(res: &mut JobResult) -> JobResult {
    let series = std::mem::take(&mut res.series);
    let copy = res.clone();
    res.series = series;
    copy
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::result::TimeSeries;

    fn logs(avg_msec: u64, max_value: u8) -> LogSpec {
        LogSpec {
            bw_log: Some("bw".into()),
            iops_log: Some("iops".into()),
            lat_log: Some("lat".into()),
            avg_msec,
            max_value,
            ..Default::default()
        }
    }

    #[test]
    fn window_only_for_averaged_logs() {
        assert!(LogWindow::for_job(&LogSpec::default()).is_none());
        assert!(LogWindow::for_job(&logs(0, 0)).is_none());
        assert!(LogWindow::for_job(&logs(500, 0)).is_some());
        let hist = LogSpec {
            hist_log: Some("h".into()),
            hist_msec: 100,
            ..Default::default()
        };
        assert_eq!(HistLog::for_job(&hist).unwrap().period_ns, 100 * NS_PER_MS);
        let no_period = LogSpec {
            hist_msec: 0,
            ..hist.clone()
        };
        assert!(HistLog::for_job(&no_period).is_none());
    }

    #[test]
    fn window_is_due_after_its_span() {
        let mut w = LogWindow::for_job(&logs(500, 0)).unwrap();
        w.start_ns = 1_000 * NS_PER_MS;
        assert!(!w.is_due(1_499 * NS_PER_MS, 500));
        assert!(w.is_due(1_500 * NS_PER_MS, 500));
        // A clock before the start is not due (no underflow).
        assert!(!w.is_due(0, 500));
    }

    #[test]
    fn window_averages_and_resets() {
        let spec = logs(1000, 0);
        let mut w = LogWindow::for_job(&spec).unwrap();
        let mut series = TimeSeries::default();
        // Two reads of 4 KiB and one write of 8 KiB in one second.
        w.add(0, 4096, [10, 100, 110]);
        w.add(0, 4096, [30, 300, 330]);
        w.add(1, 8192, [5, 50, 55]);
        w.flush(NS_PER_MS * 1000, 1000, &spec, &mut series);
        let reads: Vec<_> = series.bw.iter().filter(|e| e.ddir == 0).collect();
        assert_eq!(reads.len(), 1);
        assert_eq!(reads[0].value, 8); // 8 KiB/s
        assert_eq!(reads[0].t_ms, 1000);
        let iops: Vec<u64> = series.iops.iter().map(|e| e.value).collect();
        assert_eq!(iops, vec![2, 1]);
        assert_eq!(series.slat[0].value, 20);
        assert_eq!(series.clat[0].value, 200);
        assert_eq!(series.lat[0].value, 220);
        assert_eq!(series.lat[0].max, None);
        assert_eq!(series.clat[1].value, 50);
        // The window starts over: a flush with nothing new adds nothing.
        assert_eq!(w.start_ns, NS_PER_MS * 1000);
        w.flush(NS_PER_MS * 2000, 2000, &spec, &mut series);
        assert_eq!(series.bw.len(), 2);
        // An empty span adds nothing either.
        w.add(2, 4096, [1, 2, 3]);
        w.flush(NS_PER_MS * 2000, 2000, &spec, &mut series);
        assert_eq!(series.iops.len(), 2);
    }

    #[test]
    fn window_max_value_modes() {
        for (mode, value, max) in [(1u8, 300, None), (2, 200, Some(300))] {
            let spec = logs(1000, mode);
            let mut w = LogWindow::for_job(&spec).unwrap();
            let mut series = TimeSeries::default();
            w.add(0, 4096, [0, 100, 0]);
            w.add(0, 4096, [0, 300, 0]);
            w.flush(NS_PER_MS * 1000, 1000, &spec, &mut series);
            assert_eq!(series.clat[0].value, value, "mode {mode}");
            assert_eq!(series.clat[0].max, max, "mode {mode}");
        }
    }

    #[test]
    fn report_copy_leaves_out_the_series() {
        let mut res = JobResult::default();
        res.series.bw.push(LogEntry {
            t_ms: 1,
            value: 2,
            ddir: 0,
            bs: 0,
            offset: 0,
            max: None,
            prio: 0,
        });
        res.total_err = 3;
        let copy = copy_for_report(&mut res);
        assert!(copy.series.bw.is_empty());
        assert_eq!(copy.total_err, 3);
        assert_eq!(res.series.bw.len(), 1);
    }
}
