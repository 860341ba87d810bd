//! hdparm's timing flags.

use iomark_output::result_option;
use std::path::PathBuf;
use thiserror::Error;

#[derive(Debug, Error, PartialEq)]
pub enum HdparmError {
    #[error(
        "unknown flag '{0}': iomark hdparm does the read timings only (-t, -T, --direct, --offset)"
    )]
    UnknownFlag(String),
    #[error("--offset needs a number of GiB (got '{0}')")]
    BadOffset(String),
    #[error(transparent)]
    NoResultFile(#[from] result_option::NoFile),
    #[error("no device or file given")]
    NoPath,
    #[error("nothing to do: give -t and/or -T")]
    NoTiming,
    #[error("{0}")]
    Refused(String),
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct HdparmArgs {
    pub cached: bool,
    pub disk: bool,
    pub direct: bool,
    /// `--offset` in GiB (for -t).
    pub offset_gib: u64,
    pub paths: Vec<PathBuf>,
    pub result_file: Option<PathBuf>,
    pub help: bool,
}

pub fn parse(args: &[String]) -> Result<HdparmArgs, HdparmError> {
    let mut a = HdparmArgs::default();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        if let Some(f) = result_option::take(arg, || it.next().cloned()) {
            a.result_file = Some(f?);
            continue;
        }
        match arg.as_str() {
            "-h" | "--help" => a.help = true,
            "--direct" => a.direct = true,
            "--offset" => {
                let v = it.next().ok_or(HdparmError::BadOffset(String::new()))?;
                a.offset_gib = v.parse().map_err(|_| HdparmError::BadOffset(v.clone()))?;
            }
            s if s.starts_with("--") => return Err(HdparmError::UnknownFlag(s.into())),
            s if s.starts_with('-') && s.len() > 1 => {
                for c in s[1..].chars() {
                    match c {
                        't' => a.disk = true,
                        'T' => a.cached = true,
                        _ => return Err(HdparmError::UnknownFlag(format!("-{c}"))),
                    }
                }
            }
            s => a.paths.push(PathBuf::from(s)),
        }
    }
    if a.help {
        return Ok(a);
    }
    if a.paths.is_empty() {
        return Err(HdparmError::NoPath);
    }
    if !a.cached && !a.disk {
        return Err(HdparmError::NoTiming);
    }
    Ok(a)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Result<HdparmArgs, HdparmError> {
        parse(&s.split_whitespace().map(String::from).collect::<Vec<_>>())
    }

    #[test]
    fn seed_line_and_flags() {
        let a = p("-tT /dev/sdb").unwrap();
        assert!(a.cached && a.disk && !a.direct);
        assert_eq!(a.paths, vec![PathBuf::from("/dev/sdb")]);
        let a = p("-t --direct --offset 3 a b").unwrap();
        assert!(a.disk && !a.cached && a.direct);
        assert_eq!(a.offset_gib, 3);
        assert_eq!(a.paths.len(), 2);
    }

    #[test]
    fn bad_input_names_the_flag() {
        assert_eq!(
            p("-tX /dev/sda"),
            Err(HdparmError::UnknownFlag("-X".into()))
        );
        assert_eq!(
            p("--security-erase x /dev/sda"),
            Err(HdparmError::UnknownFlag("--security-erase".into()))
        );
        assert_eq!(
            p("-t --offset lots /dev/sda"),
            Err(HdparmError::BadOffset("lots".into()))
        );
        assert_eq!(p("-t"), Err(HdparmError::NoPath));
        assert!(matches!(
            p("-t /dev/sda --result"),
            Err(HdparmError::NoResultFile(_))
        ));
        assert_eq!(p("/dev/sda"), Err(HdparmError::NoTiming));
    }

    #[test]
    fn the_result_file_in_either_spelling() {
        for words in result_option::spellings("r.json") {
            let a = p(&format!("-t {} /dev/sda", words.join(" "))).unwrap();
            assert_eq!(a.result_file, Some(PathBuf::from("r.json")), "{words:?}");
            assert_eq!(a.paths, vec![PathBuf::from("/dev/sda")]);
        }
    }
}
