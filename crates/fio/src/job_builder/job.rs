//! One job: its options, in order, through the setters of the option table, then what can only
//! be settled once all of them are in (see `finish`).

use super::finish::finish;
use super::{canonical, find_option, ignored_warning, BuildError, JobError, RawJob};
use crate::options::{self, Ctx, OptDef, OptKind, OptionError, Pending, Setter, Support};
use iomark_engine::job::{EngineKind, JobSpec};

/// Check one option's value on its own (only `kb_base` in force), so that a job file can point
/// at the line of a bad value. `Ok(Some(warning))` for an option iomark accepts and ignores.
pub fn check_option(
    def: &'static OptDef,
    value: &str,
    kb_base: u32,
) -> Result<Option<String>, OptionError> {
    let mut spec = JobSpec::default();
    let mut pending = Pending::new(kb_base);
    if def.is_engine_option() {
        if let Some(e) = def.engines.iter().find_map(|n| EngineKind::from_name(n)) {
            spec.ioengine = e;
            pending.engine_set = true;
        }
    }
    let mut w = Vec::new();
    let mut c = Ctx {
        spec: &mut spec,
        pending: &mut pending,
        def,
        index: 0,
        overriding: false,
    };
    apply(&mut c, value, &[], &mut w)?;
    Ok(w.pop())
}

/// Type one job. `warnings` receives one line per ignored option.
pub fn build_job(
    raw: &RawJob,
    readonly: bool,
    warnings: &mut Vec<String>,
) -> Result<JobSpec, JobError> {
    build_job_pending(raw, readonly, warnings).map(|(spec, _)| spec)
}

/// The job's starting point: the job model's defaults, which are fio's (a test holds the option
/// table's defaults to them), under the job's name.
fn fresh(name: &str) -> JobSpec {
    let mut spec = JobSpec {
        name: name.to_string(),
        ..JobSpec::default()
    };
    // fio's default is per_job_logs=1; `LogSpec::default()` has it false.
    spec.logs.per_job_logs = true;
    spec
}

/// [`build_job`], also returning what the plan needs beyond the job model (`new_group`,
/// where `wait_for` was given).
pub(super) fn build_job_pending(
    raw: &RawJob,
    readonly: bool,
    warnings: &mut Vec<String>,
) -> Result<(JobSpec, Pending), JobError> {
    let ctx = |option: Option<usize>| {
        move |e: BuildError| JobError {
            job: raw.name.clone(),
            option,
            cause: Box::new(e),
        }
    };
    let mut all: Vec<(&'static OptDef, &str)> = Vec::new();
    for (i, (k, v)) in raw.inherited.iter().chain(raw.options.iter()).enumerate() {
        all.push((
            find_option(k).map_err(|e| ctx(Some(i))(e.into()))?,
            v.as_str(),
        ));
    }

    let mut spec = fresh(&raw.name);
    let mut pending = Pending::new(1024);
    // Options that change how the others are read come first.
    for (i, (def, v)) in all.iter().enumerate() {
        if let Setter::First(set) = def.set {
            let mut c = Ctx {
                spec: &mut spec,
                pending: &mut pending,
                def,
                index: i,
                overriding: false,
            };
            set(&mut c, v).map_err(|e| ctx(Some(i))(e.into()))?;
        }
    }
    let mut own = vec![("name".to_string(), raw.name.clone())];
    own.extend(canonical(&raw.options).map_err(|e| ctx(None)(e.into()))?);
    spec.shown_options = own.into();

    let first_override = all.len() - raw.overrides.min(all.len());
    for (i, (def, value)) in all.iter().enumerate() {
        let mut c = Ctx {
            spec: &mut spec,
            pending: &mut pending,
            def,
            index: i,
            overriding: i >= first_override,
        };
        if let Err(e) = apply(&mut c, value, &all[i + 1..], warnings) {
            return Err(ctx(Some(i))(e.into()));
        }
    }
    drop_inherited_engine_options(&spec, &mut pending, &all[raw.inherited.len()..]);
    warnings.append(&mut pending.warnings);
    finish(&mut spec, &mut pending, raw.implicit_stonewall, readonly).map_err(ctx(None))?;
    if spec.logs.hist_log.is_some() && spec.logs.hist_msec == 0 {
        warnings.push(
            "write_hist_log without log_hist_msec logs nothing (as in fio); set log_hist_msec=MS"
                .into(),
        );
    }
    Ok((spec, pending))
}

/// A job that names its own ioengine leaves behind the options of the engine it inherited
/// (fio unloads that engine with its options): e.g. `donorname` in `[global]` for e4defrag
/// jobs, and one job of the file on libaio. Options the job itself gives are still checked.
fn drop_inherited_engine_options(
    spec: &JobSpec,
    pending: &mut Pending,
    own: &[(&'static OptDef, &str)],
) {
    if !own.iter().any(|(d, _)| matches!(d.kind, OptKind::Engine)) {
        return;
    }
    let engine = spec.ioengine.name();
    pending
        .engine_opts
        .retain(|d| d.engines.contains(&engine) || own.iter().any(|(o, _)| o.name == d.name));
}

/// Apply one option: its support status, the engine it belongs to, then its row's setter.
/// `later` holds the options after it (to tell a misplaced engine option from a wrong one).
fn apply(
    c: &mut Ctx<'_>,
    v: &str,
    later: &[(&'static OptDef, &str)],
    warnings: &mut Vec<String>,
) -> Result<(), OptionError> {
    let def = c.def;
    match def.support {
        Support::Supported => {}
        Support::Ignored(_) => {
            if let Some(w) = ignored_warning(def) {
                warnings.push(w);
            }
            return Ok(());
        }
        Support::NotYet(why) => {
            if options::is_default_value(def, v) {
                return Ok(());
            }
            let shown = if v.is_empty() {
                def.name.to_string()
            } else {
                format!("{}={v}", def.name)
            };
            return Err(OptionError::NotYet {
                shown,
                why: why.to_string(),
            });
        }
    }
    if def.is_engine_option() {
        // fio defines the option for this engine, but iomark's engine does not apply it.
        let cur = c.spec.ioengine.name();
        if c.pending.engine_set && def.inert_with.contains(&cur) {
            if !options::is_default_value(def, v) {
                let shown = if v.is_empty() {
                    def.name.to_string()
                } else {
                    format!("{}={v}", def.name)
                };
                warnings.push(format!(
                    "{shown} has no effect with ioengine={cur} in iomark (only {} applies it); ignored",
                    def.engines.join(" or ")
                ));
            }
            return Ok(());
        }
        check_engine(c, later)?;
    }
    match def.set {
        Setter::Set(set) => set(c, v),
        Setter::Choice => {
            let word = c.word(v)?;
            if let OptKind::Enum(choice) = def.kind {
                choice.apply(c.spec, &word);
            }
            Ok(())
        }
        Setter::First(_) | Setter::Check => Ok(()),
    }
}

/// An engine option must follow the `ioengine=` of an engine that defines it.
fn check_engine(c: &mut Ctx<'_>, later: &[(&'static OptDef, &str)]) -> Result<(), OptionError> {
    let def = c.def;
    let cur = c.spec.ioengine.name();
    if !def.engines.contains(&cur) {
        let later_engine = later.iter().find(|(d, val)| {
            matches!(d.kind, OptKind::Engine) && def.engines.contains(&val.trim())
        });
        let owners = def.engines.join(" or ");
        return Err(match later_engine {
            Some((_, e)) => OptionError::EngineAfter {
                option: def.name,
                engine: e.trim().to_string(),
            },
            None if !c.pending.engine_set => OptionError::EngineFirst {
                option: def.name,
                owners,
            },
            None => OptionError::EngineOther {
                option: def.name,
                owners,
                engine: cur,
            },
        });
    }
    if !c.pending.engine_opts.iter().any(|d| d.name == def.name) {
        c.pending.engine_opts.push(def);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn a_job_on_another_engine_leaves_the_inherited_engines_options() {
        // fio's examples/e4defrag2.fio: donorname in [global] for the e4defrag jobs, and a job
        // of the file on libaio (fio unloads e4defrag with its options there).
        let raw = RawJob {
            name: "aio".into(),
            inherited: opts(&[
                ("ioengine", "e4defrag"),
                ("donorname", "file.def"),
                ("filesize", "1m"),
            ]),
            options: opts(&[("ioengine", "libaio"), ("rw", "read"), ("filename", "f")]),
            ..Default::default()
        };
        let mut w = Vec::new();
        let spec = build_job(&raw, false, &mut w).unwrap();
        assert_eq!(spec.ioengine, EngineKind::Libaio);
        // Given in the job itself, it is still refused.
        let own = RawJob {
            name: "aio".into(),
            options: opts(&[
                ("ioengine", "e4defrag"),
                ("donorname", "file.def"),
                ("ioengine", "libaio"),
                ("rw", "read"),
                ("filename", "f"),
            ]),
            ..Default::default()
        };
        let e = build_job(&own, false, &mut w).unwrap_err().to_string();
        assert!(e.contains("donorname"), "{e}");
    }
}
