//! One line of a fio log (`time_ms, value, ddir, bs[, offset][, prio]`), read from bytes: the
//! lines fio writes (plain integers) without going through text or float parsing, every other
//! line by the general rules (trimmed fields, a value in any float form).

/// One parsed line.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Entry {
    pub t_ms: u64,
    pub value: f64,
    pub ddir: u8,
    pub bs: u64,
}

/// Parse a line (without its newline); None for a line that is not a log line.
pub fn parse(line: &[u8]) -> Option<Entry> {
    plain(line).or_else(|| general(std::str::from_utf8(line).ok()?))
}

/// Any log line: comma-separated fields, each trimmed; a missing or unreadable block size is 0.
fn general(l: &str) -> Option<Entry> {
    let mut f = l.split(',').map(str::trim);
    Some(Entry {
        t_ms: f.next()?.parse().ok()?,
        value: f.next()?.parse().ok()?,
        ddir: f.next()?.parse().ok()?,
        bs: f.next().and_then(|b| b.parse().ok()).unwrap_or(0),
    })
}

/// A line of plain decimal integers, as fio writes them; None for anything else (which
/// [`general`] then reads), so both give the same entry for every line this one accepts.
fn plain(line: &[u8]) -> Option<Entry> {
    let mut f = Fields { b: line, i: 0 };
    let t_ms = f.int()?;
    let value = f.int()?;
    let ddir = u8::try_from(f.int()?).ok()?;
    let bs = if f.i >= line.len() { 0 } else { f.int()? };
    // u64 to f64 rounds to nearest, as parsing the same digits as a float does.
    Some(Entry {
        t_ms,
        value: value as f64,
        ddir,
        bs,
    })
}

/// The fields of a line, read left to right.
struct Fields<'a> {
    b: &'a [u8],
    i: usize,
}

impl Fields<'_> {
    /// The next field as a decimal integer (blanks around it, then a comma or the end); None
    /// when the line has no more fields or the field is anything else.
    fn int(&mut self) -> Option<u64> {
        let b = self.b;
        let mut i = self.i;
        if i > b.len() {
            return None;
        }
        while i < b.len() && matches!(b[i], b' ' | b'\t') {
            i += 1;
        }
        let start = i;
        let mut v: u64 = 0;
        while i < b.len() && b[i].is_ascii_digit() {
            v = v.checked_mul(10)?.checked_add(u64::from(b[i] - b'0'))?;
            i += 1;
        }
        if i == start {
            return None;
        }
        while i < b.len() && matches!(b[i], b' ' | b'\t' | b'\r') {
            i += 1;
        }
        match b.get(i) {
            // Past the end: no field follows.
            None => self.i = i + 1,
            Some(b',') => self.i = i + 1,
            Some(_) => return None,
        }
        Some(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_and_general_lines_agree() {
        for l in [
            "0, 515, 1, 4096, 0",
            "500, 240312, 0, 0, 0",
            "12,7,2,4096",
            "3, 1, 1",
            "3, 1, 1\r",
            " 3 ,\t1 , 0 , 512 , 0, 1",
            "18446744073709551615, 9007199254740993, 1, 4096",
        ] {
            let g = general(l);
            assert!(g.is_some(), "{l}");
            assert_eq!(plain(l.as_bytes()), g, "{l}");
            assert_eq!(parse(l.as_bytes()), g, "{l}");
        }
    }

    #[test]
    fn other_forms_are_read_by_the_general_rules() {
        let e = |t, value, ddir, bs| {
            Some(Entry {
                t_ms: t,
                value,
                ddir,
                bs,
            })
        };
        assert_eq!(parse(b"5, 2.5, 0, 0"), e(5, 2.5, 0, 0));
        assert_eq!(parse(b"5, 1e3, 1"), e(5, 1000.0, 1, 0));
        assert_eq!(parse(b"5, 7, 1, x, 0"), e(5, 7.0, 1, 0));
        assert_eq!(parse(b"5, 7, 1, , 0"), e(5, 7.0, 1, 0));
        for bad in [
            "",
            "garbage",
            "5, 7",
            "5, 7,",
            "-1, 7, 0",
            "5, 7, 300, 4096",
            "99999999999999999999, 1, 0",
        ] {
            assert_eq!(parse(bad.as_bytes()), None, "{bad}");
        }
    }
}
