//! How Ceph's tools print numbers: a double as a default C++ stream prints it, and a byte count
//! in binary units as Ceph's `byte_u_t` does (`rbd bench`'s rates).

/// A double as a default C++ stream prints it (`%g` with 6 significant digits: trailing zeros
/// dropped, the exponent form below 1e-4 and from 1e6 after rounding).
pub fn g(x: f64) -> String {
    if x == 0.0 {
        return "0".into();
    }
    if !x.is_finite() {
        return format!("{x}");
    }
    // The exponent after rounding to 6 significant digits (999999.5 prints as 1e+06).
    let s = format!("{x:.5e}");
    let (m, e) = s.split_once('e').unwrap_or((&s, "0"));
    let exp: i32 = e.parse().unwrap_or(0);
    if !(-4..6).contains(&exp) {
        let sign = if exp < 0 { '-' } else { '+' };
        return format!("{}e{sign}{:02}", trim(m), exp.abs());
    }
    let decimals = (5 - exp).max(0) as usize;
    trim(&format!("{x:.decimals$}"))
}

fn trim(s: &str) -> String {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s.to_string()
    }
}

/// A byte count in binary units as Ceph prints it: whole bytes as `N B`; an exact multiple of
/// its unit without decimals (`4 MiB`); else with the most decimals (2, 1 or 0) that keep the
/// text within 7 characters (`9.5 KiB`, `71 MiB`). A rate is truncated to whole bytes first.
pub fn byte_u(bytes: f64) -> String {
    let v = if bytes.is_finite() && bytes > 0.0 {
        bytes as u64
    } else {
        0
    };
    const UNITS: [&str; 7] = [" B", " KiB", " MiB", " GiB", " TiB", " PiB", " EiB"];
    let (mut n, mut index) = (v, 0);
    while n >= 1024 && index < UNITS.len() - 1 {
        n /= 1024;
        index += 1;
    }
    let unit = UNITS[index];
    let mult = 1u64 << (10 * index);
    if index == 0 || v % mult == 0 {
        return format!("{n}{unit}");
    }
    let x = v as f64 / mult as f64;
    for decimals in [2usize, 1] {
        let s = format!("{x:.decimals$}{unit}");
        if s.len() <= 7 {
            return s;
        }
    }
    format!("{x:.0}{unit}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doubles_as_a_cpp_stream_prints_them() {
        assert_eq!(g(312.891_23), "312.891");
        assert_eq!(g(0.000_432_298_1), "0.000432298");
        assert_eq!(g(5.9825e-05), "5.9825e-05");
        assert_eq!(g(2.0), "2");
        assert_eq!(g(0.00072), "0.00072");
        assert_eq!(g(1_234_567.0), "1.23457e+06");
        assert_eq!(g(999_999.7), "1e+06");
        assert_eq!(g(18285.714), "18285.7");
        assert_eq!(g(5072.1), "5072.1");
    }

    /// Figures from Ceph 16's `rbd bench` on a test cluster, and byte_u_t's rules.
    #[test]
    fn bytes_as_ceph_prints_them() {
        // 2048 ops of 4 KiB at 18285.7 ops/s: "71 MiB/s".
        assert_eq!(byte_u(18285.7 * 4096.0), "71 MiB");
        assert_eq!(byte_u(5100.87 * 65536.0), "319 MiB");
        assert_eq!(byte_u(4.0 * 1048576.0), "4 MiB");
        assert_eq!(byte_u(9.5 * 1024.0), "9.5 KiB");
        // Two decimals would take 8 characters: one.
        assert_eq!(byte_u(1.3 * 1024.0), "1.3 KiB");
        assert_eq!(byte_u(1000.0), "1000 B");
        assert_eq!(byte_u(0.0), "0 B");
        assert_eq!(byte_u(3.5 * (1u64 << 30) as f64), "3.5 GiB");
    }
}
