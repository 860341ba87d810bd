//! The statistics of a figure measured N times (mean, standard deviation, min, max, 95 %
//! confidence interval by Student's t, coefficient of variation) and the rule that picks the
//! headline number.

use std::fmt;

/// How the headline number of repeated measurements is chosen (`--repeat-agg`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Agg {
    Mean,
    Median,
    /// The highest (for latencies: the lowest) value.
    Best,
}

impl Agg {
    pub fn parse(s: &str) -> Option<Agg> {
        match s {
            "mean" => Some(Agg::Mean),
            "median" => Some(Agg::Median),
            "best" => Some(Agg::Best),
            _ => None,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Agg::Mean => "mean",
            Agg::Median => "median",
            Agg::Best => "best",
        }
    }
}

impl fmt::Display for Agg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

pub use iomark_engine::noisy::NOISY_CV;

/// The statistics of one figure over its repetitions.
#[derive(Clone, Debug, PartialEq)]
pub struct Stats {
    pub n: usize,
    pub mean: f64,
    /// Sample standard deviation (n - 1 in the denominator); 0 for one sample.
    pub sd: f64,
    pub min: f64,
    pub max: f64,
    pub median: f64,
    /// Half-width of the 95 % confidence interval of the mean (t × sd / √n); 0 for one sample.
    pub ci95: f64,
    /// sd / mean (0 when the mean is 0).
    pub cv: f64,
}

impl Stats {
    /// Statistics of `samples` (at least one).
    pub fn of(samples: &[f64]) -> Stats {
        let n = samples.len();
        assert!(n > 0, "statistics of no samples");
        let mean = samples.iter().sum::<f64>() / n as f64;
        let sd = if n > 1 {
            (samples.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64).sqrt()
        } else {
            0.0
        };
        let mut sorted = samples.to_vec();
        sorted.sort_by(f64::total_cmp);
        let median = if n % 2 == 1 {
            sorted[n / 2]
        } else {
            (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0
        };
        let ci95 = if n > 1 {
            t95(n - 1) * sd / (n as f64).sqrt()
        } else {
            0.0
        };
        Stats {
            n,
            mean,
            sd,
            min: sorted[0],
            max: sorted[n - 1],
            median,
            ci95,
            cv: if mean != 0.0 { sd / mean.abs() } else { 0.0 },
        }
    }

    /// The repetitions varied by more than [`NOISY_CV`] of their mean.
    pub fn noisy(&self) -> bool {
        iomark_engine::noisy::is_noisy(self.mean, self.sd)
    }

    /// The headline number under `agg`; `higher_is_better` is false for latencies.
    pub fn headline(&self, agg: Agg, higher_is_better: bool) -> f64 {
        match agg {
            Agg::Mean => self.mean,
            Agg::Median => self.median,
            Agg::Best if higher_is_better => self.max,
            Agg::Best => self.min,
        }
    }
}

/// The two-sided 95 % quantile of Student's t distribution with `df` degrees of freedom.
pub fn t95(df: usize) -> f64 {
    const T: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
        2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
        2.052, 2.048, 2.045, 2.042,
    ];
    match df {
        0 => f64::NAN,
        1..=30 => T[df - 1],
        31..=40 => 2.021,
        41..=60 => 2.000,
        61..=120 => 1.980,
        _ => 1.960,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-3 * b.abs().max(1.0)
    }

    #[test]
    fn statistics_of_known_samples() {
        // 2, 4, 4, 4, 5, 5, 7, 9: mean 5, sample sd sqrt(32/7).
        let s = Stats::of(&[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]);
        assert_eq!(s.n, 8);
        assert!(close(s.mean, 5.0));
        assert!(close(s.sd, (32.0f64 / 7.0).sqrt()));
        assert_eq!((s.min, s.max, s.median), (2.0, 9.0, 4.5));
        // t(7) = 2.365
        assert!(close(s.ci95, 2.365 * (32.0f64 / 7.0).sqrt() / 8f64.sqrt()));
        assert!(close(s.cv, (32.0f64 / 7.0).sqrt() / 5.0));
        assert!(s.noisy());
        // Three runs 100, 102, 98: sd 2, CI 4.303 * 2 / sqrt 3, not noisy.
        let s = Stats::of(&[100.0, 102.0, 98.0]);
        assert!(close(s.sd, 2.0));
        assert!(close(s.ci95, 4.303 * 2.0 / 3f64.sqrt()));
        assert!(!s.noisy());
        assert_eq!(s.headline(Agg::Best, true), 102.0);
        assert_eq!(s.headline(Agg::Best, false), 98.0);
        assert_eq!(s.headline(Agg::Median, true), 100.0);
        // One sample: no spread, no interval.
        let s = Stats::of(&[7.0]);
        assert_eq!((s.sd, s.ci95, s.cv), (0.0, 0.0, 0.0));
        assert!(!s.noisy());
    }

    #[test]
    fn noisy_flag_sits_at_ten_percent() {
        // mean 100, sd 10 exactly: not above 10 %.
        assert!(!Stats::of(&[90.0, 100.0, 110.0]).noisy());
        assert!(Stats::of(&[89.0, 100.0, 111.0]).noisy());
    }

    #[test]
    fn t_quantiles() {
        assert_eq!(t95(1), 12.706);
        assert_eq!(t95(30), 2.042);
        assert_eq!(t95(1000), 1.960);
        assert_eq!(Agg::parse("best"), Some(Agg::Best));
        assert_eq!(Agg::parse("max"), None);
    }
}
