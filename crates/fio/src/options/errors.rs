//! The error options: `continue_on_error` (which classes of error a job goes on after),
//! `ignore_error` (per class, the error numbers tolerated: names or numbers, `:` separated, one
//! list per class `read,write,verify`) and `error_dump` (report every error).

use super::apply::{Ctx, OptionError};
use iomark_engine::job::ContinueOnError;

/// The error names fio accepts in `ignore_error` (others must be given as numbers).
const NAMES: &[(&str, i32)] = &[
    ("EPERM", libc::EPERM),
    ("ENOENT", libc::ENOENT),
    ("ESRCH", libc::ESRCH),
    ("EINTR", libc::EINTR),
    ("EIO", libc::EIO),
    ("ENXIO", libc::ENXIO),
    ("E2BIG", libc::E2BIG),
    ("ENOEXEC", libc::ENOEXEC),
    ("EBADF", libc::EBADF),
    ("ECHILD", libc::ECHILD),
    ("EAGAIN", libc::EAGAIN),
    ("ENOMEM", libc::ENOMEM),
    ("EACCES", libc::EACCES),
    ("EFAULT", libc::EFAULT),
    ("ENOTBLK", libc::ENOTBLK),
    ("EBUSY", libc::EBUSY),
    ("EEXIST", libc::EEXIST),
    ("EXDEV", libc::EXDEV),
    ("ENODEV", libc::ENODEV),
    ("ENOTDIR", libc::ENOTDIR),
    ("EISDIR", libc::EISDIR),
    ("EINVAL", libc::EINVAL),
    ("ENFILE", libc::ENFILE),
    ("EMFILE", libc::EMFILE),
    ("ENOTTY", libc::ENOTTY),
    ("ETXTBSY", libc::ETXTBSY),
    ("EFBIG", libc::EFBIG),
    ("ENOSPC", libc::ENOSPC),
    ("ESPIPE", libc::ESPIPE),
    ("EROFS", libc::EROFS),
    ("EMLINK", libc::EMLINK),
    ("EPIPE", libc::EPIPE),
    ("EDOM", libc::EDOM),
    ("ERANGE", libc::ERANGE),
];

/// The number C's `atoi` reads from the start of `s` (0 when there is none).
fn atoi(s: &str) -> i64 {
    let s = s.trim_start();
    let (neg, digits) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let n = digits
        .bytes()
        .take_while(u8::is_ascii_digit)
        .fold(0i64, |n, d| {
            n.saturating_mul(10).saturating_add(i64::from(d - b'0'))
        });
    if neg {
        -n
    } else {
        n
    }
}

/// One error: a name from [`NAMES`] (a word starting with `E`) or a number (its sign dropped).
fn error_number(word: &str) -> Option<i32> {
    let n = if word.starts_with('E') {
        NAMES
            .iter()
            .find(|(n, _)| *n == word)
            .map_or(0, |&(_, e)| e)
    } else {
        i32::try_from(atoi(word).unsigned_abs()).unwrap_or(0)
    };
    (n != 0).then_some(n)
}

/// `ignore_error=READ,WRITE,VERIFY`, each a `:`-separated list (an empty item ends a list); per
/// class, the listed errors or `None` where nothing is listed.
pub fn parse_ignore_error(v: &str) -> Result<[Option<Vec<i32>>; 3], String> {
    let mut out = [None, None, None];
    for (class, field) in v.trim().split(',').enumerate() {
        if class >= 3 {
            return Err("at most three lists (read, write, verify)".into());
        }
        let mut list = Vec::new();
        for word in field.split(':') {
            if word.is_empty() {
                break;
            }
            match error_number(word) {
                Some(n) => list.push(n),
                None => {
                    return Err(format!(
                        "unknown error {word}, give its number (names known: {})",
                        NAMES.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", ")
                    ))
                }
            }
        }
        if !list.is_empty() {
            out[class] = Some(list);
        }
    }
    Ok(out)
}

/// `ignore_error=`: the listed errors are tolerated, and their classes go on after them.
pub fn ignore_error(c: &mut Ctx<'_>, v: &str) -> Result<(), OptionError> {
    let lists = parse_ignore_error(v).map_err(|e| c.invalid(v, e))?;
    for (class, list) in lists.into_iter().enumerate() {
        if let Some(list) = list {
            c.spec.errors.go_on[class] = true;
            c.spec.errors.codes[class] = Some(list);
        }
    }
    Ok(())
}

/// `continue_on_error=`: the classes a job goes on after (replacing earlier ones).
pub fn continue_on_error(spec: &mut iomark_engine::job::JobSpec, v: ContinueOnError) {
    spec.errors.go_on = v.classes();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_per_class_with_names_and_numbers() {
        let l = parse_ignore_error("EIO:ENOSPC,28,-22").unwrap();
        assert_eq!(l[0], Some(vec![libc::EIO, libc::ENOSPC]));
        assert_eq!(l[1], Some(vec![28]));
        assert_eq!(l[2], Some(vec![22]));
        // An empty list leaves its class alone; an empty item ends a list.
        let l = parse_ignore_error(",EIO::ENOSPC").unwrap();
        assert_eq!(l[0], None);
        assert_eq!(l[1], Some(vec![libc::EIO]));
        assert_eq!(l[2], None);
        // atoi: a leading number counts, the rest of the word does not.
        assert_eq!(parse_ignore_error("5x").unwrap()[0], Some(vec![5]));
    }

    #[test]
    fn unknown_names_and_extra_lists_are_refused() {
        // EILSEQ is not among the names fio knows: it must be given as a number.
        assert!(parse_ignore_error("EILSEQ").unwrap_err().contains("EILSEQ"));
        assert!(parse_ignore_error("eio").is_err());
        assert!(parse_ignore_error("0").is_err());
        assert!(parse_ignore_error("EIO,EIO,EIO,EIO").is_err());
    }
}
