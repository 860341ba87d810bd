//! Iometer access specifications: `SIZE,READ%,RANDOM%[,ALIGN[,DELAY_MS[,BURST]]][@WEIGHT]` per
//! line, and the classic specs by name. A spec that a job's own fields express exactly becomes
//! one job whose transfer sizes are split by weight per direction (fio's `bssplit=R,W`) and
//! whose read share is the lines' weighted % read (see [`shape`]); any other runs as an
//! access mix (see [`super::mix`]).

use super::shape::{split, Shape, Sizes};
use iomark_engine::job::RwMode;
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
        reason: Box<iomark_fio::values::ValueError>,
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

/// With direct I/O every transfer size and alignment must be a multiple of the target's logical
/// block size `lbs`: the first line that is not, worded for the user (checked before any I/O,
/// where the kernel would otherwise fail the first I/O with EINVAL).
pub fn check_direct(lines: &[Line], lbs: u64) -> Result<(), String> {
    for (i, l) in lines.iter().enumerate() {
        for (what, v) in [("a transfer size", l.size), ("an alignment", l.align)] {
            if v > 0 && v % lbs != 0 {
                return Err(format!(
                    "line {} of the spec: direct I/O needs {what} that is a multiple of {lbs} bytes (the target's logical block size), not {v}",
                    i + 1
                ));
            }
        }
    }
    Ok(())
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

/// Parse one line (`SIZE,READ%,RANDOM%[,ALIGN[,DELAY_MS[,BURST]]][@WEIGHT]`).
pub fn parse_line(l: &str) -> Result<Line, LineError> {
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
            reason: Box::new(reason),
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

/// A line's weight in one direction (its weight times its read or write share).
fn dir_weight(l: &Line, read: bool) -> f64 {
    let pct = if read { l.read_pct } else { 100 - l.read_pct };
    f64::from(l.weight) * f64::from(pct)
}

/// The job shape of a spec; None when the job's own fields cannot express it exactly.
///
/// Iometer picks a line by weight for every I/O, then its direction by the line's % read and
/// random or sequential by its % random; a sequential I/O continues where the previous one
/// ended, whatever it was. As a job: the read share is the weighted mean of the lines'
/// % read, and each direction has its own transfer-size split (the lines' weights times their
/// read or write share) and its own alignment, so the share of every line and its % read hold
/// exactly when every line is 100 % random and the lines of one direction share their
/// alignment. A fully sequential spec is exact when it only reads (or only writes) at the
/// default alignment with sizes that are multiples of the smallest. Transfer delays, partly
/// random lines and other mixes are not expressible (a job's sequential offsets of a mixed job
/// form a stream per direction, Iometer's one stream).
pub fn shape(lines: &[Line]) -> Option<Shape> {
    let first = &lines[0];
    if lines.iter().any(|l| l.delay_ms > 0) {
        return None;
    }
    let all_random = lines.iter().all(|l| l.random_pct == 100);
    let min = lines.iter().map(|l| l.size).min().unwrap_or(512);
    let sequential = lines
        .iter()
        .all(|l| l.random_pct == 0 && l.align == 0 && l.size % min == 0)
        && (lines.iter().all(|l| l.read_pct == 100) || lines.iter().all(|l| l.read_pct == 0));
    if !all_random && !sequential {
        return None;
    }
    let total: f64 = lines.iter().map(|l| f64::from(l.weight) * 100.0).sum();
    let mut align = [0u64; 2];
    let mut splits: [Vec<(u64, u32)>; 2] = [Vec::new(), Vec::new()];
    for (d, read) in [(0, true), (1, false)] {
        let active: Vec<&Line> = lines.iter().filter(|l| dir_weight(l, read) > 0.0).collect();
        let Some(a) = active.first() else {
            continue;
        };
        if active.iter().any(|b| b.align != a.align) {
            return None;
        }
        align[d] = if a.align > 0 {
            a.align
        } else {
            active.iter().map(|l| l.size).min().unwrap_or(512)
        };
        // Lines of one size add up.
        let mut parts: Vec<(u64, f64)> = Vec::new();
        for l in &active {
            match parts.iter_mut().find(|p| p.0 == l.size) {
                Some(p) => p.1 += dir_weight(l, read),
                None => parts.push((l.size, dir_weight(l, read))),
            }
        }
        splits[d] = split(&parts);
    }
    // A direction no line uses takes the other's values (it issues nothing).
    for d in 0..2 {
        if splits[d].is_empty() {
            splits[d] = splits[1 - d].clone();
            align[d] = align[1 - d];
        }
    }
    let read_share: f64 = lines.iter().map(|l| dir_weight(l, true)).sum::<f64>() / total;
    let sizes = if lines.iter().all(|l| l.size == first.size) {
        Sizes::One(first.size)
    } else {
        Sizes::Split(splits)
    };
    Some(Shape {
        rw: if all_random {
            RwMode::RandRw
        } else {
            RwMode::ReadWrite
        },
        rwmixread: Some((read_share * 100.0).round() as u32),
        sizes,
        align: Some(align),
        norandommap: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn direct_io_needs_whole_sectors() {
        let l = parse("4k,100,100,3").unwrap();
        let e = check_direct(&l, 512).unwrap_err();
        assert!(
            e.contains("alignment that is a multiple of 512 bytes"),
            "{e}"
        );
        assert!(e.contains("not 3"), "{e}");
        assert!(check_direct(&parse("4k,100,100,4k").unwrap(), 512).is_ok());
        assert!(check_direct(&parse("2k,67,100").unwrap(), 4096).is_err());
    }

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
        for n in [
            "iometer-default",
            "4k-70-30-random",
            "database",
            "file-server",
            "web-server",
        ] {
            assert!(shape(&parse(n).unwrap()).is_some(), "{n}");
        }
        // 80 % random: sequential I/Os continue the previous one, which job options cannot say.
        assert!(shape(&parse("workstation").unwrap()).is_none());
    }

    #[test]
    fn options_of_a_spec() {
        let o = shape(&parse("8k,80,100").unwrap()).unwrap().shown();
        let get = |k: &str| o.iter().find(|(x, _)| x == k).map(|(_, v)| v.as_str());
        assert_eq!(get("rw"), Some("randrw"));
        assert_eq!(get("rwmixread"), Some("80"));
        assert_eq!(get("percentage_random"), None);
        assert_eq!(get("bs"), Some("8192"));
        assert_eq!(get("ba"), Some("8192"));
        let o = shape(&parse("4k,100,0@3 64k,100,0@1").unwrap())
            .unwrap()
            .shown();
        let get = |k: &str| o.iter().find(|(x, _)| x == k).map(|(_, v)| v.as_str());
        assert_eq!(get("rw"), Some("rw"));
        assert_eq!(get("bssplit"), Some("4096/75:65536/25"));
        assert_eq!(get("ba"), Some("4096"));
        // A transfer delay is not a think time (it pauses no I/O in flight).
        assert!(shape(&parse("4k,50,100,4k,5,2").unwrap()).is_none());
    }

    /// Lines differing in % read: the read share is their weighted mean and each direction
    /// splits its sizes by the lines' weights times their read or write share, so every line's
    /// share and % read hold.
    #[test]
    fn lines_may_differ_in_read_share() {
        let o = shape(&parse("4k,80,100@60;64k,20,100@40").unwrap())
            .unwrap()
            .shown();
        let get = |k: &str| o.iter().find(|(x, _)| x == k).map(|(_, v)| v.as_str());
        // Reads: 0.6 x 0.8 = 0.48 and 0.4 x 0.2 = 0.08 of the I/Os; writes 0.12 and 0.32.
        assert_eq!(get("rwmixread"), Some("56"));
        assert_eq!(get("bssplit"), Some("4096/86:65536/14,4096/27:65536/73"));
        assert_eq!(get("rw"), Some("randrw"));
        assert_eq!(get("percentage_random"), None);
        // Per-direction alignments of random lines.
        let o = shape(&parse("4k,100,100,4k@50;64k,0,100,64k@50").unwrap())
            .unwrap()
            .shown();
        let get = |k: &str| o.iter().find(|(x, _)| x == k).map(|(_, v)| v.as_str());
        assert_eq!(get("rwmixread"), Some("50"));
        assert_eq!(get("bssplit"), Some("4096/100,65536/100"));
        assert_eq!(get("ba"), Some("4096,65536"));
        // Reads random, writes sequential: the writes would continue the previous I/O.
        assert!(shape(&parse("4k,100,100@50;64k,0,0@50").unwrap()).is_none());
        assert_eq!(
            split(&[(1, 1.0), (2, 1.0), (3, 1.0)]),
            [(1, 34), (2, 33), (3, 33)]
        );
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
        let e = parse("4k,70,100,4x").unwrap_err().to_string();
        assert!(e.contains("alignment '4x'"), "{e}");
        let e = parse("4k,70,100,4k,5,b").unwrap_err().to_string();
        assert!(e.contains("burst 'b' is not a whole number"), "{e}");
    }
}
