//! Axis scales: how a value is placed on an axis and which ticks label it. Both back ends use
//! them, so a chart's ticks read the same in the page and in its image.
//!
//! A percentile axis ("nines") places percentile `p` at `-log10(1 - p/100)`: p50, p90, p99,
//! p99.9 and p99.99 sit one step apart and the tail gets the room it needs, as latency
//! percentile plots are drawn.

/// How values are placed on one axis.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Scale {
    #[default]
    Linear,
    /// Logarithmic: ticks at decades (with 2 and 5 between them on a short range).
    Log,
    /// Percentiles (0 to below 100) on the nines scale.
    Nines,
}

impl Scale {
    /// The axis position of value `v` (NaN where the scale has no place for it).
    pub fn to_axis(self, v: f64) -> f64 {
        match self {
            Scale::Linear => v,
            Scale::Log if v > 0.0 => v.log10(),
            Scale::Nines if (0.0..100.0).contains(&v) => -(1.0 - v / 100.0).log10(),
            _ => f64::NAN,
        }
    }

    /// The value at axis position `a`.
    pub fn from_axis(self, a: f64) -> f64 {
        match self {
            Scale::Linear => a,
            Scale::Log => 10f64.powf(a),
            Scale::Nines => 100.0 * (1.0 - 10f64.powf(-a)),
        }
    }

    /// The tick positions (axis space) within `lo..=hi` (axis space).
    pub fn ticks(self, lo: f64, hi: f64) -> Vec<f64> {
        let within = |a: &f64| *a >= lo - 1e-9 && *a <= hi + 1e-9;
        match self {
            Scale::Linear => linear_ticks(lo, hi),
            Scale::Log => {
                let decades: Vec<f64> = (lo.ceil() as i32..=hi.floor() as i32)
                    .map(f64::from)
                    .collect();
                let steps: &[f64] = if decades.len() >= 3 {
                    &[1.0]
                } else {
                    &[1.0, 2.0, 5.0]
                };
                (lo.floor() as i32..=hi.ceil() as i32)
                    .flat_map(|d| steps.iter().map(move |m| f64::from(d) + m.log10()))
                    .filter(within)
                    .collect()
            }
            Scale::Nines => {
                let mut t = vec![0.0, 2f64.log10()];
                t.extend((1..=hi.ceil().max(1.0) as i32).map(f64::from));
                t.into_iter().filter(within).collect()
            }
        }
    }

    /// The label of the tick at axis position `a`.
    pub fn label(self, a: f64) -> String {
        match self {
            Scale::Nines => pct_label(self.from_axis(a)),
            _ => num_label(self.from_axis(a)),
        }
    }
}

/// Evenly spaced ticks at a round step (1, 2 or 5 times a power of ten), about eight of them.
fn linear_ticks(lo: f64, hi: f64) -> Vec<f64> {
    let span = hi - lo;
    if !span.is_finite() || span <= 0.0 {
        return vec![lo];
    }
    let raw = span / 8.0;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * mag);
    let first = (lo / step).ceil() as i64;
    let last = (hi / step).floor() as i64;
    (first..=last).map(|i| i as f64 * step).collect()
}

/// A percentile as latency plots name it: 50, 90, 99, 99.9, 99.99 (as many decimals as its
/// nines need).
pub fn pct_label(p: f64) -> String {
    for d in 0..7 {
        let s = format!("{p:.d$}");
        if (s.parse::<f64>().unwrap_or(p) - p).abs() < 1e-9 * 100.0 {
            return s;
        }
    }
    format!("{p}")
}

/// A tick value written short: 1, 20, 500, 1k, 20k, 1.5M, 0.1, 0.02.
pub fn num_label(v: f64) -> String {
    let a = v.abs();
    let trim = |s: String| {
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s
        }
    };
    if a >= 1e6 {
        format!("{}M", trim(format!("{:.2}", v / 1e6)))
    } else if a >= 1e4 {
        format!("{}k", trim(format!("{:.1}", v / 1e3)))
    } else if a >= 1.0 || a == 0.0 {
        trim(format!("{v:.2}"))
    } else {
        let digits = (-a.log10()).ceil() as usize + 2;
        trim(format!("{v:.digits$}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// p50, p90, p99, p99.9 and p99.99 sit at equal steps, labelled as latency plots do.
    #[test]
    fn nines_spread_the_tail_evenly() {
        let s = Scale::Nines;
        let at: Vec<f64> = [90.0, 99.0, 99.9, 99.99]
            .iter()
            .map(|&p| s.to_axis(p))
            .collect();
        for w in at.windows(2) {
            assert!((w[1] - w[0] - 1.0).abs() < 1e-9, "{at:?}");
        }
        assert!(s.to_axis(100.0).is_nan());
        let t = s.ticks(0.0, 4.2);
        let labels: Vec<String> = t.iter().map(|&a| s.label(a)).collect();
        assert_eq!(labels, ["0", "50", "90", "99", "99.9", "99.99"]);
    }

    /// Log ticks are decades (1, 10, 100 ...), never 3.2 or 31.6; a short range adds 2 and 5.
    #[test]
    fn log_ticks_are_round() {
        let s = Scale::Log;
        let labels = |lo: f64, hi: f64| -> Vec<String> {
            s.ticks(s.to_axis(lo), s.to_axis(hi))
                .into_iter()
                .map(|a| s.label(a))
                .collect()
        };
        assert_eq!(labels(0.5, 20_000.0), ["1", "10", "100", "1000", "10k"]);
        assert_eq!(labels(3.0, 60.0), ["5", "10", "20", "50"]);
        assert_eq!(labels(0.01, 0.2), ["0.01", "0.02", "0.05", "0.1", "0.2"]);
    }

    #[test]
    fn linear_ticks_use_round_steps() {
        assert_eq!(linear_ticks(0.0, 160_000.0).len(), 9);
        assert_eq!(
            linear_ticks(0.0, 7.0),
            [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]
        );
        assert_eq!(num_label(150_000.0), "150k");
        assert_eq!(num_label(2_500_000.0), "2.5M");
    }
}
