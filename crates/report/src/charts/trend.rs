//! A figure across runs (`iomark report --trend`): one point per run in time order, the
//! spread of its repetitions as error bars, and the runs whose system changed marked.

use super::{Chart, Kind, Trace};

/// One run's point.
#[derive(Clone, Debug, PartialEq)]
pub struct TrendPoint {
    /// The run as a reader finds it again (`@12 11-27 08:10`).
    pub label: String,
    /// The figure's values in that run (several for a run of repetitions).
    pub values: Vec<f64>,
    /// What changed in the system since the run before (`kernel 6.1.0 -> 6.1.5`), if anything.
    pub change: Option<String>,
}

/// The chart of `figure` (in `unit`) over `points`, titled with `series` (the target).
pub fn chart(figure: &str, unit: &str, series: &str, points: &[TrendPoint]) -> Chart {
    let mut c = Chart::new(
        format!("trend-{figure}-{series}"),
        series,
        &format!("{figure} across runs"),
        Kind::Lines,
    )
    .axes("run", &format!("{figure} ({unit})"));
    let mut t = Trace {
        name: figure.to_string(),
        ..Trace::default()
    };
    let mut changed = Trace {
        name: "system changed".to_string(),
        ..Trace::default()
    };
    let repeated = points.iter().any(|p| p.values.len() > 1);
    for p in points.iter().filter(|p| !p.values.is_empty()) {
        let mean = p.values.iter().sum::<f64>() / p.values.len() as f64;
        t.cats.push(p.label.clone());
        t.y.push(mean);
        if repeated {
            let lo = p.values.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = p.values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            t.spread.push((lo, hi));
        }
        if p.change.is_some() {
            changed.cats.push(p.label.clone());
            changed.y.push(mean);
        }
    }
    c.traces.push(t);
    if !changed.cats.is_empty() {
        c.traces.push(changed);
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pt(label: &str, values: &[f64], change: Option<&str>) -> TrendPoint {
        TrendPoint {
            label: label.into(),
            values: values.to_vec(),
            change: change.map(str::to_string),
        }
    }

    #[test]
    fn means_spreads_and_marks() {
        let c = chart(
            "rr4k.read.iops",
            "IOPS",
            "/dev/sdb",
            &[
                pt("@1", &[100.0, 120.0], None),
                pt("@2", &[90.0], Some("kernel 6.1 -> 6.2")),
                pt("@3", &[], None),
            ],
        );
        assert_eq!(c.kind, Kind::Lines);
        assert_eq!(c.x_title, "run");
        assert_eq!(c.y_title, "rr4k.read.iops (IOPS)");
        let t = &c.traces[0];
        assert!(t.x.is_empty(), "categories, not numbers, on x");
        assert_eq!(t.cats, ["@1", "@2"]);
        assert_eq!(t.y, [110.0, 90.0]);
        assert_eq!(t.spread, [(100.0, 120.0), (90.0, 90.0)]);
        assert_eq!(c.traces[1].cats, ["@2"]);
        assert_eq!(c.traces[1].name, "system changed");
    }
}
