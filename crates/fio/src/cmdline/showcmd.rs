//! `--showcmd`: the jobs as one command line.

use crate::job_builder::RawPlan;
use crate::options;

fn quote_arg(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_=.,:/+%@^$".contains(c))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// The jobs as one `iomark run` command line (`--showcmd`) that yields the same job model:
/// options every job inherits come first (globals), then each job with the rest of what it
/// inherits and its own options; an implicit stonewall (second job file) is written out, and
/// overrides are given as `--override`.
pub fn showcmd(raw: &RawPlan) -> String {
    let mut parts = vec!["iomark".to_string(), "run".to_string()];
    let opt = |k: &str, v: &str| {
        if v.is_empty() {
            format!("--{k}")
        } else {
            quote_arg(&format!("--{k}={v}"))
        }
    };
    for (flag, on) in [
        ("--readonly", raw.readonly),
        ("--allow-fill", raw.allow_fill),
        ("--force-device-write", raw.force_device_write),
        ("--allow-unlink-existing", raw.allow_unlink_existing),
    ] {
        if on {
            parts.push(flag.to_string());
        }
    }
    for (k, v) in &raw.overrides {
        parts.push(quote_arg(&format!("--override={k}={v}")));
    }
    // The longest prefix of inherited options shared by every job.
    let common = match raw.jobs.split_first() {
        None => raw.global_options.len(),
        Some((first, rest)) => {
            let mut n = first.inherited.len();
            for j in rest {
                n = n.min(
                    first
                        .inherited
                        .iter()
                        .zip(&j.inherited)
                        .take_while(|(a, b)| a == b)
                        .count(),
                );
            }
            n
        }
    };
    let globals = match raw.jobs.first() {
        Some(j) => &j.inherited[..common],
        None => &raw.global_options[..],
    };
    for (k, v) in globals {
        parts.push(opt(k, v));
    }
    for j in &raw.jobs {
        parts.push(quote_arg(&format!("--name={}", j.name)));
        let own_end = j.options.len().saturating_sub(j.overrides);
        let mine: Vec<&(String, String)> = j.inherited[common..]
            .iter()
            .chain(&j.options[..own_end])
            .filter(|(k, _)| options::lookup(k).map(|d| d.name) != Some("name"))
            .collect();
        let says_stonewall = mine
            .iter()
            .any(|(k, _)| options::lookup(k).map(|d| d.name) == Some("stonewall"));
        if j.implicit_stonewall && !says_stonewall {
            parts.push("--stonewall".into());
        }
        for (k, v) in mine {
            parts.push(opt(k, v));
        }
    }
    parts.join(" ")
}
