//! The result-file option, the same on every command that writes iomark's result file:
//! `--result FILE` or `--result=FILE`, also spelled `--result-file` (the same option). Each
//! command's parser recognises it here, so both spellings mean the same thing everywhere.

use std::path::PathBuf;

/// The option's name, as the help texts show it.
pub const NAME: &str = "result";

/// The same option's other spelling.
pub const ALIAS: &str = "result-file";

/// Whether `key` (an option's word without its leading `--` and any `=VALUE`) names the
/// result-file option.
pub fn names(key: &str) -> bool {
    key == NAME || key == ALIAS
}

/// A result-file option given without its file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0} needs a file name ({0}=FILE or {0} FILE)")]
pub struct NoFile(pub String);

/// The file `arg` names when it is the result-file option: `--result=FILE` carries it,
/// `--result FILE` takes it from `next` (the following word). None when `arg` is another
/// word; an error when the file is missing or empty.
pub fn take(arg: &str, next: impl FnOnce() -> Option<String>) -> Option<Result<PathBuf, NoFile>> {
    let body = arg.strip_prefix("--")?;
    let (key, inline) = match body.split_once('=') {
        Some((k, v)) => (k, Some(v.to_string())),
        None => (body, None),
    };
    if !names(key) {
        return None;
    }
    let file = inline.or_else(next).filter(|f| !f.is_empty());
    Some(
        file.map(PathBuf::from)
            .ok_or_else(|| NoFile(format!("--{key}"))),
    )
}

/// Every way to write the option naming `file`, as command-line words: both spellings, the
/// file attached (`--result=FILE`) or in the next word (`--result FILE`). Each parser's tests
/// try them all.
pub fn spellings(file: &str) -> Vec<Vec<String>> {
    [NAME, ALIAS]
        .iter()
        .flat_map(|n| {
            [
                vec![format!("--{n}={file}")],
                vec![format!("--{n}"), file.to_string()],
            ]
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(arg: &str, next: Option<&str>) -> Option<Result<PathBuf, NoFile>> {
        take(arg, || next.map(String::from))
    }

    #[test]
    fn both_spellings_with_the_file_attached_or_next() {
        for arg in ["--result", "--result-file"] {
            assert_eq!(t(arg, Some("r.json")), Some(Ok(PathBuf::from("r.json"))));
            let inline = format!("{arg}=x.json");
            assert_eq!(t(&inline, Some("other")), Some(Ok(PathBuf::from("x.json"))));
        }
    }

    #[test]
    fn every_spelling_is_taken() {
        let all = spellings("f");
        assert_eq!(all.len(), 4);
        for words in all {
            let mut rest = words[1..].iter().cloned();
            assert_eq!(
                take(&words[0], || rest.next()),
                Some(Ok(PathBuf::from("f")))
            );
        }
    }

    #[test]
    fn other_words_are_left_alone() {
        for arg in [
            "--results",
            "-result",
            "result=x",
            "--report=x",
            "--result-files=y",
            "r",
        ] {
            assert_eq!(t(arg, Some("n")), None, "{arg}");
        }
    }

    #[test]
    fn a_missing_file_is_named() {
        let e = t("--result", None).unwrap().unwrap_err();
        assert_eq!(
            e.to_string(),
            "--result needs a file name (--result=FILE or --result FILE)"
        );
        assert!(t("--result-file=", Some("x")).unwrap().is_err());
    }
}
