//! Log samples (fio's logs or iomark's own) onto one grid of time windows, so that a chart's
//! series has the same time-weighted mean as the job's figure.
//!
//! Two kinds of source: a per-I/O log records one amount at an instant (one I/O, its bytes, its
//! latency); a windowed log records a rate (or a mean) held since the source's previous sample.
//! Every source of a job (its clones) is put on one grid: windows of the sources' own spacing
//! ([`PER_IO_WINDOW_MS`] for per-I/O logs) from the start, the last one ending at the last sample,
//! however short. Rates are the amount in a window over the window's true length; samples at
//! the same time as the previous one span nothing and add nothing.

use crate::model::Series;

/// Window for per-I/O logs.
pub const PER_IO_WINDOW_MS: u64 = 500;

/// One sample: time in ms from the start of the measured phase, value.
pub type Sample = (u64, f64);

/// How the sources of a job combine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Combine {
    /// Clones add (bandwidth, IOPS): per-I/O amounts are summed and divided by the window's
    /// seconds; windowed rates are integrated over the window and divided by its seconds.
    Add,
    /// Clones average (latency): the mean of the I/Os (per-I/O) or the time-weighted mean of
    /// the sources' values (windowed) in each window.
    Mean,
}

/// The series (window end in s, value) of `sources`, all per-I/O or all windowed.
pub fn resample(sources: &[Vec<Sample>], per_io: bool, how: Combine) -> Series {
    if per_io {
        let mut w = PerIoWindows::default();
        for &(t, v) in sources.iter().flatten() {
            w.add(t, v);
        }
        return w.series(how);
    }
    let ends = grid(sources);
    if ends.is_empty() {
        return Vec::new();
    }
    // Per window: sum of value x weight, and the weight (source-ms covered).
    let mut sum = vec![0.0; ends.len()];
    let mut weight = vec![0.0; ends.len()];
    for s in sources {
        integrate(s, &ends, &mut sum, &mut weight);
    }
    rates(&ends, &sum, &weight, false, how)
}

/// Per-I/O samples of every source of a job, added into their [`PER_IO_WINDOW_MS`] windows as
/// they are read, so that no sample is kept: the same series as [`resample`] of the samples.
#[derive(Clone, Debug, Default)]
pub struct PerIoWindows {
    /// Per window from the start: the sum of the amounts and their count.
    sum: Vec<f64>,
    count: Vec<f64>,
    /// The latest sample's time.
    last: Option<u64>,
}

impl PerIoWindows {
    /// Add one I/O's amount at `t` ms.
    pub fn add(&mut self, t: u64, v: f64) {
        let i = usize::try_from(t / PER_IO_WINDOW_MS).unwrap_or(usize::MAX);
        if i >= self.sum.len() {
            self.sum.resize(i + 1, 0.0);
            self.count.resize(i + 1, 0.0);
        }
        self.sum[i] += v;
        self.count[i] += 1.0;
        self.last = Some(self.last.map_or(t, |l| l.max(t)));
    }

    /// The series: whole windows from the start, the last one ending at the last sample however
    /// short (the samples of the window it ends in and at it count in it).
    pub fn series(mut self, how: Combine) -> Series {
        let Some(last) = self.last else {
            return Vec::new();
        };
        let last = last.max(1);
        // Windows k x width below the last sample, then the one ending at it.
        let n = usize::try_from((last - 1) / PER_IO_WINDOW_MS).unwrap_or(usize::MAX) + 1;
        let tail: (f64, f64) = (
            self.sum.drain(n - 1..).sum(),
            self.count.drain(n - 1..).sum(),
        );
        self.sum.push(tail.0);
        self.count.push(tail.1);
        let ends: Vec<u64> = (1..n as u64)
            .map(|k| k * PER_IO_WINDOW_MS)
            .chain(std::iter::once(last))
            .collect();
        rates(&ends, &self.sum, &self.count, true, how)
    }
}

/// Each window's figure from its sum and weight: a rate over the window's true length, or a
/// mean (windows without a sample are left out of a mean).
fn rates(ends: &[u64], sum: &[f64], weight: &[f64], per_io: bool, how: Combine) -> Series {
    let mut out = Vec::with_capacity(ends.len());
    let mut start = 0;
    for (i, &end) in ends.iter().enumerate() {
        let secs = (end - start) as f64 / 1000.0;
        start = end;
        let v = match (how, per_io) {
            (Combine::Add, true) => sum[i] / secs,
            // Integrated rate x ms over the window's ms.
            (Combine::Add, false) => sum[i] / (secs * 1000.0),
            (Combine::Mean, _) if weight[i] > 0.0 => sum[i] / weight[i],
            (Combine::Mean, _) => continue,
        };
        out.push((end as f64 / 1000.0, v));
    }
    out
}

/// Window ends (ms) of windowed sources, ascending, from the first window's start at 0 to the
/// last sample.
fn grid(sources: &[Vec<Sample>]) -> Vec<u64> {
    let Some(last) = sources.iter().flatten().map(|s| s.0).max() else {
        return Vec::new();
    };
    let width = spacing(sources).unwrap_or(last.max(1));
    let last = last.max(1);
    let mut ends: Vec<u64> = (1..).map(|k| k * width).take_while(|&e| e < last).collect();
    ends.push(last);
    ends
}

/// The typical spacing (ms) of a windowed source's samples: the median gap of the first source
/// with a positive gap (the first sample's gap is from the start).
fn spacing(sources: &[Vec<Sample>]) -> Option<u64> {
    sources.iter().find_map(|s| {
        let mut t: Vec<u64> = s.iter().map(|x| x.0).collect();
        t.sort_unstable();
        let mut gaps: Vec<u64> = std::iter::once(0)
            .chain(t.iter().copied())
            .zip(t.iter().copied())
            .map(|(a, b)| b - a)
            .filter(|&g| g > 0)
            .collect();
        gaps.sort_unstable();
        gaps.get(gaps.len() / 2).copied()
    })
}

/// Each sample of a windowed source holds its value over (previous sample, sample]; adds
/// value x overlap and overlap (ms) to every window it overlaps.
fn integrate(s: &[Sample], ends: &[u64], sum: &mut [f64], weight: &mut [f64]) {
    let mut s = s.to_vec();
    s.sort_by_key(|x| x.0);
    let mut prev = 0u64;
    for (t, v) in s {
        let mut i = ends.partition_point(|&e| e <= prev);
        while i < ends.len() {
            let a = if i == 0 { 0 } else { ends[i - 1] };
            let b = ends[i];
            if a >= t {
                break;
            }
            let overlap = (b.min(t) - a.max(prev)) as f64;
            if overlap > 0.0 {
                sum[i] += v * overlap;
                weight[i] += overlap;
            }
            i += 1;
        }
        prev = prev.max(t);
    }
}

/// Mean of a series over time: each point's value held since the previous point (from 0).
pub fn time_weighted_mean(s: &Series) -> f64 {
    let (mut prev, mut area) = (0.0, 0.0);
    for &(t, v) in s {
        area += v * (t - prev);
        prev = t;
    }
    if prev > 0.0 {
        area / prev
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, rel: f64) -> bool {
        (a - b).abs() <= rel * b.abs()
    }

    #[test]
    fn per_io_rates_are_per_second_and_keep_the_mean() {
        // 25,000 I/Os per second for 3 s, one sample per I/O.
        let ios: Vec<Sample> = (0..75_000u64).map(|k| (k * 3000 / 75_000, 1.0)).collect();
        let s = resample(&[ios], true, Combine::Add);
        assert_eq!(s.len(), 6);
        for &(_, v) in &s {
            assert!(close(v, 25_000.0, 0.01), "{s:?}");
        }
        assert!(close(time_weighted_mean(&s), 25_000.0, 0.001));
    }

    #[test]
    fn short_last_window_is_not_scaled_as_full() {
        // 1,000 I/Os per second for 1.1 s: the last window is 100 ms long.
        let ios: Vec<Sample> = (0..1100u64).map(|k| (k, 1.0)).collect();
        let s = resample(&[ios], true, Combine::Add);
        let last = s.last().unwrap();
        assert_eq!(last.0, 1.099);
        assert!(close(last.1, 1000.0, 0.02), "{s:?}");
        assert!(close(time_weighted_mean(&s), 1000.0, 0.02));
    }

    #[test]
    fn same_timestamp_samples_are_not_added() {
        // Windowed at 500 ms, then a last sample at the same time as the one before it.
        let w: Vec<Sample> = vec![
            (500, 24_000.0),
            (1000, 25_000.0),
            (1500, 9_616.0),
            (1500, 64_364.0),
        ];
        let s = resample(&[w], false, Combine::Add);
        assert_eq!(s.len(), 3, "{s:?}");
        assert!(s.iter().all(|p| p.1 < 30_000.0), "{s:?}");
        assert!(close(time_weighted_mean(&s), 58_616.0 / 3.0, 0.001));
    }

    #[test]
    fn clones_add_and_latency_averages() {
        let a: Vec<Sample> = vec![(503, 100.0), (1004, 200.0)];
        let b: Vec<Sample> = vec![(504, 100.0), (1005, 200.0)];
        let s = resample(&[a.clone(), b.clone()], false, Combine::Add);
        assert!(close(time_weighted_mean(&s), 300.0, 0.01), "{s:?}");
        let l = resample(&[a, b], false, Combine::Mean);
        assert!(
            close(l[0].1, 100.0, 0.01) && close(l[1].1, 199.0, 0.02),
            "{l:?}"
        );
        // Per-I/O latency: the mean of the I/Os in the window.
        let io = resample(&[vec![(1, 10.0), (2, 30.0)]], true, Combine::Mean);
        assert_eq!(io, vec![(0.002, 20.0)]);
    }
}
