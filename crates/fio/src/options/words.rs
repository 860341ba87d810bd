//! fio's words for typed values of the job model: `filename_format` templates and `verify=`
//! method names.

use iomark_engine::job::{NamePart, NameTemplate};
use iomark_engine::verify::VerifyKind;

/// A `filename_format` template: `$jobname`, `$jobnum` and `$filenum` are filled in per clone
/// and file; `$clientuid` is 0 (there are no clients).
pub fn name_template(s: &str) -> NameTemplate {
    const VARS: [(&str, Option<NamePart>); 4] = [
        ("$jobname", Some(NamePart::JobName)),
        ("$jobnum", Some(NamePart::Clone)),
        ("$filenum", Some(NamePart::File)),
        ("$clientuid", None),
    ];
    let mut parts = Vec::new();
    let mut text = String::new();
    let mut rest = s;
    'outer: while !rest.is_empty() {
        for (var, part) in &VARS {
            if let Some(after) = rest.strip_prefix(var) {
                match part {
                    Some(p) => {
                        if !text.is_empty() {
                            parts.push(NamePart::Text(std::mem::take(&mut text)));
                        }
                        parts.push(p.clone());
                    }
                    None => text.push('0'),
                }
                rest = after;
                continue 'outer;
            }
        }
        let c = rest.chars().next().expect("not empty");
        text.push(c);
        rest = &rest[c.len_utf8()..];
    }
    if !text.is_empty() {
        parts.push(NamePart::Text(text));
    }
    NameTemplate(parts)
}

/// The check for a fio `verify=` value. `crc32c-intel` is CRC32C; `pattern_hdr` is the pattern
/// check (whose blocks always carry a header). Other fio names (crc64, crc32, crc16, crc7, sha1,
/// sha512, sha3-*) give `None`.
pub fn verify_kind(name: &str) -> Option<VerifyKind> {
    Some(match name.trim().to_ascii_lowercase().as_str() {
        "crc32c" | "crc32c-intel" => VerifyKind::Crc32c,
        "xxhash" => VerifyKind::Xxhash,
        "md5" => VerifyKind::Md5,
        "sha256" => VerifyKind::Sha256,
        "pattern" | "pattern_hdr" => VerifyKind::Pattern,
        "null" => VerifyKind::Null,
        "meta" => VerifyKind::Meta,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_name_templates() {
        assert_eq!(
            name_template("$jobname.$jobnum.$filenum"),
            NameTemplate::default()
        );
        let t = name_template("data-$filenum-$clientuid/$jobname$jobnum");
        assert_eq!(t.expand("j", 3, 7), "data-7-0/j3");
        assert_eq!(name_template("plain").expand("j", 0, 0), "plain");
    }

    #[test]
    fn verify_names() {
        for k in VerifyKind::ALL {
            assert_eq!(verify_kind(k.name()), Some(k));
        }
        assert_eq!(verify_kind("crc32c-intel"), Some(VerifyKind::Crc32c));
        assert_eq!(verify_kind("pattern_hdr"), Some(VerifyKind::Pattern));
        assert_eq!(verify_kind("MD5"), Some(VerifyKind::Md5));
        assert_eq!(verify_kind("crc64"), None);
        assert_eq!(verify_kind("1"), None);
    }
}
