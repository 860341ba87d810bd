//! Sweep axes: `--OPTION=a,b,c` or a range `--OPTION=1..256x2` (multiply) / `1..64+8` (add),
//! their cross product in a stated order, and the refusals (empty items, zeros, absurd sizes).

/// The most points a sweep may have.
pub const MAX_POINTS: u64 = 10_000;

/// One swept option and its values, in order.
#[derive(Clone, Debug, PartialEq)]
pub struct Axis {
    pub option: String,
    pub values: Vec<String>,
}

/// A sweep that cannot run.
#[derive(Debug, PartialEq, thiserror::Error)]
pub enum AxisError {
    #[error("sweep: --{option}: empty item in {q_value}", q_value = iomark_output::echo::quote(.value))]
    Empty { option: String, value: String },
    #[error("sweep: --{option}: 0 is not a useful value in {q_value}", q_value = iomark_output::echo::quote(.value))]
    Zero { option: String, value: String },
    #[error("sweep: --{option}={value}: {reason}")]
    BadRange {
        option: String,
        value: String,
        reason: String,
    },
    #[error("sweep: {count} points ({product}) is more than {MAX_POINTS}; sweep fewer values")]
    TooMany { count: u64, product: String },
    #[error("sweep: nothing to sweep (give at least one option with several values, e.g. --iodepth=1,4,16)")]
    NoAxis,
}

/// Options for which 0 makes no sense.
fn positive_only(option: &str) -> bool {
    matches!(
        option,
        "bs" | "blocksize" | "iodepth" | "numjobs" | "size" | "runtime" | "nrfiles" | "io_size"
    )
}

fn is_zero(v: &str) -> bool {
    let t = v.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    !t.is_empty() && t.chars().all(|c| c == '0')
}

/// A range `A..BxF` (multiply by F, default 2) or `A..B+S` (add S); plain numbers only.
fn range(option: &str, v: &str) -> Result<Option<Vec<String>>, AxisError> {
    let Some((a, rest)) = v.split_once("..") else {
        return Ok(None);
    };
    let bad = |reason: &str| AxisError::BadRange {
        option: option.to_string(),
        value: v.to_string(),
        reason: reason.to_string(),
    };
    let (b, step, mul) = if let Some((b, f)) = rest.split_once('x') {
        (b, f, true)
    } else if let Some((b, s)) = rest.split_once('+') {
        (b, s, false)
    } else {
        (rest, "2", true)
    };
    let num = |s: &str| {
        s.trim()
            .parse::<u64>()
            .map_err(|_| bad("expected numbers: A..BxF or A..B+S"))
    };
    let (a, b, step) = (num(a)?, num(b)?, num(step)?);
    if a == 0 && positive_only(option) {
        return Err(AxisError::Zero {
            option: option.to_string(),
            value: v.to_string(),
        });
    }
    if a > b {
        return Err(bad("the start is past the end"));
    }
    if (mul && (step < 2 || a == 0)) || (!mul && step == 0) {
        return Err(bad("the step would never reach the end"));
    }
    let mut out = Vec::new();
    let mut x = a;
    while x <= b {
        out.push(x.to_string());
        if out.len() as u64 > MAX_POINTS {
            break;
        }
        x = if mul {
            x.saturating_mul(step)
        } else {
            x.saturating_add(step)
        };
        if x == u64::MAX {
            break;
        }
    }
    Ok(Some(out))
}

/// The axis of `--option=value`: a comma list or a range.
pub fn parse_axis(option: &str, value: &str) -> Result<Axis, AxisError> {
    let mut values = Vec::new();
    for item in value.split(',') {
        let item = item.trim();
        if item.is_empty() {
            return Err(AxisError::Empty {
                option: option.to_string(),
                value: value.to_string(),
            });
        }
        match range(option, item)? {
            Some(r) => values.extend(r),
            None => {
                if positive_only(option) && is_zero(item) {
                    return Err(AxisError::Zero {
                        option: option.to_string(),
                        value: value.to_string(),
                    });
                }
                values.push(item.to_string());
            }
        }
    }
    Ok(Axis {
        option: option.to_string(),
        values,
    })
}

/// Every point of the cross product, first axis slowest and last fastest; each point is one
/// value per axis, in axis order. Refuses more than [`MAX_POINTS`], naming the count.
pub fn points(axes: &[Axis]) -> Result<Vec<Vec<String>>, AxisError> {
    if axes.is_empty() {
        return Err(AxisError::NoAxis);
    }
    let count = axes
        .iter()
        .fold(1u64, |n, a| n.saturating_mul(a.values.len() as u64));
    if count > MAX_POINTS {
        return Err(AxisError::TooMany {
            count,
            product: axes
                .iter()
                .map(|a| format!("{} {}", a.values.len(), a.option))
                .collect::<Vec<_>>()
                .join(" x "),
        });
    }
    let mut out: Vec<Vec<String>> = vec![Vec::new()];
    for a in axes {
        out = out
            .into_iter()
            .flat_map(|p| {
                a.values.iter().map(move |v| {
                    let mut q = p.clone();
                    q.push(v.clone());
                    q
                })
            })
            .collect();
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_and_ranges() {
        assert_eq!(
            parse_axis("bs", "4k,64k,1m").unwrap().values,
            ["4k", "64k", "1m"]
        );
        assert_eq!(
            parse_axis("iodepth", "1..256x2").unwrap().values,
            ["1", "2", "4", "8", "16", "32", "64", "128", "256"]
        );
        assert_eq!(
            parse_axis("iodepth", "1..256x4").unwrap().values,
            ["1", "4", "16", "64", "256"]
        );
        assert_eq!(
            parse_axis("rwmixread", "0..100+25").unwrap().values,
            ["0", "25", "50", "75", "100"]
        );
        assert_eq!(
            parse_axis("iodepth", "1,8..32").unwrap().values,
            ["1", "8", "16", "32"]
        );
    }

    #[test]
    fn cross_product_size_and_order() {
        let axes = [
            parse_axis("bs", "4k,64k,1m").unwrap(),
            parse_axis("iodepth", "1,4,16,64").unwrap(),
            parse_axis("numjobs", "1,4").unwrap(),
            parse_axis("rw", "randread,randwrite").unwrap(),
        ];
        let p = points(&axes).unwrap();
        assert_eq!(p.len(), 3 * 4 * 2 * 2);
        assert_eq!(p[0], ["4k", "1", "1", "randread"]);
        assert_eq!(p[1], ["4k", "1", "1", "randwrite"]);
        assert_eq!(p[2], ["4k", "1", "4", "randread"]);
        assert_eq!(p[47], ["1m", "64", "4", "randwrite"]);
    }

    #[test]
    fn refusals() {
        let e = |o: &str, v: &str| parse_axis(o, v).unwrap_err().to_string();
        assert_eq!(e("bs", "4k,,8k"), "sweep: --bs: empty item in '4k,,8k'");
        assert_eq!(
            e("iodepth", "0,1"),
            "sweep: --iodepth: 0 is not a useful value in '0,1'"
        );
        assert_eq!(
            e("iodepth", "0..8"),
            "sweep: --iodepth: 0 is not a useful value in '0..8'"
        );
        assert!(e("iodepth", "8..1").contains("the start is past the end"));
        assert!(e("iodepth", "1..8x1").contains("never reach the end"));
        let big = [
            parse_axis("iodepth", "1..200+1").unwrap(),
            parse_axis("numjobs", "1..60+1").unwrap(),
        ];
        assert_eq!(
            points(&big).unwrap_err().to_string(),
            "sweep: 12000 points (200 iodepth x 60 numjobs) is more than 10000; sweep fewer values"
        );
        assert_eq!(points(&[]).unwrap_err(), AxisError::NoAxis);
    }
}
