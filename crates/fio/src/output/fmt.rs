//! Number, time and percentage formatting shared by the fio-compatible outputs.

use std::fmt::Write as _;

/// Unit suffix appended by [`num2str`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    None,
    PerSec,
    Byte,
    BytePerSec,
}

impl Unit {
    fn suffix(self) -> &'static str {
        match self {
            Unit::None => "",
            Unit::PerSec => "/s",
            Unit::Byte => "B",
            Unit::BytePerSec => "B/s",
        }
    }
}

fn digits(n: u64) -> usize {
    let mut d = 1;
    let mut v = n;
    while v >= 10 {
        v /= 10;
        d += 1;
    }
    d
}

/// fio's human number scaling: divide by 1000 (SI) or 1024 (IEC, `pow2`) until the integer part
/// has at most `maxlen` digits, then fill the remaining width with decimals
/// (`94123` -> `94.1k`, `67108864` B -> `64.0MiB`, `132600` -> `133k`).
pub fn num2str(num: u64, maxlen: usize, pow2: bool, unit: Unit) -> String {
    const SI: [&str; 7] = ["", "k", "M", "G", "T", "P", "E"];
    const IEC: [&str; 7] = ["", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"];
    let step: u64 = if pow2 { 1024 } else { 1000 };
    let prefixes = if pow2 { &IEC } else { &SI };
    let mut n = num;
    let mut level = 0usize;
    let mut rem: Option<u64> = None;
    while level + 1 < prefixes.len() && digits(n) > maxlen {
        rem = Some(n % step);
        n /= step;
        level += 1;
    }
    let tail = format!("{}{}", prefixes[level], unit.suffix());
    let Some(rem) = rem else {
        return format!("{n}{tail}");
    };
    let room = maxlen.saturating_sub(digits(n));
    if room <= 1 {
        if rem >= step / 2 {
            n += 1;
        }
        return format!("{n}{tail}");
    }
    let frac = format!("{:.*}", room - 1, rem as f64 / step as f64);
    // frac is "0.xx" (or "1.xx" when it rounds up; fio keeps the digits after the point)
    let decimals = frac.get(2..).unwrap_or("");
    format!("{n}.{decimals}{tail}")
}

/// `%f`-style float (6 decimals); non-finite values print as 0 so JSON stays valid.
pub fn f6(x: f64) -> String {
    fixed(x, 6)
}

/// A float with `decimals` digits after the point (non-finite values print as 0).
pub fn fixed(x: f64, decimals: usize) -> String {
    let x = if x.is_finite() { x } else { 0.0 };
    format!("{x:.decimals$}")
}

/// fio's percentile key: `%f` of the percentile (`99.990000`).
pub fn pct_key(p: f64) -> String {
    f6(p)
}

/// Number of decimals needed to print every percentile of the list exactly (fio's
/// `percentile_precision`), at most 6.
pub fn percentile_precision(list: &[f64]) -> usize {
    let mut prec = 0;
    for &p in list {
        let mut d = 0;
        while d < 6 {
            let scaled = p * 10f64.powi(d as i32);
            if (scaled - scaled.round()).abs() < 1e-6 * scaled.abs().max(1.0) {
                break;
            }
            d += 1;
        }
        prec = prec.max(d);
    }
    prec
}

/// Percent distribution of `counts` over `total` with fio's rule that a non-zero count never
/// shows below 0.1 %.
pub fn depth_dist(counts: &[u64; 7], total: u64) -> [f64; 7] {
    let mut out = [0.0; 7];
    if total == 0 {
        return out;
    }
    for (o, &c) in out.iter_mut().zip(counts.iter()) {
        let v = c as f64 * 100.0 / total as f64;
        *o = if c > 0 && v < 0.1 { 0.1 } else { v };
    }
    out
}

/// fio's floor for latency-bucket percentages: a non-zero share never shows below 0.01 %.
pub fn lat_floor(v: f64) -> f64 {
    if v > 0.0 && v < 0.01 {
        0.01
    } else {
        v
    }
}

/// Broken-down local time: (weekday 0=Sun, month 0=Jan, mday, hour, min, sec, year).
fn local_tm(unix_secs: i64) -> (usize, usize, i32, i32, i32, i32, i32) {
    // SAFETY: localtime_r only writes the provided struct; a zeroed tm is a valid initial value.
    unsafe {
        let t: libc::time_t = unix_secs as libc::time_t;
        let mut tm: libc::tm = std::mem::zeroed();
        if libc::localtime_r(&t, &mut tm).is_null() {
            return (4, 0, 1, 0, 0, 0, 1970);
        }
        (
            tm.tm_wday.clamp(0, 6) as usize,
            tm.tm_mon.clamp(0, 11) as usize,
            tm.tm_mday,
            tm.tm_hour,
            tm.tm_min,
            tm.tm_sec,
            tm.tm_year + 1900,
        )
    }
}

/// `ctime(3)` layout without the trailing newline: `Sun Nov 22 06:43:06 2026`.
pub fn ctime(unix_secs: i64) -> String {
    const DAYS: [&str; 7] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let (wd, mon, mday, h, m, s, y) = local_tm(unix_secs);
    let mut out = String::with_capacity(24);
    let _ = write!(
        out,
        "{} {}{:3} {:02}:{:02}:{:02} {}",
        DAYS[wd], MONTHS[mon], mday, h, m, s, y
    );
    out
}

/// Scale of a latency figure for the normal output: (divisor, unit name).
/// fio switches to usec when min > 2 µs, max > 99.999 µs and stddev > 1 µs, and to msec at the
/// same thresholds times 1000.
pub fn lat_scale(min: u64, max: u64, dev: f64) -> (u64, &'static str) {
    if min > 2_000_000 && max > 99_999_999 && dev > 1_000_000.0 {
        (1_000_000, "msec")
    } else if min > 2000 && max > 99_999 && dev > 1000.0 {
        (1000, "usec")
    } else {
        (1, "nsec")
    }
}

/// Scale of a percentile table: based on the smallest and largest reported percentile.
pub fn pct_scale(minv: u64, maxv: u64) -> (u32, &'static str) {
    if minv > 2_000_000 && maxv > 99_999_999 {
        (2, "msec")
    } else if minv > 2000 && maxv > 99_999 {
        (1, "usec")
    } else {
        (0, "nsec")
    }
}

/// JSON string literal with escapes.
pub fn json_str(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Labels of the nanosecond latency buckets (`latency_ns` keys, `lat (nsec)` line), one per
/// threshold of `iomark_engine::hist::LAT_THRESHOLDS`.
pub const LAT_NS_LABELS: [&str; 10] = [
    "2", "4", "10", "20", "50", "100", "250", "500", "750", "1000",
];
/// Labels of the microsecond latency buckets (`latency_us` keys, `lat (usec)` line).
pub const LAT_US_LABELS: [&str; 10] = LAT_NS_LABELS;
/// Labels of the millisecond latency buckets (`latency_ms` keys, `lat (msec)` line): one per
/// threshold of `iomark_engine::hist::LAT_MS_THRESHOLDS`, then the bucket of everything above.
pub const LAT_MS_LABELS: [&str; 12] = [
    "2", "4", "10", "20", "50", "100", "250", "500", "750", "1000", "2000", ">=2000",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn num2str_matches_fio_samples() {
        // values taken from fio 3.33 outputs
        assert_eq!(num2str(94_123, 4, false, Unit::None), "94.1k");
        assert_eq!(num2str(387, 4, false, Unit::None), "387");
        assert_eq!(num2str(8016, 4, false, Unit::None), "8016");
        assert_eq!(num2str(67_108_864, 4, true, Unit::Byte), "64.0MiB");
        assert_eq!(num2str(67_108_864, 4, false, Unit::Byte), "67.1MB");
        assert_eq!(num2str(4_071_424, 4, true, Unit::Byte), "3976KiB");
        assert_eq!(num2str(4_071_424, 4, false, Unit::Byte), "4071kB");
        assert_eq!(num2str(32_834_064, 4, true, Unit::BytePerSec), "31.3MiB/s");
        assert_eq!(num2str(32_834_064, 4, false, Unit::BytePerSec), "32.8MB/s");
        assert_eq!(num2str(8_319_000, 4, true, Unit::BytePerSec), "8124KiB/s");
        assert_eq!(num2str(4096, 4, true, Unit::Byte), "4096B");
        assert_eq!(num2str(65536, 4, true, Unit::Byte), "64.0KiB");
        assert_eq!(num2str(1_048_576, 4, true, Unit::Byte), "1024KiB");
        assert_eq!(num2str(0, 4, true, Unit::BytePerSec), "0B/s");
        // min/max of latency lines use 6 digits
        assert_eq!(num2str(7_976_012, 6, false, Unit::None), "7976.0k");
        assert_eq!(num2str(260, 6, false, Unit::None), "260");
        assert_eq!(num2str(15_316_400, 6, false, Unit::None), "15316k");
        assert_eq!(num2str(15_316_600, 6, false, Unit::None), "15317k");
    }

    #[test]
    fn precision_from_list() {
        assert_eq!(percentile_precision(&[1.0, 50.0, 99.0]), 0);
        assert_eq!(percentile_precision(&[1.0, 50.0, 99.5]), 1);
        assert_eq!(
            percentile_precision(&iomark_engine::job::DEFAULT_PERCENTILES),
            2
        );
        assert_eq!(percentile_precision(&[99.9999]), 4);
    }

    #[test]
    fn dist_floors_small_values() {
        let d = depth_dist(&[1, 0, 0, 9999, 0, 0, 0], 10000);
        assert_eq!(d[0], 0.1);
        assert!((d[3] - 99.99).abs() < 1e-9);
        assert_eq!(depth_dist(&[5; 7], 0), [0.0; 7]);
        assert_eq!(lat_floor(0.001), 0.01);
        assert_eq!(lat_floor(0.0), 0.0);
    }

    #[test]
    fn scales_follow_fio_rules() {
        assert_eq!(lat_scale(2194, 28373, 1221.97).1, "nsec");
        assert_eq!(lat_scale(48_000, 1_221_000, 38_130.0).1, "usec");
        assert_eq!(lat_scale(150, 15_316_000, 119_448.0).1, "nsec");
        assert_eq!(lat_scale(4_323_000, 41_040_000, 9_429_930.0).1, "usec");
        assert_eq!(lat_scale(4_323_000, 141_040_000, 9_429_930.0).1, "msec");
        assert_eq!(pct_scale(832_000, 1_172_000).1, "usec");
        assert_eq!(pct_scale(55_040, 55_552).1, "nsec");
    }

    #[test]
    fn ctime_layout() {
        let s = ctime(1_795_329_786);
        assert_eq!(s.len(), 24, "{s}");
        assert!(s.ends_with(" 2026"), "{s}");
        assert_eq!(&s[3..4], " ");
    }

    #[test]
    fn json_escapes() {
        let s = json_str("a\"b\\c\nd\u{1}é");
        let back: String = serde_json::from_str(&s).unwrap();
        assert_eq!(back, "a\"b\\c\nd\u{1}é");
    }

    #[test]
    fn labels_name_the_engine_thresholds() {
        use iomark_engine::hist::{LAT_MS_THRESHOLDS, LAT_THRESHOLDS};
        for (l, t) in LAT_NS_LABELS.iter().zip(LAT_THRESHOLDS) {
            assert_eq!(*l, t.to_string());
        }
        for (l, t) in LAT_MS_LABELS.iter().zip(LAT_MS_THRESHOLDS) {
            assert_eq!(*l, t.to_string());
        }
        assert_eq!(LAT_MS_LABELS[11], ">=2000");
        assert_eq!(LAT_US_LABELS[7], "500");
    }
}
