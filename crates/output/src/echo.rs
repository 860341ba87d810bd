//! Echoing what a user wrote inside a message: quoted, control characters escaped, and cut to a
//! readable length, so a stray binary file or a megabyte-long argument gives a one-line error.

/// The most characters of the user's text an error repeats.
pub(crate) const ECHO_MAX_CHARS: usize = 80;

/// `s` between single quotes, with control characters (and quotes and backslashes) escaped as
/// `\n`, `\t`, `\x1b`, ..., cut after `ECHO_MAX_CHARS` characters with the full length stated.
pub fn quote(s: &str) -> String {
    let total = s.chars().count();
    let mut out = format!("'{}'", escape_head(s));
    if total > ECHO_MAX_CHARS {
        out.push_str(&format!(
            " (cut: first {ECHO_MAX_CHARS} of {total} characters)"
        ));
    }
    out
}

/// `s` escaped as `quote` does, without quotes, cut after `ECHO_MAX_CHARS` characters with
/// a trailing `...` (for a name shown in brackets, such as a job file section).
pub fn cut(s: &str) -> String {
    let mut out = escape_head(s);
    if s.chars().nth(ECHO_MAX_CHARS).is_some() {
        out.push_str("...");
    }
    out
}

/// The first [`ECHO_MAX_CHARS`] characters of `s`, escaped.
fn escape_head(s: &str) -> String {
    let mut out = String::with_capacity(s.len().min(ECHO_MAX_CHARS * 4));
    for c in s.chars().take(ECHO_MAX_CHARS) {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\\' => out.push_str("\\\\"),
            '\'' => out.push_str("\\'"),
            c if c.is_control() => out.push_str(&format!("\\x{:02x}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_text_is_quoted_as_is() {
        assert_eq!(quote("sizee"), "'sizee'");
        assert_eq!(quote(""), "''");
        assert_eq!(quote("é∑"), "'é∑'");
    }

    #[test]
    fn control_bytes_are_escaped() {
        assert_eq!(quote("a\x1b[2Jb\n\t\0"), "'a\\x1b[2Jb\\n\\t\\x00'");
        assert_eq!(quote("it's \\"), "'it\\'s \\\\'");
        assert_eq!(quote("\u{7f}\u{9b}"), "'\\x7f\\x9b'");
    }

    #[test]
    fn long_text_is_cut_and_says_so() {
        let long = "k".repeat(10 << 20);
        let q = quote(&long);
        assert_eq!(
            q,
            format!(
                "'{}' (cut: first 80 of {} characters)",
                "k".repeat(80),
                10 << 20
            )
        );
        assert_eq!(quote(&"x".repeat(80)), format!("'{}'", "x".repeat(80)));
        assert_eq!(cut(&"x".repeat(80)), "x".repeat(80));
        assert_eq!(
            cut(&format!("{}\n", "x".repeat(80))),
            format!("{}...", "x".repeat(80))
        );
        assert_eq!(cut("a\x1bb"), "a\\x1bb");
    }
}
