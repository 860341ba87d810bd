//! Exact percentile rank comparison.

/// Exact test `100 * cum >= p * n` for a finite `p` in `[0, 100]`, on the exact binary value
/// of `p` (what fio's extended-precision comparison approximates).
pub(super) fn reaches(cum: u64, n: u64, p: f64) -> bool {
    if p <= 0.0 {
        return true;
    }
    // p = m * 2^e exactly, m odd.
    let bits = p.to_bits();
    let exp_field = ((bits >> 52) & 0x7ff) as i32;
    let frac = bits & ((1u64 << 52) - 1);
    let (mut m, mut e) = if exp_field == 0 {
        (frac, -1074)
    } else {
        (frac | (1u64 << 52), exp_field - 1075)
    };
    let tz = m.trailing_zeros();
    m >>= tz;
    e += tz as i32;
    let lhs = 100u128 * cum as u128; // < 2^71
    let rhs = m as u128 * n as u128; // < 2^117
    if e >= 0 {
        // p <= 100 and m odd give e <= 6.
        lhs >= rhs << e as u32
    } else {
        let s = (-e) as u32;
        let need = if s >= 128 {
            (rhs != 0) as u128
        } else {
            (rhs >> s) + ((rhs & ((1u128 << s) - 1)) != 0) as u128
        };
        lhs >= need
    }
}

pub(super) fn clamp_pct(p: f64) -> f64 {
    if p.is_nan() || p <= 0.0 {
        0.0
    } else if p >= 100.0 {
        100.0
    } else {
        p
    }
}
