//! Where a store is: a SQLite file, or a PostgreSQL database named by a URL
//! (`postgres://USER:PASSWORD@HOST:PORT/DB?...`, or `postgresql://...`). A URL is shown without
//! its password, wherever it was written (`:PASSWORD@` or `password=` among the parameters).

use std::path::PathBuf;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Location {
    File(PathBuf),
    Postgres(String),
}

impl Location {
    /// A location as written on a command line or in `IOMARK_STORE`.
    pub fn parse(s: &str) -> Location {
        let lower = s.get(..13).unwrap_or(s).to_ascii_lowercase();
        if lower.starts_with("postgres://") || lower.starts_with("postgresql://") {
            Location::Postgres(s.to_string())
        } else {
            Location::File(PathBuf::from(s))
        }
    }

    /// The location as it may be shown: a file's path, a URL without its password.
    pub fn shown(&self) -> String {
        match self {
            Location::File(p) => p.display().to_string(),
            Location::Postgres(u) => redact(u),
        }
    }
}

/// `url` without a password: the user's `:PASSWORD` before `@` is dropped, and a
/// `password=...` parameter is written `password=...` with its value hidden.
pub fn redact(url: &str) -> String {
    let (scheme, rest) = url.split_once("://").unwrap_or(("", url));
    let (head, query) = match rest.split_once('?') {
        Some((h, q)) => (h, Some(q)),
        None => (rest, None),
    };
    let (auth, host) = match head.split_once('/') {
        Some((a, p)) => (a, Some(p)),
        None => (head, None),
    };
    let auth = match auth.rsplit_once('@') {
        Some((user, at)) => format!("{}@{at}", user.split(':').next().unwrap_or_default()),
        None => auth.to_string(),
    };
    let mut out = format!("{scheme}://{auth}");
    if let Some(p) = host {
        out.push('/');
        out.push_str(p);
    }
    if let Some(q) = query {
        let params: Vec<String> = q
            .split('&')
            .map(|kv| match kv.split_once('=') {
                Some((k, _)) if k.eq_ignore_ascii_case("password") => format!("{k}=..."),
                _ => kv.to_string(),
            })
            .collect();
        out.push('?');
        out.push_str(&params.join("&"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locations() {
        assert_eq!(
            Location::parse("/x/results.db"),
            Location::File("/x/results.db".into())
        );
        assert_eq!(
            Location::parse("postgresql://h/db"),
            Location::Postgres("postgresql://h/db".into())
        );
        assert!(matches!(
            Location::parse("POSTGRES://h/db"),
            Location::Postgres(_)
        ));
        // A file whose name starts like one is a file.
        assert!(matches!(Location::parse("postgres.db"), Location::File(_)));
    }

    #[test]
    fn passwords_are_never_shown() {
        for (url, shown) in [
            (
                "postgres://bob:s3cret@db.example:5433/iomark",
                "postgres://bob@db.example:5433/iomark",
            ),
            (
                "postgresql://bob:p%40ss:x@h/db?sslmode=disable",
                "postgresql://bob@h/db?sslmode=disable",
            ),
            (
                "postgresql:///db?host=/run/pg&user=bob&password=s3cret",
                "postgresql:///db?host=/run/pg&user=bob&password=...",
            ),
            ("postgres://h", "postgres://h"),
            ("postgres://bob@h/db", "postgres://bob@h/db"),
        ] {
            assert_eq!(redact(url), shown, "{url}");
            assert!(!Location::parse(url).shown().contains("s3cret"));
        }
    }
}
