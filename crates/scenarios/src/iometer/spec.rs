//! Iometer access specifications: `SIZE,READ%,RANDOM%[,ALIGN[,DELAY_MS[,BURST]]][@WEIGHT]` per
//! line, and the classic specs by name. A spec of several lines becomes one job whose transfer
//! sizes are split by weight (fio's `bssplit`); its lines must then share the other fields.

use iomark_fio::values::parse_size;

/// One access-specification line.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    pub size: u64,
    pub read_pct: u32,
    pub random_pct: u32,
    /// Offsets are multiples of this (0: of the transfer size, Iometer's "sector boundaries").
    pub align: u64,
    /// Transfer delay in ms before each burst, and the number of I/Os in a burst.
    pub delay_ms: u64,
    pub burst: u64,
    /// Share of the I/Os, in percent of the spec's total weight.
    pub weight: u32,
}

/// The classic specs: (name, lines, where it comes from).
pub const NAMED: &[(&str, &str, &str)] = &[
    (
        "iometer-default",
        "2k,67,100",
        "Iometer's own default access specification (2 KiB, 67 % read, 100 % random)",
    ),
    (
        "4k-70-30-random",
        "4k,70,100",
        "the 4 KiB 70/30 read/write random mix common in storage vendors' data sheets",
    ),
    (
        "database",
        "8k,67,100",
        "Intel's published Iometer Database pattern (8 KiB, 67 % read, 100 % random)",
    ),
    (
        "file-server",
        "512,80,100@10 1k,80,100@5 2k,80,100@5 4k,80,100@60 8k,80,100@2 16k,80,100@4 32k,80,100@4 64k,80,100@10",
        "Intel's published Iometer File Server pattern (512 B to 64 KiB, 80 % read, 100 % random)",
    ),
    (
        "web-server",
        "512,100,100@22 1k,100,100@15 2k,100,100@8 4k,100,100@23 8k,100,100@15 16k,100,100@2 32k,100,100@6 64k,100,100@7 128k,100,100@1 512k,100,100@1",
        "Intel's published Iometer Web Server pattern (512 B to 512 KiB, all reads, 100 % random)",
    ),
    (
        "workstation",
        "8k,80,80",
        "Intel's published Iometer Workstation pattern (8 KiB, 80 % read, 80 % random)",
    ),
];

/// A spec that cannot be run.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SpecError {
    /// A line is wrong (the named specs are listed as the alternative).
    #[error("--spec={spec}: {line} (or one of the named specs: {})", named_list())]
    Line { spec: String, line: LineError },
    #[error("--spec={0}: no access specification line")]
    Empty(String),
    /// Lines of one spec differ in more than their transfer size (`first` and `other` B).
    #[error("lines of one spec that differ in % read, % random, alignment or delay ({first} B and {other} B) are not supported yet: give them as separate runs")]
    Mixed { first: u64, other: u64 },
}

/// What is wrong with one access-specification line (`line`).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum LineError {
    #[error("weight '{0}' is not a percentage from 1 to 100")]
    Weight(String),
    #[error("'{0}': expected SIZE,READ%,RANDOM%[,ALIGN[,DELAY_MS[,BURST]]][@WEIGHT]")]
    Fields(String),
    /// A size field that is not a size (`reason`: the size parser's words).
    #[error("'{line}': {field} '{value}': {reason}")]
    Size {
        line: String,
        field: &'static str,
        value: String,
        reason: String,
    },
    #[error("'{line}': {field} '{value}' is not a whole number")]
    NotWhole {
        line: String,
        field: &'static str,
        value: String,
    },
    #[error("'{line}': {field} '{value}' is over 100")]
    Over100 {
        line: String,
        field: &'static str,
        value: String,
    },
    #[error("'{0}': a transfer size of 0")]
    ZeroSize(String),
}

/// The names of the classic specs, comma-separated.
fn named_list() -> String {
    NAMED.iter().map(|n| n.0).collect::<Vec<_>>().join(", ")
}

/// Parse a spec: a classic name, or lines separated by spaces or semicolons.
pub fn parse(s: &str) -> Result<Vec<Line>, SpecError> {
    let text = NAMED
        .iter()
        .find(|(n, _, _)| *n == s)
        .map_or(s, |(_, l, _)| *l);
    let lines = text
        .split([' ', ';'])
        .filter(|l| !l.is_empty())
        .map(parse_line)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|line| SpecError::Line {
            spec: s.to_string(),
            line,
        })?;
    if lines.is_empty() {
        return Err(SpecError::Empty(s.to_string()));
    }
    Ok(lines)
}

fn parse_line(l: &str) -> Result<Line, LineError> {
    let (body, weight) = match l.split_once('@') {
        Some((b, w)) => (
            b,
            w.parse::<u32>()
                .ok()
                .filter(|w| (1..=100).contains(w))
                .ok_or_else(|| LineError::Weight(w.to_string()))?,
        ),
        None => (l, 100),
    };
    let f: Vec<&str> = body.split(',').collect();
    const FIELDS: [&str; 6] = [
        "size",
        "% read",
        "% random",
        "alignment",
        "delay ms",
        "burst",
    ];
    if f.len() < 3 || f.len() > FIELDS.len() {
        return Err(LineError::Fields(l.to_string()));
    }
    let size_of = |i: usize| {
        parse_size(f[i], 1024).map_err(|reason| LineError::Size {
            line: l.to_string(),
            field: FIELDS[i],
            value: f[i].to_string(),
            reason,
        })
    };
    let num = |i: usize| {
        f[i].parse::<u64>().map_err(|_| LineError::NotWhole {
            line: l.to_string(),
            field: FIELDS[i],
            value: f[i].to_string(),
        })
    };
    let pct = |i: usize| {
        num(i).and_then(|v| {
            u32::try_from(v)
                .ok()
                .filter(|v| *v <= 100)
                .ok_or_else(|| LineError::Over100 {
                    line: l.to_string(),
                    field: FIELDS[i],
                    value: f[i].to_string(),
                })
        })
    };
    let size = size_of(0)?;
    if size == 0 {
        return Err(LineError::ZeroSize(l.to_string()));
    }
    Ok(Line {
        size,
        read_pct: pct(1)?,
        random_pct: pct(2)?,
        align: if f.len() > 3 { size_of(3)? } else { 0 },
        delay_ms: if f.len() > 4 { num(4)? } else { 0 },
        burst: if f.len() > 5 { num(5)?.max(1) } else { 1 },
        weight,
    })
}

/// The job options of a spec: (option, value) pairs in fio's words.
pub fn options(lines: &[Line]) -> Result<Vec<(String, String)>, SpecError> {
    let first = &lines[0];
    let same = |l: &Line| {
        (l.read_pct, l.random_pct, l.align, l.delay_ms, l.burst)
            == (
                first.read_pct,
                first.random_pct,
                first.align,
                first.delay_ms,
                first.burst,
            )
    };
    if let Some(l) = lines.iter().find(|l| !same(l)) {
        return Err(SpecError::Mixed {
            first: first.size,
            other: l.size,
        });
    }
    let mut o: Vec<(String, String)> = Vec::new();
    let rw = if first.random_pct == 0 {
        "rw"
    } else {
        "randrw"
    };
    o.push(("rw".into(), rw.into()));
    o.push(("rwmixread".into(), first.read_pct.to_string()));
    if first.random_pct > 0 && first.random_pct < 100 {
        o.push(("percentage_random".into(), first.random_pct.to_string()));
    }
    if lines.len() == 1 {
        o.push(("bs".into(), first.size.to_string()));
    } else {
        let total: u32 = lines.iter().map(|l| l.weight).sum();
        // bssplit's shares must add up to 100: the last line takes the rounding.
        let mut left = 100;
        let mut parts = Vec::new();
        for (i, l) in lines.iter().enumerate() {
            let share = if i + 1 == lines.len() {
                left
            } else {
                (l.weight * 100 + total / 2) / total
            };
            left = left.saturating_sub(share);
            parts.push(format!("{}/{share}", l.size));
        }
        o.push(("bssplit".into(), parts.join(":")));
    }
    let align = if first.align > 0 {
        first.align
    } else {
        lines.iter().map(|l| l.size).min().unwrap_or(512)
    };
    o.push(("ba".into(), align.to_string()));
    if first.delay_ms > 0 {
        o.push(("thinktime".into(), (first.delay_ms * 1000).to_string()));
        o.push(("thinktime_blocks".into(), first.burst.to_string()));
    }
    Ok(o)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_named_specs() {
        let l = parse("4k,70,100@100").unwrap();
        assert_eq!(
            l,
            vec![Line {
                size: 4096,
                read_pct: 70,
                random_pct: 100,
                align: 0,
                delay_ms: 0,
                burst: 1,
                weight: 100
            }]
        );
        let l = parse("64k,0,50,4k,10,8").unwrap();
        assert_eq!((l[0].align, l[0].delay_ms, l[0].burst), (4096, 10, 8));
        assert_eq!(parse("iometer-default").unwrap()[0].size, 2048);
        let fs = parse("file-server").unwrap();
        assert_eq!(fs.len(), 8);
        assert_eq!(fs.iter().map(|l| l.weight).sum::<u32>(), 100);
        assert_eq!(
            parse("web-server")
                .unwrap()
                .iter()
                .map(|l| l.weight)
                .sum::<u32>(),
            100
        );
        for (n, _, _) in NAMED {
            options(&parse(n).unwrap()).unwrap();
        }
    }

    #[test]
    fn options_of_a_spec() {
        let o = options(&parse("8k,80,80").unwrap()).unwrap();
        let get = |k: &str| o.iter().find(|(x, _)| x == k).map(|(_, v)| v.as_str());
        assert_eq!(get("rw"), Some("randrw"));
        assert_eq!(get("rwmixread"), Some("80"));
        assert_eq!(get("percentage_random"), Some("80"));
        assert_eq!(get("bs"), Some("8192"));
        assert_eq!(get("ba"), Some("8192"));
        let o = options(&parse("4k,100,0@3 64k,100,0@1").unwrap()).unwrap();
        let get = |k: &str| o.iter().find(|(x, _)| x == k).map(|(_, v)| v.as_str());
        assert_eq!(get("rw"), Some("rw"));
        assert_eq!(get("bssplit"), Some("4096/75:65536/25"));
        assert_eq!(get("ba"), Some("4096"));
        let o = options(&parse("4k,50,100,4k,5,2").unwrap()).unwrap();
        assert!(o.contains(&("thinktime".into(), "5000".into())));
        assert!(o.contains(&("thinktime_blocks".into(), "2".into())));
    }

    #[test]
    fn bad_specs_name_the_field() {
        let e = parse("4k,170,100").unwrap_err().to_string();
        assert!(e.contains("% read '170' is over 100"), "{e}");
        let e = parse("4k,70").unwrap_err().to_string();
        assert!(e.contains("expected SIZE,READ%,RANDOM%"), "{e}");
        assert!(e.contains("iometer-default"), "{e}");
        let e = parse("4k,70,x").unwrap_err().to_string();
        assert!(e.contains("% random 'x' is not a whole number"), "{e}");
        let e = parse("4k,70,100@0").unwrap_err().to_string();
        assert!(e.contains("weight '0'"), "{e}");
        let e = options(&parse("4k,70,100 8k,50,100").unwrap())
            .unwrap_err()
            .to_string();
        assert!(e.contains("not supported yet"), "{e}");
    }
}
