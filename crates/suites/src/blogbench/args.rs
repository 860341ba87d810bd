//! blogbench's flags: `-d DIR -w N -W N -c N -r N -i N -s SECS` and their long forms
//! (`--directory=DIR`, ...), plus iomark's `--allow-nonempty`, `--fixed` and `--result` (or `--result-file`).

use iomark_output::result_option;
use std::path::PathBuf;
use thiserror::Error;

#[derive(Debug, Error, PartialEq)]
pub enum BlogError {
    #[error("unknown flag '{0}'{1}")]
    UnknownFlag(String, String),
    #[error("{flag} needs a value")]
    Missing { flag: String },
    #[error("bad value '{value}' for {flag}: {why}")]
    Bad {
        flag: String,
        value: String,
        why: String,
    },
    #[error("missing scratch directory (-d DIR or --directory=DIR)")]
    NoDir,
    #[error(transparent)]
    NoResultFile(#[from] result_option::NoFile),
}

#[derive(Clone, Debug, PartialEq)]
pub struct BlogArgs {
    pub dir: Option<PathBuf>,
    pub writers: u32,
    pub rewriters: u32,
    pub commenters: u32,
    pub readers: u32,
    pub iterations: u32,
    /// Seconds per iteration.
    pub sleep: u32,
    /// Run in a directory that already holds files.
    pub allow_nonempty: bool,
    /// The intended workload (64 KiB reads, think times) instead of upstream 1.2's.
    pub fixed: bool,
    pub result_file: Option<PathBuf>,
    pub help: bool,
}

impl Default for BlogArgs {
    fn default() -> Self {
        BlogArgs {
            dir: None,
            writers: 3,
            rewriters: 1,
            commenters: 5,
            readers: 100,
            iterations: 30,
            sleep: 10,
            allow_nonempty: false,
            fixed: false,
            result_file: None,
            help: false,
        }
    }
}

/// (short flag, long name) of the options that take a value.
pub const FLAGS: [(&str, &str); 7] = [
    ("-c", "commenters"),
    ("-d", "directory"),
    ("-i", "iterations"),
    ("-r", "readers"),
    ("-W", "rewriters"),
    ("-s", "sleep"),
    ("-w", "writers"),
];

fn count(flag: &str, v: &str, min: u32) -> Result<u32, BlogError> {
    let n: u32 = v.parse().map_err(|_| BlogError::Bad {
        flag: flag.into(),
        value: v.into(),
        why: "not a number".into(),
    })?;
    if n < min {
        return Err(BlogError::Bad {
            flag: flag.into(),
            value: v.into(),
            why: format!("at least {min}"),
        });
    }
    Ok(n)
}

/// The nearest valid flag to `f`, as a hint.
fn hint(f: &str) -> String {
    let name = f.trim_start_matches('-');
    let name = name.split_once('=').map_or(name, |(n, _)| n);
    FLAGS
        .iter()
        .find(|(_, long)| !name.is_empty() && (long.starts_with(name) || name.starts_with(long)))
        .map(|(s, l)| format!(" (did you mean {s} or --{l}?)"))
        .unwrap_or_default()
}

pub fn parse(args: &[String]) -> Result<BlogArgs, BlogError> {
    let mut a = BlogArgs::default();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "-h" | "--help" => {
                a.help = true;
                continue;
            }
            "--allow-nonempty" => {
                a.allow_nonempty = true;
                continue;
            }
            "--fixed" => {
                a.fixed = true;
                continue;
            }
            _ => {}
        }
        if let Some(f) = result_option::take(arg, || it.next().cloned()) {
            a.result_file = Some(f?);
            continue;
        }
        // `--name=value`, `--name value`, `-x value`, `-xvalue`.
        let (flag, inline): (String, Option<String>) = if let Some(l) = arg.strip_prefix("--") {
            let (n, v) = match l.split_once('=') {
                Some((n, v)) => (n, Some(v.to_string())),
                None => (l, None),
            };
            match FLAGS.iter().find(|(_, long)| *long == n) {
                Some((s, _)) => (s.to_string(), v),
                None => return Err(BlogError::UnknownFlag(arg.clone(), hint(arg))),
            }
        } else if arg.len() > 2 && arg.starts_with('-') {
            (arg[..2].to_string(), Some(arg[2..].to_string()))
        } else {
            (arg.clone(), None)
        };
        if !FLAGS.iter().any(|(s, _)| *s == flag) {
            return Err(BlogError::UnknownFlag(arg.clone(), hint(arg)));
        }
        let v = match inline {
            Some(v) => v,
            None => it
                .next()
                .cloned()
                .ok_or(BlogError::Missing { flag: flag.clone() })?,
        };
        match flag.as_str() {
            "-d" => a.dir = Some(PathBuf::from(v)),
            "-c" => a.commenters = count(&flag, &v, 0)?,
            "-i" => a.iterations = count(&flag, &v, 1)?,
            "-r" => a.readers = count(&flag, &v, 0)?,
            "-W" => a.rewriters = count(&flag, &v, 0)?,
            "-s" => a.sleep = count(&flag, &v, 1)?,
            _ => a.writers = count(&flag, &v, 0)?,
        }
    }
    if a.dir.is_none() && !a.help {
        return Err(BlogError::NoDir);
    }
    let threads = u64::from(a.writers)
        + u64::from(a.rewriters)
        + u64::from(a.commenters)
        + u64::from(a.readers);
    if threads > MAX_THREADS {
        return Err(BlogError::Bad {
            flag: "-w/-W/-c/-r".into(),
            value: threads.to_string(),
            why: format!("{threads} threads in all; at most {MAX_THREADS}"),
        });
    }
    Ok(a)
}

/// Threads of all roles together a run may start.
pub const MAX_THREADS: u64 = 1000;

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Result<BlogArgs, BlogError> {
        parse(&s.split_whitespace().map(String::from).collect::<Vec<_>>())
    }

    #[test]
    fn threads_are_bounded() {
        assert!(p("-d /x -r 991").is_ok());
        let e = p("-d /x -r 2000").unwrap_err().to_string();
        assert!(e.contains("2009 threads in all; at most 1000"), "{e}");
    }

    #[test]
    fn seed_line_and_defaults() {
        let a = p("-d /x -c 10 -i 10 -r 10 -w 10 -W 10 -s 10").unwrap();
        assert_eq!(a.dir, Some(PathBuf::from("/x")));
        assert_eq!(
            (
                a.commenters,
                a.iterations,
                a.readers,
                a.writers,
                a.rewriters,
                a.sleep
            ),
            (10, 10, 10, 10, 10, 10)
        );
        let d = p("-d /x").unwrap();
        assert_eq!(
            (
                d.writers,
                d.rewriters,
                d.commenters,
                d.readers,
                d.iterations,
                d.sleep
            ),
            (3, 1, 5, 100, 30, 10)
        );
        // Later flags win (how tests shrink a seed line), long forms and -xVALUE.
        let a = p("-d /x -i 10 -i 1 --sleep=2 -r5 --writers 4 --result-file=/r").unwrap();
        assert_eq!((a.iterations, a.sleep, a.readers, a.writers), (1, 2, 5, 4));
        assert_eq!(a.result_file, Some(PathBuf::from("/r")));
        assert!(p("--allow-nonempty --directory=/y").unwrap().allow_nonempty);
        assert!(p("-d /y --fixed").unwrap().fixed);
        assert!(!p("-d /y").unwrap().fixed);
    }

    #[test]
    fn bad_input_names_the_flag() {
        assert!(matches!(p("-d /x -k 1"), Err(BlogError::UnknownFlag(f, _)) if f == "-k"));
        let e = p("-d /x --reader=3").unwrap_err().to_string();
        assert!(e.contains("--readers"), "{e}");
        assert_eq!(p("-d"), Err(BlogError::Missing { flag: "-d".into() }));
        assert!(matches!(p("-d /x -i 0"), Err(BlogError::Bad { flag, .. }) if flag == "-i"));
        assert!(matches!(p("-d /x -r many"), Err(BlogError::Bad { flag, .. }) if flag == "-r"));
        assert!(matches!(p("-d /x -s 0"), Err(BlogError::Bad { flag, .. }) if flag == "-s"));
        assert_eq!(p("-i 3"), Err(BlogError::NoDir));
        assert!(matches!(
            p("-d /x --result"),
            Err(BlogError::NoResultFile(_))
        ));
    }

    #[test]
    fn the_result_file_in_either_spelling() {
        for words in result_option::spellings("/r") {
            let a = p(&format!("-d /x {} -w 2", words.join(" "))).unwrap();
            assert_eq!(a.result_file, Some(PathBuf::from("/r")), "{words:?}");
            assert_eq!((a.dir, a.writers), (Some(PathBuf::from("/x")), 2));
        }
    }
}
