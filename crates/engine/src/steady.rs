//! Steady-state detection: once a second the job's IOPS and bandwidth over the last second are
//! added to a window of `duration` samples; when the window is full, the job ends as soon as
//! the chosen measure is steady: the largest deviation from the window's mean (or the slope of
//! the least-squares line through the window) is below the limit, given in the measure's own
//! unit or as a percentage of the mean.

pub use iomark_model::steady::{SteadyMetric, SteadyResult, SteadySpec};
use std::collections::VecDeque;

/// The window of samples and the judgement.
#[derive(Debug)]
pub(crate) struct SteadyWindow {
    spec: SteadySpec,
    window: VecDeque<(u64, u64)>,
    res: SteadyResult,
}

impl SteadyWindow {
    pub(crate) fn new(spec: SteadySpec) -> SteadyWindow {
        let n = spec.duration_s.max(1) as usize;
        SteadyWindow {
            spec,
            window: VecDeque::with_capacity(n),
            res: SteadyResult::default(),
        }
    }

    /// Add one second's IOPS and bandwidth; true once the state is steady.
    pub(crate) fn add(&mut self, iops: u64, bw: u64) -> bool {
        let n = self.spec.duration_s.max(1) as usize;
        if self.window.len() == n {
            self.window.pop_front();
        }
        self.window.push_back((iops, bw));
        if self.window.len() < n {
            return false;
        }
        let ys: Vec<f64> = self
            .window
            .iter()
            .map(|&(i, b)| match self.spec.metric {
                SteadyMetric::Iops => i as f64,
                SteadyMetric::Bw => b as f64,
            })
            .collect();
        let nf = n as f64;
        let mean = ys.iter().sum::<f64>() / nf;
        let value = if self.spec.slope {
            let sx = nf * (nf - 1.0) / 2.0;
            let sxx = (nf - 1.0) * nf * (2.0 * nf - 1.0) / 6.0;
            let sxy: f64 = ys.iter().enumerate().map(|(x, y)| x as f64 * y).sum();
            let sy = mean * nf;
            let den = sxx - sx * sx / nf;
            let slope = if den == 0.0 {
                0.0
            } else {
                (sxy - sx * sy / nf) / den
            };
            self.res.slope = slope;
            slope
        } else {
            let dev = ys.iter().map(|y| (y - mean).abs()).fold(0.0, f64::max);
            self.res.max_deviation = dev;
            dev
        };
        self.res.criterion = if self.spec.percent {
            if mean == 0.0 {
                f64::INFINITY
            } else {
                100.0 * value / mean
            }
        } else {
            value
        };
        let steady = self.res.criterion.abs() < self.spec.limit;
        self.res.attained |= steady;
        steady
    }

    /// The result so far.
    pub(crate) fn result(&self) -> SteadyResult {
        let n = self.spec.duration_s.max(1) as usize;
        let mut r = self.res.clone();
        if r.criterion.is_infinite() {
            r.criterion = 0.0;
        }
        r.iops = self.window.iter().map(|w| w.0).collect();
        r.bw = self.window.iter().map(|w| w.1).collect();
        r.iops.resize(n, 0);
        r.bw.resize(n, 0);
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn spec(metric: SteadyMetric, slope: bool, percent: bool, limit: f64) -> SteadySpec {
        SteadySpec {
            metric,
            slope,
            percent,
            limit,
            duration_s: 3,
            ramp: Duration::ZERO,
        }
    }

    #[test]
    fn deviation_in_percent_of_the_mean() {
        let mut w = SteadyWindow::new(spec(SteadyMetric::Iops, false, true, 5.0));
        assert!(!w.add(100, 1));
        assert!(!w.add(200, 1));
        // 100, 200, 300: mean 200, deviation 100 = 50 %.
        assert!(!w.add(300, 1));
        let r = w.result();
        assert_eq!(r.max_deviation, 100.0);
        assert!((r.criterion - 50.0).abs() < 1e-9);
        assert!(!w.add(300, 1));
        // 300, 300, 310: mean 303.3, deviation 6.67 = 2.2 %.
        assert!(w.add(310, 1));
        let r = w.result();
        assert!(r.attained);
        assert_eq!(r.iops, [300, 300, 310]);
        assert_eq!(r.iops_mean(), 303);
    }

    #[test]
    fn slope_of_the_least_squares_line() {
        let mut w = SteadyWindow::new(spec(SteadyMetric::Bw, true, false, 15.0));
        w.add(0, 100);
        w.add(0, 110);
        assert!(w.add(0, 120), "a slope of 10 per sample is below 15");
        let r = w.result();
        assert!((r.slope - 10.0).abs() < 1e-9, "{}", r.slope);
        assert!(r.attained);
        let mut w = SteadyWindow::new(spec(SteadyMetric::Bw, true, true, 1.0));
        w.add(0, 100);
        w.add(0, 100);
        assert!(w.add(0, 100), "flat");
    }

    #[test]
    fn window_not_full_is_padded() {
        let mut w = SteadyWindow::new(spec(SteadyMetric::Iops, false, false, 1.0));
        w.add(7, 70);
        let r = w.result();
        assert_eq!(r.iops, [7, 0, 0]);
        assert_eq!(r.bw, [70, 0, 0]);
        assert!(!r.attained);
    }
}
