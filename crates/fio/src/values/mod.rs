//! Value parsers for fio option values. Every parser returns a [`ValueError`] on failure; its
//! words name the accepted form so the caller only has to prefix the option name and the value.
mod distribution;
mod error;
mod expr;
mod prio_split;
#[cfg(test)]
mod tests;

pub use distribution::parse_distribution;
pub use error::{Form, Quantity, ValueError, SIZE_FORM};
pub use expr::eval_expr;
use expr::is_expr;
use iomark_engine::job::{PerDir, SizeSpec};
pub use prio_split::parse_prio_split;
use std::time::Duration;

/// The unit a bare number means for a time option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeUnit {
    Us,
    Ms,
    S,
}

impl TimeUnit {
    pub fn name(self) -> &'static str {
        match self {
            TimeUnit::Us => "us",
            TimeUnit::Ms => "ms",
            TimeUnit::S => "s",
        }
    }
    fn micros(self) -> f64 {
        match self {
            TimeUnit::Us => 1.0,
            TimeUnit::Ms => 1e3,
            TimeUnit::S => 1e6,
        }
    }
}

/// Split "123kib" into ("123", "kib"); handles a leading sign, decimals and `0x` hex.
fn split_number(s: &str) -> Result<(f64, &str), ValueError> {
    let t = s.trim();
    if t.is_empty() {
        return Err(ValueError::Empty);
    }
    let (neg, body) = match t.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    if let Some(hex) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        let end = hex
            .find(|c: char| !c.is_ascii_hexdigit())
            .unwrap_or(hex.len());
        if end == 0 {
            return Err(ValueError::NotANumber(s.to_string()));
        }
        let v = u64::from_str_radix(&hex[..end], 16).map_err(|e| ValueError::HexOverflow {
            value: s.to_string(),
            reason: e.to_string(),
        })?;
        let v = v as f64;
        return Ok((if neg { -v } else { v }, &hex[end..]));
    }
    let end = body
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(body.len());
    if end == 0 {
        return Err(ValueError::NotANumber(s.to_string()));
    }
    let v: f64 = body[..end]
        .parse()
        .map_err(|_| ValueError::NotANumber(s.to_string()))?;
    Ok((if neg { -v } else { v }, body[end..].trim()))
}

/// Multiplier for a size suffix. With kb_base=1024 (fio's default) `k`, `kb`, `ki` are powers of
/// 1024 and `kib` is a power of 1000 (fio keeps this inversion for old scripts); with
/// kb_base=1000 `k`, `kb`, `ki` are powers of 1000 and `kib` is a power of 1024.
fn size_mult(suffix: &str, kb_base: u32) -> Option<f64> {
    let s = suffix.to_ascii_lowercase();
    if s.is_empty() || s == "b" {
        return Some(1.0);
    }
    let base: f64 = if kb_base == 1000 { 1000.0 } else { 1024.0 };
    let other: f64 = if kb_base == 1000 { 1024.0 } else { 1000.0 };
    let pow = match s.as_bytes()[0] {
        b'k' => 1,
        b'm' => 2,
        b'g' => 3,
        b't' => 4,
        b'p' => 5,
        _ => return None,
    };
    let rest = &s[1..];
    let mult: f64 = match rest {
        "" | "b" | "i" => base,
        "ib" => other,
        _ => return None,
    };
    Some(mult.powi(pow))
}

fn size_leaf(s: &str, kb_base: u32) -> Result<f64, ValueError> {
    let (v, suf) = split_number(s)?;
    // As fio: what follows the number is a suffix only when it starts with a letter (or `%`);
    // anything else after the digits is ignored (fio's own t/strided.py passes `65536)`).
    if suf
        .chars()
        .next()
        .is_some_and(|c| !c.is_ascii_alphabetic() && c != '%')
    {
        return Ok(v);
    }
    match size_mult(suf, kb_base) {
        Some(m) => Ok(v * m),
        None => Err(ValueError::UnknownSuffix {
            quantity: Quantity::Size,
            suffix: suf.to_string(),
        }),
    }
}

/// Parse a size (`4k`, `1m`, `0x1000`, `64MB`, `(2*4k)`).
pub fn parse_size(s: &str, kb_base: u32) -> Result<u64, ValueError> {
    let t = s.trim();
    let v = if is_expr(t) {
        eval_expr(t, &|leaf| size_leaf(leaf, kb_base))?
    } else {
        size_leaf(t, kb_base).map_err(|e| e.expected(Form::Size))?
    };
    if v < 0.0 {
        return Err(ValueError::NegativeSize);
    }
    // 2^64 as a float: anything at or above it does not fit (a cast would saturate silently).
    if v.round() >= 18_446_744_073_709_551_616.0 {
        return Err(ValueError::SizeTooLarge(s.to_string()));
    }
    Ok(v.round() as u64)
}

/// Parse a signed integer (size suffixes allowed, as fio does for integer options).
pub fn parse_int(s: &str, kb_base: u32) -> Result<i64, ValueError> {
    let t = s.trim();
    let v = if is_expr(t) {
        eval_expr(t, &|leaf| size_leaf(leaf, kb_base))?
    } else {
        size_leaf(t, kb_base).map_err(|e| e.expected(Form::Integer))?
    };
    if v.fract() != 0.0 {
        return Err(ValueError::NotWhole(s.to_string()));
    }
    // ±2^63 as floats: outside, a cast would saturate silently.
    if !(-9_223_372_036_854_775_808.0..9_223_372_036_854_775_808.0).contains(&v) {
        return Err(ValueError::IntTooLarge(s.to_string()));
    }
    Ok(v as i64)
}

/// Parse an unsigned integer.
pub fn parse_uint(s: &str, kb_base: u32) -> Result<u64, ValueError> {
    let v = parse_int(s, kb_base)?;
    if v < 0 {
        return Err(ValueError::Negative(s.to_string()));
    }
    Ok(v as u64)
}

/// `size=50%` or a size.
pub fn parse_size_or_percent(s: &str, kb_base: u32) -> Result<SizeSpec, ValueError> {
    let t = s.trim();
    // `100%%` (a template's escaped percent sign) is 100 percent, as fio reads it.
    if let Some(p) = t.strip_suffix('%').map(|p| p.trim_end_matches('%')) {
        let v: f64 = p
            .trim()
            .parse()
            .map_err(|_| ValueError::NotAPercentage(s.to_string()))?;
        if !(0.0..=100.0).contains(&v) {
            return Err(ValueError::PercentOutOfRange(s.to_string()));
        }
        return Ok(SizeSpec::Percent(v));
    }
    Ok(SizeSpec::Bytes(parse_size(t, kb_base)?))
}

fn time_mult(suffix: &str) -> Option<f64> {
    Some(match suffix.to_ascii_lowercase().as_str() {
        "ns" | "nsec" => 1e-3,
        "us" | "usec" => 1.0,
        "ms" | "msec" => 1e3,
        "s" | "sec" => 1e6,
        "m" | "min" => 60e6,
        "h" => 3600e6,
        "d" => 86400e6,
        _ => return None,
    })
}

fn time_leaf_us(s: &str, unit: TimeUnit) -> Result<f64, ValueError> {
    let (v, suf) = split_number(s)?;
    if suf.is_empty() {
        return Ok(v * unit.micros());
    }
    match time_mult(suf) {
        Some(m) => Ok(v * m),
        None => Err(ValueError::UnknownSuffix {
            quantity: Quantity::Time,
            suffix: suf.to_string(),
        }),
    }
}

/// Parse a time: `600s`, `1m`, `500ms`, `100us`, `2h`, `1d`; a bare number is in `unit`.
/// Inside an expression `(...)` a bare number is in microseconds, as in fio.
pub fn parse_time(s: &str, unit: TimeUnit) -> Result<Duration, ValueError> {
    let t = s.trim();
    let us = if is_expr(t) {
        eval_expr(t, &|leaf| time_leaf_us(leaf, TimeUnit::Us))?
    } else {
        time_leaf_us(t, unit).map_err(|e| e.expected(Form::Time(unit)))?
    };
    if us < 0.0 {
        return Err(ValueError::NegativeTime(s.to_string()));
    }
    Ok(Duration::from_nanos((us * 1000.0).round() as u64))
}

/// `startdelay=10s` or a range `5s-20s`.
pub fn parse_time_range(s: &str, unit: TimeUnit) -> Result<(Duration, Duration), ValueError> {
    let t = s.trim();
    if !is_expr(t) {
        if let Some((a, b)) = t.split_once(['-', ':']) {
            let (a, b) = (parse_time(a, unit)?, parse_time(b, unit)?);
            return Ok(if a <= b { (a, b) } else { (b, a) });
        }
    }
    let d = parse_time(t, unit)?;
    Ok((d, d))
}

/// 0/1/true/false/yes/no/on/off.
pub fn parse_bool(s: &str) -> Result<bool, ValueError> {
    match s.trim().to_ascii_lowercase().as_str() {
        "1" | "true" | "yes" | "on" => Ok(true),
        "0" | "false" | "no" | "off" => Ok(false),
        _ => Err(ValueError::NotABoolean(s.to_string())),
    }
}

pub fn parse_float(s: &str) -> Result<f64, ValueError> {
    let t = s.trim();
    if is_expr(t) {
        return eval_expr(t, &|leaf| {
            leaf.parse::<f64>()
                .map_err(|_| ValueError::NotANumber(leaf.to_string()))
        });
    }
    t.parse::<f64>()
        .ok()
        .filter(|v| v.is_finite())
        .ok_or_else(|| ValueError::NotANumber(s.to_string()).expected(Form::Decimal))
}

/// Split a per-direction list (`8k,32k`, `,8k`, `8k,32k,`) into read/write/trim entries.
/// `None` leaves that direction unchanged. One entry applies to all three directions; missing
/// trailing entries repeat the last one given (an empty last entry repeats as "unchanged").
pub fn split_per_dir(s: &str) -> Result<PerDir<Option<&str>>, ValueError> {
    let parts: Vec<&str> = s.split(',').map(str::trim).collect();
    if parts.len() > 3 {
        return Err(ValueError::TooManyDirections(s.to_string()));
    }
    let get = |i: usize| -> Option<&str> {
        let p = parts.get(i).copied().unwrap_or(parts[parts.len() - 1]);
        if p.is_empty() {
            None
        } else {
            Some(p)
        }
    };
    Ok(PerDir {
        read: get(0),
        write: get(1),
        trim: get(2),
    })
}

/// A per-direction list, each entry parsed with `f` (whose errors may say more than a
/// [`ValueError`]: an option's own rule).
pub fn parse_per_dir<T, E: From<ValueError>>(
    s: &str,
    mut f: impl FnMut(&str) -> Result<T, E>,
) -> Result<PerDir<Option<T>>, E> {
    let parts = split_per_dir(s)?;
    let mut conv = |p: Option<&str>| p.map(&mut f).transpose();
    Ok(PerDir {
        read: conv(parts.read)?,
        write: conv(parts.write)?,
        trim: conv(parts.trim)?,
    })
}

/// `4k-64k` or `4k:64k` (swapped when reversed); a single value gives (v, v).
///
/// Read as fio reads a range: split at the first `-`, or at the first `:` when there is no
/// `-`; each end is a size, and whatever follows a separator (`/`, `:`, `-`, `,`) after its
/// number and suffix is ignored, so `512/25:1k:25:2k:25:4k/25` (a bssplit given to bsrange)
/// is the range 512-1k, as in fio.
pub fn parse_size_range(s: &str, kb_base: u32) -> Result<(u64, u64), ValueError> {
    let t = s.trim();
    let split = if is_expr(t) {
        None
    } else {
        t.split_once('-').or_else(|| t.split_once(':'))
    };
    match split {
        Some((a, b)) => {
            let (a, b) = (range_end(a, kb_base)?, range_end(b, kb_base)?);
            Ok(if a <= b { (a, b) } else { (b, a) })
        }
        None => {
            let v = parse_size(t, kb_base).map_err(|e| e.expected(Form::SizeOrRange))?;
            Ok((v, v))
        }
    }
}

/// One end of a range: a size, or (as fio reads it) the size before the first separator.
fn range_end(s: &str, kb_base: u32) -> Result<u64, ValueError> {
    parse_size(s, kb_base).or_else(|e| match s.find(['/', ':', '-', ',']) {
        Some(i) if i > 0 && !is_expr(s.trim()) => parse_size(&s[..i], kb_base),
        _ => Err(e),
    })
}

/// One direction of `bssplit`: `4k/10:64k/50:32k/40`. A blank (or zero) percentage shares the
/// remainder evenly; the result sums to 100.
pub fn parse_bssplit_list(s: &str, kb_base: u32) -> Result<Vec<(u64, u32)>, ValueError> {
    let mut entries: Vec<(u64, Option<u32>)> = Vec::new();
    for item in s.split(':') {
        let item = item.trim();
        if item.is_empty() {
            return Err(ValueError::EmptyEntry(s.to_string()));
        }
        let (size, pct) = match item.split_once('/') {
            Some((a, b)) => (a, b.trim()),
            None => (item, ""),
        };
        let size = parse_size(size, kb_base).map_err(|e| e.in_item(item))?;
        if size == 0 {
            return Err(ValueError::ZeroBlockSize(item.to_string()));
        }
        let pct = if pct.is_empty() {
            None
        } else {
            let p: u32 = pct.parse().map_err(|_| ValueError::NotAWholePercentage {
                item: item.to_string(),
                pct: pct.to_string(),
            })?;
            if p == 0 {
                None
            } else {
                Some(p)
            }
        };
        entries.push((size, pct));
    }
    if entries.len() > 64 {
        return Err(ValueError::TooManyEntries(s.to_string()));
    }
    let given: u32 = entries.iter().filter_map(|e| e.1).sum();
    let blanks = entries.iter().filter(|e| e.1.is_none()).count() as u32;
    if given > 100 {
        return Err(ValueError::SplitOver100 {
            value: s.to_string(),
            given,
        });
    }
    if blanks == 0 {
        if given != 100 {
            return Err(ValueError::SplitNot100 {
                value: s.to_string(),
                given,
            });
        }
        return Ok(entries
            .into_iter()
            .map(|(b, p)| (b, p.unwrap_or(0)))
            .collect());
    }
    let rest = 100 - given;
    let share = rest / blanks;
    let mut extra = rest % blanks;
    Ok(entries
        .into_iter()
        .map(|(b, p)| match p {
            Some(p) => (b, p),
            None => {
                let bonus = if extra > 0 {
                    extra -= 1;
                    1
                } else {
                    0
                };
                (b, share + bonus)
            }
        })
        .collect())
}

/// One direction's block-size split: (size, percent) pairs.
pub type Split = Vec<(u64, u32)>;

/// Per-direction `bssplit`: `4k/10:64k/90,8k/100`.
pub fn parse_bssplit(s: &str, kb_base: u32) -> Result<PerDir<Option<Split>>, ValueError> {
    parse_per_dir(s, |p| parse_bssplit_list(p, kb_base))
}

/// `99:99.9:99.99` (at most `max` values, each in (0, 100] when `percent`).
pub fn parse_float_list(s: &str, max: usize, percent: bool) -> Result<Vec<f64>, ValueError> {
    let mut out = Vec::new();
    for p in s.split(':') {
        let p = p.trim();
        if p.is_empty() {
            continue;
        }
        let v: f64 = p
            .parse()
            .map_err(|_| ValueError::NotANumber(p.to_string()).expected(Form::FloatList))?;
        if percent && !(v > 0.0 && v <= 100.0) {
            return Err(ValueError::NotAPercentile(p.to_string()));
        }
        out.push(v);
    }
    if out.is_empty() {
        return Err(ValueError::EmptyList);
    }
    if out.len() > max {
        return Err(ValueError::TooManyValues {
            given: out.len(),
            max,
        });
    }
    Ok(out)
}

/// `0,5,8-15` (sorted, without duplicates).
pub fn parse_cpu_list(s: &str) -> Result<Vec<usize>, ValueError> {
    let mut out = Vec::new();
    for p in s.split(',') {
        let p = p.trim();
        if p.is_empty() {
            continue;
        }
        let num = |x: &str| -> Result<usize, ValueError> {
            x.trim()
                .parse::<usize>()
                .map_err(|_| ValueError::NotACpu(x.to_string()))
        };
        match p.split_once('-') {
            Some((a, b)) => {
                let (a, b) = (num(a)?, num(b)?);
                if a > b {
                    return Err(ValueError::CpuRangeReversed(p.to_string()));
                }
                if b - a > 65536 {
                    return Err(ValueError::CpuRangeTooLarge(p.to_string()));
                }
                out.extend(a..=b);
            }
            None => out.push(num(p)?),
        }
    }
    if out.is_empty() {
        return Err(ValueError::EmptyCpuList);
    }
    out.sort_unstable();
    out.dedup();
    Ok(out)
}

/// `:`-separated paths, with `\:` standing for a literal colon.
pub fn parse_path_list(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' && chars.peek() == Some(&':') {
            cur.push(':');
            chars.next();
        } else if c == ':' {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
        } else {
            cur.push(c);
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// The longest pattern fio keeps (its `MAX_PATTERN_SIZE`); a pattern file is read up to it.
pub const MAX_PATTERN: usize = 512;

/// `buffer_pattern`: `0xdeadbeef` (bytes as written), `"text"`, a decimal number (its bytes,
/// least significant first), `'file'` (the file's first bytes), or several of these one after
/// another. `%o` is refused here (see [`parse_pattern_fmt`]).
pub fn parse_pattern(s: &str) -> Result<Vec<u8>, ValueError> {
    let (bytes, offsets) = parse_pattern_fmt(s)?;
    if !offsets.is_empty() {
        return Err(ValueError::OffsetInPattern(s.to_string()));
    }
    Ok(bytes)
}

/// A pattern as [`parse_pattern`] reads it, where `%o` also stands for the offset of each I/O:
/// 8 bytes (little-endian, cut short at the pattern's end) whose positions are returned.
pub fn parse_pattern_fmt(s: &str) -> Result<(Vec<u8>, Vec<usize>), ValueError> {
    let b = s.trim().as_bytes();
    let mut out = Vec::new();
    let mut offsets = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() || c == b'|' {
            i += 1;
        } else if c == b'%' && b.get(i + 1) == Some(&b'o') {
            offsets.push(out.len());
            out.extend_from_slice(&[0; 8]);
            i += 2;
        } else if c == b'"' {
            let end = b[i + 1..].iter().position(|&x| x == b'"').ok_or_else(|| {
                ValueError::Unterminated {
                    what: "string",
                    value: s.to_string(),
                }
            })?;
            out.extend_from_slice(&b[i + 1..i + 1 + end]);
            i += end + 2;
        } else if c == b'\'' {
            let end = b[i + 1..].iter().position(|&x| x == b'\'').ok_or_else(|| {
                ValueError::Unterminated {
                    what: "file name",
                    value: s.to_string(),
                }
            })?;
            let name = String::from_utf8_lossy(&b[i + 1..i + 1 + end]).into_owned();
            let room = MAX_PATTERN.saturating_sub(out.len()) as u64;
            out.extend_from_slice(&pattern_file(&name, room)?);
            i += end + 2;
        } else if c == b'0' && i + 1 < b.len() && (b[i + 1] == b'x' || b[i + 1] == b'X') {
            let start = i + 2;
            let mut end = start;
            while end < b.len() && b[end].is_ascii_hexdigit() {
                end += 1;
            }
            if end == start {
                return Err(ValueError::EmptyHex(s.to_string()));
            }
            let mut digits = String::from_utf8_lossy(&b[start..end]).into_owned();
            if digits.len() % 2 == 1 {
                digits.insert(0, '0');
            }
            for k in (0..digits.len()).step_by(2) {
                out.push(u8::from_str_radix(&digits[k..k + 2], 16).unwrap_or(0));
            }
            i = end;
        } else if c.is_ascii_digit() || c == b'-' {
            let start = i;
            i += 1;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            let txt = std::str::from_utf8(&b[start..i]).unwrap_or("");
            let v: i64 = txt
                .parse()
                .map_err(|_| ValueError::NotANumber(txt.to_string()).expected(Form::Pattern))?;
            push_number(&mut out, v);
        } else {
            return Err(ValueError::UnexpectedInPattern {
                found: (c as char).to_string(),
                value: s.to_string(),
            });
        }
    }
    if out.is_empty() {
        return Err(ValueError::EmptyPattern);
    }
    if out.len() > MAX_PATTERN {
        return Err(ValueError::PatternTooLong(out.len()));
    }
    offsets.retain(|&o| o < out.len());
    Ok((out, offsets))
}

/// A file named in a pattern, as fio reads it: its first bytes, as many as the pattern still
/// has `room` for (a device such as /dev/urandom gives that many).
fn pattern_file(name: &str, room: u64) -> Result<Vec<u8>, ValueError> {
    let mut data = Vec::new();
    std::fs::File::open(name)
        .and_then(|f| std::io::Read::read_to_end(&mut std::io::Read::take(f, room), &mut data))
        .map_err(|e| ValueError::PatternFile {
            path: name.to_string(),
            reason: e.to_string(),
        })?;
    Ok(data)
}

/// A decimal number of a pattern, as fio writes it: a negative one as 4 little-endian bytes
/// (8 below `i32::MIN`), a positive one in as few little-endian bytes as hold it.
fn push_number(out: &mut Vec<u8>, v: i64) {
    if v < 0 {
        if v >= i32::MIN as i64 {
            out.extend_from_slice(&(v as i32).to_le_bytes());
        } else {
            out.extend_from_slice(&v.to_le_bytes());
        }
    } else {
        let mut u = v as u64;
        loop {
            out.push((u & 0xff) as u8);
            u >>= 8;
            if u == 0 {
                break;
            }
        }
    }
}
