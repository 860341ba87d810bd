//! bonnie++'s flags.

use iomark_engine::fileops::fileset::Links;
use std::path::PathBuf;
use thiserror::Error;

#[derive(Debug, Error, PartialEq)]
pub enum BonnieError {
    #[error("unknown flag '{0}'")]
    UnknownFlag(String),
    #[error("{flag} needs a value")]
    Missing { flag: String },
    #[error("bad value {q_value} for {flag}: {why}", q_value = iomark_output::echo::quote(.value))]
    Bad {
        flag: String,
        value: String,
        why: String,
    },
    #[error("{0}")]
    Refused(String),
}

#[derive(Clone, Debug, PartialEq)]
pub struct BonnieArgs {
    pub dir: PathBuf,
    /// `-s` in MiB (None = 2 x RAM).
    pub size_mib: Option<u64>,
    pub chunk: u64,
    pub seeks: u64,
    pub seekers: u32,
    /// `-n` number of files in units of 1024 (0 = no file tests).
    pub files: u64,
    pub file_spec: String,
    /// `-n` file sizes in bytes (0 = empty files) and subdirectories.
    pub file_max: u64,
    pub file_min: u64,
    pub file_dirs: u32,
    /// `-n` chunk size for file contents.
    pub file_chunk: u64,
    /// `-n num:-1` hard links, `-n num:-2` symbolic links to one empty file.
    pub file_links: Links,
    pub machine: Option<String>,
    /// `-r` in MiB (None = this machine's RAM; Some(0) = no check).
    pub ram_mib: Option<u64>,
    pub runs: u32,
    pub quiet: bool,
    /// `-f`: skip the per-char tests.
    pub fast: bool,
    pub fsync: bool,
    pub direct: bool,
    pub seed: Option<u64>,
    pub concurrency: u32,
    pub result_file: Option<PathBuf>,
    /// `--char-size`: bytes of the per-char tests (None: as bonnie++, 3 MiB or -s if smaller).
    pub char_bytes: Option<u64>,
    pub help: bool,
    /// Flags accepted without effect, with the reason (printed as notes).
    pub notes: Vec<String>,
}

impl Default for BonnieArgs {
    fn default() -> Self {
        BonnieArgs {
            dir: PathBuf::from("."),
            size_mib: None,
            chunk: 8192,
            seeks: 8192,
            seekers: 5,
            files: 16,
            file_spec: "16".into(),
            file_max: 0,
            file_min: 0,
            file_dirs: 1,
            file_chunk: 8192,
            file_links: Links::Files,
            machine: None,
            ram_mib: None,
            runs: 1,
            quiet: false,
            fast: false,
            fsync: false,
            direct: false,
            seed: None,
            concurrency: 1,
            result_file: None,
            char_bytes: None,
            help: false,
            notes: Vec::new(),
        }
    }
}

fn bad(flag: &str, value: &str, why: &str) -> BonnieError {
    BonnieError::Bad {
        flag: flag.into(),
        value: value.into(),
        why: why.into(),
    }
}

/// A size with bonnie++'s suffixes: plain MiB (or bytes for the chunk), `k`, `m`, `g`.
fn size(flag: &str, v: &str, unit: u64) -> Result<u64, BonnieError> {
    let (num, mult) = match v.chars().last() {
        Some('k' | 'K') => (&v[..v.len() - 1], 1024),
        Some('m' | 'M') => (&v[..v.len() - 1], 1 << 20),
        Some('g' | 'G') => (&v[..v.len() - 1], 1 << 30),
        _ => (v, unit),
    };
    let n: u64 = num.parse().map_err(|_| bad(flag, v, "not a number"))?;
    Ok(n * mult / unit)
}

/// Parse bonnie++'s command line (the words after `iomark bonnie`).
pub fn parse(args: &[String]) -> Result<BonnieArgs, BonnieError> {
    let mut a = BonnieArgs::default();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        if let Some(f) = iomark_output::result_option::take(arg, || it.next().cloned()) {
            a.result_file = Some(f.map_err(|e| BonnieError::Missing { flag: e.0 })?);
            continue;
        }
        if let Some(v) = arg.strip_prefix("--char-size=") {
            a.char_bytes = Some(size("--char-size", v, 1)?);
            continue;
        }
        let flag = arg.as_str();
        let mut value = |f: &str| {
            it.next()
                .cloned()
                .ok_or(BonnieError::Missing { flag: f.into() })
        };
        match flag {
            "-h" | "--help" => a.help = true,
            "-d" => a.dir = PathBuf::from(value(flag)?),
            "-s" => size_spec(&mut a, &value(flag)?)?,
            "-n" => file_spec(&mut a, value(flag)?)?,
            "-m" => a.machine = Some(value(flag)?),
            "-r" | "-x" | "-c" | "-z" => number(&mut a, flag, &value(flag)?)?,
            "-u" | "-g" | "-Z" | "-p" | "-y" => {
                let v = value(flag)?;
                a.notes.push(accepted_note(flag, &v));
            }
            "-q" => a.quiet = true,
            "-f" => a.fast = true,
            // bonnie++'s optional argument, attached: -fN, MiB of the per-char tests (0 skips).
            f if f.starts_with("-f") => {
                let mib: u64 = f[2..]
                    .parse()
                    .map_err(|_| bad("-f", &f[2..], "MiB of the per-char tests"))?;
                a.fast = mib == 0;
                a.char_bytes = Some(mib << 20);
            }
            "-b" => a.fsync = true,
            "-D" => a.direct = true,
            _ => return Err(BonnieError::UnknownFlag(flag.into())),
        }
    }
    Ok(a)
}

/// `-s size[:chunk[:seeks[:seekers]]]`: the test file's size in MiB, the chunk size (a power
/// of 2 from 256 to 1M), the number of seeks and of seeker threads; empty fields keep theirs.
fn size_spec(a: &mut BonnieArgs, v: &str) -> Result<(), BonnieError> {
    let flag = "-s";
    let parts: Vec<&str> = v.split(':').collect();
    a.size_mib = Some(size(flag, parts[0], 1 << 20)?);
    if let Some(c) = parts.get(1).filter(|s| !s.is_empty()) {
        let c = size(flag, c, 1)?;
        if !(256..=1 << 20).contains(&c) || !c.is_power_of_two() {
            return Err(bad(
                flag,
                v,
                "the chunk size is a power of 2 from 256 to 1M",
            ));
        }
        a.chunk = c;
    }
    if let Some(s) = parts.get(2).filter(|s| !s.is_empty()) {
        a.seeks = s.parse().map_err(|_| bad(flag, v, "seeks is a count"))?;
    }
    if let Some(s) = parts.get(3).filter(|s| !s.is_empty()) {
        a.seekers = s.parse().map_err(|_| bad(flag, v, "seekers is a count"))?;
        if !(1..=MAX_SEEKERS).contains(&a.seekers) {
            return Err(bad(
                flag,
                v,
                &format!("from 1 to {MAX_SEEKERS} seekers (each is a thread)"),
            ));
        }
    }
    Ok(())
}

/// Seeker threads at most.
pub const MAX_SEEKERS: u32 = 1000;
/// `-n` at most (in 1024s): the file count fits in bonnie++'s signed 32-bit count.
pub const MAX_FILES_K: u64 = (i32::MAX as u64) / 1024;

/// `-n num[:max[:min[:dirs[:chunk]]]]`: the file tests' count (in 1024s), file sizes (or
/// max -1 / -2 for hard / symbolic links), subdirectories and write chunk.
fn file_spec(a: &mut BonnieArgs, v: String) -> Result<(), BonnieError> {
    let flag = "-n";
    let parts: Vec<&str> = v.split(':').collect();
    a.files = parts[0]
        .parse()
        .map_err(|_| bad(flag, &v, "the number of files (in 1024s)"))?;
    if a.files > MAX_FILES_K {
        return Err(bad(
            flag,
            &v,
            &format!("at most {MAX_FILES_K} (x 1024 files), as bonnie++ counts them"),
        ));
    }
    let part = |i: usize| parts.get(i).copied().filter(|s| !s.is_empty());
    match part(1) {
        Some("-1") => a.file_links = Links::Hard,
        Some("-2") => a.file_links = Links::Symbolic,
        Some(m) if m.starts_with('-') => {
            return Err(bad(
                flag,
                &v,
                "max is a size, -1 (hard links) or -2 (symbolic links)",
            ))
        }
        Some(m) => a.file_max = size(flag, m, 1)?,
        None => {}
    }
    if let Some(m) = part(2) {
        a.file_min = size(flag, m, 1)?;
    }
    if a.file_links != Links::Files {
        // As bonnie++: the links all name one empty file, min has no meaning.
        a.file_min = 0;
    } else if a.file_min > a.file_max {
        return Err(bad(flag, &v, "min is larger than max"));
    }
    if let Some(d) = part(3) {
        a.file_dirs = d
            .parse()
            .map_err(|_| bad(flag, &v, "the number of directories"))?;
        if !(1..100_000).contains(&a.file_dirs) {
            return Err(bad(flag, &v, "from 1 to 99999 directories"));
        }
    }
    if let Some(c) = part(4) {
        a.file_chunk = size(flag, c, 1)?;
        if a.file_chunk == 0 {
            return Err(bad(flag, &v, "the chunk size is at least 1 byte"));
        }
    }
    a.file_spec = v;
    Ok(())
}

/// The flags that take a number: `-r` (MiB of RAM), `-x` (runs), `-c` (concurrency, with
/// a note on what it does) and `-z` (seed).
fn number(a: &mut BonnieArgs, flag: &str, v: &str) -> Result<(), BonnieError> {
    match flag {
        "-r" => {
            a.ram_mib = Some(v.parse().map_err(|_| bad(flag, v, "MiB of RAM"))?);
        }
        "-x" => {
            a.runs = v.parse().map_err(|_| bad(flag, v, "a number of runs"))?;
            if a.runs == 0 {
                return Err(bad(flag, v, "at least one run"));
            }
        }
        "-c" => {
            a.concurrency = v.parse().map_err(|_| bad(flag, v, "a count"))?;
            if !(1..=200).contains(&a.concurrency) {
                return Err(bad(flag, v, "from 1 to 200, as bonnie++"));
            }
            if a.concurrency > 1 {
                a.notes.push(format!(
                    "-c {v}: as bonnie++ 2.00a, the concurrency goes into the CSV line and the RAM check (size x {v} >= 2 x RAM); each test runs once, as bonnie++ 2.00a runs it"
                ));
            }
        }
        "-z" => {
            a.seed = Some(v.parse().map_err(|_| bad(flag, v, "a number"))?);
        }
        _ => unreachable!("{flag} is not a number flag"),
    }
    Ok(())
}

/// The note for a flag accepted without effect (`-u`, `-g`, `-Z`, `-p`, `-y`), with why.
fn accepted_note(flag: &str, v: &str) -> String {
    match flag {
        "-u" | "-g" => format!("{flag} {v} accepted: iomark does not change user or group"),
        "-Z" => format!(
            "-Z {v} accepted: iomark's random numbers come from its own seeded generator (-z)"
        ),
        _ => format!(
            "{flag} {v} accepted: semaphores synchronise bonnie++ processes on one host; iomark runs one process"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Result<BonnieArgs, BonnieError> {
        parse(&s.split_whitespace().map(String::from).collect::<Vec<_>>())
    }

    #[test]
    fn seed_line_parses() {
        let a = p("-d /mnt/raw_disk -D -b -m kvm-guest -x 3 -u root").unwrap();
        assert_eq!(a.dir, PathBuf::from("/mnt/raw_disk"));
        assert!(a.direct && a.fsync);
        assert_eq!(a.machine.as_deref(), Some("kvm-guest"));
        assert_eq!(a.runs, 3);
        assert_eq!(a.notes.len(), 1);
        assert_eq!((a.chunk, a.seeks, a.seekers, a.files), (8192, 8192, 5, 16));
    }

    #[test]
    fn size_chunk_seeks_seekers() {
        let a = p("-s 512:4k:1000:3 -r 0 -n 0").unwrap();
        assert_eq!(a.size_mib, Some(512));
        assert_eq!((a.chunk, a.seeks, a.seekers), (4096, 1000, 3));
        assert_eq!(a.ram_mib, Some(0));
        assert_eq!(a.files, 0);
        assert_eq!(p("-s 1g").unwrap().size_mib, Some(1024));
    }

    #[test]
    fn counts_are_bounded() {
        let e = p("-s 8:4096:10:100000").unwrap_err().to_string();
        assert!(e.contains("from 1 to 1000 seekers"), "{e}");
        let e = p("-n 18014398509481984").unwrap_err().to_string();
        assert!(e.contains("at most 2097151"), "{e}");
    }

    #[test]
    fn file_spec() {
        let a = p("-n 2:100k:10:3:4k").unwrap();
        assert_eq!((a.files, a.file_max, a.file_min), (2, 102400, 10));
        assert_eq!((a.file_dirs, a.file_chunk), (3, 4096));
        assert_eq!(a.file_spec, "2:100k:10:3:4k");
        assert_eq!(p("--char-size=64k").unwrap().char_bytes, Some(65536));
        let a = p("-n 1").unwrap();
        assert_eq!(
            (a.files, a.file_max, a.file_dirs, a.file_chunk),
            (1, 0, 1, 8192)
        );
        let a = p("-n 2:-1:5:3").unwrap();
        assert_eq!((a.file_links, a.file_max, a.file_min), (Links::Hard, 0, 0));
        assert_eq!(p("-n 1:-2").unwrap().file_links, Links::Symbolic);
        for bad in [
            "-n 1:-3",
            "-n 1:10:20",
            "-n 1:10:1:0",
            "-n x",
            "-n 1:1:1:1:0",
        ] {
            assert!(
                matches!(p(bad), Err(BonnieError::Bad { ref flag, .. }) if flag == "-n"),
                "{bad}"
            );
        }
    }

    #[test]
    fn bad_input_names_the_flag() {
        assert_eq!(p("-k"), Err(BonnieError::UnknownFlag("-k".into())));
        assert_eq!(p("-d"), Err(BonnieError::Missing { flag: "-d".into() }));
        assert!(matches!(p("-s lots"), Err(BonnieError::Bad { flag, .. }) if flag == "-s"));
        assert!(matches!(p("-s 10:3000"), Err(BonnieError::Bad { .. })));
        assert!(matches!(p("-x 0"), Err(BonnieError::Bad { flag, .. }) if flag == "-x"));
        assert!(matches!(p("-c 0"), Err(BonnieError::Bad { flag, .. }) if flag == "-c"));
        assert!(matches!(p("-c 201"), Err(BonnieError::Bad { flag, .. }) if flag == "-c"));
        let a = p("-c 4").unwrap();
        assert_eq!((a.concurrency, a.notes.len()), (4, 1));
        let a = p("-f5").unwrap();
        assert_eq!((a.fast, a.char_bytes), (false, Some(5 << 20)));
        assert!(p("-f0").unwrap().fast);
        assert!(matches!(p("-fx"), Err(BonnieError::Bad { flag, .. }) if flag == "-f"));
    }

    #[test]
    fn the_result_file_in_either_spelling() {
        for words in iomark_output::result_option::spellings("b.json") {
            let a = p(&format!("-d /x {} -s 8", words.join(" "))).unwrap();
            assert_eq!(a.result_file, Some(PathBuf::from("b.json")), "{words:?}");
            assert_eq!((a.dir, a.size_mib), (PathBuf::from("/x"), Some(8)));
        }
        assert!(p("-d /x --result").is_err());
    }
}
