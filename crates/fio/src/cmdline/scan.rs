//! Scanning the arguments: switches, job options (globals before the first `--name`, then
//! each job's own) and job files, in the order written.

use super::error::CliError;
use super::Action;
use crate::job_builder::RawJob;
use crate::options::{self, OptKind};
use crate::switches::{find_switch, SwitchDef, SwitchValue, Switches, SWITCHES};
use crate::values;
use std::path::PathBuf;

/// The arguments, sorted but not yet typed.
#[derive(Default)]
pub(super) struct Scanned {
    pub switches: Switches,
    pub action: Action,
    pub warnings: Vec<String>,
    pub job_files: Vec<PathBuf>,
    /// CLI globals (before the first --name, and in --name=global sections).
    pub globals: Vec<(String, String)>,
    pub jobs: Vec<RawJob>,
}

pub(super) fn scan(args: &[String]) -> Result<Scanned, CliError> {
    let mut sc = Scanned::default();
    let mut in_job = false;
    let mut i = 0;
    let mut only_files = false;
    while i < args.len() {
        let arg = &args[i];
        i += 1;
        if only_files || arg == "-" || !arg.starts_with('-') || arg.len() == 1 {
            sc.job_files.push(PathBuf::from(arg));
            continue;
        }
        if arg == "--" {
            only_files = true;
            continue;
        }
        let single = !arg.starts_with("--");
        let body = arg.strip_prefix("--").unwrap_or(&arg[1..]);
        let (key, inline) = match body.split_once('=') {
            Some((k, v)) => (k, Some(v.to_string())),
            None => (body, None),
        };

        if let Some(s) = find_switch(key, single) {
            let value = switch_value(s, inline, args, &mut i)?;
            apply_switch(s, value, &mut sc)?;
            continue;
        }

        let Some(def) = options::lookup(key) else {
            let sugg = options::nearest(
                key,
                options::all_spellings().chain(SWITCHES.iter().map(|s| s.name)),
            )
            .map(String::from);
            return Err(CliError::UnknownOption {
                name: key.to_string(),
                suggestion: sugg,
            });
        };
        let value = match inline {
            Some(v) => v,
            None if def.kind.value_optional() => String::new(),
            None => {
                let next = args.get(i);
                let takes = match (def.kind, next) {
                    (_, None) => false,
                    (OptKind::Bool, Some(n)) => values::parse_bool(n).is_ok(),
                    (_, Some(n)) => {
                        !n.starts_with('-')
                            || n.len() > 1 && n[1..].starts_with(|c: char| c.is_ascii_digit())
                    }
                };
                if !takes {
                    return Err(CliError::MissingValue {
                        option: def.name.into(),
                        form: def.kind.form(),
                    });
                }
                i += 1;
                args[i - 1].clone()
            }
        };
        if def.name == "name" {
            let v = value.trim();
            if v.is_empty() {
                return Err(CliError::MissingValue {
                    option: "name".into(),
                    form: "a job name".into(),
                });
            }
            if v == "global" {
                in_job = false;
            } else {
                sc.jobs.push(RawJob {
                    name: v.to_string(),
                    inherited: sc.globals.clone(),
                    options: Vec::new(),
                    implicit_stonewall: false,
                    overrides: 0,
                });
                in_job = true;
            }
            continue;
        }
        if in_job {
            if let Some(j) = sc.jobs.last_mut() {
                j.options.push((key.to_string(), value));
            }
        } else {
            sc.globals.push((key.to_string(), value));
        }
    }
    Ok(sc)
}

/// The value a switch takes: inline (`--x=v`), the next argument, or none.
fn switch_value(
    s: &SwitchDef,
    inline: Option<String>,
    args: &[String],
    i: &mut usize,
) -> Result<Option<String>, CliError> {
    Ok(match (s.value, inline) {
        (SwitchValue::None, Some(v)) => {
            return Err(CliError::InvalidValue {
                option: s.name.into(),
                value: v,
                reason: "this switch takes no value".into(),
            })
        }
        (SwitchValue::None, None) => None,
        (_, Some(v)) => Some(v),
        (SwitchValue::Optional, None) => None,
        (SwitchValue::Required, None) => {
            if *i < args.len() {
                *i += 1;
                Some(args[*i - 1].clone())
            } else {
                return Err(CliError::MissingValue {
                    option: s.name.into(),
                    form: s.arg.into(),
                });
            }
        }
    })
}

/// Apply one switch through its row's setter; a help or version request is answered at once.
fn apply_switch(s: &SwitchDef, value: Option<String>, sc: &mut Scanned) -> Result<(), CliError> {
    if !s.supported {
        return Err(CliError::Unsupported(format!(
            "switch '--{}' ({}) is not supported by iomark",
            s.name,
            s.help.trim_end_matches('.')
        )));
    }
    let Some(set) = s.set else {
        sc.warnings
            .push(format!("switch '--{}' is ignored: {}", s.name, s.help));
        return Ok(());
    };
    let v = value.unwrap_or_default();
    set(&mut sc.switches, &v).map_err(|e| CliError::InvalidValue {
        option: s.name.into(),
        value: v.clone(),
        reason: e.0,
    })?;
    for class in std::mem::take(&mut sc.switches.output.debug_ignored) {
        sc.warnings.push(format!(
            "switch '--debug={class}' prints nothing in iomark: only the 'random' class is printed"
        ));
    }
    if let Some(r) = sc.switches.request.take() {
        sc.action = Action::answer(r)?;
    }
    Ok(())
}
