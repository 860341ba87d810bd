//! A reference to one run as written on a command line: `@ID`, `@last`, `@last~N`, `@tag:NAME`.

use crate::{Result, StoreError};

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reference {
    Id(i64),
    /// The last run recorded but this many.
    Last(u32),
    /// The last run with this tag (a kept baseline: `@tag:before`).
    Tag(String),
}

impl Reference {
    /// `@12`, `@last`, `@last~2`, `@tag:NAME`; None when `s` does not start with `@` (a file
    /// name).
    pub fn parse(s: &str) -> Option<Result<Reference>> {
        let body = s.strip_prefix('@')?;
        let bad = || StoreError::BadReference(s.to_string());
        let r = if body == "last" {
            Ok(Reference::Last(0))
        } else if let Some(n) = body.strip_prefix("last~") {
            n.parse().map(Reference::Last).map_err(|_| bad())
        } else if let Some(t) = body.strip_prefix("tag:").filter(|t| !t.is_empty()) {
            Ok(Reference::Tag(t.to_string()))
        } else {
            body.parse().map(Reference::Id).map_err(|_| bad())
        };
        Some(r)
    }

    /// The reference as written (`@last~2`), for the message of a run that is not there.
    pub fn text(&self) -> String {
        match self {
            Reference::Id(id) => format!("@{id}"),
            Reference::Last(0) => "@last".into(),
            Reference::Last(n) => format!("@last~{n}"),
            Reference::Tag(t) => format!("@tag:{t}"),
        }
    }

    /// The query that finds the run (`?1` is [`Reference::arg`]); it returns no row when
    /// there is none. The same text serves both backends once their placeholder is put in.
    pub(crate) fn query(&self) -> &'static str {
        match self {
            Reference::Id(_) => "SELECT id FROM runs WHERE id = ?1",
            Reference::Last(_) => "SELECT id FROM runs ORDER BY id DESC LIMIT 1 OFFSET ?1",
            Reference::Tag(_) => "SELECT max(run_id) FROM tags WHERE tag = ?1 HAVING count(*) > 0",
        }
    }

    /// The query's one argument.
    pub(crate) fn arg(&self) -> crate::filter::Arg {
        use crate::filter::Arg;
        match self {
            Reference::Id(id) => Arg::Int(*id),
            Reference::Last(n) => Arg::Int(i64::from(*n)),
            Reference::Tag(t) => Arg::Text(t.clone()),
        }
    }
}
