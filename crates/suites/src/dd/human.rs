//! GNU dd's number formats: sizes (`105 MB`, `9.8 GiB`), rates (`14.7 MB/s`, `396 MB/s`) and
//! times (`%g`: `0.264534`, `3.4735e-05`).

const SI: [&str; 9] = ["", "k", "M", "G", "T", "P", "E", "Z", "Y"];
const IEC: [&str; 9] = ["", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei", "Zi", "Yi"];

/// Scale `v` by powers of `base` and format it: one decimal below `decimals_below`, else an
/// integer, rounded to nearest; a value that rounds up to `base` moves to the next prefix.
fn scaled(v: f64, base: f64, prefixes: &[&str; 9], decimals_below: f64) -> String {
    if v < base {
        return format!("{} B", v.round() as u64);
    }
    let mut e = 0;
    let mut x = v;
    while x >= base && e < prefixes.len() - 1 {
        x /= base;
        e += 1;
    }
    // Formatting rounds exact ties to even, as dd does (6.25 MiB prints as 6.2 MiB).
    let one = format!("{x:.1}");
    if one.parse::<f64>().unwrap_or(x) < decimals_below {
        return format!("{one} {}B", prefixes[e]);
    }
    let mut int: f64 = format!("{x:.0}").parse().unwrap_or(x);
    if int >= base && e < prefixes.len() - 1 {
        int = 1.0;
        e += 1;
        return format!("{int:.1} {}B", prefixes[e]);
    }
    format!("{int:.0} {}B", prefixes[e])
}

/// A byte count in SI units as dd prints it (`105 MB`, `3.0 kB`, `512 B`).
pub fn size_si(bytes: u64) -> String {
    scaled(bytes as f64, 1000.0, &SI, 10.0)
}

/// A byte count in IEC units as dd prints it (`100 MiB`, `2.9 KiB`).
pub fn size_iec(bytes: u64) -> String {
    scaled(bytes as f64, 1024.0, &IEC, 10.0)
}

/// A rate in SI units per second as dd prints it: three significant figures below 100
/// (`14.7 MB/s`, `10.0 GB/s`), an integer above (`396 MB/s`).
pub fn rate_si(bytes: u64, secs: f64) -> String {
    if secs <= 0.0 {
        return "Infinity B/s".to_string();
    }
    format!("{}/s", scaled(bytes as f64 / secs, 1000.0, &SI, 100.0))
}

/// C's `%g`: six significant digits, exponent form below 1e-4 or from 1e6.
pub fn g(x: f64) -> String {
    if x == 0.0 {
        return "0".to_string();
    }
    let exp = x.abs().log10().floor() as i32;
    // The exponent after rounding to six significant digits.
    let rounded: f64 = format!("{x:.5e}").parse().unwrap_or(x);
    let exp = if rounded != 0.0 {
        rounded.abs().log10().floor() as i32
    } else {
        exp
    };
    if !(-4..6).contains(&exp) {
        let s = format!("{x:.5e}");
        let (mant, e) = s.split_once('e').unwrap_or((&s, "0"));
        let mant = strip_zeros(mant);
        let e: i32 = e.parse().unwrap_or(0);
        let sign = if e < 0 { '-' } else { '+' };
        return format!("{mant}e{sign}{:02}", e.abs());
    }
    let decimals = (5 - exp).max(0) as usize;
    strip_zeros(&format!("{x:.decimals$}"))
}

fn strip_zeros(s: &str) -> String {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s.to_string()
    }
}

/// dd's summary line: `N bytes (SI, IEC) copied, T s, R/s`, with the parts dd leaves out for
/// small counts (`512 bytes copied`, `1000 bytes (1.0 kB) copied`).
pub fn summary(bytes: u64, secs: f64) -> String {
    let si = size_si(bytes);
    let iec = size_iec(bytes);
    let t = g(secs);
    let rate = rate_si(bytes, secs);
    if bytes < 1000 {
        let noun = if bytes == 1 { "byte" } else { "bytes" };
        format!("{bytes} {noun} copied, {t} s, {rate}")
    } else if bytes < 1024 {
        format!("{bytes} bytes ({si}) copied, {t} s, {rate}")
    } else {
        format!("{bytes} bytes ({si}, {iec}) copied, {t} s, {rate}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_as_gnu_dd_prints_them() {
        assert_eq!(size_si(104857600), "105 MB");
        assert_eq!(size_iec(104857600), "100 MiB");
        assert_eq!(size_si(10737418240), "11 GB");
        assert_eq!(size_iec(10737418240), "10 GiB");
        assert_eq!(size_si(3000), "3.0 kB");
        assert_eq!(size_iec(3000), "2.9 KiB");
        assert_eq!(size_si(268435456), "268 MB");
        assert_eq!(size_si(1000), "1.0 kB");
        assert_eq!(size_iec(10485760000), "9.8 GiB");
        assert_eq!(size_si(10485760000), "10 GB");
        assert_eq!(size_si(999_999), "1.0 MB");
        assert_eq!(size_iec(6553600), "6.2 MiB");
        assert_eq!(size_si(6553600), "6.6 MB");
    }

    #[test]
    fn rates_and_times_as_gnu_dd_prints_them() {
        assert_eq!(rate_si(104857600, 0.264534), "396 MB/s");
        assert_eq!(rate_si(512, 3.4735e-05), "14.7 MB/s");
        assert_eq!(rate_si(10737418240, 1.07822), "10.0 GB/s");
        assert_eq!(rate_si(3000, 5.4032e-05), "55.5 MB/s");
        assert_eq!(rate_si(1, 0.0), "Infinity B/s");
        assert_eq!(g(0.264534), "0.264534");
        assert_eq!(g(3.4735e-05), "3.4735e-05");
        assert_eq!(g(1.07822), "1.07822");
        assert_eq!(g(12.5), "12.5");
        assert_eq!(g(0.001), "0.001");
        assert_eq!(g(1234567.0), "1.23457e+06");
    }

    #[test]
    fn summary_lines_match_gnu_dd() {
        assert_eq!(
            summary(104857600, 0.264534),
            "104857600 bytes (105 MB, 100 MiB) copied, 0.264534 s, 396 MB/s"
        );
        assert_eq!(
            summary(512, 3.4735e-05),
            "512 bytes copied, 3.4735e-05 s, 14.7 MB/s"
        );
        assert_eq!(
            summary(1000, 4.0586e-05),
            "1000 bytes (1.0 kB) copied, 4.0586e-05 s, 24.6 MB/s"
        );
        assert_eq!(
            summary(3000, 5.4032e-05),
            "3000 bytes (3.0 kB, 2.9 KiB) copied, 5.4032e-05 s, 55.5 MB/s"
        );
        assert_eq!(summary(1, 0.5), "1 byte copied, 0.5 s, 2 B/s");
    }
}
