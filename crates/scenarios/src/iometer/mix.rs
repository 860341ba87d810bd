//! How a spec runs: as a plain job shape when the job's own fields express it exactly (see
//! [`super::spec::shape`]), else as an access mix in the job model, which the engine follows
//! per I/O as Iometer does: a line by weight for every burst (after its transfer delay), then
//! the direction by the line's % read and random or sequential by its % random, at the line's
//! size and alignment; a sequential I/O continues where the worker's previous I/O ended.

use super::shape::{split, Shape, Sizes};
use super::spec::{shape, Line};
use iomark_engine::job::{AccessLine, AccessMix, RwMode};

/// The job's shape and, when the shape is only the job's outline, the access mix the engine
/// follows instead.
#[derive(Clone, Debug, PartialEq)]
pub struct Translation {
    pub shape: Shape,
    pub mix: Option<AccessMix>,
}

/// The translation of `lines` (at least one).
pub fn translate(lines: &[Line]) -> Translation {
    if let Some(shape) = shape(lines) {
        return Translation { shape, mix: None };
    }
    // Alignment 0 is Iometer's "sector boundaries": the smallest transfer size of the spec,
    // which direct I/O accepts wherever the sizes themselves are valid.
    let min = lines.iter().map(|l| l.size).min().unwrap_or(512);
    let mix = AccessMix {
        lines: lines
            .iter()
            .map(|l| AccessLine {
                weight: l.weight,
                size: l.size,
                read_pct: l.read_pct,
                random_pct: l.random_pct,
                align: if l.align > 0 { l.align } else { min },
                delay_ns: l.delay_ms.saturating_mul(1_000_000),
                burst: u32::try_from(l.burst.max(1)).unwrap_or(u32::MAX),
            })
            .collect(),
    };
    // The outline: the directions used, the read share and the sizes by weight (what the job
    // header shows and what the buffers are sized for).
    let rw = match (mix.reads(), mix.writes()) {
        (true, true) => RwMode::RandRw,
        (true, false) => RwMode::RandRead,
        _ => RwMode::RandWrite,
    };
    let rwmixread = (rw == RwMode::RandRw).then(|| {
        let total: f64 = lines.iter().map(|l| f64::from(l.weight)).sum();
        let read: f64 = lines
            .iter()
            .map(|l| f64::from(l.weight) * f64::from(l.read_pct))
            .sum::<f64>()
            / total;
        read.round() as u32
    });
    let mut parts: Vec<(u64, f64)> = Vec::new();
    for l in lines {
        match parts.iter_mut().find(|p| p.0 == l.size) {
            Some(p) => p.1 += f64::from(l.weight),
            None => parts.push((l.size, f64::from(l.weight))),
        }
    }
    let sizes = if parts.len() == 1 {
        Sizes::One(parts[0].0)
    } else {
        let s = split(&parts);
        Sizes::Split([s.clone(), s])
    };
    Translation {
        shape: Shape {
            rw,
            rwmixread,
            sizes,
            align: None,
            norandommap: true,
        },
        mix: Some(mix),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::iometer::spec::parse;

    #[test]
    fn exact_specs_stay_plain_options_and_others_become_a_mix() {
        assert!(translate(&parse("file-server").unwrap()).mix.is_none());
        assert!(translate(&parse("4k,100,0@3 64k,100,0@1").unwrap())
            .mix
            .is_none());
        // Partly random, sequential lines beside random ones, a delay: a mix.
        let t = translate(&parse("workstation").unwrap());
        let m = t.mix.unwrap();
        assert_eq!((m.lines[0].random_pct, m.lines[0].align), (80, 8192));
        assert_eq!(t.shape.rwmixread, Some(80));
        let t = translate(&parse("4k,100,100@75;64k,100,0@25").unwrap());
        let m = t.mix.unwrap();
        assert_eq!(m.lines.len(), 2);
        assert_eq!((m.lines[1].size, m.lines[1].align), (65536, 4096));
        assert_eq!(t.shape.rw, RwMode::RandRead);
        let s = vec![(4096, 75), (65536, 25)];
        assert_eq!(t.shape.sizes, Sizes::Split([s.clone(), s]));
        assert!(t
            .shape
            .shown()
            .contains(&("bssplit".into(), "4096/75:65536/25".into())));
        let m = translate(&parse("4k,50,100,4k,5,2").unwrap()).mix.unwrap();
        assert_eq!((m.lines[0].delay_ns, m.lines[0].burst), (5_000_000, 2));
        let t = translate(&parse("64k,0,0,64k").unwrap());
        assert_eq!(t.shape.rw, RwMode::RandWrite);
        assert_eq!(t.mix.unwrap().lines[0].align, 65536);
    }
}
