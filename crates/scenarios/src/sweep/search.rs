//! The latency-target search: the highest value of a swept option (queue depth) whose measured
//! latency stays under the target, by bisection over measured points (latency grows with depth).

use iomark_output::echo::quote;

/// A measured point: the option's value and its latency in µs.
pub type Point = (u64, f64);

/// Search `values` (ascending) for the highest whose `measure`d latency is at most `target_us`.
/// Returns every point measured (ascending by value) and the answer (None when even the first
/// value misses the target). Measures O(log n) points.
pub fn highest_under(
    values: &[u64],
    target_us: f64,
    mut measure: impl FnMut(u64) -> f64,
) -> (Vec<Point>, Option<u64>) {
    let mut curve: Vec<Point> = Vec::new();
    let mut m = |i: usize, curve: &mut Vec<Point>| {
        let v = values[i];
        let lat = measure(v);
        curve.push((v, lat));
        lat <= target_us
    };
    let answer = if values.is_empty() || !m(0, &mut curve) {
        None
    } else if values.len() == 1 || m(values.len() - 1, &mut curve) {
        Some(values[values.len() - 1])
    } else {
        // values[lo] meets the target, values[hi] does not.
        let (mut lo, mut hi) = (0, values.len() - 1);
        while hi - lo > 1 {
            let mid = (lo + hi) / 2;
            if m(mid, &mut curve) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        Some(values[lo])
    };
    curve.sort_by_key(|p| p.0);
    (curve, answer)
}

/// A `--latency-target` that does not parse; each names the value as given.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum TargetError {
    #[error("--latency-target={0}: expected pNN=TIME, e.g. p99=2ms")]
    Form(String),
    #[error("--latency-target={q_s}: {q_what} is not a percentile (p50, p99, p99.9) or mean", q_s = quote(.value), q_what = quote(.what))]
    Percentile { value: String, what: String },
    #[error("--latency-target={value}: {error}")]
    Time {
        value: String,
        error: iomark_fio::values::ValueError,
    },
    #[error("--latency-target={0}: the target must be above zero")]
    Zero(String),
}

/// Parse `p99=2ms` (or `p99.9=500us`, `mean=1ms`): the percentile (None for the mean) and the
/// target in µs.
pub fn parse_target(s: &str) -> Result<(Option<f64>, f64), TargetError> {
    let (what, t) = s
        .split_once('=')
        .ok_or_else(|| TargetError::Form(s.to_string()))?;
    let pct = match what {
        "mean" => None,
        p => match p.strip_prefix('p').and_then(|x| x.parse::<f64>().ok()) {
            Some(x) if x > 0.0 && x < 100.0 => Some(x),
            _ => {
                return Err(TargetError::Percentile {
                    value: s.to_string(),
                    what: what.to_string(),
                })
            }
        },
    };
    let d =
        iomark_fio::values::parse_time(t, iomark_fio::values::TimeUnit::Us).map_err(|error| {
            TargetError::Time {
                value: s.to_string(),
                error,
            }
        })?;
    if d.is_zero() {
        return Err(TargetError::Zero(s.to_string()));
    }
    Ok((pct, d.as_secs_f64() * 1e6))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A deterministic device: 50 µs plus 20 µs per queued I/O (Little's law at a fixed rate).
    fn model(depth: u64) -> f64 {
        50.0 + 20.0 * depth as f64
    }

    #[test]
    fn finds_the_highest_depth_under_the_target() {
        let depths: Vec<u64> = (0..9).map(|i| 1 << i).collect(); // 1..256
                                                                 // 2 ms: 50 + 20 d <= 2000 -> d <= 97.5 -> 64.
        let mut n = 0;
        let (curve, ans) = highest_under(&depths, 2000.0, |d| {
            n += 1;
            model(d)
        });
        assert_eq!(ans, Some(64));
        assert!(n <= 5, "{n} measurements");
        assert!(curve.windows(2).all(|w| w[0].0 < w[1].0));
        assert!(curve.contains(&(64, model(64))) && curve.contains(&(128, model(128))));
        assert_eq!(highest_under(&depths, 10.0, model).1, None);
        assert_eq!(highest_under(&depths, 1e9, model).1, Some(256));
        assert_eq!(highest_under(&depths, 70.0, model).1, Some(1));
    }

    #[test]
    fn targets() {
        assert_eq!(parse_target("p99=2ms"), Ok((Some(99.0), 2000.0)));
        assert_eq!(parse_target("p99.9=500us"), Ok((Some(99.9), 500.0)));
        assert_eq!(parse_target("mean=1ms"), Ok((None, 1000.0)));
        assert!(parse_target("q99=1ms")
            .unwrap_err()
            .to_string()
            .contains("not a percentile"));
        assert!(parse_target("p99").is_err());
    }
}
