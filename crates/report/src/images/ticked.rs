//! A numeric plotters axis whose ticks are given (by [`crate::charts::Scale::ticks`]) instead
//! of chosen by plotters, so a log or percentile axis is labelled at round values.

use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged};
use plotters::coord::types::RangedCoordf64;
use std::ops::Range;

/// `lo..hi` (axis space) with major ticks at `ticks` and light grid lines at `light`.
pub struct Ticked {
    inner: RangedCoordf64,
    ticks: Vec<f64>,
    light: Vec<f64>,
}

impl Ticked {
    pub fn new(lo: f64, hi: f64, ticks: Vec<f64>) -> Ticked {
        Ticked {
            inner: (lo..hi).into(),
            light: halves(&ticks),
            ticks,
        }
    }
}

/// A light line halfway between neighbouring ticks.
fn halves(t: &[f64]) -> Vec<f64> {
    t.windows(2).map(|w| (w[0] + w[1]) / 2.0).collect()
}

impl Ranged for Ticked {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, v: &f64, limit: (i32, i32)) -> i32 {
        self.inner.map(v, limit)
    }

    fn key_points<H: KeyPointHint>(&self, hint: H) -> Vec<f64> {
        if hint.weight().allow_light_points() {
            self.light.clone()
        } else {
            self.ticks.clone()
        }
    }

    fn range(&self) -> Range<f64> {
        self.inner.range()
    }
}
