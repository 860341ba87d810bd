//! Which runs a query covers, and the SQL that selects them in either backend.

/// Every field given must match.
#[derive(Clone, Debug, Default)]
pub struct Filter {
    pub host: Option<String>,
    pub tag: Option<String>,
    pub front_end: Option<String>,
    /// A target path, or a part of one.
    pub target: Option<String>,
    /// Runs that started at or after this time (ms since the epoch).
    pub since_ms: Option<i64>,
    /// Runs that started before this time.
    pub before_ms: Option<i64>,
}

/// A query's argument.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Arg {
    Text(String),
    Int(i64),
}

/// The SQL dialects of the backends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Dialect {
    Sqlite,
    Postgres,
}

impl Dialect {
    /// `sql` with its `?N` placeholders written as the backend reads them (`$N` in
    /// PostgreSQL).
    pub(crate) fn placeholders(self, sql: &str) -> String {
        match self {
            Dialect::Sqlite => sql.to_string(),
            Dialect::Postgres => sql.replace('?', "$"),
        }
    }

    /// Whether text column `col` holds the argument `?n` somewhere.
    fn contains(self, col: &str, n: usize) -> String {
        match self {
            Dialect::Sqlite => format!("instr({col}, ?{n}) > 0"),
            Dialect::Postgres => format!("strpos({col}, ?{n}) > 0"),
        }
    }
}

impl Filter {
    /// The WHERE clause (on `runs r`) and its arguments, placeholders numbered from 1.
    pub(crate) fn clause(&self, d: Dialect) -> (String, Vec<Arg>) {
        let mut w: Vec<String> = Vec::new();
        let mut v: Vec<Arg> = Vec::new();
        let mut push = |cond: &dyn Fn(usize) -> String, a: Arg| {
            v.push(a);
            w.push(cond(v.len()));
        };
        if let Some(h) = &self.host {
            push(&|n| format!("r.host = ?{n}"), Arg::Text(h.clone()));
        }
        if let Some(t) = &self.tag {
            push(
                &|n| {
                    format!("EXISTS (SELECT 1 FROM tags t WHERE t.run_id = r.id AND t.tag = ?{n})")
                },
                Arg::Text(t.clone()),
            );
        }
        if let Some(fe) = &self.front_end {
            push(&|n| format!("r.front_end = ?{n}"), Arg::Text(fe.clone()));
        }
        if let Some(t) = &self.target {
            push(
                &|n| {
                    format!(
                        "EXISTS (SELECT 1 FROM targets t WHERE t.run_id = r.id AND {})",
                        d.contains("t.target", n)
                    )
                },
                Arg::Text(t.clone()),
            );
        }
        if let Some(s) = self.since_ms {
            push(&|n| format!("r.time_ms >= ?{n}"), Arg::Int(s));
        }
        if let Some(b) = self.before_ms {
            push(&|n| format!("r.time_ms < ?{n}"), Arg::Int(b));
        }
        let sql = if w.is_empty() {
            String::new()
        } else {
            format!(" WHERE {}", w.join(" AND "))
        };
        (d.placeholders(&sql), v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clauses_number_their_arguments() {
        let f = Filter {
            host: Some("h".into()),
            target: Some("/dev".into()),
            since_ms: Some(5),
            ..Filter::default()
        };
        let (sql, args) = f.clause(Dialect::Postgres);
        assert!(sql.contains("r.host = $1"), "{sql}");
        assert!(sql.contains("strpos(t.target, $2) > 0"), "{sql}");
        assert!(sql.ends_with("r.time_ms >= $3"), "{sql}");
        assert_eq!(args[2], Arg::Int(5));
        let (sql, _) = f.clause(Dialect::Sqlite);
        assert!(sql.contains("instr(t.target, ?2) > 0"), "{sql}");
        assert_eq!(Filter::default().clause(Dialect::Sqlite).0, "");
    }
}
