//! GNU dd's operands (`if= of= bs= ...`) parsed into typed values.

use iomark_output::result_option;
use std::path::PathBuf;
use thiserror::Error;

/// What `iomark dd` refuses, naming the operand.
#[derive(Debug, Error, PartialEq)]
pub enum DdError {
    #[error("unrecognized operand '{0}'")]
    UnknownOperand(String),
    #[error("invalid number {q_value} for {operand}=", q_value = iomark_output::echo::quote(.value))]
    BadNumber { operand: String, value: String },
    #[error("{operand}=0 is invalid: a block size must be at least 1 byte")]
    ZeroBlock { operand: String },
    #[error("invalid {operand}= flag {q_flag}", q_flag = iomark_output::echo::quote(.flag))]
    UnknownFlag { operand: String, flag: String },
    #[error("{operand}={value} is not supported by iomark dd: {why}")]
    Unsupported {
        operand: String,
        value: String,
        why: String,
    },
    #[error("{0}")]
    Refused(String),
}

/// `iflag=` / `oflag=` flags.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Flags {
    pub direct: bool,
    pub dsync: bool,
    pub sync: bool,
    pub fullblock: bool,
    pub nocache: bool,
    pub noatime: bool,
    pub count_bytes: bool,
    pub skip_bytes: bool,
    pub seek_bytes: bool,
}

/// `conv=` conversions (only those that do not change the data).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Conv {
    pub fsync: bool,
    pub fdatasync: bool,
    pub notrunc: bool,
    pub excl: bool,
    pub nocreat: bool,
}

/// `status=`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Status {
    #[default]
    Default,
    None,
    NoXfer,
    Progress,
}

/// The parsed command line.
#[derive(Clone, Debug, PartialEq)]
pub struct DdArgs {
    pub input: Option<PathBuf>,
    pub output: Option<PathBuf>,
    pub ibs: u64,
    pub obs: u64,
    /// `bs=` was given: each input block is written as it was read.
    pub bs_given: bool,
    pub count: Option<u64>,
    pub skip: u64,
    pub seek: u64,
    pub iflag: Flags,
    pub oflag: Flags,
    pub conv: Conv,
    pub status: Status,
    pub result_file: Option<PathBuf>,
    pub force_device_write: bool,
    pub help: bool,
    /// The operands as written (for the result file).
    pub raw: Vec<(String, String)>,
}

impl Default for DdArgs {
    fn default() -> Self {
        DdArgs {
            input: None,
            output: None,
            ibs: 512,
            obs: 512,
            bs_given: false,
            count: None,
            skip: 0,
            seek: 0,
            iflag: Flags::default(),
            oflag: Flags::default(),
            conv: Conv::default(),
            status: Status::Default,
            result_file: None,
            force_device_write: false,
            help: false,
            raw: Vec::new(),
        }
    }
}

impl DdArgs {
    /// `count=` in bytes (`iflag=count_bytes` or count × ibs).
    pub fn count_bytes(&self) -> Option<u64> {
        self.count.map(|c| {
            if self.iflag.count_bytes {
                c
            } else {
                c.saturating_mul(self.ibs)
            }
        })
    }
    /// `skip=` in bytes.
    pub fn skip_bytes(&self) -> u64 {
        if self.iflag.skip_bytes {
            self.skip
        } else {
            self.skip.saturating_mul(self.ibs)
        }
    }
    /// `seek=` in bytes.
    pub fn seek_bytes(&self) -> u64 {
        if self.oflag.seek_bytes {
            self.seek
        } else {
            self.seek.saturating_mul(self.obs)
        }
    }
}

/// A number with GNU dd's suffixes: `c w b kB K KiB MB M MiB ...` and `x` products.
pub fn parse_number(s: &str) -> Option<u64> {
    let mut total: u64 = 1;
    for part in s.split('x') {
        total = total.checked_mul(parse_factor(part)?)?;
    }
    Some(total)
}

fn parse_factor(s: &str) -> Option<u64> {
    let split = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    let (num, suffix) = s.split_at(split);
    if num.is_empty() {
        return None;
    }
    let n: u64 = num.parse().ok()?;
    let mult: u64 = match suffix {
        "" | "c" => 1,
        "w" => 2,
        "b" => 512,
        _ => {
            let mut chars = suffix.chars();
            let letter = chars.next()?;
            let rest: String = chars.collect();
            let power = "KMGTPE".find(letter.to_ascii_uppercase())? as u32 + 1;
            let base: u64 = match rest.as_str() {
                "" | "iB" => 1024,
                "B" | "D" => 1000,
                _ => return None,
            };
            // Lower-case `k` is dd's kilo; other lower-case letters are not suffixes.
            if letter.is_ascii_lowercase() && letter != 'k' {
                return None;
            }
            base.checked_pow(power)?
        }
    };
    n.checked_mul(mult)
}

fn parse_flags(operand: &str, value: &str, input: bool) -> Result<Flags, DdError> {
    let mut f = Flags::default();
    for flag in value.split(',') {
        let ok = match flag {
            "direct" => {
                f.direct = true;
                true
            }
            "dsync" => {
                f.dsync = true;
                true
            }
            "sync" => {
                f.sync = true;
                true
            }
            "nocache" => {
                f.nocache = true;
                true
            }
            "noatime" => {
                f.noatime = true;
                true
            }
            "fullblock" if input => {
                f.fullblock = true;
                true
            }
            "count_bytes" if input => {
                f.count_bytes = true;
                true
            }
            "skip_bytes" if input => {
                f.skip_bytes = true;
                true
            }
            "seek_bytes" if !input => {
                f.seek_bytes = true;
                true
            }
            "append" | "nonblock" | "nofollow" | "noctty" | "directory" | "binary" | "text" => {
                return Err(DdError::Unsupported {
                    operand: operand.into(),
                    value: flag.into(),
                    why: "it does not change what is measured on a file or device; leave it out"
                        .into(),
                })
            }
            _ => false,
        };
        if !ok {
            return Err(DdError::UnknownFlag {
                operand: operand.into(),
                flag: flag.into(),
            });
        }
    }
    Ok(f)
}

fn parse_conv(value: &str) -> Result<Conv, DdError> {
    let mut c = Conv::default();
    for v in value.split(',') {
        match v {
            "fsync" => c.fsync = true,
            "fdatasync" => c.fdatasync = true,
            "notrunc" => c.notrunc = true,
            "excl" => c.excl = true,
            "nocreat" => c.nocreat = true,
            "ascii" | "ebcdic" | "ibm" | "block" | "unblock" | "lcase" | "ucase" | "sparse"
            | "swab" | "sync" | "noerror" => {
                return Err(DdError::Unsupported {
                    operand: "conv".into(),
                    value: v.into(),
                    why: "it converts or pads the data; iomark dd measures I/O, not conversions"
                        .into(),
                })
            }
            _ => {
                return Err(DdError::UnknownFlag {
                    operand: "conv".into(),
                    flag: v.into(),
                })
            }
        }
    }
    Ok(c)
}

/// Parse the operands (everything after `iomark dd`).
pub fn parse(args: &[String]) -> Result<DdArgs, DdError> {
    let mut a = DdArgs::default();
    let (mut bs, mut ibs, mut obs) = (None, None, None);
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "-h" | "--help" => {
                a.help = true;
                continue;
            }
            "--force-device-write" => {
                a.force_device_write = true;
                continue;
            }
            _ => {}
        }
        if let Some(f) = result_option::take(arg, || it.next().cloned()) {
            a.result_file = Some(f.map_err(|e| DdError::Refused(e.to_string()))?);
            continue;
        }
        let Some((key, value)) = arg.split_once('=') else {
            return Err(DdError::UnknownOperand(arg.clone()));
        };
        let number = |operand: &str| {
            parse_number(value).ok_or_else(|| DdError::BadNumber {
                operand: operand.into(),
                value: value.into(),
            })
        };
        let block = |operand: &str| {
            let n = number(operand)?;
            if n == 0 {
                return Err(DdError::ZeroBlock {
                    operand: operand.into(),
                });
            }
            Ok(n)
        };
        match key {
            "if" => a.input = Some(PathBuf::from(value)),
            "of" => a.output = Some(PathBuf::from(value)),
            "bs" => bs = Some(block("bs")?),
            "ibs" => ibs = Some(block("ibs")?),
            "obs" => obs = Some(block("obs")?),
            "count" => a.count = Some(number("count")?),
            "skip" | "iseek" => a.skip = number(key)?,
            "seek" | "oseek" => a.seek = number(key)?,
            "iflag" => a.iflag = parse_flags("iflag", value, true)?,
            "oflag" => a.oflag = parse_flags("oflag", value, false)?,
            "conv" => a.conv = parse_conv(value)?,
            "status" => {
                a.status = match value {
                    "none" => Status::None,
                    "noxfer" => Status::NoXfer,
                    "progress" => Status::Progress,
                    _ => {
                        return Err(DdError::UnknownFlag {
                            operand: "status".into(),
                            flag: value.into(),
                        })
                    }
                }
            }
            "cbs" => return Err(DdError::Unsupported {
                operand: key.into(),
                value: value.into(),
                why: "conversion blocks belong to conv=block/unblock, which iomark dd does not do"
                    .into(),
            }),
            _ => return Err(DdError::UnknownOperand(arg.clone())),
        }
        a.raw.push((key.to_string(), value.to_string()));
    }
    if let Some(b) = bs {
        a.ibs = b;
        a.obs = b;
        a.bs_given = true;
    } else {
        a.ibs = ibs.unwrap_or(512);
        a.obs = obs.unwrap_or(512);
    }
    Ok(a)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Result<DdArgs, DdError> {
        parse(&s.split_whitespace().map(String::from).collect::<Vec<_>>())
    }

    #[test]
    fn numbers_take_dd_suffixes() {
        assert_eq!(parse_number("1K"), Some(1024));
        assert_eq!(parse_number("1k"), Some(1024));
        assert_eq!(parse_number("100K"), Some(102400));
        assert_eq!(parse_number("1kB"), Some(1000));
        assert_eq!(parse_number("8M"), Some(8 << 20));
        assert_eq!(parse_number("8MiB"), Some(8 << 20));
        assert_eq!(parse_number("2MB"), Some(2_000_000));
        assert_eq!(parse_number("1G"), Some(1 << 30));
        assert_eq!(parse_number("3b"), Some(1536));
        assert_eq!(parse_number("2w"), Some(4));
        assert_eq!(parse_number("2x512"), Some(1024));
        assert_eq!(parse_number("17c"), Some(17));
        assert_eq!(parse_number("1m"), None);
        assert_eq!(parse_number("K"), None);
        assert_eq!(parse_number("1Q"), None);
        assert_eq!(parse_number("99999999999E"), None);
    }

    #[test]
    fn seed_line_parses() {
        let a = p("if=file.dat of=/dev/null iflag=direct bs=1M count=10K").unwrap();
        assert_eq!(a.input, Some(PathBuf::from("file.dat")));
        assert_eq!(a.ibs, 1 << 20);
        assert_eq!(a.obs, 1 << 20);
        assert!(a.bs_given && a.iflag.direct && !a.oflag.direct);
        assert_eq!(a.count_bytes(), Some(10240 << 20));
        let a = p("if=/dev/zero of=dd1.dat conv=fsync oflag=direct bs=8K count=100K").unwrap();
        assert!(a.conv.fsync && a.oflag.direct);
    }

    #[test]
    fn ibs_obs_and_bytes_flags() {
        let a = p("if=x of=/dev/null ibs=1000 obs=512 count=3 skip=2").unwrap();
        assert!(!a.bs_given);
        assert_eq!((a.ibs, a.obs), (1000, 512));
        assert_eq!(a.count_bytes(), Some(3000));
        assert_eq!(a.skip_bytes(), 2000);
        let a = p("if=x of=y iflag=count_bytes,skip_bytes oflag=seek_bytes count=7 skip=3 seek=5")
            .unwrap();
        assert_eq!(
            (a.count_bytes(), a.skip_bytes(), a.seek_bytes()),
            (Some(7), 3, 5)
        );
    }

    #[test]
    fn bad_input_names_the_operand() {
        assert_eq!(
            p("if=x bogus=1"),
            Err(DdError::UnknownOperand("bogus=1".into()))
        );
        assert_eq!(p("if=x foo"), Err(DdError::UnknownOperand("foo".into())));
        assert!(matches!(p("bs=12Q"), Err(DdError::BadNumber { operand, .. }) if operand == "bs"));
        assert!(matches!(p("bs=0"), Err(DdError::ZeroBlock { operand }) if operand == "bs"));
        assert!(
            matches!(p("iflag=fast"), Err(DdError::UnknownFlag { operand, flag }) if operand == "iflag" && flag == "fast")
        );
        assert!(matches!(
            p("oflag=fullblock"),
            Err(DdError::UnknownFlag { .. })
        ));
        assert!(matches!(p("conv=ucase"), Err(DdError::Unsupported { .. })));
        assert!(matches!(p("status=loud"), Err(DdError::UnknownFlag { .. })));
        let e = p("count=x").unwrap_err().to_string();
        assert!(e.contains("count="), "{e}");
    }

    #[test]
    fn iomark_additions() {
        let a = p("if=x of=/dev/null --result-file=/tmp/r.json --force-device-write").unwrap();
        assert_eq!(a.result_file, Some(PathBuf::from("/tmp/r.json")));
        assert!(a.force_device_write);
        for words in result_option::spellings("r.json") {
            let line = format!("if=x {} of=y", words.join(" "));
            let a = p(&line).unwrap();
            assert_eq!(a.result_file, Some(PathBuf::from("r.json")), "{line}");
            assert_eq!(a.input, Some(PathBuf::from("x")));
            assert_eq!(a.output, Some(PathBuf::from("y")));
        }
        assert!(p("if=x --result").is_err());
    }
}
