//! The arguments of the store commands: filters (`--host`, `--tag`, `--command`, `--target`,
//! `--since`), `--json`, and dates (`2026-11-01`, `2026-11-01T08:00`, or `7d`, `12h`, `2w` ago).

use anyhow::{anyhow, bail, Result};
use iomark_store::Filter;

/// A store command's arguments.
#[derive(Debug, Default)]
pub struct Args {
    pub filter: Filter,
    pub json: bool,
    pub help: bool,
    /// The words that are not flags.
    pub words: Vec<String>,
    /// Flags with a value this command takes besides the filters (`--keep`, `--before`, ...).
    pub other: Vec<(String, String)>,
    pub tags: Vec<String>,
}

/// Reads `args`; `extra` names the flags with a value this command takes besides the filters.
pub fn parse(args: &[String], extra: &[&str], now_ms: i64) -> Result<Args> {
    let mut a = Args::default();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "-h" | "--help" => {
                a.help = true;
                continue;
            }
            "--json" => {
                a.json = true;
                continue;
            }
            w if !w.starts_with("--") => {
                a.words.push(w.to_string());
                continue;
            }
            _ => {}
        }
        let key = arg.split_once('=').map_or(arg.as_str(), |(k, _)| k);
        // `--front-end` is the older name of `--command`.
        let known = [
            "--host",
            "--tag",
            "--command",
            "--front-end",
            "--target",
            "--since",
        ];
        if !known.contains(&key) && !extra.contains(&key) {
            bail!("unknown option {}", iomark_output::echo::quote(key));
        }
        let (k, v) = match arg.split_once('=') {
            Some((k, v)) => (k.to_string(), v.to_string()),
            None => {
                let v = it.next().ok_or_else(|| anyhow!("{arg} needs a value"))?;
                (arg.clone(), v.clone())
            }
        };
        let f = &mut a.filter;
        match k.as_str() {
            "--host" => f.host = Some(v),
            "--tag" => {
                f.tag = Some(v.clone());
                a.tags.push(v);
            }
            "--command" | "--front-end" => f.front_end = Some(v),
            "--target" => f.target = Some(v),
            "--since" => f.since_ms = Some(date(&v, now_ms)?),
            k if extra.contains(&k) => a.other.push((k.to_string(), v)),
            _ => bail!("unknown option {}", iomark_output::echo::quote(&k)),
        }
    }
    Ok(a)
}

/// A date as ms since the epoch: `YYYY-MM-DD`, `YYYY-MM-DDTHH:MM[:SS]` (UTC), or a time
/// ago (`30m`, `12h`, `7d`, `2w`).
pub fn date(s: &str, now_ms: i64) -> Result<i64> {
    use chrono::{NaiveDate, NaiveDateTime};
    let ago = |n: &str, unit: i64| n.parse::<i64>().ok().map(|n| now_ms - n * unit);
    let rel = match s.char_indices().last() {
        Some((i, 'm')) => ago(&s[..i], 60_000),
        Some((i, 'h')) => ago(&s[..i], 3_600_000),
        Some((i, 'd')) => ago(&s[..i], 86_400_000),
        Some((i, 'w')) => ago(&s[..i], 7 * 86_400_000),
        _ => None,
    };
    if let Some(ms) = rel {
        return Ok(ms);
    }
    let t = s.replace(' ', "T");
    let at = NaiveDateTime::parse_from_str(&t, "%Y-%m-%dT%H:%M:%S")
        .or_else(|_| NaiveDateTime::parse_from_str(&t, "%Y-%m-%dT%H:%M"))
        .or_else(|_| {
            NaiveDate::parse_from_str(&t, "%Y-%m-%d").map(|d| d.and_time(Default::default()))
        })
        .map_err(|_| {
            anyhow!(
                "'{s}': expected a date (2026-11-01, 2026-11-01T08:00) or a time ago (12h, 7d, 2w)"
            )
        })?;
    Ok(at.and_utc().timestamp_millis())
}

/// Now, in ms since the epoch.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &[&str]) -> Vec<String> {
        s.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn dates_are_absolute_or_ago() {
        assert_eq!(date("1970-01-02", 0).unwrap(), 86_400_000);
        assert_eq!(date("1970-01-01T01:00", 0).unwrap(), 3_600_000);
        assert_eq!(date("1970-01-01 00:00:02", 0).unwrap(), 2000);
        assert_eq!(date("2d", 3 * 86_400_000).unwrap(), 86_400_000);
        assert_eq!(date("30m", 3_600_000).unwrap(), 1_800_000);
        assert!(date("yesterday", 0).is_err());
    }

    #[test]
    fn filters_and_words() {
        let a = parse(
            &v(&[
                "@1",
                "--host",
                "h",
                "--tag=t",
                "--since=1970-01-02",
                "--json",
                "--keep",
                "3",
            ]),
            &["--keep"],
            0,
        )
        .unwrap();
        assert_eq!(a.words, ["@1"]);
        assert_eq!(a.filter.host.as_deref(), Some("h"));
        assert_eq!(a.filter.tag.as_deref(), Some("t"));
        assert_eq!(a.filter.since_ms, Some(86_400_000));
        assert!(a.json);
        assert_eq!(a.other, [("--keep".to_string(), "3".to_string())]);
        // The command a run was made by (history's "command" column), also by its older name.
        for o in ["--command=iozone", "--front-end=iozone"] {
            let a = parse(&v(&[o]), &[], 0).unwrap();
            assert_eq!(a.filter.front_end.as_deref(), Some("iozone"), "{o}");
        }
        assert!(parse(&v(&["--keep", "3"]), &[], 0).is_err());
        assert!(parse(&v(&["--host"]), &[], 0).is_err());
        let e = parse(&v(&["--bogus"]), &[], 0).unwrap_err().to_string();
        assert!(e.starts_with("unknown option"), "{e}");
    }
}
