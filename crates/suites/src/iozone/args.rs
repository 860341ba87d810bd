//! iozone's command line, parsed as iozone's getopt does: flags may be grouped (`-Rab file`),
//! a value may follow its flag in the same word (`-i0`, `-s64m`) or in the next one, `-+x`
//! names a two-character flag, and a later flag wins over an earlier one (`-g 4g ... -g 64m`).
//! iomark's own options are long: `--json`, `--result FILE` (or `--result-file`), `--help`.

use super::flags::{self, Arg, Flag, Support};
use iomark_output::result_option;
use std::path::PathBuf;
use thiserror::Error;

#[derive(Debug, Error, PartialEq)]
pub enum IozoneError {
    #[error("unknown flag '-{flag}'{}", nearest.map(|n| format!(" (did you mean -{n}?)")).unwrap_or_default())]
    Unknown {
        flag: String,
        nearest: Option<&'static str>,
    },
    #[error("-{flag} ({meaning}) needs a value")]
    Missing { flag: String, meaning: &'static str },
    #[error("bad value '{value}' for -{flag} ({meaning}): {why}")]
    Bad {
        flag: String,
        value: String,
        meaning: &'static str,
        why: String,
    },
    #[error("-{flag} ({meaning}) is not supported: {why}")]
    Refused {
        flag: String,
        meaning: &'static str,
        why: &'static str,
    },
    #[error("{0}")]
    Invalid(String),
}

/// The parsed command line, in iozone's terms and units (sizes in bytes).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct IozoneArgs {
    pub auto: bool,
    /// `-i` values in the order given (duplicates dropped).
    pub tests: Vec<u32>,
    /// `-s` values (bytes), in order.
    pub sizes: Vec<u64>,
    /// `-r` values (bytes), in order.
    pub records: Vec<u64>,
    pub min_file: Option<u64>,
    pub max_file: Option<u64>,
    pub min_record: Option<u64>,
    pub max_record: Option<u64>,
    /// `-z`: no record-size skipping for large files in auto mode.
    pub all_records: bool,
    /// `-+x` (default 2).
    pub multiplier: Option<u64>,
    pub file: Option<PathBuf>,
    pub files: Vec<PathBuf>,
    pub direct: bool,
    pub fsync_timed: bool,
    pub close_timed: bool,
    pub osync: bool,
    pub dsync: bool,
    pub rsync: bool,
    pub keep: bool,
    pub no_retest: bool,
    pub excel: bool,
    pub workbook: Option<PathBuf>,
    pub children: Option<u32>,
    pub min_children: Option<u32>,
    pub max_children: Option<u32>,
    pub no_stonewall: bool,
    pub delay_us: u64,
    pub child_bytes: bool,
    pub threads: bool,
    pub extension: bool,
    pub stride: Option<u64>,
    pub ops_per_sec: bool,
    pub us_per_op: bool,
    pub uname: bool,
    pub cpu: Option<usize>,
    pub test_delay_s: u64,
    pub latency_hist: bool,
    /// `-B` (or `-D`): records move through a mapping of the file.
    pub mmap: bool,
    /// `-D`, `-G`: msync(MS_ASYNC), msync(MS_SYNC) after each record of a mapped writer.
    pub msync_async: bool,
    pub msync_sync: bool,
    /// `-+A`: madvise of the mapping.
    pub madvise: Option<u32>,
    /// `-+p`: percent of the mix's children that read.
    pub pct_read: Option<u32>,
    /// `-+B`: the mix reads and writes sequentially.
    pub seq_mix: bool,
    /// `-+u`: CPU utilization tables.
    pub cpu_util: bool,
    /// `-+d`: verify every record read.
    pub diag: bool,
    pub json: bool,
    pub result: Option<PathBuf>,
    pub help: bool,
    pub version: bool,
    /// The command line as given (for the header and the workbook).
    pub command_line: String,
    /// Every flag applied, in the order given, with its value as written ("" for a flag that
    /// takes none): iozone describes its options in this order.
    pub given: Vec<(String, String)>,
}

/// A size that is not one in iozone's units.
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
pub enum SizeError {
    #[error("expected a number of kB, or a number ending in k, m or g")]
    NotANumber,
    #[error("must be above 0 and fit in 64 bits")]
    OutOfRange,
}

/// A size in iozone's units: kB unless it ends in k, m or g (any case).
pub fn parse_size(v: &str) -> Result<u64, SizeError> {
    let t = v.trim();
    let (num, mult) = match t.chars().last() {
        Some('k' | 'K') => (&t[..t.len() - 1], 1u64 << 10),
        Some('m' | 'M') => (&t[..t.len() - 1], 1 << 20),
        Some('g' | 'G') => (&t[..t.len() - 1], 1 << 30),
        _ => (t, 1 << 10),
    };
    let n: u64 = num.parse().map_err(|_| SizeError::NotANumber)?;
    n.checked_mul(mult)
        .filter(|&b| b > 0)
        .ok_or(SizeError::OutOfRange)
}

fn num(flag: &str, v: &str, meaning: &'static str) -> Result<u64, IozoneError> {
    v.trim().parse().map_err(|_| IozoneError::Bad {
        flag: flag.into(),
        value: v.into(),
        meaning,
        why: "expected a whole number".into(),
    })
}

/// Parse iozone's command line (the words after `iomark iozone`).
pub fn parse(args: &[String]) -> Result<IozoneArgs, IozoneError> {
    let mut a = IozoneArgs {
        command_line: std::iter::once("iozone".to_string())
            .chain(args.iter().cloned())
            .collect::<Vec<_>>()
            .join(" "),
        ..Default::default()
    };
    let mut i = 0;
    while i < args.len() {
        let w = &args[i];
        i += 1;
        let next = || {
            i += 1;
            args.get(i - 1).cloned()
        };
        if let Some(f) = result_option::take(w, next) {
            a.result = Some(f.map_err(|e| IozoneError::Invalid(e.to_string()))?);
            continue;
        }
        if let Some(long) = w.strip_prefix("--") {
            long_option(&mut a, long)?;
            continue;
        }
        let Some(body) = w.strip_prefix('-').filter(|b| !b.is_empty()) else {
            return Err(IozoneError::Invalid(format!(
                "unexpected word '{w}' (iozone takes only flags; a file name goes after -f or -F)"
            )));
        };
        flag_word(&mut a, body, args, &mut i)?;
    }
    Ok(a)
}

/// One of iomark's own options besides `--result` (`long` is the word without its `--`):
/// `--json`, `--help`.
fn long_option(a: &mut IozoneArgs, long: &str) -> Result<(), IozoneError> {
    let k = long.split_once('=').map_or(long, |(k, _)| k);
    match k {
        "json" => a.json = true,
        "help" => a.help = true,
        _ => {
            return Err(IozoneError::Invalid(format!(
            "unknown option '--{k}' (iomark iozone's own options: --json, --result FILE, --help)"
        )))
        }
    }
    Ok(())
}

/// One word of iozone flags after its dash (`Rab`, `i0`, `+n`), flag by flag: a flag that
/// takes a value takes the rest of the word, or else the next word (`i` is the index of the
/// next word, moved past the words taken); `-F` takes every word up to the next flag.
fn flag_word(
    a: &mut IozoneArgs,
    body: &str,
    args: &[String],
    i: &mut usize,
) -> Result<(), IozoneError> {
    let chars: Vec<char> = body.chars().collect();
    let mut c = 0;
    while c < chars.len() {
        let name: String = if chars[c] == '+' {
            c += 2;
            chars[c - 2..c.min(chars.len())].iter().collect()
        } else {
            c += 1;
            chars[c - 1].to_string()
        };
        let f = supported(&name)?;
        let value = match f.arg {
            Arg::None => None,
            Arg::Paths => {
                let mut v = Vec::new();
                if c < chars.len() {
                    v.push(chars[c..].iter().collect::<String>());
                    c = chars.len();
                }
                while *i < args.len() && !args[*i].starts_with('-') {
                    v.push(args[*i].clone());
                    *i += 1;
                }
                if v.is_empty() {
                    return Err(IozoneError::Missing {
                        flag: name,
                        meaning: f.meaning,
                    });
                }
                a.files.extend(v.into_iter().map(PathBuf::from));
                continue;
            }
            _ if c < chars.len() => {
                let v: String = chars[c..].iter().collect();
                c = chars.len();
                Some(v)
            }
            _ => {
                let v = args.get(*i).cloned().ok_or_else(|| IozoneError::Missing {
                    flag: name.clone(),
                    meaning: f.meaning,
                })?;
                *i += 1;
                Some(v)
            }
        };
        apply(a, &name, f.meaning, value.as_deref().unwrap_or(""))?;
    }
    Ok(())
}

/// The flag `-name` from the table; an unknown flag (with the nearest name) and a refused one
/// (with the reason) are errors.
fn supported(name: &str) -> Result<&'static Flag, IozoneError> {
    let Some(f) = flags::find(name) else {
        return Err(IozoneError::Unknown {
            nearest: flags::nearest(name),
            flag: name.into(),
        });
    };
    if let Support::Refused(why) = f.support {
        return Err(IozoneError::Refused {
            flag: name.into(),
            meaning: f.meaning,
            why,
        });
    }
    Ok(f)
}

/// A value of `-name` that iozone would not take, with why.
fn bad_value(name: &str, v: &str, meaning: &'static str, why: impl Into<String>) -> IozoneError {
    IozoneError::Bad {
        flag: name.into(),
        value: v.into(),
        meaning,
        why: why.into(),
    }
}

/// Set what `-name` says, with its value `v` ("" for a flag that takes none).
fn apply(
    a: &mut IozoneArgs,
    name: &str,
    meaning: &'static str,
    v: &str,
) -> Result<(), IozoneError> {
    a.given.push((name.to_string(), v.to_string()));
    match name {
        "b" => a.workbook = Some(PathBuf::from(v)),
        "f" => a.file = Some(PathBuf::from(v)),
        "g" | "n" | "q" | "r" | "s" | "y" => apply_size(a, name, meaning, v)?,
        "d" | "i" | "j" | "l" | "P" | "t" | "u" | "+A" | "+p" | "+q" | "+x" => {
            apply_number(a, name, meaning, v)?
        }
        _ => apply_switch(a, name),
    }
    Ok(())
}

/// The flags whose value is a size: the `-a` bounds (`-n`, `-g`, `-y`, `-q`) and the `-s`,
/// `-r` lists.
fn apply_size(
    a: &mut IozoneArgs,
    name: &str,
    meaning: &'static str,
    v: &str,
) -> Result<(), IozoneError> {
    let size = parse_size(v).map_err(|why| bad_value(name, v, meaning, why.to_string()))?;
    match name {
        "g" => a.max_file = Some(size),
        "n" => a.min_file = Some(size),
        "q" => a.max_record = Some(size),
        "r" => a.records.push(size),
        "s" => a.sizes.push(size),
        "y" => a.min_record = Some(size),
        _ => unreachable!("flag -{name} is not a size"),
    }
    Ok(())
}

/// The flags whose value is a whole number, with the ranges iozone takes.
fn apply_number(
    a: &mut IozoneArgs,
    name: &str,
    meaning: &'static str,
    v: &str,
) -> Result<(), IozoneError> {
    let n = num(name, v, meaning)?;
    match name {
        "d" => a.delay_us = n,
        "i" => {
            if n > 12 {
                return Err(bad_value(name, v, meaning, "tests are numbered 0 to 12"));
            }
            if !a.tests.contains(&(n as u32)) {
                a.tests.push(n as u32);
            }
        }
        "j" => a.stride = Some(n.max(1)),
        "l" => a.min_children = Some(n as u32),
        "P" => a.cpu = Some(n as usize),
        "t" => a.children = Some(n.max(1) as u32),
        "u" => a.max_children = Some(n as u32),
        "+A" => {
            if n > 4 {
                return Err(bad_value(name, v, meaning, "madvise modes are 0 to 4"));
            }
            a.madvise = Some(n as u32);
        }
        "+p" => a.pct_read = Some(n.clamp(1, 100) as u32),
        "+q" => a.test_delay_s = n,
        "+x" => {
            if n < 2 {
                return Err(bad_value(
                    name,
                    v,
                    meaning,
                    "the multiplier must be 2 or more",
                ));
            }
            a.multiplier = Some(n);
        }
        _ => unreachable!("flag -{name} is not a number"),
    }
    Ok(())
}

/// The flags that take no value: each turns one setting on.
fn apply_switch(a: &mut IozoneArgs, name: &str) {
    match name {
        "a" => a.auto = true,
        "B" => a.mmap = true,
        "D" => {
            a.mmap = true;
            a.msync_async = true;
        }
        "G" => a.msync_sync = true,
        "c" => a.close_timed = true,
        "C" => a.child_bytes = true,
        "e" => a.fsync_timed = true,
        "E" => a.extension = true,
        "h" => a.help = true,
        "I" => a.direct = true,
        "M" => a.uname = true,
        "N" => a.us_per_op = true,
        "o" => a.osync = true,
        "O" => a.ops_per_sec = true,
        "R" => a.excel = true,
        "T" => a.threads = true,
        "v" => a.version = true,
        "w" => a.keep = true,
        "x" => a.no_stonewall = true,
        "z" => a.all_records = true,
        "+B" => a.seq_mix = true,
        "+d" => a.diag = true,
        "+D" => a.dsync = true,
        "+u" => a.cpu_util = true,
        "+n" => a.no_retest = true,
        "+r" => a.rsync = true,
        "+z" => a.latency_hist = true,
        _ => unreachable!("flag -{name} is in the table but not handled"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Result<IozoneArgs, IozoneError> {
        parse(&s.split_whitespace().map(String::from).collect::<Vec<_>>())
    }

    #[test]
    fn seed_line_and_later_flags_win() {
        let a = p("-i 0 -i 1 -Rab test-iozone.xls -g 4g -n 1M -C -g 64m -n 64k").unwrap();
        assert!(a.auto && a.excel && a.child_bytes);
        assert_eq!(a.tests, [0, 1]);
        assert_eq!(a.workbook, Some(PathBuf::from("test-iozone.xls")));
        assert_eq!(a.max_file, Some(64 << 20));
        assert_eq!(a.min_file, Some(64 << 10));
        assert!(a.command_line.starts_with("iozone -i 0 -i 1 -Rab"));
    }

    #[test]
    fn values_inline_grouped_and_plus_flags() {
        let a = p("-i0 -i2 -s64m -r 4 -azc -+n -+x 4 -t 4 -F /a /b /c /d -x -e").unwrap();
        assert_eq!(a.tests, [0, 2]);
        assert_eq!((a.sizes[0], a.records[0]), (64 << 20, 4 << 10));
        assert!(a.auto && a.all_records && a.close_timed && a.no_retest && a.no_stonewall);
        assert_eq!((a.multiplier, a.children), (Some(4), Some(4)));
        assert_eq!(a.files.len(), 4);
        assert!(a.fsync_timed);
        assert_eq!(parse_size("1g"), Ok(1 << 30));
        assert_eq!(parse_size("512"), Ok(512 << 10));
        assert!(parse_size("0").is_err() && parse_size("x").is_err());
    }

    #[test]
    fn refusals_and_unknown_flags_say_what_they_mean() {
        let e = p("-a -k 4").unwrap_err().to_string();
        assert!(e.contains("-k (POSIX async I/O"), "{e}");
        assert!(e.contains("helper threads"), "{e}");
        let e = p("-+V").unwrap_err().to_string();
        assert!(e.contains("one shared file"), "{e}");
        let e = p("-+A 5").unwrap_err().to_string();
        assert!(e.contains("0 to 4"), "{e}");
        let a = p("-i 8 -+p 150 -+B -+u -G -D -+d -+A 2").unwrap();
        assert_eq!(
            (a.tests.clone(), a.pct_read, a.madvise),
            (vec![8], Some(100), Some(2))
        );
        assert!(a.seq_mix && a.cpu_util && a.mmap && a.msync_async && a.msync_sync && a.diag);
        assert_eq!(p("-+p 0").unwrap().pct_read, Some(1));
        let e = p("-+j").unwrap_err().to_string();
        assert!(e.contains("unknown flag '-+j'"), "{e}");
        let e = p("-s").unwrap_err().to_string();
        assert!(e.contains("-s (file size"), "{e}");
        let e = p("-i 13").unwrap_err().to_string();
        assert!(e.contains("0 to 12"), "{e}");
        let e = p("-s 12q").unwrap_err().to_string();
        assert!(e.contains("bad value '12q' for -s"), "{e}");
        assert!(p("--frobnicate")
            .unwrap_err()
            .to_string()
            .contains("--json"));
        let a = p("--json --result=/tmp/r.json").unwrap();
        assert!(a.json && a.result.is_some());
        assert!(p("-i 0 --result").is_err());
    }

    #[test]
    fn the_result_file_in_either_spelling() {
        for words in result_option::spellings("r.json") {
            let a = p(&format!("-i 0 {} -s 64k", words.join(" "))).unwrap();
            assert_eq!(a.result, Some(PathBuf::from("r.json")), "{words:?}");
        }
    }
}
