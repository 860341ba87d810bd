//! Jobs as a quick run records them, for the tests of the grid's table and image.

use crate::model::{DirFigures, Headline, Job, Lat};

/// Job `name` with one direction `dir` at `iops` and `bw` bytes/s, mean latency 2.5 µs.
pub fn job(name: &str, dir: &'static str, iops: f64, bw: f64) -> Job {
    Job {
        name: name.into(),
        dirs: vec![DirFigures {
            dir,
            reps: vec![Headline {
                iops,
                bw,
                ..Default::default()
            }],
            lat: Some(Lat {
                n: 1,
                mean_ns: 2_500.0,
                ..Default::default()
            }),
            ..Default::default()
        }],
        ..Default::default()
    }
}
